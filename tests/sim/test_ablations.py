"""Ablation switches (Park et al. 2023 §6.2): each ablated run shows its mark.

Four 36-game-hour runs of the_ville (hashing embedder, scripted backend, seed 0) made through
the CLI as a user makes them, side by side. 36 hours because the full run's first reflection
comes after about 34 game hours (tick 12379, since a fact heard again is one memory, not a copy
each time, and someone between two acts is not observed), so "0 reflections" is not true of the
full run by accident.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from cli_helpers import REPO, run_cli

from town.config import load_config
from town.errors import ConfigError
from town.recording import RunReader

HOURS = "36"
#: 15 game minutes at 10 game seconds per tick (town/default.toml): 15 * 60 / 10.
FIFTEEN_MINUTES_TICKS = 90


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Condition -> run path: full, reflection, planning, observation (simulated side by side)."""
    folder = tmp_path_factory.mktemp("ablations")
    out, procs = {}, []
    for name, flags in (("full", ()), ("reflection", ("--ablate", "reflection")),
                        ("planning", ("--ablate", "planning")),
                        ("observation", ("--set", "ablate=observation"))):
        out[name] = folder / f"{name}.sqlite"
        procs.append(subprocess.Popen(
            [sys.executable, str(REPO / "run.py"), "simulate", "--town", "the_ville", "--hours", HOURS,
             "--embedder", "hashing", "--out", str(out[name]), "--quiet", *flags],
            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    return out


def _first_decision_seq(reader) -> int:
    """Seq of the first retrieval: every memory before it was seeded from the persona files."""
    return reader.events(["retrieval"], limit=1)[0].seq


def _perceived(reader) -> list:
    start = _first_decision_seq(reader)
    return [e for e in reader.events(["memory"]) if e.seq > start and e.data["kind"] == "observation"]


def test_meta_records_the_condition(runs):
    """The run's meta and stored config name the parts switched off."""
    for name, path in runs.items():
        with RunReader(path) as r:
            expected = "" if name == "full" else name
            assert r.meta["ablate"] == expected
            assert r.meta["config"]["ablate"] == expected


def test_full_run_reflects_plans_and_observes(runs):
    """The control: each mark below is absent only because of its switch."""
    with RunReader(runs["full"]) as r:
        assert len(r.events(["reflection"])) >= 1
        levels = {e.data["level"] for e in r.events(["plan"])}
        assert levels == {"day", "hour", "block"}
        assert len(_perceived(r)) > 0


def test_no_reflection_has_no_reflection_events(runs):
    """--ablate reflection: 0 REFLECTION events and 0 reflection memories."""
    with RunReader(runs["reflection"]) as r:
        assert r.events(["reflection"]) == []
        assert not [e for e in r.events(["memory"]) if e.data["kind"] == "reflection"]
        assert len(r.events(["plan"])) > 0  # the other parts still run


def test_no_planning_has_no_plans_and_acts_every_fifteen_minutes(runs):
    """--ablate planning: no PLAN event; awake personas act at least every 15 game minutes."""
    with RunReader(runs["planning"]) as r:
        assert r.events(["plan"]) == []
        assert not [e for e in r.events(["memory"]) if e.data["kind"] == "plan"]
        last = r.last_tick
        for pid in r.personas():
            acts = r.events(["action", "chat"], persona=pid)
            assert len(acts) > int(HOURS) * 2  # at least two acts per game hour on average
            ticks = [e.tick for e in acts] + [last + 1]
            for e, nxt in zip(acts, ticks[1:]):
                if e.kind == "action" and e.data["kind"] == "sleep":
                    continue
                assert nxt - e.tick <= FIFTEEN_MINUTES_TICKS, (pid, e.tick, e.data)
        # decisions come from the retrieval for "what should I do now?"
        queries = {r.event(a.data["decision"]).data["query"]
                   for a in r.events(["action"]) if a.data["decision"]}
        assert "what should I do now?" in queries


def test_no_observation_perceives_nothing_into_memory(runs):
    """ablate=observation: no observation memory after the seeded ones."""
    with RunReader(runs["observation"]) as r:
        assert _perceived(r) == []
        assert len(r.events(["action"])) > 0


def test_fork_set_branches_a_run_into_a_condition(runs, tmp_path):
    """Fork --set ablate=... branches a run into a combined condition."""
    out = tmp_path / "fork.sqlite"
    done = run_cli("fork", str(runs["full"]), "--at", "2023-02-13 14:00", "--out", str(out),
                   "--set", "ablate=planning,reflection", "--hours", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    with RunReader(out) as r:
        assert r.meta["ablate"] == "planning,reflection"
        fork_tick = 7 * 3600 // 10  # 14:00 is 7 game hours after the 07:00 start, 10 s a tick
        assert r.events(["action"], since_tick=fork_tick + 1)  # it ran on after the fork
        assert r.events(["plan", "reflection"], since_tick=fork_tick + 1) == []


def test_ablate_key_is_checked_and_sorted():
    """The key is sorted, combinations allowed, an unknown part refused naming the field."""
    assert load_config(None, {"ablate": "reflection, planning"}).ablate == "planning,reflection"
    assert load_config(None, {"ablate": "planning"}).ablated == frozenset({"planning"})
    assert load_config(None, {}).ablated == frozenset()
    with pytest.raises(ConfigError, match="ablate.*'memory'"):
        load_config(None, {"ablate": "reflection,memory"})


def test_stats_names_the_condition(runs):
    """`stats` prints the condition; the run summary carries it."""
    done = run_cli("stats", str(runs["planning"]))
    assert done.returncode == 0, done.stderr
    assert "ablated (switched off): planning" in done.stdout
    with RunReader(runs["planning"]) as r:
        assert r.summary()["ablate"] == "planning"


def test_evaluate_names_the_condition(runs):
    """`evaluate` puts the condition in its report and its table's title."""
    import json

    done = run_cli("evaluate", str(runs["reflection"]))
    assert done.returncode == 0, done.stderr
    assert "ablated: reflection" in done.stdout
    report = json.loads((runs["reflection"].with_suffix(".evaluation") / "report.json").read_text())
    assert report["ablate"] == "reflection"
