"""A place closed for a day is worked, shopped and met at by no one who knows it.

Whispered to Isabella Rodriguez at 08:00 on Monday 13 Feb (a tester's words): "Hobbs Cafe will be
closed all day tomorrow for a deep clean, so no lunch service." Before, she told Maria so, then
brewed coffee there all morning, served lunch and hosted her party in it. Worked by hand from her
file: her blocks at the cafe run 07:30-20:30 on the 14th, so they are one day off at home, and her
party there (17:00-19:00) is off; anyone who heard it keeps away from the cafe that day.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader

CLOSED = "Hobbs Cafe will be closed all day tomorrow for a deep clean, so no lunch service."


@pytest.fixture(scope="module")
def closed_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 13:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("closed") / "run.sqlite"
    whispered_run(path, "isabella_rodriguez", CLOSED, at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 14, 13))
    return path


def _plans(path) -> tuple[dict[str, list[dict]], set[str]]:
    """(each persona's day plan for the 14th, those who hold the cafe's closure when they plan it)."""
    with RunReader(path) as r:
        plans = {e.persona: e.data["items"] for e in r.events(kinds=[EventKind.PLAN])
                 if e.data["level"] == "day" and e.data["date"] == "2023-02-14"}
        told = {e.persona for e in r.events(kinds=[EventKind.MEMORY]) if e.time < datetime(2023, 2, 14)
                and (e.data.get("fact") or {}).get("closed") and e.data["fact"]["place"] == "the_ville:Hobbs Cafe"}
    return plans, told


def test_the_owner_takes_the_day_off_and_no_one_told_plans_the_cafe(closed_run):
    plans, told = _plans(closed_run)
    assert set(plans) == {"isabella_rodriguez", "klaus_mueller", "maria_lopez"}
    assert {"isabella_rodriguez", "maria_lopez"} <= told  # she tells Maria at 08:09 (worked from the run)
    isabella = [(i["start"][11:16], i["description"]) for i in plans["isabella_rodriguez"]]
    # her 07:00 block at the market, which the sign closes that morning, and the cafe's from 07:30:
    # one day off from 07:00
    assert ("07:00", "take the day off at home") in isabella
    assert not [i for p in told for i in plans[p] if (i.get("place") or "").startswith("the_ville:Hobbs Cafe")]
    assert not [d for _, d in isabella if "party" in d.lower()]


def test_asked_whether_the_cafe_is_open_she_says_no(closed_run, capsys):
    from town.cli import main

    assert main(["interview", str(closed_run), "--persona", "Isabella Rodriguez", "--at", "2023-02-14 12:00",
                 "Is the cafe open today?"]) == 0
    assert " ".join(capsys.readouterr().out.split()).count("No. Hobbs Cafe")


def test_a_closure_is_told_from_its_fields_and_is_no_event_to_be_at():
    """A fresh Smallville run (2026-12-07): Tom retold his whisper word for word, "Did you hear? The
    Willows Market is closing early tomorrow at 3pm for stocktaking, tell the regulars." (a
    closure's act "close" was not sayable), and at 15:05 the next day Tamara said "I'm glad I came
    to this event!" (the closure taken for an event under way). By hand from the fact."""
    from town.memory.fact import Fact
    from town.scripted.reply import retell
    from town.scripted.topics import event_now
    from town.thinking.questions import MemoryView

    early = Fact(act="close", place="smallville:The Willows Market and Pharmacy", start=datetime(2023, 2, 14, 15),
                 closed=True)
    whisper = MemoryView(id=1, kind="whisper", importance=7, created="2023-02-13 07:00:00", fact=early,
                         content="The Willows Market is closing early on Tuesday at 3pm for stocktaking, tell the "
                                 "regulars.")
    assert retell(whisper, datetime(2023, 2, 13, 7, 1), "Tom Moreno") == (
        "Did you hear? The Willows Market and Pharmacy closes early tomorrow at 3pm.")
    assert event_now([whisper], datetime(2023, 2, 14, 15, 5)) is None


