"""Scenario loading: a town folder (map, town file, persona files, optional events) -> Scenario.

A town is ``personas/<town>/`` holding ``map.yaml`` (or ``map.tmj``), ``town.yaml``, one
``<persona_id>.yaml`` per persona and optionally ``events.yaml`` and ``probes.yaml`` (evaluation
probes, read only by the evaluation and never by a mind); the schemas are documented in
``docs/scenario-files.md``. Every file is checked on load and every error is a
:class:`~town.errors.ConfigError` naming the file, the field (e.g. ``routine[3].place``) and the
reason. Persona identity and daily routine follow Park et al. 2023 §3 (seed descriptions) and
§4.3 (plans).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import datetime, time
from pathlib import Path
from typing import Any

import yaml

from .clock import TIME_FORMAT, clock_text, parse_game_time
from .errors import ConfigError
from .memory.record import MemoryKind
from .procedures.episode import Goal
from .world import TileMap, World, load_tilemap
from .world.address import sector_name
from .world.fields import REQUIRED, Fields
from .world.tilemap import find_map

__all__ = [
    "RoutineItem",
    "Relationship",
    "SeedMemory",
    "PersonaSpec",
    "Gathering",
    "Probe",
    "NetworkProbe",
    "EventType",
    "TimedEvent",
    "Scenario",
    "load_scenario",
    "TOWNS_DIR",
]

#: The project's towns folder: ``personas/`` in a checkout, reached through the link ``town/towns``;
#: an installed package holds a copy of it there (package data).
TOWNS_DIR = (Path(__file__).resolve().parent / "towns").resolve()
_ID = re.compile(r"^[a-z0-9_]+$")
_SPECIAL = ("map", "town", "events", "probes")
_DAY = 24 * 60


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


@dataclass(frozen=True, kw_only=True)
class RoutineItem:
    """One block of a persona's usual day (game time of day).

    ``end`` of ``00:00`` means midnight at the end of the day (the file says ``"24:00"``); use
    :attr:`start_minutes` / :attr:`end_minutes` (0-1440) to compare.
    """

    start: time
    end: time
    activity: str
    place: str
    task: str | None = None
    goal: Goal | None = None

    @property
    def start_minutes(self) -> int:
        """Minutes after midnight at which the block starts (0-1439)."""
        return _minutes(self.start)

    @property
    def end_minutes(self) -> int:
        """Minutes after midnight at which the block ends (1-1440)."""
        return _minutes(self.end) or _DAY

    def to_dict(self) -> dict[str, Any]:
        """JSON-able ``{"start", "end" ("24:00" at day end), "activity", "place", "task", "goal"}``."""
        return {
            "start": clock_text(self.start_minutes),
            "end": clock_text(self.end_minutes),
            "activity": self.activity,
            "place": self.place,
            "task": self.task,
            "goal": None if self.goal is None else self.goal.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class Relationship:
    """What a persona knows about another persona at the start."""

    persona: str
    description: str


@dataclass(frozen=True, kw_only=True)
class SeedMemory:
    """A memory a persona starts with; ``importance`` 1-10 (poignancy, Park et al. 2023 §4.1)."""

    content: str
    importance: int
    probe: str | None = None
    kind: MemoryKind = MemoryKind.OBSERVATION


@dataclass(frozen=True, kw_only=True)
class PersonaSpec:
    """A persona's identity as its file declares it (Park et al. 2023 §3.1 seed description)."""

    id: str
    name: str
    age: int
    emoji: str
    traits: tuple[str, ...]
    background: str
    lifestyle: str
    home: str
    routine: tuple[RoutineItem, ...]
    relationships: tuple[Relationship, ...] = ()
    memories: tuple[SeedMemory, ...] = ()

    def routine_at(self, minutes: int) -> RoutineItem:
        """The routine block covering ``minutes`` after midnight (0-1439)."""
        return next(r for r in self.routine if r.start_minutes <= minutes % _DAY < r.end_minutes)

    def summary(self) -> str:
        """One paragraph of identity for questions (name, age, traits, background, lifestyle)."""
        return f"{self.name}, {self.age}. Traits: {', '.join(self.traits)}. {self.background} {self.lifestyle}"

    @property
    def home_sector(self) -> str:
        """The sector of the home address ("Isabella Rodriguez's apartment")."""
        return sector_name(self.home)


