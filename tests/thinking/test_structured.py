"""Answer schemas: portable, narrowed to each request's options, sent in each server's dialect."""

from __future__ import annotations

import json
import os
import re
import subprocess

import jsonschema
import pytest
from fake_server import FakeOpenAIServer
from samples import SAMPLES

from town.config import Dialect
from town.thinking.openai_backend import OpenAIBackend
from town.thinking.schema import portable_problems, to_gbnf
from town.thinking.validate import parse_answer

CONSTRAINED = ("json_schema", "json_object_schema", "grammar")


def _at(schema: dict, path: str) -> dict:
    """The sub-schema at a dotted path ("add[].place": property add, its items, place)."""
    node = schema
    for part in path.split("."):
        name, arrays = part.rstrip("[]"), part.count("[]")
        node = node["properties"][name]
        for _ in range(arrays):
            node = node["items"]
    return node


@pytest.mark.parametrize("question,options", SAMPLES, ids=[q.template for q, _ in SAMPLES])
def test_every_emitted_schema_is_portable_and_offers_the_questions_options(question, options):
    """Only constructs the common converters handle; enums equal the offered options."""
    schema = question.answer_schema()
    assert portable_problems(schema) == []
    assert "\\" not in json.dumps(schema)  # no \d and friends
    for path, values in options.items():
        assert _at(schema, path)["enum"] == values, path


def test_the_portability_check_catches_what_converters_fail_on():
    """A `\\d` pattern, a $ref and an anyOf are each reported."""
    assert portable_problems({"type": "string", "pattern": "^\\d{2}:\\d{2}$"})
    assert portable_problems({"$ref": "#/$defs/X"})
    assert portable_problems({"type": "object", "properties": {"a": {"anyOf": []}}})
    assert portable_problems({"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}$"}) == []


def test_a_shown_memory_already_told_cannot_be_shared_again():
    """NextLine: ids already told are not in the enum; with none left, `shared` must be empty."""
    question, _ = next(s for s in SAMPLES if s[0].template == "next_line")
    from dataclasses import replace

    schema = replace(question, told=(3, 7)).answer_schema()
    assert schema["properties"]["shared"]["maxItems"] == 0


def _grammar_literals(grammar: str) -> set:
    """The JSON values the grammar's literals spell ("\\"c\\"" -> "c", "3" -> 3)."""
    values = set()
    for m in re.findall(r'"(?:[^"\\]|\\.)*"', grammar):
        try:
            values.add(json.loads(json.loads(m)))
        except (ValueError, TypeError):
            pass
    return values


@pytest.mark.parametrize("dialect", CONSTRAINED)
def test_every_question_goes_to_the_server_with_its_schema_in_the_dialects_envelope(
    dialect, fake_server, api_key
):
    """Each question type, sent in ``dialect``: the body carries the right envelope and enums."""
    server = fake_server(dialects=(dialect,))
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key,
                            structured=dialect, timeout_s=10)
    try:
        for question, options in SAMPLES:
            backend.ask(question)
            body = server.bodies[-1]
            if dialect == "json_schema":
                rf = body["response_format"]
                assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
                assert rf["json_schema"]["name"] == question.template
                schema = rf["json_schema"]["schema"]
            elif dialect == "json_object_schema":
                assert body["response_format"]["type"] == "json_object"
                schema = body["response_format"]["schema"]
            else:
                assert "response_format" not in body
                assert any(r.startswith("root ::= ") for r in body["grammar"].splitlines())
                literals = _grammar_literals(body["grammar"])
                for values in options.values():
                    assert set(values) <= literals
                continue
            for path, values in options.items():
                assert _at(schema, path)["enum"] == values, (question.template, path)
    finally:
        backend.close()


