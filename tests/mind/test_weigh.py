"""Importance from what a memory means (its fact), never from the words around it."""

from __future__ import annotations

from datetime import datetime, timedelta

from town.memory import MemoryKind
from town.memory.fact import Fact
from town.mind.context import remember
from town.mind.weigh import fact_importance

NOW = datetime(2023, 2, 13, 9)
SALE = Fact(subject="Tom Moreno", act="hold a bake sale", place="w:Green Park", start=datetime(2023, 2, 14, 14),
            end=datetime(2023, 2, 14, 16), host="Tom Moreno", invited=("everyone",))


def test_the_rule_worked_out_by_hand():
    # a heard open invitation to an event tomorrow (29 h ahead): event 4 + invited 2 + soon 1
    assert fact_importance(SALE, me="Ann Able", ties=frozenset(), now=NOW) == 7
    # the same from someone Ann has a tie with: + 1
    assert fact_importance(SALE, me="Ann Able", ties=frozenset({"Tom Moreno"}), now=NOW) == 8
    # a week ahead, nobody invited: the event alone
    later = Fact(subject="Tom Moreno", act="hold a bake sale", place="w:Green Park", start=datetime(2023, 2, 20, 14))
    assert fact_importance(later, me="Ann Able", ties=frozenset(), now=NOW) == 4
    # the host's own event: an obligation (8), soon (+1)
    assert fact_importance(SALE, me="Tom Moreno", ties=frozenset(), now=NOW) == 9
    # an event no one of the town holds ("there is ..."): public, open to all (+2); a week ahead
    jazz = Fact(act="be a jazz night", place="w:The Pub", start=datetime(2023, 2, 20, 20))
    assert fact_importance(jazz, me="Ann Able", ties=frozenset(), now=NOW) == 6
    # a statement with no place or time
    assert fact_importance(Fact(subject="Sam Moore", act="run for mayor"), me="Ann Able", ties=frozenset(),
                           now=NOW) == 3


def test_a_heard_invitation_is_rated_from_its_fact_not_from_its_wrapper(tiny):
    """Through the mind: a chat memory with a fact gets 7 (as above); its words alone (the
    hearsay wrapper, rated by the embedded rater) would not say so."""
    sim = tiny()
    ann = sim.personas["ann"]
    told = ("Bob Brown told me that Tom Moreno is holding a bake sale at Green Park tomorrow from 2pm to 4pm, "
            "and everyone is welcome.")
    record = sim.think(lambda ctx: remember(ann, ctx, kind=MemoryKind.CHAT, content=told, fact=SALE,
                                            teller="Bob Brown"))
    assert record.importance == fact_importance(SALE, me="Ann Able", ties=frozenset(), now=sim.clock.now) == 7


def test_a_cancellation_weighs_more_than_the_plan_it_undoes():
    """By hand from the rule: its host 8 + 1 = 9 (her party, itself 8 + 1 soon = 9, so the two are
    recalled together); another 4 + 2 = 6, + 1 for a tie with its host = 7; no place or day
    needed."""
    off = Fact(act="be the Valentine's Day party", host="Tom Moreno", cancelled=True)
    assert fact_importance(off, me="Tom Moreno", ties=frozenset(), now=NOW) == 9
    assert fact_importance(off, me="Ann Able", ties=frozenset(), now=NOW) == 6
    assert fact_importance(off, me="Ann Able", ties=frozenset({"Tom Moreno"}), now=NOW) == 7


def test_a_move_weighs_as_a_cancellation_does():
    """By hand from the rule: a move undoes its event's old time as a cancellation does: its host
    8 + 1 = 9; another 4 + 2 = 6, + 1 for a tie with its host = 7 (a start alone, no place)."""
    moved = Fact(act="be the Valentine's Day party", host="Tom Moreno", start=NOW + timedelta(days=2), moved=True)
    assert fact_importance(moved, me="Tom Moreno", ties=frozenset(), now=NOW) == 9
    assert fact_importance(moved, me="Ann Able", ties=frozenset(), now=NOW) == 6
    assert fact_importance(moved, me="Ann Able", ties=frozenset({"Tom Moreno"}), now=NOW) == 7
