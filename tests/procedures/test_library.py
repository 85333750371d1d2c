"""Procedure library rules of docs/design, §2, each against a value worked out by hand."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from town.embedding import HashingEmbedder
from town.procedures import (
    Procedure,
    ProcedureError,
    ProcedureLibrary,
    ProcedureStatus,
    ProcedureStep,
    PruneRule,
    laplace_reliability,
)

T0 = datetime(2023, 2, 13, 7, 0)


def proc(
    name: str, when: str | None = None, *, s: int = 1, f: int = 0, steps=None, at=T0
) -> Procedure:
    """A one-step procedure with the given counts."""
    steps = steps or (ProcedureStep(description=f"do {name}", object="{place}", minutes=10),)
    return Procedure(
        name=name,
        when=when or name,
        steps=tuple(steps),
        successes=s,
        failures=f,
        created=at,
        last_used=at,
    )


@pytest.fixture
def lib() -> ProcedureLibrary:
    """A library on the 64-dim hashing embedder, threshold 0.6."""
    return ProcedureLibrary(HashingEmbedder(dim=64), threshold=0.6)


def test_laplace_values_by_hand():
    """1/2 unused; 2/3 saved from one success; 3 successes 1 failure = 4/6."""
    assert laplace_reliability(0, 0) == 1 / 2
    assert proc("a").reliability == 2 / 3
    assert proc("a", s=3, f=1).reliability == 4 / 6


def test_threshold_filter_keeps_2_1_and_drops_1_1(lib):
    """(2+1)/(3+2) = 0.6 is retrieved at threshold 0.6; (1+1)/(2+2) = 0.5 is not."""
    lib.save(proc("buy supplies", s=2, f=1), now=T0)
    lib.save(proc("cook dinner", s=1, f=1), now=T0)
    assert [m.procedure.name for m in lib.retrieve("buy supplies")] == ["buy supplies"]
    assert "cook dinner" not in [m.procedure.name for m in lib.retrieve("cook dinner")]
    assert lib.status(lib.get("cook dinner")) is ProcedureStatus.BELOW_THRESHOLD


def test_retrieval_ranks_by_when_similarity_top_2(table_embedder):
    """With hand-set vectors, cosines to the task are 1.0, 0.8, 0.6: the top 2 come back in order."""
    emb = table_embedder(
        {
            "task": [1, 0, 0],
            "a": [1, 0, 0],
            "b": [0.8, 0.6, 0],
            "c": [0.6, 0, 0.8],
            "na": [0, 1, 0],
            "nb": [0, 0, 1],
            "nc": [0, 1, 1],
        }
    )
    lib = ProcedureLibrary(emb, threshold=0.6)
    for name, when in (("nc", "c"), ("na", "a"), ("nb", "b")):
        lib.save(proc(name, when), now=T0)
    got = lib.retrieve("task")
    assert [m.procedure.name for m in got] == ["na", "nb"]
    assert [round(m.similarity, 6) for m in got] == [1.0, 0.8]


def test_dedup_updates_the_existing_procedure(lib):
    """Saving the same `when` again adds its success to the kept one and takes the new steps."""
    lib.save(proc("buy supplies"), now=T0)
    new_steps = (ProcedureStep(description="pay at the checkout", object="{place}", minutes=5),)
    stored, merged = lib.save(proc("buy supplies", steps=new_steps), now=T0 + timedelta(days=1))
    assert merged and len(lib) == 1
    assert (stored.successes, stored.failures) == (2, 0) and stored.reliability == 3 / 4
    assert stored.steps == new_steps and stored.last_used == T0 + timedelta(days=1)
    _, merged = lib.save(proc("cook dinner"), now=T0)
    assert not merged and len(lib) == 2


def test_feedback_counts_each_use(lib):
    """A saved procedure (1, 0) after one failure is (1, 1): 2/4, below 0.6, no longer retrieved."""
    lib.save(proc("buy supplies"), now=T0)
    lib.record_use("buy supplies", now=T0 + timedelta(days=1))
    p = lib.record_outcome("buy supplies", success=False, now=T0 + timedelta(days=1))
    assert (p.successes, p.failures, p.reliability) == (1, 1, 0.5)
    assert p.last_used == T0 + timedelta(days=1) and p.below_since == T0 + timedelta(days=1)
    assert lib.retrieve("buy supplies") == []


def test_prune_rule_1_low_success_rate_needs_a_low_threshold():
    """Threshold 0.3: (1, 3) = 2/6 is still retrieved; the 5th use fails -> 1/5 < 0.5 -> pruned."""
    lib = ProcedureLibrary(HashingEmbedder(dim=64), threshold=0.3)
    lib.save(proc("buy supplies"), now=T0)
    for _ in range(3):
        lib.record_outcome("buy supplies", success=False, now=T0)
    assert lib.prune(T0) == [] and lib.retrieve("buy supplies")
    lib.record_outcome("buy supplies", success=False, now=T0)
    pruned = lib.prune(T0)
    assert [(p.name, r) for p, r in pruned] == [("buy supplies", PruneRule.LOW_SUCCESS_RATE)]
    assert lib.status(lib.get("buy supplies")) is ProcedureStatus.PRUNED
    assert lib.retrieve("buy supplies") == [] and len(lib) == 1  # kept for the record


def test_prune_rule_2_unused_for_30_days(lib):
    """Last used 29 days 23 h ago: kept; 30 days: pruned as unused."""
    lib.save(proc("cook dinner", s=5), now=T0)
    assert lib.prune(T0 + timedelta(days=30) - timedelta(hours=1)) == []
    assert [r for _, r in lib.prune(T0 + timedelta(days=30))] == [PruneRule.UNUSED]


def test_prune_rule_3_below_threshold_for_7_days(lib):
    """Below 0.6 since day 1: kept on day 7 (6 days), pruned on day 8; a recovery resets the clock."""
    lib.save(proc("a"), now=T0)
    lib.record_outcome("a", success=False, now=T0 + timedelta(days=1))  # 2/4 from day 1
    lib.record_use("a", now=T0 + timedelta(days=7))  # keep rule 2 away
    assert lib.prune(T0 + timedelta(days=7)) == []
    assert [r for _, r in lib.prune(T0 + timedelta(days=8))] == [PruneRule.BELOW_THRESHOLD]
    lib.save(proc("b"), now=T0)
    lib.record_outcome("b", success=False, now=T0 + timedelta(days=1))
    lib.record_outcome("b", success=True, now=T0 + timedelta(days=2))  # 3/5 = 0.6 again
    assert lib.get("b").below_since is None and lib.prune(T0 + timedelta(days=9)) == []


def test_composition_expands_recursively_with_parameters(lib):
    """C = [a, x, b]; b = [a, y]: expansion is a, x, a, y with {place} filled in."""
    lib.save(proc("a"), now=T0)
    lib.save(
        proc(
            "b",
            "second",
            steps=(
                ProcedureStep(procedure="a"),
                ProcedureStep(description="y", object="{place}:y", minutes=5),
            ),
        ),
        now=T0,
    )
    lib.save(
        proc(
            "c",
            "third",
            steps=(
                ProcedureStep(procedure="a"),
                ProcedureStep(description="x", object="{place}", minutes=5),
                ProcedureStep(procedure="b"),
            ),
        ),
        now=T0,
    )
    got = lib.expand("c", {"place": "v:s"})
    assert [(s.description, s.object) for s in got] == [
        ("do a", "v:s"),
        ("x", "v:s"),
        ("do a", "v:s"),
        ("y", "v:s:y"),
    ]


def test_composition_cycle_is_refused_with_a_clear_error(lib):
    """A includes b; saving b that includes a is refused, naming the cycle b -> a -> b."""
    lib.save(proc("b", "first"), now=T0)
    lib.save(proc("a", "alpha", steps=(ProcedureStep(procedure="b"),)), now=T0)
    with pytest.raises(ProcedureError, match=r"composition cycle b -> a -> b"):
        lib.save(proc("b", "first", steps=(ProcedureStep(procedure="a"),)), now=T0)
    with pytest.raises(ProcedureError, match="unknown procedure 'nope'"):
        lib.save(proc("z", "zed", steps=(ProcedureStep(procedure="nope"),)), now=T0)


def test_state_round_trip_is_json_and_equal(lib):
    """get_state -> JSON -> set_state gives the same procedures and statuses."""
    import json

    lib.save(proc("buy supplies", s=2, f=1), now=T0)
    lib.save(proc("cook dinner", s=1, f=1), now=T0)
    state = json.loads(json.dumps(lib.get_state()))
    other = ProcedureLibrary(HashingEmbedder(dim=64), threshold=0.6)
    other.set_state(state)
    assert other.procedures() == lib.procedures()
    assert [d["status"] for d in state["procedures"]] == ["active", "below threshold"]


def test_bad_procedure_fields_name_the_field():
    """An empty step list and a negative count are refused, naming the field."""
    with pytest.raises(ProcedureError, match="'steps'"):
        Procedure(name="a", when="a", steps=(), created=T0, last_used=T0)
    with pytest.raises(ProcedureError, match="'failures'"):
        proc("a", f=-1)


def test_reads_within_a_tick_see_the_library_as_at_its_start(lib):
    """A procedure saved during a tick (by one persona) is retrieved (by another) only after it."""
    lib.save(proc("brew coffee"), now=T0)
    with lib.reads_as_of_now():
        lib.save(proc("get ready"), now=T0)
        lib.record_outcome("brew coffee", success=False, now=T0)  # 2/4 = 0.5: below 0.6 after the tick
        assert [m.procedure.name for m in lib.retrieve("get ready")] == ["brew coffee"]
        assert lib.retrieve("brew coffee")[0].procedure.failures == 0
        assert [s.description for s in lib.expand("brew coffee")] == ["do brew coffee"]
        with pytest.raises(ProcedureError):
            lib.expand("get ready")
    assert [m.procedure.name for m in lib.retrieve("get ready")] == ["get ready"]
    assert "get ready" in lib and lib.get("brew coffee").failures == 1
