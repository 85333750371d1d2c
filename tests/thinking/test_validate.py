"""Parsing and domain checks of model answers; prompts render and can be overridden."""

from __future__ import annotations

import json
import typing

import pytest

from town.errors import ConfigError
from town.thinking import answers, questions
from town.thinking.model import CallOutcome
from town.thinking.prompting import PromptSet
from town.thinking.questions import (
    ChoosePlace,
    DecomposeTask,
    Insights,
    MemoryView,
    NextLine,
    PlanDay,
    PlanItemView,
    RateImportance,
)
from town.thinking.questions.checks import match_option
from town.thinking.validate import InvalidAnswer, parse_answer

CAFE = "the_ville:Hobbs Cafe:cafe:counter"
HOME = "the_ville:Isabella's apartment:main room:bed"
MEMS = (
    MemoryView(id=4, content="The party is on Friday", kind="observation", importance=8),
    MemoryView(id=9, content="Klaus likes coffee", kind="observation", importance=3),
)
BASE = {"persona": "isabella_rodriguez", "persona_name": "Isabella Rodriguez"}


def test_json_is_found_in_fences_and_prose():
    """A fenced or prose-wrapped object parses; text without an object is unparsable."""
    q = RateImportance(**BASE, content="ate breakfast", kind="observation")
    assert parse_answer(q, '```json\n{"importance": 2}\n```').importance == 2
    assert parse_answer(q, 'Sure! {"importance": 7} Hope that helps.').importance == 7
    for text in ("no json here", '{"importance": 7', None):
        with pytest.raises(InvalidAnswer) as info:
            parse_answer(q, text)
        assert info.value.unparsable


def test_each_question_is_typed_with_the_answer_model_it_parses_into():
    """``Question[A]``'s ``A`` (what ``ask`` is typed to return) is the model a reply is parsed into.

    Written out by hand: what each question asks for.
    """
    expected = {
        "RateImportance": "ImportanceAnswer", "RateImportances": "ImportancesAnswer",
        "PlanDay": "DayPlanAnswer", "DecomposeTask": "StepsAnswer", "ChoosePlace": "PlaceAnswer",
        "NextAction": "StepAnswer", "DecideToTalk": "TalkAnswer", "NextLine": "LineAnswer",
        "SummariseConversation": "SummaryAnswer", "FocalPoints": "FocalPointsAnswer",
        "Insights": "InsightsAnswer", "AnswerInterview": "InterviewAnswer",
        "GeneraliseProcedure": "ProcedureAnswer", "HearLine": "HeardAnswer", "WriteConversation": "ExchangeAnswer",
    }
    assert {q.__name__ for q in questions.Question.__subclasses__()} == set(expected)
    for name, answer in expected.items():
        question = getattr(questions, name)
        (typed,) = typing.get_args(question.__orig_bases__[0])
        assert typed is question.answer_model is getattr(answers, answer), name


def test_schema_failures_name_the_field():
    """Out-of-range importance is a schema failure naming the field, not unparsable."""
    q = RateImportance(**BASE, content="x", kind="observation")
    with pytest.raises(InvalidAnswer, match="importance") as info:
        parse_answer(q, '{"importance": 11}')
    assert not info.value.unparsable


def test_places_and_objects_must_exist_and_are_resolved_to_full_addresses():
    """A unique suffix or case variant resolves to the option; an unknown place is invalid."""
    assert match_option("cafe:COUNTER", [CAFE, HOME]) == CAFE
    assert match_option("bed", [HOME, "the_ville:Lin family's house:main room:bed"]) is None
    choose = ChoosePlace(
        **BASE, task="coffee", usual_place=CAFE, reason="closed", candidates=(CAFE, HOME)
    )
    assert parse_answer(choose, '{"place": "Hobbs Cafe:cafe:counter"}').place == CAFE
    with pytest.raises(InvalidAnswer, match="candidate"):
        parse_answer(choose, '{"place": "the_ville:Moon Base"}')
    task = DecomposeTask(
        **BASE,
        task="open the cafe",
        place="the_ville:Hobbs Cafe:cafe",
        start="08:00",
        minutes=20,
        objects=(CAFE,),
    )
    steps = parse_answer(
        task, '{"steps": [{"description": "wipe", "object": "counter", "minutes": 10}]}'
    )
    assert steps.steps[0].object == CAFE
    with pytest.raises(InvalidAnswer, match=r"steps\[0\].object"):
        parse_answer(task, '{"steps": [{"description": "fly", "object": "rocket", "minutes": 10}]}')


def _plan(*blocks: tuple[str, int, str], drop=()) -> str:
    """A day-plan reply adding (start, minutes, place) blocks and dropping routine numbers."""
    add = [{"start": a, "minutes": n, "description": "write a letter", "place": p} for a, n, p in blocks]
    return json.dumps({"add": add, "drop": list(drop)})


PLAN = PlanDay(
    **BASE,
    date="2023-02-13",
    routine=(
        PlanItemView(start="00:00", end="08:00", description="sleep", place=HOME),
        PlanItemView(start="08:00", end="17:00", description="work", place=CAFE, task="serve"),
        PlanItemView(start="17:00", end="24:00", description="rest", place=HOME),
    ),
)


