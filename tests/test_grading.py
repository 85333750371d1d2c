"""The battery's automatic grader on hand-written answers and a hand-built run.

Truth from the_ville's persona files, worked out by reading them:
    isabella_rodriguez: name "Isabella Rodriguez"; home sector "Isabella Rodriguez's apartment";
    routine outside home, awake: The Willows Market 07:00-07:30 (30 min), Hobbs Cafe
    07:30-20:00 (750 min) -> workplace "Hobbs Cafe".
    klaus_mueller: first relationship isabella_rodriguez.
party probe facts: "part(y|ies)" and "Hobbs Cafe|cafe".

The hand-built run (10 s ticks from 2023-02-13 07:00, ticks 0..719 = 2 game hours):
    seed (before the first tick): isabella#0 party memory (probe party), klaus#0 "I study at
    Oak Hill College." (no probe)
    tick 10   klaus#1 chat 'Isabella Rodriguez told me: "There is a party at Hobbs Cafe."'
              source (isabella, 0) -> klaus knows the party from then (seq 4)
    tick 0    isabella ACTION "brew coffee (brew coffee for customers)" at the coffee machine
    tick 360  isabella ACTION "cook (cook lunch)" at the stove of Hobbs Cafe (08:00)
So at 08:30 Isabella was cooking at Hobbs Cafe, and at 07:30 brewing coffee.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from town.analysis.battery import BATTERY, CATEGORIES, battery_at, stranger_for
from town.analysis.grading import grade, grade_answer, home_sector, is_denial, workplace
from town.embedding import HashingEmbedder
from town.events import Event, EventBus, EventKind
from town.recording import RunReader, RunWriter
from town.scenario import load_scenario

START = datetime(2023, 2, 13, 7, 0)
STRANGER = "Ayesha Kowalczyk"


@pytest.fixture(scope="module")
def ville():
    """the_ville's scenario (persona files and probes)."""
    return load_scenario("the_ville")


@pytest.fixture(scope="module")
def isabella(ville):
    """Isabella's persona file."""
    return next(s for s in ville.personas if s.id == "isabella_rodriguez")


def _row(grader, answer, question="?", time=None):
    return {"grader": grader, "answer": answer, "question": question, "time": time}


def test_truth_from_the_persona_file(isabella):
    """Workplace and home as worked out by hand above."""
    assert workplace(isabella) == "Hobbs Cafe"
    assert home_sector(isabella) == "Isabella Rodriguez's apartment"


def test_the_workplace_counts_tasks_not_leisure():
    """Smallville's Ryan Park, read from his file: tasks outside home at Hobbs Cafe 08:00-12:00
    (240 min, write code) and Johnson Park 17:00-18:00 (60, go for a jog); his evening at the
    pub, 19:00-24:00 (300 min), has no task: leisure, not work."""
    from town.scenario import load_scenario

    ryan = next(s for s in load_scenario("smallville").personas if s.name == "Ryan Park")
    assert workplace(ryan) == "Hobbs Cafe"


@pytest.mark.parametrize("answer, denial", [
    ("No, I don't know anything about that.", True), ("I have never heard of her.", True),
    ("I'm not sure.", True), ("Yes. Isabella runs the cafe.", False), ("I know Klaus.", False)])
def test_denials(answer, denial):
    """What counts as "don't know"."""
    assert is_denial(answer) is denial


@pytest.mark.parametrize("grader, answer, verdict", [
    ("name", "I am Isabella Rodriguez.", "correct"),
    ("name", "I'm Isabella.", "wrong"),                       # no surname
    ("name", "No, I don't know anything about that.", "dont_know"),
    ("occupation", "I run Hobbs Cafe on main street.", "correct"),
    ("occupation", "I work at The Willows Market.", "wrong"),  # 30 min a day is not the job
    ("home", "In my apartment above the shop.", "correct"),
    ("home", "At Isabella Rodriguez's apartment.", "correct"),
    ("home", "At Oak Hill College.", "wrong"),
])
def test_self_knowledge(isabella, grader, answer, verdict):
    """Name, occupation and home against the persona file."""
    g = grade_answer(_row(grader, answer), spec=isabella, stranger=STRANGER)
    assert g["verdict"] == verdict
    assert g["hallucination"] is False


