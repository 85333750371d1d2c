"""The talk reads like people: counted on the party run (the_ville, 36 game hours) and on
hand-built questions to the scripted backend. Each count is worked out by the rule in
:mod:`town.analysis.talk`; a mutation in scripts/mutate.py makes each one non-zero."""

from __future__ import annotations

import re

from datetime import datetime

import json
import random
import sqlite3

import pytest

from town.analysis.talk import sample_lines, talk_counts
from town.simulation import Simulation
from town.config import load_config
from town.scenario import load_scenario
from town.thinking.questions import MemoryView, NextLine
from town.scripted import ScriptedBackend
from town.thinking.views import routine_views

from pathlib import Path

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"

WHO = dict(persona="isabella_rodriguez", persona_name="Isabella Rodriguez",
           persona_summary="Isabella Rodriguez owns and runs Hobbs Cafe. She is friendly.")
PLAN = MemoryView(id=1, kind="plan", importance=3, created="2023-02-13 06:00:00",
                  content="Isabella Rodriguez's plan for Monday February 13: 06:00 take a shower; "
                          "08:00 brew coffee; 12:00 cook lunch; 17:00 serve evening customers; 20:00 close the cafe")


def _line(history=(), memories=(), now="2023-02-13 18:04:00", seed=1):
    return ScriptedBackend().ask(NextLine(**WHO, seed=seed, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=memories, now=now))


def test_sample_lines_are_the_seeded_draw_of_the_runs_lines(party_run):
    db = sqlite3.connect(party_run)
    rows = [json.loads(d) for (d,) in db.execute("select data from events where kind = 'chat' order by seq")]
    db.close()
    assert len(rows) > 20
    picked = sorted(random.Random(7).sample(range(len(rows)), 20))  # the draw, by its definition
    lines = sample_lines(str(party_run), 20, seed=7)
    assert [(s, l, t) for _, s, l, t in lines] == [(rows[i]["speaker"], rows[i]["listener"], rows[i]["line"])
                                                  for i in picked]
    assert len(sample_lines(str(party_run), len(rows) + 5)) == len(rows)


@pytest.mark.parametrize("run", ["party_run", "smallville_run"])
def test_the_36_hour_runs_read_like_people(run, request):
    """Counted on the_ville's party run and on Smallville, the demo's town, 36 game hours each."""
    counts = talk_counts(str(request.getfixturevalue(run)))
    assert {k: counts[k] for k in ("deep_hearsay", "echoes", "leaks", "greetings", "past_goodbyes",
                                   "second_person_whispers", "heard_sightings")} == dict.fromkeys(
        ("deep_hearsay", "echoes", "leaks", "greetings", "past_goodbyes", "second_person_whispers",
         "heard_sightings"), 0)
    assert counts["heard"] > 0  # news did spread
    # talk from one's own life, in varied words: most lines are said once, none often, none twice
    # to one person in a day; at the party, lines name it, its place or someone there
    assert counts["distinct_lines"] >= 0.8 and counts["most_said"] <= 10 and counts["pair_day_repeats"] == 0
    assert counts["event_lines"] > 0 and counts["event_mentions"] >= 0.5
    assert counts["distinct_reflections"] >= 0.9


def test_a_heard_party_names_the_host_once_then_her_pronoun(party_run):
    """Isabella's file says she/her: her party, as heard from her, reads "Isabella Rodriguez told
    me that she is planning ...", and retold by anyone else "... told me that Isabella Rodriguez
    is planning ..." (the realiser's words from the fact, never "Isabella Rodriguez told me that
    Isabella ..." nor a "me" or "I" shifted from her line)."""
    db = sqlite3.connect(party_run)
    heard = [c for (c,) in db.execute("select content from memories where kind = 'chat' and content like "
                                      "'%told me that % planning a Valentine%'")]
    db.close()
    assert heard
    for c in heard:
        teller = c.split(" told me that ")[0]
        host = "she" if teller == "Isabella Rodriguez" else "Isabella Rodriguez"
        assert c.startswith(f"{teller} told me that {host} is planning a Valentine's Day party at Hobbs Cafe"), c


