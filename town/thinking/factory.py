"""Build the configured thinking backend, checked before the first tick (docs/design, §3).

``make_backend(config, publish=...)`` returns the scripted backend, or a model backend wrapped
for retries, fallbacks, stall handling, accounting and (by default) caching. A model server
that cannot be reached, refuses the key or does not know the model raises
:class:`~town.errors.ThinkingError` here, with one line naming the cause, so the run stops
before its first tick.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from .backend import ThinkingBackend
from .cache import AnswerCache, default_cache_path
from .model import ModelBackend
from .prompting import PromptSet
from .scripted import ScriptedBackend
from .wrappers import CachingBackend, CallRecorder, Publish, RetryingBackend, StallGuard

__all__ = ["make_backend", "settled"]


def make_backend(
    config,
    *,
    publish: Publish | None = None,
    prompts_dir: str | Path | None = None,
    cache_path: str | Path | None = None,
    model_path: str | Path | None = None,
    backoff_s: float = 1.0,
    recheck_interval_s: float = 2.0,
    check: bool = True,
) -> ThinkingBackend:
    """The thinking backend named by ``config.backend``, ready to answer.

    Args:
        config: the effective ``town.config.Config`` (uses ``config.backend``: name, base_url,
            more_base_urls, model, api_key_env, timeout_s, max_retries, pool_size, cache,
            max_consecutive_failures, structured, max_concurrency, max_prompt_tokens).
        publish: ``publish(kind, persona, data)`` for MODEL_CALL and STATUS events (e.g.
            ``MindContext.publish``); when None, events wait in the backend's ``recorder``
            until ``backend.recorder.bind(publish)``.
        prompts_dir: folder of ``<template>.j2`` overrides (``--prompts``).
        cache_path: answer cache file (default ``~/.cache/town/answers.sqlite``, or
            ``$TOWN_CACHE_DIR``); unused when ``config.backend.cache`` is false.
        model_path: the GGUF file of the local backend (``--model-path``).
        backoff_s: first retry wait, wall seconds (tests use less).
        recheck_interval_s: wall seconds between checks while stalled.
        check: run the start-up check (list the server's models / load the GGUF file).

    Returns:
        A thread-safe backend with ``name`` and ``pool_size``; model backends also carry
        ``recorder`` (a :class:`CallRecorder`, which publishes each call as a MODEL_CALL event) and
        ``stall`` (the :class:`StallGuard`).

    Raises:
        ConfigError: a missing ``base_url``/``model``/``model_path`` or a bad prompts folder.
        ThinkingError: the start-up check failed (unreachable, wrong key, unknown model, not an
            OpenAI-compatible API root, a model that ignores the answer schema).
    """
    cfg = config.backend
    name = getattr(cfg.name, "value", cfg.name)
    if name == "scripted":
        return ScriptedBackend()
    prompts = PromptSet(prompts_dir)
    model: ModelBackend
    if name == "openai":
        from .openai_backend import OpenAIBackend

        if not cfg.model:
            raise ConfigError(
                "the openai backend needs a model name: pass --model NAME", field="backend.model"
            )
        model = OpenAIBackend(
            base_url=cfg.base_url,
            model=cfg.model,
            api_key_env=cfg.api_key_env,
            timeout_s=cfg.timeout_s,
            more_base_urls=cfg.more_base_urls,
            structured=cfg.structured,
            max_concurrency=cfg.max_concurrency,
            prompts=prompts,
            pool_size=cfg.pool_size,
            max_prompt_tokens=cfg.max_prompt_tokens,
        )
    elif name == "local":
        from .local_backend import LocalBackend

        if not model_path:
            raise ConfigError(
                "the local backend needs a GGUF file: pass --model-path FILE.gguf",
                field="--model-path",
            )
        model = LocalBackend(model_path=model_path, prompts=prompts, pool_size=cfg.pool_size,
                             max_prompt_tokens=cfg.max_prompt_tokens)
    else:
        raise ConfigError(
            f"unknown backend {name!r}; use scripted, openai or local", field="backend.name"
        )
    if check:
        try:
            model.check()
        except BaseException:
            model.close()  # its connections, not left to the garbage collector
            raise
    recorder = CallRecorder(publish)
    stall = StallGuard(
        threshold=cfg.max_consecutive_failures,
        check_server=model.check_server,
        on_status=recorder.status,
        recheck_interval_s=recheck_interval_s,
    )
    retrying = RetryingBackend(
        model,
        fallback=ScriptedBackend(),
        recorder=recorder,
        max_retries=cfg.max_retries,
        stall=stall,
        backoff_s=backoff_s,
        max_consecutive_fallbacks=cfg.max_consecutive_fallbacks,
    )
    if cfg.cache:
        return CachingBackend(
            retrying, cache=AnswerCache(cache_path or default_cache_path()), recorder=recorder
        )
    return retrying


def settled(config, backend: ThinkingBackend):
    """``config`` with what the start-up check settled: the schema dialect and slots per server.

    The run stores this configuration, so it records the dialect the requests used, and a
    resumed run sends the same dialect.
    """
    model: ThinkingBackend | None = backend
    while model is not None and not isinstance(model, ModelBackend):
        model = getattr(model, "inner", None) or getattr(model, "model", None)
    if not isinstance(model, ModelBackend):  # no model server behind the wrappers
        return config
    changes = {"structured": model.structured.value}
    endpoints = getattr(model, "endpoints", None)
    if endpoints and config.backend.max_concurrency == "auto":
        changes["max_concurrency"] = str(min(e.slots for e in endpoints))
    return config.model_copy(update={"backend": config.backend.model_copy(update=changes)})
