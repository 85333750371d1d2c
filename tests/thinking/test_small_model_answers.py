"""What small models wrote and the checks let through is rejected, each by the check named for it.

The answers are those SmolLM2-135M and a 0.5B instruct model wrote in one game hour of the_ville
(steps "step1" and "Your steps include", filler, a German sentence, a shower procedure named
"Living Room Setup" with an address for its condition, Maria Lopez declining Klaus Mueller whom she
has a crush on, Isabella Rodriguez "a student at Hobbs Cafe", an interview in the third person);
the personas, routines and memories are the_ville's own. Each case asserts which check rejected
it, so removing that check fails it (scripts/mutate.py), and that an answer of the same shape
that says what it should passes.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from samples import fits

from town.scenario import load_scenario
from town.thinking.prompting import PromptSet
from town.thinking.questions import (
    AnswerInterview,
    DecideToTalk,
    DayPlanAnswer,
    DecomposeTask,
    GeneraliseProcedure,
    HeardAnswer,
    HearLine,
    InvalidAnswer,
    MemoryView,
    NextLine,
    ProcedureAnswer,
    SummariseConversation,
)
from town.thinking.questions.generalise_procedure import SENSE
from town.thinking.questions.sense import plain_descriptions
from town.thinking.questions.writing import more_than_a_date
from town.thinking.validate import parse_answer
from town.thinking.views import routine_views

TOWN = load_scenario("the_ville")
SPECS = {s.id: s for s in TOWN.personas}
SINK = "the_ville:Dorm for Oak Hill College:bathroom:sink"
SHOWER = "the_ville:Dorm for Oak Hill College:bathroom:shower"
TABLE = "the_ville:Dorm for Oak Hill College:common room:dining table"
CRUSH = MemoryView(id=4, kind="observation", importance=7, created="2023-02-13 07:00:00",
                   content="I have a crush on Klaus Mueller; I love how passionate he is about his research.")


def _rejected_by(question, answer: dict) -> str:
    with pytest.raises(InvalidAnswer) as info:
        parse_answer(question, json.dumps(answer), PromptSet().render(question))
    return info.value.check


def _accepts(question, answer: dict):
    return parse_answer(question, json.dumps(answer), PromptSet().render(question))


def _steps(*descriptions: str) -> dict:
    return {"steps": [{"description": d, "object": SINK, "minutes": 5} for d in descriptions]}


WASH = DecomposeTask(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                     task="wash up and get dressed", place="the_ville:Dorm for Oak Hill College:bathroom",
                     start="07:30", minutes=30, objects=(SINK, SHOWER))


@pytest.mark.parametrize("step", ["step1", "step2", "Step 3:", "Your steps include", "step  'get ready'   ",
                                  "Line 2023-13-24 27.58, Klaus Mueller has breakfast", "split into steps",
                                  "step-specific task with details"])
def test_a_label_or_a_remark_about_the_answer_is_no_step(step):
    """SmolLM2's steps "step1", "step2" and "Your steps include" were acted on; two became
    memories of importance 10 ("Maria Lopez is at the sink ...: step1."). A later resample's
    hand-read: a step "step 'get ready'", a line "Line 2023-13-24 27.58, ..." (a label before a
    quote or a number); the next one's: steps "split into steps", "step-specific task with
    details" (remarks about the answer)."""
    assert _rejected_by(WASH, _steps("wash face", step)) == "not_a_label"
    assert _accepts(WASH, _steps("wash face", "step into the shower")).steps[1].description == "step into the shower"


@pytest.mark.parametrize("step", ["The steps of the steps", "This is a step of  it"])
def test_a_step_made_only_of_label_words_is_no_step(step):
    """Two steps SmolLM2-135M wrote in the resample that the checks let through, read by hand.
    ("This is a step of it" also states what is, which the step's own check rejects first.)"""
    expected = "plain_descriptions" if " is " in step else "not_a_label"
    assert _rejected_by(WASH, _steps("wash face", step)) == expected
    assert _accepts(WASH, _steps("wash face", "take the next step into the shower")).steps[1].description
    # label words alone are no answer in any field, not only a description
    assert _rejected_by(TO_MARIA, {"line": f"{step}.", "shared": [], "end": False}) == "not_a_label"


def test_a_step_that_speaks_to_someone_is_rejected():
    """SmolLM2's accepted step "you need to pick up ingredients", read by hand: a step is what the
    persona does, said of it, not told to a reader."""
    assert _rejected_by(WASH, _steps("wash face", "you need to pick up ingredients")) == "plain_descriptions"
    assert _accepts(WASH, _steps("wash face", "pick up the towel"))


def test_a_step_in_another_language_than_the_towns_is_rejected():
    """A German step was acted on in an English town."""
    german = "Ich wasche mir das Gesicht und putze die Zähne"
    assert _rejected_by(WASH, _steps("wash face", german)) == "in_english"
    assert _accepts(WASH, _steps("wash face", "brush teeth and comb hair")).steps[1].description


@pytest.mark.parametrize("step", ["Dream of a life filled with love and light,", "rinse the sink and"])
def test_filler_or_a_step_broken_off_is_rejected(step):
    """"Dream of a life filled with love and light," was a step SmolLM2 wrote and Maria acted on."""
    assert _rejected_by(WASH, _steps("wash face", step)) == "not_filler"
    assert _accepts(WASH, _steps("wash face", "dream about the weekend in the shower"))


LEARNED = GeneraliseProcedure(
    persona="maria_lopez", persona_name="Maria Lopez", task="take a shower", place=SHOWER,
    steps=({"description": "turn on the water", "object": SHOWER, "minutes": 5},
           {"description": "shower and wash hair", "object": SHOWER, "minutes": 10}),
    parameters=(("home", "the_ville:Dorm for Oak Hill College"), ("persona", "Maria Lopez"), ("place", SHOWER)))


