"""Run-ahead scheduling (town/simulation/runahead.py): the rule, and runs it must leave unchanged.

The reference for a run-ahead run is the tick-synchronous run under the same library rule
(the town library read as at the start of each game hour of the run): every frame, every event
but its numbers, and every memory must be the same.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sqlite3

import numpy as np
import pytest
from cli_helpers import same_run

from town.clock import GameClock
from town.config import load_config
from town.events import EventKind
from town.mind.perceive import arena_of
from town.procedures import ProcedureLibrary
from town.recording.continuation import newest_snapshot
from town.recording.reader import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation
from town.simulation import runahead as runahead_module
from town.simulation.reach import HORIZON, Reach, ready_clusters

TICKS = 420  # Smallville from 07:00 to 08:10: the morning's conversations and library saves, past an hour's end
IDS = ("conversation", "retrieval", "decision", "evidence", "accepted", "memory")  # numbers, not what happened


# ---------------------------------------------------------------------------------------- the rule
class _Fields:
    """A stand-in for ``reach.Reach``: walking distances to each room given by the test."""

    def __init__(self, fields):
        self.fields = fields

    def to_room(self, arena):
        return self.fields[arena]

    def box(self, arena):  # rules nothing out: every pair is looked up
        return (0, 0, 10**6, 10**6)


def _brute(ticks, running, where, arenas, partner, radius, barrier, reach):
    """ready_clusters by its definition, pair by pair."""
    n = len(ticks)

    def room(i):
        return arenas[i].count(":") >= 2

    def cheb(i, j):
        return max(abs(int(where[i][0]) - int(where[j][0])), abs(int(where[i][1]) - int(where[j][1])))

    def sees(i, j):
        return bool(arenas[i]) and arenas[i] == arenas[j] and (room(i) or cheb(i, j) <= radius)

    def steps(i, j):  # the fewest steps j needs to come into i's sight
        return int(reach.to_room(arenas[i])[where[j][0], where[j][1]]) if room(i) else max(0, cheb(i, j) - radius)

    out = []
    for t in sorted({int(ticks[i]) for i in range(n) if not running[i] and ticks[i] < barrier}):
        group = {i: {i} for i in range(n) if ticks[i] == t}
        for i, j in itertools.combinations(list(group), 2):
            if sees(i, j) or partner[i] == j:
                merged = group[i] | group[j]
                for k in merged:
                    group[k] = merged
        for cluster in sorted({frozenset(g) for g in group.values()}, key=min):
            if any(running[i] for i in cluster):
                continue
            if all(steps(i, q) > t - ticks[q] for i in cluster for q in range(n) if ticks[q] < t):
                out.append((t, sorted(cluster)))
    return out


def test_the_rule_by_hand():
    """Radius 4. A (tick 5, open ground) may run when B (tick 0) is 10 tiles away (10 - 4 > 5),
    not 9; C and D, 4 tiles apart on the street at tick 3, are one cluster; E and F, 10 tiles
    apart in one room, too; G and H, 50 tiles apart, are one by their conversation. Then X, 3
    steps from E's room at tick 0, lets E and F (tick 2) run; 2 steps away, it does not."""
    where = np.array([(0, 0), (10, 0), (0, 40), (4, 40), (25, 85), (30, 95), (0, 200), (50, 200)])
    arenas = ["w:street", "w:street", "w:street", "w:street", "w:house:room", "w:house:room", "w:park", "w:park"]
    ticks = np.array([5, 0, 3, 3, 2, 2, 7, 7])
    partner = [-1, -1, -1, -1, -1, -1, 7, 6]
    field = np.full((300, 300), 50)
    reach = _Fields({"w:house:room": field})
    idle = np.zeros(8, bool)
    got = ready_clusters(ticks, idle, where, arenas, partner, 4, 100, reach)
    assert got == [(0, [1]), (2, [4, 5]), (3, [2, 3]), (5, [0]), (7, [6, 7])]
    where[1] = (9, 0)
    assert (5, [0]) not in ready_clusters(ticks, idle, where, arenas, partner, 4, 100, reach)
    assert [t for t, _ in ready_clusters(ticks, idle, where, arenas, partner, 4, 5, reach)] == [0, 2, 3]  # the barrier
    running = idle.copy()
    running[3] = True  # a cluster with a member running does not start again
    assert (3, [2, 3]) not in ready_clusters(ticks, running, where, arenas, partner, 4, 100, reach)
    where[1], field[10, 10] = (10, 10), 3
    assert (2, [4, 5]) in ready_clusters(ticks, idle, where, arenas, partner, 4, 100, reach)
    field[10, 10] = 2
    assert (2, [4, 5]) not in ready_clusters(ticks, idle, where, arenas, partner, 4, 100, reach)


