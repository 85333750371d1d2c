"""Fewer, fuller planning requests on a model backend. The day plan asks, in the same request,
for the steps of the routine block at hand: a persona's first tick makes one request where it
made a day plan, a decomposition and a rating of the plan (the decomposition's retrieval read
the unrated plan memory). A decomposition names the procedure of the task just finished."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from fake_server import FakeOpenAIServer, model_answer
from samples import SAMPLES
from ville_runs import ville_config

from town.backends import make_backend
from town.events import EventKind
from town.scenario import load_scenario
from town.simulation import Simulation
from town.thinking.prompting import PromptSet
from town.thinking.questions import (
    DayPlanAnswer,
    DecomposeTask,
    GeneraliseProcedure,
    InvalidAnswer,
    PlanDay,
    StepAnswer,
    StepsAnswer,
)

SHOWER = "the_ville:Dorm for Oak Hill College:bathroom:shower"


def _town(prompt_book, api_key, answer=model_answer):
    """the_ville on a fake server answering with ``answer(question)``; (sim, server, questions asked)."""
    asked = []

    def responder(messages):
        question = prompt_book[messages[-1]["content"]]
        asked.append(question)
        return answer(question)

    server = FakeOpenAIServer(responder)
    server.rating_responder = responder
    config = ville_config(server, api_key, cache=False, timeout_s=30.0)
    parts = make_backend(config, backoff_s=0.01)
    sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=parts.stall)
    return sim, server, asked


def _first_tick(prompt_book, api_key, answer=model_answer):
    """:func:`_town` run for its first tick: (the questions that tick asked, its hour-plan events)."""
    sim, server, asked = _town(prompt_book, api_key, answer)
    plans = []
    sim.bus.subscribe(lambda e: plans.append(e) if e.kind is EventKind.PLAN and e.data["level"] == "hour" else None)
    before = len(asked)
    try:
        sim.run(1)
    finally:
        sim.close()
        server.close()
    return asked[before:], plans


def test_the_first_tick_plans_the_day_and_its_block_at_hand_in_one_request(prompt_book, api_key):
    """By the_ville's routines at 07:00: Klaus Mueller is to "get ready" at the dorm's shower
    (07:00-07:30), Isabella Rodriguez to "buy supplies" at the market's grocery shelf, Maria Lopez
    sleeps until 07:30 (nothing to decompose). Klaus's and Isabella's only request of the tick is
    the day plan, offering that block from 07:00; Maria's plan offers none. Klaus's hour plan is
    the answer's steps, filling the block's minutes (at most the 30 to 07:30, less the walk)."""
    first_tick, plans = _first_tick(prompt_book, api_key)
    by = {p: [q for q in first_tick if q.persona == p] for p in ("klaus_mueller", "isabella_rodriguez")}
    assert [q.template for q in by["klaus_mueller"]] == ["plan_day"]
    assert [q.template for q in by["isabella_rodriguez"]] == ["plan_day"]
    klaus = by["klaus_mueller"][0].first
    assert (klaus.task, klaus.place, klaus.start) == ("get ready", SHOWER, "07:00") and klaus.minutes <= 30
    isabella = by["isabella_rodriguez"][0].first
    assert (isabella.task, isabella.place) == ("buy supplies",
                                               "the_ville:The Willows Market and Pharmacy:aisles:grocery shelf")
    [maria] = [q for q in first_tick if q.persona == "maria_lopez" and q.template == "plan_day"]
    assert maria.first is None
    steps = json.loads(model_answer(by["klaus_mueller"][0]))["steps"]
    assert steps and sum(s["minutes"] for s in steps) == klaus.minutes
    assert {s["object"] for s in steps} == {SHOWER}  # the shower is the block's one object
    [hour] = [e for e in plans if e.persona == "klaus_mueller"]
    assert hour.data["task"] == "get ready" and hour.data["items"] == steps


def test_steps_made_for_a_block_the_plan_changes_are_not_used(prompt_book, api_key):
    """Klaus Mueller's plan drops his 07:30 breakfast (routine block 3), so "get ready" runs on
    to 08:00: the steps the answer made for 07:00-07:30 do not fill that hour's chunk, and the
    block is decomposed on its own (a DecomposeTask of more minutes than the plan offered),
    its hour plan that decomposition's steps."""
    def answer(question):
        reply = json.loads(model_answer(question))
        if isinstance(question, PlanDay) and question.persona == "klaus_mueller":
            reply["drop"] = [3]
        return json.dumps(reply)

    first_tick, plans = _first_tick(prompt_book, api_key, answer)
    [plan, decomposition] = [q for q in first_tick if q.persona == "klaus_mueller"
                             and isinstance(q, (PlanDay, DecomposeTask))]
    assert isinstance(plan, PlanDay) and isinstance(decomposition, DecomposeTask)
    assert decomposition.task == "get ready" and decomposition.minutes > plan.first.minutes
    [hour] = [e for e in plans if e.persona == "klaus_mueller"]
    assert hour.data["items"] == json.loads(model_answer(decomposition))["steps"]


def _with_block_at_hand():
    """The sample day plan offering its reading block's next 25 minutes at the library table."""
    return next(q for q, _ in SAMPLES if isinstance(q, PlanDay) and q.first is not None)


TABLE = "the_ville:Oak Hill College:library:library table"