def test_stranger_claims_are_hallucinations(isabella):
    """An invented fact about the stranger is caught; a denial is right."""
    q = f"Who is {STRANGER}?"
    made_up = grade_answer(_row("stranger", f"{STRANGER} runs the bakery on Main Street.", q),
                           spec=isabella, stranger=STRANGER)
    assert made_up == {"verdict": "wrong", "hallucination": True, "truth": f"{STRANGER} does not exist"}
    honest = grade_answer(_row("stranger", f"I have never heard of {STRANGER}.", q), spec=isabella,
                          stranger=STRANGER)
    assert honest["verdict"] == "correct" and honest["hallucination"] is False
    # the scripted backend's way of inventing: an unrelated memory offered as the answer
    offered = grade_answer(_row("stranger", "Yes. The espresso machine needs descaling.", q),
                           spec=isabella, stranger=STRANGER)
    assert offered["hallucination"] is True
    # naming the stranger unasked, in another category, is a hallucination too
    unasked = grade_answer(_row("judge", "I would call Ayesha Kowalczyk for help."), spec=isabella,
                           stranger=STRANGER)
    assert unasked["hallucination"] is True and unasked["verdict"] == "ungraded"


def test_memory_of_other_and_news(isabella, ville):
    """{other}: two shared words with a held memory naming them; news: all probe facts."""
    held = ["Klaus Mueller told me he is writing a paper about gentrification in small towns."]
    kw = dict(spec=isabella, stranger=STRANGER, other="Klaus Mueller", held=held)
    assert grade_answer(_row("other", "Klaus is writing a paper about gentrification."), **kw)["verdict"] == "correct"
    assert grade_answer(_row("other", "Klaus is a chef at the diner."), **kw)["verdict"] == "wrong"
    assert grade_answer(_row("other", "I don't know who that is."), **kw)["verdict"] == "dont_know"
    nobody = dict(kw, held=["The espresso machine needs descaling."])
    assert grade_answer(_row("other", "I don't know who that is."), **nobody)["verdict"] == "correct"
    party = next(p for p in ville.probes if p.name == "party")
    news = dict(spec=isabella, stranger=STRANGER, known=[party])
    assert grade_answer(_row("news", "Yes, a Valentine's party at Hobbs Cafe!"), **news)["verdict"] == "correct"
    assert grade_answer(_row("news", "Yes, a party somewhere."), **news)["verdict"] == "wrong"  # no place
    assert grade_answer(_row("news", "No, nothing."), **news)["verdict"] == "dont_know"
    assert grade_answer(_row("news", "No, nothing."), spec=isabella, stranger=STRANGER,
                        known=[])["verdict"] == "correct"


def test_plans_read_the_timetable_at_the_hour(isabella):
    """A timetable answer is read at the asked hour; the truth is the recorded action."""
    truth = {"description": "brew coffee (brew coffee for customers)", "task": "brew coffee for customers",
             "address": "the_ville:Hobbs Cafe:cafe:coffee machine"}
    kw = dict(spec=isabella, stranger=STRANGER, truth=truth)
    timetable = "Yes. 08:00 open up; 09:30 brew coffee for the morning rush; 12:00 cook lunch"
    assert grade_answer(_row("plan", timetable, time="2023-02-14 10:00"), **kw)["verdict"] == "correct"
    # at 12:30 the timetable says cook lunch: not what was recorded
    assert grade_answer(_row("plan", timetable, time="2023-02-14 12:30"), **kw)["verdict"] == "wrong"
    assert grade_answer(_row("plan", "At Hobbs Cafe, all day.", time="2023-02-14 12:30"),
                        **kw)["verdict"] == "correct"
    assert grade_answer(_row("plan", "Reading at the library.", time="2023-02-14 10:00"),
                        **kw)["verdict"] == "wrong"