def test_anothers_word_puts_off_no_event_of_ones_own_nor_closes_ones_workplace():
    """A fresh user's runs (2026-12-07): Jennifer, whispered "Isabella called off the Valentine's Day
    party", told it on until Isabella herself said "I heard from Sam that I have called off the
    Valentine's Day party" and dropped it; "Hobbs Cafe will be closed all day tomorrow", told to
    Isabella by Maria, sent her home from her own cafe. By hand: the host and the owner know; a
    guest who heard the same is told."""
    from town.memory.fact import Fact
    from town.scripted.backend import _closed_blocks
    from town.textevent import place_names
    from town.thinking.dayplan import events_on
    from town.thinking.questions import MemoryView
    from asked import routine

    party = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="the_ville:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
    held = MemoryView(id=1, kind="observation", importance=8, created="2023-02-13 07:00:00", fact=party,
                      content="I am hosting a Valentine's Day party at Hobbs Cafe on February 14 from 5pm to 7pm.")
    rumour = MemoryView(id=2, kind="chat", importance=6, created="2023-02-13 09:00:00", tellers=("Sam Moore",),
                        fact=Fact(act="be the Valentine's Day party", cancelled=True),
                        content="Sam Moore told me that the Valentine's Day party is cancelled.")
    places = place_names(("the_ville:Hobbs Cafe",))
    tuesday = datetime(2023, 2, 14).date()
    assert [e.start for e, _ in events_on([held, rumour], tuesday, places, "Isabella Rodriguez")] == [party.start]
    assert events_on([held, rumour], tuesday, places, "Maria Lopez") == []
    shut = Fact(act="close", place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 10), part="day", closed=True,
                host="Maria Lopez")  # heard from Maria (called_off keeps the teller as its host)
    cafe = routine(("00:00", "07:00", "sleeping", "the_ville:Isabella Rodriguez's apartment:bedroom:bed"),
                   ("08:00", "20:00", "serve customers", "the_ville:Hobbs Cafe:cafe:counter", "serve customers"))
    assert _closed_blocks(cafe, [shut], tuesday, "Isabella Rodriguez") == []
    latte = routine(("00:00", "07:00", "sleeping", "the_ville:Dorm for Oak Hill College:Maria Lopez's room:bed"),
                    ("08:00", "09:00", "drink a latte at Hobbs Cafe", "the_ville:Hobbs Cafe:cafe:corner table"))
    assert [d for _, d in _closed_blocks(latte, [replace(shut, host="Klaus Mueller")], tuesday, "Maria Lopez")] == [
        "stay home instead of drinking a latte at Hobbs Cafe"]


def test_ones_own_closure_told_back_still_closes_ones_shop_and_a_rumour_of_ones_own_event_is_anothers_word():
    """A fresh user's runs (2026-12-07): Carmen, whispered "Harvey Oak Supply Store will be closed all
    day on Tuesday", served at its counter all Tuesday, since the news came back to her from a
    customer and her memory gained a teller (so the closure was taken for another's word); Klaus's
    "I heard Isabella called off her Valentine's party", told to Isabella, put off her own party
    ("Maria told me that I have called off ..."). By hand: a thought of one's own told back is
    still one's own (its kind is no "chat"); a line heard saying that one called off one's own
    event is the teller's word."""
    from town.memory.fact import Fact
    from town.realise import heard
    from town.scripted.backend import _closed_blocks
    from town.textevent import place_names
    from town.thinking.dayplan import called_off, events_on
    from town.thinking.questions import MemoryView
    from asked import routine

    shut = Fact(act="close", place="smallville:Harvey Oak Supply Store", start=datetime(2023, 2, 14, 10), part="day",
                closed=True)
    mine = MemoryView(id=1, kind="whisper", importance=7, created="2023-02-13 07:00:00", fact=shut,
                      tellers=("Tamara Taylor",),
                      content="Harvey Oak Supply Store will be closed all day on Tuesday for stocktaking.")
    assert called_off([mine], "Carmen Ortiz") == [shut]
    shop = routine(("00:00", "06:30", "sleeping", "smallville:Tamara Taylor and Carmen Ortiz's house:bedroom:bed"),
                   ("08:00", "12:00", "serve customers", "smallville:Harvey Oak Supply Store:shop:counter", "serve customers"),
                   ("12:00", "13:00", "eat lunch at Hobbs Cafe", "smallville:Hobbs Cafe:cafe:corner table", "eat lunch"),
                   ("13:00", "18:00", "restock shelves", "smallville:Harvey Oak Supply Store:shop:counter", "serve customers"))
    tuesday = datetime(2023, 2, 14).date()
    assert [(e.start.hour, e.end.hour, d) for e, d in _closed_blocks(shop, called_off([mine], "Carmen Ortiz"), tuesday,
                                                                     "Carmen Ortiz")] == [
        (8, 12, "take the day off at home"), (13, 18, "take the rest of the day off at home")]
    party = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="the_ville:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
    held = MemoryView(id=2, kind="observation", importance=8, created="2023-02-13 07:00:00", fact=party,
                      content="I am hosting a Valentine's Day party at Hobbs Cafe on February 14 from 5pm to 7pm.")
    said_of_her = Fact(act="be the Valentine's party", host="Isabella Rodriguez", cancelled=True)
    rumour = MemoryView(id=3, kind="chat", importance=6, created="2023-02-13 13:00:00", tellers=("Maria Lopez",),
                        fact=said_of_her, content="Maria Lopez told me that the Valentine's party is cancelled.")
    places = place_names(("the_ville:Hobbs Cafe",))
    assert [e.start for e, _ in events_on([held, rumour], tuesday, places, "Isabella Rodriguez")] == [party.start]
    assert heard(said_of_her, [("Maria", datetime(2023, 2, 13, 13))], "Isabella Rodriguez") == \
        "Maria told me that the Valentine's party is cancelled."


