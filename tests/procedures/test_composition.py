"""Composite procedures in practice (learning with calls, feedback at both levels) and goals."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from applied_at_once import context

from town.embedding import HashingEmbedder
from town.mind import practice
from town.procedures import (
    Goal,
    Outcome,
    ProceduralMemory,
    Procedure,
    ProcedureLibrary,
    ProcedureStep,
    StepFailure,
)
from town.procedures.generalise import compose
from town.scripted import ScriptedBackend

ISABELLA = ("Isabella Rodriguez", "the_ville:Isabella Rodriguez's apartment:bedroom:bed")
COUNTER = "the_ville:Hobbs Cafe:cafe:counter"
STOVE = "the_ville:Hobbs Cafe:kitchen:stove"
T0 = datetime(2023, 2, 13, 13, 0)

#: "open the cafe", as a persona library holds it after one verified success (2/3).
OPEN = Procedure(
    name="open the cafe",
    when="open the cafe",
    steps=(
        ProcedureStep(description="unlock the door", object="{place}", minutes=5),
        ProcedureStep(description="set out the chairs", object="{place}", minutes=10),
    ),
    created=T0,
    last_used=T0,
)


def step(description: str, minutes: int, obj: str = COUNTER) -> SimpleNamespace:
    """A mind step stand-in."""
    return SimpleNamespace(description=description, object=obj, minutes=minutes)


def make(*, routine=(), procedures=(OPEN,)):
    """A persona stand-in whose library holds ``procedures``; a context collecting events."""
    emb = HashingEmbedder(dim=64)
    own = ProcedureLibrary(emb)
    for proc in procedures:
        own.save(proc, now=T0)
    p = SimpleNamespace(
        id="isabella_rodriguez",
        name=ISABELLA[0],
        spec=SimpleNamespace(home=ISABELLA[1], routine=routine),
        procedures=ProceduralMemory(own, ProcedureLibrary(emb), (ISABELLA,)),
        summary=lambda: "",
        stream=SimpleNamespace(records=lambda: []),
    )
    ctx, events = context(T0, world=SimpleNamespace(tilemap=SimpleNamespace(has_address=lambda a: True),
                                                    is_open=lambda a: True))
    return p, ctx, events


def ops(events):
    """(op, library, name) of each PROCEDURE event."""
    return [(e.data["op"], e.data["library"], e.data["name"]) for e in events]


def test_compose_replaces_the_covered_run_by_a_call():
    """Steps a,b,c,b,c with a known run b,c: a, call, call (both runs), worked out by hand."""
    planned = [
        {"description": d, "object": "x", "minutes": 5} for d in ("a", "b", "c", "b", "c")
    ]
    steps = [ProcedureStep(**s) for s in planned]
    known = {"bc": planned[1:3], "too long": planned, "single": planned[:1]}
    got = compose(steps, planned, known)
    assert [s.procedure or s.description for s in got] == ["a", "bc", "bc"]
    other = dict(planned[1], minutes=10)  # same texts, other minutes: not the same run
    assert compose(steps, planned, {"bc": [other, planned[2]]}) == tuple(steps)


def test_a_task_whose_steps_repeat_a_reliable_procedure_is_saved_as_a_composite():
    """Opening steps, then serving: the persona's copy calls "open the cafe"; the town's, shared
    at its second success, is flat."""
    p, ctx, _ = make()
    steps = [step("unlock the door", 5), step("set out the chairs", 10), step("serve", 15)]
    for _ in range(2):
        assert "serve after lunch" not in p.procedures.town
        practice.begin(p, ctx, task="serve after lunch", place=COUNTER, steps=steps)
        for s in steps:
            practice.step_started(p, s)
        practice.close(p, ctx)
    saved = p.procedures.own.get("serve after lunch")
    assert [s.to_dict() for s in saved.steps] == [
        {"procedure": "open the cafe"},
        {"description": "serve", "object": "{place}", "minutes": 15},
    ]
    assert [s.description for s in p.procedures.own.expand("serve after lunch")] == [
        "unlock the door",
        "set out the chairs",
        "serve",
    ]
    town = p.procedures.town.get("serve after lunch")
    assert [s.procedure for s in town.steps] == [None, None, None]


def composite_memory():
    """A persona whose library holds "open the cafe" and a composite that calls it first."""
    serve = Procedure(
        name="serve after lunch",
        when="serve after lunch",
        steps=(
            ProcedureStep(procedure="open the cafe"),
            ProcedureStep(description="serve", object="{place}", minutes=15),
        ),
        created=T0,
        last_used=T0,
    )
    return make(procedures=(OPEN, serve))


def follow_composite(p, ctx):
    """Follow the composite for a 30-minute chunk at the counter (its three steps)."""
    return practice.follow(p, ctx, task="serve after lunch", place=COUNTER, minutes=30)


def test_following_a_composite_uses_and_rewards_both_levels():
    """All three steps done: a use and a success for the composite and for its part (2/0 each);
    the composite's second success shares it to the town library."""
    p, ctx, events = composite_memory()
    del events[:]
    steps = follow_composite(p, ctx)
    assert [(s.description, s.object, s.minutes) for s in steps] == [
        ("unlock the door", COUNTER, 5),
        ("set out the chairs", COUNTER, 10),
        ("serve", COUNTER, 15),
    ]
    for s in steps:
        practice.step_started(p, s)
    practice.close(p, ctx)
    own = f"{p.id}"
    assert ops(events) == [
        ("use", own, "serve after lunch"),
        ("use", own, "open the cafe"),
        ("outcome", own, "serve after lunch"),
        ("outcome", own, "open the cafe"),
        ("save", "town", "serve after lunch"),
    ]
    assert events[1].data["via"] == "serve after lunch"
    lib = p.procedures.own
    assert [(lib.get(n).successes, lib.get(n).failures) for n in ("serve after lunch", "open the cafe")] == [
        (2, 0),
        (2, 0),
    ]