def _sense(question: GeneraliseProcedure, answer: dict) -> str | ProcedureAnswer:
    """The check of :data:`SENSE` (what a stored procedure passes before it is shared) that rejects
    ``answer``, or the answer it accepts."""
    try:
        return question.check(ProcedureAnswer(**answer), rules=SENSE)
    except InvalidAnswer as exc:
        return exc.check


def test_a_procedure_name_that_does_not_name_its_task_is_rejected():
    """The 0.5B model named a shower procedure "Living Room Setup"; it was shared to the town
    library and another persona followed it at her sink."""
    assert _sense(LEARNED, {"name": "Living Room Setup", "when": "taking a shower"}) == "names_its_task"
    assert _sense(LEARNED, {"name": "Morning Shower", "when": "taking a shower"}).name == "Morning Shower"


def test_a_procedure_condition_holding_an_address_is_rejected():
    """A condition as found: "the village-Dorm for Oak Hill College, common room-dining table"."""
    dinner = GeneraliseProcedure(
        persona="maria_lopez", persona_name="Maria Lopez", task="have dinner", place=TABLE,
        steps=({"description": "eat dinner", "object": TABLE, "minutes": 30},),
        parameters=(("persona", "Maria Lopez"), ("place", TABLE)))
    found = "the village-Dorm for Oak Hill College, common room-dining table"
    assert _sense(dinner, {"name": "Dinner", "when": found}) == "no_address"
    assert _sense(dinner, {"name": "Dinner", "when": "having dinner at {place}"}).when == "having dinner at {place}"
    park = "the_ville:Johnson Park:garden:garden bench"
    walk = GeneraliseProcedure(persona="maria_lopez", persona_name="Maria Lopez",
                               task="walk in the garden of Johnson Park", place=park, steps=({"description": "walk", "object": park, "minutes": 30},),
                               parameters=(("persona", "Maria Lopez"), ("place", park)))
    assert not isinstance(_sense(walk, {"name": "walk in the garden of Johnson Park", "when": "a walk"}), str)  # as the task names it


def test_a_procedure_is_named_by_a_listed_title_not_a_title_of_the_models_own():
    """SmolLM2-135M named getting ready "The City of Ember", "The Vanishing City", "The Zombie of
    the Town" and "Dorak,". The titles offered are the task and its steps' own words, a step's
    "(task)" left out, each once; a title the checks reject (a place) is not offered."""
    ready = GeneraliseProcedure(
        persona="klaus_mueller", persona_name="Klaus Mueller", task="get ready", place=SHOWER,
        steps=({"description": "take a shower (get ready)", "object": SHOWER, "minutes": 10},
               {"description": "Take a shower", "object": SHOWER, "minutes": 15},
               {"description": "bathroom", "object": SHOWER, "minutes": 5}),
        parameters=(("persona", "Klaus Mueller"), ("place", SHOWER)))
    assert ready.choices() == ("get ready", "take a shower")
    assert _rejected_by(ready, {"name": "The City of Ember", "when": "get ready"}) == "one_of_the_choices"
    assert _rejected_by(ready, {"name": "get ready", "when": "Dorak,"}) == "one_of_the_choices"
    assert _accepts(ready, {"name": "Take A Shower", "when": "get ready"}).name == "take a shower"
    assert ready.answer_schema()["properties"]["name"]["enum"] == ["get ready", "take a shower"]


def _invitation(memories=(CRUSH,)) -> DecideToTalk:
    maria = SPECS["maria_lopez"]
    fond = next(r.description for r in maria.relationships if r.persona == "klaus_mueller")
    return DecideToTalk(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=maria.summary(),
                        other="klaus_mueller", other_name="Klaus Mueller", other_action="coming over to talk to you",
                        own_action="eating dinner", relationship=fond, memories=memories, invited=True,
                        now="2023-02-13 18:10:00")


def test_a_refusal_that_denies_what_the_persona_feels_is_rejected():
    """Maria, with a crush on Klaus, answered his invitation "I am not interested in Klaus Mueller.
    I am Maria Lopez and do not seek to talk to people." It cancelled the hour's only conversation."""
    found = "I am not interested in Klaus Mueller. I am Maria Lopez and do not seek to talk to people."
    assert _rejected_by(_invitation(), {"talk": False, "reason": found}) == "declines_in_character"
    # with no memory shown: her file says so
    assert _rejected_by(_invitation(()), {"talk": False, "reason": found}) == "declines_in_character"
    assert _accepts(_invitation(), {"talk": False, "reason": "I have to finish my dinner first"}).talk is False
    assert _accepts(_invitation(), {"talk": False, "reason": "I don't want to talk right now"}).talk is False
    assert _accepts(_invitation(), {"talk": True, "reason": "I like Klaus and want to know him better"}).talk


def _interview(persona: str, question: str) -> AnswerInterview:
    spec = SPECS[persona]
    memories = tuple(MemoryView(id=i, kind="observation", importance=m.importance, content=m.content,
                                created="2023-02-13 07:00:00") for i, m in enumerate(spec.memories, 1))
    return AnswerInterview(persona=persona, persona_name=spec.name, persona_summary=spec.summary(),
                           question=question, memories=memories, routine=routine_views(spec.routine),
                           now="2023-02-13 09:00:00")


def test_an_interview_answer_in_the_third_person_is_rejected():
    """Answers in the third person were accepted at the first request."""
    q = _interview("maria_lopez", "Give an introduction of yourself.")
    found = "Maria Lopez is a physics student at Oak Hill College who streams games in the evenings."
    assert _rejected_by(q, {"answer": found}) == "in_first_person"
    assert _rejected_by(q, {"answer": "She studies physics and streams games."}) == "in_first_person"
    assert _accepts(q, {"answer": "I am Maria Lopez. I study physics at Oak Hill College and stream games."})


