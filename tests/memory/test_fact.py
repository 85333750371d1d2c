"""Tests of town.memory.fact and the typed fields of a memory record (one memory per fact)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from town.errors import MemoryStreamError
from town.memory import MemoryKind, MemoryRecord, MemoryStream
from town.memory.fact import Fact, PlanItem

PARTY = Fact(subject="Isabella Rodriguez", act="throw a Valentine's Day party",
             place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19),
             host="Isabella Rodriguez", invited=("everyone",))


def test_record_with_fields_round_trips_through_json(t0):
    """fact, tellers and plan_items survive to_dict -> JSON -> from_dict, times as text."""
    record = MemoryRecord(
        id=0, persona="klaus", kind=MemoryKind.CHAT, content="Isabella is throwing a party",
        created=t0, last_accessed=t0, importance=7, fact=PARTY,
        tellers=(("Maria Lopez", t0),),
        plan_items=(PlanItem(start=t0, end=t0 + timedelta(hours=1), description="read",
                             place="the_ville:library"),),
    )
    d = json.loads(json.dumps(record.to_dict()))
    assert d["fact"]["start"] == "2023-02-14 17:00:00" and d["fact"]["invited"] == ["everyone"]
    assert d["tellers"] == [["Maria Lopez", "2023-02-13 07:00:00"]]
    assert MemoryRecord.from_dict(d) == record
    morning = MemoryRecord.from_dict({**d, "fact": {**d["fact"], "part": "morning"}})
    assert morning.fact is not None and morning.fact.part == "morning" and morning.to_dict()["fact"]["part"] == "morning"


def test_a_record_of_the_old_shape_reads_with_no_fields(t0):
    """A dict without the new keys (a seeded memory's) has no fact, tellers or plan items."""
    d = dict(id=0, persona="p", kind="plan", content="x", created="2023-02-13 07:00:00",
             last_accessed="2023-02-13 07:00:00", importance=3)
    record = MemoryRecord.from_dict(d)
    assert (record.fact, record.tellers, record.plan_items) == (None, (), ())


@pytest.mark.parametrize(("fact", "field"), [
    ({"subject": "A"}, "fact"),
    ({"act": " "}, "fact.act"),
    ({"act": "sing", "start": "tomorrow"}, "fact.start"),
    ({"act": "sing", "start": "2023-02-14 17:00:00", "end": "2023-02-14 16:00:00"}, "fact.end"),
    ({"act": "sing", "invited": "everyone"}, "fact.invited"),
    ({"act": "sing", "start": "2023-02-14 10:00:00", "part": "brunch"}, "fact.part"),
    ({"act": "sing", "part": "morning"}, "fact.part"),  # a part of the day with no day
])
def test_bad_facts_are_refused_naming_the_field(fact, field):
    """A malformed fact in a record dict names its field, not a traceback."""
    d = dict(id=0, persona="p", kind="chat", content="x", created="2023-02-13 07:00:00",
             last_accessed="2023-02-13 07:00:00", importance=3, fact=fact)
    with pytest.raises(MemoryStreamError, match=field):
        MemoryRecord.from_dict(d)


def test_the_same_fact_is_subject_act_place_start():
    """Key ignores the act's case and spacing, the end, host and invitation; a new place differs."""
    same = Fact(subject="Isabella Rodriguez", act="Throw a  Valentine's Day party",
                place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 17))
    assert same.key() == PARTY.key()
    moved = Fact(subject="Isabella Rodriguez", act="throw a Valentine's Day party",
                 place="the_ville:park", start=datetime(2023, 2, 14, 17))
    assert moved.key() != PARTY.key()


def test_retelling_a_held_fact_adds_a_teller_not_a_record(hashing_embedder, t0):
    """holding() finds the record by key; retold() keeps one record, appends the teller, moves
    last_accessed to now and raises importance only upwards (7 -> 7 for 5, 7 -> 9 for 9)."""
    stream = MemoryStream("klaus", hashing_embedder)
    first = stream.add(kind=MemoryKind.CHAT, content="Isabella is throwing a party", created=t0,
                       importance=7, fact=PARTY, tellers=(("Maria Lopez", t0),))
    later = t0 + timedelta(hours=2)
    assert stream.holding(PARTY.key()) == first
    again = stream.retold(first.id, teller="Tom Moreno", now=later, importance=5)
    assert len(stream) == 1 and again.importance == 7 and again.last_accessed == later
    assert again.tellers == (("Maria Lopez", t0), ("Tom Moreno", later))
    stream.retold(first.id, teller="Ayesha Khan", now=later, importance=9)
    top, trace = stream.retrieve("party", now=later, k=1, purpose="test")
    assert top[0].importance == 9 and trace.candidates[0].importance == 9
    assert stream.holding(Fact(act="throw a party").key()) is None
