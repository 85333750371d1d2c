"""A scripted persona with no news talks of its own life, says no line twice to one person in a
day, varies its words by a seeded draw, and answers a question about its day in kind."""

from __future__ import annotations

import re
from datetime import datetime

from town.memory.fact import Fact
from town.scripted import ScriptedBackend
from town.thinking.questions import MemoryView, NextLine

WHO = dict(persona="isabella_rodriguez", persona_name="Isabella Rodriguez",
           persona_summary="Isabella Rodriguez owns and runs Hobbs Cafe. Traits: friendly, outgoing.")
INSIGHT = MemoryView(id=7, kind="reflection", importance=6, created="2023-02-13 09:00:00",
                     content="Hobbs Cafe is where I keep running into Ryan and Abigail.")
PLAN = MemoryView(id=3, kind="plan", importance=3, created="2023-02-13 06:00:00",
                  content="Isabella Rodriguez's plan for Monday February 13: 08:00 brew coffee; "
                          "17:00 serve evening customers; 20:00 close the cafe")
GREETED = (("Isabella Rodriguez", "Good afternoon, Maria."), ("Maria Lopez", "Good afternoon, Isabella!"))


def _line(history=GREETED, topics=(), memories=(), said_today=(), seed=1, now="2023-02-13 15:00:00"):
    return ScriptedBackend().ask(NextLine(**WHO, seed=seed, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=memories, topics=topics, now=now,
                                          said_today=said_today))


def test_with_no_news_the_insight_retrieved_for_the_partner_is_told_and_cited():
    """No news, one insight among the topics (not about Maria): the line states it word for word
    after a lead-in and cites its id, so it is never told to Maria again."""
    said = _line(topics=(INSIGHT,))
    assert "Hobbs Cafe is where I keep running into Ryan and Abigail." in said.line
    assert said.shared == [7]


def test_with_no_insight_the_plan_item_still_ahead_is_the_topic():
    """At 15:00 the plan's items ahead are 17:00 and 20:00: the line names the first, 17:00
    (08:00 is past), and cites nothing (a plan is not news)."""
    said = _line(topics=(PLAN,))
    assert "serve evening customers" in said.line and "17:00" in said.line, said.line
    assert "08:00" not in said.line and said.shared == []


def test_at_an_event_under_way_the_event_is_the_topic():
    """A fact of Isabella's own party at Hobbs Cafe 17:00-19:00, at 18:00: the line speaks of
    the party (its object, "this Valentine's Day party") or of the place."""
    party = MemoryView(id=9, kind="chat", importance=8, created="2023-02-13 08:00:00",
                       content="I am throwing a Valentine's Day party at Hobbs Cafe.",
                       fact=Fact(subject="Isabella Rodriguez", act="throw a Valentine's Day party",
                                 place="the_ville:Hobbs Cafe", start=datetime(2023, 2, 13, 17),
                                 end=datetime(2023, 2, 13, 19), host="Isabella Rodriguez"))
    said = _line(topics=(party,), now="2023-02-13 18:00:00")
    assert re.search(r"this Valentine's Day party|Hobbs Cafe", said.line), said.line


def test_a_line_said_to_this_listener_today_is_not_said_again():
    """The line drawn for seed 1 is passed back as said today: the answer differs, and over 20
    seeds no answer is a line of ``said_today``."""
    first = _line(topics=(INSIGHT, PLAN)).line
    assert _line(topics=(INSIGHT, PLAN), said_today=(first,)).line != first
    for seed in range(20):
        said = tuple(_line(topics=(INSIGHT, PLAN), seed=s).line for s in range(seed))
        assert _line(topics=(INSIGHT, PLAN), said_today=said, seed=seed).line not in said


def test_the_words_vary_with_the_seed_and_repeat_with_it():
    """One situation over 30 seeds: at least 5 different lines (the voice's alternatives), and
    the same seed gives the same line (a run stays deterministic)."""
    lines = {_line(topics=(INSIGHT,), seed=s).line for s in range(30)}
    assert len(lines) >= 5
    assert _line(topics=(INSIGHT,), seed=4).line == _line(topics=(INSIGHT,), seed=4).line