def test_an_interview_answer_giving_the_persona_a_role_its_memories_contradict_is_rejected():
    """Isabella Rodriguez, who owns Hobbs Cafe, answered "a student at Hobbs Cafe"."""
    q = _interview("isabella_rodriguez", "What is your job?")
    found = "I am a student at Hobbs Cafe."
    assert _rejected_by(q, {"answer": found}) == "keeps_to_the_persona"
    market = "I'm Isabella Rodriguez, the owner and manager of The Willows Market in the heart of town."  # as found
    assert _rejected_by(q, {"answer": market}) == "keeps_to_the_persona"
    assert _accepts(q, {"answer": "I am the owner of Hobbs Cafe; I brew the coffee and serve customers."})
    maria = _interview("maria_lopez", "What do you do?")
    assert _accepts(maria, {"answer": "I am a physics student at Oak Hill College."})


#: Klaus Mueller's next line to Maria Lopez at 07:31 on the 13th, as a resample asked it.
TO_MARIA = NextLine(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary=SPECS["klaus_mueller"].summary(),
                    listener="maria_lopez", listener_name="Maria Lopez", now="2023-02-13 07:31:30")


@pytest.mark.parametrize("found", ["on Tuesday, February 14", "on Tuesday, February 14th", "Monday, February 14"])
def test_a_line_that_is_only_a_date_is_rejected(found):
    """SmolLM2 answered a conversation's next line with the prompt's own example of naming a date,
    "on Tuesday, February 14", 5 of the 40 accepted answers read by hand; a line naming the date
    inside a sentence stands."""
    assert _rejected_by(TO_MARIA, {"line": found, "shared": [], "end": False}) == "more_than_a_date"
    said = "I will bring snacks to the party on Tuesday, February 14."
    assert _accepts(TO_MARIA, {"line": said, "shared": [], "end": False}).line == said


@pytest.mark.parametrize("found", ["January, 2023-12-27 14.58 (Klaus Mueller's Day) at Hobbs Cafe and drink a latte.",
                                   "We met on 20-23-2023 at the park."])
def test_a_line_holding_a_records_date_stamp_is_rejected(found):
    """A complete resample's hand-read (40 accepted answers) found Klaus's line "January,
    2023-12-27 14.58 (Klaus Mueller's Day) at Hobbs Cafe and drink a latte.": the stamp memories
    are shown with, run into words (Maria's line to Klaus). A date said as people say it stands."""
    to_klaus = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                        listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 07:31:30")
    assert _rejected_by(to_klaus, {"line": found, "shared": [], "end": False}) == "more_than_a_date"
    said = "I will drink a latte at Hobbs Cafe on December 27, after two."
    assert _accepts(to_klaus, {"line": said, "shared": [], "end": False}).line == said


def test_a_line_about_the_conversations_lines_is_rejected():
    """The same hand-read found a line that speaks of the conversation instead of in it: "This
    conversation has just finished and we are now at a point where the next line will continue,
    but this one is for the end of our conversation." Either half is rejected alone; a line
    about a queue or the talk's pleasure stands. The next complete resample's hand-read found
    four more lines of the kind, and a date's format written out (``later``)."""
    found = ("This conversation has just finished and we are now at a point where the next line will continue, "
             "but this one is for the end of our conversation.")
    later = ("The conversation so far, including your own, has been interrupted by another news item that follows "
             "the previous one.", "What you say, in the conversation so far.",
             "The conversation has ended, and there is no news of another day.",
             "This is the line where I've passed on a story to Maria, and my memory of it has changed me.",
             "TOMORROWYYYYY-MMM DAY I have a physics exam and need to study in the library.")  # the next run's
    for line in (found, "This conversation has just finished.", "We are at a point where the next line will continue.",
                 *later):
        assert _rejected_by(TO_MARIA, {"line": line, "shared": [], "end": True}) == "not_a_label", line
    for said in ("I enjoyed this conversation, Maria.", "The line at the bakery was long this morning.",
                 "This conversation was lovely, thank you.", "I waited in the line for an hour."):
        assert _accepts(TO_MARIA, {"line": said, "shared": [], "end": True}).line == said



def test_a_plan_block_or_a_step_that_is_only_a_date_is_rejected():
    """SmolLM2 added to Maria Lopez's day a block described "Monday" (noon, six hours, at her bed),
    accepted and read by hand in a resample: every free text is judged by ``more_than_a_date``, a
    description as a line is; a block or step naming its day inside what is done stands."""
    bed = "the_ville:Dorm for Oak Hill College:Maria Lopez's room:bed"
    found = DayPlanAnswer.model_validate({"add": [{"start": "12:00", "minutes": 360, "description": "Monday",
                                                   "place": bed}], "drop": []})
    with pytest.raises(InvalidAnswer, match="only a date"):
        more_than_a_date(None, found, "")
    for said in ("Monday", "next Tuesday", "the 14th of February"):
        assert _rejected_by(WASH, _steps(said)) == "more_than_a_date", said
    assert _accepts(WASH, _steps("rinse the plates from Monday"))


def test_a_step_that_is_only_a_place_is_rejected():
    """Klaus's steps "bathroom", "bathroom" were accepted in a complete resample (read by hand): a
    description of only kinds of place, without a verb, says where, not what is done."""
    for found in ("bathroom", "the kitchen"):
        assert _rejected_by(WASH, _steps(found)) == "not_a_label", found
    for done in ("go to the bathroom", "tidy the bathroom"):
        assert _accepts(WASH, _steps(done)).steps[0].description == done


def test_a_description_told_by_myself_is_rejected():
    """A plan block of Maria's, accepted in a complete resample and read by hand: "Myself and the
    other one has a crush on Klaus Mueller" tells who does it instead of saying what is done."""
    assert _rejected_by(WASH, _steps("Myself and the other one has a crush on Klaus Mueller")) == "plain_descriptions"
    assert _accepts(WASH, _steps("dry myself with a towel"))



