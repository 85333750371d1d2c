"""Tests of town.memory.stream: exactness against brute force, access updates, traces, state."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from town.embedding import HashingEmbedder
from town.errors import MemoryStreamError
from town.memory import MemoryKind, MemoryStream

T0 = datetime(2023, 2, 13, 7, 0)
TOL = 1e-6


def brute_force(records, vectors, query, now, weights):
    """Reference scores written from docs/design, §1 alone: {id: score}, ids ranked best first."""
    if not records:
        return {}, []
    hours = np.array([(now - r.last_accessed).total_seconds() / 3600 for r in records])
    parts = [
        0.995**hours,
        np.array([r.importance for r in records], float),
        np.array([float(np.dot(vectors[r.id].astype(np.float64), query)) for r in records]),
    ]
    score = np.zeros(len(records))
    for weight, raw in zip(weights, parts):
        span = raw.max() - raw.min()
        score += weight * ((raw - raw.min()) / span if span > 0 else np.full(len(raw), 0.5))
    scores = {r.id: s for r, s in zip(records, score)}
    ranked = sorted(records, key=lambda r: (-scores[r.id], -r.created.timestamp(), -r.id))
    return scores, [r.id for r in ranked]


def assert_matches_brute_force(got_ids, trace_totals, scores, ranked, k):
    """docs/design, §1 tolerance: scores within 1e-6; sets agree except among near-ties."""
    want = ranked[:k]
    assert len(got_ids) == len(want)
    for got, ref, total in zip(got_ids, want, trace_totals):
        assert abs(scores[got] - scores[ref]) <= TOL
        assert abs(total - scores[got]) <= TOL
    if want:
        kth = scores[want[-1]]
        for extra in set(got_ids) ^ set(want):
            assert abs(scores[extra] - kth) <= TOL


# Unit vectors whose components are 0, +-1 (one non-zero) or 0, +-0.5 (four non-zeros): every
# cosine is an exact multiple of 0.25 in float32 and float64 alike, so the reference sees no
# rounding noise (which min-max would blow up) and exact ties are frequent.
vector_grid = st.one_of(
    st.tuples(st.integers(0, 7), st.sampled_from([-1, 1])).map(
        lambda t: [t[1] if i == t[0] else 0 for i in range(8)]
    ),
    st.tuples(
        st.sets(st.integers(0, 7), min_size=4, max_size=4),
        st.lists(st.sampled_from([-1, 1]), min_size=4, max_size=4),
    ).map(lambda t: [dict(zip(sorted(t[0]), t[1])).get(i, 0) for i in range(8)]),
)
memory = st.tuples(vector_grid, st.integers(1, 10), st.integers(0, 48))
weight = st.sampled_from([0.0, 0.5, 1.0, 2.0])


@settings(max_examples=150, deadline=None)
@given(
    memories=st.lists(memory, max_size=30),
    touch=st.lists(st.tuples(vector_grid, st.integers(1, 6), st.integers(49, 60)), max_size=3),
    query=vector_grid,
    weights=st.tuples(weight, weight, weight).filter(any),
    k=st.integers(1, 35),
)
def test_retrieval_equals_brute_force(memories, touch, query, weights, k):
    """Top k equals a numpy brute force on random streams (ties, duplicates, k > N, empty)."""
    stream = MemoryStream("p", HashingEmbedder(dim=8))  # only embeds nothing: vectors are given
    vectors = np.array([m[0] for m in memories], np.float32).reshape(-1, 8)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-30)
    stream.add_many(
        [
            dict(
                kind="observation", content=f"m{i}", created=T0 + timedelta(hours=h), importance=imp
            )
            for i, (_, imp, h) in enumerate(memories)
        ],
        embeddings=vectors,
    )
    for vec, touch_k, hour in touch:  # earlier retrievals move last_accessed of some records
        q = np.array(vec, np.float32) / np.linalg.norm(vec)
        stream.retrieve(
            "earlier", now=T0 + timedelta(hours=hour), k=touch_k, purpose="t", query_embedding=q
        )
    now = T0 + timedelta(hours=61)
    q = np.array(query, np.float64) / np.linalg.norm(query)
    before = stream.records()
    scores, ranked = brute_force(before, dict(enumerate(vectors)), q, now, weights)
    got, trace = stream.retrieve(
        "q", now=now, k=k, weights=weights, purpose="test", query_embedding=q.astype(np.float32)
    )
    got_ids = [r.id for r in got]
    assert_matches_brute_force(got_ids, [c.total for c in trace.candidates], scores, ranked, k)
    assert trace.n_scored == len(memories)
    assert len(trace.candidates) == min(len(memories), k + 5)
    assert all(stream.get(i).last_accessed == now for i in got_ids)


def hand_stream(table_embedder):
    """Three records of the hand-worked example in test_scoring (relevance 0.2, 0.5, 0.8)."""
    table = {"query": [1.0, 0.0]}
    for text, cos in (("A", 0.2), ("B", 0.5), ("C", 0.8)):
        table[text] = [cos, np.sqrt(1 - cos**2)]
    stream = MemoryStream("isabella", table_embedder(table))
    now = datetime(2023, 2, 13, 12, 0)
    for text, hours, importance in (("A", 0, 2), ("B", 10, 8), ("C", 24, 5)):
        stream.add(
            kind=MemoryKind.OBSERVATION,
            content=text,
            created=now - timedelta(hours=hours),
            importance=importance,
        )
    return stream, now


def test_hand_worked_retrieval_updates_only_returned_records(table_embedder):
    """B (2.0686689) and C (1.5) beat A (1.0); only B and C get last_accessed = now."""
    stream, now = hand_stream(table_embedder)
    created = {r.id: r.created for r in stream.records()}
    got, trace = stream.retrieve("query", now=now + timedelta(hours=1), k=2, purpose="test", tick=7)
    assert [r.content for r in got] == ["B", "C"]
    # one more hour for everyone: recency 0.995**1, **11, **25 -> same part values as by hand
    np.testing.assert_allclose(
        [c.total for c in trace.candidates], [2.0686689, 1.5, 1.0], atol=1e-6
    )
    assert [c.in_top_k for c in trace.candidates] == [True, True, False]
    assert stream.get(1).last_accessed == now + timedelta(hours=1)
    assert stream.get(2).last_accessed == now + timedelta(hours=1)
    assert stream.get(0).last_accessed == created[0]
    assert stream.access_log() == [{"tick": 7, "time": "2023-02-13 13:00:00", "ids": [1, 2]}]


def test_trace_numbers_recomputed_from_records_and_query_embedding(hashing_embedder):
    """Each candidate's parts follow from the stored records, vectors and query embedding."""
    stream = MemoryStream("klaus", hashing_embedder)
    sentences = [
        "Klaus reads about gentrification",
        "the cafe opens at eight",
        "Isabella plans a Valentine's party",
        "Maria studies physics",
        "Klaus drinks coffee at the cafe",
        "the party is at five",
        "Klaus writes a paper",
        "Sam runs for mayor",
    ]
    for i, text in enumerate(sentences):
        stream.add(
            kind="observation",
            content=text,
            created=T0 + timedelta(minutes=37 * i),
            importance=1 + (i * 3) % 10,
        )
    stream.retrieve("coffee", now=T0 + timedelta(hours=6), k=2, purpose="warm-up")
    before = {r.id: r for r in stream.records()}
    now = T0 + timedelta(hours=9, minutes=15)
    weights = (0.5, 1.0, 2.0)
    _, trace = stream.retrieve("party at the cafe", now=now, k=3, weights=weights, purpose="test")
    q = trace.query_embedding.astype(np.float64)
    np.testing.assert_allclose(q, hashing_embedder.embed(["party at the cafe"])[0], atol=1e-7)
    ids = sorted(before)
    hours = np.array([(now - before[i].last_accessed).total_seconds() / 3600 for i in ids])
    raw = {
        "recency": 0.995**hours,
        "importance": np.array([before[i].importance for i in ids], float),
        "relevance": np.array([stream.vector(i).astype(np.float64) @ q for i in ids]),
    }
    for c in trace.candidates:
        row = ids.index(c.id)
        assert c.content == before[c.id].content
        assert c.hours == pytest.approx(hours[row], abs=1e-9)
        for name, w in zip(("recency", "importance", "relevance"), weights):
            values = raw[name]
            part = (values[row] - values.min()) / (values.max() - values.min())
            assert getattr(c, name) == pytest.approx(values[row], abs=1e-6)
            assert getattr(c, f"{name}_part") == pytest.approx(part, abs=1e-6)
            assert getattr(c, f"{name}_score") == pytest.approx(w * part, abs=1e-6)
        assert c.total == pytest.approx(c.recency_score + c.importance_score + c.relevance_score)


