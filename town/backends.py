"""Build the configured thinking backend, checked before the first tick (docs/design, §3).

``make_backend(config, publish=...)`` returns :class:`ThinkingParts`: the backend to ask (the
scripted backend, or a model backend wrapped for retries, fallbacks and, by default, caching)
and, beside it as separate objects, the recorder of its calls, the stall guard (whose
``cancel`` is a stop request) and what the start-up check settled. A model server that cannot be
reached, refuses the key or does not know the model raises :class:`~town.errors.ThinkingError`
here, with one line naming the cause, so the run stops before its first tick.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigError
from .scripted import ScriptedBackend
from .thinking.backend import ThinkingBackend
from .thinking.cache import AnswerCache, default_cache_path
from .thinking.calibration import Calibration, calibrate
from .thinking.model import ModelBackend, Settled
from .thinking.prompting import PromptSet
from .thinking.server_check import CHECK_MARK
from .thinking.speed import expected_hours
from .thinking.wrappers import CachingBackend, CalibratedBackend, CallRecorder, Publish, RetryingBackend, StallGuard

__all__ = ["ThinkingParts", "default_backend", "make_backend"]


@dataclass(frozen=True, kw_only=True)
class ThinkingParts:
    """What :func:`make_backend` builds, each part its own object.

    Attributes:
        backend: answers the questions (thread-safe).
        recorder: publishes each model call as a MODEL_CALL event and the model's STATUS events
            (keeping them until :meth:`CallRecorder.bind` gives a publisher); None for the
            scripted backend.
        stall: the gate every model call and wait passes; its ``cancel`` is a stop request
            that ends them all, requests in flight included; None for the scripted backend.
        settled: what the start-up check settled (dialect, slots, the server's speed and the
            request timeout); None without a check.
        calibration: what the run does with the model's importance ratings (the start-up
            calibration's decision, or the resumed run's); None for the scripted backend.
    """

    backend: ThinkingBackend
    recorder: CallRecorder | None = None
    stall: StallGuard | None = None
    settled: Settled | None = None
    calibration: Calibration | None = None

    def run_config(self, config):
        """``config`` with what the start-up check settled: the schema dialect, and the slots
        per server when ``max_concurrency`` is "auto" (the fewest any server reported).

        The run stores this configuration, so it records the dialect the requests used, and a
        resumed run sends the same dialect.
        """
        if self.settled is None:  # no model server behind the backend
            return config
        changes = {"structured": self.settled.dialect.value}
        if self.settled.slots and config.backend.max_concurrency == "auto":
            changes["max_concurrency"] = str(min(self.settled.slots))
        return config.model_copy(update={"backend": config.backend.model_copy(update=changes)})

    def run_meta(self, config, personas: int) -> dict:
        """What the run's meta records of the check: ``{"model_server": ...}``, the speed measured
        and the timeout used (:meth:`town.thinking.speed.Speed.to_meta`) with the wall seconds to
        expect for the first game hour and each one after it (``first_hour_s``,
        ``later_hour_s``: :func:`town.thinking.speed.expected_hours` for ``personas`` and the
        requests ``config``'s servers take at once, ``at_once``); ``{}`` when nothing was measured.

        The configuration keeps ``timeout_s`` as it was given ("auto": a resumed run measures
        its server again). With a calibration, also ``{"importance_calibration":
        Calibration.to_meta()}``.
        """
        meta = {} if self.calibration is None else {"importance_calibration": self.calibration.to_meta()}
        settled = self.settled
        if settled is None or settled.speed is None or settled.timeout_s is None:
            return meta
        cfg = config.backend
        per_server = settled.slots or (1 if cfg.max_concurrency == "auto" else int(cfg.max_concurrency),)
        servers = 1 + len(cfg.more_base_urls)
        at_once = min(cfg.pool_size, sum(per_server) if settled.slots else per_server[0] * servers, personas)
        first, later = expected_hours(settled.speed, personas, at_once)
        return {**meta, "model_server": {**settled.speed.to_meta(settled.timeout_s), "personas": personas,
                                 "at_once": at_once, "first_hour_s": round(first, 1),
                                 "later_hour_s": round(later, 1)}}


def default_backend() -> ThinkingBackend:
    """The backend a simulation given none thinks with: the scripted one."""
    return ScriptedBackend()


def make_backend(
    config,
    *,
    publish: Publish | None = None,
    prompts_dir: str | Path | None = None,
    cache_path: str | Path | None = None,
    model_path: str | Path | None = None,
    backoff_s: float = 1.0,
    recheck_interval_s: float = 2.0,
    measure_speed: bool = True,
    calibration: dict | None = None,
) -> ThinkingParts:
    """The thinking backend named by ``config.backend``, ready to answer, and its parts.

    Args:
        config: the effective ``town.config.Config`` (uses ``config.backend``: name, base_url,
            more_base_urls, model, api_key_env, timeout_s, min_timeout_s, max_timeout_s,
            max_retries, pool_size, cache,
            max_consecutive_failures, structured, max_concurrency, max_prompt_tokens).
        publish: ``publish(kind, persona, data)`` for MODEL_CALL and STATUS events (e.g.
            ``MindContext.publish``); when None, events wait in the ``recorder`` until
            ``recorder.bind(publish)``.
        prompts_dir: folder of ``<template>.j2`` overrides (``--prompts``).
        cache_path: answer cache file (default ``~/.cache/town/answers.sqlite``, or
            ``$TOWN_CACHE_DIR``); unused when ``config.backend.cache`` is false.
        model_path: the GGUF file of the local backend (``--model-path``).
        backoff_s: first retry wait, wall seconds (tests use less).
        recheck_interval_s: wall seconds between checks while stalled.
        measure_speed: the start-up check measures the server's speed, which sets an "auto"
            timeout, and checks the model's importance ratings (False: a shorter check; an
            "auto" timeout is then ``max_timeout_s``, and the ratings are kept as they are).
        calibration: a run's meta ``importance_calibration`` to keep (a resumed run's), instead
            of probing the model afresh.

    Returns:
        The :class:`ThinkingParts`: a thread-safe backend with ``name``; for a model backend also
        its recorder, its stall guard, and what its start-up check (the server's models, a
        completion and the schema dialect; or loading the GGUF file) settled.

    Raises:
        ConfigError: a missing ``base_url``/``model``/``model_path`` or a bad prompts folder.
        ThinkingError: the start-up check failed (unreachable, wrong key, unknown model, not an
            OpenAI-compatible API root, a model that ignores the answer schema).
    """
    cfg = config.backend
    name = getattr(cfg.name, "value", cfg.name)
    if name == "scripted":
        return ThinkingParts(backend=default_backend())
    prompts = PromptSet(prompts_dir)
    model: ModelBackend
    if name == "openai":
        from .thinking.openai_backend import OpenAIBackend

        if not cfg.model:
            raise ConfigError(
                "the openai backend needs a model name: pass --model NAME", field="backend.model"
            )
        model = OpenAIBackend(
            base_url=cfg.base_url,
            model=cfg.model,
            api_key_env=cfg.api_key_env,
            timeout_s=cfg.fixed_timeout_s or "auto",
            timeout_bounds=(cfg.min_timeout_s, cfg.max_timeout_s),
            measure_speed=measure_speed,
            more_base_urls=cfg.more_base_urls,
            structured=cfg.structured,
            max_concurrency=cfg.max_concurrency,
            prompts=prompts,
            pool_size=cfg.pool_size,
            max_prompt_tokens=cfg.max_prompt_tokens,
        )
    elif name == "local":
        from .thinking.local_backend import LocalBackend

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
    try:
        settled = model.check()
        kept = (Calibration.from_meta(calibration) if calibration is not None
                else calibrate(model, CHECK_MARK) if measure_speed else None)
    except BaseException:
        model.close()  # its connections, not left to the garbage collector
        raise
    recorder = CallRecorder(publish)
    stall = StallGuard(
        threshold=cfg.max_consecutive_failures,
        check_server=model.check_server,
        on_status=recorder.status,
        recheck_interval_s=recheck_interval_s,
        on_cancel=model.cancel,
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
    backend: ThinkingBackend = retrying
    if cfg.cache:
        backend = CachingBackend(retrying, cache=AnswerCache(cache_path or default_cache_path()), recorder=recorder)
    if kept is not None and kept.weight != 1:  # ratings kept as they are need no wrapper
        backend = CalibratedBackend(backend, kept, ScriptedBackend())
    return ThinkingParts(backend=backend, recorder=recorder, stall=stall, settled=settled, calibration=kept)