def test_the_rule_against_its_definition():
    """800 random towns of 2-12 personas on two streets and in two rooms: the clusters that may
    run are those the definition gives, pair by pair."""
    rng = random.Random(5)
    for _ in range(800):
        n = rng.randint(2, 12)
        where = np.array([(rng.randint(0, 30), rng.randint(0, 30)) for _ in range(n)])
        arenas = [rng.choice(["w:a", "w:b", "w:x:room", "w:y:room", ""]) for _ in range(n)]
        reach = _Fields({a: np.array([[rng.randint(0, 9) for _ in range(31)] for _ in range(31)])
                         for a in ("w:x:room", "w:y:room")})
        ticks = np.array([rng.randint(0, 6) for _ in range(n)])
        running = np.array([rng.random() < 0.15 for _ in range(n)])
        partner = [-1] * n
        if n >= 4 and rng.random() < 0.5:
            a, b = rng.sample(range(n), 2)
            ticks[b], running[b] = ticks[a], running[a]
            partner[a], partner[b] = b, a
        radius, barrier = rng.randint(1, 6), rng.randint(3, 8)
        assert ready_clusters(ticks, running, where, arenas, partner, radius, barrier, reach) == \
            _brute(ticks, running, where, arenas, partner, radius, barrier, reach)


def test_the_rule_on_a_real_map_against_its_definition():
    """200 crowds of 20-80 personas at random walkable tiles of Smallville's map, with its real
    walking distances (which the scheduler first bounds by each room's bounding box): the
    clusters that may run are those the definition gives, pair by pair."""
    scenario = load_scenario("smallville")
    tilemap, reach = scenario.tilemap, Reach(scenario.tilemap)
    tiles = sorted(tilemap.walkable_tiles())
    rooms = [a for a in tilemap.places() if a.count(":") >= 2 and tilemap.tiles(a)]
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(20, 80)
        picked = []
        for _ in range(n):  # half in rooms (so behind ones are near them), half anywhere
            room = rng.choice(rooms) if rng.random() < 0.5 else None
            picked.append((rng.choice(tilemap.tiles(room)), room) if room else (rng.choice(tiles), None))
        where = np.array([xy for xy, _ in picked])
        arenas = [arena_of(tilemap.address_at(*xy) or "") for xy, _ in picked]
        ticks = np.array([rng.randint(0, 40) for _ in range(n)])
        running = np.array([rng.random() < 0.1 for _ in range(n)])
        partner = [-1] * n
        radius, barrier = rng.randint(2, 8), rng.randint(20, 45)
        assert ready_clusters(ticks, running, where, arenas, partner, radius, barrier, reach) == \
            _brute(ticks, running, where, arenas, partner, radius, barrier, reach)


def test_walking_distances_go_around_walls():
    """On the_ville's map, a room's own tiles are 0 steps from it, a tile next to one 1, and
    every walkable tile's distance is one more than its nearest neighbour's closer to the room
    (a breadth-first search's property), checked on every tile for one room."""
    tilemap = load_scenario("the_ville").tilemap
    room = next(a for a in tilemap.places() if a.count(":") >= 2 and tilemap.tiles(a))
    field = Reach(tilemap).to_room(room)
    inside = set(tilemap.tiles(room))
    walkable = set(tilemap.walkable_tiles())
    for x, y in walkable:
        d = int(field[x, y])
        if (x, y) in inside:
            assert d == 0
            continue
        near = [int(field[a, b]) for a, b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if (a, b) in walkable]
        if d < HORIZON:
            assert d == 1 + min(near), (x, y)
        else:
            assert not near or min(near) >= HORIZON - 1


# ---------------------------------------------------------------------------------------- the runs
def _config(schedule, **over):
    return load_config(None, {"embedder": "hashing", "schedule": schedule, **over})


def _tick_synchronous_with_the_hour_rule(path, monkeypatch):
    """Smallville tick by tick, the town library read as at the start of each game hour of the run."""
    hour_start = ProcedureLibrary.reads_as_of_now
    with monkeypatch.context() as m:
        m.setattr(ProcedureLibrary, "reads_as_of_now", lambda self: contextlib.nullcontext())
        sim = Simulation(load_scenario("smallville"), _config("tick"), run_path=path)
        every = sim.clock.ticks_for(hours=1)
        for start in range(0, TICKS, every):
            with hour_start(sim.procedures):
                for _ in range(min(every, TICKS - start)):
                    sim.step()
        sim.close()
    return sim


def _run_ahead(path, threads=None, **over):
    sim = Simulation(load_scenario("smallville"), _config("run-ahead", **over), run_path=path, threads=threads)
    sim.run(TICKS)
    sim.close()
    return sim


def _frames(path):
    with RunReader(path) as r:
        return [r.frame(t)["personas"] for t in range(TICKS)]


def _events(path):
    """Every event but STATUS, in the tick's order of personas, without the numbers that refer to others."""
    with RunReader(path) as r:
        return sorted((e.tick, e.persona or "", e.kind.value, repr(sorted((k, v) for k, v in e.data.items() if k not in IDS)))
                      for e in r.events() if e.kind is not EventKind.STATUS)


