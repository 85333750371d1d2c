"""The run's settings as frozen pydantic models: each group, its value checks and its dict form.

A run stores its effective configuration (:meth:`Config.to_dict`) and a resumed or forked run
reads it back (:meth:`Config.from_dict`). Types are strict: an integer is no bool, a bool no
integer, a number may be an integer; lists of the files become tuples.
"""

from __future__ import annotations

import enum
import math
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)

from ..clock import TIME_FORMAT, GameClock, parse_game_time
from ..errors import ConfigError
from ..memory.scoring import MAX_WEIGHT
from .messages import config_error

__all__ = ["BackendName", "EmbedderName", "Schedule", "Dialect", "RetrievalConfig", "ReflectionConfig", "ProceduresConfig",
           "RecordingConfig", "PerceptionConfig", "ConversationMode", "ConversationConfig", "BackendConfig", "Config",
           "ABLATIONS"]


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


class Schedule(str, enum.Enum):
    """How ticks are scheduled: every tick in step, or clusters running ahead (``town.simulation.runahead``)."""

    TICK = "tick"
    RUN_AHEAD = "run-ahead"


class ConversationMode(str, enum.Enum):
    """How a model backend writes a conversation (``[conversation] mode``)."""

    WHOLE = "whole"  # one request writes the exchange (town.mind.exchange)
    PER_LINE = "per-line"  # a request per line, a rating per heard line, a summary per side


class Dialect(str, enum.Enum):
    """How a request carries its answer's schema (``--structured``; ``backend.structured``)."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT_SCHEMA = "json_object_schema"
    GRAMMAR = "grammar"
    JSON_OBJECT = "json_object"
    NONE = "none"


def _require(ok: bool, field: str, reason: str) -> None:
    if not ok:
        raise ConfigError(reason, field=field)


def url_problem(url: str) -> str | None:
    """What makes ``url`` no model server's address, or None (``http://[::1`` was an InvalidURL
    traceback from the HTTP client; a password in it was written into the run file, and is not
    repeated in the message)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (reading it checks the port)
    except ValueError as exc:
        return f"is no URL ({exc}), got {url!r}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"must be an http:// or https:// address, e.g. http://127.0.0.1:8080/v1, got {url!r}"
    if parts.username is not None or parts.password is not None:  # a run file records the address
        host = parts.netloc.rsplit("@", 1)[1]
        return ("must not hold a user or password (the run file records the address): give the key in the "
                f"environment variable --api-key-env names, got {parts.scheme}://...@{host}")
    return None


def _listed(value: Any) -> Any:
    """A list (TOML and JSON have no tuples) as the tuple a list setting holds."""
    return tuple(value) if isinstance(value, list) else value


def _number_text(value: Any) -> Any:
    """A number as its text (a setting that is "auto" or a number; runs recorded a number)."""
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _seconds(text: str) -> float | None:
    """The seconds a text states (a finite number > 0), else None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def _game_time(value: Any) -> Any:
    """A text as a game datetime (``"2023-02-13 07:00"``); any other value as it is."""
    return parse_game_time(value, field="start") if isinstance(value, str) else value


class _Settings(BaseModel):
    """A table of settings: frozen, no unknown key, no conversion but int -> float."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class RetrievalConfig(_Settings):
    """Retrieval (Park et al. 2023 §4.1): top ``k`` by weighted (recency, importance, relevance)."""

    k: int
    weights: Annotated[tuple[float, ...], BeforeValidator(_listed)]

    @model_validator(mode="after")
    def _check(self) -> RetrievalConfig:
        _require(self.k >= 1, "k", f"must be >= 1, got {self.k}")
        _require(
            len(self.weights) == 3, "weights", "must be 3 numbers (recency, importance, relevance)"
        )
        _require(  # the memory stream's own bound (MAX_WEIGHT), checked before a run file exists
            all(math.isfinite(w) and 0 <= w <= MAX_WEIGHT for w in self.weights) and any(self.weights),
            "weights",
            f"must be finite, >= 0, <= {MAX_WEIGHT:g} and not all zero, got {list(self.weights)}",
        )
        return self


class ReflectionConfig(_Settings):
    """Reflect once the importance of new memories sums past ``threshold`` (Park et al. §4.2)."""

    threshold: int

    @model_validator(mode="after")
    def _check(self) -> ReflectionConfig:
        _require(self.threshold >= 1, "threshold", f"must be >= 1, got {self.threshold}")
        return self


