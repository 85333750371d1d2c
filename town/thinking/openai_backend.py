"""The OpenAI-compatible backend: OpenAI, Ollama, vLLM, llama.cpp's server, ... (docs/design, §3).

Requests go through the ``openai`` client with its own retries off (``max_retries=0``): every
HTTP attempt is made, timed and classified here, so the wrappers can retry it with backoff and
record it. The API key is read from an environment variable at construction and kept only in
the client; it is never written to a file or a run record.

Each request carries its answer's JSON schema in the server's dialect (``--structured``; see
:mod:`town.thinking.schema`). Several endpoints (``--base-url`` given more than once) share the
load (:mod:`town.thinking.endpoints`); the start-up check, the choice of dialect and the
measured speed that sets an "auto" timeout are :mod:`town.thinking.server_check`.

A request that times out is abandoned: its connection is closed (llama.cpp's server, vLLM and
Ollama then stop working on it), and its endpoint's slot is given back only once the server is
free again: llama-cpp-python's server works on to the end of a request whose client went, and
answers ``GET /models`` only when its model is free (both hold its one lock), so a retry never
queues behind the abandoned work on a one-slot server. An "auto" timeout that fired is
lengthened by half, up to ``backend.max_timeout_s``: a machine busier than when the speed was
measured slows every request.
"""

from __future__ import annotations

import os
import random
import time
import weakref
from typing import Any, cast

import httpx2
import openai
from openai.types.chat import ChatCompletionMessageParam

from ..config import Dialect
from ..errors import RunStopped
from . import server_check
from .deadline import DeadlineTransport
from .endpoints import Endpoint, EndpointPool, error_text
from .model import CallOutcome, Completion, ModelBackend, Settled, TransportFailure, elapsed_ms
from .prompting import PromptSet
from .schema import request_fields
from .validate import MAX_ANSWER_CHARS

__all__ = ["OpenAIBackend", "MAX_REPLY_BYTES"]

#: Placeholder key for servers that need none (llama.cpp, Ollama, vLLM without --api-key).
_NO_KEY = "not-set"

#: Most bytes of a chat completion's HTTP reply: the longest answer allowed, every character
#: escaped as ``\uXXXX`` (6 bytes), plus 64 KiB for the envelope. Reading stops beyond it.
MAX_REPLY_BYTES = 6 * MAX_ANSWER_CHARS + 65536
#: Most bytes of any other reply (a model list: OpenAI's is about 10 KB).
MAX_OTHER_REPLY_BYTES = 8 * 1024 * 1024
#: Times an endpoint is asked whether it is free after an abandoned request (each within the timeout).
FREE_TRIES = 3
#: An "auto" timeout after a request timed out: this many times the wait that was cut short.
TIMEOUT_GROWTH = 1.5


def _reply_limit(request: httpx2.Request) -> int:
    """Most bytes the reply to ``request`` may hold."""
    chat = request.url.path.rstrip("/").endswith("/chat/completions")
    return MAX_REPLY_BYTES if chat else MAX_OTHER_REPLY_BYTES


