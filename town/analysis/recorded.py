"""A recorded run's own settings and time, as the measures need them.

Its configuration, embedder and backend as recorded; a game time as the tick it falls in; the
game time it covers; the seq just after a tick; a nested config as dotted keys (to override a run's config).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..clock import parse_game_time
from ..config import Config, load_config
from ..embedding import Embedder, make_embedder
from ..errors import ConfigError, RecordingError

__all__ = ["run_config", "load_embedder", "run_backend", "tick_at", "run_span", "seq_after", "flatten"]


def run_config(reader) -> Config | None:
    """The run's configuration (meta ``config``) over the defaults, checked; None when absent.

    A run records its whole :meth:`Config.to_dict`; a partial one (an older or hand-built run)
    takes the defaults for what it leaves out.

    Raises:
        ConfigError: naming the run file and the dotted field (``config.retrieval``) of a value
            of the wrong type or out of range.
    """
    recorded = reader.meta.get("config")
    if recorded is None:
        return None
    if not isinstance(recorded, dict):
        raise ConfigError(f"must be a table of settings, got {recorded!r}", file=reader.path,
                          field="config")
    try:
        return Config.from_dict(_over(load_config().to_dict(), recorded), file=reader.path)
    except ConfigError as exc:
        raise ConfigError(exc.reason, file=reader.path, field=f"config.{exc.field}") from None


def _over(base: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
    """``recorded`` laid over ``base``, table by table (a non-table value replaces)."""
    out = dict(base)
    for key, value in recorded.items():
        both = isinstance(value, dict) and isinstance(base.get(key), dict)
        out[key] = _over(base[key], value) if both else value
    return out


def load_embedder(reader) -> Embedder:
    """The embedder the run was recorded with (its meta ``embedder`` name, e.g. "minilm").

    Raises:
        ConfigError: for an unknown embedder name, a missing model package or a bad meta
            ``config`` (see :func:`run_config`).
    """
    config = run_config(reader)
    return make_embedder(str(reader.meta.get("embedder", "minilm")),
                         backend=None if config is None else config.backend)


def run_backend(reader, *, name: str | None = None, model: str | None = None, base_url: str | None = None):
    """The thinking backend that answers questions about a run: the one it was recorded with (its
    meta ``config``; scripted when absent), or with ``name``/``model``/``base_url`` replaced.

    A model backend is built as the run had it (:func:`town.backends.make_backend`:
    retries, scripted fallback and, by default, the answer cache), with a start-up check that
    does not measure the server's speed: an "auto" timeout is the one the run settled (meta
    ``model_server``), else ``max_timeout_s``.

    Returns:
        The :class:`town.backends.ThinkingParts` (``backend``; for a model, its
        ``recorder`` too).

    Raises:
        ConfigError: for a bad meta ``config`` or missing model settings.
        ThinkingError: when the model server cannot be reached.
    """
    from ..backends import make_backend

    over = {k: v for k, v in (("backend.name", name), ("backend.model", model), ("backend.base_url", base_url)) if v}
    config = run_config(reader) or load_config()
    settled = reader.meta.get("model_server") or {}
    if not over and config.backend.timeout_s == "auto" and settled.get("timeout_s"):
        over["backend.timeout_s"] = settled["timeout_s"]
    if over:
        config = load_config(None, {**flatten(config.to_dict()), **over})
    return make_backend(config, measure_speed=False)


def tick_at(reader, at: datetime | str) -> tuple[datetime, int]:
    """The game time ``at`` and the last recorded tick at or before it (the run's last tick after it).

    Raises:
        ConfigError: naming ``--at`` when the time is not "YYYY-MM-DD HH:MM" or precedes the run.
        RecordingError: "PATH has no recorded tick yet" before the run's first frame.
    """
    last = reader.last_tick
    if last is None:
        raise RecordingError(f"{reader.path} has no recorded tick yet")
    if isinstance(at, str):
        text = at
        try:
            at = datetime.fromisoformat(text.strip())
        except ValueError:
            at = parse_game_time(text, field="--at")
    start = datetime.fromisoformat(reader.meta["start"])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    tick = int((at - start).total_seconds() // spt)
    if tick < 0:
        raise ConfigError(
            f"{at:%Y-%m-%d %H:%M} is before the run starts ({start:%Y-%m-%d %H:%M})", field="--at"
        )
    return at, min(tick, last)


def run_span(reader) -> dict[str, Any]:
    """The game time a run covers: from its start to the end of its last tick.

    Returns:
        ``{"last_tick": int | None, "hours": game hours covered, "start", "end": "YYYY-MM-DD
        HH:MM:SS"}`` (``hours`` 0 and ``end`` = ``start`` for a run without ticks).
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    start = datetime.fromisoformat(reader.meta["start"])
    last = reader.last_tick
    hours = 0.0 if last is None else (last + 1) * spt / 3600
    return {"last_tick": last, "hours": hours, "start": start.isoformat(sep=" "),
            "end": (start + timedelta(hours=hours)).isoformat(sep=" ")}


def seq_after(reader, tick: int) -> int:
    """The seq just after the last event of ``tick`` or earlier (1 when there is none).

    A stream as of the end of ``tick`` holds the memories of events with seq < it.
    """
    last = reader.events(until_tick=tick, newest_first=True, limit=1)
    return (last[0].seq if last else 0) + 1


def flatten(d: dict, prefix: str = "") -> dict:
    """Nested config dict -> dotted keys (None values dropped), for overriding a run's config."""
    out = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        elif value is not None:
            out[f"{prefix}{key}"] = value
    return out
