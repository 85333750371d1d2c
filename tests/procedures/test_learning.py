"""Learning from episodes and anonymising for the town library (docs/design, §2)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from applied_at_once import context

from town.embedding import HashingEmbedder
from town.events import EventKind
from town.mind import practice
from town.procedures import (
    Episode,
    Procedure,
    ProceduralMemory,
    ProcedureError,
    ProcedureLibrary,
    ProcedureStep,
    StepFailure,
    anonymise,
    home_of,
    persona_values,
)
from town.thinking.openai_backend import OpenAIBackend
from town.scripted import ScriptedBackend
from town.thinking.wrappers.recorder import CallRecorder
from town.thinking.wrappers.retrying import RetryingBackend

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "thinking"))  # the fake model server
from fake_server import FakeOpenAIServer  # noqa: E402

ISABELLA = ("Isabella Rodriguez", "the_ville:Isabella Rodriguez's apartment:bedroom:bed")
KLAUS = ("Klaus Mueller", "the_ville:Dorm for Oak Hill College:Klaus Mueller's room:bed")
STOVE = "the_ville:Isabella Rodriguez's apartment:kitchen:stove"


def make(place: str = STOVE):
    """A persona stand-in with a procedural memory, a context whose events are collected."""
    emb = HashingEmbedder(dim=64)
    town = ProcedureLibrary(emb)
    p = SimpleNamespace(
        id="isabella_rodriguez",
        name=ISABELLA[0],
        spec=SimpleNamespace(home=ISABELLA[1], routine=()),
        procedures=ProceduralMemory(ProcedureLibrary(emb), town, (ISABELLA, KLAUS)),
        summary=lambda: "",
        unrated=[],  # memories waiting for their importance (none: the scripted backend rates at once)
    )
    ctx, events = context(datetime(2023, 2, 13, 20, 30))
    steps = [
        SimpleNamespace(description="cook (cook dinner)", object=place, minutes=10),
        SimpleNamespace(description="wash up (cook dinner)", object=place, minutes=5),
    ]
    practice.begin(p, ctx, task="cook dinner", place=STOVE, steps=steps)
    return p, ctx, steps, events


def test_home_of_is_the_part_naming_the_persona():
    """An apartment sector for Isabella; the room (not the shared dorm) for Klaus."""
    assert home_of(ISABELLA[1], ISABELLA[0]) == "the_ville:Isabella Rodriguez's apartment"
    assert home_of(KLAUS[1], KLAUS[0]) == "the_ville:Dorm for Oak Hill College:Klaus Mueller's room"


def _again(p, ctx, steps) -> None:
    """The same task done again, every step at its place."""
    practice.begin(p, ctx, task="cook dinner", place=STOVE, steps=steps)
    for s in steps:
        practice.step_started(p, s)
    practice.close(p, ctx)


def test_verified_success_is_generalised_and_saved_then_shared_at_its_second():
    """Both steps done at the stove: saved to the persona's library as {place} steps, successes
    1; shared to the town library only at its second success (2/0 in the persona's)."""
    p, ctx, steps, events = make()
    for s in steps:
        practice.step_started(p, s)
    practice.close(p, ctx)
    own = p.procedures.own.get("cook dinner")
    assert [s.object for s in own.steps] == ["{place}", "{place}"]
    assert (own.successes, own.failures) == (1, 0)
    saves = [e.data for e in events if e.kind is EventKind.PROCEDURE]
    assert [(d["op"], d["library"]) for d in saves] == [("save", "isabella_rodriguez")]
    assert (
        saves[0]["procedure"]["status"] == "active"
        and saves[0]["procedure"]["reliability"] == 2 / 3
    )
    assert len(p.procedures.town) == 0
    _again(p, ctx, steps)
    saves = [e.data for e in events if e.kind is EventKind.PROCEDURE]
    assert [(d["op"], d["library"], d.get("merged")) for d in saves[1:]] == [
        ("save", "isabella_rodriguez", True), ("save", "town", False)]
    assert (p.procedures.own.get("cook dinner").successes, len(p.procedures.town)) == (2, 1)


@pytest.mark.parametrize("name", ["cook", "Living Room Setup"])
def test_a_model_named_procedure_is_absent_from_the_town_library_until_its_second_success(name):
    """A model on the fake server names the procedure. "cook", a listed title (its first step's
    words): after one success it is the persona's only, after the second it is in the town
    library too. "Living Room Setup" (the 0.5B model's name for a shower procedure) is no listed
    title, four times: the scripted name, the task, is saved instead, and it is that which is
    shared."""
    server = FakeOpenAIServer(lambda messages: json.dumps({"name": name, "when": "cook dinner"}), api_key=None)
    model = OpenAIBackend(base_url=server.base_url, model=server.model, structured="json_schema")
    p, ctx, steps, events = make()
    ctx.services = replace(ctx.services, backend=RetryingBackend(model, fallback=ScriptedBackend(),
                                                                 recorder=CallRecorder(), backoff_s=0))
    try:
        for s in steps:
            practice.step_started(p, s)
        practice.close(p, ctx)
        kept = name if name in p.procedures.own else "cook dinner"
        assert [q.name for q in p.procedures.own.procedures()] == [kept] and len(p.procedures.town) == 0
        _again(p, ctx, steps)
    finally:
        model.close()
        server.close()
    assert [(q.name, q.successes) for q in p.procedures.own.procedures()] == [(kept, 2)]
    assert [q.name for q in p.procedures.town.procedures()] == [kept]
    assert kept == ("cook dinner" if name == "Living Room Setup" else name)
def test_nothing_is_saved_from_a_failed_task():
    """A step refused by the world (closed) ends the episode as a failure: nothing saved."""
    p, ctx, steps, events = make()
    practice.step_started(p, steps[0])
    practice.step_failed(p, ctx, steps[1], StepFailure.CLOSED)
    assert len(p.procedures.own) == 0 and len(p.procedures.town) == 0 and events == []


def test_nothing_is_saved_from_an_unverified_task():
    """One of two steps done (cut short), or all done away from the intended place: not saved."""
    p, ctx, steps, events = make()
    practice.step_started(p, steps[0])
    practice.close(p, ctx)
    p2, ctx2, steps2, _ = make(place="the_ville:Hobbs Cafe:kitchen:stove")
    for s in steps2:
        practice.step_started(p2, s)
    assert p2.procedures.episode.verify()[0].value == "unverified"
    practice.close(p2, ctx2)
    assert len(p.procedures.own) == len(p2.procedures.own) == 0 and events == []


def test_a_persona_without_procedural_memory_is_named_when_asked_to_practise():
    """A player has no procedural memory: nothing is followed, and closing a task names it."""
    _, ctx, _, events = make()
    player = SimpleNamespace(id="player_ada", procedures=None)
    assert practice.followed(player) is None
    with pytest.raises(ProcedureError, match="^player_ada has no procedural memory$"):
        practice.close(player, ctx)
    assert events == []


def test_anonymised_procedure_keeps_no_name_or_home():
    """Names (full and first), both homes and a 4+ digit number become parameters."""
    values = persona_values(
        name=ISABELLA[0], home_address=ISABELLA[1], place="the_ville:Hobbs Cafe"
    )
    assert values["home"] == "the_ville:Isabella Rodriguez's apartment"
    ep = Episode(
        task="cook dinner for Klaus",
        place=STOVE,
        values=values,
        planned=(
            {"description": "Isabella cooks for Klaus Mueller", "object": STOVE, "minutes": 10},
            {
                "description": "pay with card 12345678",
                "object": "the_ville:Dorm for Oak Hill College:Klaus Mueller's room:bed",
                "minutes": 5,
            },
        ),
    )
    from town.procedures import Procedure

    proc = Procedure(
        name=ep.task,
        when=ep.task,
        created=datetime(2023, 2, 13),
        last_used=datetime(2023, 2, 13),
        steps=tuple(ProcedureStep(**s) for s in ep.planned),
    )
    shared = anonymise(proc, owner=ISABELLA, others=[KLAUS])
    text = " ".join(
        [shared.name, shared.when] + [f"{s.description} {s.object}" for s in shared.steps]
    )
    for banned in (
        "Isabella",
        "Rodriguez",
        "Klaus",
        "Mueller",
        "apartment",
        "Klaus Mueller's room",
        "12345678",
    ):
        assert banned not in text, banned
    assert [s.object for s in shared.steps] == ["{home}:kitchen:stove", "{other_home}:bed"]
    assert shared.steps[0].description == "{persona} cooks for {other}"


@pytest.mark.parametrize("minutes,expected", [(30, [10, 5, 10, 5]), (12, [10, 2]), (15, [10, 5])])
def test_fit_minutes_repeats_or_cuts_keeping_step_lengths(minutes, expected):
    """Steps of 10 and 5 minutes fill 30 minutes as 10,5,10,5; 12 as 10,2."""
    steps = [
        ProcedureStep(description="a", object="x", minutes=10),
        ProcedureStep(description="b", object="x", minutes=5),
    ]
    assert [s.minutes for s in practice.fit_minutes(steps, minutes)] == expected


def test_anonymise_with_a_large_roster_equals_scrubbing_every_persona():
    """With 400 other personas the result is the naive scrub over every one of them (reference:
    each home part replaced, then each whole-word name or name word, in roster order)."""
    import re

    from town.procedures import Procedure, home_of

    others = [(f"Quinn{i:03d} Larsen{i:03d}", f"w:{i:03d} Birch Lane:Quinn{i:03d} Larsen{i:03d}'s room:bed")
              for i in range(400)]
    others[150] = KLAUS
    others.append(("Ann Lee", "w:Lee house:kitchen:stove"))
    texts = ["cook for Klaus and Quinn007 at w:007 Birch Lane:Quinn007 Larsen007's room",
             "Ann visits Anne and Isabella at the_ville:Isabella Rodriguez's apartment, Lee too",
             "no names here, code 20230213"]

    def reference(text: str) -> str:
        for (name, home), (p_name, p_home) in ((ISABELLA, ("persona", "home")),
                                               *((o, ("other", "other_home")) for o in others)):
            text = text.replace(home_of(home, name), "{" + p_home + "}")
            words = [re.escape(name)] + [re.escape(w) for w in name.split() if len(w) > 2]
            text = re.sub(r"\b(?:" + "|".join(words) + r")\b", "{" + p_name + "}", text)
        return re.sub(r"(?<![{\w])\d{4,}(?![\w}])", "{number}", text)

    proc = Procedure(name=texts[0], when=texts[1], created=datetime(2023, 2, 13),
                     last_used=datetime(2023, 2, 13),
                     steps=tuple(ProcedureStep(description=t, object=t, minutes=5) for t in texts))
    shared = anonymise(proc, owner=ISABELLA, others=others)
    assert shared.name == reference(texts[0]) == "cook for {other} and {other} at {other_home}"
    assert shared.when == reference(texts[1]) == "{other} visits Anne and {persona} at {home}, {other} too"
    for step, text in zip(shared.steps, texts):
        assert step.description == step.object == reference(text)


def test_a_town_procedure_at_a_place_known_closed_is_a_deviation_not_a_failure():
    """The town's "buy supplies" leads to the market, which the persona remembers seeing closed:
    it is skipped with a deviation event (not counted), its counts stay (1, 0), nothing is followed."""
    market = "the_ville:The Willows Market and Pharmacy:aisles:grocery shelf"
    p, ctx, _, events = make()
    p.procedures.episode = None
    ctx.services = replace(ctx.services, world=SimpleNamespace(
        tilemap=SimpleNamespace(has_address=lambda a: True), is_open=lambda a: not a.startswith(market)))
    p.stream = SimpleNamespace(records=lambda: [SimpleNamespace(content="The Willows Market and Pharmacy is closed.")])
    p.procedures.town.save(Procedure(name="buy supplies", when="buy supplies",
                                     steps=(ProcedureStep(description="pick groceries", object=market, minutes=10),),
                                     created=ctx.now, last_used=ctx.now), now=ctx.now)
    assert practice.follow(p, ctx, task="buy supplies", place=market, minutes=30) is None
    dev = [e.data for e in events if e.data["op"] == "deviation"]
    assert [(d["library"], d["name"], d["counted"]) for d in dev] == [("town", "buy supplies", False)]
    assert "The Willows Market and Pharmacy is known to be closed" in dev[0]["reason"]
    assert (p.procedures.town.get("buy supplies").successes, p.procedures.town.get("buy supplies").failures) == (1, 0)


def test_a_procedure_named_by_its_owner_is_shared_only_under_a_name_the_checks_pass():
    """A persona's "Living Room Setup" for cooking dinner (saved before the checks, as the 0.5B
    model named a shower procedure) takes a second success by its ``when``: 2/0, yet its name does
    not name the task, so it stays the persona's; a well-named twin is shared at the same point."""
    for name, shared in (("Living Room Setup", 0), ("Cooking Dinner", 1)):
        p, ctx, steps, events = make()
        p.procedures.own.save(Procedure(name=name, when="cook dinner", steps=(
            ProcedureStep(description="cook (cook dinner)", object="{place}", minutes=10),
            ProcedureStep(description="wash up (cook dinner)", object="{place}", minutes=5)),
            created=ctx.now, last_used=ctx.now), now=ctx.now)
        for s in steps:
            practice.step_started(p, s)
        practice.close(p, ctx)
        assert [(q.name, q.successes) for q in p.procedures.own.procedures()] == [(name, 2)]
        assert len(p.procedures.town) == shared