def _build(path):
    bus = EventBus()
    writer = RunWriter(path, {"town": "The Ville", "scenario": "the_ville", "start": START.isoformat(sep=" "),
                              "seconds_per_tick": 10, "embedder": "hashing",
                              "personas": {"isabella_rodriguez": {"name": "Isabella Rodriguez"},
                                           "klaus_mueller": {"name": "Klaus Mueller"}},
                              "config": {"retrieval": {"k": 10, "weights": [1, 1, 1]}}})
    bus.subscribe(writer.handle)
    n = {"i": 0}

    def at(tick):
        return START + timedelta(seconds=10 * tick)

    def memory(pid, rid, tick, kind, content, probe=None, source=None):
        n["i"] += 1
        stamp = at(tick).strftime("%Y-%m-%d %H:%M:%S")
        bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=at(tick), persona=pid, data={
            "id": rid, "persona": pid, "kind": kind, "content": content, "created": stamp,
            "last_accessed": stamp, "importance": 5, "evidence": [], "subject": None, "predicate": None,
            "object": None, "conversation": 1 if source else None, "source": list(source) if source else None,
            "probe": probe, "embedding": HashingEmbedder().embed([content])[0]}))

    def action(pid, tick, description, address, task, kind="do"):
        bus.publish(Event(kind=EventKind.ACTION, tick=tick, time=at(tick), persona=pid, data={
            "description": description, "address": address, "emoji": "", "kind": kind, "start": tick,
            "end": tick + 360, "task": task, "decision": 0}))

    memory("isabella_rodriguez", 0, 0, "observation", "I am hosting a party at Hobbs Cafe.", probe="party")
    memory("klaus_mueller", 0, 0, "observation", "I study at Oak Hill College.")
    writer.snapshot(-1, START, bus.seq, {"state": "initial"})
    for tick in range(720):
        if tick == 0:
            action("isabella_rodriguez", 0, "brew coffee (brew coffee for customers)",
                   "the_ville:Hobbs Cafe:cafe:coffee machine", "brew coffee for customers")
            action("klaus_mueller", 0, "sleeping", "the_ville:Dorm for Oak Hill College:bed", "sleeping",
                   kind="sleep")
        if tick == 10:
            memory("klaus_mueller", 1, 10, "chat",
                   'Isabella Rodriguez told me: "There is a party at Hobbs Cafe."', source=("isabella_rodriguez", 0))
        if tick == 360:
            action("isabella_rodriguez", 360, "cook (cook lunch)", "the_ville:Hobbs Cafe:kitchen:stove", "cook lunch")
        bus.publish(Event(kind=EventKind.FRAME, tick=tick, time=at(tick), persona=None, data={"personas": {}}))
    writer.close()
    return path


def test_grade_reads_truth_from_a_hand_built_run(tmp_path, ville):
    """News known by provenance as of the answer's seq; the action in force at the asked hour."""
    path = _build(tmp_path / "hand.sqlite")

    def row(pid, category, grader, question, answer, seq, time=None):
        return {"persona": pid, "category": category, "grader": grader, "question": question,
                "answer": answer, "seq": seq, "time": time, "probe": "party" if grader == "news" else None}

    with RunReader(path) as r:
        klaus_heard = next(e.seq for e in r.events(["memory"], persona="klaus_mueller") if e.data["id"] == 1)
        end = r.events(newest_first=True, limit=1)[0].seq + 1
        battery = {"stranger": STRANGER, "answers": [
            # before hearing it Klaus knows no news: a denial is right, after it is "don't know"
            row("klaus_mueller", "memory", "news", "Did you hear about a party?", "No.", klaus_heard),
            row("klaus_mueller", "memory", "news", "Did you hear about a party?", "No.", end),
            row("klaus_mueller", "memory", "news", "Did you hear about a party?",
                "A party at Hobbs Cafe.", end),
            row("klaus_mueller", "memory", "other", "Who is Isabella Rodriguez?",
                "Isabella told me there is a party at Hobbs Cafe.", end),
            row("klaus_mueller", "memory", "other", "Who is Isabella Rodriguez?",
                "Isabella told me there is a party at Hobbs Cafe.", klaus_heard),  # held nothing then
            row("isabella_rodriguez", "plans", "plan", "What will you be doing at 08:30?",
                "I will cook lunch in the kitchen.", end, "2023-02-13 08:30"),
            row("isabella_rodriguez", "plans", "plan", "What will you be doing at 07:30?",
                "I will cook lunch in the kitchen.", end, "2023-02-13 07:30"),
            row("isabella_rodriguez", "memory", "stranger", f"Who is {STRANGER}?", "My cousin.", end),
        ]}
        summary = grade(battery, r, ville)
    verdicts = [a["grade"]["verdict"] for a in battery["answers"]]
    assert verdicts == ["correct", "dont_know", "correct", "correct", "wrong", "correct", "wrong", "wrong"]
    assert summary["categories"]["memory"] == {"correct": 3, "wrong": 2, "dont_know": 1, "ungraded": 0,
                                               "n": 6, "accuracy": 3 / 6}
    assert summary["categories"]["plans"]["accuracy"] == 1 / 2
    assert summary["hallucinations"] == 1
    assert summary["categories"]["reactions"]["accuracy"] is None