def test_the_grammar_accepts_exactly_the_enum_and_bounds():
    """to_gbnf of a small schema, compared with a grammar written by hand."""
    schema = {"type": "object", "properties": {
        "place": {"type": "string", "enum": ["a:b", "c"]},
        "ids": {"type": "array", "items": {"type": "integer", "enum": [3]}, "minItems": 0, "maxItems": 2},
        "ok": {"type": "boolean"}}, "required": ["place", "ids", "ok"]}
    rules = to_gbnf(schema).splitlines()
    assert rules[:4] == [
        'root-place ::= ("\\"a:b\\"" | "\\"c\\"") ws',
        'root-ids-item ::= ("3") ws',
        'root-ids ::= "[" ws (root-ids-item ("," ws root-ids-item)?)? "]" ws',
        'root ::= "{" ws "\\"place\\"" ws ":" ws root-place "," ws "\\"ids\\"" ws ":" ws root-ids '
        '"," ws "\\"ok\\"" ws ":" ws boolean "}" ws',
    ]


def test_a_class_repeated_m_to_n_times_becomes_nested_optionals():
    """A ``[a-b]{1,3}`` pattern in GBNF, written by hand: one required, two optional."""
    schema = {"type": "object", "properties": {"t": {"type": "string", "pattern": "^[a-b]{1,3}x[0-9]{2}$"}},
              "required": ["t"]}
    assert portable_problems(schema) == []
    assert to_gbnf(schema).splitlines()[0] == 'root-t ::= "\\"" [a-b] ([a-b] ([a-b])?)? "x" [0-9] [0-9] "\\"" ws'


def test_a_procedures_name_and_kind_are_chosen_from_the_listed_titles():
    """GeneraliseProcedure's name and "when" are an enum of the task's own words: what SmolLM2
    wrote there (an address, a time, code, "The City of Ember") fails the schema."""
    question = next(q for q, _ in SAMPLES if q.template == "generalise_procedure")
    schema = question.answer_schema()

    def ok(name: str, when: str = "have coffee") -> bool:
        try:
            jsonschema.validate({"name": name, "when": when}, schema)
        except jsonschema.ValidationError:
            return False
        return True

    assert ok("have coffee") and ok("order coffee", "order coffee")
    assert not ok("The City of Ember")
    assert not ok("the_ville:Hobbs Cafe:cafe")  # an address
    assert not ok("have coffee", "{3:10}")  # a time
    assert not ok("have coffee", "shelf }\n```\nThis is an example")  # code and a line break


#: Parses each GBNF text of a JSON list on stdin with llama.cpp's own parser (a grammar sampler
#: over the GGUF's vocabulary: NULL when the text does not parse; llama-cpp-python's
#: ``LlamaGrammar.from_string`` only stores the text); prints the indices that failed.
_PARSE_GRAMMARS = """
import json, sys
import llama_cpp
model = llama_cpp.Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
vocab = llama_cpp.llama_model_get_vocab(model.model)
failed = []
for i, text in enumerate(json.load(sys.stdin)):
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, text.encode(), b"root")
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
    else:
        failed.append(i)
print(json.dumps(failed))
"""