def test_day_plan_changes_are_applied_to_the_routine():
    """Added blocks replace the routine for their time; a dropped block's time goes to the one before.

    Worked by hand: adding 12:00-13:00 at home cuts work into 08:00-12:00 and 13:00-17:00;
    dropping block 3 (rest) lets work run on to 24:00.
    """
    day = parse_answer(PLAN, _plan(("12:00", 60, "bed"), drop=(3,))).day(PLAN.routine)
    assert [(b.start, b.end, b.description, b.place, b.task) for b in day] == [
        ("00:00", "08:00", "sleep", HOME, None),
        ("08:00", "12:00", "work", CAFE, "serve"),
        ("12:00", "13:00", "write a letter", HOME, None),
        ("13:00", "24:00", "work", CAFE, "serve"),
    ]
    unchanged = parse_answer(PLAN, '{"add": [], "drop": []}').day(PLAN.routine)
    assert unchanged == list(PLAN.routine)


def test_day_plans_need_known_places_and_ordered_times():
    """Added places come from the plan's; times of day, positive lengths; real drops, each once.

    Each rejection names the check of PlanDay's that made it ("schema" for the answer model's).
    """
    late = parse_answer(PLAN, _plan(("23:00", 120, "counter"))).day(PLAN.routine)
    assert (late[-1].start, late[-1].end) == ("23:00", "24:00")  # cut at the end of the day
    for bad, match, check in (
        (_plan(("25:00", 60, "counter")), "time of day", "added_blocks"),
        (_plan(("09:00", -60, "counter")), "minutes", "schema"),
        (_plan(("08:00", 120, "the moon")), "place", "added_blocks"),
        (_plan(drop=(4,)), "routine block numbers", "routine_numbers"),
        (_plan(drop=(3, 2, 3)), "more than once", "routine_numbers"),  # SmolLM2's drops counted off, as found
        (_plan(drop=(1, 2, 3)), "empty", "a_day_left"),
    ):
        with pytest.raises(InvalidAnswer, match=match) as info:
            parse_answer(PLAN, bad)
        assert info.value.check == check, bad


def test_overlapping_added_blocks_apply_in_time_order():
    """A later added block cuts into an earlier one, as any added block cuts into the routine.

    SmolLM2 answered Isabella's plan with 08:00 for 360 minutes and 10:00 for 60 (a stated
    appointment inside a stated working day) about a third of the time; that is a plan, not an
    error. Worked by hand: 08:00-14:00 "write a letter" at the counter, then 10:00-11:00 at the bed
    cuts it into 08:00-10:00 and 11:00-14:00; work (08:00-17:00) keeps 14:00-17:00.
    """
    reply = json.dumps({"add": [
        {"start": "08:00", "minutes": 360, "description": "write a letter", "place": "counter"},
        {"start": "10:00", "minutes": 60, "description": "read the news", "place": "bed"},
    ], "drop": []})
    day = parse_answer(PLAN, reply).day(PLAN.routine)
    assert [(b.start, b.end, b.description, b.place) for b in day] == [
        ("00:00", "08:00", "sleep", HOME),
        ("08:00", "10:00", "write a letter", CAFE),
        ("10:00", "11:00", "read the news", HOME),
        ("11:00", "14:00", "write a letter", CAFE),
        ("14:00", "17:00", "work", CAFE),
        ("17:00", "24:00", "rest", HOME),
    ]


@pytest.mark.parametrize("reply", [
    '{"add": [{"start": "09:00", "minutes": 60, "description": "...", "place": "counter"}], "drop": []}',
    '{"add": [{"start": "09:00", "minutes": 60, "description": "<what you do>", "place": "bed"}], "drop": []}',
])
def test_placeholder_text_is_no_answer(reply):
    """An ellipsis or a "<...>" placeholder where a description belongs is invalid."""
    with pytest.raises(InvalidAnswer, match="placeholder"):
        parse_answer(PLAN, reply)


def test_a_field_holding_its_own_name_is_no_answer():
    """SmolLM2 answered "Do you start a conversation?" with {"talk": true, "reason": "reason"}."""
    from town.thinking.questions import DecideToTalk

    q = DecideToTalk(**BASE, other="klaus_mueller", other_name="Klaus Mueller",
                     other_action="reading", own_action="studying")
    with pytest.raises(InvalidAnswer, match="placeholder"):
        parse_answer(q, '{"talk": true, "reason": "Reason."}')
    assert parse_answer(q, '{"talk": true, "reason": "a reason to ask him"}').talk


def test_a_step_opening_with_the_prompts_opening_is_no_answer():
    """SmolLM2 gave a step "You are Isabella Rodriguez, a social media influencer ..."."""
    from town.thinking.questions import DecomposeTask

    q = DecomposeTask(**BASE, task="shop", place=CAFE, start="08:00", minutes=30, objects=(CAFE,))
    prompt = PromptSet().render(q)
    assert prompt.startswith(f"You are {BASE['persona_name']}.")
    echo = (f'{{"steps": [{{"description": "You are {BASE["persona_name"]}, a social media '
            f'influencer.", "object": "{CAFE}", "minutes": 15}}]}}')
    with pytest.raises(InvalidAnswer, match="opening"):
        parse_answer(q, echo, prompt)
    own = f'{{"steps": [{{"description": "You are welcome, says the clerk", "object": "{CAFE}", "minutes": 15}}]}}'
    assert parse_answer(q, own, prompt).steps[0].minutes == 15


