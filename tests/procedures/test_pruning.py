"""Pruning in a run (rule 3 in the market_moves town) and why rule 1 cannot fire at 0.6."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest

from town.config import load_config
from town.events import EventKind
from town.procedures import Procedure, ProcedureLibrary, ProcedureStep, PruneRule
from town.scenario import load_scenario
from town.simulation import Simulation

END = datetime(2023, 3, 14, 8, 0)  # 194 game hours after the town's start (6 Mar 06:00)
TASK = "buy flour at the market"


@pytest.fixture(scope="module")
def market_run():
    """market_moves to 14 Mar 08:00 (scripted backend, hashing embedder; ~5 wall seconds).

    Returns (PROCEDURE events, ACTION events).
    """
    sim = Simulation(
        load_scenario("personas/market_moves"),
        load_config(overrides={"embedder": "hashing"}),
    )
    procedures, actions = [], []
    sim.bus.subscribe(lambda e: procedures.append(e) if e.kind is EventKind.PROCEDURE else None)
    sim.bus.subscribe(lambda e: actions.append(e) if e.kind is EventKind.ACTION else None)
    while sim.clock.now < END:
        sim.step()
    return procedures, actions


def test_the_moved_market_prunes_the_old_procedure_by_rule_3(market_run):
    """Learned on 6 Mar, fails at the closed hall on 7 Mar (1/1 -> 0.5 < 0.6), never used again,
    pruned for being below the threshold for 7 game days, on 14 Mar; no other rule fires."""
    events, _ = market_run
    mine = [e for e in events if e.data["library"] == "hanna_becker" and e.data["name"] == TASK]
    assert [e.data["op"] for e in mine] == ["save", "use", "outcome", "prune"]
    save, _, failure, prune = mine
    assert save.time.date() == datetime(2023, 3, 6).date()
    assert failure.data["result"] == "failure" and "Old Market Hall" in failure.data["reason"]
    below = failure.data["procedure"]
    assert (below["successes"], below["failures"], below["status"]) == (1, 1, "below threshold")
    assert datetime.fromisoformat(below["below_since"]) == failure.time
    assert prune.data["rule"] == PruneRule.BELOW_THRESHOLD.value == "below threshold"
    assert timedelta(days=7) <= prune.time - failure.time < timedelta(days=7, hours=2)
    assert [e.data["name"] for e in events if e.data["op"] == "prune"] == [TASK]


def test_the_baker_buys_flour_at_the_new_hall_instead(market_run):
    """After the move she goes to the open New Market Hall (chosen over the closed old one)."""
    _, actions = market_run
    new_hall = {
        e.time.date()
        for e in actions
        if e.data["kind"] == "do" and e.data["address"].startswith("market_moves:New Market Hall")
    }
    assert {datetime(2023, 3, d).date() for d in range(8, 14)} <= new_hall


def _reachable(threshold: float, max_uses: int) -> set[tuple[int, int]]:
    """Every (successes, failures) one persona's procedure can reach: saved at (1, 0), then used
    (success or failure) only while (s + 1) / (s + f + 2) >= threshold, one use at a time."""
    seen, todo = set(), [(1, 0)]
    while todo:
        s, f = todo.pop()
        if (s, f) in seen:
            continue
        seen.add((s, f))
        if s + f < max_uses and (s + 1) >= threshold * (s + f + 2) - 1e-9:
            todo += [(s + 1, f), (s, f + 1)]
    return seen


def _rule_1_fires(threshold: float, counts: set[tuple[int, int]]) -> list[tuple[int, int]]:
    t0 = datetime(2023, 2, 13)
    fired = []
    for s, f in sorted(counts):
        lib = ProcedureLibrary(_OneDim(), threshold=threshold)
        step = ProcedureStep(description="x", object="y", minutes=5)
        lib.save(Procedure(name="p", when="p", steps=(step,), successes=s, failures=f,
                           created=t0, last_used=t0), now=t0)
        if [r for _, r in lib.prune(t0) if r is PruneRule.LOW_SUCCESS_RATE]:
            fired.append((s, f))
    return fired


class _OneDim:
    """Every text embeds to the same unit vector (one procedure: similarity is irrelevant)."""

    name, dim = "one", 1

    def embed(self, texts):
        """``(n, 1)`` ones."""
        return np.ones((len(texts), 1), np.float32)


def test_rule_1_cannot_fire_for_one_persona_at_the_default_threshold():
    """At 0.6 a procedure is used only while s >= 0.6 (s + f) + 0.2; one more failure leaves
    s / (s + f + 1) >= 0.5 whenever s + f + 1 >= 5 (0.6n + 0.2 < 0.5(n + 1) needs n < 3).
    So no reachable count prunes by rule 1; at 0.5 it can: (2, 2) is used, fails -> (2, 3)."""
    assert _rule_1_fires(0.6, _reachable(0.6, 30)) == []
    assert (2, 3) in _rule_1_fires(0.5, _reachable(0.5, 30))