@dataclass(frozen=True, kw_only=True)
class Gathering:
    """An event people may attend: at ``place`` from ``start`` to ``end`` (game datetimes).

    ``host`` is the persona id of the organiser, if the probe names one.
    """

    place: str
    start: datetime
    end: datetime
    host: str | None = None


@dataclass(frozen=True, kw_only=True)
class Probe:
    """An evaluation probe for one piece of news (``probes.yaml``; Park et al. 2023 §7.1).

    Read only by the evaluation: the mind never sees a probe. Seeded memories, whispers and news
    events may name the probe they seed (``probe:``), so the evaluation can follow provenance.

    Attributes:
        name: ``[a-z0-9_]+``, unique in the town.
        question: what an interviewer asks ("Did you hear about a party?").
        facts: regular expressions (case-insensitive); an answer knows the news when all match.
        gathering: the event's place and window, for attendance, if the news is an event.
        paper: the paper's figures for this item (``citation`` and, optionally,
            ``diffusion: {start, end}`` as shares and ``attendance: {invited, came}``).
    """

    name: str
    question: str
    facts: tuple[str, ...]
    gathering: Gathering | None = None
    paper: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class NetworkProbe:
    """How the evaluation asks about relationships (``probes.yaml`` ``network``; Park et al. 2023 §7.1.2).

    Attributes:
        question: what each persona is asked about each other one; ``{name}`` stands for the
            other's full name.
        paper: the paper's figures (``citation`` and, optionally, ``density: {start, end}``).
    """

    question: str = "Do you know {name}?"
    paper: dict[str, Any] | None = None


class EventType(str, enum.Enum):
    """Kinds of timed scenario events."""

    CLOSE_PLACE = "close_place"
    OPEN_PLACE = "open_place"
    WHISPER = "whisper"
    NEWS = "news"


_EVENT_FIELDS = {
    EventType.CLOSE_PLACE: ("place", "reason"),
    EventType.OPEN_PLACE: ("place", "reason"),
    EventType.WHISPER: ("persona", "text", "probe", "importance"),
    EventType.NEWS: ("text", "personas", "probe"),
}