class ProceduresConfig(_Settings):
    """Least reliability in [0, 1] for a procedure to be retrieved, and the verified successes
    for its owner (1 or more) before it is shared to the town library (docs/design, §2)."""

    threshold: float
    share_after: int = 2

    @model_validator(mode="after")
    def _check(self) -> ProceduresConfig:
        _require(
            0.0 <= self.threshold <= 1.0, "threshold", f"must be in [0, 1], got {self.threshold}"
        )
        _require(self.share_after >= 1, "share_after", f"must be 1 or more, got {self.share_after}")
        return self


class RecordingConfig(_Settings):
    """Game hours between full-state snapshots (> 0, at most a game year: 1e308 overflowed
    counting its ticks, a traceback after the run file was made)."""

    snapshot_every_hours: float

    @model_validator(mode="after")
    def _check(self) -> RecordingConfig:
        _require(
            math.isfinite(self.snapshot_every_hours) and 0 < self.snapshot_every_hours <= 24 * 365,
            "snapshot_every_hours",
            f"must be > 0 and at most 8760 game hours, got {self.snapshot_every_hours}",
        )
        return self


class PerceptionConfig(_Settings):
    """How far (in tiles) a persona sees, how many of the nearest it attends to (0: all), and for
    how many game hours an observation counts as recent (not written again; 0: none)."""

    vision_radius: int
    attention: int
    retention_hours: float

    @model_validator(mode="after")
    def _check(self) -> PerceptionConfig:
        _require(
            self.vision_radius >= 0,
            "vision_radius",
            f"must be >= 0 tiles, got {self.vision_radius}",
        )
        _require(self.attention >= 0, "attention", f"must be >= 0 personas, got {self.attention}")
        _require(
            math.isfinite(self.retention_hours) and 0 <= self.retention_hours <= 24 * 365,
            "retention_hours",
            f"must be 0-8760 game hours, got {self.retention_hours}",
        )
        return self


class ConversationConfig(_Settings):
    """How a conversation is written: ``mode`` "whole" (one request writes the exchange, each
    side's retrieval labelled) or "per-line" (Park et al. 2023: a request per line). The scripted
    backend always talks line by line."""

    mode: ConversationMode = Field(strict=False)


class BackendConfig(_Settings):
    """The thinking backend and its wrappers (docs/design, §3). Times are wall seconds.

    ``structured`` is ``"auto"`` or a :class:`Dialect` value; ``max_concurrency`` is ``"auto"``
    or an integer text; ``timeout_s`` is ``"auto"`` (from the server's speed measured at start,
    within ``min_timeout_s`` and ``max_timeout_s``: :mod:`town.thinking.speed`) or seconds.
    """

    name: BackendName = Field(strict=False)
    api_key_env: str
    timeout_s: Annotated[str, BeforeValidator(_number_text)]
    max_retries: int
    pool_size: int
    cache: bool
    max_consecutive_failures: int
    max_consecutive_fallbacks: int = 20
    structured: str = "auto"
    max_concurrency: str = "auto"
    importance: str = "deferred"
    max_prompt_tokens: int = 1200
    base_url: str | None = None
    more_base_urls: Annotated[tuple[str, ...], BeforeValidator(_listed)] = ()
    model: str | None = None
    embed_model: str | None = None
    min_timeout_s: float = 30.0
    max_timeout_s: float = 600.0

    @model_validator(mode="after")
    def _check(self) -> BackendConfig:
        dialects = ["auto"] + [d.value for d in Dialect]
        _require(self.structured in dialects, "structured",
                 f"must be one of {', '.join(dialects)}, got {self.structured!r}")
        _require(self.max_concurrency == "auto" or (self.max_concurrency.isdigit() and int(self.max_concurrency) >= 1),
                 "max_concurrency", f"must be auto or an integer >= 1, got {self.max_concurrency!r}")
        _require(self.importance in ("deferred", "batch", "each"), "importance",
                 "must be deferred (one request per persona for everything new, when next read), batch "
                 f"(one request per persona per tick) or each (per memory), got {self.importance!r}")
        _require(self.max_prompt_tokens >= 0, "max_prompt_tokens",
                 f"must be >= 0 tokens (0: no budget), got {self.max_prompt_tokens}")
        _require(self.timeout_s == "auto" or _seconds(self.timeout_s) is not None, "timeout_s",
                 f"must be auto or a number of seconds > 0, got {self.timeout_s!r}")
        _require(_seconds(str(self.min_timeout_s)) is not None, "min_timeout_s",
                 f"must be > 0 seconds, got {self.min_timeout_s}")
        _require(math.isfinite(self.max_timeout_s) and self.max_timeout_s >= self.min_timeout_s, "max_timeout_s",
                 f"must be >= min_timeout_s ({self.min_timeout_s:g} s), got {self.max_timeout_s}")
        for name, url in [("base_url", self.base_url), *(("more_base_urls", u) for u in self.more_base_urls)]:
            problem = url_problem(url) if url else None
            _require(problem is None, name, problem or "")
        _require(self.max_retries >= 0, "max_retries", f"must be >= 0, got {self.max_retries}")
        for name in ("pool_size", "max_consecutive_failures"):
            _require(getattr(self, name) >= 1, name, f"must be >= 1, got {getattr(self, name)}")
        _require(self.max_consecutive_fallbacks >= 0, "max_consecutive_fallbacks",
                 f"must be >= 0 (0: never stop), got {self.max_consecutive_fallbacks}")
        return self

    @property
    def fixed_timeout_s(self) -> float | None:
        """``timeout_s`` in seconds, or None when it is "auto" (set from the server's speed)."""
        return None if self.timeout_s == "auto" else _seconds(self.timeout_s)


