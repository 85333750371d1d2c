"""The start-up check of an OpenAI-compatible server, how its requests carry the schema, its speed.

Before a run the backend checks every endpoint: the model list (``GET /models``: key, model
name), one real completion request, and the slot count a llama.cpp server reports when
``max_concurrency`` is "auto". Then it settles the schema dialect (see
:mod:`town.thinking.schema`) by asking for a JSON object whose schema allows one word,
:data:`CHECK_WORD`, and measures the first server's speed (:mod:`town.thinking.speed`): the
completion request of the first server reads a prompt as long as the prompt budget, one more
request writes a list of words in the dialect, and the dialect's check request is the tiny one. The
speed sets the request timeout when ``timeout_s`` is "auto", and a server too slow for any
timeout up to ``max_timeout_s`` is refused. Each failure is one
:class:`~town.errors.ThinkingError` line naming the cause and the fix. The check sets nothing:
it returns what it settled (:class:`~.model.Settled`), and the backend takes it on
(``OpenAIBackend.check``). Every request of the check opens its prompt with :data:`CHECK_MARK`.
"""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any, Protocol

import openai

from ..config import Dialect
from ..errors import ThinkingError
from .endpoints import Endpoint, error_text
from .model import CallOutcome, Completion, Settled, TransportFailure, estimate_tokens
from .schema import CONSTRAINED, request_fields
from .speed import Timing, measure, timeout_for

__all__ = ["CHECK_MARK", "CHECK_WORD", "Server", "check", "check_server", "choose_dialect", "READING_TOKENS",
           "WRITING_WORDS", "WRITING_TOKENS"]

#: Opens the start-up check's prompt (proxies and test servers tell checks from questions by it).
CHECK_MARK = "town start-up check."
#: The only value the start-up check's schema allows; a model that obeyed the schema says it.
CHECK_WORD = "zebra-7"
_CHECK_SCHEMA = {
    "title": "town_check",
    "type": "object",
    "properties": {"word": {"type": "string", "enum": [CHECK_WORD]}},
    "required": ["word"],
    "additionalProperties": False,
}
_CHECK_SYSTEM = {"role": "system", "content": CHECK_MARK + " Reply with one JSON object and nothing else."}
_CHECK_MESSAGES = [_CHECK_SYSTEM, {"role": "user", "content": CHECK_MARK + ' Reply with {"word": "<any animal>"}.'}]
#: The reading request's prompt, in estimated tokens, when the backend has no prompt budget.
READING_TOKENS = 1200
#: Sentences of town life the reading prompt is made of (its length is what counts).
_NOTES = (
    "Isabella Rodriguez is brewing coffee at the counter of Hobbs Cafe.",
    "Klaus Mueller is reading articles about housing prices at the library.",
    "Maria Lopez is drinking a latte at the corner table before class.",
    "The Willows Market opens at 7am and sells milk, beans and pastries.",
    "A sign on the door of the pharmacy says it will close early today.",
    "Klaus told me he is writing a paper about gentrification in small towns.",
    "I saw two students playing chess in Johnson Park by the pond.",
    "The town council meets at Town Hall on Thursday evening at 7pm.",
)
#: Words the writing request asks for (its schema holds the model to them): about three answer
#: tokens each, over a hundred in all, so that writing takes most of the request's time.
WRITING_WORDS = 40
#: The writing request: a list of words, as long as the answer budget it is given.
_WRITING_SCHEMA = {
    "title": "town_check_words",
    "type": "object",
    "properties": {"words": {"type": "array", "items": {"type": "string", "maxLength": 16},
                             "minItems": WRITING_WORDS, "maxItems": WRITING_WORDS}},
    "required": ["words"],
    "additionalProperties": False,
}
_WRITING_MESSAGES = [_CHECK_SYSTEM, {"role": "user", "content": CHECK_MARK + (
    f' Name {WRITING_WORDS} different animals, one word each, as {{"words": ["...", "..."]}}.')}]
#: Answer tokens the writing request may write (its words and their JSON, with room to spare).
WRITING_TOKENS = 200


class Server(Protocol):
    """What the check reads of the backend (``OpenAIBackend``): its endpoints and settings, and
    how it sends one request."""

    model: str
    api_key_env: str
    key_set: bool
    timeout_s: float
    timeout_bounds: tuple[float, float] | None
    max_concurrency: str | int
    auto: bool
    structured: Dialect
    max_tokens: int
    max_prompt_tokens: int

    @property
    def endpoints(self) -> list[Endpoint]:
        """The servers, in the order given."""

    def send(self, endpoint: Endpoint, messages: list[dict[str, str]], fields: dict[str, Any],
             max_tokens: int | None = None) -> Completion:
        """Send one request to ``endpoint`` now (raises ``TransportFailure``)."""


