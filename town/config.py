"""Run configuration: one TOML file over the packaged defaults, plus overrides.

The defaults live in ``town/default.toml``; overrides come from CLI flags. The effective
configuration is stored in each run (:meth:`Config.to_dict`).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import tomllib
import types
import typing
from datetime import datetime
from pathlib import Path
from typing import Any

from .clock import TIME_FORMAT, parse_game_time
from .errors import ConfigError

__all__ = [
    "BackendName",
    "EmbedderName",
    "RetrievalConfig",
    "ReflectionConfig",
    "ProceduresConfig",
    "RecordingConfig",
    "PerceptionConfig",
    "BackendConfig",
    "Config",
    "ABLATIONS",
    "load_config",
]


class BackendName(str, enum.Enum):
    """Thinking backends (docs/design, §3)."""

    SCRIPTED = "scripted"
    OPENAI = "openai"
    LOCAL = "local"


class EmbedderName(str, enum.Enum):
    """Sentence embedders: embedded MiniLM, feature hashing (tests), or a server's /embeddings.

    "openai" uses the OpenAI-compatible server at ``backend.base_url`` with ``backend.embed_model``.
    """

    MINILM = "minilm"
    HASHING = "hashing"
    OPENAI = "openai"


def _require(ok: bool, field: str, reason: str) -> None:
    if not ok:
        raise ConfigError(reason, field=field)


@dataclasses.dataclass(frozen=True, kw_only=True)
class RetrievalConfig:
    """Retrieval (Park et al. 2023 §4.1): top ``k`` by weighted (recency, importance, relevance)."""

    k: int
    weights: tuple[float, float, float]

    def __post_init__(self) -> None:
        _require(self.k >= 1, "k", f"must be >= 1, got {self.k}")
        _require(
            len(self.weights) == 3, "weights", "must be 3 numbers (recency, importance, relevance)"
        )
        _require(
            all(math.isfinite(w) and w >= 0 for w in self.weights) and any(self.weights),
            "weights",
            f"must be finite, >= 0 and not all zero, got {list(self.weights)}",
        )


@dataclasses.dataclass(frozen=True, kw_only=True)
class ReflectionConfig:
    """Reflect once the importance of new memories sums past ``threshold`` (Park et al. §4.2)."""

    threshold: int

    def __post_init__(self) -> None:
        _require(self.threshold >= 1, "threshold", f"must be >= 1, got {self.threshold}")


@dataclasses.dataclass(frozen=True, kw_only=True)
class ProceduresConfig:
    """Least reliability in [0, 1] for a procedure to be retrieved (docs/design, §2)."""

    threshold: float

    def __post_init__(self) -> None:
        _require(
            0.0 <= self.threshold <= 1.0, "threshold", f"must be in [0, 1], got {self.threshold}"
        )


@dataclasses.dataclass(frozen=True, kw_only=True)
class RecordingConfig:
    """Game hours between full-state snapshots (> 0)."""

    snapshot_every_hours: float

    def __post_init__(self) -> None:
        _require(
            math.isfinite(self.snapshot_every_hours) and self.snapshot_every_hours > 0,
            "snapshot_every_hours",
            f"must be > 0 game hours, got {self.snapshot_every_hours}",
        )


@dataclasses.dataclass(frozen=True, kw_only=True)
class PerceptionConfig:
    """How far (in tiles) a persona sees."""

    vision_radius: int

    def __post_init__(self) -> None:
        _require(
            self.vision_radius >= 0,
            "vision_radius",
            f"must be >= 0 tiles, got {self.vision_radius}",
        )


@dataclasses.dataclass(frozen=True, kw_only=True)
class BackendConfig:
    """The thinking backend and its wrappers (docs/design, §3). Times are wall seconds."""

    name: BackendName
    api_key_env: str
    timeout_s: float
    max_retries: int
    pool_size: int
    cache: bool
    max_consecutive_failures: int
    max_consecutive_fallbacks: int = 20
    structured: str = "auto"
    max_concurrency: str = "auto"
    importance: str = "batch"
    max_prompt_tokens: int = 1200
    base_url: str | None = None
    more_base_urls: tuple[str, ...] = ()
    model: str | None = None
    embed_model: str | None = None

    def __post_init__(self) -> None:
        from .thinking.schema import Dialect

        dialects = ["auto"] + [d.value for d in Dialect]
        _require(self.structured in dialects, "structured",
                 f"must be one of {', '.join(dialects)}, got {self.structured!r}")
        _require(self.max_concurrency == "auto" or (self.max_concurrency.isdigit() and int(self.max_concurrency) >= 1),
                 "max_concurrency", f"must be auto or an integer >= 1, got {self.max_concurrency!r}")
        _require(self.importance in ("batch", "each"), "importance",
                 f"must be batch (one request per persona per tick) or each (per memory), got {self.importance!r}")
        _require(self.max_prompt_tokens >= 0, "max_prompt_tokens",
                 f"must be >= 0 tokens (0: no budget), got {self.max_prompt_tokens}")
        _require(self.timeout_s > 0, "timeout_s", f"must be > 0 seconds, got {self.timeout_s}")
        _require(self.max_retries >= 0, "max_retries", f"must be >= 0, got {self.max_retries}")
        for name in ("pool_size", "max_consecutive_failures"):
            _require(getattr(self, name) >= 1, name, f"must be >= 1, got {getattr(self, name)}")
        _require(self.max_consecutive_fallbacks >= 0, "max_consecutive_fallbacks",
                 f"must be >= 0 (0: never stop), got {self.max_consecutive_fallbacks}")


#: Parts of the architecture a run can switch off (Park et al. 2023 §6.2's ablations).
ABLATIONS = ("observation", "planning", "reflection")


@dataclasses.dataclass(frozen=True, kw_only=True)
class Config:
    """The effective configuration of a run.

    Attributes:
        seconds_per_tick: game seconds per tick (> 0).
        seed: seed of the simulation's random generator.
        embedder: which sentence embedder to use.
        retrieval, reflection, procedures, recording, perception, backend: grouped settings.
        start: game start datetime, or None for the town's own start.
        ablate: comma-separated parts switched off, a subset of :data:`ABLATIONS` ("" = the
            full architecture); stored sorted, e.g. "planning,reflection".
    """

    seconds_per_tick: int
    seed: int
    embedder: EmbedderName
    retrieval: RetrievalConfig
    reflection: ReflectionConfig
    procedures: ProceduresConfig
    recording: RecordingConfig
    perception: PerceptionConfig
    backend: BackendConfig
    start: datetime | None = None
    ablate: str = ""

    def __post_init__(self) -> None:
        _require(
            self.seconds_per_tick > 0,
            "seconds_per_tick",
            f"must be > 0, got {self.seconds_per_tick}",
        )
        parts = {a.strip() for a in self.ablate.split(",") if a.strip()}
        unknown = sorted(parts - set(ABLATIONS))
        _require(not unknown, "ablate",
                 f"unknown part {unknown[0]!r}; allowed: {', '.join(ABLATIONS)}" if unknown else "")
        object.__setattr__(self, "ablate", ",".join(sorted(parts)))

    @property
    def ablated(self) -> frozenset[str]:
        """The parts switched off (empty for the full architecture)."""
        return frozenset(a for a in self.ablate.split(",") if a)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able nested dict (enums as values, ``start`` as ``"YYYY-MM-DD HH:MM"`` or None)."""
        return _dump(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, file: str | Path | None = None) -> Config:
        """Build from a complete nested dict such as :meth:`to_dict` output.

        Raises:
            ConfigError: naming ``file`` and the dotted field for a missing or unknown key, a
                wrong type or a bad value.
        """
        return _build(cls, data, "", None if file is None else str(file))


