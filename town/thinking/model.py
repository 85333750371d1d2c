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
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ..errors import ThinkingError
from .backend import ThinkingBackend
from .prompting import SYSTEM_PROMPT, PromptSet
from .questions import Question
from .validate import InvalidAnswer, parse_answer

__all__ = ["CallOutcome", "Attempt", "Completion", "TransportFailure", "ModelBackend", "PURPOSES"]


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


#: Question template -> the decision it serves (the ``purpose`` of a MODEL_CALL event).
PURPOSES = {
    "rate_importance": "importance",
    "plan_day": "plan",
    "decompose_task": "plan",
    "choose_place": "act",
    "next_action": "act",
    "decide_to_talk": "react",
    "next_line": "chat",
    "summarise_conversation": "chat",
    "focal_points": "reflect",
    "insights": "reflect",
    "answer_interview": "interview",
}


@dataclass(frozen=True, kw_only=True)
class Attempt:
    """One request to a model and what came of it.

    Attributes:
        template: the question's template name.
        persona: persona id asking.
        outcome: how it ended.
        answer: the validated answer when ``outcome`` is OK, else None.
        tokens_in: prompt tokens the server counted (0 if it did not answer).
        tokens_out: completion tokens.
        latency_ms: wall milliseconds of the request.
        retry_after_s: the server's Retry-After in wall seconds, or None.
        error: a one-line reason for a failure ("" when OK).
    """

    template: str
    persona: str
    outcome: CallOutcome
    answer: BaseModel | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_ms: float = 0.0
    retry_after_s: float | None = None
    error: str = ""


@dataclass(frozen=True, kw_only=True)
class Completion:
    """A server's reply: the message text and its token usage."""

    text: str | None
    tokens_in: int = 0
    tokens_out: int = 0


class TransportFailure(Exception):
    """Raised by :meth:`ModelBackend._complete` when a request got no usable reply."""

    def __init__(self, outcome: CallOutcome, reason: str, *, retry_after_s: float | None = None):
        super().__init__(reason)
        self.outcome = outcome
        self.retry_after_s = retry_after_s


class ModelBackend(ThinkingBackend):
    """Answers questions with a chat-completion model; one request per :meth:`attempt`.

    Args:
        model: model name sent with each request (and part of every cache key).
        prompts: the prompt templates.
        temperature: sampling temperature (0.7: a retry after a bad answer samples afresh).
        max_tokens: most completion tokens per answer.
        pool_size: requests this backend may serve at once (the tick's thread pool size).

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
    ):
        self.model = model
        self.prompts = prompts or PromptSet()
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.pool_size = int(pool_size)

    # ------------------------------------------------------------------ to implement
    @abc.abstractmethod
    def _complete(self, messages: list[dict[str, str]]) -> Completion:
        """Send one chat completion request (JSON mode) and return the reply.

        Raises:
            TransportFailure: no usable reply (timeout, 429, 5xx, refused, ...).
        """

    @abc.abstractmethod
    def check(self) -> None:
        """Start-up check: the model can answer (server reachable, key accepted, model known).

        Raises:
            ThinkingError: with one clear line naming the cause and the fix.
        """

    def probe(self) -> None:
        """Check cheaply that the model answers again (ends a stall); default :meth:`check`.

        Raises:
            ThinkingError: with one clear line naming the cause.
        """
        self.check()

    # ------------------------------------------------------------------ shared
    @property
    def params(self) -> dict[str, Any]:
        """The sampling parameters sent with each request (part of every cache key)."""
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "response_format": "json_object",
        }

    def messages(self, question: Question) -> list[dict[str, str]]:
        """The chat messages for ``question``: the system prompt and the rendered template.

        Raises:
            ThinkingError: when the template is missing or fails to render.
        """
        return [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": self.prompts.render(question)},
        ]

    def cache_identity(self, question: Question) -> tuple[str, str, str, str, dict[str, Any]]:
        """(backend, model, template, rendered prompt, params): what a cached answer is keyed by."""
        return (
            self.name,
            self.model,
            question.template,
            self.prompts.render(question),
            self.params,
        )

    def attempt(self, question: Question) -> Attempt:
        """Make one request for ``question``; parse, schema-check and domain-check the reply.

        Returns:
            The :class:`Attempt` (never raises for a model or transport failure).

        Raises:
            ThinkingError: only when the prompt template cannot be rendered.
        """
        messages = self.messages(question)
        base = {"template": question.template, "persona": question.persona}
        started = time.perf_counter()
        try:
            reply = self._complete(messages)
        except TransportFailure as exc:
            return Attempt(
                **base,
                outcome=exc.outcome,
                retry_after_s=exc.retry_after_s,
                latency_ms=_ms(started),
                error=str(exc)[:300],
            )
        latency = _ms(started)
        usage = {
            "tokens_in": reply.tokens_in,
            "tokens_out": reply.tokens_out,
            "latency_ms": latency,
        }
        try:
            answer = parse_answer(question, reply.text)
        except InvalidAnswer as exc:
            outcome = CallOutcome.BAD_JSON if exc.unparsable else CallOutcome.INVALID
            return Attempt(**base, **usage, outcome=outcome, error=str(exc)[:300])
        return Attempt(**base, **usage, outcome=CallOutcome.OK, answer=answer)

    def ask(self, question: Question) -> BaseModel:
        """One attempt; its answer.

        Raises:
            ThinkingError: when the attempt failed (wrap in ``RetryingBackend`` for fallbacks).
        """
        result = self.attempt(question)
        if result.answer is None:
            raise ThinkingError(
                f"{self.name} model {self.model!r}: {result.outcome.value}: {result.error}"
            )
        return result.answer


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 2)