def check(backend: Server, *, measure_speed: bool = True) -> Settled:
    """Start-up check of every endpoint, then the schema dialect, then the first one's speed.

    For each endpoint: the model list (``GET /models``: key, model name), one real completion
    request (a 404 or a reply that is not an OpenAI chat completion stops here; the first
    endpoint's reads a prompt of the prompt budget's length, timed), and its slot count when
    ``max_concurrency`` is "auto". Then :func:`choose_dialect`, and one request writing a list
    of words in that dialect (timed).

    Args:
        backend: the backend to check (only read).
        measure_speed: measure the speed and settle the timeout (False: a short completion per
            endpoint, no speed; an interview of a recorded run uses the run's timeout).

    Returns:
        The dialect chosen, the slots of each endpoint when ``max_concurrency`` is "auto"
        (what it reports at ``/props``, else 1), the first endpoint's speed and the request
        timeout (the backend's own when ``timeout_bounds`` is None, else from the speed); nothing
        is set on ``backend``.

    Raises:
        ThinkingError: one line naming the cause and the fix: unreachable server, refused
            key, unknown model, a URL that is not an OpenAI-compatible API root, a model that
            does not follow the answer schema, or a server too slow for any timeout up to
            ``max_timeout_s`` (naming its measured speed).
    """
    slots = []
    reading: Timing | None = None
    budget = (backend.max_prompt_tokens or READING_TOKENS) + estimate_tokens(_CHECK_SYSTEM["content"])
    for i, endpoint in enumerate(backend.endpoints):
        _check_models(backend, endpoint)
        if i == 0 and measure_speed:
            reading = _timing(_check_completion(backend, endpoint, _reading_messages(budget), max_tokens=1), budget, 1)
        else:
            _check_completion(backend, endpoint, _CHECK_MESSAGES)
        if backend.max_concurrency == "auto":
            slots.append(_reported_slots(endpoint.base_url) or 1)
    dialect, tiny = choose_dialect(backend)
    if reading is None:
        return Settled(dialect=dialect, slots=tuple(slots))
    first = backend.endpoints[0]
    fields = request_fields(dialect, _WRITING_SCHEMA if dialect in CONSTRAINED else None)
    try:
        wrote = backend.send(first, [dict(m) for m in _WRITING_MESSAGES], fields, max_tokens=WRITING_TOKENS)
    except TransportFailure as exc:
        raise ThinkingError(f"the model server at {first.where} failed the start-up check's speed "
                            f"request ({exc})") from None
    speed = measure(reading=reading, writing=_timing(wrote, _estimated(_WRITING_MESSAGES), WRITING_TOKENS),
                    tiny=None if tiny is None else _timing(tiny, _estimated(_CHECK_MESSAGES), 4),
                    estimated_in=budget)
    timeout = backend.timeout_s
    if backend.timeout_bounds is not None:
        least, most = backend.timeout_bounds
        timeout = timeout_for(speed, prompt_tokens=budget, max_tokens=backend.max_tokens, least_s=least,
                              most_s=most, where=f"the model server at {first.where}")
    return Settled(dialect=dialect, slots=tuple(slots), speed=speed, timeout_s=timeout)


def _reading_messages(tokens: int) -> list[dict[str, str]]:
    """The reading request: town notes up to ``tokens`` estimated tokens, in an order drawn
    afresh (a server's prompt cache must not have read them before)."""
    rng = random.Random()
    lines = [CHECK_MARK + " Read these notes, then reply with the word ok."]
    while estimate_tokens("\n".join(lines)) < tokens - estimate_tokens(_CHECK_SYSTEM["content"]):
        lines.append(f"- {len(lines)}: {rng.choice(_NOTES)}")
    return [_CHECK_SYSTEM, {"role": "user", "content": "\n".join(lines)}]


def _estimated(messages: list[dict[str, str]]) -> int:
    """The estimated prompt tokens of ``messages`` (characters / 4)."""
    return estimate_tokens("".join(m["content"] for m in messages))


def _timing(reply: Completion, estimated_in: int, estimated_out: int) -> Timing:
    """A check request's timing: the server's token counts (else the estimates) and seconds."""
    return Timing(tokens_in=reply.tokens_in or estimated_in, tokens_out=reply.tokens_out or estimated_out,
                  seconds=reply.latency_ms / 1000.0)


def check_server(backend: Server) -> None:
    """Check cheaply that the model answers again (ends a stall): the model lists.

    Raises:
        ThinkingError: when no endpoint answers.
    """
    for endpoint in backend.endpoints:
        try:
            _check_models(backend, endpoint)
            return
        except ThinkingError as exc:
            last = exc
    raise last