def test_a_failure_counts_against_the_part_whose_step_failed_only():
    """Failing in the serving step: the composite fails (1/1), the opening part that was done
    succeeds (2/0); failing in the opening part fails both."""
    p, ctx, _ = composite_memory()
    steps = follow_composite(p, ctx)
    practice.step_started(p, steps[0])
    practice.step_started(p, steps[1])
    practice.step_failed(p, ctx, steps[2], StepFailure.BUSY)
    lib = p.procedures.own
    assert (lib.get("serve after lunch").successes, lib.get("serve after lunch").failures) == (1, 1)
    assert (lib.get("open the cafe").successes, lib.get("open the cafe").failures) == (2, 0)

    p, ctx, _ = composite_memory()
    steps = follow_composite(p, ctx)
    practice.step_started(p, steps[0])
    practice.step_failed(p, ctx, steps[1], StepFailure.CLOSED)
    lib = p.procedures.own
    assert [(lib.get(n).successes, lib.get(n).failures) for n in ("serve after lunch", "open the cafe")] == [
        (1, 1),
        (1, 1),
    ]


def test_all_steps_done_but_goal_failed_saves_nothing():
    """"cook lunch" needs a stove used 10 minutes; 5 minutes at the stove and 5 at the counter:
    every step ran, the goal did not hold, the episode is unverified and nothing is saved."""
    routine = (SimpleNamespace(task="cook lunch", goal=Goal(uses="stove", minutes=10)),)
    p, ctx, events = make(routine=routine, procedures=())
    steps = [step("cook soup", 5, STOVE), step("wipe the counter", 5, COUNTER)]
    practice.begin(p, ctx, task="cook lunch", place="the_ville:Hobbs Cafe", steps=steps)
    for s in steps:
        practice.step_started(p, s)
    assert p.procedures.episode.done == 2
    assert p.procedures.episode.verify() == (
        Outcome.UNVERIFIED,
        "goal not met: stove used 5 of 10 minutes",
    )
    practice.close(p, ctx)
    assert len(p.procedures.own) == len(p.procedures.town) == 0 and events == []
    # the same steps with 10 minutes at the stove meet the goal and are saved
    p, ctx, _ = make(routine=routine, procedures=())
    steps[0] = step("cook soup", 10, STOVE)
    practice.begin(p, ctx, task="cook lunch", place="the_ville:Hobbs Cafe", steps=steps)
    for s in steps:
        practice.step_started(p, s)
    practice.close(p, ctx)
    assert "cook lunch" in p.procedures.own


def test_decomposition_does_a_known_part_the_task_names_first():
    """Offered "open the cafe" (15 minutes), the scripted decomposer of "open the cafe after
    lunch and serve customers" starts with its two steps and fills the other 45 minutes; a task
    that does not name it ("serve customers") does not use it. A model sees it in the prompt."""
    from town.thinking.prompting import PromptSet
    from town.thinking.questions import DecomposeTask

    known = {"name": "open the cafe", "steps": [
        {"description": "unlock the door", "object": COUNTER, "minutes": 5},
        {"description": "set out the chairs", "object": COUNTER, "minutes": 10},
    ]}

    def ask(task):
        q = DecomposeTask(persona="isabella_rodriguez", persona_name=ISABELLA[0],
                          persona_summary="", seed=3, task=task, place=COUNTER, start="13:00",
                          minutes=60, objects=(COUNTER,), procedures=(known,))
        return q, ScriptedBackend().ask(q).steps

    q, steps = ask("open the cafe after lunch and serve customers")
    assert [(s.description, s.minutes) for s in steps[:2]] == [
        ("unlock the door", 5), ("set out the chairs", 10)]
    assert sum(s.minutes for s in steps[2:]) == 45
    assert "- open the cafe: unlock the door; set out the chairs\n" in PromptSet().render(q)
    _, steps = ask("serve customers")
    assert "unlock the door" not in [s.description for s in steps]