#: Maria Lopez hears Klaus Mueller at breakfast.
HEARS_KLAUS = HearLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                       speaker_name="Klaus Mueller", line="Isabella is hosting a party at Hobbs Cafe tomorrow at 5pm.",
                       content="Klaus Mueller said: Isabella is hosting a party at Hobbs Cafe tomorrow at 5pm.",
                       now="2023-02-13 07:31:30", names=("Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"),
                       places=("Hobbs Cafe", "Dorm for Oak Hill College"))


@pytest.mark.parametrize("found", ["YES", "essential", "important", "adulterine"])
def test_a_heard_act_that_is_no_verb_is_rejected(found):
    """SmolLM2 said a heard line's act was "YES", "essential" (twice) or "adulterine", accepted in
    a resample (a heard memory keeps its act as what was done): the act is a verb phrase."""
    heard = {"importance": 5, "act": found, "subject": "Isabella Rodriguez", "place": "Hobbs Cafe",
             "start": "2023-02-14 17:00", "end": "", "host": "Isabella Rodriguez"}
    assert _rejected_by(HEARS_KLAUS, heard) == "act_is_a_verb"
    for act in ("host a party", "to host a party"):
        assert _accepts(HEARS_KLAUS, {**heard, "act": act}).act == act


@pytest.mark.parametrize("found", ["2023-02-24", "2023-01-25"])
def test_a_heard_date_without_its_clock_time_states_no_time(found):
    """SmolLM2 gave a heard line's start as a date alone in 9 of 16 answers ("2023-02-24", most of
    them days no line had said), each rejected: the prompt asks for "" when the line gives no clock
    time, and a date alone is read so; a date with its clock time is kept, a time alone rejected."""
    heard = {"importance": 5, "act": "host a party", "start": found, "end": found}
    kept = _accepts(HEARS_KLAUS, heard)
    assert (kept.start, kept.end) == ("", "")
    assert HeardAnswer(importance=5, act="meet", start="2023-02-14 17:00").start == "2023-02-14 17:00"
    assert _rejected_by(HEARS_KLAUS, {**heard, "start": "18:05", "end": ""}) == "stated_times_valid"


#: Klaus Mueller, at breakfast, sees Maria Lopez asleep, with his paper and the sighting shown.
PAPER = MemoryView(id=1, kind="observation", importance=7, created="2023-02-13 07:00:00",
                   content="I am writing a research paper on the effects of gentrification on low-income communities.")
ASLEEP = MemoryView(id=2, kind="observation", importance=1, created="2023-02-13 07:30:00",
                    content="Maria Lopez is at the bed of the Maria Lopez's room in Dorm for Oak Hill College: sleeping.")


def _sees_maria() -> DecideToTalk:
    klaus = SPECS["klaus_mueller"]
    return DecideToTalk(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary=klaus.summary(),
                        other="maria_lopez", other_name="Maria Lopez", other_action="sleeping",
                        own_action="eating breakfast", memories=(PAPER, ASLEEP), now="2023-02-13 07:31:00")


@pytest.mark.parametrize("found", ["Maria Lopez", "no", "yes", "reasons are not known."])
def test_a_reason_to_talk_that_gives_no_reason_is_rejected(found):
    """SmolLM2's accepted reasons "Maria Lopez", "no", "yes" and "reasons are not known.", read by
    hand in the resample: a name alone, a yes or a no, a remark that the reason is not known."""
    assert _rejected_by(_sees_maria(), {"talk": found != "no", "reason": found}) == "gives_a_reason"
    assert _accepts(_sees_maria(), {"talk": False, "reason": "Maria is asleep"}).reason == "Maria is asleep"
    assert _accepts(_sees_maria(), {"talk": True, "reason": "no time to lose before class"}).talk


@pytest.mark.parametrize("found", [PAPER.content.rstrip("."), PAPER.content, ASLEEP.content])
def test_a_reason_to_talk_copied_from_a_memory_is_rejected(found):
    """SmolLM2 gave a memory shown as its reason 4 times in 40 accepted answers read by hand."""
    assert _rejected_by(_sees_maria(), {"talk": True, "reason": found}) == "not_copied"
    own = "I want to ask her about rent prices for my paper"
    assert _accepts(_sees_maria(), {"talk": True, "reason": own}).reason == own


@pytest.mark.parametrize("found", [", end: true }\n#\n```\n\nWhen I passed on news of a day, I would say: ",
                                   ", end, true }\nMaria Lopez writes a research paper at Hobbs Cafe."])
def test_a_line_holding_the_replys_json_is_rejected(found):
    """Two of SmolLM2's accepted lines began with the reply's own JSON (", end: true }")."""
    assert _rejected_by(TO_MARIA, {"line": found, "shared": [], "end": False}) == "no_reply_syntax"
    said = "The quiz night at the pub is on Thursday: true fun, Maria."
    assert _accepts(TO_MARIA, {"line": said, "shared": [], "end": False}).line == said


SUPPLIES = DecomposeTask(persona="isabella_rodriguez", persona_name="Isabella Rodriguez",
                         persona_summary=SPECS["isabella_rodriguez"].summary(), task="buy supplies",
                         place="the_ville:The Willows Market and Pharmacy:aisles",
                         start="09:00", minutes=30,
                         objects=("the_ville:The Willows Market and Pharmacy:aisles:grocery shelf",))


@pytest.mark.parametrize("found", ["The steps of the steps to buy supplies",
                                   "A step that involves buying supplies, not just getting a cup",
                                   "the steps to the end of the ville's main street"])
def test_a_step_about_a_step_of_the_task_is_no_step(found):
    """SmolLM2's accepted steps, read by hand: label words with the task, about a step, not one."""
    shelf = SUPPLIES.objects[0]
    answer = {"steps": [{"description": d, "object": shelf, "minutes": 10} for d in ("pick up a basket", found)]}
    assert _rejected_by(SUPPLIES, answer) == "not_a_label"
    answer["steps"][1]["description"] = "take the next step to the till"
    assert _accepts(SUPPLIES, answer).steps[1].description == "take the next step to the till"


