"""The OpenAI-compatible backend: OpenAI, Ollama, vLLM, llama.cpp's server, ... (docs/design, §3).

Requests go through the ``openai`` client with its own retries off (``max_retries=0``): every
HTTP attempt is made, timed and classified here, so the wrappers can retry it with backoff and
record it. The API key is read from an environment variable at construction and kept only in
the client; it is never written to a file or a run record.
"""

from __future__ import annotations

import os

import openai

from ..errors import ThinkingError
from .model import CallOutcome, Completion, ModelBackend, TransportFailure
from .prompting import PromptSet

__all__ = ["OpenAIBackend"]

#: Placeholder key for servers that need none (llama.cpp, Ollama, vLLM without --api-key).
_NO_KEY = "not-set"


class OpenAIBackend(ModelBackend):
    """A chat-completions model behind an OpenAI-compatible HTTP API.

    Args:
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1`` (None: OpenAI's).
        model: model name the server knows.
        api_key_env: environment variable holding the key; unset is allowed (local servers).
        timeout_s: wall seconds per request.
        prompts, temperature, max_tokens, pool_size: see :class:`ModelBackend`.
    """

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str | None,
        model: str,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 30.0,
        prompts: PromptSet | None = None,
        temperature: float = 0.7,
        max_tokens: int = 400,
        pool_size: int = 4,
    ):
        super().__init__(
            model=model,
            prompts=prompts,
            temperature=temperature,
            max_tokens=max_tokens,
            pool_size=pool_size,
        )
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.timeout_s = float(timeout_s)
        self._key_set = bool(os.environ.get(api_key_env))
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=os.environ.get(api_key_env) or _NO_KEY,
            timeout=self.timeout_s,
            max_retries=0,
        )

    @property
    def where(self) -> str:
        """The server, for messages: the base URL or "the OpenAI API"."""
        return self.base_url or "the OpenAI API"

    def _complete(self, messages: list[dict[str, str]]) -> Completion:
        """One chat completion in JSON mode.

        Raises:
            TransportFailure: classified as timeout, 429 (with Retry-After), 5xx, 4xx or
                connection error; any other client failure counts as a server error.
        """
        try:
            reply = self._client.chat.completions.create(
                model=self.model,
                messages=messages,
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                response_format={"type": "json_object"},
            )
        except openai.APITimeoutError as exc:
            raise TransportFailure(
                CallOutcome.TIMEOUT, f"no reply within {self.timeout_s:g} s"
            ) from exc
        except openai.APIConnectionError as exc:
            raise TransportFailure(
                CallOutcome.CONNECTION_ERROR, f"cannot reach {self.where}: {exc}"
            ) from exc
        except openai.RateLimitError as exc:
            raise TransportFailure(
                CallOutcome.RATE_LIMITED,
                "429 rate limited",
                retry_after_s=_retry_after(exc.response),
            ) from exc
        except openai.APIStatusError as exc:
            outcome = (
                CallOutcome.SERVER_ERROR if exc.status_code >= 500 else CallOutcome.CLIENT_ERROR
            )
            raise TransportFailure(outcome, f"HTTP {exc.status_code}: {_short(exc)}") from exc
        except Exception as exc:  # a malformed HTTP body, a protocol error: never crash the run
            raise TransportFailure(
                CallOutcome.SERVER_ERROR, f"bad reply: {type(exc).__name__}: {str(exc)[:200]}"
            ) from exc
        choices = getattr(reply, "choices", None) or []
        usage = getattr(reply, "usage", None)
        text = choices[0].message.content if choices and choices[0].message else None
        return Completion(
            text=text,
            tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
            tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
        )

    def check(self) -> None:
        """Start-up check: the server answers, accepts the key and knows the model.

        Lists the server's models (``GET /models``), which costs no tokens.

        Raises:
            ThinkingError: one line naming the cause and the fix: unreachable server, refused
                key, or unknown model (with the models the server offers).
        """
        try:
            listed = self._client.models.list()
        except openai.AuthenticationError as exc:
            hint = (
                f"the key in ${self.api_key_env}"
                if self._key_set
                else f"no key (${self.api_key_env} is not set)"
            )
            raise ThinkingError(
                f"{self.where} refused {hint} (HTTP {exc.status_code}); set "
                f"{self.api_key_env} to a valid key or pass --api-key-env VAR"
            ) from None
        except openai.PermissionDeniedError as exc:
            raise ThinkingError(
                f"{self.where} denied access with the key in ${self.api_key_env} "
                f"(HTTP {exc.status_code}): {_short(exc)}"
            ) from None
        except (openai.APIConnectionError, openai.APITimeoutError) as exc:
            raise ThinkingError(
                f"cannot reach the model server at {self.where} "
                f"({type(exc).__name__}); start it or fix --base-url"
            ) from None
        except openai.NotFoundError:
            return  # a server without a model list: the first request will tell
        except openai.APIStatusError as exc:
            raise ThinkingError(
                f"the model server at {self.where} answered HTTP "
                f"{exc.status_code} to GET /models: {_short(exc)}"
            ) from None
        ids = sorted(m.id for m in getattr(listed, "data", []) or [])
        if ids and self.model not in ids:
            shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
            raise ThinkingError(
                f"unknown model {self.model!r} at {self.where}; it offers: {shown} "
                "(pass one of them with --model)"
            )

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()


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