def _memories(sim):
    return {pid: [(m.kind.value, m.content, m.created, m.importance) for m in p.stream.records()]
            for pid, p in sim.personas.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(reference sim, its run file, run-ahead sim, its run file), made once."""
    tmp = tmp_path_factory.mktemp("runahead")
    with pytest.MonkeyPatch.context() as mp:
        ref = _tick_synchronous_with_the_hour_rule(tmp / "ref.sqlite", mp)
    ahead = _run_ahead(tmp / "ahead.sqlite")
    return ref, tmp / "ref.sqlite", ahead, tmp / "ahead.sqlite"


def test_running_ahead_changes_nothing_but_numbers(runs):
    """Every frame (conversation ids aside), every event (numbers aside) and every memory of the
    run-ahead run are the tick-synchronous run's, with the morning's conversations in them;
    and personas did run ahead, some by 20 ticks or more."""
    ref, ref_path, ahead, ahead_path = runs
    strip = [{pid: {k: v for k, v in f.items() if k != "conversation"} for pid, f in frame.items()}
             for frame in _frames(ref_path)]
    assert strip == [{pid: {k: v for k, v in f.items() if k != "conversation"} for pid, f in frame.items()}
                     for frame in _frames(ahead_path)]
    events = _events(ref_path)
    assert sum(1 for e in events if e[2] == "chat") > 20
    assert events == _events(ahead_path)
    assert _memories(ref) == _memories(ahead)
    progress = ahead._ahead.progress
    assert max(progress.ahead) >= 20


def test_a_town_library_change_is_seen_from_the_next_game_hour(tmp_path):
    """A procedure saved to the town library in one game hour of the run is used by others only
    in a later one (tick-synchronous, the next tick can: the reference of this rule has it).
    The clusters furthest behind run first, so each tick is recorded as early as it can be."""
    ahead_path = tmp_path / "behind_first.sqlite"
    # shared at the first success, so the hour's saves reach the library in 70 minutes
    sim = Simulation(load_scenario("smallville"), _config("run-ahead", **{"procedures.share_after": 1}),
                     run_path=ahead_path)
    sim._ahead.furthest_first = False
    sim.run(TICKS)
    sim.close()
    with RunReader(ahead_path) as r:
        procedures = [e for e in r.events(kinds=[EventKind.PROCEDURE]) if e.data["library"] == "town"]
    saved = {}
    used = []
    for e in procedures:
        if e.data["op"] == "save":
            saved.setdefault(e.data["name"], e.tick)
        elif e.data["op"] == "use" and e.data["name"] in saved:
            used.append((saved[e.data["name"]], e.tick))
    assert used, "nobody used the town library"
    assert all(s // 360 < u // 360 for s, u in used), used


def test_pooled_run_ahead_is_the_sequential_run(tmp_path):
    """Clusters on 4 threads (in whatever order they end) give the run one thread gives, table by table."""
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    _run_ahead(a)
    _run_ahead(b, threads=4)
    compared = same_run(a, b)
    assert (compared.returncode, compared.stdout) == (0, "same run\n"), compared.stdout


def test_open_conversations_are_saved_in_id_order():
    """Run-ahead opens a later tick's conversation before an earlier tick's (another cluster's
    thread); a snapshot lists the open ones by id all the same, as a tick-synchronous run, which
    opens them in id order, does. Ids by hand, t * 2n + rank + 1 with n = 25: tick 5, rank 1 is
    252; tick 3, rank 2 is 153."""
    sim = Simulation(load_scenario("smallville"), _config("run-ahead"))
    try:
        ranks = list(sim.personas)
        start = sim.clock.start
        for tick, a, b in ((5, 1, 3), (3, 2, 4)):
            view = sim.conversations.scoped(GameClock(start, tick=tick), lambda *args, **kw: 0,
                                            [ranks[a], ranks[b]])
            view.open(ranks[a], ranks[b], None, None)
        saved = sim.conversations.get_state(set())["conversations"]
        assert [c["id"] for c in saved] == [153, 252]
    finally:
        sim.close()


def _rows(path, table):
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def test_a_stopped_run_resumes_to_the_same_run(tmp_path, monkeypatch):
    """Stopped (KeyboardInterrupt) with clusters far ahead, resumed from the last snapshot: its
    frames, events and memories are the uninterrupted run's (snapshots every quarter hour)."""
    every = {"recording.snapshot_every_hours": 0.25}
    whole, stopped = tmp_path / "whole.sqlite", tmp_path / "stopped.sqlite"
    _run_ahead(whole, **every)
    job = runahead_module.RunAhead._job

    def interrupted(self, t, members):
        if t == 250:
            raise KeyboardInterrupt
        return job(self, t, members)

    monkeypatch.setattr(runahead_module.RunAhead, "_job", interrupted)
    sim = Simulation(load_scenario("smallville"), _config("run-ahead", **every), run_path=stopped)
    with pytest.raises(KeyboardInterrupt):
        sim.run(TICKS)
    sim.close(finished=False)
    monkeypatch.setattr(runahead_module.RunAhead, "_job", job)
    snapshot = newest_snapshot(stopped)
    assert snapshot[0] == 179
    resumed = Simulation.from_run(stopped, snapshot)
    resumed.run(TICKS - snapshot[0] - 1)
    resumed.close()
    for table in ("frames", "events", "memories"):
        assert _rows(whole, table) == _rows(stopped, table), table