def test_a_step_told_by_the_persona_or_opening_with_the_replys_comma_is_rejected():
    """SmolLM2's accepted steps in the resample after the checks above: "I work at the village's
    grocery store in a small town" (a teller, not what is done) and ", description is just a
    string of text that contains the key" (the reply's syntax and a remark about it)."""
    shelf = SUPPLIES.objects[0]

    def steps(*descriptions):
        return {"steps": [{"description": d, "object": shelf, "minutes": 10} for d in descriptions]}

    assert _rejected_by(SUPPLIES, steps("pick up a basket", "I work at the village's grocery store in a small town")) \
        == "plain_descriptions"
    assert _rejected_by(SUPPLIES, steps("pick up a basket", "I'm working on a new project")) == "plain_descriptions"
    assert _rejected_by(SUPPLIES, steps(", description is just a string of text that contains the key")) \
        == "no_reply_syntax"
    assert _accepts(SUPPLIES, steps("pick up a basket", "find the flour, sugar and eggs")).steps[1].description


def test_a_step_or_a_reason_said_to_you_is_rejected():
    """SmolLM2's accepted step "You are at the University of Oxford in your dorm room, a bed" and
    reason "You are a kind, thoughtful student in your dorm whom you love to read about.", read
    by hand in the resample: a step and a reason are the persona's, said to no one."""
    shelf = SUPPLIES.objects[0]
    for found in ("You are at the University of Oxford in your dorm room, a bed",
                  "You're celebrating a birthday, which is actually a special j"):  # the second read in a later resample
        answer = {"steps": [{"description": found, "object": shelf, "minutes": 10}]}
        assert _rejected_by(SUPPLIES, answer) == "plain_descriptions"
    found = "You are a kind, thoughtful student in your dorm whom you love to read about."
    assert _rejected_by(_sees_maria(), {"talk": True, "reason": found}) == "gives_a_reason"
    assert _accepts(_sees_maria(), {"talk": True, "reason": "young people like Maria know the rents"}).talk


def _summary(persona: str, other: str, history) -> SummariseConversation:
    spec = SPECS[persona]
    return SummariseConversation(persona=persona, persona_name=spec.name, persona_summary=spec.summary(),
                                 other_name=SPECS[other].name, history=history)


PARTY = (("Isabella Rodriguez", "I am hosting a Valentine's Day party at Hobbs Cafe tomorrow from 5pm to 7pm."),
         ("Maria Lopez", "That sounds lovely, I will come with Klaus."))
PAPER_TALK = (("Maria Lopez", "How is your research paper going, Klaus?"),
              ("Klaus Mueller", "I am writing a research paper on the effects of gentrification on low-income "
                                "communities, and it is nearly done."))


def test_a_summary_in_the_wrong_person_is_rejected():
    """SmolLM2's accepted summaries, read by hand: Isabella's "Me and Isabella are celebrating ...",
    Klaus's "Your research paper ... has been accepted", Isabella's "Maria, happy to meet you";
    a summary tells the talk as I, to no one."""
    isabella, klaus = _summary("isabella_rodriguez", "maria_lopez", PARTY), _summary("klaus_mueller", "maria_lopez", PAPER_TALK)
    found = ("Me and Isabella are celebrating a Valentine's Day party at Hobbs Cafe from 5pm to 7am. "
             "I'm looking forward to you coming over tomorrow.")
    assert _rejected_by(isabella, {"summary": found}) == "tells_as_itself"
    assert _rejected_by(isabella, {"summary": "Me and Isabella are celebrating a Valentine's Day party."}) == "tells_as_itself"
    found = ("Your research paper on gentrification's impact on low-income communities has been accepted by the "
             "prestigious Science Direct peer review and will be published.")
    assert _rejected_by(klaus, {"summary": found}) == "tells_as_itself"
    found = "Maria, happy to meet you at the Hobbs Cafe! I am excited about the upcoming Valentine's Day party."
    assert _rejected_by(isabella, {"summary": found}) == "tells_as_itself"
    assert _rejected_by(klaus, {"summary": "Klaus Mueller told Maria about his paper."}) == "tells_as_itself"
    own = "Maria and I talked about my party at Hobbs Cafe, and she will come with Klaus."
    assert _accepts(isabella, {"summary": own}).summary == own
    quoted = 'Maria asked "How is your research paper going?" and I told her it is nearly done.'
    assert _accepts(klaus, {"summary": quoted}).summary == quoted


def test_a_summary_copied_from_a_line_is_rejected():
    """Maria's accepted summary "A research paper on the effects of gentrification on low-income
    communities. ..." copied Klaus's line; a line quoted as said is not a copy."""
    maria = _summary("maria_lopez", "klaus_mueller", PAPER_TALK)
    found = ("A research paper on the effects of gentrification on low-income communities. "
             "Klaus Mueller is available for a physics exam next month.")
    assert _rejected_by(maria, {"summary": found}) == "not_copied"
    quoted = ('Klaus said "I am writing a research paper on the effects of gentrification on low-income '
              'communities, and it is nearly done."')
    assert _accepts(maria, {"summary": quoted}).summary == quoted
    assert _accepts(maria, {"summary": "I asked Klaus about his paper on rents and he is nearly done."})