class OpenAIBackend(ModelBackend):
    """A chat-completions model behind one or more OpenAI-compatible HTTP APIs.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1`` (None: OpenAI's).
        model: model name the server knows.
        api_key_env: environment variable holding the key; unset is allowed (local servers).
        timeout_s: wall seconds per request, counted from when it is sent; or "auto": set by
            :meth:`check` from the server's speed, within ``timeout_bounds`` (until then the
            larger bound).
        timeout_bounds: (least, most) wall seconds of an "auto" timeout.
        measure_speed: :meth:`check` measures the server's speed (False: the check is shorter,
            and an "auto" timeout stays the larger bound).
        more_base_urls: further endpoints serving the same model; they share the load.
        structured: a :class:`~town.config.Dialect` value, or "auto" (tried by
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
        timeout_s: float | str = "auto",
        timeout_bounds: tuple[float, float] = (30.0, 600.0),
        measure_speed: bool = True,
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
        auto = timeout_s == "auto"
        # an auto timeout is settled by the check; until then, and per HTTP operation, the most
        self.timeout_bounds: tuple[float, float] | None = (float(timeout_bounds[0]), float(timeout_bounds[1])) \
            if auto else None
        self.timeout_s = float(timeout_bounds[1]) if auto else float(timeout_s)
        self.measure_speed = measure_speed
        self.key_set = bool(os.environ.get(api_key_env))
        self.max_concurrency = max_concurrency
        # timeout_s bounds each whole request, however its bytes arrive (town.thinking.deadline)
        self.transports = [DeadlineTransport(seconds=self.timeout_s, max_bytes=_reply_limit)
                           for _ in (base_url, *more_base_urls)]
        self.pool = EndpointPool([
            Endpoint(url, openai.OpenAI(base_url=url, api_key=os.environ.get(api_key_env) or _NO_KEY,
                                        timeout=self.timeout_s, max_retries=0,
                                        http_client=httpx2.Client(transport=transport,
                                                                  timeout=self.timeout_s)),
                     1 if max_concurrency == "auto" else int(max_concurrency))
            for url, transport in zip((base_url, *more_base_urls), self.transports)
        ])
        # a backend dropped without close() still closes its connections (as openai's own client does)
        weakref.finalize(self, _close_all, [e.client for e in self.endpoints])

    @property
    def endpoints(self) -> list[Endpoint]:
        """The servers, in the order given (the first settles the schema dialect)."""
        return self.pool.endpoints

    @property
    def where(self) -> str:
        """The server, for messages: the base URL(s) or "the OpenAI API"."""
        return ", ".join(e.where for e in self.endpoints)

    # ------------------------------------------------------------------ requests
    def _complete(self, messages: list[dict[str, str]], schema: dict[str, Any] | None) -> Completion:
        """One chat completion, its schema in the backend's dialect, on the least busy endpoint.

        Raises:
            TransportFailure: classified as timeout, 429 (with Retry-After), 5xx, 4xx or
                connection error; any other client failure counts as a server error.
        """
        for _ in range(len(self.endpoints)):
            endpoint = self.pool.take()
            if not 0 < endpoint.set_aside_until <= time.monotonic() or self.pool.revive(endpoint):
                break
            self.pool.give_back(endpoint, CallOutcome.CONNECTION_ERROR)  # still down: another one
        else:
            endpoint = self.pool.take()  # all set aside: send anyway (a failure counts to a stall)
        outcome = None
        sent = time.monotonic()
        try:
            return self.send(endpoint, messages, request_fields(self.structured, schema))
        except TransportFailure as exc:
            outcome = exc.outcome
            if outcome is CallOutcome.TIMEOUT:
                self._lengthen_timeout(time.monotonic() - sent)
                self._until_free(endpoint)  # its slot is not given back while the server works on
            raise
        finally:
            self.pool.give_back(endpoint, outcome)

    def _lengthen_timeout(self, waited_s: float) -> None:
        """After a request timed out having waited ``waited_s`` wall seconds, an "auto" timeout
        becomes :data:`TIMEOUT_GROWTH` times that, up to its most: the server is slower than the
        start-up check measured (a busier machine, a costlier schema). Requests that time out
        together waited alike, so they lengthen it once, not once each."""
        if self.timeout_bounds is None:
            return
        longer = min(self.timeout_bounds[1], max(self.timeout_s, TIMEOUT_GROWTH * waited_s))
        if longer > self.timeout_s:
            self.timeout_s = longer
            for transport in self.transports:
                transport.seconds = longer

    def _until_free(self, endpoint: Endpoint) -> None:
        """Wait until ``endpoint`` is free after an abandoned request: until it answers ``GET
        /models``, asked up to :data:`FREE_TRIES` times (each within ``timeout_s``).

        llama-cpp-python's server answers it only once its model is free (it works on to the
        end of a request whose client went); llama.cpp's server, vLLM and Ollama stopped working
        on the request when its connection closed, and answer at once. A stop request ends the
        wait; any other failure is the server's, which the retry finds out.
        """
        for _ in range(FREE_TRIES):
            try:
                endpoint.client.models.list()
            except openai.APITimeoutError:
                continue  # still busy
            except Exception:  # noqa: BLE001 (stopped, refused, or an odd reply: ask no more)
                return
            return

    def send(self, endpoint: Endpoint, messages: list[dict[str, str]], fields: dict[str, Any],
             max_tokens: int | None = None) -> Completion:
        """Send one request to ``endpoint`` now; the timeout runs from here and bounds all of it.

        Raises:
            TransportFailure: see :meth:`_complete`; a reply over :data:`MAX_REPLY_BYTES` or not
                UTF-8 counts as an invalid or unparsable answer.
            RunStopped: when a stop request (:meth:`cancel`) ended the request.
        """
        standard = {k: fields.pop(k) for k in ("response_format",) if k in fields}
        started = time.perf_counter()

        def fail(outcome: CallOutcome, reason: str, **kw) -> TransportFailure:
            return TransportFailure(outcome, reason, latency_ms=elapsed_ms(started), endpoint=endpoint.where, **kw)

        try:
            # a timed-out request's connection is closed by the HTTP client before it raises,
            # so the server sees the client go before any retry is sent
            reply = self._create(
                endpoint,
                model=self.model,
                messages=cast(list[ChatCompletionMessageParam], messages),  # {role, content} dicts
                temperature=self.temperature,
                max_tokens=max_tokens or self.max_tokens,
                seed=random.randrange(2**31),  # a retry samples afresh even on a seeded server
                extra_body=fields or None,
                **standard,
            )
        except RunStopped:
            raise
        except openai.APITimeoutError as exc:
            raise fail(CallOutcome.TIMEOUT, f"no whole reply within {self.timeout_s:g} s") from exc
        except _TooBig as exc:
            raise fail(CallOutcome.INVALID, f"a reply of more than {MAX_REPLY_BYTES} bytes") from exc
        except UnicodeDecodeError as exc:
            raise fail(CallOutcome.BAD_JSON, f"the reply is not UTF-8 text: {exc.reason}") from exc
        except openai.APIConnectionError as exc:
            raise fail(CallOutcome.CONNECTION_ERROR, f"cannot reach {endpoint.where}: {exc}") from exc
        except openai.RateLimitError as exc:
            raise fail(CallOutcome.RATE_LIMITED, "429 rate limited",
                       retry_after_s=_retry_after(exc.response)) from exc
        except openai.APIStatusError as exc:
            outcome = CallOutcome.SERVER_ERROR if exc.status_code >= 500 else CallOutcome.CLIENT_ERROR
            raise fail(outcome, f"HTTP {exc.status_code}: {error_text(exc)}") from exc
        except Exception as exc:  # a malformed HTTP body, a protocol error: never crash the run
            raise fail(CallOutcome.SERVER_ERROR, f"bad reply: {type(exc).__name__}: {str(exc)[:200]}") from exc
        choices = getattr(reply, "choices", None) or []
        usage = getattr(reply, "usage", None)
        message = choices[0].message if choices and getattr(choices[0], "message", None) else None
        if message is None:
            raise fail(CallOutcome.SERVER_ERROR, "not an OpenAI chat completion (no choices[0].message)")
        return Completion(
            text=message.content,
            tokens_in=_token_count(getattr(usage, "prompt_tokens", None)) or None,  # 0: no count
            tokens_out=_token_count(getattr(usage, "completion_tokens", None)),
            latency_ms=elapsed_ms(started),
            endpoint=endpoint.where,
        )

    def _create(self, endpoint: Endpoint, **request: Any):
        """``chat.completions.create(**request)`` on ``endpoint``'s client.

        Raises:
            RunStopped: when :meth:`cancel` ended the request.
            _TooBig: when the reply passed :data:`MAX_REPLY_BYTES`.
            openai.OpenAIError: any other failure, as the client raised it.
        """
        try:
            return endpoint.client.chat.completions.create(**request)
        except openai.APIConnectionError as exc:  # the timeout's subclass too
            scope = DeadlineTransport.scope_of(getattr(exc, "request", None))
            if scope is not None and scope.cancelled:
                raise RunStopped("stopped while waiting for the model server") from exc
            if scope is not None and scope.too_big:
                raise _TooBig() from exc
            raise

    def cancel(self) -> None:
        """End every request in flight now and refuse new ones (a stop request; not undone)."""
        for transport in self.transports:
            transport.cancel()

    # ------------------------------------------------------------------ start-up
    def check(self) -> Settled:
        """Start-up check of every endpoint, then the schema dialect and the server's speed
        (:func:`.server_check.check`); requests use what it settled from now on (the dialect,
        the slots it reported, the timeout).

        Raises:
            ThinkingError: one line naming the cause and the fix.
        """
        settled = server_check.check(self, measure_speed=self.measure_speed)
        self.structured = settled.dialect
        for endpoint, slots in zip(self.endpoints, settled.slots):
            endpoint.slots = slots
        if settled.timeout_s is not None:
            self.timeout_s = settled.timeout_s
            for transport in self.transports:
                transport.seconds = settled.timeout_s
        return settled

    def check_server(self) -> None:
        """Check cheaply that the model answers again (ends a stall): the model lists.

        Raises:
            ThinkingError: when no endpoint answers.
        """
        server_check.check_server(self)

    def close(self) -> None:
        """Close the HTTP connection pools."""
        _close_all([e.client for e in self.endpoints])


def _close_all(clients: list[openai.OpenAI]) -> None:
    """Close the HTTP connection pools of ``clients``."""
    for client in clients:
        client.close()


class _TooBig(Exception):
    """A reply passed :data:`MAX_REPLY_BYTES` (reading it stopped there)."""


def _retry_after(response) -> float | None:
    """Retry-After (seconds form) of a response, or None."""
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _token_count(value: object) -> int | None:
    """A reply's ``usage`` count as tokens: a whole number >= 0, else None (not counted).

    A server that sends no usage, null, text or a negative number does not stop the run; None
    makes the model layer record an estimate instead (``estimated``, see ``town.thinking.model``).
    """
    return value if type(value) is int and value >= 0 else None
