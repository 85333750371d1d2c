"""benchmarks/event_measures.py on a run written by hand, its values worked out below.

Four personas, 10-minute ticks, ticks 0..17 (3 game hours) from 2023-02-14 08:00. A vigil hosted
by h at ``t:Park`` from 09:00 to 10:00 (ticks 6..11, 60 minutes).

Memories (persona#id, tick, what):
    seed   c#0 observation "The vigil is at the park at 9am."     no probe: leads nowhere
    0      h#0 whisper, probe vigil                                 the root
    1      a#0 chat, source (h, 0)  "Hal Host told me that the vigil is at the park at 9am."
    1      b#0 chat, source (a, 0)  "Ann Able told me that ..."     heard at second hand
    2      a#1 chat, source (b, 0)  "Bob Brown told me that ..."    a repeat of a#0's statement
    2      a#2 chat                 "I talked with Bob Brown: the vigil is at the park at 9am!"
                                                                    a repeat (lead, case, "!" dropped)
    3      c#1 observation "the vigil is at the park at 9am"        a repeat of the seed c#0
    3      b#1 observation "Cat Cole is at the park."               new
Heard by: a, b (the host is not counted). New memories 7 (the seed is not new), repeats 3
(a#1, a#2, c#1): share 3/7; 7 memories / 4 personas / (3 h = 1/8 day) = 14.0 per persona-day.

Day plans for 2023-02-14:
    h: 08:00-09:30 at t:Home, 09:30-10:00 at t:Park (evidence [0]): 30 of 60 minutes = half -> planned
    a: 09:00-10:00 at t:Park:bench, evidence [0]                     -> planned by a
    b: 09:00-10:00 at t:Park, no evidence (routine); a decision go=false, "I have to work",
       evidence [0]                                                   -> declined, not planned
    c: 09:00-10:00 at t:Park, evidence [0] (c#0 leads nowhere)       -> not planned

Frames: h at t:Park ticks 6..8 (30 min: half, attended); a at t:Park:bench ticks 6..9 (40 min);
b at t:Park ticks 6..11 (60 min, there without planning it); c at t:Parkway ticks 6..11 (another
place). Attended by [a]; there anyway [b].
"""

from __future__ import annotations

import importlib.util
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from town.embedding import HashingEmbedder
from town.events import Event, EventBus, EventKind
from town.recording import RunReader, RunWriter

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
START, SPT = datetime(2023, 2, 14, 8, 0), 600
NAMES = {"h": "Hal Host", "a": "Ann Able", "b": "Bob Brown", "c": "Cat Cole"}
SAID = "the vigil is at the park at 9am."


@pytest.fixture(scope="module")
def measures():
    """benchmarks/event_measures.py as a module."""
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("event_measures", BENCH / "event_measures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(path: Path) -> Path:
    bus = EventBus()
    writer = RunWriter(path, {"town": "Hand", "start": START.isoformat(sep=" "), "seconds_per_tick": SPT,
                              "personas": {p: {"name": n, "emoji": "🙂"} for p, n in NAMES.items()},
                              "embedder": "hashing", "config": {}})
    bus.subscribe(writer.handle)

    def at(tick):
        return START + timedelta(seconds=tick * SPT)

    def memory(pid, rid, tick, kind, content, *, probe=None, source=None):
        stamp = at(tick).strftime("%Y-%m-%d %H:%M:%S")
        bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=at(tick), persona=pid, data={
            "id": rid, "persona": pid, "kind": kind, "content": content, "created": stamp,
            "last_accessed": stamp, "importance": 5, "evidence": [], "subject": None, "predicate": None,
            "object": None, "conversation": 1 if source else None, "source": list(source) if source else None,
            "probe": probe, "embedding": HashingEmbedder().embed([content])[0]}))

    def plan(pid, items, events=None):
        blocks = [{"start": f"2023-02-14 {s}:00", "end": f"2023-02-14 {e}:00", "description": "x", "place": p,
                   "task": None, "evidence": ev} for s, e, p, ev in items]
        bus.publish(Event(kind=EventKind.PLAN, tick=0, time=START, persona=pid, data={
            "level": "day", "date": "2023-02-14", "items": blocks, **({"events": events} if events else {})}))

    memory("c", 0, 0, "observation", "The vigil is at the park at 9am.")
    writer.snapshot(-1, START, bus.seq, {"state": "initial"})
    memory("h", 0, 0, "whisper", "I'm holding a vigil at the park from 9am to 10am.", probe="vigil")
    plan("h", [("08:00", "09:30", "t:Home", []), ("09:30", "10:00", "t:Park", [0])])
    plan("a", [("09:00", "10:00", "t:Park:bench", [0])])
    plan("b", [("09:00", "10:00", "t:Park", [])], [{"place": "t:Park", "start": "2023-02-14 09:00",
                                                   "end": "2023-02-14 10:00", "go": False,
                                                   "reason": "I have to work", "evidence": [0]}])
    plan("c", [("09:00", "10:00", "t:Park", [0])])
    later = {1: [("a", 0, "chat", f"Hal Host told me that {SAID}", ("h", 0)),
                 ("b", 0, "chat", f"Ann Able told me that {SAID}", ("a", 0))],
             2: [("a", 1, "chat", f"Bob Brown told me that {SAID}", ("b", 0)),
                 ("a", 2, "chat", "I talked with Bob Brown: the vigil is at the park at 9am!", None)],
             3: [("c", 1, "observation", SAID[:-1], None), ("b", 1, "observation", "Cat Cole is at the park.", None)]}
    for tick in range(18):
        for pid, rid, kind, content, source in later.get(tick, ()):
            memory(pid, rid, tick, kind, content, source=source)
        where = {"h": "t:Park" if 6 <= tick <= 8 else "t", "a": "t:Park:bench" if 6 <= tick <= 9 else "t",
                 "b": "t:Park" if 6 <= tick <= 11 else "t", "c": "t:Parkway" if 6 <= tick <= 11 else "t"}
        bus.publish(Event(kind=EventKind.FRAME, tick=tick, time=at(tick), data={
            "personas": {p: {"x": 0, "y": 0, "address": a} for p, a in where.items()}}))
    writer.close()
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The hand-built run's file."""
    return _build(tmp_path_factory.mktemp("events") / "run.sqlite")


