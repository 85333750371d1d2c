"""The procedures tab's data: every procedure library of a run as of a tick (docs/design, §2, §5).

Read from the run file only. The base is the newest snapshot at or before the tick
(``state["personas"][pid]["procedures"]["library"]`` and ``state["town_procedures"]``); each later
PROCEDURE event (save, use, outcome, deviation, prune) carries the procedure as its library
described it right after the event, so the latest one wins. Each procedure also gets its history:
the PROCEDURE events about it up to the tick (a timeline of uses and outcomes).
"""

from __future__ import annotations

from typing import Any

from town.events import EventKind
from town.recording.reader import RunReader

__all__ = ["TOWN_LIBRARY", "procedure_libraries"]

#: The library id of the shared town library (persona libraries use the persona id).
TOWN_LIBRARY = "town"
#: Event data keys copied into a history entry.
_HISTORY_KEYS = ("op", "result", "counted", "reason", "task", "place", "rule", "merged", "via")


def _history_entry(event: Any) -> dict[str, Any]:
    entry = {"seq": event.seq, "tick": event.tick, "time": event.time.isoformat(sep=" "),
             "persona": event.persona}
    for key in _HISTORY_KEYS:
        if key in event.data:
            entry[key] = event.data[key]
    return entry


def procedure_libraries(reader: RunReader, *, until_tick: int | None = None,
                        default_threshold: float = 0.6) -> dict[str, Any]:
    """The procedure libraries of the run at the end of ``until_tick`` (default: now).

    Args:
        reader: the run.
        until_tick: show the libraries as of this tick (None: the latest recorded state).
        default_threshold: the reliability threshold shown when the run records none.

    Returns:
        ``{"threshold": float, "libraries": {library id: [procedure, ...]}}`` where the library
        id is ``"town"`` or a persona id, and each procedure is ``ProcedureLibrary.describe()``
        (name, when, steps, successes, failures, reliability, uses, created, last_used,
        below_since, pruned, pruned_at, status, threshold) plus ``"history": [{"seq", "tick",
        "time", "persona", "op", "result"?, "counted"?, "reason"?, "task"?, "rule"?, "via"?}]``
        oldest first. Procedures keep the order in which they were first saved.
    """
    libraries: dict[str, dict[str, dict[str, Any]]] = {TOWN_LIBRARY: {}}
    config = reader.meta.get("config") or {}
    threshold = float((config.get("procedures") or {}).get("threshold", default_threshold))
    snapshot = reader.snapshot_at_or_before(until_tick if until_tick is not None
                                            else (reader.last_tick or 0))
    if snapshot is not None:
        _, _, state = snapshot
        for pid, persona_state in (state.get("personas") or {}).items():
            library = ((persona_state or {}).get("procedures") or {}).get("library") or {}
            libraries[pid] = {p["name"]: dict(p) for p in library.get("procedures", [])}
        town = state.get("town_procedures") or {}
        libraries[TOWN_LIBRARY] = {p["name"]: dict(p) for p in town.get("procedures", [])}
    for pid in reader.personas():
        libraries.setdefault(pid, {})
    snap_seq = -1 if snapshot is None else snapshot[1]
    histories: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for event in reader.events(kinds=[EventKind.PROCEDURE], until_tick=until_tick):
        lib_id, name = event.data.get("library"), event.data.get("name")
        if lib_id is None or name is None:
            continue
        histories.setdefault((lib_id, name), []).append(_history_entry(event))
        described = event.data.get("procedure")
        if event.seq > snap_seq and isinstance(described, dict):
            libraries.setdefault(lib_id, {})[name] = dict(described)
    for lib_id, procs in libraries.items():
        for name, proc in procs.items():
            proc.setdefault("threshold", threshold)
            proc["history"] = histories.get((lib_id, name), [])
    return {"threshold": threshold,
            "libraries": {lib_id: list(procs.values()) for lib_id, procs in libraries.items()}}
