"""Every prompt agrees with its checks: what a prompt shows to be used as it stands, the checks accept.

The questions are those a scripted run of the_ville asks in its first hours (the same questions, with
the same memories, a model run asks), the templates it asks none of from ``samples.SAMPLES``. Each
template renders each of its questions, and the answers its prompt invites are built from the
rendered text alone (a listed object written exactly as listed, a known procedure's steps written
as they are, a procedure's task with each listed value in braces); the question's checks, its
narrowed schema included, must accept them. Before, decompose_task listed a known procedure's steps
as "wipe the counter at the_ville:Hobbs Cafe:cafe:counter, 10 min" and said to copy them, and
``plain_descriptions`` rejected every copy: 8 of a 0.5B model's 16 rejected decompositions.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

import jsonschema
import pytest
from samples import SAMPLES

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation
from town.thinking.prompting import PACKAGED_PROMPTS, PromptSet
from town.thinking.questions import (
    ChoosePlace,
    HeardAnswer,
    DayPlanAnswer,
    DecomposeTask,
    GeneraliseProcedure,
    InvalidAnswer,
    NextAction,
    PlaceAnswer,
    PlanDay,
    ProcedureAnswer,
    Question,
    StepAnswer,
    StepsAnswer,
)
from town.scripted import ScriptedBackend
from town.thinking.questions.hear_line import stated_times_valid

#: Game hours of the_ville's scripted run whose questions are rendered.
HOURS = 10
#: Questions of each template rendered at most.
PER_TEMPLATE = 6


class _Recording(ScriptedBackend):
    """The scripted backend, keeping every question it is asked."""

    def __init__(self):
        super().__init__()
        self.asked: list[Question] = []

    def ask(self, question):
        self.asked.append(question)
        return super().ask(question)


def _with_a_procedure(q: DecomposeTask, learned: GeneraliseProcedure) -> DecomposeTask:
    """``q`` offering the steps of a task the run learned as a known procedure, at ``q``'s objects
    (what :func:`town.mind.practice.follow.known_for` hands it)."""
    objects = list(q.objects) or [q.place]
    steps = [{"description": s["description"], "object": objects[i % len(objects)], "minutes": s["minutes"]}
             for i, s in enumerate(learned.steps)]
    return replace(q, procedures=({"name": learned.task, "steps": steps},),
                   minutes=max(q.minutes, sum(s["minutes"] for s in steps)))


@pytest.fixture(scope="module")
def asked() -> dict[str, list[Question]]:
    """Template -> the questions asked of it (at most :data:`PER_TEMPLATE`), with a known procedure
    offered to the decompositions, and a sample for each template the run asks none of."""
    backend = _Recording()
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}), backend=backend)
    try:
        sim.run(sim.clock.ticks_for(hours=HOURS))
    finally:
        sim.close()
    by: dict[str, list[Question]] = defaultdict(list)
    for q in backend.asked:
        if len(by[q.template]) < PER_TEMPLATE and q not in by[q.template]:
            by[q.template].append(q)
    learned = by["generalise_procedure"]
    assert learned and by["decompose_task"], "the run learned no procedure, or decomposed no task"
    by["decompose_task"] = [_with_a_procedure(q, learned[i % len(learned)]) for i, q in enumerate(by["decompose_task"])]
    # a model backend's day plan asks for the block at hand's steps too (its memories: the plan's)
    by["plan_day"] += [replace(q, first=replace(d, memories=())) for q, d in zip(by["plan_day"], by["decompose_task"])]
    # and its decomposition names the procedure of the task just finished
    by["decompose_task"] += [replace(d, finished=g) for d, g in zip(by["decompose_task"], learned)]
    for q, _ in SAMPLES:
        by.setdefault(q.template, [q])
    return by


def _listed(prompt: str, after: str) -> list[str]:
    """The "- " lines of ``prompt`` right after the line starting with ``after``."""
    lines = prompt.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(after))
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("- "):
            break
        out.append(line[2:])
    return out


def _decompositions(q: DecomposeTask, prompt: str) -> list[StepsAnswer]:
    """Each known procedure's steps written as the prompt shows them, at each listed object."""
    objects = _listed(prompt, "Each step uses")
    known = _listed(prompt, "You already know") if q.procedures else []
    out = []
    for line in known:
        shown = line.split(": ", 1)[1].split("; ")
        for obj in objects:
            out.append(StepsAnswer(steps=[StepAnswer(description=s, object=obj, minutes=5) for s in shown]))
    out = out or [StepsAnswer(steps=[StepAnswer(description="tidy up", object=o, minutes=5)]) for o in objects]
    if q.finished is None:
        return out
    titles = _listed(prompt, "These steps become")  # the finished task named by each listed title
    return [a.model_copy(update={"name": t, "when": t}) for a in out for t in titles]


def _procedure_names(q: GeneraliseProcedure, prompt: str) -> list[ProcedureAnswer]:
    """Each listed title, as the name and as the kind of task."""
    return [ProcedureAnswer(name=c, when=c) for c in _listed(prompt, "These steps become")]