def _check_models(backend: Server, endpoint: Endpoint) -> None:
    try:
        listed = endpoint.client.models.list()
    except openai.AuthenticationError as exc:
        hint = (
            f"the key in ${backend.api_key_env}"
            if backend.key_set
            else f"no key (${backend.api_key_env} is not set)"
        )
        raise ThinkingError(
            f"{endpoint.where} refused {hint} (HTTP {exc.status_code}); set "
            f"{backend.api_key_env} to a valid key or pass --api-key-env VAR"
        ) from None
    except openai.PermissionDeniedError as exc:
        raise ThinkingError(
            f"{endpoint.where} denied access with the key in ${backend.api_key_env} "
            f"(HTTP {exc.status_code}): {error_text(exc)}"
        ) from None
    except (openai.APIConnectionError, openai.APITimeoutError) as exc:
        raise ThinkingError(
            f"cannot reach the model server at {endpoint.where} "
            f"({type(exc).__name__}); start it or fix --base-url"
        ) from None
    except openai.NotFoundError:
        return  # a server without a model list: the completion request will tell
    except openai.APIStatusError as exc:
        raise ThinkingError(
            f"the model server at {endpoint.where} answered HTTP "
            f"{exc.status_code} to GET /models: {error_text(exc)}"
        ) from None
    except Exception as exc:  # not JSON, not a list: not an OpenAI-compatible API root
        raise ThinkingError(
            f"{endpoint.where} did not answer GET /models like an OpenAI-compatible API "
            f"({type(exc).__name__}); is --base-url the API root (e.g. ending in /v1)?"
        ) from None
    data = getattr(listed, "data", None) or []
    if not isinstance(data, list):  # e.g. {"data": 5}: iterating it would crash
        raise ThinkingError(
            f"{endpoint.where} did not answer GET /models like an OpenAI-compatible API "
            f"(its data is {type(data).__name__}, not a list); is --base-url the API root (e.g. ending in /v1)?"
        )
    ids = sorted(str(getattr(m, "id", "")) for m in data)
    if ids and backend.model not in ids:
        shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
        raise ThinkingError(
            f"unknown model {backend.model!r} at {endpoint.where}; it offers: {shown} "
            "(pass one of them with --model)"
        )


def _try_dialect(backend: Server, endpoint: Endpoint, dialect: Dialect) -> Completion:
    fields = request_fields(dialect, _CHECK_SCHEMA if dialect in CONSTRAINED else None)
    return backend.send(endpoint, [dict(m) for m in _CHECK_MESSAGES], fields, max_tokens=24)


def _check_completion(backend: Server, endpoint: Endpoint, messages: list[dict[str, str]], *,
                      max_tokens: int = 24) -> Completion:
    """One plain completion request: the URL is a chat-completions API and the model answers."""
    try:
        return backend.send(endpoint, [dict(m) for m in messages], {}, max_tokens=max_tokens)
    except TransportFailure as exc:
        if "HTTP 404" in str(exc):
            cause = ("answered HTTP 404 to POST /chat/completions; is --base-url the API "
                     "root (an Ollama or llama.cpp URL ends in /v1)?")
        elif exc.outcome is CallOutcome.TIMEOUT:
            cause = f"gave no completion within {backend.timeout_s:g} s"
        else:
            cause = f"could not complete a chat request ({exc})"
        raise ThinkingError(f"the model server at {endpoint.where} {cause}") from None


def choose_dialect(backend: Server) -> tuple[Dialect, Completion | None]:
    """Settle how requests carry the schema: try each dialect with a one-value enum.

    A dialect works when the model *obeyed* the schema (its reply names the one allowed
    word), not merely when the server said 200. A dialect the server rejects (HTTP 4xx or
    5xx) is unsupported; that is not a server failure. With "auto" the first that works of
    json_schema, json_object_schema and grammar is kept; ``json_object`` and ``none`` are
    taken as given.

    Returns:
        The dialect that works (``backend.structured`` when it was given, not "auto"), and the
        reply that showed it (None when no check request was sent).

    Raises:
        ThinkingError: when the chosen dialect (or, with "auto", every constrained dialect)
            was ignored or rejected, or the server stopped answering.
    """
    if not backend.auto and backend.structured not in CONSTRAINED:
        return backend.structured, None
    endpoint = backend.endpoints[0]
    seen = []
    for dialect in CONSTRAINED if backend.auto else (backend.structured,):
        try:
            reply = _try_dialect(backend, endpoint, dialect)
        except TransportFailure as exc:
            if exc.outcome in (CallOutcome.CLIENT_ERROR, CallOutcome.SERVER_ERROR):
                seen.append(f"{dialect.value}: rejected ({exc})"[:120])
                continue
            raise ThinkingError(
                f"the model server at {endpoint.where} failed the start-up check ({exc})"
            ) from None
        word = _check_word(reply.text)
        if word == CHECK_WORD:
            return dialect, reply
        seen.append(f"{dialect.value}: ignored (said {(reply.text or '')[:40]!r})")
    raise ThinkingError(
        f"the model at {endpoint.where} does not follow an answer schema ({'; '.join(seen)}); "
        "use a server that does, or pass --structured json_object to run unconstrained"
    )


def _check_word(text: str | None) -> str | None:
    try:
        data = json.loads((text or "").strip())
    except json.JSONDecodeError:
        return None
    return data.get("word") if isinstance(data, dict) else None


def _reported_slots(base_url: str | None) -> int | None:
    """The slot count a llama.cpp server reports at ``<root>/props`` (``total_slots``), or None."""
    if not base_url:
        return None
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        with urllib.request.urlopen(root + "/props", timeout=5) as reply:  # noqa: S310 (loopback or user URL)
            slots = json.loads(reply.read()).get("total_slots")
    except (OSError, ValueError, AttributeError):
        return None
    return int(slots) if isinstance(slots, int) and slots > 0 else None