def _dump(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return {f.name: _dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, datetime):
        return obj.strftime(TIME_FORMAT)
    if isinstance(obj, tuple):
        return list(obj)
    return obj


def _convert(kind: Any, value: Any, field: str, file: str | None) -> Any:
    def bad(expected: str) -> ConfigError:
        return ConfigError(f"must be {expected}, got {value!r}", file=file, field=field)

    args = typing.get_args(kind)
    if isinstance(kind, types.UnionType):  # X | None
        inner = next(a for a in args if a is not type(None))
        return None if value is None else _convert(inner, value, field, file)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise bad("a table of settings")
        return _build(kind, value, field, file)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        allowed = [m.value for m in kind]
        if value not in allowed:
            raise bad("one of " + ", ".join(repr(a) for a in allowed))
        return kind(value)
    if kind is datetime:
        if isinstance(value, datetime):
            return value
        if not isinstance(value, str):
            raise bad("a game time like '2023-02-13 07:00'")
        return parse_game_time(value, field=field)
    if typing.get_origin(kind) is tuple:
        if not isinstance(value, list | tuple):
            raise bad(f"a list of {len(args)} numbers")
        return tuple(_convert(args[0], v, f"{field}[{i}]", file) for i, v in enumerate(value))
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind in (str, bool) and isinstance(value, kind):
        return value
    raise bad({int: "an integer", float: "a number", str: "a text", bool: "true or false"}[kind])


def _build(cls: type, data: dict[str, Any], prefix: str, file: str | None) -> Any:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}

    def dotted(name: str) -> str:
        return f"{prefix}.{name}" if prefix else name

    for key in data:
        if key not in fields:
            raise ConfigError(
                f"unknown setting; allowed: {', '.join(fields)}", file=file, field=dotted(key)
            )
    values = {}
    for name, f in fields.items():
        if name in data:
            values[name] = _convert(hints[name], data[name], dotted(name), file)
        elif f.default is dataclasses.MISSING:
            raise ConfigError("missing setting", file=file, field=dotted(name))
    try:
        return cls(**values)
    except ConfigError as exc:
        raise ConfigError(exc.reason, file=file, field=dotted(exc.field or "")) from None


