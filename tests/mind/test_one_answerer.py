"""One answerer: a question a persona or a player asks in conversation gets the answer an
interviewer gets, from the same memories (town.scripted.interview.answer), and each kind says
its fact from the records' typed fields: the decision's reason, the plan's item and why, the
places of the plans, what a heard fact states.

Worked out by hand: Sam's plan for Tuesday 14 February holds the decision not to go to the
Valentine's Day party at Hobbs Cafe (17:00-19:00) "because I have to attend the town council
session at Town Hall until 18:00"; his plans put his lunch at Hobbs Cafe (60 minutes a day) and
his work at Town Hall (4 hours a day)."""

from __future__ import annotations

from datetime import datetime

import pytest

from town.memory.fact import Decided, Fact, PlanItem
from town.scripted import ScriptedBackend
from town.thinking.questions import MemoryView, NextLine

from asked import ask, routine

WHO = dict(persona="sam_moore", persona_name="Sam Moore",
           persona_summary="Sam Moore is a retired carpenter running for mayor. Traits: quiet, reserved.")
ROUTINE = routine(("00:00", "07:00", "sleeping", "v:Moore house:bedroom:bed"),
                  ("09:00", "13:00", "work on my plans for the town", "v:Town Hall:campaign office:desk",
                   "work on town plans"),
                  ("13:00", "14:00", "have lunch", "v:Hobbs Cafe:cafe:table"),
                  ("16:00", "18:00", "attend the town council session", "v:Town Hall:council chamber:seat",
                   "attend the session"))


def _day(day: int) -> tuple[PlanItem, ...]:
    at = lambda h: datetime(2023, 2, day, h)  # noqa: E731
    return (PlanItem(start=at(0), end=at(7), description="sleeping", place="v:Moore house:bedroom:bed"),
            PlanItem(start=at(9), end=at(13), description="work on my plans for the town",
                     place="v:Town Hall:campaign office:desk"),
            PlanItem(start=at(13), end=at(14), description="have lunch", place="v:Hobbs Cafe:cafe:table"),
            PlanItem(start=at(16), end=at(18), description="attend the town council session",
                     place="v:Town Hall:council chamber:seat"))


PARTY = Fact(subject="Isabella Rodriguez", act="hold a Valentine's Day party", place="v:Hobbs Cafe",
             start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19))
REASON = "I have to attend the town council session at Town Hall until 18:00"
MEMORIES = (
    MemoryView(id=4, kind="chat", importance=6, created="2023-02-13 08:11:40", fact=PARTY,
               tellers=("Maria Lopez",),
               content="Maria Lopez told me that Isabella Rodriguez is holding a Valentine's Day party at Hobbs "
                       "Cafe on Tuesday, February 14 from 5pm to 7pm"),
    MemoryView(id=2, kind="plan", importance=3, created="2023-02-13 00:00:00", plan_items=_day(13),
               content="Sam Moore's plan for Monday February 13: 09:00 work on my plans for the town"),
    MemoryView(id=9, kind="plan", importance=3, created="2023-02-14 00:00:00", plan_items=_day(14),
               content="Sam Moore's plan for Tuesday February 14: 09:00 work on my plans for the town",
               decisions=(Decided(place="v:Hobbs Cafe", start=datetime(2023, 2, 14, 17),
                                  end=datetime(2023, 2, 14, 19), go=False, reason=REASON, evidence=(4,)),)),
)
NOW = "2023-02-14 10:00:00"


def _interview(question: str) -> tuple[str, list[int]]:
    answer = ask(**WHO, question=question, memories=MEMORIES, now=NOW,
                 routine=ROUTINE, people=("Sam Moore", "Maria Lopez"))
    return answer.answer, list(answer.evidence or ())


def _chat(question: str) -> str:
    history = (("Maria Lopez", "Good morning, Sam!"), ("Sam Moore", "Good morning, Maria."), ("Maria Lopez", question))
    return ScriptedBackend().ask(NextLine(**WHO, seed=1, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=MEMORIES, recalled=MEMORIES, now=NOW,
                                          routine=ROUTINE)).line


