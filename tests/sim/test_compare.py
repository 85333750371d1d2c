"""`compare` of a run and its forks: the first diverging tick against a fork made at a known tick.

The parent: the_ville, 8 game hours from 07:00 (hashing embedder). Snapshots are taken every
game hour, so a fork "at 11:00" continues from the snapshot after tick 4 * 360 - 1 = 1439 and
simulates from tick 1440 (10 game seconds a tick): ticks 0..1439 are copies.
"""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest
from cli_helpers import REPO, run_cli

from town.analysis.compare import (compare, first_divergence, over_time_rows, retrieval_overlap, retrieval_text,
                                   span_note)
from town.recording import RunReader

FORK_TICK = 4 * 3600 // 10


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    """parent, a fork with other retrieval weights, a fork with the same configuration."""
    folder = tmp_path_factory.mktemp("compare")
    parent = folder / "parent.sqlite"
    done = run_cli("simulate", "--town", "the_ville", "--hours", "8", "--embedder", "hashing", "--out", str(parent),
                   "--quiet")
    assert done.returncode == 0, done.stderr
    out = {"parent": parent}
    for name, extra in (("weights", ("--set", "retrieval.weights=1,1,3")), ("same", ())):
        out[name] = folder / f"{name}.sqlite"
        done = run_cli("fork", str(parent), "--at", "2023-02-13 11:00", "--out", str(out[name]), "--hours", "1",
                       "--quiet", *extra)
        assert done.returncode == 0, done.stderr
    return out


def _brute_force(path_a, path_b) -> int | None:
    """First tick whose frame or non-status events differ, straight from the SQL tables."""
    def load(path):
        conn = sqlite3.connect(path)
        frames = dict(conn.execute("SELECT tick, data FROM frames"))
        events = {}
        for tick, kind, persona, data in conn.execute(
                "SELECT tick, kind, persona, data FROM events WHERE kind != 'status' ORDER BY seq"):
            events.setdefault(tick, []).append((kind, persona, json.loads(data)))
        conn.close()
        return frames, events
    (fa, ea), (fb, eb) = load(path_a), load(path_b)
    for tick in range(min(max(fa), max(fb)) + 1):
        if ea.get(tick) != eb.get(tick) or fa.get(tick) != fb.get(tick):
            return tick
    return None


def test_fork_with_other_weights_diverges_at_the_fork(family):
    """The first diverging tick is the brute-force one, and no earlier than the fork."""
    expected = _brute_force(family["parent"], family["weights"])
    assert expected is not None and expected >= FORK_TICK
    with RunReader(family["parent"]) as a, RunReader(family["weights"]) as b:
        d = first_divergence(a, b)
        report = compare(a, b)
    assert d["tick"] == expected
    assert report["b"]["weights"] == [1.0, 1.0, 3.0]
    r = report["retrievals"]
    assert r["first_differing"]["tick"] >= FORK_TICK
    assert 0 < r["mean_jaccard"] < 1
    assert set(report["diffusion"]) == {"party", "market_renovation"}
    assert len(report["diffusion"]["party"]["a"]) == 8 + 1  # hours 0..8
    # density by interview at the evaluation's moments: the start and the end (8 h; the fork
    # ends at 12:00, 5 h). At the start each persona file names the other two as relationships
    # (seeded memories, more than a sighting): 3 edges of 3 pairs in both runs.
    den = report["density"]
    assert (den["a"]["hours"], den["b"]["hours"]) == ([0, 8], [0, 5])
    assert den["a"]["density"][0] == den["b"]["density"][0] == 1.0
    assert den["a"]["edges"][0] == 3
    # the spans: 8 h = 2880 ticks of 10 s from 07:00; the fork 5 h = 1800 ticks, to 12:00
    assert report["span"] == {
        "a": {"last_tick": 2879, "hours": 8.0, "start": "2023-02-13 07:00:00", "end": "2023-02-13 15:00:00"},
        "b": {"last_tick": 1799, "hours": 5.0, "start": "2023-02-13 07:00:00", "end": "2023-02-13 12:00:00"}}
    assert span_note(report) == ("B ends 3 game hours before A: its values after game hour 5 are shown as "
                                 "'ended', and a gathering after its end was not seen")
    # rows at both runs' moments (0, 5, 8): B has no value at hour 8, A no density at hour 5;
    # the party (14 Feb 17:00-19:00) is after both ends
    header, rows = over_time_rows(report)
    party = report["diffusion"]["party"]
    assert header[:3] == ["game hour", "density A", "density B"] and header[3] == "party: A / B"
    assert [r[:4] for r in rows] == [
        ["0", f"{den['a']['density'][0]:.3f}", f"{den['b']['density'][0]:.3f}", f"{party['a'][0]} / {party['b'][0]}"],
        ["5", "-", f"{den['b']['density'][1]:.3f}", f"{party['a'][5]} / {party['b'][5]}"],
        ["8", f"{den['a']['density'][1]:.3f}", "ended", f"{party['a'][8]} / ended"]]
    assert {s: report["attendance"]["party"][s]["seen"] for s in "ab"} == {"a": "none", "b": "none"}