def test_a_rumour_is_not_believed_once_the_host_tells_the_event_after_it():
    """A fresh user's second round (2026-12-07): Maria, told by Klaus "I heard Isabella cancelled her
    party" at 07:32, was invited by Isabella herself at 08:09, said "Count me in", and skipped the
    party; asked "Is the party cancelled? Klaus said it was." she said yes. By hand: the host's own
    word came after the rumour, so the party is on, the rumour is no news, and the answer is no."""
    from town.memory.fact import Fact
    from town.scripted.interview import answer_interview
    from town.scripted.talk import worth_telling
    from town.textevent import place_names
    from town.thinking.dayplan import called_off, events_on
    from town.thinking.questions import AnswerInterview, MemoryView

    rumour = MemoryView(id=1, kind="chat", importance=6, created="2023-02-13 07:32:10", tellers=("Klaus Mueller",),
                        fact=Fact(act="be the party", host="Isabella Rodriguez", cancelled=True),
                        content="Klaus Mueller told me that the party is cancelled.")
    party = Fact(act="plan a Valentine's Day party", subject="Isabella Rodriguez", host="Isabella Rodriguez",
                 place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19))
    invited = MemoryView(id=2, kind="chat", importance=8, created="2023-02-13 08:09:40", tellers=("Isabella Rodriguez",),
                         fact=party, content="Isabella Rodriguez told me that she is planning a Valentine's Day party at "
                                             "Hobbs Cafe tomorrow from 5pm to 7pm.")
    tuesday = datetime(2023, 2, 14).date()
    assert called_off([rumour, invited], "Maria Lopez") == []
    assert [e.start for e, _ in events_on([rumour, invited], tuesday, place_names(("the_ville:Hobbs Cafe",)),
                                          "Maria Lopez")] == [party.start]
    assert worth_telling([rumour, invited], "Ann Able", "Maria Lopez", now=datetime(2023, 2, 13, 12)) == [invited]
    early = replace(invited, created="2023-02-13 07:00:00")  # told before the rumour: the rumour stands
    assert called_off([rumour, early], "Maria Lopez") == [replace(rumour.fact)]
    answer = answer_interview(AnswerInterview(
        persona="maria_lopez", persona_name="Maria Lopez", persona_summary="Maria Lopez studies physics.",
        question="Is the party cancelled? Klaus said it was.", memories=(rumour, invited), now="2023-02-14 12:00:00",
        people=("Isabella Rodriguez", "Klaus Mueller", "Maria Lopez")))
    assert answer.answer.startswith("No. Isabella told me that she is planning a Valentine's Day party"), answer.answer


