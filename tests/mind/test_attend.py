"""Going to an event one heard of is a decision: a clash with one's own obligations elsewhere
(not leisure, not chores at home), how one knows the host or teller, and one's traits; seeded,
and recorded with its reason in the day plan's answer (town.scripted.attend)."""

from __future__ import annotations

import random
import re
import zlib

import pytest

from town.scripted.attend import P_CLASH, P_CLASH_CLOSE, clash_with, decline_reason
from town.thinking.questions import MemoryView, NextLine, PlanDay, PlanItemView
from town.scripted import ScriptedBackend

ROUTINE = (
    PlanItemView(start="00:00", end="07:00", description="sleeping", place="w:Ann's home:ann room:bed"),
    PlanItemView(start="08:00", end="17:00", description="serve coffee", place="w:Corner Cafe:cafe:counter",
                 task="serve customers"),
    PlanItemView(start="17:00", end="18:00", description="cook dinner", place="w:Ann's home:kitchen:stove",
                 task="cook dinner"),
    PlanItemView(start="18:00", end="22:00", description="read a book", place="w:Ann's home:ann room:armchair"),
    PlanItemView(start="22:00", end="24:00", description="sleeping", place="w:Ann's home:ann room:bed"),
)
PLACES = ("w:Ann's home", "w:Corner Cafe", "w:Corner Cafe:cafe", "w:Green Park")
PICNIC = 'Cat Cole told me: "Bob Brown told me: "I am hosting a picnic at Green Park tomorrow from 12pm to 1pm.""'
QUIZ = 'Cat Cole told me: "Bob Brown told me: "I am hosting a quiz at Green Park tomorrow from 5pm to 7pm.""'
FRIEND = "Bob Brown is my friend from the choir."


def _plan(*texts: str, seed: int = 0, summary: str = "Ann Able, 40. Traits: calm."):
    memories = tuple(MemoryView(id=i, content=t, kind="chat", importance=6, created="2023-02-13 12:00:00")
                     for i, t in enumerate(texts))
    q = PlanDay(persona="ann", persona_name="Ann Able", persona_summary=summary, seed=seed, date="2023-02-14",
                routine=ROUTINE, memories=memories, places=PLACES, attend_seed=seed)
    return ScriptedBackend().ask(q)


def test_work_elsewhere_clashes_leisure_and_chores_at_home_do_not():
    """12:00-13:00 falls in serving coffee at Corner Cafe (a task elsewhere). 17:00-19:00 covers
    cooking dinner (a task at home) and reading (leisure): no clash. At Corner Cafe itself, work
    there is no clash either."""
    assert clash_with(ROUTINE, "12:00", "13:00", "w:Green Park") == ROUTINE[1]
    assert clash_with(ROUTINE, "17:00", "19:00", "w:Green Park") is None
    assert clash_with(ROUTINE, "12:00", "13:00", "w:Corner Cafe") is None
    assert decline_reason(ROUTINE[1]) == "I have to serve coffee at Corner Cafe until 17:00"
    late = PlanItemView(start="15:00", end="24:00", description="pour drinks at the bar", place="w:Rascón Arms:pub:bar")
    assert decline_reason(late) == "I have to pour drinks at the bar at Rascón Arms until midnight"


def test_a_clash_with_work_is_declined_naming_it():
    answer = _plan(PICNIC)
    assert answer.add == []
    (choice,) = answer.events
    assert (choice.go, choice.reason, choice.clash, choice.evidence, choice.start) == (
        False, "I have to serve coffee at Corner Cafe until 17:00",
        "08:00-17:00 serve coffee at w:Corner Cafe:cafe:counter", [0], "2023-02-14 12:00")


def test_free_time_goes_and_the_block_says_what_it_is_for():
    answer = _plan(QUIZ)
    assert [(a.start, a.minutes, a.description, a.place) for a in answer.add] == [
        ("17:00", 120, "go to Green Park for the quiz", "w:Green Park")]
    assert [(c.go, c.reason) for c in answer.events] == [(True, "I am free then")]