def test_state_round_trip_through_json_retrieves_the_same(hashing_embedder):
    """get_state -> JSON -> set_state keeps records, access history and retrieval results."""
    stream = MemoryStream("maria", hashing_embedder)
    for i in range(12):
        stream.add(
            kind="chat",
            content=f"Maria talked about topic {i} and physics",
            created=T0 + timedelta(hours=i),
            importance=1 + i % 10,
            probe="party" if i % 2 else None,
            source=("klaus", i) if i % 3 == 0 else None,
            conversation=i // 4,
        )
    stream.remove([4])
    stream.retrieve("physics", now=T0 + timedelta(hours=13), k=3, purpose="a", tick=1)
    state = json.loads(json.dumps(stream.get_state()))
    restored = MemoryStream("maria", HashingEmbedder(dim=64))
    restored.set_state(state)
    assert [r.to_dict() for r in restored.records()] == [r.to_dict() for r in stream.records()]
    assert restored.access_log() == stream.access_log()
    for when, query in ((15, "topic 3"), (20, "physics and topic 7")):
        a_records, a_trace = stream.retrieve(query, now=T0 + timedelta(hours=when), purpose="b")
        b_records, b_trace = restored.retrieve(query, now=T0 + timedelta(hours=when), purpose="b")
        assert a_records == b_records
        assert a_trace.to_dict() == b_trace.to_dict()
    assert restored.add(kind="plan", content="new", created=T0, importance=3).id == 12


