"""The language-model backend core: render a question, make ONE request, parse and validate.

:class:`ModelBackend` is what the OpenAI-compatible and the in-process (llama.cpp) backends
share. Its :meth:`ModelBackend.attempt` makes exactly one request and never raises for a model or
transport failure: it returns an :class:`Attempt` saying what happened (outcome, tokens, latency,
Retry-After). Retrying, falling back, caching and recording are wrappers
(:mod:`town.thinking.wrappers`), after Concordia's language-model wrappers.
"""

from __future__ import annotations

import abc
import enum
import time
from dataclasses import dataclass, replace
from typing import Any, TypedDict, cast

from pydantic import BaseModel

from ..config import Dialect
from ..errors import ThinkingError
from .backend import ThinkingBackend
from .prompting import SYSTEM_PROMPT, PromptSet
from .questions import A, Question
from .schema import CONSTRAINED
from .speed import Speed
from .validate import InvalidAnswer, parse_answer

__all__ = ["CallOutcome", "Attempt", "Completion", "Settled", "TransportFailure", "ModelBackend",
           "estimate_tokens"]


class CallOutcome(str, enum.Enum):
    """How one model call ended (stored as the value in MODEL_CALL events)."""

    OK = "ok"  # a valid answer
    TIMEOUT = "timeout"  # no answer within the client timeout
    RATE_LIMITED = "rate_limited"  # HTTP 429 (Retry-After honoured)
    SERVER_ERROR = "server_error"  # HTTP 5xx
    CONNECTION_ERROR = "connection_error"  # refused / reset / unreachable
    CLIENT_ERROR = "client_error"  # HTTP 4xx other than 429 (not retried)
    BAD_JSON = "bad_json"  # the reply held no parsable JSON object
    INVALID = "invalid"  # JSON that fails the answer schema or the town (unknown place, ...)
    FALLBACK = "fallback"  # not a request: the scripted answer was used after the failures

    @property
    def retryable(self) -> bool:
        """True for failures worth another attempt (all but OK, CLIENT_ERROR and FALLBACK)."""
        return self not in (CallOutcome.OK, CallOutcome.CLIENT_ERROR, CallOutcome.FALLBACK)

    @property
    def unavailable(self) -> bool:
        """True for failures that say the server is not answering (they count towards a stall)."""
        return self in (CallOutcome.TIMEOUT, CallOutcome.SERVER_ERROR, CallOutcome.CONNECTION_ERROR)


@dataclass(frozen=True, kw_only=True)
class Attempt:
    """One request to a model and what came of it.

    Attributes:
        template: the question's template name.
        purpose: the decision the question serves (``Question.purpose``).
        persona: persona id asking.
        outcome: how it ended.
        answer: the validated answer when ``outcome`` is OK, else None.
        tokens_in: prompt tokens the server counted (its ``usage``), or an estimate (see
            ``estimated``).
        tokens_out: completion tokens the server counted, or an estimate.
        estimated: True when the server did not count one of them (no ``usage``: a timeout, a
            dropped connection, a server that reports none): a missing ``tokens_in`` is then
            the prompt's characters / 4 and a missing ``tokens_out`` the reply's characters / 4,
            or the output budget the server may have spent when there was no reply; never 0.
        latency_ms: wall milliseconds from sending the request to its end (not the wait for a
            free slot of the endpoint).
        dropped: memories left out of the prompt to fit the token budget.
        endpoint: the base URL the request went to ("" for an in-process model).
        retry_after_s: the server's Retry-After in wall seconds, or None.
        error: a one-line reason for a failure ("" when OK).
        check: for a rejected answer, the answer check that rejected it (``InvalidAnswer.check``:
            a question's check, "schema", or "" for an unparsable reply); "" otherwise.
    """

    template: str
    purpose: str
    persona: str
    outcome: CallOutcome
    answer: BaseModel | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    estimated: bool = False
    latency_ms: float = 0.0
    retry_after_s: float | None = None
    error: str = ""
    check: str = ""
    dropped: int = 0
    endpoint: str = ""


class _Asked(TypedDict):
    """The fields of an :class:`Attempt` known before the request: what was asked."""

    template: str
    purpose: str
    persona: str
    dropped: int


class _Usage(TypedDict, total=False):
    """The fields of an :class:`Attempt` a reply settles: tokens, time, endpoint."""

    tokens_in: int
    tokens_out: int
    estimated: bool
    latency_ms: float
    endpoint: str


