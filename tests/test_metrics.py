"""Evaluation measures on a hand-built run (values worked out in tests/handbuilt_run.py)."""

from __future__ import annotations

from datetime import datetime

import pytest
from handbuilt_run import PARTY, build_run

from town.analysis import attendance, diffusion, moments, provenance, relationships
from town.analysis.interview import InterviewResult
from town.analysis.stats import compute_stats, cost
from town.recording import RunReader


@pytest.fixture
def run(tmp_path):
    """Path of the hand-built run."""
    return build_run(tmp_path / "hand.sqlite")


@pytest.fixture
def reader(run):
    """The hand-built run, open for reading."""
    with RunReader(run) as r:
        yield r


def test_knowledge_onset_says_how_it_came(reader):
    """A by seed, b by conversation from a#0 at tick 1, c from a#2 at tick 4, d by whisper at 8."""
    k = provenance.knowledge(reader, "party")
    assert (k["a"].via, k["a"].memory, k["a"].tick) == ("seed", 0, 0)
    assert (k["b"].via, k["b"].source, k["b"].tick) == ("conversation", ("a", 0), 1)
    assert (k["c"].via, k["c"].source, k["c"].tick) == ("conversation", ("a", 2), 4)
    assert (k["d"].via, k["d"].memory, k["d"].tick) == ("whisper", 1, 8)


def test_moments_are_the_start_every_n_hours_and_the_end(reader):
    """Every hour: hours 0-3 ending ticks 5, 11, 17; every 2 hours: 0, 2 and the end (3); every
    12 hours: the start and the end only."""
    hourly = moments.moments(reader, every_hours=1)
    assert [m.hour for m in hourly] == [0, 1, 2, 3]
    assert [m.tick for m in hourly] == [0, 5, 11, 17]
    assert hourly[1].time == datetime(2023, 2, 14, 17, 0)
    assert [m.hour for m in moments.moments(reader)] == [0, 3]
    assert [m.hour for m in moments.moments(reader, every_hours=2)] == [0, 2, 3]
    # The start's streams hold the six seeded memories only; hour 1's also b#1, c#1-3 and b#2.
    assert len(reader.stream_as_of("a", hourly[0].seq).ids) == 3
    assert len(reader.stream_as_of("c", hourly[0].seq).ids) == 1
    assert len(reader.stream_as_of("c", hourly[1].seq).ids) == 4


def test_recalls_needs_every_fact():
    """All facts must match, case-insensitively."""
    assert diffusion.recalls("Yes. A PARTY at the Cafe.", ("part(y|ies)", "cafe"))
    assert not diffusion.recalls("Yes. Someone said there is a party.", ("party", "cafe"))


def _result(answer: str, *memories: dict) -> InterviewResult:
    return InterviewResult(persona="d", question="Do you know Cat Cole?", at=datetime(2023, 2, 14),
                           tick=9, seq=20, answer=answer, weights=(1, 1, 1), k=10, n_scored=3,
                           candidates=(), retrieved=memories)


def _memory(kind: str, content: str, *, seq: int, subject: str | None = "c") -> dict:
    return {"id": 0, "kind": kind, "content": content, "subject": subject, "seq": seq}


@pytest.mark.parametrize(("memory", "knows"), [
    (_memory("observation", "Cat Cole is at the cafe.", seq=15), False),       # a sighting
    (_memory("observation", "Cat Cole is my cousin.", seq=3), True),           # seeded: relationship
    (_memory("chat", "Cat Cole told me: \"Hi.\"", seq=15), True),              # a conversation
    (_memory("whisper", "Cat Cole owes me a favour.", seq=15, subject=None), True),  # heard
    (_memory("observation", "Cat Cole runs for mayor.", seq=15, subject=None), True),  # news
    (_memory("reflection", "Cat Cole is kind.", seq=15, subject=None), True),
    (_memory("plan", "Meet Cat Cole at noon.", seq=15, subject=None), False),  # own plan
    (_memory("chat", "Dan Dove told me: \"Hi.\"", seq=15, subject="d"), False),  # about another
])
def test_acquainted_needs_more_than_a_sighting(memory, knows):
    """A yes counts only with a retrieved memory about the other that is more than a sighting."""
    assert relationships.acquainted(_result("Yes. Cat Cole ...", memory), "c", "Cat Cole", 5) is knows
    assert not relationships.acquainted(_result("No, I don't know anything about that.", memory),
                                  "c", "Cat Cole", 5)