def test_state_without_vectors_restores_from_given_records_and_vectors(hashing_embedder, monkeypatch):
    """A snapshot's stream state holds no records, index or access log, and serialises no index;
    restored with the records and their own (ids, embeddings) it retrieves as the original does."""
    stream = MemoryStream("maria", hashing_embedder)
    for i in range(8):
        stream.add(kind="chat", content=f"Maria talked about topic {i} and physics",
                   created=T0 + timedelta(hours=i), importance=1 + i % 10)
    stream.remove([2])
    stream.retrieve("physics", now=T0 + timedelta(hours=9), k=3, purpose="a", tick=1)
    with monkeypatch.context() as m:
        m.setattr("town.memory.vectors.VectorIndex.to_base64", lambda self: pytest.fail("index serialised"))
        state = json.loads(json.dumps(stream.get_state(vectors=False)))
    assert list(state) == ["persona", "embedder", "dim", "next_id"]
    ids = np.array([r.id for r in stream.records()], dtype=np.int64)
    embeddings = np.stack([stream.vector(int(i)) for i in ids])
    restored = MemoryStream("maria", HashingEmbedder(dim=64))
    records = json.loads(json.dumps([r.to_dict() for r in stream.records()]))
    restored.set_state({**state, "records": records}, vectors=(ids, embeddings))
    assert [r.to_dict() for r in restored.records()] == [r.to_dict() for r in stream.records()]
    assert restored.access_log() == []
    for when, query in ((10, "topic 3"), (12, "physics and topic 7")):
        a_records, a_trace = stream.retrieve(query, now=T0 + timedelta(hours=when), purpose="b")
        b_records, b_trace = restored.retrieve(query, now=T0 + timedelta(hours=when), purpose="b")
        assert a_records == b_records
        assert a_trace.to_dict() == b_trace.to_dict()


def test_importance_part_follows_every_write(hashing_embedder):
    """The stream keeps the normalised importance between writes; each write renews it.

    Importance 2, 4, 6: the 4 is (4 - 2) / (6 - 2) = 0.5. Adding a 10 makes it 2/8 = 0.25;
    removing the 2 and the 10 leaves 4 and 6, so it is 0.
    """
    stream = MemoryStream("p", hashing_embedder)
    for i, importance in enumerate((2, 4, 6)):
        stream.add(kind="observation", content=f"note {i}", created=T0, importance=importance)

    def importance_part_of_the_4():
        _, trace = stream.retrieve("note", now=T0, k=10, weights=(0, 1, 0), purpose="test")
        return {c.id: c.importance_part for c in trace.candidates}[1]

    assert importance_part_of_the_4() == 0.5
    assert importance_part_of_the_4() == 0.5  # the kept value
    stream.add(kind="observation", content="note 3", created=T0, importance=10)
    assert importance_part_of_the_4() == 0.25
    stream.remove([0, 3])
    assert importance_part_of_the_4() == 0.0


def test_trace_rows_are_the_records_own_after_growth_removals_and_a_restore(hashing_embedder):
    """150 records (the stream's columns grow twice past their first 64 rows), every seventh
    removed, then saved and restored: in both streams each candidate's sentence and importance
    are its record's, and the ranking matches the brute force over the records."""
    stream = MemoryStream("eddy", hashing_embedder)
    for batch in range(3):
        stream.add_many([
            dict(kind="observation", content=f"Eddy composed piece number {i}",
                 created=T0 + timedelta(minutes=i), importance=1 + i % 10)
            for i in range(50 * batch, 50 * batch + 50)
        ])
    stream.remove(list(range(3, 150, 7)))
    restored = MemoryStream("eddy", HashingEmbedder(dim=64))
    restored.set_state(json.loads(json.dumps(stream.get_state())))
    now = T0 + timedelta(hours=5)
    for s in (stream, restored):
        records = s.records()
        by_id = {r.id: r for r in records}
        q = hashing_embedder.embed(["piece number 40"])[0].astype(np.float64)
        scores, ranked = brute_force(records, {i: s.vector(i) for i in by_id}, q, now, (1, 1, 1))
        got, trace = s.retrieve("piece number 40", now=now, k=40, purpose="t")
        assert len(trace.candidates) == 45
        for c in trace.candidates:
            assert (c.content, c.importance) == (by_id[c.id].content, by_id[c.id].importance)
        assert_matches_brute_force([r.id for r in got], [c.total for c in trace.candidates],
                                   scores, ranked, 40)