@pytest.mark.parametrize("line", [
    "Hey Ayesha! Tuesday, February 14th, Hobbs Cafe, 5pm?",
    "Morning Isabella! Party Tuesday, 14th February, 5pm, Hobbs Cafe.",
    "Hey Isabella, Valentine's Day party, Tuesday February 14th, 5pm!",
])
def test_an_english_line_with_names_and_dates_is_in_english(line):
    """Short lines of names, days and times were judged another language: lemminflect's tables
    hold no "Tuesday", "Hobbs", "Ayesha" or "hey", and "pm" of "5pm" was a word. A capitalised
    word inside a sentence counts as English, a number's ending as no word; a German line stays
    rejected."""
    assert _accepts(TO_MARIA, {"line": line, "shared": [], "end": False}).line == line
    for german in ("Ich wasche mir das Gesicht und putze die Zähne jeden Morgen.", "Ja, ich komme am Dienstag zur Party."):
        assert _rejected_by(TO_MARIA, {"line": german, "shared": [], "end": False}) == "in_english"


@pytest.mark.parametrize("found", ["2023-02-13 14:57:56.879", "2023-10-06 05:59.74", "');  \n",
                                   "20. Traits: energetic, enthusiastic,", "07:30"])
def test_a_line_without_words_or_an_end_does_not_fit_the_lines_schema(found):
    """SmolLM2's next lines "2023-02-13 14:57:56.879", "2023-10-06 05:59.74" and "');" (rejected by
    ``own_words``: 4 of 8 attempts of next_line in a resample), and written exchanges' first lines
    "20. Traits: energetic, enthusiastic," and "07:30": a line's schema asks for words opening with
    a capital letter and ending as a sentence ends, so a grammar-bound server writes none of them."""
    line = TO_MARIA.answer_schema()["properties"]["line"]
    assert not fits(line, found)
    for said in ("Good morning, Maria! Did you sleep well?", "I'm off to the library (my paper is due soon).",
                 "Isabella's party is on February 14 at 5pm, will you come?"):
        assert fits(line, said), said
    assert not fits(line, "A" * 320 + ".")  # two sentences at most: 320 characters


@pytest.mark.parametrize("found", ["Lisa", "I am a kind, thoughtful student in my dorm",
                                   "She is a social media influencer, known for her Instagram.",
                                   "You are Isabella Rodriguez, a local baker who runs a beloved cafe."])
def test_a_name_alone_or_an_unended_answer_does_not_fit_the_interviews_schema(found):
    """SmolLM2 answered "Give an introduction of yourself." with "Lisa", accepted (read by hand),
    and "She is a social media influencer ..." and "You are Isabella Rodriguez, a local baker ..."
    (rejected by ``in_first_person`` and ``own_words``): an interview answer's schema asks for whole
    sentences told as I, of ten characters or more."""
    answer = _interview("isabella_rodriguez", "Give an introduction of yourself.").answer_schema()["properties"]["answer"]
    assert not fits(answer, found)
    assert fits(answer, "I am Isabella Rodriguez. I own Hobbs Cafe, and I know most regulars by name.")


def test_a_reason_runs_to_a_few_words_in_the_schema():
    """SmolLM2's reasons copied out of what it was shown ran long (rejected by ``not_copied``: 4 of
    8 decide_to_talk attempts in a resample), and, bounded to a few words told as I, opened with
    a memory of the persona's own ("I am writing a research paper on the effects of
    gentrification ...", 3 of 16): a reason's schema allows a few words of what the persona
    wants ("I want ..."), ended by "."."""
    reason = _sees_maria().answer_schema()["properties"]["reason"]
    for found in ("Klaus Mueller is a kind, thoughtful student in her dorm whom she is fond of and would like "
                  "to know better.", ASLEEP.content, "talking to Maria Lopez",
                  "Maria Lopez is a fellow student in the dorm who streams games.", "I want to talk",
                  "I am writing a research paper on the effects of gentrification.", "I am busy."):
        assert not fits(reason, found), found
    assert fits(reason, "I want to ask her about rent prices for my paper.")
    assert fits(reason, "I want to finish my reading first.")


@pytest.mark.parametrize("found", [
    "I talked with Maria about the effects of gentrification on low-income communities and some sources are "
    "still available at Hobbs Cafe after 08:00",
    "You and Klaus Mueller talked about the effects of gentrification on low-income communities.",
    "Hi Maria, thanks for the article. See you at dinner."])
def test_a_summary_fits_its_schema_only_as_one_ended_sentence_told_as_i(found):
    """SmolLM2's summaries cut at the 160-character bound ("... still available at Hobbs Cafe after
    08:00", rejected by ``whole_sentence``: 3 of 6 attempts in a resample), said to the other or
    written as a line: the schema asks for one sentence opening "I ", ended by ".", "!" or "?",
    of up to 320 characters, room to end it before the bound."""
    summary = _summary("klaus_mueller", "maria_lopez", PAPER_TALK).answer_schema()["properties"]["summary"]
    assert not fits(summary, found)
    own = "I talked with Maria about how gentrification affects low-income communities."  # accepted, as found
    assert fits(summary, own) and fits(summary, "I " + "a" * 300 + ".")


def test_a_summary_naming_its_topic_in_a_lines_words_is_no_copy():
    """Klaus's summary "I talked with Maria about the effects of gentrification on low-income
    communities." (8 words of his own line: the topic, named as said) was rejected by ``not_copied``
    in 2 of 2 attempts of a resample; a summary copies at 10 words, so the line given as the
    summary (11 words, the test above) still does."""
    klaus = _summary("klaus_mueller", "maria_lopez", PAPER_TALK)
    found = "I talked with Maria about the effects of gentrification on low-income communities."
    assert _accepts(klaus, {"summary": found}).summary == found
    copied = "I talked with Maria and I am writing a research paper on the effects of gentrification."
    assert _rejected_by(klaus, {"summary": copied}) == "not_copied"


@pytest.mark.parametrize("found", ["true", "False", "null"])
def test_a_json_literal_written_as_text_is_a_placeholder(found):
    """SmolLM2's heard line's act "true" (accepted, read by hand): a JSON literal as a text says nothing."""
    assert _rejected_by(TO_MARIA, {"line": found, "shared": [], "end": False}) == "own_words"