def _places(q: ChoosePlace, prompt: str) -> list[PlaceAnswer]:
    return [PlaceAnswer(place=p) for p in _listed(prompt, "Choose where")]


def _plans(q: PlanDay, prompt: str) -> list[DayPlanAnswer]:
    """"When nothing changes, both lists are empty"; with the block at hand offered, its steps as a
    decomposition's prompt invites them (known procedures' steps as shown, at each listed object)."""
    if q.first is None:
        return [DayPlanAnswer(add=[], drop=[])]
    return [DayPlanAnswer(add=[], drop=[], steps=s.steps) for s in _decompositions(q.first, prompt)]


def _actions(q: NextAction, prompt: str):
    habit = re.search(r"your routine is: (.+) \(usually at ", prompt)
    assert habit, prompt
    return [q.answer_model(description=habit.group(1), object=o, minutes=5)
            for o in _listed(prompt, "What should you do now")]


#: template -> the answers its prompt invites, built from the rendered prompt.
INVITED = {"plan_day": _plans, "decompose_task": _decompositions, "generalise_procedure": _procedure_names,
           "choose_place": _places, "next_action": _actions}


def test_every_template_is_rendered_from_a_question(asked):
    templates = {p.stem for p in PACKAGED_PROMPTS.glob("*.j2") if not p.stem.startswith("_")}
    assert templates <= set(asked), templates - set(asked)


def test_what_each_prompt_shows_to_be_used_as_it_stands_its_checks_accept(asked):
    prompts = PromptSet()
    refused = []
    for template, questions in sorted(asked.items()):
        for q in questions:
            prompt = prompts.render(q)
            invited = INVITED.get(template, lambda q, p: [])(q, prompt)  # others: nothing to use as it stands
            for answer in invited:
                try:
                    jsonschema.validate(answer.model_dump(mode="json", exclude_none=True), q.answer_schema())
                    q.check(answer, prompt)
                except (jsonschema.ValidationError, InvalidAnswer) as exc:
                    refused.append(f"{template} ({q.persona}): {answer.model_dump_json()[:160]} -> {exc}"[:400])
    assert not refused, "\n".join(refused)


def test_a_known_procedure_is_shown_without_its_addresses_and_minutes(asked):
    q = asked["decompose_task"][0]
    prompt = PromptSet().render(q)
    shown = _listed(prompt, "You already know")
    assert shown and all(":" not in line.split(": ", 1)[1] and " min" not in line for line in shown), shown


def test_an_invitation_reads_as_a_sentence(asked):
    """'You see Klaus Mueller, who is wants to talk to Maria Lopez' was the prompt of an invitation."""
    invited = [q for q in asked["decide_to_talk"] if q.invited]
    assert invited, "the run asked no one to accept an invitation"
    for q in invited:
        prompt = PromptSet().render(q)
        assert "who is wants" not in prompt and f"{q.other_name}, who is coming over to talk to you." in prompt


@pytest.mark.parametrize("template", ["hear_line", "write_conversation"])
def test_a_heard_lines_time_is_asked_with_its_clock_time(asked, template):
    """The prompt asked for "start" as "YYYY-MM-DD HH:MM" "(a date, not "tomorrow")", and SmolLM2
    wrote the date alone ("2023-02-14.", "2023-02-07"), which ``stated_times_valid`` rejected: 5 of
    8 hear_line answers in a resample. The prompt now asks for the date and the clock time, and
    for "" when the line gives no clock time; a bare date is read as that "" (a date with a mark
    after it is still no time)."""
    prompt = PromptSet().render(asked[template][0])
    with pytest.raises(InvalidAnswer, match="is not a time like"):
        stated_times_valid(asked["hear_line"][0], HeardAnswer(importance=3, act="meet", start="2023-02-14."), prompt)
    assert stated_times_valid(asked["hear_line"][0], HeardAnswer(importance=3, act="meet", start="2023-02-07"),
                              prompt).start == ""
    assert "(a date, not" not in prompt
    assert 'as "YYYY-MM-DD HH:MM", the date and the clock time (never "tomorrow"), or "" when the line ' \
           "gives no clock time" in prompt


def test_a_next_line_is_asked_as_the_speaker_to_the_listener(asked):
    """``speaks_as_itself`` rejects a line naming its own speaker as a narrator would; the prompt
    said only "Say your next line", and SmolLM2 wrote 10 of 16 lines as a narrator or under a
    heading copied from a memory ("Maria Lopez's plan for Monday February 13. ...", "This week,
    Klaus Mueller has a crush on Maria Lopez." by Maria). Asked to speak as itself ("I" for
    you, "you" for them) with no heading or date before the line, 3 of 16 were (resample of the
    same questions)."""
    q = next(q for q in asked["next_line"] if not q.stranger)
    prompt = PromptSet().render(q)
    assert (f'Say your next line to {q.listener_name} as yourself: "I" for you, "you" for them (one or two '
            "sentences of your own, not a memory's id or text copied out, and no heading or date before them).") in prompt