def test_llama_cpp_parses_every_grammar():
    """llama.cpp's own GBNF parser accepts each question's grammar.

    llama-cpp-python lives in the model server's venv, not the project's (scripts/ci_llama_server.sh,
    which `scripts/test.sh` runs, exports its python and the model file), so the grammars go to
    that python; skipped only where no llama.cpp was built (TOWN_SKIP_MODEL_SERVER=1). Before, the
    test imported llama_cpp here and was always skipped under the README's own command; and
    ``LlamaGrammar.from_string``, which it called, parses nothing in llama-cpp-python 0.3.
    """
    python, gguf = os.environ.get("TOWN_LLAMA_PYTHON"), os.environ.get("TOWN_LLAMA_GGUF")
    if not (python and gguf):
        pytest.skip("no llama.cpp: scripts/ci_llama_server.sh exports TOWN_LLAMA_PYTHON and TOWN_LLAMA_GGUF")

    def failing(grammars: list[str]) -> list[int]:
        done = subprocess.run([python, "-c", _PARSE_GRAMMARS, gguf], input=json.dumps(grammars),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    grammars = [to_gbnf(question.answer_schema()) for question, _ in SAMPLES]
    assert len(grammars) > 10
    assert failing([*grammars, 'root ::= ("a"']) == [len(grammars)]  # the parser does refuse a broken one


def test_dialect_values_are_the_cli_choices():
    """--structured offers auto plus every dialect."""
    from town.cli import build_parser

    parser = build_parser()
    sim = parser._subparsers._group_actions[0].choices["simulate"]
    choices = next(a.choices for a in sim._actions if a.dest == "structured")
    assert choices == ["auto"] + [d.value for d in Dialect]


def test_prompts_of_a_persona_share_their_opening():
    """Every question of one persona opens with the same system text and identity paragraph.

    A server's prefix cache can then reuse it; the identity is written out here by hand.
    """
    from town.thinking.openai_backend import OpenAIBackend
    from town.thinking.prompting import SYSTEM_PROMPT, PromptSet

    identity = ("You are Klaus Mueller. Klaus is a sociology student who studies "
                "gentrification.\n")
    prompts = PromptSet()
    for question, _ in SAMPLES:
        text = prompts.render(question)
        assert text.startswith(identity), question.template
    backend = OpenAIBackend(base_url="http://127.0.0.1:9/v1", model="m")
    for question, _ in SAMPLES:
        assert backend.messages(question)[0] == {"role": "system", "content": SYSTEM_PROMPT}


def test_a_prompt_over_budget_drops_its_lowest_scored_memories():
    """With a budget, the last (lowest-scored) memories go first, and the count is reported."""
    from town.thinking.model import estimate_tokens
    from town.thinking.openai_backend import OpenAIBackend

    question = next(q for q, _ in SAMPLES if q.template == "decompose_task")
    full = OpenAIBackend(base_url="http://127.0.0.1:9/v1", model="m")
    asked, text, dropped = full.fitted(question)
    assert dropped == 0 and asked == question and "Maria Lopez is studying" in text
    tight = OpenAIBackend(base_url="http://127.0.0.1:9/v1", model="m",
                          max_prompt_tokens=estimate_tokens(text) - 1)
    asked, text, dropped = tight.fitted(question)
    assert dropped == 1 and asked.memories == question.memories[:-1]
    assert "Maria Lopez is studying" not in text and "Valentine's party" in text


def test_the_schema_and_checks_judge_by_the_memories_the_prompt_shows(api_key):
    """A day plan whose only timed memory (5pm, scored last) is dropped for the budget: the request
    offers no start (add and drop must stay empty, as with no time stated), and a reply adding a
    5pm block anyway (a server that ignores the schema) is refused by the checks, because the
    place it names is named only by the dropped memory.
    """
    from dataclasses import replace

    from town.thinking.model import estimate_tokens
    from town.thinking.prompting import PromptSet
    from town.thinking.questions import MemoryView, PlanDay

    plan = next(q for q, _ in SAMPLES if isinstance(q, PlanDay))
    pub = "the_ville:The Rose and Crown Pub:pub"
    plain = MemoryView(id=1, content="Maria Lopez likes oat milk.", kind="observation", importance=2)
    timed = MemoryView(id=2, content="Quiz night at The Rose and Crown Pub starts at 5pm.", kind="chat",
                       importance=6)
    question = replace(plan, memories=(plain, timed), places=plan.places + (pub,))
    assert question.stated_starts() == ["17:00"] and pub in question.offered()
    budget = estimate_tokens(PromptSet().render(replace(question, memories=(plain,))))
    adds = json.dumps({"add": [{"start": "17:00", "minutes": 120, "description": "go to the quiz night",
                                "place": pub}], "drop": []})
    server = FakeOpenAIServer(lambda messages: adds, dialects=("json_object_schema",))
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key,
                            structured="json_object_schema", timeout_s=10, max_prompt_tokens=budget)
    try:
        attempt = backend.attempt(question)
        schema = server.bodies[-1]["response_format"]["schema"]
        assert "5pm" not in server.bodies[-1]["messages"][-1]["content"]
        assert schema["properties"]["add"]["maxItems"] == 0 and schema["properties"]["drop"]["maxItems"] == 0
        assert attempt.outcome.value == "invalid" and attempt.dropped == 1
        assert "add[0].place" in attempt.error
    finally:
        backend.close()
        server.close()


