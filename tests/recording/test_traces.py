"""A retrieval's candidates are stored without what can be worked out again, and read back exactly."""

from __future__ import annotations

import json
import zlib
from datetime import datetime, timedelta

import pytest

from town.memory import MemoryKind, MemoryStream
from town.recording.traces import pack_candidates, unpack_candidates

T0 = datetime(2023, 2, 13, 7, 0)


def _stream(hashing_embedder, importances):
    stream = MemoryStream("eddy", hashing_embedder)
    stream.add_many([dict(kind=MemoryKind.OBSERVATION, content=f"Eddy plays piece {i} on the piano at {i % 7} pm",
                          created=T0 + timedelta(minutes=13 * i), importance=imp)
                     for i, imp in enumerate(importances)])
    return stream


def _round_trip(stream, trace):
    records = {r.id: (r.content, r.importance) for r in stream.records()}
    rows = [c.to_dict() for c in trace.candidates]
    blob = pack_candidates(rows)
    back = unpack_candidates(blob, weights=trace.weights, k=trace.k, memories=lambda ids: {i: records[i] for i in ids})
    return rows, back, json.loads(zlib.decompress(blob))


@pytest.mark.parametrize("weights, k", [((1.0, 1.0, 1.0), 10), ((0.0, 0.0, 1.0), 10), ((2.0, 0.5, 1.0), 3),
                                        ((1.0, 1.0, 1.0), 200)])
def test_a_real_trace_comes_back_bit_for_bit(hashing_embedder, weights, k):
    """60 records of importance 1-10, some retrieved earlier (so hours since access differ):
    every field of every candidate, floats included, equals what the stream's trace held, for
    weights of 1 and others, k below and above the number of records (all then in the top k);
    nothing derivable (content, rank, scores, total) is stored."""
    stream = _stream(hashing_embedder, [1 + (i * 7) % 10 for i in range(60)])
    stream.retrieve("piece 3", now=T0 + timedelta(hours=5), k=4, purpose="earlier")
    _, trace = stream.retrieve("the piano at 5 pm", now=T0 + timedelta(hours=20), k=k, weights=weights,
                               purpose="test")
    rows, back, stored = _round_trip(stream, trace)
    assert back == rows
    assert [type(v) for r in back for v in r.values()] == [type(v) for r in rows for v in r.values()]
    assert set(stored) == {"id", "seconds", "recency", "recency_part", "bounds", "relevance32"}


def test_equal_importance_and_a_stream_whose_extremes_are_not_candidates(hashing_embedder):
    """All importance 5: every importance part is 0.5 (bounds equal). Then 30 records where the
    least important (1) is never among the 15 candidates: the bounds are solved from the
    candidates (whole numbers) and the parts still come back exactly."""
    stream = _stream(hashing_embedder, [5] * 12)
    _, trace = stream.retrieve("piece 2", now=T0 + timedelta(hours=3), purpose="test")
    rows, back, _ = _round_trip(stream, trace)
    assert back == rows and {r["importance_part"] for r in rows} == {0.5}
    stream = _stream(hashing_embedder, [1] + [6 + i % 5 for i in range(29)])
    _, trace = stream.retrieve("piece 20", now=T0 + timedelta(hours=9), k=10, weights=(0, 1, 0), purpose="test")
    rows, back, stored = _round_trip(stream, trace)
    assert 0 not in [r["id"] for r in rows]  # the importance-1 record is no candidate
    assert back == rows and "importance_part" not in stored and stored["bounds"][:2] == [1.0, 10.0]


def test_what_cannot_be_worked_out_again_is_stored_as_it_was():
    """Hand-made rows whose parts follow no min-max of their values and whose relevance is no
    float32: stored as they are, read back as they were."""
    rows = [{"rank": r, "id": i, "content": f"m{i}", "hours": h, "recency": 0.995 ** h, "importance": imp,
             "relevance": rel, "recency_part": rp, "importance_part": ip, "relevance_part": lp,
             "recency_score": rp, "importance_score": ip, "relevance_score": lp, "total": (rp + ip) + lp,
             "in_top_k": r <= 1}
            for r, (i, h, imp, rel, rp, ip, lp) in enumerate([(4, 0.1234, 7, 0.1, 1.0, 0.3, 0.9),
                                                               (2, 2.5, 3, 0.7, 0.0, 0.8, 0.2)], start=1)]
    blob = pack_candidates(rows)
    stored = json.loads(zlib.decompress(blob))
    assert {"importance_part", "relevance_part", "relevance", "hours"} <= set(stored)
    contents = {4: ("m4", 7), 2: ("m2", 3)}
    assert unpack_candidates(blob, weights=(1, 1, 1), k=1, memories=lambda ids: contents) == rows