def test_a_place_closing_early_is_worked_until_then_and_open_before_it():
    """A fresh user's second round (2026-12-07): "Hobbs Cafe will close early tomorrow at 3pm" sent
    Isabella home at 14:00 ("take the rest of the day off at home"); Maria, asked at noon "Is Hobbs
    Cafe open now?", said no; Klaus, told the pub shut early on Monday, said no of Tuesday night.
    By hand: her 14:00-17:00 block is worked until 15:00 and spent at home from then; open at
    noon, shut at 16:00; Monday's closure says the pub is open on Tuesday as far as he knows."""
    from town.memory.fact import Fact
    from town.scripted.backend import _closed_blocks
    from town.scripted.interview import answer_interview
    from town.thinking.questions import AnswerInterview, MemoryView
    from asked import routine

    early = Fact(act="close", place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 15), closed=True)
    cafe = routine(("00:00", "07:00", "sleeping", "the_ville:Isabella Rodriguez's apartment:bedroom:bed"),
                   ("14:00", "17:00", "serve customers", "the_ville:Hobbs Cafe:cafe:counter", "serve customers"))
    tuesday = datetime(2023, 2, 14).date()
    assert [(e.start.hour, e.end.hour, d) for e, d in _closed_blocks(cafe, [early], tuesday, "Isabella Rodriguez")] == [
        (15, 17, "stay home instead of serving customers")]
    told = MemoryView(id=1, kind="chat", importance=6, created="2023-02-13 09:00:00", tellers=("Isabella Rodriguez",),
                      fact=early, content="Isabella Rodriguez told me that Hobbs Cafe closes early tomorrow at 3pm.")
    pub = MemoryView(id=2, kind="whisper", importance=6, created="2023-02-13 09:00:00",
                     fact=Fact(act="close", place="the_ville:The Rose and Crown Pub", start=datetime(2023, 2, 13, 18),
                               closed=True),
                     content="the Rose and Crown is shutting down early tonight at 6pm, staff shortage")

    def asked(question: str, at: str) -> str:
        return answer_interview(AnswerInterview(
            persona="maria_lopez", persona_name="Maria Lopez", persona_summary="Maria Lopez studies physics.",
            question=question, memories=(told, pub), now=at, people=("Isabella Rodriguez", "Maria Lopez"))).answer

    assert asked("Is Hobbs Cafe open now?", "2023-02-14 12:00:00").startswith("Yes.")
    assert asked("Is Hobbs Cafe open now?", "2023-02-14 16:00:00").startswith("No.")
    assert asked("Is the pub open tonight?", "2023-02-14 12:00:00").startswith("Yes, as far as I know.")


def test_a_place_closed_in_a_part_of_the_day_is_not_open_then():
    """A fresh user's third round (2026-12-07): Isabella, holding the sign that The Willows Market
    "will close tomorrow morning", asked on that day at noon "Is the market open this morning?",
    said "Yes. The Willows Market and Pharmacy is closed this morning." (the question's "morning"
    was 09:00, the closure told by its part from 10:00). By hand: closed all that morning (asked
    of the morning, or at 08:00: a morning's closure holds from the day's start), the day before
    open; a closure told "tonight" (19:00) holds for "this evening" (asked as 18:00), not at noon."""
    from town.memory.fact import Fact
    from town.scripted.interview import answer_interview
    from town.thinking.questions import AnswerInterview, MemoryView

    sign = MemoryView(id=16, kind="observation", importance=5, created="2023-02-13 09:00:00",
                      fact=Fact(act="close", place="the_ville:The Willows Market and Pharmacy",
                                start=datetime(2023, 2, 14, 10), part="morning", closed=True),
                      content="A sign on the door of The Willows Market and Pharmacy says it will close tomorrow "
                              "morning for renovation.")

    def asked(question: str, at: str) -> str:
        return answer_interview(AnswerInterview(
            persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Isabella runs a cafe.",
            question=question, memories=(sign,), now=at, people=("Isabella Rodriguez", "Maria Lopez"))).answer

    assert asked("Is the market open this morning?", "2023-02-14 12:00:00").startswith("No.")
    assert asked("Is the market open now?", "2023-02-14 08:00:00").startswith("No.")
    assert asked("Is the market closed this morning?", "2023-02-14 12:00:00").startswith("Yes.")
    assert asked("Is the market open now?", "2023-02-13 12:00:00").startswith("Yes, as far as I know.")
    assert asked("Can I buy milk at the market right now?", "2023-02-14 08:30:00").startswith("No."), \
        asked("Can I buy milk at the market right now?", "2023-02-14 08:30:00")  # a fresh user's fourth round
    evening = MemoryView(id=17, kind="whisper", importance=6, created="2023-02-14 09:00:00",
                         fact=Fact(act="close", place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 14, 19),
                                   part="evening", closed=True),
                         content="I feel exhausted and want to close the cafe early tonight.")

    def of_cafe(question: str, at: str) -> str:
        return answer_interview(AnswerInterview(
            persona="isabella_rodriguez", persona_name="Isabella Rodriguez", persona_summary="Isabella runs a cafe.",
            question=question, memories=(evening,), now=at, people=("Isabella Rodriguez", "Maria Lopez"))).answer

    assert of_cafe("Is Hobbs Cafe open this evening?", "2023-02-14 12:00:00").startswith("No.")  # 18:00 asked
    assert of_cafe("Is Hobbs Cafe open now?", "2023-02-14 12:00:00").startswith("Yes.")