def test_the_share_that_goes_anyway_follows_the_clash_and_the_tie():
    """Over 300 seeds: with the clash about P_CLASH (0.1) go; with a friend's memory naming the
    host, about P_CLASH_CLOSE (0.6), each reason naming the tie; without the clash, all go."""
    seeds = range(300)
    alone = sum(_plan(PICNIC, seed=s).events[0].go for s in seeds) / 300
    close = [_plan(PICNIC, FRIEND, seed=s).events[0] for s in seeds]
    assert abs(alone - P_CLASH) < 0.06
    assert abs(sum(c.go for c in close) / 300 - P_CLASH_CLOSE) < 0.1
    assert all(c.reason.endswith(f"but {FRIEND[:-1]}") for c in close if c.go)
    assert all(_plan(QUIZ, seed=s).events[0].go for s in seeds[:50])


def test_ones_own_event_is_kept():
    answer = _plan("I am hosting a picnic at Green Park tomorrow from 12pm to 1pm.")
    assert [(c.go, c.reason) for c in answer.events] == [(True, "it is my own plan")]
    assert [a.start for a in answer.add] == ["12:00"]


def test_a_talk_summary_stating_it_was_heard_not_planned():
    """"I talked with Cat Cole: ..." is Cat's news, not Ann's own plan: the clash declines it."""
    answer = _plan("I talked with Cat Cole: Bob is hosting a picnic at Green Park tomorrow from 12pm to 1pm.")
    assert [(c.go, c.reason) for c in answer.events] == [
        (False, "I have to serve coffee at Corner Cafe until 17:00")]


def test_a_walk_with_a_task_is_leisure_a_session_elsewhere_is_not():
    """17:00-18:00 instead of cooking dinner: a walk in Green Park (a task, but not at the
    workplace, Corner Cafe, 540 minutes, and no commitment word) does not clash with an event at
    the Plaza; a council session at Town Hall ("session", "council") does."""
    walk = PlanItemView(start="17:00", end="18:00", description="walk in Green Park", place="w:Green Park:path:bench",
                        task="take a walk")
    council = PlanItemView(start="17:00", end="18:00", description="watch the council session",
                           place="w:Town Hall:chamber:bench", task="attend council session")
    for extra, clash in ((walk, None), (council, council)):
        routine = (*ROUTINE[:2], extra, *ROUTINE[3:])
        assert clash_with(routine, "17:00", "18:00", "w:Plaza") == clash


def _invited(line: str, seed: int = 0, summary: str = "Ann Able, 40. Traits: calm.", attend_seed: int = 0):
    """Bob Brown says ``line`` to Ann on Monday 2023-02-13 at 10:00; her reply."""
    q = NextLine(persona="ann", persona_name="Ann Able", persona_summary=summary, seed=seed, listener="bob",
                 listener_name="Bob Brown", history=(("Ann Able", "Hi Bob!"), ("Bob Brown", line)),
                 now="2023-02-13 10:00:00", routine=ROUTINE, places=PLACES, attend_seed=attend_seed)
    return ScriptedBackend().ask(q).line


#: The voice's ways to accept and to decline (town.scripted.voice.Voice.accept / decline).
_ACCEPTS = re.compile(r"^(?:I'd love to come|Count me in|I'll be there|Sounds wonderful, I'll come|Of course I'll come) "
                      r"(?P<when>\w+)")
_DECLINES = re.compile(r"^(?:I'd love to, but|I wish I could, but|Sadly|That sounds lovely, but|I'm sorry, but) "
                       r"(?P<reason>.+?)(?:, \w+)?\.$")


def test_the_spoken_reply_to_an_invitation_is_the_day_plans_decision():
    """Invited to a picnic at Green Park tomorrow 12:00-13:00, which falls in serving coffee at
    Corner Cafe 08:00-17:00 (a task at another place): the reply declines naming it, in the words
    the day plan's decision gives for the same picnic heard from Bob, said on Monday of Tuesday's
    work: "... until 17:00 tomorrow". Ann is calm (no sociable or
    reserved trait) and ties to no one, so going anyway has P_CLASH (0.1); seed 0 draws above it,
    both in the line (seed 0) and in the plan (seed 0). At 18:00-19:00 she reads at home
    (leisure, at home): no clash, a calm persona is free, P_FREE = 1, and she accepts."""
    picnic = "I am hosting a picnic at Green Park tomorrow from 12pm to 1pm. Would you like to come?"
    reason = "I have to serve coffee at Corner Cafe until 17:00"
    assert _DECLINES.match(_invited(picnic)).group("reason") == f"{reason} tomorrow"
    (choice,) = _plan('Bob Brown told me: "I am hosting a picnic at Green Park tomorrow from 12pm to 1pm."').events
    assert (choice.go, choice.reason) == (False, reason)
    evening = "I am hosting a picnic at Green Park tomorrow from 6pm to 7pm. Would you like to come?"
    assert _ACCEPTS.match(_invited(evening)).group("when") == "tomorrow"
    (choice,) = _plan('Bob Brown told me: "I am hosting a picnic at Green Park tomorrow from 6pm to 7pm."').events
    assert (choice.go, choice.reason) == (True, "I am free then")