#: Parts of the architecture a run can switch off (Park et al. 2023 §6.2's ablations).
ABLATIONS = ("observation", "planning", "reflection")


class Config(_Settings):
    """The effective configuration of a run.

    Attributes:
        seconds_per_tick: game seconds per tick (1-3600).
        seed: seed of the simulation's random generator.
        embedder: which sentence embedder to use.
        retrieval, reflection, procedures, recording, perception, backend, conversation: grouped
            settings (a run file stored before ``conversation`` existed talked line by line).
        start: game start datetime, or None for the town's own start.
        ablate: comma-separated parts switched off, a subset of :data:`ABLATIONS` ("" = the
            full architecture); stored sorted, e.g. "planning,reflection".
        schedule: "tick" (each tick waits for all its requests) or "run-ahead" (personas who
            cannot affect each other run ahead; ARCHITECTURE.md, "Running ahead").
    """

    seconds_per_tick: int
    seed: int
    embedder: EmbedderName = Field(strict=False)
    retrieval: RetrievalConfig
    reflection: ReflectionConfig
    procedures: ProceduresConfig
    recording: RecordingConfig
    perception: PerceptionConfig
    backend: BackendConfig
    start: Annotated[datetime | None, BeforeValidator(_game_time)] = None
    ablate: str = ""
    schedule: Schedule = Field(default=Schedule.TICK, strict=False)
    conversation: ConversationConfig = Field(
        default_factory=lambda: ConversationConfig(mode=ConversationMode.PER_LINE))

    @field_validator("ablate")
    @classmethod
    def _sorted(cls, ablate: str) -> str:
        return ",".join(sorted({a.strip() for a in ablate.split(",") if a.strip()}))

    @model_validator(mode="after")
    def _check(self) -> Config:
        _require(  # beyond an hour a tick is no step of a walk, and 1e11 overflowed datetime
            0 < self.seconds_per_tick <= 3600,
            "seconds_per_tick",
            f"must be 1-3600 game seconds, got {self.seconds_per_tick}",
        )
        unknown = sorted(set(self.ablated) - set(ABLATIONS))
        _require(not unknown, "ablate",
                 f"unknown part {unknown[0]!r}; allowed: {', '.join(ABLATIONS)}" if unknown else "")
        if self.start is not None:
            GameClock(self.start)  # its year range, said here with the config's name
        return self

    @field_serializer("start")
    def _start_text(self, start: datetime | None) -> str | None:
        return None if start is None else start.strftime(TIME_FORMAT)

    @property
    def ablated(self) -> frozenset[str]:
        """The parts switched off (empty for the full architecture)."""
        return frozenset(a for a in self.ablate.split(",") if a)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able nested dict (enums as values, ``start`` as ``"YYYY-MM-DD HH:MM"`` or None)."""
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, file: str | Path | None = None) -> Config:
        """Build from a complete nested dict such as :meth:`to_dict` output.

        Raises:
            ConfigError: naming ``file`` and the dotted field for a missing or unknown key, a
                wrong type or a bad value.
        """
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise config_error(exc, cls, None if file is None else str(file)) from None