def test_how_is_your_day_is_answered_in_kind_not_with_a_memory():
    """ "How's your afternoon going, Isabella?" is small talk: the answer opens with one of the
    voice's ways to say one is well, then a topic of her own life (here the insight), never a
    retrieved memory recited as the answer."""
    asked = (("Isabella Rodriguez", "Hi Maria."), ("Maria Lopez", "How's your afternoon going, Isabella?"))
    said = _line(history=asked, topics=(INSIGHT,), memories=(INSIGHT,))
    assert re.match(r"^(?:I'm well, thanks|Pretty good, thanks|Can't complain|Good, thank you)\.", said.line), said.line
    assert "running into Ryan and Abigail" in said.line


def test_every_question_the_voice_asks_back_is_answered_in_kind():
    """Each of the voice's questions back (drawn over 60 seeds, every alternative of
    ``Voice.ask``) and greetings that ask ("How's everything?", "Nice morning, isn't it?") asked
    of Isabella is answered with a topic of her own, never "I'm not sure"."""
    import random

    from town.scripted.voice import Voice

    asks = {Voice(rng=random.Random(s), warm=True, close=False, first="Isabella").ask("morning") for s in range(60)}
    assert len(asks) == 9
    for q in (*sorted(asks), "Good morning, Isabella. How's everything?", "Hi Isabella! Nice morning, isn't it?"):
        said = _line(history=(("Isabella Rodriguez", "Hi."), ("Maria Lopez", q)), topics=(INSIGHT,),
                     now="2023-02-13 10:00:00").line
        assert "running into Ryan and Abigail" in said and not said.startswith("I'm not sure"), (q, said)


def test_a_line_of_ones_own_life_never_tells_the_listener_of_themselves():
    """Maria's file says she lives "across the hall from Klaus Mueller"; she told Klaus "Work keeps
    me busy: I study physics ... across the hall from Klaus Mueller." To Klaus, her file's other
    work sentence is the one said (by hand: the only other sentence with work words)."""
    summary = ("Maria Lopez studies physics at Oak Hill College and lives across the hall from Klaus Mueller. "
               "Maria Lopez works part-time streaming games. Traits: friendly.")
    for seed in range(12):
        line = ScriptedBackend().ask(NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=summary,
                                              seed=seed, listener="klaus_mueller", listener_name="Klaus Mueller",
                                              history=(("Klaus Mueller", "Hi Maria, good morning."),),
                                              now="2023-02-14 07:32:00")).line
        assert "Klaus Mueller" not in line, line


def test_praise_of_a_host_at_their_event_says_you_or_their_own_pronoun():
    """At the party under way, Ayesha told Isabella "Isabella really outdid themselves with this
    Valentine's Day party" (Smallville, 36 h): to the host it is "You really outdid yourself", and
    of her to another "herself", her file's pronoun. Checked over seeds until the praise is drawn."""
    party = Fact(subject="Isabella Rodriguez", act="host a Valentine's Day party", place="s:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez")
    memory = MemoryView(id=4, kind="chat", importance=8, created="2023-02-13 09:00:00", fact=party,
                        content="Isabella Rodriguez told me that she is hosting a Valentine's Day party.")
    praised = {"Isabella Rodriguez": [], "Maria Lopez": []}
    for listener in praised:
        for seed in range(60):
            line = ScriptedBackend().ask(NextLine(
                persona="ayesha_khan", persona_name="Ayesha Khan", persona_summary="Ayesha Khan. Traits: curious.",
                seed=seed, listener=listener.lower().replace(" ", "_"), listener_name=listener, topics=(memory,),
                history=((listener, "Good evening, Ayesha."),), now="2023-02-14 17:30:00",
                pronouns=(("Isabella Rodriguez", "she"),))).line
            if "outdid" in line:
                praised[listener].append(line)
    assert praised["Isabella Rodriguez"] and all("You really outdid yourself" in x for x in praised["Isabella Rodriguez"])
    assert praised["Maria Lopez"] and all("Isabella really outdid herself" in x for x in praised["Maria Lopez"])