@pytest.mark.parametrize("question, said, cited", [
    ("Are you going to the Valentine's Day party? Why?",
     f"No, I'm not going to the Valentine's Day party at Hobbs Cafe today, because {REASON}.", [9, 4]),
    ("What are you doing at 13:00 today, and why?",
     "At 13:00 I'll be having lunch at Hobbs Cafe, because it is what I usually do at that hour.", [9]),
    ("What are you doing at 11:00 today, and why?",
     "At 11:00 I'll be working on my plans for the town at Town Hall, because it is part of my work.", [9]),
    ("What's your favourite place to eat?", "I like eating at Hobbs Cafe best: I have lunch there most days.", [9, 2]),
    # a favourite thing of a kind: the plan item doing it, none ("drink"): not another thing's
    ("What's your favourite session?", "I like attending the town council session best; I do it most days.", [9, 2]),
    ("What is your favourite drink?", "I don't really have a favourite drink.", []),
    # where an event is: its fact's place (its words say "at Hobbs Cafe"; a room of a building
    # in lower case, "at the common room of Dorm for Oak Hill College", was no place to them)
    ("Where is the Valentine's Day party?", "Hobbs Cafe, as far as I know. Maria told me that Isabella Rodriguez is "
     "holding a Valentine's Day party at Hobbs Cafe today from 5pm to 7pm.", [4]),
    ("Do you prefer Johnson Park or Town Hall?",
     "I prefer Town Hall: it's part of most of my days, and I hardly ever do the other.", [9, 2]),
])
def test_a_question_gets_the_same_answer_in_talk_and_in_an_interview(question, said, cited):
    assert _interview(question) == (said, cited)
    assert _chat(question) == said


def test_an_opinion_states_the_heard_fact_and_the_decision_with_its_reason():
    said, cited = _interview("What do you think of the Valentine's Day party?")
    assert said == ("Maria told me that Isabella Rodriguez is holding a Valentine's Day party at Hobbs Cafe today "
                    f"from 5pm to 7pm. It sounds nice, but I'm not going, because {REASON}.")
    assert cited == [4, 9]


def test_a_hypothetical_is_answered_from_the_traits_and_the_work_of_the_day():
    said, cited = _interview("What would you do if you won the lottery?")
    assert said == ("I'd keep it to myself and take my time; I'm quiet that way. I'd still go and work on my "
                    "plans for the town at Town Hall, since people count on me there.")  # good news: no trouble
    assert cited == [9]


def test_a_feeling_about_a_person_says_the_talks_and_what_they_told_never_a_plan():
    """As found: "How do you feel about Carmen Ortiz?" got "I like Carmen.", an event, then the
    whole day plan pasted. Sam talked with Maria once (memory 4, told by her): that, and what she
    told, realised from the fact; his plans (2, 9) are not said."""
    said, cited = _interview("How do you feel about Maria Lopez?")
    assert said == ("I like Maria: we talked recently. Most recently, Maria told me that Isabella Rodriguez "
                    "is holding a Valentine's Day party at Hobbs Cafe today from 5pm to 7pm.")
    assert cited == [4]
    assert _chat("How do you feel about Maria Lopez?") == said


def test_the_askers_own_words_are_never_the_answer():
    """Maria's own words, kept as she said them (no fact held), bear on her question: in talk they
    are no answer of Sam's, so nothing of his memory bears on it and he says he does not know."""
    hers = MemoryView(id=12, kind="chat", importance=3, created="2023-02-14 09:00:00",
                      content='Maria Lopez told me: "I love the quiet corner of the cafe at Hobbs Cafe"')
    history = (("Maria Lopez", "Good morning, Sam!"), ("Sam Moore", "Good morning, Maria."),
               ("Maria Lopez", "What happened in the quiet corner?"))
    line = ScriptedBackend().ask(NextLine(**WHO, seed=1, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=(hers,), recalled=(hers,), now=NOW,
                                          routine=ROUTINE)).line
    assert line == "I don't know anything about that."


def test_a_named_day_is_read_and_answered_for_that_day():
    """Before: "What are you doing on Wednesday?" got the plan item at the hour it was asked
    (10:00 on Tuesday), and "Are you going to the party on Wednesday?" a yes for Tuesday's party.
    Wednesday 15 February has no plan memory here, so it is the routine's day (lunch, a meal, is
    not news); the party (decision in plan 9, stated by memory 4) is on Tuesday, so that is said,
    with the decision and its reason."""
    assert _interview("What are you doing on Wednesday?") == (
        "On Wednesday I'll be working on my plans for the town at Town Hall and attending the town council "
        "session at Town Hall, as I usually do.", [])
    assert _interview("Are you going to the Valentine's Day party on Wednesday?") == (
        f"The Valentine's Day party at Hobbs Cafe is today, not on Wednesday; I'm not going, because {REASON}.",
        [9, 4])