def test_a_routine_sighting_is_not_news_however_it_was_rated():
    """Three memories rated above the news threshold (5): two sightings, one seen and one heard
    (a surname with a particle among them), and a party. Only the party is worth telling."""
    from town.scripted.talk import worth_telling

    at = "2023-02-13 09:00:00"
    memories = (
        MemoryView(id=1, kind="observation", importance=7, created=at,
                   content="Loes de Hoog is at the student desks of the classroom in Orellana College: attend classes."),
        MemoryView(id=2, kind="chat", importance=8, created=at,
                   content="Maria Lopez told me that Klaus Mueller is at the library of Oak Hill College: write a paper."),
        MemoryView(id=3, kind="chat", importance=6, created=at,
                   content="Maria Lopez told me that Isabella Rodriguez is planning a party at Hobbs Cafe."),
    )
    assert [m.id for m in worth_telling(memories, "Ada Able", "Ann Able")] == [3]


def test_memories_per_persona_day_spans_the_run_not_its_dates(tmp_path):
    """Four memories of two personas in a run of ticks 0..4319 at 10 s a tick (12 game hours,
    one calendar day): 4 / (2 personas x 0.5 days) = 4.0, not 4 / (2 x 1 date) = 2.0."""
    path = tmp_path / "r.sqlite"
    db = sqlite3.connect(path)
    db.execute("create table meta (key text primary key, value text not null)")
    db.execute("create table events (seq integer primary key, tick integer, time text, kind text, persona text, data text)")
    db.execute("insert into meta values ('seconds_per_tick', '10')")
    rows = [(0, "a", "memory", dict(kind="observation", content="Ada is at the bar.")),
            (0, "a", "memory", dict(kind="observation", content="Bo is at the bar.")),
            (5, "b", "memory", dict(kind="observation", content="Ada is at the desk.")),
            (9, "a", "memory", dict(kind="plan", content="Ada's plan for Monday.")),
            (4319, "a", "action", dict(description="closing the bar"))]
    for seq, (tick, who, kind, data) in enumerate(rows):
        db.execute("insert into events values (?, ?, ?, ?, ?, ?)",
                   (seq, tick, "2023-02-13 00:00:00", kind, who, json.dumps(data)))
    db.commit()
    db.close()
    assert talk_counts(str(path))["memories_per_persona_day"] == 4.0


def test_a_greeting_fits_the_hour_and_the_history():
    """18:04, nothing recalled of Maria: evening, no claim about the pair; after a talk this
    morning, "again"; in the morning, knowing her from her file but no talk: no "again"."""
    first = _line().line  # one of the greetings that claim nothing (seeded): names her, no "again"
    assert "Maria" in first and not re.search(r"again|since|morning|afternoon", first), first
    assert {_line(seed=s).line for s in range(40)} >= {"Good evening, Maria.", "Hello there, Maria."}
    talk = MemoryView(id=2, kind="chat", importance=3, created="2023-02-13 08:14:00",
                      content="I talked with Maria Lopez: Maria Lopez has a physics exam")
    assert "again" in _line(memories=(talk,)).line
    morning = _line(now="2023-02-13 08:00:00", memories=(MemoryView(
        id=3, kind="observation", importance=3, created="2023-02-13 07:00:00",
        content="Maria Lopez is a cheerful student."),)).line
    assert "morning" in morning.lower() and "again" not in morning


def test_a_goodbye_names_a_plan_item_still_ahead():
    """At 18:04 the items ahead are 20:00 only; at 21:00 none; at 08:11 the next (12:00) is more
    than two hours away, so none is named; at 10:00 it is two hours away and named."""
    history = tuple(("Maria Lopez" if i % 2 else "Isabella Rodriguez", "Hi.") for i in range(7))
    bye = ScriptedBackend().ask(NextLine(**WHO, seed=3, listener="maria_lopez", listener_name="Maria Lopez",
                                         history=history, memories=(PLAN,), now="2023-02-13 18:04:00", max_lines=8))
    assert bye.end and bye.line.endswith("I need to close the cafe at 20:00.")
    late = ScriptedBackend().ask(NextLine(**WHO, seed=3, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=(PLAN,), now="2023-02-13 21:00:00"))
    assert "at " not in late.line
    morning = ScriptedBackend().ask(NextLine(**WHO, seed=3, listener="maria_lopez", listener_name="Maria Lopez",
                                             history=history, memories=(PLAN,), now="2023-02-13 08:11:00"))
    assert morning.end and "at " not in morning.line  # lunch at 12:00 is 3 h 49 min away: no reason to go now
    near = ScriptedBackend().ask(NextLine(**WHO, seed=3, listener="maria_lopez", listener_name="Maria Lopez",
                                          history=history, memories=(PLAN,), now="2023-02-13 10:00:00"))
    assert near.line.endswith("I need to cook lunch at 12:00.")  # exactly 120 minutes ahead


