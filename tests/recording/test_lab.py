"""The weight lab re-ranks a recorded retrieval over the stream as it was then."""

from __future__ import annotations

import copy

import pytest

from town.errors import MemoryStreamError
from town.recording.lab import rescore
from town.recording.reader import RunReader

HOUR = 360  # ticks of 10 s


@pytest.fixture
def recorded(synthetic):
    """A run whose retrieval at hour 5 is inspected; later memories/retrievals must not matter.

    Retrievals before it move last_accessed of some records.
    """
    run = synthetic(seed=11)
    for hour in range(5):
        for i in range(3):
            run.memory("ana", f"hour {hour} thing {i}", 1 + (7 * hour + 3 * i) % 10)
            run.memory("bo", f"bo {hour} {i}", 5)
        run.end_tick()
        run.retrieve("ana", k=2)
        run.end_tick()
        run.clock.advance(HOUR)
    before = copy.deepcopy(list(run.records["ana"].values()))
    now = run.now
    target = run.retrieve("ana", weights=(1.0, 1.0, 1.0), k=4, query="what now?")
    run.end_tick()
    run.memory("ana", "afterwards", 10)
    run.retrieve("ana", k=3)
    run.end_tick()
    run.writer.close()
    return RunReader(run.writer.path), target, before, run.vectors["ana"], now


def test_recorded_weights_reproduce_the_recorded_top_k(recorded):
    """Same weights and k: same top k, same scores, nothing entered or left."""
    reader, target, *_ = recorded
    result = rescore(reader, target.seq, weights=(1.0, 1.0, 1.0), k=4)
    recorded_candidates = target.data["candidates"]
    assert result["top"] == [c["id"] for c in recorded_candidates if c["in_top_k"]]
    assert result["entered"] == result["left"] == []
    assert [c["id"] for c in result["candidates"]] == [c["id"] for c in recorded_candidates]
    for new, old in zip(result["candidates"], recorded_candidates):
        assert set(new) == set(old)
        assert new["total"] == pytest.approx(old["total"], abs=1e-6)
        assert new["hours"] == pytest.approx(old["hours"], abs=1e-9)
    assert result["n_scored"] == target.data["n_scored"] == 15


@pytest.mark.parametrize("weights, k", [((3.0, 0.5, 1.0), 5), ((0.0, 0.0, 1.0), 4),
                                        ((1.0, 0.0, 0.0), 3), ((0.2, 2.0, 0.7), 6)])
def test_other_weights_match_brute_force(recorded, reference, weights, k):
    """Other weights and k: the ranking a brute-force scan of the pre-retrieval stream gives."""
    reader, target, before, vectors, now = recorded
    query = target.data["query_embedding"]
    expected = reference(before, vectors, query, now, weights, k)
    result = rescore(reader, target.seq, weights=weights, k=k)
    assert [c["id"] for c in result["candidates"]] == [c["id"] for c in expected]
    for new, old in zip(result["candidates"], expected):
        for key in ("total", "recency_part", "importance_part", "relevance_part", "relevance"):
            assert new[key] == pytest.approx(old[key], abs=1e-6)
    recorded_top = [c["id"] for c in target.data["candidates"] if c["in_top_k"]]
    top = [c["id"] for c in expected if c["in_top_k"]]
    assert result["entered"] == [i for i in top if i not in recorded_top]
    assert result["left"] == [i for i in recorded_top if i not in top]


def test_some_weights_change_the_top(recorded):
    """The fixture is not degenerate: relevance-only ranks differently from the recorded top."""
    reader, target, *_ = recorded
    assert rescore(reader, target.seq, weights=(0.0, 0.0, 1.0), k=4)["entered"] != []


def test_bad_weights_are_refused(recorded):
    """All-zero weights are a MemoryStreamError from the shared scoring function."""
    reader, target, *_ = recorded
    with pytest.raises(MemoryStreamError, match="weights"):
        rescore(reader, target.seq, weights=(0, 0, 0), k=4)