@dataclass(frozen=True, kw_only=True)
class TimedEvent:
    """A scenario event firing at game time ``at``.

    ``fields`` by type: close_place/open_place ``{"place", "reason"|None}``; whisper
    ``{"persona", "text", "probe": str|None, "importance": int|None}``; news ``{"text",
    "personas": [ids] (``"all"`` expanded), "probe": str|None}``.
    """

    at: datetime
    type: EventType
    fields: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able ``{"at": "YYYY-MM-DD HH:MM", "type", **fields}``."""
        return {"at": self.at.strftime(TIME_FORMAT), "type": self.type.value, **self.fields}


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """A loaded, checked town."""

    name: str
    folder: Path
    start: datetime
    tilemap: TileMap
    personas: tuple[PersonaSpec, ...]
    events: tuple[TimedEvent, ...] = ()
    probes: tuple[Probe, ...] = ()
    network: NetworkProbe = NetworkProbe()

    def persona(self, persona_id: str) -> PersonaSpec:
        """The persona with this id.

        Raises:
            KeyError: if there is none.
        """
        for p in self.personas:
            if p.id == persona_id:
                return p
        raise KeyError(persona_id)


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read it: {exc.strerror}", file=path) from None


def _clock(f: Fields, value: Any, field_: str, *, end: bool = False) -> int:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", value) if isinstance(value, str) else None
    minutes = int(m.group(1)) * 60 + int(m.group(2)) if m else -1
    if not m or int(m.group(2)) >= 60 or not 0 <= minutes <= (_DAY if end else _DAY - 1):
        raise f.error(
            field_, f"{value!r} is not a time of day 'HH:MM' (00:00-{'24:00' if end else '23:59'})"
        )
    return minutes


def _place(f: Fields, tilemap: TileMap, value: Any, field_: str) -> str:
    place = f.check(value, str, field_).strip()
    if not tilemap.has_address(place):
        raise f.error(field_, f"unknown place {place!r}: not an address of map {tilemap.world!r}")
    return place


def _probe_key(f: Fields, data: dict, prefix: str, probes: set[str]) -> str | None:
    name = f.get(data, "probe", str, prefix, default=None)
    if name is not None and name not in probes:
        known = ", ".join(sorted(probes)) or "none (no probes.yaml)"
        raise f.error(f"{prefix}.probe", f"unknown probe {name!r}; probes of probes.yaml: {known}")
    return name


def _importance(f: Fields, data: dict, prefix: str, default: Any) -> Any:
    value = f.get(data, "importance", int, prefix, default=default)
    if value is not None and not 1 <= value <= 10:
        raise f.error(f"{prefix}.importance", f"must be 1-10, got {value}")
    return value


def _goal(f: Fields, item: dict, p: str, tilemap: TileMap) -> Goal | None:
    """``goal: {uses: <object name>, minutes: N}`` of a routine block with a task, or None."""
    if item.get("goal") is None:
        return None
    if item.get("task") is None:
        raise f.error(f"{p}.goal", "a goal needs the block's task")
    raw = f.mapping(item["goal"], f"{p}.goal", ("uses", "minutes"))
    uses = f.get(raw, "uses", str, f"{p}.goal").strip()
    minutes = f.get(raw, "minutes", int, f"{p}.goal")
    if minutes < 1:
        raise f.error(f"{p}.goal.minutes", f"must be >= 1, got {minutes}")
    if not any(a.count(":") == 3 and a.rsplit(":", 1)[-1] == uses for a in tilemap.addresses()):
        raise f.error(f"{p}.goal.uses", f"no object named {uses!r} on the map")
    return Goal(uses=uses, minutes=minutes)


def _routine(f: Fields, raw: list, tilemap: TileMap) -> tuple[RoutineItem, ...]:
    if not raw:
        raise f.error("routine", "must list the day's blocks from 00:00 to 24:00")
    items, expected = [], 0
    for i, item in enumerate(raw):
        p = f"routine[{i}]"
        f.mapping(item, p, ("start", "end", "activity", "place", "task", "goal"))
        start = _clock(f, f.get(item, "start", str, p), f"{p}.start")
        end = _clock(f, f.get(item, "end", str, p), f"{p}.end", end=True)
        if end <= start:
            raise f.error(
                f"{p}.end", f"must be after start {clock_text(start)}, got {clock_text(end)}"
            )
        if start != expected:
            what = (
                "overlaps the block before"
                if start < expected
                else "leaves a gap after the block before"
            )
            raise f.error(
                f"{p}.start", f"{clock_text(start)} {what} (which ends {clock_text(expected)})"
            )
        expected = end
        items.append(
            RoutineItem(
                start=time(start // 60, start % 60),
                end=time((end // 60) % 24, end % 60),
                activity=f.get(item, "activity", str, p).strip(),
                place=_place(f, tilemap, item.get("place"), f"{p}.place"),
                task=f.get(item, "task", str, p, default=None),
                goal=_goal(f, item, p, tilemap),
            )
        )
    if expected != _DAY:
        raise f.error(
            f"routine[{len(raw) - 1}].end",
            f"the day must end at 24:00, got {clock_text(expected)}",
        )
    return tuple(items)


_PERSONA_KEYS = (
    "name",
    "age",
    "emoji",
    "traits",
    "background",
    "lifestyle",
    "home",
    "routine",
    "relationships",
    "memories",
)


def _persona(path: Path, tilemap: TileMap, ids: set[str], probes: set[str]) -> PersonaSpec:
    f = Fields(path)
    data = f.mapping(_read_yaml(path), "", _PERSONA_KEYS)
    age = f.get(data, "age", int)
    if not 0 <= age <= 130:
        raise f.error("age", f"must be 0-130, got {age}")
    traits = f.get(data, "traits", list)
    if not traits:
        raise f.error("traits", "must list at least one trait")
    rels = []
    for i, r in enumerate(f.get(data, "relationships", list, default=[])):
        p = f"relationships[{i}]"
        f.mapping(r, p, ("persona", "description"))
        other = f.get(r, "persona", str, p)
        if other not in ids or other == path.stem:
            raise f.error(
                f"{p}.persona",
                f"unknown persona {other!r}; others here: {', '.join(sorted(ids - {path.stem}))}",
            )
        rels.append(Relationship(persona=other, description=f.get(r, "description", str, p)))
    memories = []
    for i, m in enumerate(f.get(data, "memories", list, default=[])):
        p = f"memories[{i}]"
        f.mapping(m, p, ("content", "importance", "probe", "kind"))
        kind = f.get(m, "kind", str, p, default=MemoryKind.OBSERVATION.value)
        if kind not in {k.value for k in MemoryKind}:
            raise f.error(
                f"{p}.kind",
                f"unknown kind {kind!r}; use one of {', '.join(k.value for k in MemoryKind)}",
            )
        memories.append(
            SeedMemory(
                content=f.get(m, "content", str, p).strip(),
                importance=_importance(f, m, p, default=REQUIRED),
                probe=_probe_key(f, m, p, probes),
                kind=MemoryKind(kind),
            )
        )
    return PersonaSpec(
        id=path.stem,
        name=f.get(data, "name", str).strip(),
        age=age,
        emoji=f.get(data, "emoji", str, default="🙂"),
        traits=tuple(f.check(t, str, f"traits[{i}]").strip() for i, t in enumerate(traits)),
        background=f.get(data, "background", str).strip(),
        lifestyle=f.get(data, "lifestyle", str).strip(),
        home=_place(f, tilemap, f.get(data, "home", str), "home"),
        routine=_routine(f, f.get(data, "routine", list), tilemap),
        relationships=tuple(rels),
        memories=tuple(memories),
    )


def _town(path: Path) -> tuple[str, datetime]:
    f = Fields(path)
    data = f.mapping(_read_yaml(path), "", ("name", "start"))
    return f.get(data, "name", str), _game_time(f, data, "start", "")


def _paper(f: Fields, value: Any, pp: str) -> dict[str, Any]:
    """A checked ``paper`` table: citation, then optional diffusion/density shares, attendance counts."""
    paper = dict(f.mapping(value, pp, ("citation", "diffusion", "attendance", "density")))
    f.get(paper, "citation", str, pp)
    for key, parts in (("diffusion", ("start", "end")), ("density", ("start", "end")),
                       ("attendance", ("invited", "came"))):
        if paper.get(key) is not None:
            sub = f.mapping(paper[key], f"{pp}.{key}", parts)
            for part in parts:
                f.check(sub.get(part), float, f"{pp}.{key}.{part}")
    return paper


def _probes(path: Path, tilemap: TileMap, ids: set[str]) -> tuple[tuple[Probe, ...], NetworkProbe]:
    f = Fields(path)
    data = f.mapping(_read_yaml(path) or {}, "", ("probes", "network"))
    network = NetworkProbe()
    if data.get("network") is not None:
        net = f.mapping(data["network"], "network", ("question", "paper"))
        question = f.get(net, "question", str, "network", default=network.question)
        if "{name}" not in question:
            raise f.error("network.question", "must contain {name} (the other persona's full name)")
        network = NetworkProbe(question=question, paper=None if net.get("paper") is None
                               else _paper(f, net["paper"], "network.paper"))
    probes, seen = [], set()
    for i, n in enumerate(f.get(data, "probes", list, default=[])):
        p = f"probes[{i}]"
        f.mapping(n, p, ("name", "question", "facts", "gathering", "paper"))
        name = f.get(n, "name", str, p)
        if not _ID.match(name):
            raise f.error(f"{p}.name", f"{name!r} must match [a-z0-9_]+")
        if name in seen:
            raise f.error(f"{p}.name", f"duplicate probe name {name!r}")
        seen.add(name)
        facts = f.get(n, "facts", list, p)
        if not facts:
            raise f.error(f"{p}.facts", "must list at least one fact (a regular expression)")
        for j, fact in enumerate(facts):
            f.check(fact, str, f"{p}.facts[{j}]")
            try:
                re.compile(fact)
            except re.error as exc:
                raise f.error(f"{p}.facts[{j}]", f"not a regular expression: {exc}") from None
        gathering = None
        if n.get("gathering") is not None:
            gp = f"{p}.gathering"
            g = f.mapping(n["gathering"], gp, ("place", "start", "end", "host"))
            g_start, g_end = _game_time(f, g, "start", gp), _game_time(f, g, "end", gp)
            if g_end <= g_start:
                raise f.error(f"{gp}.end", "must be after the gathering's start")
            host = f.get(g, "host", str, gp, default=None)
            if host is not None and host not in ids:
                raise f.error(f"{gp}.host", f"unknown persona {host!r}; personas: {', '.join(sorted(ids))}")
            gathering = Gathering(place=_place(f, tilemap, g.get("place"), f"{gp}.place"),
                                  start=g_start, end=g_end, host=host)
        paper = None if n.get("paper") is None else _paper(f, n["paper"], f"{p}.paper")
        probes.append(Probe(name=name, question=f.get(n, "question", str, p),
                            facts=tuple(facts), gathering=gathering, paper=paper))
    return tuple(probes), network


def _game_time(f: Fields, data: dict, key: str, prefix: str) -> datetime:
    name = f"{prefix}.{key}" if prefix else key
    value = f.get(data, key, str if not isinstance(data.get(key), datetime) else datetime, prefix)
    if isinstance(value, datetime):
        return value
    try:
        return parse_game_time(value, field=name)
    except ConfigError as exc:
        raise f.error(name, exc.reason) from None


def _events(path: Path, tilemap: TileMap, ids: set[str], probes: set[str]) -> tuple[TimedEvent, ...]:
    f = Fields(path)
    data = f.mapping(_read_yaml(path) or {}, "", ("events",))
    events = []
    for i, e in enumerate(f.get(data, "events", list, default=[])):
        p = f"events[{i}]"
        f.mapping(e, p)
        raw_type = f.get(e, "type", str, p)
        if raw_type not in {t.value for t in EventType}:
            raise f.error(
                f"{p}.type",
                f"unknown type {raw_type!r}; "
                f"allowed types: {', '.join(t.value for t in EventType)}",
            )
        etype = EventType(raw_type)
        f.mapping(e, p, ("at", "type", *_EVENT_FIELDS[etype]))
        at = _game_time(f, e, "at", p)
        if etype in (EventType.CLOSE_PLACE, EventType.OPEN_PLACE):
            fields = {
                "place": _place(f, tilemap, e.get("place"), f"{p}.place"),
                "reason": f.get(e, "reason", str, p, default=None),
            }
        elif etype is EventType.WHISPER:
            who = f.get(e, "persona", str, p)
            if who not in ids:
                raise f.error(
                    f"{p}.persona", f"unknown persona {who!r}; personas: {', '.join(sorted(ids))}"
                )
            fields = {
                "persona": who,
                "text": f.get(e, "text", str, p),
                "probe": _probe_key(f, e, p, probes),
                "importance": _importance(f, e, p, None),
            }
        else:
            who = e.get("personas", "all")
            if who == "all":
                who = sorted(ids)
            for j, pid in enumerate(f.check(who, list, f"{p}.personas")):
                if pid not in ids:
                    raise f.error(
                        f"{p}.personas[{j}]",
                        f"unknown persona {pid!r}; personas: {', '.join(sorted(ids))}",
                    )
            fields = {
                "text": f.get(e, "text", str, p),
                "personas": list(who),
                "probe": _probe_key(f, e, p, probes),
            }
        events.append(TimedEvent(at=at, type=etype, fields=fields))
    return tuple(sorted(events, key=lambda ev: ev.at))


def _check_reachable(tilemap: TileMap, personas: list[tuple[Path, PersonaSpec]]) -> None:
    world = World(tilemap)
    anchor: tuple[str, tuple[int, int]] | None = None
    for path, spec in personas:
        places = [("home", spec.home)] + [
            (f"routine[{i}].place", r.place) for i, r in enumerate(spec.routine)
        ]
        for field_, place in places:
            tiles = tilemap.tiles(place)
            if not tiles:
                raise ConfigError(f"place {place!r} has no walkable tile", file=path, field=field_)
            tile = world.tile_for(place)
            if anchor is None:
                anchor = (place, tile)
            elif not world.reachable(anchor[1], tile):
                raise ConfigError(
                    f"no path reaches {place!r} from {anchor[0]!r}", file=path, field=field_
                )


def _resolve(folder_or_name: str | Path, towns_dir: Path) -> Path:
    candidate = Path(folder_or_name)
    if candidate.is_dir():
        return candidate
    if len(candidate.parts) == 1 and (towns_dir / candidate).is_dir():
        return towns_dir / candidate
    towns = sorted(p.name for p in towns_dir.iterdir() if p.is_dir()) if towns_dir.is_dir() else []
    raise ConfigError(
        f"no town folder {str(folder_or_name)!r}; "
        f"towns in {towns_dir}: {', '.join(towns) or 'none'}",
        file=folder_or_name,
    )


def load_scenario(folder_or_name: str | Path, *, towns_dir: str | Path = TOWNS_DIR) -> Scenario:
    """Load and check a town folder.

    Args:
        folder_or_name: a folder, or a bare town name resolved in ``towns_dir`` (``"the_ville"``).
        towns_dir: where bare names are looked up (default: the project's ``personas/``).

    Returns:
        The :class:`Scenario`; personas sorted by id, events by time.

    Raises:
        ConfigError: naming the file, the field and the reason for any invalid or missing file,
            and for a home or routine place that no path reaches from the others.
    """
    folder = _resolve(folder_or_name, Path(towns_dir))
    tilemap = load_tilemap(find_map(folder))
    persona_paths = sorted(p for p in folder.glob("*.yaml") if p.stem not in _SPECIAL)
    if not persona_paths:
        raise ConfigError("no persona files (<persona_id>.yaml) in the town folder", file=folder)
    for p in persona_paths:
        if not _ID.match(p.stem):
            raise ConfigError("a persona id (the file name) must match [a-z0-9_]+", file=p)
    ids = {p.stem for p in persona_paths}
    town_path = folder / "town.yaml"
    if not town_path.is_file():
        raise ConfigError("town file not found (needs name and start)", file=town_path)
    name, start = _town(town_path)
    probes_path = folder / "probes.yaml"
    probes, network = _probes(probes_path, tilemap, ids) if probes_path.is_file() else ((), NetworkProbe())
    probe_names = {pr.name for pr in probes}
    personas = [(p, _persona(p, tilemap, ids, probe_names)) for p in persona_paths]
    _check_reachable(tilemap, personas)
    events_path = folder / "events.yaml"
    events = _events(events_path, tilemap, ids, probe_names) if events_path.is_file() else ()
    return Scenario(
        name=name,
        folder=folder,
        start=start,
        tilemap=tilemap,
        personas=tuple(s for _, s in personas),
        events=events,
        probes=probes,
        network=network,
    )