class _Retrievals:
    """A reader stand-in holding hand-made retrievals of one persona: ``returned`` per seq."""

    def __init__(self, returned: dict[int, list[int]]):
        self.returned = returned

    def personas(self):
        return ["ana"]

    def memories(self, pid):
        return [{"id": i, "content": text} for i, text in enumerate(["bread", "milk", "eggs", "tea"], 1)]

    def events(self, kinds):
        return [SimpleNamespace(tick=seq, persona="ana", seq=seq, data={"purpose": "chat", "query": "q",
                                                                         "returned": ids})
                for seq, ids in self.returned.items()]


def test_a_retrieval_that_differs_only_in_order_says_so():
    """Tick 1: the same two memories in another order (Jaccard 1); tick 2: {bread, milk} against
    {bread, eggs}, Jaccard 1/3; tick 3 identical."""
    a = _Retrievals({1: [1, 2], 2: [1, 2], 3: [4]})
    b = _Retrievals({1: [2, 1], 2: [1, 3], 3: [4]})
    r = retrieval_overlap(a, b)
    assert (r["matched"], r["identical"]) == (3, 1)
    assert r["mean_jaccard"] == pytest.approx((1 + 1 / 3 + 1) / 3)
    order, other = r["differing"]
    assert (order["differs"], order["jaccard"], other["differs"], other["jaccard"]) == ("order", 1.0, "memories", 0.3333)
    assert retrieval_text(order) == "tick 1 ana (chat), A seq 1 vs B seq 1: the same memories, ranked in another order"
    assert retrieval_text(other) == ("tick 2 ana (chat), A seq 2 vs B seq 2: other memories (Jaccard 0.33 over their "
                                     "texts; 1 only in A, 1 only in B)")


def test_fork_with_the_same_config_only_differs_in_length(family):
    """Same seed and configuration: the fork replays the parent's ticks; it only stops sooner."""
    with RunReader(family["parent"]) as a, RunReader(family["same"]) as b:
        d = first_divergence(a, b)
        last = b.last_tick
    assert d == {"tick": last + 1, "time": None, "what": "length"}


def test_compare_cli(family, tmp_path):
    """The CLI names the first diverging tick and writes the JSON; it names each run by its
    condition and fork, and prints the configuration that differs (and only that)."""
    out = tmp_path / "c.json"
    done = run_cli("compare", str(family["parent"]), str(family["weights"]), "--json", str(out))
    assert done.returncode == 0, done.stderr
    expected = _brute_force(family["parent"], family["weights"])
    assert f"first diverging tick: tick {expected}" in done.stdout
    assert "B ends 3 game hours before A" in done.stdout
    flat = " ".join(done.stdout.split())  # rich wraps long lines
    assert (f"A {family['parent']}: full architecture, seed 0; 2023-02-13 07:00 -> 2023-02-13 15:00 (8 game hours)"
            in flat)
    assert (f"B {family['weights']}: full architecture, seed 0, fork of parent after its tick {FORK_TICK - 1} "
            "(2023-02-13 10:59:50); 2023-02-13 07:00 -> 2023-02-13 12:00 (5 game hours)") in flat
    assert "configuration that differs: retrieval.weights: A [1.0, 1.0, 1.0], B [1.0, 1.0, 3.0]" in flat
    same = run_cli("compare", str(family["parent"]), str(family["same"]))
    assert "configuration that differs: none" in same.stdout
    assert "network density by interview" in done.stdout and "density A" in done.stdout
    assert json.loads(out.read_text())["first_divergence"]["tick"] == expected


def test_a_run_whose_town_folder_is_gone_is_compared_without_probes(tmp_path, capsys):
    """A run's town folder moved or deleted made `compare` one line, "no town folder ...", while
    `evaluate` and `interview` of the same run went on: compare goes on too, without the town's
    probes (no news to follow, no gathering), as evaluate does."""
    import shutil

    from town.config import load_config
    from town.scenario import load_scenario
    from town.simulation import Simulation
    from web.cli import main

    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    run = tmp_path / "gone.sqlite"
    sim = Simulation(load_scenario(town), load_config(None, {"embedder": "hashing"}), run_path=run)
    sim.run(30)
    sim.close()
    shutil.rmtree(town)
    with RunReader(run) as a, RunReader(run) as b:
        report = compare(a, b)
    assert (report["diffusion"], report["attendance"], report["first_divergence"]) == ({}, {}, None)
    assert main(["compare", str(run), str(run)]) == 0
    assert capsys.readouterr().err == ""