#: The voice's ways to mean to go to an event the partner only passed on (Voice.accept, relayed).
_MEANS_TO_GO = re.compile(r"^(?:I think I'll go|I'd like to go|I might go along|Sounds lovely, I'll try to go) "
                          r"(?P<when>\w+)")


@pytest.mark.parametrize("seed", range(10))
def test_news_of_anothers_event_passed_on_is_no_invitation_to_accept(seed):
    """Before: "Count me in tomorrow, Abigail! Thanks for asking me." to Abigail, who had only
    passed on Isabella's party. Bob passes on Cat's party at 18:00-19:00 tomorrow (Ann is free
    then, as above: she goes); whatever the seed, Ann means to go and thanks Bob for the news,
    never "Count me in" nor "Thanks for asking me"; Bob's own picnic is still accepted as his.
    Before, at the party itself: "I might go along today" (told of it while it was under way)."""
    for frame in ("Cat Cole told me that {s}", "I heard from Cat that {s}", "According to Cat, {s}"):
        said = _invited(frame.format(s="Cat Cole is hosting a party at Green Park tomorrow from 6pm to 7pm."),
                        seed=seed)
        assert _MEANS_TO_GO.match(said).group("when") == "tomorrow", said
        assert "asking" not in said and "Count me in" not in said
    own = _invited("I am hosting a picnic at Green Park tomorrow from 6pm to 7pm. Would you like to come?", seed=seed)
    assert _ACCEPTS.match(own), own
    # told of it while it is under way (10:00, 9am-11am): nothing to go to later, no yes or no
    now = _invited("Cat Cole told me that Cat Cole is hosting a party at Green Park today from 9am to 11am.", seed=seed)
    assert not (_MEANS_TO_GO.match(now) or _ACCEPTS.match(now) or _DECLINES.match(now)), now


def test_the_spoken_reply_and_the_day_plan_draw_alike():
    """The line and the plan are different questions (seeds 1000 + s and s) of one persona whose
    ``attend_seed`` is s: the picnic clashes with work and Ann ties to no one, so both go with
    P_CLASH, by one draw, Random(s ^ crc32("w:Green Park|2023-02-14 12:00:00")) < P_CLASH. Over
    200 attend seeds the reply accepts exactly when the plan goes, on the seeds that draw computes."""
    picnic = "I am hosting a picnic at Green Park tomorrow from 12pm to 1pm. Would you like to come?"
    heard = 'Bob Brown told me: "I am hosting a picnic at Green Park tomorrow from 12pm to 1pm."'
    crc = zlib.crc32(b"w:Green Park|2023-02-14 12:00:00")
    expected = [s for s in range(200) if random.Random(s ^ crc).random() < P_CLASH]
    spoken = [s for s in range(200) if _ACCEPTS.match(_invited(picnic, seed=1000 + s, attend_seed=s))]
    planned = [s for s in range(200) if _plan(heard, seed=s).events[0].go]
    assert spoken == planned == expected
    assert 5 < len(expected) < 40  # about 0.1 of 200: the draw varies with the seed


def test_a_clash_that_names_its_place_says_it_once():
    """Sam Moore's routine reads "attend the town council session at Town Hall" at Town Hall: the
    reason names Town Hall once ("... at Town Hall until 18:00", not "at Town Hall at Town Hall")."""
    session = PlanItemView(start="16:00", end="18:00", description="attend the town council session at Town Hall",
                           place="w:Town Hall:council chamber:public bench", task="attend the session")
    assert decline_reason(session) == "I have to attend the town council session at Town Hall until 18:00"
    assert decline_reason(ROUTINE[1]) == "I have to serve coffee at Corner Cafe until 17:00"
    late = PlanItemView(start="15:00", end="24:00", description="pour drinks at the bar", place="w:Rascón Arms:pub:bar")
    assert decline_reason(late) == "I have to pour drinks at the bar at Rascón Arms until midnight"


