"""A persona file (``<persona_id>.yaml``) -> PersonaSpec, checked against the map and the town.

The schema is documented in ``docs/scenario-files.md``: identity, ``home``, a ``routine`` covering
00:00-24:00 without gaps or overlaps (Park et al. 2023 §4.3), relationships to other personas of
the town and seed memories (each may name the probe it seeds).
"""

from __future__ import annotations

import re
from datetime import time
from pathlib import Path
from typing import Any

from ..clock import clock_text
from ..memory.record import MemoryKind
from ..perspective import PRONOUNS
from ..procedures.episode import Goal
from ..world import TileMap
from ..world.fields import REQUIRED, Fields
from .checks import map_place, probe_key, rated_importance, read_yaml
from .persona_spec import DAY_MINUTES, PersonaSpec, Relationship, RoutineItem, SeedMemory

__all__ = ["read_persona"]


def _clock(f: Fields, value: Any, field_: str, *, end: bool = False) -> int:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", value) if isinstance(value, str) else None
    minutes = int(m.group(1)) * 60 + int(m.group(2)) if m else -1
    if not m or int(m.group(2)) >= 60 or not 0 <= minutes <= (DAY_MINUTES if end else DAY_MINUTES - 1):
        raise f.error(
            field_, f"{value!r} is not a time of day 'HH:MM' (00:00-{'24:00' if end else '23:59'})"
        )
    return minutes


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
                place=map_place(f, tilemap, item.get("place"), f"{p}.place"),
                task=f.get(item, "task", str, p, default=None),
                goal=_goal(f, item, p, tilemap),
            )
        )
    if expected != DAY_MINUTES:
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
    "pronouns",
)
#: A file's ``pronouns`` ("she/her") -> the subject pronoun others retell its words with.
_PRONOUNS = {f"{subject}/{forms[1]}": subject for subject, forms in PRONOUNS.items()}


def read_persona(path: Path, tilemap: TileMap, ids: set[str], probes: set[str]) -> PersonaSpec:
    """The checked persona of ``path`` (its id is the file name; ``ids``: the town's personas).

    Raises:
        ConfigError: naming the file and the field for any invalid entry.
    """
    f = Fields(path)
    data = f.mapping(read_yaml(path), "", _PERSONA_KEYS)
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
                importance=rated_importance(f, m, p, default=REQUIRED),
                probe=probe_key(f, m, p, probes),
                kind=MemoryKind(kind),
            )
        )
    pronouns = f.get(data, "pronouns", str, default=None)
    if pronouns is not None and pronouns.strip().lower() not in _PRONOUNS:
        raise f.error("pronouns", f"must be one of {', '.join(_PRONOUNS)}, got {pronouns!r}")
    return PersonaSpec(
        id=path.stem,
        name=f.get(data, "name", str).strip(),
        age=age,
        emoji=f.get(data, "emoji", str, default="🙂"),
        traits=tuple(f.check(t, str, f"traits[{i}]").strip() for i, t in enumerate(traits)),
        background=f.get(data, "background", str).strip(),
        lifestyle=f.get(data, "lifestyle", str).strip(),
        home=map_place(f, tilemap, f.get(data, "home", str), "home"),
        routine=_routine(f, f.get(data, "routine", list), tilemap),
        relationships=tuple(rels),
        memories=tuple(memories),
        pronoun=_PRONOUNS[pronouns.strip().lower()] if pronouns is not None else None,
    )