def test_remove_keeps_ids_and_faiss_positions_aligned(hashing_embedder):
    """After removing records the others keep their ids and vectors, and retrieval skips them."""
    stream = MemoryStream("sam", hashing_embedder)
    for i in range(6):
        stream.add(kind="observation", content=f"event number {i}", created=T0, importance=5)
    v5 = stream.vector(5)
    stream.remove([1, 3])
    assert [r.id for r in stream.records()] == [0, 2, 4, 5]
    assert stream.index_ids().tolist() == [0, 2, 4, 5]
    np.testing.assert_array_equal(stream.vector(5), v5)
    got, _ = stream.retrieve("event number 3", now=T0, k=10, purpose="t")
    assert sorted(r.id for r in got) == [0, 2, 4, 5]
    with pytest.raises(MemoryStreamError, match="id: no memory record 3"):
        stream.remove([3])


def test_empty_stream_retrieves_nothing(hashing_embedder):
    """An empty stream returns no records and a trace with no candidates."""
    got, trace = MemoryStream("p", hashing_embedder).retrieve("x", now=T0, purpose="t")
    assert got == [] and trace.candidates == () and trace.n_scored == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"importance": 0}, "importance"),
        ({"importance": 11}, "importance"),
        ({"importance": 5.5}, "importance"),
        ({"importance": "7"}, "importance"),
        ({"content": ""}, "content"),
        ({"content": "   "}, "content"),
    ],
)
def test_bad_record_arguments_are_refused(hashing_embedder, change, field):
    """add() refuses bad importance and empty content, naming the field; nothing is written."""
    stream = MemoryStream("p", hashing_embedder)
    args = dict(kind="observation", content="ok", created=T0, importance=5) | change
    with pytest.raises(MemoryStreamError, match=f"^{field}:"):
        stream.add(**args)
    assert len(stream) == 0


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"k": 0}, "k"),
        ({"weights": (-1, 1, 1)}, "weights"),
        ({"weights": (0, 0, 0)}, "weights"),
        ({"weights": (float("nan"), 1, 1)}, "weights"),
        ({"weights": (1, float("inf"), 1)}, "weights"),
    ],
)
def test_bad_retrieval_arguments_are_refused(hashing_embedder, kwargs, field):
    """retrieve() refuses k < 1 and negative, NaN, infinite or all-zero weights."""
    stream = MemoryStream("p", hashing_embedder)
    stream.add(kind="observation", content="ok", created=T0, importance=5)
    with pytest.raises(MemoryStreamError, match=f"^{field}:"):
        stream.retrieve("ok", now=T0, purpose="t", **kwargs)
    assert stream.access_log() == []


def test_embedder_of_another_dim_is_refused(hashing_embedder, table_embedder):
    """A saved 64-dim stream cannot be loaded with a 32-dim embedder, nor fed 2-dim vectors."""
    stream = MemoryStream("p", hashing_embedder)
    stream.add(kind="observation", content="ok", created=T0, importance=5)
    with pytest.raises(MemoryStreamError, match="dim 64.*dim 32"):
        MemoryStream("p", HashingEmbedder(dim=32)).set_state(stream.get_state())
    liar = table_embedder({"ok": [1.0, 0.0]})
    liar.dim = 64  # claims 64 but returns 2-dim vectors
    with pytest.raises(MemoryStreamError, match=r"dim 2\).*dim 64"):
        MemoryStream("p", liar).add(kind="observation", content="ok", created=T0, importance=5)


def test_retrieving_before_a_later_access_counts_it_as_now(table_embedder):
    """A record last accessed after ``now`` has recency 1 and 0 hours in the trace.

    B is retrieved at 13:00, then the stream is asked as of 12:00: never 0.995 ** -1 = 1.005.
    """
    stream, now = hand_stream(table_embedder)
    stream.retrieve("query", now=now + timedelta(hours=1), k=1, purpose="test")  # B: accessed 13:00
    _, trace = stream.retrieve("query", now=now, k=3, weights=(1, 0, 0), purpose="test")
    by_content = {c.content: c for c in trace.candidates}
    assert by_content["B"].hours == 0.0 and by_content["B"].recency == 1.0
    assert by_content["A"].hours == 0.0 and by_content["A"].recency == 1.0
    assert by_content["C"].hours == 24.0
    assert all(c.recency <= 1.0 for c in trace.candidates)