def test_an_invitation_that_clashes_is_declined_naming_the_plan_item():
    """Klaus invites Isabella for 17:30 today at The Rose and Crown Pub; her file's routine holds
    "serve evening customers and tidy the tables" at Hobbs Cafe 17:00-20:00 (a task at her
    workplace): declined, naming it (her summary states no traits and no memory ties her to
    Klaus: going anyway has P_CLASH, 0.1, and seed 1 draws above it). At 9pm (an hour, the
    default length) she cooks at home and reads (leisure): she comes."""
    routine = routine_views(next(p for p in load_scenario(THE_VILLE).personas if p.id == "isabella_rodriguez").routine)

    def reply(line: str) -> str:
        return ScriptedBackend().ask(NextLine(
            **WHO, seed=1, listener="klaus_mueller", listener_name="Klaus Mueller",
            history=(("Isabella Rodriguez", "Hi!"), ("Klaus Mueller", line)), memories=(PLAN,),
            now="2023-02-13 10:00:00", routine=routine, places=("the_ville:The Rose and Crown Pub",))).line

    no = reply("I am hosting a quiz night at The Rose and Crown Pub today at 5:30pm. Would you like to come?")
    assert re.match(r"^(?:I'd love to, but|I wish I could, but|Sadly|That sounds lovely, but|I'm sorry, but) "
                    r"I have to serve evening customers and tidy the tables at Hobbs Cafe until 20:00(?:, Klaus)?\.$", no)
    yes = reply("I am hosting a quiz night at The Rose and Crown Pub today at 9pm. Would you like to come?")
    assert re.match(r"^(?:I'd love to come|Count me in|I'll be there|Sounds wonderful, I'll come|Of course I'll come) "
                    r"today(?:, Klaus)?!", yes), yes


def test_a_reaction_takes_a_stance_and_never_quotes():
    news = ("Maria Lopez", "I have a physics exam next week and need to study in the library.")
    said = _line(history=(("Isabella Rodriguez", "Hi!"), news), now="2023-02-13 10:00:00")
    assert re.match(r"^(?:Good luck with it|I hope it goes well|Fingers crossed), Maria[.!]$", said.line), said.line


def test_a_second_person_whisper_is_stored_in_the_first_person():
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    rid = sim.whisper("maria_lopez", "You want to throw a board-game night at your place on Friday.")
    record = next(r for r in sim.personas["maria_lopez"].stream.records() if r.id == rid)
    assert record.content == "I want to throw a board-game night at my place on Friday."
    assert record.predicate == "want"


def test_the_line_counts_are_counted_as_defined(tmp_path):
    """A hand-built run: Ann says "Hi." to Bob twice on the 13th and once on the 14th, and
    "Bye, Bob." once; Ann is at Corner Cafe, where Bob holds a party 17:00-19:00 on the 13th (a
    fact Bob holds). Lines 4, distinct 2 (0.5), most said 3, pair-day repeats 1 (the second "Hi."
    on the 13th); two lines fall inside the party, and of them only "Bye, Bob." names its host."""
    path = tmp_path / "lines.sqlite"
    db = sqlite3.connect(path)
    db.execute("create table events (seq integer, tick integer, time text, kind text, persona text, data text)")
    db.execute("create table meta (key text, value text)")
    db.execute("insert into meta values ('personas', ?)", (json.dumps({"ann": {"name": "Ann Able"},
                                                                       "bob": {"name": "Bob Brown"}}),))
    fact = {"subject": "Bob Brown", "act": "hold a party", "place": "w:Corner Cafe", "start": "2023-02-13 17:00:00",
            "end": "2023-02-13 19:00:00", "host": "Bob Brown", "invited": [], "question": False}
    rows = [(0, "2023-02-13 08:00:00", "memory", "bob", {"kind": "chat", "content": "x", "fact": fact}),
            (1, "2023-02-13 09:00:00", "action", "ann", {"address": "w:Corner Cafe:cafe:table"}),
            (2, "2023-02-13 09:00:00", "chat", "ann", {"conversation": 1, "speaker": "ann", "listener": "bob", "line": "Hi."}),
            (3, "2023-02-13 17:30:00", "chat", "ann", {"conversation": 2, "speaker": "ann", "listener": "bob", "line": "Hi."}),
            (4, "2023-02-13 17:31:00", "chat", "ann", {"conversation": 2, "speaker": "ann", "listener": "bob",
                                                       "line": "Bye, Bob."}),
            (5, "2023-02-14 09:00:00", "chat", "ann", {"conversation": 3, "speaker": "ann", "listener": "bob", "line": "Hi."})]
    for seq, time, kind, who, data in rows:
        db.execute("insert into events values (?, ?, ?, ?, ?, ?)", (seq, seq, time, kind, who, json.dumps(data)))
    db.commit()
    db.close()
    counts = talk_counts(str(path))
    assert (counts["lines"], counts["distinct_lines"], counts["most_said"], counts["pair_day_repeats"]) == (4, 0.5, 3, 1)
    assert (counts["event_lines"], counts["event_mentions"]) == (2, 0.5)