@dataclass(frozen=True, kw_only=True)
class Completion:
    """A server's reply: the message text, its token usage (None: not reported), and the time
    from send to reply."""

    text: str | None
    tokens_in: int | None = None
    tokens_out: int | None = None
    latency_ms: float = 0.0
    endpoint: str = ""


@dataclass(frozen=True, kw_only=True)
class Settled:
    """What a start-up check settled: the schema dialect, each endpoint's slots in order (empty:
    not asked, or in-process), the speed measured and the timeout set (None: not measured)."""

    dialect: Dialect
    slots: tuple[int, ...] = ()
    speed: Speed | None = None
    timeout_s: float | None = None


class TransportFailure(Exception):
    """Raised by :meth:`ModelBackend._complete` when a request got no usable reply.

    ``latency_ms`` is the time from send to failure (None: not measured, the caller's clock is
    used); ``endpoint`` the base URL it went to.
    """

    def __init__(self, outcome: CallOutcome, reason: str, *, retry_after_s: float | None = None,
                 latency_ms: float | None = None, endpoint: str = ""):
        super().__init__(reason)
        self.outcome = outcome
        self.retry_after_s, self.latency_ms, self.endpoint = retry_after_s, latency_ms, endpoint


class ModelBackend(ThinkingBackend):
    """Answers questions with a chat-completion model; one request per :meth:`attempt`.

    Args:
        model: model name sent with each request (and part of every cache key).
        prompts: the prompt templates.
        temperature: sampling temperature (0.7: a retry after a bad answer samples afresh).
        max_tokens: most completion tokens per answer.
        pool_size: requests this backend may serve at once (the tick's thread pool size).
        structured: how requests carry the answer's schema (see :mod:`town.thinking.schema`).
        max_prompt_tokens: the prompt budget per question, in estimated tokens (characters / 4);
            a longer prompt drops its lowest-scored memories (the last retrieved) until it fits.

    Implementations must be thread-safe: the simulation asks questions from a pool of threads.
    """

    name = "model"

    def __init__(
        self,
        *,
        model: str,
        prompts: PromptSet | None = None,
        temperature: float = 0.7,
        max_tokens: int = 400,
        pool_size: int = 4,
        structured: Dialect = Dialect.JSON_OBJECT,
        max_prompt_tokens: int = 0,
    ):
        self.model = model
        self.prompts = prompts or PromptSet()
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.pool_size = int(pool_size)
        self.structured = Dialect(structured)
        self.max_prompt_tokens = int(max_prompt_tokens)

    # ------------------------------------------------------------------ to implement
    @abc.abstractmethod
    def _complete(self, messages: list[dict[str, str]], schema: dict[str, Any] | None) -> Completion:
        """Send one chat completion request and return the reply.

        ``schema`` is the answer's JSON schema, sent in the backend's ``structured`` dialect
        (None: JSON mode without a schema).

        Raises:
            TransportFailure: no usable reply (timeout, 429, 5xx, refused, ...).
        """

    @abc.abstractmethod
    def check(self) -> Settled:
        """Start-up check: the model can answer (server reachable, key accepted, model known).

        Returns:
            What the check settled (the dialect requests use from now on, slots).

        Raises:
            ThinkingError: with one clear line naming the cause and the fix.
        """

    def check_server(self) -> None:
        """Check cheaply that the model answers again (ends a stall); default :meth:`check`.

        Raises:
            ThinkingError: with one clear line naming the cause.
        """
        self.check()

    def cancel(self) -> None:
        """End the requests in flight now (they raise ``RunStopped``) and refuse new ones: a stop
        request, not undone. Default: nothing (a request that cannot be interrupted runs on)."""

    # ------------------------------------------------------------------ shared
    @property
    def params(self) -> dict[str, Any]:
        """The sampling parameters sent with each request (part of every cache key)."""
        params: dict[str, Any] = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "response_format": "json_object",
        }
        if self.structured is not Dialect.JSON_OBJECT:  # older cache entries stay valid
            params["structured"] = self.structured.value
        return params

    def fitted(self, question: Question[A]) -> tuple[Question[A], str, int]:
        """(question as asked, its rendered prompt, memories left out) within the token budget:
        memories come best first (retrieval order), so the lowest-scored are dropped one by one
        until the prompt's estimated tokens (characters / 4) fit ``max_prompt_tokens`` (0: no
        budget). The question asked holds only the memories shown, so its schema and checks go by
        what the model read (a start time stated only in a dropped memory is not offered).

        Raises:
            ThinkingError: when the template is missing or fails to render.
        """
        text = self.prompts.render(question)
        dropped = 0
        while self.max_prompt_tokens and estimate_tokens(text) > self.max_prompt_tokens:
            fewer = question.fewer_memories()  # None: no memory left to drop
            if fewer is None:
                break
            question, dropped = fewer, dropped + 1
            text = self.prompts.render(question)
        return question, text, dropped

    def messages(self, question: Question) -> list[dict[str, str]]:
        """The chat messages for ``question``: the system prompt and the rendered template
        (the persona's identity opens every user prompt and the system prompt never changes, so
        consecutive requests of one persona share a prefix a server's prompt cache can reuse).

        Raises:
            ThinkingError: when the template is missing or fails to render.
        """
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": self.fitted(question)[1]}]

    def schema(self, question: Question) -> dict[str, Any] | None:
        """The answer schema sent with ``question`` (None unless the dialect constrains)."""
        return question.answer_schema() if self.structured in CONSTRAINED else None

    def cache_identity(self, question: Question) -> tuple[str, str, str, str, dict[str, Any]]:
        """(backend, model, template, rendered prompt, params): what a cached answer is keyed by."""
        return self.name, self.model, question.template, self.fitted(question)[1], self.params

    def attempt(self, question: Question, *, opening: str = "") -> Attempt:
        """Make one request for ``question``; parse, schema-check and domain-check the reply;
        ``opening`` opens its system prompt (the start-up check's mark for its importance check).

        Returns:
            The :class:`Attempt` (never raises for a model or transport failure).

        Raises:
            ThinkingError: only when the prompt template cannot be rendered.
        """
        asked, prompt, dropped = self.fitted(question)
        messages = [{"role": "system", "content": f"{opening} {SYSTEM_PROMPT}".lstrip()},
                    {"role": "user", "content": prompt}]
        base: _Asked = {"template": question.template, "purpose": question.purpose, "persona": question.persona,
                        "dropped": dropped}
        started = time.perf_counter()
        try:
            reply = self._complete(messages, self.schema(asked))
        except TransportFailure as exc:
            # the server may have read the prompt and gone on generating: count an estimate
            return Attempt(
                **base,
                outcome=exc.outcome,
                retry_after_s=exc.retry_after_s,
                latency_ms=elapsed_ms(started) if exc.latency_ms is None else exc.latency_ms,
                error=str(exc)[:300],
                endpoint=exc.endpoint,
                estimated=True,
                tokens_in=estimate_tokens(SYSTEM_PROMPT + prompt),
                # a timeout or an oversized reply: the server may have spent its whole budget
                tokens_out=self.max_tokens if exc.outcome in (CallOutcome.TIMEOUT, CallOutcome.INVALID) else 1,
            )
        # the server's own counts whenever it gives them; an estimate only for a missing one
        usage: _Usage = {
            "tokens_in": (estimate_tokens(SYSTEM_PROMPT + prompt) if reply.tokens_in is None
                          else reply.tokens_in),
            "tokens_out": (estimate_tokens(reply.text or "") if reply.tokens_out is None
                           else reply.tokens_out),
            "estimated": reply.tokens_in is None or reply.tokens_out is None,
            "latency_ms": reply.latency_ms or elapsed_ms(started),
            "endpoint": reply.endpoint,
        }
        try:
            answer = parse_answer(asked, reply.text, prompt)
        except InvalidAnswer as exc:
            outcome = CallOutcome.BAD_JSON if exc.unparsable else CallOutcome.INVALID
            return Attempt(**base, **usage, outcome=outcome, error=str(exc)[:300], check=exc.check)
        return Attempt(**base, **usage, outcome=CallOutcome.OK, answer=answer)

    def ask(self, question: Question[A]) -> A:
        """One attempt; its answer.

        Raises:
            ThinkingError: when the attempt failed (wrap in ``RetryingBackend`` for fallbacks).
        """
        result = self.attempt(question)
        if result.answer is None:
            raise ThinkingError(
                f"{self.name} model {self.model!r}: {result.outcome.value}: {result.error}"
            )
        return cast(A, result.answer)  # parsed into type(question).answer_model, which is A


def estimate_tokens(text: str) -> int:
    """A rough token count of ``text``: characters / 4, at least 1 (English BPE averages ~4)."""
    return max(1, len(text) // 4)


def elapsed_ms(started: float) -> float:
    """Wall milliseconds since ``started`` (a ``time.perf_counter()`` reading), to 0.01 ms."""
    return round((time.perf_counter() - started) * 1000.0, 2)