def test_a_line_copying_a_memory_while_citing_another_is_a_copy():
    """Klaus's accepted line "The Rose and Crown Pub has a quiz night on Thursdays, but the other
    day it was also a trivia show at 6pm. ..." (read by hand in a resample) copied his memory of the
    quiz night while its ``shared`` cited another (the library's shelf): only the memories a line
    cites may be told in their words."""
    quiz = MemoryView(id=5, kind="observation", importance=3, created="2023-02-13 07:00:00",
                      content="The Rose and Crown Pub has a quiz night on Thursdays.")
    shelf = MemoryView(id=2, kind="observation", importance=2, created="2023-02-13 07:00:00",
                       content="The college library keeps a good shelf of books on urban sociology.")
    q = NextLine(persona="klaus_mueller", persona_name="Klaus Mueller", persona_summary=SPECS["klaus_mueller"].summary(),
                 listener="maria_lopez", listener_name="Maria Lopez", memories=(quiz, shelf), now="2023-02-13 07:31:30")
    found = ("The Rose and Crown Pub has a quiz night on Thursdays, but the other day it was also a trivia show "
             "at 6pm. The rest of the evening they had a movie.")
    assert _rejected_by(q, {"line": found, "shared": [2], "end": True}) == "not_copied"
    assert _accepts(q, {"line": found, "shared": [5], "end": True}).shared == [5]


def test_a_line_telling_of_its_own_speaker_by_name_is_rejected():
    """SmolLM2's accepted lines for Maria Lopez, read by hand in a resample, told of her as a
    narrator would ("Maria Lopez was thrilled ... She went home"); introducing oneself by name,
    or speaking as I, passes."""
    q = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                 listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 08:14:00")
    for found in ("This morning, Maria Lopez was thrilled to share a news with Klaus Mueller. She went home and "
                  "started her breakfast at Hobbes Cafe.",
                  "Today, Maria Lopez has the news of her 16th birthday that Klaus Mueller is celebrating his first "
                  "birthday this week. She always dreams about his daughter's day."):
        assert _rejected_by(q, {"line": found, "shared": [], "end": False}) == "speaks_as_itself"
    assert _accepts(q, {"line": "Hi Klaus, I'm Maria Lopez. Nice to meet you!", "shared": [], "end": False})
    assert _accepts(q, {"line": "Good morning, Klaus! I was thrilled to hear your news.", "shared": [], "end": False})


def test_a_text_naming_its_own_persona_as_another_is_rejected():
    """Read by hand in a complete resample, accepted then: Maria's reason "I want to talk to Maria
    Lopez, ..." and summary "... is a great inspiration to Maria Lopez.", Isabella's interview
    answers "... The Willows Market, a local cafe owned by Isabella Rodriguez." and "I am Klaus
    Mueller, the headmaster ...". Each is rejected by ``as_itself``; a text introducing the
    persona by its own name ("I, Isabella Rodriguez, ..." was rejected 2 of 16 times in the next
    resample), naming the other, naming its home as the town does ("Isabella Rodriguez's
    apartment", rejected once) or setting its name beside "I'm ..." ("I'm a local baker and
    coffee shop owner, Isabella Rodriguez.") stands."""
    maria, isabella = SPECS["maria_lopez"], SPECS["isabella_rodriguez"]
    sees_klaus = DecideToTalk(persona="maria_lopez", persona_name=maria.name, persona_summary=maria.summary(),
                              other="klaus_mueller", other_name="Klaus Mueller", other_action="eating breakfast",
                              own_action="reading", now="2023-02-13 07:31:00")
    reason = "I want to talk to Maria Lopez, she is interested in science, I think he might."
    assert _rejected_by(sees_klaus, {"talk": True, "reason": reason}) == "as_itself"
    assert _accepts(sees_klaus, {"talk": True, "reason": "I want to ask Klaus Mueller about his paper."})
    talk = _summary("maria_lopez", "isabella_rodriguez", PARTY)
    summary = ("I talked with Isabella about the latest research on Klaus Mueller, which brings her passion for "
               "her work and is a great inspiration to Maria Lopez.")
    assert _rejected_by(talk, {"summary": summary}) == "as_itself"
    # the next complete resample's hand-read: her first name alone
    summary = "I talked with Isabella about the relationship between Maria and Klaus Mueller's research."
    assert _rejected_by(talk, {"summary": summary}) == "as_itself"
    assert _accepts(sees_klaus, {"talk": True, "reason": "I want to talk to you."})
    people = tuple(p.name for p in TOWN.personas)
    asked = replace(_interview("isabella_rodriguez", "Who are you?"), people=people)
    for answer in ("I'm a business owner, and I work for The Willows Market, a local cafe owned by Isabella "
                   "Rodriguez. I like to think of me as a creative entrepreneur who brings people together.",
                   "I am Klaus Mueller, the headmaster of the 2nd-Tokyo High School in Tokyo, Japan, and a leading "
                   "expert in Japanese culture."):
        assert _rejected_by(asked, {"answer": answer}) == "as_itself", answer
    # the next resample's: her name set beside "I'm ..." at the sentence's end (rejected once)
    for own in (f"I am {isabella.name}, and I run Hobbs Cafe.", f"I, {isabella.name}, run Hobbs Cafe.",
                f"I sleep in {isabella.name}'s apartment, my home.",
                f"I'm a local baker and coffee shop owner, {isabella.name}."):
        assert _accepts(asked, {"answer": own}).answer == own


def test_a_heard_act_holding_another_fields_name_is_a_placeholder():
    """SmolLM2's heard act "subject" (the name of the field after it) was accepted in a complete
    resample: a text that is the name of any field of its answer is placeholder text."""
    heard = {"importance": 1, "act": "subject", "subject": "Isabella Rodriguez", "place": "Hobbs Cafe",
             "start": "", "end": "", "host": "Maria Lopez"}
    assert _rejected_by(HEARS_KLAUS, heard) == "own_words_where_given"
    assert _rejected_by(HEARS_KLAUS, {**heard, "act": "host", "host": ""}) == "own_words_where_given"
    assert _accepts(HEARS_KLAUS, {**heard, "act": "meet"}).act == "meet"