def test_news_of_a_thing_there_is_at_a_place_and_time_is_answered_as_an_invitation():
    """"Did you hear? There is a movie marathon at Green Park today at 9pm." names no party or
    invitation, yet states a thing to go to (a whisper no test used, met with "That's great to
    hear"): Ann, free from 18:00 (reading, leisure), means to go, as one told of another's event
    does (:data:`town.scripted.voice.RELAYED_ACCEPTS`)."""
    line = _invited("Did you hear? There is a movie marathon at Green Park today at 9pm.")
    assert line.startswith(("I think I'll go today", "I'd like to go today", "I might go along today",
                            "Sounds lovely, I'll try to go today")), line


def test_a_declines_clash_is_on_the_events_own_day_and_hours():
    """Found (the_ville, a book club whispered for Wednesday 4pm): Isabella, invited on Tuesday at
    17:05, said "Sadly I have to serve customers ... until 17:00" (past already, and no day said),
    and of an event on 24 February "I have to brew coffee and serve the morning customers ...
    until 12:00". Invited on Monday 13 Feb at 10:00, Ann (calm, seed 0: draws above P_CLASH, 0.1)
    names the day of the clash: tomorrow's picnic 12-1pm falls in serving coffee 08:00-17:00
    ("until 17:00 tomorrow"), Friday's the same ("until 17:00 on Friday"). An art show told by its
    day alone, 24 Feb, has no hours to clash with: a calm persona free then goes (P_FREE, 1),
    saying its date (eleven days ahead: no weekday)."""
    said = ("That sounds lovely, but I have to serve coffee at Corner Cafe until 17:00 {}, Bob.")
    assert _invited("I am hosting a picnic at Green Park tomorrow from 12pm to 1pm. Would you like to come?") == (
        said.format("tomorrow"))
    assert _invited("I am hosting a picnic at Green Park on Friday from 12pm to 1pm. Would you like to come?") == (
        said.format("on Friday"))
    assert _invited("I am hosting an art show at Green Park on February 24. Would you like to come?") == (
        "Sounds wonderful, I'll come on February 24, Bob!")


@pytest.mark.parametrize("trait, line", [
    ("reserved", "Maybe not this time: I'm not one for crowds, to be honest, Bob."),
    ("quiet", "Maybe not this time: I'd rather keep things quiet for now, Bob."),
    ("shy", "Maybe not this time: big gatherings make me a little nervous, Bob."),
    ("shy, reserved", "Maybe not this time: I'm not one for crowds, to be honest, Bob."),
])
def test_a_reserved_persona_free_then_declines_as_a_person_would(trait, line):
    """Found (Smallville): "Maybe not this time: I am quiet and would rather not" / "I'll pass, I
    think: I am reserved and would rather not". Tomorrow 6-7pm Ann reads at home (no clash); a
    reserved trait makes going P_FREE_RESERVED (0.5) and seed 0 draws above it; the lead is the
    voice's (seed 0), the reason her trait's (attend.RATHER_NOT: "reserved" before "shy")."""
    evening = "I am hosting a picnic at Green Park tomorrow from 6pm to 7pm. Would you like to come?"
    assert _invited(evening, summary=f"Ann Able, 40. Traits: {trait}.") == line


def test_work_at_a_place_closed_then_is_no_clash():
    """A fresh user's fifth round: Arthur, who knew his pub was closed all day Tuesday, declined
    the party with "I have to serve drinks at the bar counter at The Rose and Crown Pub until 22:30
    tomorrow". By hand: Ann's coffee shift at Corner Cafe clashes with the picnic at noon, unless
    she holds that the cafe is closed all that day; then she is free and goes."""
    from datetime import datetime

    from town.memory.fact import Fact

    assert not _plan(PICNIC).events[0].go
    shut = MemoryView(id=9, kind="whisper", importance=6, created="2023-02-13 09:00:00",
                      content="Corner Cafe will be closed all day tomorrow.",
                      fact=Fact(act="close", place="w:Corner Cafe", start=datetime(2023, 2, 14, 10), part="day",
                                closed=True))
    memories = (MemoryView(id=0, content=PICNIC, kind="chat", importance=6, created="2023-02-13 12:00:00"), shut)
    q = PlanDay(persona="ann", persona_name="Ann Able", persona_summary="Ann Able, 40. Traits: calm.", seed=0,
                date="2023-02-14", routine=ROUTINE, memories=memories, places=PLACES, attend_seed=0)
    (choice,) = ScriptedBackend().ask(q).events
    assert (choice.go, choice.clash) == (True, None)
