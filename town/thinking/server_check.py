"""The start-up check of an OpenAI-compatible server, and how its requests carry the schema.

Before a run the backend checks every endpoint: the model list (``GET /models``: key, model
name), one real completion request, and the slot count a llama.cpp server reports when
``max_concurrency`` is "auto". Then it settles the schema dialect (see
:mod:`town.thinking.schema`) by asking for a JSON object whose schema allows one word,
:data:`CHECK_WORD`. Each failure is one :class:`~town.errors.ThinkingError` line naming the cause
and the fix. The check sets nothing: it returns what it settled (:class:`~.model.Settled`), and
the backend takes it on (``OpenAIBackend.check``).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any, Protocol

import openai

from ..config import Dialect
from ..errors import ThinkingError
from .endpoints import Endpoint, error_text
from .model import CallOutcome, Completion, Settled, TransportFailure
from .schema import CONSTRAINED, request_fields

__all__ = ["CHECK_MARK", "CHECK_WORD", "Server", "check", "check_server", "choose_dialect"]

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
_CHECK_MESSAGES = [
    {"role": "system", "content": CHECK_MARK + " Reply with one JSON object and nothing else."},
    {"role": "user", "content": CHECK_MARK + ' Reply with {"word": "<any animal>"}.'},
]


class Server(Protocol):
    """What the check reads of the backend (``OpenAIBackend``): its endpoints and settings, and
    how it sends one request."""

    model: str
    api_key_env: str
    key_set: bool
    timeout_s: float
    max_concurrency: str | int
    auto: bool
    structured: Dialect

    @property
    def endpoints(self) -> list[Endpoint]:
        """The servers, in the order given."""

    def send(self, endpoint: Endpoint, messages: list[dict[str, str]], fields: dict[str, Any],
             max_tokens: int | None = None) -> Completion:
        """Send one request to ``endpoint`` now (raises ``TransportFailure``)."""


def check(backend: Server) -> Settled:
    """Start-up check of every endpoint, then the schema dialect.

    For each endpoint: the model list (``GET /models``: key, model name), one real completion
    request (a 404 or a reply that is not an OpenAI chat completion stops here), and its slot
    count when ``max_concurrency`` is "auto". Then :func:`choose_dialect`.

    Returns:
        The dialect chosen, and the slots of each endpoint when ``max_concurrency`` is "auto"
        (what it reports at ``/props``, else 1); nothing is set on ``backend``.

    Raises:
        ThinkingError: one line naming the cause and the fix: unreachable server, refused
            key, unknown model, a URL that is not an OpenAI-compatible API root, or a model
            that does not follow the answer schema.
    """
    slots = []
    for endpoint in backend.endpoints:
        _check_models(backend, endpoint)
        _check_completion(backend, endpoint)
        if backend.max_concurrency == "auto":
            slots.append(_reported_slots(endpoint.base_url) or 1)
    return Settled(dialect=choose_dialect(backend), slots=tuple(slots))


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


def _check_completion(backend: Server, endpoint: Endpoint) -> None:
    """One plain completion request: the URL is a chat-completions API and the model answers."""
    try:
        _try_dialect(backend, endpoint, Dialect.NONE)
    except TransportFailure as exc:
        if "HTTP 404" in str(exc):
            cause = ("answered HTTP 404 to POST /chat/completions; is --base-url the API "
                     "root (an Ollama or llama.cpp URL ends in /v1)?")
        elif exc.outcome is CallOutcome.TIMEOUT:
            cause = f"gave no completion within {backend.timeout_s:g} s"
        else:
            cause = f"could not complete a chat request ({exc})"
        raise ThinkingError(f"the model server at {endpoint.where} {cause}") from None


def choose_dialect(backend: Server) -> Dialect:
    """Settle how requests carry the schema: try each dialect with a one-value enum.

    A dialect works when the model *obeyed* the schema (its reply names the one allowed
    word), not merely when the server said 200. A dialect the server rejects (HTTP 4xx or
    5xx) is unsupported; that is not a server failure. With "auto" the first that works of
    json_schema, json_object_schema and grammar is kept; ``json_object`` and ``none`` are
    taken as given.

    Returns:
        The dialect that works (``backend.structured`` when it was given, not "auto").

    Raises:
        ThinkingError: when the chosen dialect (or, with "auto", every constrained dialect)
            was ignored or rejected, or the server stopped answering.
    """
    if not backend.auto and backend.structured not in CONSTRAINED:
        return backend.structured
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
            return dialect
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
