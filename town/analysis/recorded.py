"""A recorded run's own settings and time, as the measures need them.

Its configuration, embedder and backend as recorded (a run file is data: its backend is shown,
and only the model a command names, :class:`NamedModel`, is ever asked); a game time as the tick it falls in; the
game time it covers; the seq just after a tick; a nested config as dotted keys (to override a run's config).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..clock import parse_game_time
from ..config import Config, load_config, url_problem
from ..embedding import Embedder, make_embedder
from ..errors import ConfigError, RecordingError

__all__ = ["NamedModel", "scripted_note", "run_config", "config_at", "load_embedder", "run_backend", "tick_at",
           "run_span", "seq_after", "flatten"]


def run_config(reader) -> Config | None:
    """The run's configuration (meta ``config``) over the defaults, checked; None when absent.

    A run records its whole :meth:`Config.to_dict`; a partial one (an older or hand-built run)
    takes the defaults for what it leaves out.

    Raises:
        ConfigError: naming the run file and the dotted field (``config.retrieval``) of a value
            of the wrong type or out of range.
    """
    recorded = reader.meta.get("config")
    return None if recorded is None else _checked(reader, recorded, "config")


def config_at(reader, tick: int) -> Config:
    """The settings tick ``tick`` of the run was made with (defaults when none are recorded).

    A fork's ticks up to its snapshot were made with its parent's settings (meta
    ``parent.config``; a fork of a fork: ``parent.parent.config`` before that one's snapshot),
    the rest with the run's own.

    Raises:
        ConfigError: as :func:`run_config`, naming ``parent.config`` for a parent's.
    """
    recorded, field = reader.meta.get("config"), "config"
    parent = reader.meta.get("parent")
    while isinstance(parent, dict) and "config" in parent and tick <= int(parent.get("tick", -1)):
        recorded, field = parent["config"], f"parent.{field}"
        parent = parent.get("parent")
    return load_config() if recorded is None else _checked(reader, recorded, field)


def _checked(reader, recorded: Any, field: str) -> Config:
    """A recorded configuration (meta ``field``) over the defaults, checked."""
    if not isinstance(recorded, dict):
        raise ConfigError(f"must be a table of settings, got {recorded!r}", file=reader.path, field=field)
    try:
        return Config.from_dict(_over(load_config().to_dict(), recorded), file=reader.path)
    except ConfigError as exc:
        raise ConfigError(exc.reason, file=reader.path, field=f"{field}.{exc.field}") from None


def _over(base: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
    """``recorded`` laid over ``base``, table by table (a non-table value replaces)."""
    out = dict(base)
    for key, value in recorded.items():
        both = isinstance(value, dict) and isinstance(base.get(key), dict)
        out[key] = _over(base[key], value) if both else value
    return out


@dataclass(frozen=True, kw_only=True)
class NamedModel:
    """The model backend the person running a command named (``--backend``, ``--model``,
    ``--base-url``, ``--api-key-env``), never a run file's.

    A run file is data: the backend it stores (name, base URL, key variable) is shown, never
    used to reach an address or to read an environment variable. ``--base-url`` alone names
    the openai backend.

    Attributes:
        backend: "scripted", "openai" or "local"; None: none named (the scripted backend).
        model: the model's name on the server (default: the one the run records: a name, no address).
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1``.
        api_key_env: the variable holding the key (default: the configuration default's, not the run's).
    """

    backend: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None

    @classmethod
    def from_args(cls, args) -> NamedModel:
        """The options of a parsed command line (missing ones None).

        Raises:
            ConfigError: naming ``--base-url`` when it is no http(s) address (checked at once:
                ``replay`` served on and failed only when asked to evaluate).
        """
        url = getattr(args, "base_url", None)
        problem = url_problem(url[0] if isinstance(url, list) else url) if url else None
        if problem is not None:
            raise ConfigError(problem, field="--base-url")
        return cls(backend=getattr(args, "backend", None), model=getattr(args, "model", None),
                   base_url=url[0] if isinstance(url, list) else url,
                   api_key_env=getattr(args, "api_key_env", None))

    @property
    def name(self) -> str:
        """The backend that answers: the one named, "openai" for a bare ``--base-url``, else "scripted"."""
        return self.backend or ("openai" if self.base_url else "scripted")


def scripted_note(reader, named: NamedModel | None = None) -> str | None:
    """One line when a run recorded with a model is answered by the scripted backend, naming how to
    ask a model instead; None otherwise."""
    made = reader.made_with()
    if made["backend"] == "scripted" or (named or NamedModel()).name != "scripted":
        return None
    model = f", model {made['model']}" if made["model"] else ""
    url = f", base URL {made['base_url']}" if made["base_url"] else ""
    return (f"{reader.path} was recorded with the {made['backend']} backend{model}{url}; answering with the "
            "scripted backend (a run file's backend is never contacted): pass --backend openai --base-url URL "
            "[--api-key-env VAR] to ask a model")


def load_embedder(reader, named: NamedModel | None = None) -> Embedder:
    """The embedder the run was recorded with (its meta ``embedder`` name, e.g. "minilm").

    An embedder at a model server ("openai:MODEL") is reached only at ``named.base_url``, with
    the key in ``named.api_key_env`` (default: the configuration default's), never at the run's.

    Raises:
        ConfigError: for an unknown embedder name, a missing model package, a bad meta
            ``config`` (see :func:`run_config`), or a server embedder without ``--base-url``.
    """
    name = str(reader.meta.get("embedder", "minilm"))
    if not (name == "openai" or name.startswith("openai:")):
        return make_embedder(name)
    named = named or NamedModel()
    if not named.base_url:
        raise ConfigError(f"{reader.path} was embedded by {name!r} at a model server, which a run file never "
                          "names for this command: pass --base-url URL (and --api-key-env VAR) to embed with it",
                          field="--base-url")
    config = run_config(reader) or load_config()
    backend = config.backend.model_copy(update={"base_url": named.base_url, "more_base_urls": [],
                                                "api_key_env": named.api_key_env or load_config().backend.api_key_env})
    return make_embedder(name, backend=backend)


def run_backend(reader, named: NamedModel | None = None):
    """The thinking backend that answers questions about a run: the one the person running the
    command named (:class:`NamedModel`), else the scripted backend, whatever the run recorded.

    A model backend keeps the run's other settings (timeouts, schema dialect, retries) but
    reaches only ``named.base_url`` and reads only ``named.api_key_env`` (default: the
    configuration default's); it is built as :func:`town.backends.make_backend` builds
    it (retries, scripted fallback and, by default, the answer cache), with a start-up check that
    does not measure the server's speed: an "auto" timeout is the one the run settled (meta
    ``model_server``), else ``max_timeout_s``.

    Returns:
        The :class:`town.backends.ThinkingParts` (``backend``; for a model, its
        ``recorder`` too).

    Raises:
        ConfigError: for a bad meta ``config``, ``--backend openai`` without ``--base-url``, or
            missing model settings.
        ThinkingError: when the model server cannot be reached.
    """
    from ..backends import ThinkingParts, default_backend, make_backend

    named = named or NamedModel()
    if named.name == "scripted":
        return ThinkingParts(backend=default_backend())
    if named.name == "openai" and not named.base_url:
        raise ConfigError("--backend openai needs --base-url URL: a run file's address is never used",
                          field="--base-url")
    config = run_config(reader) or load_config()
    over: dict[str, Any] = {"backend.name": named.name, "backend.more_base_urls": [],
                            "backend.api_key_env": named.api_key_env or load_config().backend.api_key_env}
    if named.base_url:
        over["backend.base_url"] = named.base_url
    if named.model:
        over["backend.model"] = named.model
    settled = reader.meta.get("model_server") or {}
    if config.backend.timeout_s == "auto" and settled.get("timeout_s"):
        over["backend.timeout_s"] = settled["timeout_s"]
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