def test_the_block_at_hands_steps_pass_a_decompositions_checks():
    """A step at the listed table passes, its short name resolved to the address; one at the
    bed (not an object of the block's place) is rejected by the decomposition's own check; an
    answer without steps is rejected; steps a model adds to a plan offering no block are dropped."""
    q = _with_block_at_hand()
    prompt = PromptSet().render(q)
    ok = DayPlanAnswer(add=[], drop=[], steps=[StepAnswer(description="open the book", object="library table",
                                                          minutes=10)])
    assert q.check(ok, prompt).steps == [StepAnswer(description="open the book", object=TABLE, minutes=10)]
    bed = ok.model_copy(update={"steps": [StepAnswer(description="lie down", object="bed", minutes=10)]})
    with pytest.raises(InvalidAnswer) as rejected:
        q.check(bed, prompt)
    assert rejected.value.check == "objects_at_the_place"
    with pytest.raises(InvalidAnswer) as none:
        q.check(DayPlanAnswer(add=[], drop=[], steps=[]), prompt)
    assert none.value.check == "first_steps"
    alone = next(q for q, _ in SAMPLES if isinstance(q, PlanDay) and q.first is None)
    assert alone.check(ok, PromptSet().render(alone)).steps is None
    assert "steps" not in alone.answer_schema()["properties"]
    assert q.answer_schema()["required"] == ["add", "drop", "steps"]


def test_a_finished_task_is_named_in_the_next_decompositions_request(prompt_book, api_key):
    """Klaus Mueller's routine: "get ready" 07:00-07:30, "have breakfast" 07:30-08:00, "attend
    class" 08:00-10:00. At 07:30 (tick 180) the decomposition of his breakfast names "get
    ready", which succeeded: no GeneraliseProcedure is asked for it and his library saves it at
    that tick under the answer's name. At 09:00 (tick 720) the class's second hour is the same
    task: "attend class" is named on its own first, and that hour follows the procedure just
    learned (no decomposition)."""
    sim, server, asked = _town(prompt_book, api_key)
    procedures = []
    sim.bus.subscribe(lambda e: procedures.append(e) if e.kind is EventKind.PROCEDURE
                      and e.persona == "klaus_mueller" else None)
    try:
        sim.run(730)
    finally:
        sim.close()
        server.close()
    klaus = [q for q in asked if q.persona == "klaus_mueller"]
    breakfast = next(q for q in klaus if isinstance(q, DecomposeTask) and q.task == "have breakfast")
    assert breakfast.finished is not None and breakfast.finished.task == "get ready"
    named = json.loads(model_answer(breakfast))
    assert named["name"] == "get ready" and named["when"] == "get ready"
    assert [q.task for q in klaus if isinstance(q, GeneraliseProcedure)] == ["attend class"]
    saved = [(e.tick, e.data["name"]) for e in procedures if e.data["op"] == "save"]
    assert saved[:2] == [(180, "get ready"), (360, "have breakfast")]
    assert (720, "attend class") in saved
    assert (720, "use", "attend class") in [(e.tick, e.data["op"], e.data["name"]) for e in procedures]
    assert [q.task for q in klaus if isinstance(q, DecomposeTask)] == ["have breakfast", "attend class"]


def test_a_finished_tasks_name_passes_its_own_questions_checks():
    """A decomposition naming the finished "have coffee" (its titles: "have coffee", "order
    coffee"): a listed title passes, in the listed case; one not listed is rejected by
    one_of_the_choices; no name by names_the_finished_task; a name written without a finished
    task is dropped; a task of seven words, in a memory too, passes as its own name."""
    steps = [StepAnswer(description="sit down", object="the_ville:Hobbs Cafe:cafe:counter", minutes=10)]
    plain = next(q for q, _ in SAMPLES if isinstance(q, DecomposeTask))
    learned = next(q for q, _ in SAMPLES if isinstance(q, GeneraliseProcedure))
    q = replace(plain, finished=learned)
    prompt = PromptSet().render(q)
    assert learned.choices() == ("have coffee", "order coffee")
    ok = q.check(StepsAnswer(steps=steps, name="Order coffee", when="have coffee"), prompt)
    assert (ok.name, ok.when) == ("order coffee", "have coffee")
    with pytest.raises(InvalidAnswer) as unlisted:
        q.check(StepsAnswer(steps=steps, name="The City of Ember", when="have coffee"), prompt)
    assert unlisted.value.check == "one_of_the_choices"
    with pytest.raises(InvalidAnswer) as unnamed:
        q.check(StepsAnswer(steps=steps), prompt)
    assert unnamed.value.check == "names_the_finished_task"
    dropped = plain.check(StepsAnswer(steps=steps, name="have coffee", when="have coffee"), PromptSet().render(plain))
    assert (dropped.name, dropped.when) == (None, None)
    assert q.answer_schema()["properties"]["name"]["enum"] == ["have coffee", "order coffee"]
    # a task of five words or more, named as it stands, is neither taken for the prompt's
    # instructions (shown in a sentence, "open the cafe after lunch and serve customers" was
    # rejected by own_words) nor for a copy of a memory holding it (not_copied)
    long = replace(learned, task="open the cafe after lunch and serve customers")
    told = replace(plain.memories[0], content="Isabella will open the cafe after lunch and serve customers.")
    q = replace(plain, finished=long, memories=(*plain.memories, told))
    named = q.check(StepsAnswer(steps=steps, name=long.task, when=long.task), PromptSet().render(q))
    assert named.name == named.when == long.task
