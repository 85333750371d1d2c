"""The in-process local backend: a GGUF model run by llama-cpp-python (``town[local]``).

The same prompts, parsing and validation as the OpenAI-compatible backend; the model runs in
this process, one completion at a time (llama.cpp contexts are not thread-safe), decoding under
each answer's JSON schema (llama-cpp-python's ``json_object`` + ``schema`` response format).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from ..config import Dialect
from ..errors import ConfigError, ThinkingError
from .model import CallOutcome, Completion, ModelBackend, Settled, TransportFailure
from .prompting import PromptSet

__all__ = ["LocalBackend"]


class LocalBackend(ModelBackend):
    """A GGUF chat model in-process through ``llama_cpp.Llama``.

    Args:
        model_path: the ``.gguf`` file.
        n_ctx: context length in tokens.
        n_threads: CPU threads for inference.
        prompts, temperature, max_tokens, pool_size: see :class:`ModelBackend`.

    Raises:
        ConfigError: when the file does not exist or llama-cpp-python is not installed.
    """

    name = "local"

    def __init__(
        self,
        *,
        model_path: str | Path,
        n_ctx: int = 2048,
        n_threads: int = 2,
        prompts: PromptSet | None = None,
        temperature: float = 0.7,
        max_tokens: int = 400,
        pool_size: int = 1,
        max_prompt_tokens: int = 0,
    ):
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise ConfigError(
                f"{self.model_path} does not exist; pass a .gguf file", field="--model-path"
            )
        super().__init__(
            model=self.model_path.name,
            prompts=prompts,
            temperature=temperature,
            max_tokens=max_tokens,
            pool_size=pool_size,
            structured=Dialect.JSON_OBJECT_SCHEMA,
            max_prompt_tokens=max_prompt_tokens,
        )
        try:
            import llama_cpp
        except ImportError:
            raise ConfigError(
                "the local backend needs llama-cpp-python: pip install 'town[local]'",
                field="backend.name",
            ) from None
        self._llama_module = llama_cpp
        self.n_ctx, self.n_threads = int(n_ctx), int(n_threads)
        self._llm: Any = None  # a llama_cpp.Llama once loaded (the package ships no types)
        self._lock = threading.Lock()

    def check(self) -> Settled:
        """Load the model (once).

        Returns:
            The dialect it decodes under (llama-cpp-python's ``json_object`` + ``schema``).

        Raises:
            ThinkingError: when llama.cpp cannot load the file.
        """
        with self._lock:
            if self._llm is None:
                try:
                    self._llm = self._llama_module.Llama(
                        model_path=str(self.model_path),
                        n_ctx=self.n_ctx,
                        n_threads=self.n_threads,
                        verbose=False,
                    )
                except Exception as exc:  # llama.cpp reports a bad file as ValueError or RuntimeError
                    raise ThinkingError(f"{self.model_path}: llama.cpp cannot load it ({exc})") from None
        return Settled(dialect=self.structured)

    def _complete(self, messages: list[dict[str, str]], schema: dict | None) -> Completion:
        """One chat completion under ``schema`` (JSON mode when None), in-process.

        Raises:
            TransportFailure: when the model is not loaded or llama.cpp fails (SERVER_ERROR).
        """
        self.check()
        with self._lock:
            try:
                reply = self._llm.create_chat_completion(
                    messages=messages,
                    temperature=self.temperature,
                    max_tokens=self.max_tokens,
                    response_format={"type": "json_object", **({"schema": schema} if schema else {})},
                )
            except Exception as exc:  # e.g. a prompt longer than the context
                raise TransportFailure(CallOutcome.CLIENT_ERROR, f"llama.cpp: {exc}"[:300]) from exc
        usage = reply.get("usage") or {}
        return Completion(
            text=reply["choices"][0]["message"].get("content"),
            tokens_in=usage.get("prompt_tokens") or None,  # a prompt has tokens: 0 is no count
            tokens_out=usage.get("completion_tokens"),
        )

    def close(self) -> None:
        """Free the model."""
        with self._lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None