def test_battery_fills_placeholders(tmp_path, ville):
    """25 questions a persona (plans only for awake recorded hours); {other} from the file."""
    assert [len(BATTERY[c]) for c in CATEGORIES] == [5] * 5
    assert stranger_for(["Ayesha is here"]) == "Tobias Okonkwo"
    path = _build(tmp_path / "hand.sqlite")
    with RunReader(path) as r:
        slots, stranger = battery_at(r, ville, datetime(2023, 2, 13, 7, 0))
    assert stranger == STRANGER
    klaus = [s for s in slots if s.persona == "klaus_mueller"]
    assert "Who is Isabella Rodriguez?" in [s.question for s in klaus]
    news = next(s for s in klaus if s.grader == "news")
    assert (news.question, news.probe) == ("Did you hear about a party?", "party")  # probes.yaml's first
    assert not [s for s in klaus if s.category == "plans"]  # asleep all run long
    isabella = [s for s in slots if s.persona == "isabella_rodriguez" and s.category == "plans"]
    # the run ends at 08:59:50: awake hours after 07:00 are 08:00, then earlier: 07:00
    assert [s.time for s in isabella] == ["2023-02-13 08:00", "2023-02-13 07:00"]
    assert isabella[0].question == "What will you be doing on Monday, February 13 at 08:00?"


def test_evaluate_battery_cli_writes_json_and_leaves_the_run(tmp_path):
    """`evaluate --battery`: battery.json beside the run, a trace per answer, run bytes unchanged."""
    import hashlib
    import json

    from cli_helpers import run_cli

    path = _build(tmp_path / "hand.sqlite")
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    done = run_cli("evaluate", str(path), "--battery", "--at", "2023-02-13 07:00")
    assert done.returncode == 0, done.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    result = json.loads((tmp_path / "hand.evaluation" / "battery.json").read_text())
    assert result["at"] == "2023-02-13 07:00" and result["backend"] == "scripted"
    # 25 for Isabella less 3 plan questions (2 awake hours), 25 for Klaus less 5 (asleep)
    assert len(result["answers"]) == 22 + 20
    assert all("retrieved" in a["retrieval"] and "grade" in a for a in result["answers"])
    assert result["summary"]["answers"] == 42
    assert "self_knowledge" in done.stdout and "hallucinations:" in done.stdout


def test_self_knowledge_is_answered_from_the_persona_file(tmp_path, ville):
    """The interview carries the persona's own description, so the scripted answers name the
    workplace and home the grader reads from the same file. Worked out by reading the files:
    Isabella's background "Isabella Rodriguez owns and runs Hobbs Cafe, ..." (marks owns, runs),
    her home sector "Isabella Rodriguez's apartment"; Klaus's "Klaus Mueller studies sociology at
    Oak Hill College and lives in the college dorm." (marks studies / lives), workplace Oak Hill
    College (480 awake routine minutes there), home sector "Dorm for Oak Hill College"."""
    from town.analysis.battery import ask_battery

    path = _build(tmp_path / "hand.sqlite")
    with RunReader(path) as r:
        battery = ask_battery(r, ville, datetime(2023, 2, 13, 7, 0), embedder=HashingEmbedder())
        summary = grade(battery, r, ville)
    said = {(a["persona"], a["index"]): a["answer"] for a in battery["answers"] if a["category"] == "self_knowledge"}
    assert said[("isabella_rodriguez", 0)] == "I am Isabella Rodriguez."
    assert said[("isabella_rodriguez", 2)] == (  # the name is said only when asked for
        "I own and run Hobbs Cafe, the cosy coffee shop on the south side of the Ville's main street.")
    assert said[("isabella_rodriguez", 4)] == "I live in my apartment."
    assert said[("klaus_mueller", 3)] == "I study sociology at Oak Hill College and live in the college dorm."
    assert said[("klaus_mueller", 4)] == (
        "I study sociology at Oak Hill College and live in the college dorm. I live in Dorm for Oak Hill College.")
    assert summary["categories"]["self_knowledge"] == {"correct": 10, "wrong": 0, "dont_know": 0, "ungraded": 0,
                                                       "n": 10, "accuracy": 1.0}