def test_echoes_of_the_prompts_instructions_are_no_answer():
    """Prompt text saved as a procedure's "when" (a stored one, checked before it is shared) is
    invalid; words of its own are fine."""
    from town.thinking.questions import GeneraliseProcedure, ProcedureAnswer
    from town.thinking.questions.generalise_procedure import SENSE

    q = GeneraliseProcedure(**BASE, task="open the cafe", place="the_ville:Hobbs Cafe:cafe",
                            steps=({"description": "wipe", "object": CAFE, "minutes": 10},),
                            parameters=(("place", CAFE),))
    prompt = PromptSet().render(q)
    echo = ProcedureAnswer(name="open up", when="these steps become a procedure you can follow")
    with pytest.raises(InvalidAnswer, match="copies the prompt"):
        q.check(echo, prompt, rules=SENSE)
    own = ProcedureAnswer(name="open up", when="opening a cafe in the morning")
    assert q.check(own, prompt, rules=SENSE).when == "opening a cafe in the morning"


def test_chat_lines_must_speak():
    """A line reciting a memory id, or sharing ids while saying nothing, is invalid."""
    line = NextLine(**BASE, listener="klaus_mueller", listener_name="Klaus Mueller", memories=MEMS)
    with pytest.raises(InvalidAnswer, match="recites"):
        parse_answer(line, '{"line": "4: The party is on Friday", "shared": [4], "end": false}')
    with pytest.raises(InvalidAnswer, match="placeholder"):
        parse_answer(line, '{"line": "...", "shared": [4], "end": false}')
    with pytest.raises(InvalidAnswer, match="says nothing"):
        parse_answer(line, '{"line": "Well.", "shared": [4], "end": false}')
    ok = parse_answer(line, '{"line": "Did you hear? The party is on Friday!", "shared": [4], "end": false}')
    assert ok.shared == [4]


def test_a_batch_of_ratings_has_one_per_memory():
    """RateImportances: exactly one 1-10 rating per memory, in order."""
    from town.thinking.questions import RateImportances

    q = RateImportances(**BASE, items=(("observation", "ate breakfast"), ("chat", "party on Friday")))
    assert parse_answer(q, '{"ratings": [1, 6]}').ratings == [1, 6]
    for bad in ('{"ratings": [1]}', '{"ratings": [1, 6, 2]}', '{"ratings": [0, 6]}'):
        with pytest.raises(InvalidAnswer, match="ratings"):
            parse_answer(q, bad)


def test_cited_memory_ids_must_have_been_shown():
    """NextLine.shared and Insights.evidence cite only shown memory ids."""
    line = NextLine(**BASE, listener="klaus_mueller", listener_name="Klaus Mueller", memories=MEMS)
    assert parse_answer(line, '{"line": "Party on Friday!", "shared": [4]}').shared == [4]
    with pytest.raises(InvalidAnswer, match=r"\[77\]"):
        parse_answer(line, '{"line": "hi", "shared": [4, 77]}')
    ins = Insights(**BASE, focal_point="the party", memories=MEMS)
    with pytest.raises(InvalidAnswer, match=r"evidence"):
        parse_answer(ins, '{"insights": [{"text": "the party matters", "evidence": [5]}]}')


def test_outcomes_retry_and_stall_classes():
    """Which outcomes are retried and which count towards a stall."""
    retried = {o for o in CallOutcome if o.retryable}
    assert retried == {
        CallOutcome.TIMEOUT,
        CallOutcome.RATE_LIMITED,
        CallOutcome.SERVER_ERROR,
        CallOutcome.CONNECTION_ERROR,
        CallOutcome.BAD_JSON,
        CallOutcome.INVALID,
    }
    assert {o for o in CallOutcome if o.unavailable} == {
        CallOutcome.TIMEOUT,
        CallOutcome.SERVER_ERROR,
        CallOutcome.CONNECTION_ERROR,
    }


def test_every_question_renders_and_user_templates_override(tmp_path):
    """Packaged templates render the question's options; a user file replaces one template."""
    q = ChoosePlace(
        **BASE, task="coffee", usual_place=CAFE, reason="it is closed", candidates=(CAFE, HOME)
    )
    text = PromptSet().render(q)
    assert CAFE in text and HOME in text and "JSON" in text
    (tmp_path / "choose_place.j2").write_text("Pick from {{ candidates | join('|') }}")
    assert PromptSet(tmp_path).render(q) == f"Pick from {CAFE}|{HOME}"
    rate = RateImportance(**BASE, content="ate breakfast", kind="observation")
    assert "ate breakfast" in PromptSet(tmp_path).render(rate)  # not overridden: packaged one
    with pytest.raises(ConfigError, match="--prompts"):
        PromptSet(tmp_path / "missing")