def test_a_hosts_own_event_is_news_in_the_first_person_however_it_was_whispered():
    """Jane was whispered her own vigil in the third person ("Jane Moreno is holding ..."). It is
    her news: worth telling, said "I am holding ..." with an invitation; her sighting of herself is
    not news. By hand from the fact: 9am-10am on Tuesday the 14th, told on Monday the 13th."""
    from town.memory.fact import Fact
    from town.scripted.talk import next_line, worth_telling
    from town.thinking.questions import NextLine

    at = "2023-02-13 08:00:00"
    vigil = Fact(subject="Jane Moreno", act="hold a candlelight vigil", place="smallville:Johnson Park",
                 start=datetime(2023, 2, 14, 9), end=datetime(2023, 2, 14, 10), host="Jane Moreno",
                 invited=("everyone",))
    memories = (
        MemoryView(id=1, kind="observation", importance=7, created=at,
                   content="Jane Moreno is at the flower beds of the garden in Johnson Park: tend the flower beds."),
        MemoryView(id=2, kind="whisper", importance=9, created=at, fact=vigil,
                   content="Jane Moreno is holding a candlelight vigil for the old oak tree at Johnson Park "
                           "tomorrow from 9am to 10am, and everyone is welcome."),
    )
    assert [m.id for m in worth_telling(memories, "Tom Moreno", "Jane Moreno")] == [2]
    q = NextLine(persona="jane_moreno", persona_name="Jane Moreno", persona_summary="", seed=1, listener="tom_moreno",
                 listener_name="Tom Moreno", history=(("Tom Moreno", "Hi Jane!"), ("Jane Moreno", "Hello Tom!")),
                 memories=memories, told=(), max_lines=8, now="2023-02-13 10:00:00")
    line = next_line(q).line
    assert line.endswith("I am holding a candlelight vigil at Johnson Park tomorrow from 9am to 10am, and everyone "
                         "is welcome. Would you like to come?"), line


def test_an_answer_in_chat_passes_on_one_teller_at_most():
    """Before (a Smallville run, at the party): "Isn't this Valentine's Day party lovely?" got
    "Sam told me that Isabella Rodriguez is planning a Valentine's Day party ... Isabella told me
    that she wants the Valentine's Day party to feel warm." - two tellers in one line, hearsay
    two deep by the count. Ryan holds both; his answer keeps the first held fact only (the one
    answerer's best: both share "valentine's day party", the first is retrieved first)."""
    from town.hearsay import depth
    from town.memory.fact import Fact

    party = Fact(subject="Isabella Rodriguez", act="plan a Valentine's Day party", place="smallville:Hobbs Cafe",
                 start=datetime(2023, 2, 14, 17), end=datetime(2023, 2, 14, 19), host="Isabella Rodriguez",
                 invited=("everyone",))
    warm = Fact(subject="Isabella Rodriguez", act="want the Valentine's Day party to feel warm")
    memories = (MemoryView(id=1, kind="chat", importance=6, created="2023-02-13 09:00:00", fact=party,
                           tellers=("Sam Moore",), content="Sam Moore told me that Isabella Rodriguez is planning a "
                           "Valentine's Day party at Hobbs Cafe on Tuesday, February 14 from 5pm to 7pm."),
                MemoryView(id=2, kind="chat", importance=5, created="2023-02-13 10:00:00", fact=warm,
                           tellers=("Isabella Rodriguez",), content="Isabella Rodriguez told me that she wants the "
                           "Valentine's Day party to feel warm."))
    said = ScriptedBackend().ask(NextLine(
        persona="ryan_park", persona_name="Ryan Park", persona_summary="Ryan Park is a software engineer.", seed=1,
        listener="rajiv_patel", listener_name="Rajiv Patel", memories=memories, now="2023-02-14 17:30:00",
        history=(("Ryan Park", "Hi Rajiv."), ("Rajiv Patel", "Isn't this Valentine's Day party lovely, Ryan?")))).line
    assert said == ("Sam told me that Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe today from "
                    "5pm to 7pm, and everyone is welcome."), said
    assert depth(said) == 1