def test_a_day_plan_adds_blocks_only_at_times_its_memories_state():
    """Stated 5pm and 9:10 allow starts 17:00 and 09:00, a block each; no stated time keeps the routine."""
    from dataclasses import replace

    from town.thinking.questions import MemoryView, PlanDay

    plan = next(q for q, _ in SAMPLES if isinstance(q, PlanDay))
    timed = replace(plan, memories=(
        MemoryView(id=1, content="The party at Hobbs Cafe starts at 5pm.", kind="chat", importance=6),
        MemoryView(id=2, content="Class moved to 9:10 today.", kind="chat", importance=4),
    ))
    schema = timed.answer_schema()
    assert _at(schema, "add[].start")["enum"] == ["09:00", "17:00"]
    assert schema["properties"]["add"]["maxItems"] == 2  # one block per stated time
    untimed = plan.answer_schema()
    for changes in ("add", "drop"):
        assert untimed["properties"][changes]["maxItems"] == 0
    assert parse_answer(plan, '{"add": [], "drop": []}').day(plan.routine) == list(plan.routine)


def test_an_actions_minutes_are_the_step_lengths_that_fit():
    """Worked by hand from STEP_MINUTES (5, 10, 15, 20, 30, 45, 60): 12 minutes allow 5 and 10;
    a 3-minute chunk allows only 3; 90 allow all seven."""
    from town.thinking.questions.decompose_task import step_minutes

    assert step_minutes(12) == [5, 10]
    assert step_minutes(3) == [3]
    assert step_minutes(90) == [5, 10, 15, 20, 30, 45, 60]


def test_a_decomposed_steps_description_holds_no_address_time_or_digits():
    """What SmolLM2 wrote as a step of buying supplies ("go to the_ville:The Willows Market and
    Pharmacy:aisles:grocery shelf", which ``plain_descriptions`` then rejected) fails the schema,
    as do a clock time and a duration; words and a "(task)" the run writes pass."""
    question = next(q for q, _ in SAMPLES if q.template == "decompose_task")
    schema = question.answer_schema()
    obj = question.objects[0]

    def ok(description: str) -> bool:
        try:
            jsonschema.validate({"steps": [{"description": description, "object": obj, "minutes": 5}]}, schema)
        except jsonschema.ValidationError:
            return False
        return True

    assert ok("look through the shelves (buy supplies)") and ok("pick up Maria's order, then pay")
    assert not ok("go to the_ville:The Willows Market and Pharmacy:aisles:grocery shelf")
    assert not ok("12:00 have lunch") and not ok("wipe the counter 10 min")
    assert not ok("a" * 61)


def test_an_added_plan_blocks_description_holds_no_address_or_time():
    """SmolLM2 added "Hobbs Cafe opens at 6am and closes at midnight." and "The_ville:Dorm for
    Oak Hill College:bathroom:sink." as plan blocks (``plain_descriptions`` rejected both): the
    schema of an added block's description now refuses them, and takes an appointment's words."""
    question = next(q for q, _ in SAMPLES if q.template == "plan_day")
    description = question.answer_schema()["properties"]["add"]["items"]["properties"]["description"]

    def ok(text: str) -> bool:
        try:
            jsonschema.validate(text, description)
        except jsonschema.ValidationError:
            return False
        return True

    assert ok("go to Isabella's Valentine's Day party")
    assert not ok("Hobbs Cafe opens at 6am and closes at midnight.")
    assert not ok("The_ville:Dorm for Oak Hill College:bathroom:sink.")
