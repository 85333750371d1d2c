"""The timed events file (``events.yaml``) -> TimedEvents sorted by time.

Each event's allowed fields depend on its type (close_place, open_place, whisper, news).
"""

from __future__ import annotations

from pathlib import Path

from ..world import TileMap
from ..world.fields import Fields
from .checks import game_time, map_place, probe_key, rated_importance, read_yaml
from .town_spec import EventType, TimedEvent

__all__ = ["read_events"]


_EVENT_FIELDS = {
    EventType.CLOSE_PLACE: ("place", "reason"),
    EventType.OPEN_PLACE: ("place", "reason"),
    EventType.WHISPER: ("persona", "text", "probe", "importance"),
    EventType.NEWS: ("text", "personas", "probe"),
}


def read_events(path: Path, tilemap: TileMap, ids: set[str], probes: set[str]) -> tuple[TimedEvent, ...]:
    """The checked events of ``path``, sorted by time (``ids``: the town's personas; ``probes``: probe names).

    Raises:
        ConfigError: naming the file and the field for any invalid event.
    """
    f = Fields(path)
    data = f.mapping(read_yaml(path) or {}, "", ("events",))
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
        at = game_time(f, e, "at", p)
        if etype in (EventType.CLOSE_PLACE, EventType.OPEN_PLACE):
            fields = {
                "place": map_place(f, tilemap, e.get("place"), f"{p}.place"),
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
                "probe": probe_key(f, e, p, probes),
                "importance": rated_importance(f, e, p, None),
            }
        else:
            who = e.get("personas", "all")
            if who == "all":
                who = sorted(ids)
            for j, pid in enumerate(f.check(who, list, f"{p}.personas")):
                if f.check(pid, str, f"{p}.personas[{j}]") not in ids:
                    raise f.error(
                        f"{p}.personas[{j}]",
                        f"unknown persona {pid!r}; personas: {', '.join(sorted(ids))}",
                    )
            fields = {
                "text": f.get(e, "text", str, p),
                "personas": list(who),
                "probe": probe_key(f, e, p, probes),
            }
        events.append(TimedEvent(at=at, type=etype, fields=fields))
    return tuple(sorted(events, key=lambda ev: ev.at))