def _vigil(measures):
    return measures.Gathering({"name": "vigil", "kind": "vigil", "phrasing": "first", "set": "first", "host": "h",
                               "place": "t:Park", "start": datetime(2023, 2, 14, 9), "end": datetime(2023, 2, 14, 10)})


def test_event_measures_match_the_hand_worked_values(measures, run):
    """Heard by a and b; planned by a only (b's block is routine, c's evidence leads nowhere)."""
    with RunReader(run) as reader:
        got = measures.measure_event(reader, _vigil(measures))
    assert got["host_planned"] is True and got["host_planned_for_it"] is True
    assert got["host_attended"] is True and got["host_minutes"] == 30.0
    assert got["heard_by"] == ["a", "b"]
    assert got["planned_by"] == ["a"]
    assert got["attended_by"] == ["a"] and got["there_anyway"] == ["b"]
    assert got["declined"] == {"b": "I have to work"}


def test_aggregate_shares_and_means(measures, run):
    """Two events: one as measured, one nobody heard: heard-by-3 0/2, came 1/2, heard 1.0 mean."""
    with RunReader(run) as reader:
        one = measures.measure_event(reader, _vigil(measures))
    none = {**one, "host_planned": False, "host_planned_for_it": False, "heard_by": [], "planned_by": [],
            "attended_by": [], "declined": {}}
    got = measures.aggregate([one, none])
    assert got == {"events": 2, "host_planned": 0.5, "host_planned_for_it": 0.5, "host_attended": 1.0,
                   "heard3": 0.0, "came1": 0.5,
                   "heard": 1.0, "planned": 0.5, "attended": 0.5, "declined": 0.5}


def test_memory_stats_count_repeats_of_a_held_statement(measures, run):
    """7 new memories, 3 repeat a statement held (one of them the seed's): 14.0 per persona-day."""
    with RunReader(run) as reader:
        got = measures.memory_stats(reader)
    assert (got["new"], got["repeats"], got["per_persona_day"], got["repeat_share"]) == (7, 3, 14.0, 0.429)
    assert got["by_kind"]["chat"] == {"new": 4, "repeats": 2, "repeat_share": 0.5}
    assert got["by_kind"]["observation"] == {"new": 2, "repeats": 1, "repeat_share": 0.5}


def test_a_fact_field_decides_what_repeats(measures):
    """Newer records: the same fact in other words is one fact; the same words of two facts are two."""
    fact = {"act": "hold", "subject": "vigil", "place": "t:Park", "start": "2023-02-14 09:00"}
    assert measures.fact_key({"content": "A vigil at the park.", "fact": fact}) == \
        measures.fact_key({"content": "Hal told me of a vigil.", "fact": dict(reversed(fact.items()))})
    assert measures.fact_key({"content": "x", "fact": fact}) != \
        measures.fact_key({"content": "x", "fact": {**fact, "start": "2023-02-14 10:00"}})
