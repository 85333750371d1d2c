"""The OpenAI-compatible backend: OpenAI, Ollama, vLLM, llama.cpp's server, ... (docs/design, §3).

Requests go through the ``openai`` client with its own retries off (``max_retries=0``): every
HTTP attempt is made, timed and classified here, so the wrappers can retry it with backoff and
record it. The API key is read from an environment variable at construction and kept only in
the client; it is never written to a file or a run record.

Each request carries its answer's JSON schema in the server's dialect (``--structured``; see
:mod:`town.thinking.schema`). Several endpoints (``--base-url`` given more than once) share the
load: a request goes to the endpoint with the fewest requests in flight, each endpoint holds at
most ``max_concurrency`` at once (the rest wait here, before their timeout starts), and an
endpoint that fails is set aside and checked again before it takes requests anew.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import urllib.request
from typing import Any

import openai

from ..errors import ThinkingError
from .model import CallOutcome, Completion, ModelBackend, TransportFailure
from .prompting import PromptSet
from .schema import CONSTRAINED, Dialect, request_fields

__all__ = ["OpenAIBackend", "Endpoint", "CHECK_MARK", "CHECK_WORD"]

#: Placeholder key for servers that need none (llama.cpp, Ollama, vLLM without --api-key).
_NO_KEY = "not-set"

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

#: Wall seconds an endpoint that failed is set aside before it is checked again.
SET_ASIDE_S = 5.0


class Endpoint:
    """One server of the pool: its client, its slots and its health (thread-safe).

    Args:
        base_url: the API root.
        client: the ``openai.OpenAI`` client for it.
        slots: requests it may hold at once.
    """

    def __init__(self, base_url: str | None, client: openai.OpenAI, slots: int):
        self.base_url = base_url
        self.client = client
        self.slots = max(1, int(slots))
        self.in_flight = 0
        self.set_aside_until = 0.0
        self.taken = 0  # requests given to it so far (ties go to the least used)

    @property
    def where(self) -> str:
        """The base URL, or "the OpenAI API"."""
        return self.base_url or "the OpenAI API"


class OpenAIBackend(ModelBackend):
    """A chat-completions model behind one or more OpenAI-compatible HTTP APIs.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1`` (None: OpenAI's).
        model: model name the server knows.
        api_key_env: environment variable holding the key; unset is allowed (local servers).
        timeout_s: wall seconds per request, counted from when it is sent.
        more_base_urls: further endpoints serving the same model; they share the load.
        structured: a :class:`~town.thinking.schema.Dialect` value, or "auto" (tried by
            :meth:`check`; JSON mode until then).
        max_concurrency: requests in flight per endpoint, or "auto" (the slot count a llama.cpp
            server reports at ``/props``, else 1).
        prompts, temperature, max_tokens, pool_size, max_prompt_tokens: see :class:`ModelBackend`.
    """

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str | None,
        model: str,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 30.0,
        more_base_urls: tuple[str, ...] = (),
        structured: str = "auto",
        max_concurrency: str | int = "auto",
        prompts: PromptSet | None = None,
        temperature: float = 0.7,
        max_tokens: int = 400,
        pool_size: int = 4,
        max_prompt_tokens: int = 0,
    ):
        super().__init__(
            model=model,
            prompts=prompts,
            temperature=temperature,
            max_tokens=max_tokens,
            pool_size=pool_size,
            structured=Dialect.JSON_OBJECT if structured == "auto" else Dialect(structured),
            max_prompt_tokens=max_prompt_tokens,
        )
        self.auto = structured == "auto"
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.timeout_s = float(timeout_s)
        self._key_set = bool(os.environ.get(api_key_env))
        self.max_concurrency = max_concurrency
        self.endpoints = [
            Endpoint(url, openai.OpenAI(base_url=url, api_key=os.environ.get(api_key_env) or _NO_KEY,
                                        timeout=self.timeout_s, max_retries=0),
                     1 if max_concurrency == "auto" else int(max_concurrency))
            for url in (base_url, *more_base_urls)
        ]
        self._client = self.endpoints[0].client
        self._cond = threading.Condition()

    @property
    def where(self) -> str:
        """The server, for messages: the base URL(s) or "the OpenAI API"."""
        return ", ".join(e.where for e in self.endpoints)

    # ------------------------------------------------------------------ the endpoint pool
    def _take(self) -> Endpoint:
        """Wait for a free slot; the endpoint with the fewest in flight.

        Set-aside endpoints come last; ties go to the one given the fewest requests so far.
        """
        with self._cond:
            while True:
                now = time.monotonic()
                free = [e for e in self.endpoints if e.in_flight < e.slots]
                ready = [e for e in free if e.set_aside_until <= now]
                if ready or (free and all(e.set_aside_until > now for e in self.endpoints)):
                    best = min(ready or free,
                               key=lambda e: (e.in_flight / e.slots, e.set_aside_until, e.taken))
                    best.in_flight += 1
                    best.taken += 1
                    return best
                waits = [e.set_aside_until - now for e in free if e.set_aside_until > now]
                self._cond.wait(timeout=min(waits) if waits else None)

    def _give_back(self, endpoint: Endpoint, outcome: CallOutcome | None) -> None:
        with self._cond:
            endpoint.in_flight -= 1
            if outcome is not None and outcome.unavailable and len(self.endpoints) > 1:
                endpoint.set_aside_until = time.monotonic() + SET_ASIDE_S
            elif outcome is None:
                endpoint.set_aside_until = 0.0
            self._cond.notify_all()

    def _revive(self, endpoint: Endpoint) -> bool:
        """Check a set-aside endpoint whose time is up (GET /models); True if it answers."""
        try:
            endpoint.client.models.list()
        except openai.APIStatusError:
            pass  # it answers HTTP: alive
        except Exception:
            with self._cond:
                endpoint.set_aside_until = time.monotonic() + SET_ASIDE_S
            return False
        return True

    # ------------------------------------------------------------------ requests
    def _complete(self, messages: list[dict[str, str]], schema: dict[str, Any] | None) -> Completion:
        """One chat completion, its schema in the backend's dialect, on the least busy endpoint.

        Raises:
            TransportFailure: classified as timeout, 429 (with Retry-After), 5xx, 4xx or
                connection error; any other client failure counts as a server error.
        """
        for _ in range(len(self.endpoints)):
            endpoint = self._take()
            if not 0 < endpoint.set_aside_until <= time.monotonic() or self._revive(endpoint):
                break
            self._give_back(endpoint, CallOutcome.CONNECTION_ERROR)  # still down: another one
        else:
            endpoint = self._take()  # all set aside: send anyway (a failure counts to a stall)
        outcome = None
        try:
            return self._send(endpoint, messages, request_fields(self.structured, schema))
        except TransportFailure as exc:
            outcome = exc.outcome
            raise
        finally:
            self._give_back(endpoint, outcome)

    def _send(self, endpoint: Endpoint, messages: list[dict[str, str]], fields: dict[str, Any],
              max_tokens: int | None = None) -> Completion:
        """Send one request to ``endpoint`` now; the timeout runs from here."""
        standard = {k: fields.pop(k) for k in ("response_format",) if k in fields}
        started = time.perf_counter()

        def fail(outcome: CallOutcome, reason: str, **kw) -> TransportFailure:
            return TransportFailure(outcome, reason, latency_ms=_ms(started), endpoint=endpoint.where, **kw)

        try:
            # a timed-out request's connection is closed by the HTTP client before it raises,
            # so the server sees the client go before any retry is sent
            reply = endpoint.client.chat.completions.create(
                model=self.model,
                messages=messages,
                temperature=self.temperature,
                max_tokens=max_tokens or self.max_tokens,
                seed=random.randrange(2**31),  # a retry samples afresh even on a seeded server
                extra_body=fields or None,
                **standard,
            )
        except openai.APITimeoutError as exc:
            raise fail(CallOutcome.TIMEOUT, f"no reply within {self.timeout_s:g} s") from exc
        except openai.APIConnectionError as exc:
            raise fail(CallOutcome.CONNECTION_ERROR, f"cannot reach {endpoint.where}: {exc}") from exc
        except openai.RateLimitError as exc:
            raise fail(CallOutcome.RATE_LIMITED, "429 rate limited",
                       retry_after_s=_retry_after(exc.response)) from exc
        except openai.APIStatusError as exc:
            outcome = CallOutcome.SERVER_ERROR if exc.status_code >= 500 else CallOutcome.CLIENT_ERROR
            raise fail(outcome, f"HTTP {exc.status_code}: {_short(exc)}") from exc
        except Exception as exc:  # a malformed HTTP body, a protocol error: never crash the run
            raise fail(CallOutcome.SERVER_ERROR, f"bad reply: {type(exc).__name__}: {str(exc)[:200]}") from exc
        choices = getattr(reply, "choices", None) or []
        usage = getattr(reply, "usage", None)
        message = choices[0].message if choices and getattr(choices[0], "message", None) else None
        if message is None:
            raise fail(CallOutcome.SERVER_ERROR, "not an OpenAI chat completion (no choices[0].message)")
        return Completion(
            text=message.content,
            tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
            tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
            latency_ms=_ms(started),
            endpoint=endpoint.where,
        )

    # ------------------------------------------------------------------ start-up
    def check(self) -> None:
        """Start-up check of every endpoint, then the schema dialect.

        For each endpoint: the model list (``GET /models``: key, model name), one real completion
        request (a 404 or a reply that is not an OpenAI chat completion stops here), and its slot
        count when ``max_concurrency`` is "auto". Then :meth:`choose_dialect`.

        Raises:
            ThinkingError: one line naming the cause and the fix: unreachable server, refused
                key, unknown model, a URL that is not an OpenAI-compatible API root, or a model
                that does not follow the answer schema.
        """
        for endpoint in self.endpoints:
            self._check_models(endpoint)
            self._check_completion(endpoint)
            if self.max_concurrency == "auto":
                endpoint.slots = _reported_slots(endpoint.base_url) or 1
        self.choose_dialect()

    def check_server(self) -> None:
        """Check cheaply that the model answers again (ends a stall): the model lists.

        Raises:
            ThinkingError: when no endpoint answers.
        """
        for endpoint in self.endpoints:
            try:
                self._check_models(endpoint)
                return
            except ThinkingError as exc:
                last = exc
        raise last

    def _check_models(self, endpoint: Endpoint) -> None:
        try:
            listed = endpoint.client.models.list()
        except openai.AuthenticationError as exc:
            hint = (
                f"the key in ${self.api_key_env}"
                if self._key_set
                else f"no key (${self.api_key_env} is not set)"
            )
            raise ThinkingError(
                f"{endpoint.where} refused {hint} (HTTP {exc.status_code}); set "
                f"{self.api_key_env} to a valid key or pass --api-key-env VAR"
            ) from None
        except openai.PermissionDeniedError as exc:
            raise ThinkingError(
                f"{endpoint.where} denied access with the key in ${self.api_key_env} "
                f"(HTTP {exc.status_code}): {_short(exc)}"
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
                f"{exc.status_code} to GET /models: {_short(exc)}"
            ) from None
        except Exception as exc:  # not JSON, not a list: not an OpenAI-compatible API root
            raise ThinkingError(
                f"{endpoint.where} did not answer GET /models like an OpenAI-compatible API "
                f"({type(exc).__name__}); is --base-url the API root (e.g. ending in /v1)?"
            ) from None
        ids = sorted(getattr(m, "id", "") for m in getattr(listed, "data", None) or [])
        if ids and self.model not in ids:
            shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
            raise ThinkingError(
                f"unknown model {self.model!r} at {endpoint.where}; it offers: {shown} "
                "(pass one of them with --model)"
            )

    def _try_dialect(self, endpoint: Endpoint, dialect: Dialect) -> Completion:
        fields = request_fields(dialect, _CHECK_SCHEMA if dialect in CONSTRAINED else None)
        return self._send(endpoint, [dict(m) for m in _CHECK_MESSAGES], fields, max_tokens=24)

    def _check_completion(self, endpoint: Endpoint) -> None:
        """One plain completion request: the URL is a chat-completions API and the model answers."""
        try:
            self._try_dialect(endpoint, Dialect.NONE)
        except TransportFailure as exc:
            if "HTTP 404" in str(exc):
                cause = ("answered HTTP 404 to POST /chat/completions; is --base-url the API "
                         "root (an Ollama or llama.cpp URL ends in /v1)?")
            elif exc.outcome is CallOutcome.TIMEOUT:
                cause = f"gave no completion within {self.timeout_s:g} s"
            else:
                cause = f"could not complete a chat request ({exc})"
            raise ThinkingError(f"the model server at {endpoint.where} {cause}") from None

    def choose_dialect(self) -> Dialect:
        """Settle how requests carry the schema: try each dialect with a one-value enum.

        A dialect works when the model *obeyed* the schema (its reply names the one allowed
        word), not merely when the server said 200. A dialect the server rejects (HTTP 4xx or
        5xx) is unsupported; that is not a server failure. With "auto" the first that works of
        json_schema, json_object_schema and grammar is kept; ``json_object`` and ``none`` are
        taken as given.

        Returns:
            The dialect now in use (``self.structured``).

        Raises:
            ThinkingError: when the chosen dialect (or, with "auto", every constrained dialect)
                was ignored or rejected, or the server stopped answering.
        """
        if not self.auto and self.structured not in CONSTRAINED:
            return self.structured
        endpoint = self.endpoints[0]
        seen = []
        for dialect in CONSTRAINED if self.auto else (self.structured,):
            try:
                reply = self._try_dialect(endpoint, dialect)
            except TransportFailure as exc:
                if exc.outcome in (CallOutcome.CLIENT_ERROR, CallOutcome.SERVER_ERROR):
                    seen.append(f"{dialect.value}: rejected ({exc})"[:120])
                    continue
                raise ThinkingError(
                    f"the model server at {endpoint.where} failed the start-up check ({exc})"
                ) from None
            word = _check_word(reply.text)
            if word == CHECK_WORD:
                self.structured = dialect
                return dialect
            seen.append(f"{dialect.value}: ignored (said {(reply.text or '')[:40]!r})")
        raise ThinkingError(
            f"the model at {endpoint.where} does not follow an answer schema ({'; '.join(seen)}); "
            "use a server that does, or pass --structured json_object to run unconstrained"
        )

    def close(self) -> None:
        """Close the HTTP connection pools."""
        for endpoint in self.endpoints:
            endpoint.client.close()


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


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 2)


def _retry_after(response) -> float | None:
    """Retry-After (seconds form) of a response, or None."""
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _short(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        body = body.get("message") or body.get("error") or body
    return str(body or exc.message)[:200]
