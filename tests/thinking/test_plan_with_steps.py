"""A model backend's day plan asks, in the same request, for the steps of the routine block at
hand: a persona's first tick makes one request where it made a day plan, a decomposition and a
rating of the plan (the decomposition's retrieval read the unrated plan memory)."""

from __future__ import annotations

import json

import pytest
from fake_server import FakeOpenAIServer, model_answer
from samples import SAMPLES
from ville_runs import ville_config

from town.backends import make_backend
from town.events import EventKind
from town.mind.context import MindContext
from town.mind.plan import plan_day
from town.scenario import load_scenario
from town.simulation import Simulation
from town.thinking.prompting import PromptSet
from town.thinking.questions import DayPlanAnswer, DecomposeTask, InvalidAnswer, PlanDay, StepAnswer

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


def test_the_first_tick_plans_the_day_and_its_block_at_hand_in_one_request(prompt_book, api_key):
    """By the_ville's routines at 07:00: Klaus Mueller is to "get ready" at the dorm's shower
    (07:00-07:30), Isabella Rodriguez to "buy supplies" at the market's grocery shelf, Maria Lopez
    sleeps until 07:30 (nothing to decompose). Klaus's and Isabella's only request of the tick is
    the day plan, offering that block from 07:00; Maria's plan offers none. Klaus's hour plan is
    the answer's steps, filling the block's minutes (at most the 30 to 07:30, less the walk)."""
    sim, server, asked = _town(prompt_book, api_key)
    plans = []
    sim.bus.subscribe(lambda e: plans.append(e) if e.kind is EventKind.PLAN and e.data["level"] == "hour" else None)
    before = len(asked)
    try:
        sim.run(1)
    finally:
        sim.close()
        server.close()
    first_tick = asked[before:]
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

    sim, server, asked = _town(prompt_book, api_key, answer)
    plans = []
    sim.bus.subscribe(lambda e: plans.append(e) if e.kind is EventKind.PLAN and e.data["level"] == "hour" else None)
    before = len(asked)
    try:
        sim.run(1)
    finally:
        sim.close()
        server.close()
    [plan, decomposition] = [q for q in asked[before:] if q.persona == "klaus_mueller"
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