def _target_type(path: str) -> Any:
    kind: Any = Config
    for part in path.split("."):
        if not dataclasses.is_dataclass(kind) or part not in typing.get_type_hints(kind):
            raise ConfigError("unknown setting", file="overrides", field=path)
        kind = typing.get_type_hints(kind)[part]
    return kind


def _parse_text(kind: Any, text: str, path: str) -> Any:
    """Turn a command-line text into the value the setting at ``path`` takes."""
    if isinstance(kind, types.UnionType):  # X | None
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    inner = kind
    try:
        if typing.get_origin(inner) is tuple:
            return [float(v) for v in text.strip("[]() ").split(",")]
        if inner is bool:
            return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}[
                text.lower()
            ]
        return {int: int, float: float}.get(inner, str)(text)
    except (KeyError, ValueError):
        raise ConfigError(
            f"cannot read {text!r} as this setting's type", file="overrides", field=path
        ) from None


def _merge(base: dict, extra: dict, prefix: str, *, parse: bool) -> None:
    """Merge ``extra`` into ``base`` in place; with ``parse``, check keys and read texts."""
    for key, value in extra.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if "." in str(key):  # dotted override "backend.model"
            head, rest = str(key).split(".", 1)
            _merge(base, {head: {rest: value}}, prefix, parse=parse)
            continue
        kind = _target_type(path) if parse else None
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value, path, parse=parse)
        elif parse and isinstance(value, str) and not dataclasses.is_dataclass(kind):
            base[key] = _parse_text(kind, value, path)
        else:
            base[key] = value


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("configuration file not found", file=path) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read it: {exc.strerror}", file=path) from None


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> Config:
    """Load the defaults, then ``path`` (TOML) over them, then ``overrides`` over both.

    Args:
        path: a TOML file with any subset of the settings, or None for the defaults alone.
        overrides: settings by dotted key (``{"retrieval.k": 5}``) or nested dicts; text values
            (from the command line) are read as the setting's type (``"0.5,1,1"`` for weights).

    Raises:
        ConfigError: naming the file (or ``overrides``) and the dotted field for an unknown key,
            a wrong type or a bad value.
    """
    default = Path(__file__).with_name("default.toml")
    merged = tomllib.loads(default.read_text(encoding="utf-8"))
    source = "town/default.toml"
    if path is not None:
        source = str(path)
        user = _read_toml(Path(path))
        _merge(merged, _checked_keys(user, "", source), "", parse=False)
    if overrides:
        _merge(merged, dict(overrides), "", parse=True)
        source = f"{source} + overrides"
    return _build(Config, merged, "", source)


def _checked_keys(data: dict[str, Any], prefix: str, file: str) -> dict[str, Any]:
    """Reject unknown keys of a user file before merging, naming that file."""
    kind: Any = _target_type(prefix) if prefix else Config
    hints = typing.get_type_hints(kind)
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else key
        if key not in hints:
            raise ConfigError(
                f"unknown setting; allowed: {', '.join(hints)}", file=file, field=path
            )
        if isinstance(value, dict) and dataclasses.is_dataclass(hints[key]):
            _checked_keys(value, path, file)
    return data