def _fact(persona: str, seq: int, kind: str, content: str, subject: str | None = None) -> provenance.MemoryFact:
    return provenance.MemoryFact(persona=persona, id=seq, seq=seq, tick=seq, kind=kind, content=content,
                                 subject=subject)


#: Memories of a hand-made run whose start (seeded memories) ends at seq 5.
_HELD = (
    _fact("a", 2, "observation", "Bob Brown is my neighbour.", "b"),       # seeded: a -> b
    _fact("d", 3, "observation", "Ann Able is my sister."),                # seeded, by name: d -> a
    _fact("a", 10, "reflection", "Cat Cole and Dan Dove are kind."),       # names two: a -> c, d
    _fact("b", 11, "observation", "Ann Able is at the cafe.", "a"),        # a sighting: nothing
    _fact("a", 12, "chat", 'Cat Cole told me: "Hi."', "c"),                # a -> c again: 10 stays
    _fact("b", 13, "plan", "Meet Cat Cole at noon."),                      # own plan: nothing
    _fact("b", 14, "observation", "Dan Dove runs for mayor."),             # news: b -> d
    _fact("c", 15, "whisper", "I am Cat Cole and Ann Able owes me."),      # c -> a, never c -> c
    _fact("d", 16, "chat", 'Eve Ewe told me: "Hi."', "player_eve"),        # a player: nobody
)


def test_holders_finds_each_pairs_first_memory_that_could_count():
    """Worked by hand from the comments of _HELD: a memory counts for a pair when it is about the
    other (subject, or the full name in its text) and more than a sighting; the first one's seq."""
    names = {"a": "Ann Able", "b": "Bob Brown", "c": "Cat Cole", "d": "Dan Dove"}
    assert relationships.holders(_HELD, names, 5) == {
        ("a", "b"): 2, ("d", "a"): 3, ("a", "c"): 10, ("a", "d"): 10, ("b", "d"): 14, ("c", "a"): 15}
    # A memory the interview accepts for a pair (a yes given it) is one holders finds, and no other.
    for m in _HELD:
        memory = {"kind": m.kind, "content": m.content, "subject": m.subject, "seq": m.seq}
        for other in set(names) - {m.persona}:
            accepted = relationships.acquainted(_result("Yes.", memory), other, names[other], 5)
            assert accepted is ((m.persona, other) in relationships.holders([m], names, 5))


def test_attendance_invited_and_thirty_minutes(reader):
    """Invited b, c (conversation) and d (whisper); b (30 min) and c (60 min) came; host excluded."""
    a = attendance.attendance(reader, "party", host="a", **PARTY)
    assert a["invited"] == ["b", "c", "d"]
    assert a["attended"] == ["b", "c"]
    assert a["invited_attended"] == ["b", "c"]
    assert a["minutes"] == {"a": 60.0, "b": 30.0, "c": 60.0, "d": 20.0}


def test_cost_counts_requests_not_marker_events(reader, run):
    """3 requests (a 2, b 1), 300 tokens over 3 game hours; b's fallback and cache-hit markers are
    no requests, and `town stats` counts the same."""
    c = cost(reader)
    assert c["hours"] == pytest.approx(3.0)
    assert c["personas"]["a"]["requests_per_hour"] == pytest.approx(2 / 3)
    assert c["personas"]["a"]["tokens_per_hour"] == pytest.approx(80.0)
    b = c["personas"]["b"]
    assert (b["requests"], b["fallbacks"], b["cache_hits"]) == (1, 1, 1)
    assert b["tokens_per_hour"] == pytest.approx(20.0)
    assert c["personas"]["c"]["requests"] == 0
    assert c["total"]["requests"] == 3
    assert c["total"]["requests_per_hour"] == pytest.approx(1.0)
    assert c["total"]["tokens_per_hour"] == pytest.approx(100.0)
    stats = compute_stats(run)["total"]
    assert {k: stats[k] for k in ("requests", "fallbacks", "cache_hits", "tokens_in", "tokens_out")} == {
        k: c["total"][k] for k in ("requests", "fallbacks", "cache_hits", "tokens_in", "tokens_out")}
