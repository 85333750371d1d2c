"""Events that are not for everyone: an appointment with one's own someone, a party for someone.

Found by whispering the_ville, a user's way: "Your thesis advisor wants to meet you in the library
at 3pm tomorrow." (to Klaus) and "Klaus has a birthday on Tuesday; you want to throw him a
surprise party in the common room at 7pm." (to Maria). Klaus asked Maria to come to his meeting
("Would you like to come?"), Maria and Isabella went to the library for it, and Maria told Klaus
"I still have to throw Klaus Mueller a surprise party at common room at 19:00!".
"""

from __future__ import annotations

import random
from datetime import datetime

from town.memory.fact import Fact
from town.scripted.attend import Decision, decide
from town.scripted.talk import _invite, closing
from town.textevent import StatedEvent
from town.thinking.dayplan import fact_block
from town.thinking.questions import MemoryView

LIBRARY = "the_ville:Oak Hill College:library"
COMMON_ROOM = "the_ville:Dorm for Oak Hill College:common room"
MEETING = Fact(subject="Klaus Mueller", act="meet with one's thesis advisor", place=LIBRARY,
               start=datetime(2023, 2, 14, 15), host="Klaus Mueller")
PARTY = Fact(subject="Maria Lopez", act="throw Klaus Mueller a surprise party", place=COMMON_ROOM,
             start=datetime(2023, 2, 14, 19), host="Maria Lopez")


def test_an_appointment_with_ones_own_someone_is_not_offered_and_draws_no_one_else():
    """A meeting "with one's thesis advisor" is Klaus's own: he does not ask others to come, and
    Maria, told of it and free then, does not go (the rule's reason says whose it is). A party
    is offered as before."""
    assert MEETING.private and not PARTY.private
    heard = MemoryView(id=1, kind="chat", importance=5, created="2023-02-13 07:32:10", fact=MEETING,
                       tellers=("Klaus Mueller",),
                       content="Klaus Mueller told me that he is meeting with his thesis advisor at the library")
    event = StatedEvent(place=LIBRARY, start=datetime(2023, 2, 14, 15), end=datetime(2023, 2, 14, 16))
    said = decide(event, [heard], routine=(), memories=(heard,), summary="Traits: friendly, curious", seed=7,
                  me="Maria Lopez")
    assert said == Decision(False, "that is Klaus's own appointment")
    own = MemoryView(id=2, kind="whisper", importance=8, fact=MEETING,
                     content="My thesis advisor wants to meet me in the library at 3pm tomorrow.")
    assert _invite(own, "Klaus Mueller") == ""
    party = MemoryView(id=3, kind="whisper", importance=8, fact=PARTY, content="I want to throw him a surprise party")
    assert _invite(party, "Maria Lopez") == " Would you like to come?"


def test_a_plan_item_naming_the_partner_is_not_told_to_them():
    """Maria's goodbye names her next plan item, but not to the one it is for: to Klaus she says
    only goodbye, to Isabella the party (a place named by a common noun takes "the")."""
    event = StatedEvent(place=COMMON_ROOM, start=datetime(2023, 2, 14, 19), end=datetime(2023, 2, 14, 21))
    block = fact_block(PARTY, event, "Maria Lopez")
    assert block == "throw Klaus Mueller a surprise party at the common room"
    plan = MemoryView(id=4, kind="plan", importance=3, created="2023-02-14 00:00:00",
                      content=f"Maria Lopez's plan for Tuesday February 14: 18:00 cook dinner; 19:00 {block}")
    now = datetime(2023, 2, 14, 18, 10)
    to_klaus = closing("Klaus", [plan], now, random.Random(1))
    assert "surprise" not in to_klaus and "19:00" not in to_klaus
    to_isabella = closing("Isabella", [plan], now, random.Random(1))
    assert to_isabella.endswith(f"I need to {block} at 19:00.")


def test_a_line_of_ones_own_day_does_not_tell_the_partner_what_is_for_them():
    """Maria's talk of her own day ("I still have to ...") tells Isabella the party for Klaus,
    and Klaus none of it."""
    from town.scripted.talk import _voice
    from town.scripted.topics import own_life
    from town.thinking.questions import NextLine

    plan = MemoryView(id=4, kind="plan", importance=3, created="2023-02-14 00:00:00",
                      content="Maria Lopez's plan for Tuesday February 14: 17:00 stream games; "
                              "19:00 throw Klaus Mueller a surprise party at the common room")
    now = datetime(2023, 2, 14, 18, 10)

    def said_to(name: str) -> str:
        q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", listener=name.lower().replace(" ", "_"),
                     listener_name=name, memories=(plan,), now=f"{now:%Y-%m-%d %H:%M:%S}")
        found = own_life(q, now, _voice(q, random.Random(3)))
        return found.line if found else ""

    assert "surprise party" in said_to("Isabella Rodriguez")
    assert "surprise" not in said_to("Klaus Mueller")


def test_a_block_at_home_instead_of_a_closed_place_is_not_told_as_a_plan_ahead():
    """A fresh user's second round (2026-12-07): Maria said "Klaus, I still have to stay home instead
    of drinking a latte at Hobbs Cafe at 08:00!". By hand: that block is what she does not do; the
    next one ahead is told instead."""
    from town.scripted.talk import _voice
    from town.scripted.topics import own_life
    from town.thinking.questions import NextLine

    plan = MemoryView(id=5, kind="plan", importance=3, created="2023-02-14 00:00:00",
                      content="Maria Lopez's plan for Tuesday February 14: 08:00 stay home instead of drinking a latte "
                              "at Hobbs Cafe; 09:00 attend physics classes")
    now = datetime(2023, 2, 14, 7, 40)
    for seed in range(6):
        q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", listener="klaus_mueller",
                     listener_name="Klaus Mueller", memories=(plan,), now=f"{now:%Y-%m-%d %H:%M:%S}")
        found = own_life(q, now, _voice(q, random.Random(seed)))
        assert found is None or "stay home instead" not in found.line, found.line