def test_an_event_heard_of_on_another_day_is_undecided_not_the_plan_of_today_at_this_hour():
    """Before: Klaus, asked "Are you going to the bike repair stall on Thursday?" on Monday,
    answered "At 16:59 I'll be sleeping ..." (today's plan read at Thursday's hour). A heard event
    on the day asked of, not decided yet (no plan for that day), is said as heard."""
    stall = Fact(act="be a bike repair stall", place="v:Oak Hill College:library", start=datetime(2023, 2, 16, 15),
                 end=datetime(2023, 2, 16, 17))
    heard = MemoryView(id=7, kind="chat", importance=6, created="2023-02-14 09:00:00", fact=stall,
                       tellers=("Maria Lopez",), content="Maria Lopez told me that there is a bike repair stall ...")
    # asked in other words: a plural, and a noun naming an event of any kind
    for question in ("Are you going to the bike repair stall on Thursday?",
                     "Are you going to the stalls on Thursday?",
                     "Are you going to the bike repair event on Thursday?"):
        answer = ask(**WHO, question=question, memories=MEMORIES + (heard,), now=NOW, routine=ROUTINE,
                     people=("Sam Moore", "Maria Lopez"))
        assert (answer.answer, list(answer.evidence or ())) == (
            "I haven't decided yet; I'll see when I plan that day. Maria told me that there is a bike repair stall at "
            "the library of Oak Hill College on Thursday from 3pm to 5pm.", [7]), question



def test_why_one_goes_to_ones_own_event_is_answered_because_not_yes():
    """Before: "Why are you organising the workshop?" -> "Yes, of course, because it is my own
    plan ..." (a yes to a why). Not decided yet (no plan for Thursday): its own event, said so."""
    meet = Fact(subject="Sam Moore", act="host a town meeting", place="v:Town Hall", start=datetime(2023, 2, 16, 18),
                end=datetime(2023, 2, 16, 19), host="Sam Moore", invited=("everyone",))
    mine = MemoryView(id=8, kind="whisper", importance=9, created="2023-02-14 09:00:00", fact=meet,
                      content="I'm hosting a town meeting at Town Hall on Thursday from 6pm to 7pm; everyone is welcome.")
    said = ("it is my own plan, and I've invited everyone to it. I am hosting a town meeting at Town Hall on Thursday "
            "from 6pm to 7pm, and everyone is welcome.")
    for question, opening in (("Why are you going to the town meeting?", "Because"),
                              ("Are you going to the town meeting?", "Yes, of course, because")):
        answer = ask(**WHO, question=question, memories=MEMORIES + (mine,), now=NOW, routine=ROUTINE,
                     people=("Sam Moore", "Maria Lopez"))
        assert (answer.answer, list(answer.evidence or ())) == (f"{opening} {said}", [8])


def test_where_ones_own_event_is_has_no_hedge():
    """Its host says where it is without "as far as I know"; a room in lower case is its fact's
    place (before: "the common room of Dorm for Oak Hill College" was not read from the words)."""
    meet = Fact(subject="Sam Moore", act="host a chess tournament", place="v:Dorm for Oak Hill College:common room",
                start=datetime(2023, 2, 15, 19), host="Sam Moore", invited=("everyone",))
    mine = MemoryView(id=8, kind="whisper", importance=9, created="2023-02-14 09:00:00", fact=meet,
                      content="I'm hosting a chess tournament in the common room on Wednesday at 7pm.")
    answer = ask(**WHO, question="Where is the chess tournament?", memories=MEMORIES + (mine,), now=NOW,
                 routine=ROUTINE, people=("Sam Moore", "Maria Lopez"))
    assert answer.answer == ("The common room of Dorm for Oak Hill College. I am hosting a chess tournament at the "
                             "common room of Dorm for Oak Hill College tomorrow at 7pm, and everyone is welcome.")