def test_a_routine_block_whose_doing_is_cancelled_is_spent_at_home_and_is_no_clash():
    """A fresh user's fifth round: Smallville's "the town council session on Tuesday is
    CANCELLED" (Sam) left Sam, Adam and Yuriko at the council chamber on Tuesday at 16:00, and Sam
    declined the party naming the session. By hand: the session is called off that Tuesday, so
    Sam's 16:00-18:00 session block is spent at home and is no clash with a party then; on
    Wednesday, and for a block doing something else at Town Hall, nothing changes."""
    from town.memory.fact import Fact
    from town.scripted.attend import decide
    from town.scripted.backend import _closed_blocks
    from town.reading import read_fact
    from town.textevent import StatedEvent, place_names
    from town.thinking.questions import MemoryView
    from asked import routine

    places = place_names(("smallville:Town Hall", "smallville:Hobbs Cafe"))
    off = read_fact("the town council session on Tuesday is CANCELLED", datetime(2023, 2, 13, 8), places,
                    ["Sam Moore"], "Sam Moore")
    assert off is not None and off.cancelled
    sam = routine(("00:00", "07:00", "sleeping", "smallville:Moore family's house:bedroom:bed"),
                  ("09:00", "15:00", "work on the campaign", "smallville:Town Hall:office:desk", "campaign"),
                  ("16:00", "18:00", "attend the town council session at Town Hall",
                   "smallville:Town Hall:council chamber:public bench", "attend council session"))
    tuesday, wednesday = datetime(2023, 2, 14).date(), datetime(2023, 2, 15).date()
    assert _closed_blocks(sam, [off], tuesday, "Sam Moore") == [
        (StatedEvent(place="smallville:Moore family's house:bedroom", start=datetime(2023, 2, 14, 16),
                     end=datetime(2023, 2, 14, 18)), "stay home instead of attending the town council session at Town Hall")]
    assert _closed_blocks(sam, [off], wednesday, "Sam Moore") == []
    held = MemoryView(id=1, kind="whisper", importance=7, created="2023-02-13 07:00:00", fact=off,
                      content="the town council session on Tuesday is CANCELLED")
    party = StatedEvent(place="smallville:Hobbs Cafe", start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19))
    told = MemoryView(id=2, kind="chat", importance=6, created="2023-02-13 09:00:00", tellers=("Isabella Rodriguez",),
                      fact=Fact(subject="Isabella Rodriguez", act="host a party", place="smallville:Hobbs Cafe",
                                start=party.start, end=party.end, host="Isabella Rodriguez", invited=("everyone",)),
                      content="Isabella Rodriguez told me that she is hosting a party at Hobbs Cafe.")
    kept = decide(party, [told], routine=sam, memories=[told], summary="Sam Moore. Traits: calm.", seed=0,
                  me="Sam Moore")
    freed = decide(party, [told], routine=sam, memories=[told, held], summary="Sam Moore. Traits: calm.", seed=0,
                   me="Sam Moore")
    assert kept.clash == sam[2] and freed.clash is None
    from town.scripted import ScriptedBackend
    from town.thinking.questions import PlanDay

    q = PlanDay(persona="sam_moore", persona_name="Sam Moore", date="2023-02-14", routine=sam, memories=(held,),
                places=("smallville:Town Hall", "smallville:Moore family's house"))
    assert [(a.start, a.minutes, a.description) for a in ScriptedBackend().ask(q).add] == [
        ("16:00", 120, "stay home instead of attending the town council session at Town Hall")]
