"""Tests of town.memory.record and the dict forms of town.memory.trace."""

from __future__ import annotations

import json
from datetime import datetime

import numpy as np
import pytest

from town.errors import MemoryStreamError
from town.memory import MemoryKind, MemoryRecord, MemoryStream, RetrievalTrace


def test_record_round_trips_through_json():
    """to_dict is JSON-able with times as 'YYYY-MM-DD HH:MM:SS'; from_dict inverts it."""
    record = MemoryRecord(
        id=3, persona="isabella", kind=MemoryKind.CHAT, content="Klaus heard about the party",
        created=datetime(2023, 2, 13, 9, 30, 5), last_accessed=datetime(2023, 2, 13, 10, 0),
        importance=6, evidence=(1, 2), subject="Klaus", predicate="heard about",
        object="party", conversation=4, source=("isabella", 0), probe="party",
    )  # fmt: skip
    d = json.loads(json.dumps(record.to_dict()))
    assert d["created"] == "2023-02-13 09:30:05" and d["kind"] == "chat"
    assert "embedding" not in d
    assert MemoryRecord.from_dict(d) == record


@pytest.mark.parametrize(
    ("change", "field"),
    [({"importance": 0}, "importance"), ({"importance": True}, "importance"),
     ({"content": ""}, "content"), ({"created": "13 Feb"}, "created"), ({"kind": "dream"}, "kind")],
)  # fmt: skip
def test_bad_record_dicts_are_refused(change, field):
    """from_dict names the bad field."""
    d = dict(id=0, persona="p", kind="plan", content="x", created="2023-02-13 07:00:00",
             last_accessed="2023-02-13 07:00:00", importance=3) | change  # fmt: skip
    with pytest.raises(MemoryStreamError, match=field):
        MemoryRecord.from_dict(d)


def test_unknown_kind_is_refused_by_the_stream(hashing_embedder, t0):
    """add() names the field kind and lists the kinds."""
    with pytest.raises(MemoryStreamError, match="^kind: must be one of observation, chat"):
        MemoryStream("p", hashing_embedder).add(kind="dream", content="x", created=t0, importance=1)


def test_trace_round_trips_with_and_without_its_vector(hashing_embedder, t0):
    """to_dict keeps the query embedding apart unless asked; from_dict restores the trace."""
    stream = MemoryStream("p", hashing_embedder)
    for i in range(8):
        stream.add(kind="observation", content=f"fact {i}", created=t0, importance=1 + i)
    _, trace = stream.retrieve("fact 3", now=t0, k=2, purpose="react", tick=4)
    plain = trace.to_dict()
    assert "query_embedding" not in plain and len(plain["candidates"]) == 7
    vector = trace.query_embedding
    again = RetrievalTrace.from_dict(json.loads(json.dumps(plain)), query_embedding=vector)
    assert again.to_dict() == plain and again.returned_ids == trace.returned_ids
    with_vector = trace.to_dict(vectors=True)
    np.testing.assert_array_equal(RetrievalTrace.from_dict(with_vector).query_embedding,
                                  trace.query_embedding)  # fmt: skip
    with pytest.raises(MemoryStreamError, match="query_embedding"):
        RetrievalTrace.from_dict(plain)


def test_set_state_with_mismatched_index_leaves_the_stream_as_it_was(hashing_embedder, t0):
    """A state whose records and index disagree is refused before anything changes."""
    stream = MemoryStream("p", hashing_embedder)
    stream.add(kind="observation", content="one", created=t0, importance=2)
    state = stream.get_state()
    state["records"] = []
    other = MemoryStream("p", hashing_embedder)
    other.add(kind="plan", content="keep me", created=t0, importance=4)
    with pytest.raises(MemoryStreamError, match="^index: "):
        other.set_state(state)
    assert [r.content for r in other.records()] == ["keep me"] and len(other.index_ids()) == 1