def test_what_a_third_complete_resample_read_by_hand_let_through():
    """A third complete resample's hand-read (40 of 91 accepted, at ba7b6b7) found steps about
    steps ("use the steps", "A step in order"), a date left blank ("... my plans for Monday
    February .", a step "... on February  (depart)"), lines about the lines ("Your line of the
    conversation has passed on, ...", a summary "... which is a line from my own conversation.")
    and Maria speaking of herself by her first name ("I think Maria is going to the library
    tomorrow, ..."). Each is rejected; the fair answers beside them stand."""
    for found in ("use the steps", "A step in order"):
        assert _rejected_by(WASH, _steps(found)) == "not_a_label", found
    for fair in ("step into the shower", "take the steps down to the sink", "look through the shelves (wash up)"):
        assert _accepts(WASH, _steps(fair)).steps[0].description == fair
    assert _rejected_by(WASH, _steps("explore the town on February  (depart)")) == "not_a_label"
    to_maria = {"line": "Your line of the conversation has passed on, but it's not your own. No news.", "shared": [],
                "end": False}
    assert _rejected_by(TO_MARIA, to_maria) == "not_a_label"
    blank = {"line": "I want to talk about my plans for Monday February .", "shared": [], "end": False}
    assert _rejected_by(TO_MARIA, blank) == "not_a_label"
    dated = "I will see you on Monday, February 14 at the cafe."
    assert _accepts(TO_MARIA, {"line": dated, "shared": [], "end": False}).line == dated
    to_klaus = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                        listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 07:31:30")
    herself = "I think Maria is going to the library tomorrow, I just want to talk about how much she loves it."
    assert _rejected_by(to_klaus, {"line": herself, "shared": [], "end": False}) == "speaks_as_itself"
    to_a_maria = NextLine(persona="maria_lopez", persona_name="Maria Lopez", listener="maria_gomez",
                          listener_name="Maria Gomez", now="2023-02-13 07:31:30")
    namesake = "Maria, I think you will love the library."
    assert _accepts(to_a_maria, {"line": namesake, "shared": [], "end": False}).line == namesake


def test_what_a_fourth_complete_resample_read_by_hand_let_through():
    """A fourth complete resample's hand-read (40 of the accepted, at 7076661) found words left
    blank before a sentence's end (a reason "... and I'm actually interested in .", a written
    exchange's "... that I'm not sure is a ."), a date left blank in its short form ("... at Hobbs
    Cafe on Feb   ."), an empty numbered list ("I, you (and another day)  1. 2.  3.  4.  5."), a
    line about the conversation ("... This is the end of the conversation.", and at 3d22b41 "Your
    next line is...", "You have the line that you're going to end this conversation with
    today.", "The day you said the line, ..."), plan blocks that
    state what is instead of what is done ("The library is a nice place to think about science",
    "The Smiths have a big dining table in the library") and an interview's "I" given another's
    verb ("I, Isabella Rodriguez, a college student in Spain, is writing a paper ..."). Each is
    rejected by the check named; the fair answers beside them stand."""
    blank = "I want to talk about the latest fashion trends, and I'm actually interested in ."
    assert _rejected_by(_sees_maria(), {"talk": True, "reason": blank}) == "not_filler"
    party = "I want to tell you about my plans for the holiday party at Hobbs Cafe on Feb   ."
    assert _rejected_by(_sees_maria(), {"talk": True, "reason": party}) == "not_a_label"
    dated = "I want to tell you about the party at Hobbs Cafe on Feb. 14."
    assert _accepts(_sees_maria(), {"talk": True, "reason": dated}).reason == dated
    for found in ("I, you (and another day)  1. 2.  3.  4.  5.", "Hi Maria, good morning. This is the end of the conversation.",
                  "Your next line is...", "You have the line that you're going to end this conversation with today.",
                  "The day you said the line, it's a news about another day in the morning."):
        assert _rejected_by(TO_MARIA, {"line": found, "shared": [], "end": True}) == "not_a_label", found
    fair = "I have finished chapter 3. It took me 2.5 weeks."
    assert _accepts(TO_MARIA, {"line": fair, "shared": [], "end": True}).line == fair
    bed = "the_ville:Dorm for Oak Hill College:Maria Lopez's room:bed"
    for found in ("The library is a nice place to think about science", "The Smiths have a big dining table in the library"):
        assert _rejected_by(WASH, _steps(found)) == "plain_descriptions", found
        block = DayPlanAnswer.model_validate({"add": [{"start": "12:00", "minutes": 360, "description": found,
                                                       "place": bed}], "drop": []})
        with pytest.raises(InvalidAnswer, match="a statement of what is"):
            plain_descriptions(None, block, "")
    for done in ("have a look at what is in the sink", "Valentine's Day party prep"):
        assert _accepts(WASH, _steps(done)).steps[0].description == done
    q = _interview("isabella_rodriguez", "Give an introduction of yourself.")
    found = "I, Isabella Rodriguez, a college student in Spain, is writing a paper about gentrification of small towns."
    assert _rejected_by(q, {"answer": found}) == "as_itself"
    own = "I, Isabella Rodriguez, run Hobbs Cafe. Maria is a regular, and Klaus has lunch here."
    assert _accepts(q, {"answer": own}).answer == own
    herself = "I, Maria Lopez, is so glad to see you."
    to_klaus = NextLine(persona="maria_lopez", persona_name="Maria Lopez", persona_summary=SPECS["maria_lopez"].summary(),
                        listener="klaus_mueller", listener_name="Klaus Mueller", now="2023-02-13 07:31:30")
    assert _rejected_by(to_klaus, {"line": herself, "shared": [], "end": False}) == "speaks_as_itself"
