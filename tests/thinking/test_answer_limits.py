"""A model's answer is bounded and must be text; its tokens are the server's own counts.

An answer longer than ``MAX_ANSWER_CHARS`` (or a reply body over ``MAX_REPLY_BYTES``, where
reading stops), an answer holding a lone surrogate, and a body that is not UTF-8 are invalid:
retried, then answered by the scripted fallback, so the simulation never sees them. Tokens come
from the server's ``usage`` whenever it gives one; estimates are marked as estimates in the
recorded MODEL_CALL data and in ``stats``.
"""

from __future__ import annotations

import json

import pytest
from fake_server import FakeOpenAIServer
from fault_checks import assert_sound
from samples import WHO
from ville_runs import run_ville, ville_config

from town.analysis.stats import compute_stats, print_stats
from town.events import EventKind
from town.recording import RunReader
from town.thinking.model import CallOutcome
from town.thinking.openai_backend import MAX_REPLY_BYTES, OpenAIBackend
from town.thinking.questions import AnswerInterview, RateImportance
from town.thinking.validate import MAX_ANSWER_CHARS, InvalidAnswer, parse_answer
from web.cli import main

HOURS = 5 * 10 / 3600  # five ticks of 10 s
QUESTION = RateImportance(**WHO, content="Isabella is planning a party.", kind="observation")


def _calls(path) -> list[dict]:
    with RunReader(path) as reader:
        return [e.data for e in reader.events(kinds=[EventKind.MODEL_CALL])]


def _resumes(path, server, api_key) -> None:
    """The run is sound, replays and resumes (`resume --hours 0.01`, the same server, named)."""
    last = assert_sound(path)
    assert main(["resume", str(path), "--hours", "0.01", "--quiet", "--backend", "openai", "--base-url",
                 server.base_url, "--api-key-env", api_key]) == 0
    assert assert_sound(path) >= 2 and last is not None


def _requests(calls) -> list[dict]:
    return [c for c in calls if c.get("request")]


def test_an_answer_of_max_answer_chars_is_parsed_and_one_more_is_invalid():
    """32,768 characters (the answer and its whitespace) pass; 32,769 are refused, by length."""
    answer = '{"importance": 5}'
    assert parse_answer(QUESTION, answer.ljust(MAX_ANSWER_CHARS)).importance == 5
    with pytest.raises(InvalidAnswer, match=f"32769 characters \\(at most {MAX_ANSWER_CHARS}\\)"):
        parse_answer(QUESTION, answer.ljust(MAX_ANSWER_CHARS + 1))


@pytest.mark.parametrize("reply", ['{"importance": 5}\ud800', '{"importance": 5, "x": "\\ud800"}',
                                   '{"importance": 5, "x": "\\udfff a"}'])
def test_a_lone_surrogate_in_the_reply_or_its_json_is_invalid(reply):
    """A lone surrogate, raw or as a JSON escape, makes the answer invalid (not unparsable)."""
    with pytest.raises(InvalidAnswer, match="U\\+D[8F][0-9A-F]{2}, a lone surrogate") as refused:
        parse_answer(QUESTION, reply)
    assert not refused.value.unparsable


def test_a_body_that_is_not_utf8_is_an_unparsable_answer():
    """\\xff\\xfe inside the reply's JSON body: BAD_JSON (retried), not a server failure."""
    server = FakeOpenAIServer(lambda messages: '{"importance": 5}', api_key=None)
    server.mangle = lambda body: body.replace(b'importance', b'imp\xff\xfertance')
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, structured="json_object")
    try:
        attempt = backend.attempt(QUESTION)
    finally:
        backend.close()
        server.close()
    assert attempt.outcome is CallOutcome.BAD_JSON and "not UTF-8" in attempt.error
    assert not attempt.outcome.unavailable


def test_an_answer_padded_with_10_mb_is_refused_retried_then_falls_back(fake_server, api_key, tmp_path):
    """Every answer carries 10 MB of whitespace: each request stops reading at MAX_REPLY_BYTES,
    is invalid, is retried once, and falls back; no answer reaches the run; it replays, resumes."""
    server = fake_server()
    server.padding = 10_000_000
    config = ville_config(server, api_key, cache=False, max_retries=1, max_consecutive_fallbacks=0,
                          timeout_s=20)  # the server takes a while to write 10 MB answers
    path = tmp_path / "padded.sqlite"
    run_ville(config, path, hours=HOURS)
    calls = _calls(path)
    requests = _requests(calls)
    assert requests and {c["outcome"] for c in requests} == {"invalid"}
    assert all(f"more than {MAX_REPLY_BYTES} bytes" in c["error"] for c in requests)
    questions = [c for c in requests if c["attempt"] == 1]
    assert sum(c["outcome"] == "fallback" for c in calls) == len(questions)
    assert len(requests) == 2 * len(questions)  # the first attempt and one retry each
    # nothing of a 10 MB answer was counted: at most the output budget, marked an estimate
    assert all(c["estimated"] and c["tokens_out"] <= 400 for c in requests)
    server.padding = 0
    _resumes(path, server, api_key)


def test_answers_with_a_lone_surrogate_fall_back_and_the_run_never_holds_one(fake_server, api_key, tmp_path):
    """Every answer ends with a lone surrogate: invalid, retried, scripted fallback; the run file
    holds no surrogate anywhere (every text column encodes as UTF-8); it replays and resumes."""
    server = fake_server()
    server.mangle = lambda body: body.replace(b'"content": "', b'"content": "\\ud800', 1)
    config = ville_config(server, api_key, cache=False, max_retries=1, max_consecutive_fallbacks=0)
    path = tmp_path / "surrogate.sqlite"
    run_ville(config, path, hours=HOURS)
    requests = _requests(_calls(path))
    assert requests and {c["outcome"] for c in requests} == {"invalid"}
    assert all("U+D800, a lone surrogate" in c["error"] for c in requests)
    with RunReader(path) as reader:
        for e in reader.events():
            json.dumps(e.data, ensure_ascii=False).encode("utf-8")  # raises on a surrogate
    server.mangle = None
    _resumes(path, server, api_key)


def test_tokens_are_the_servers_usage_and_stats_marks_estimates(fake_server, api_key, tmp_path, capsys):
    """A server reporting usage 111 in / 7 out: the run records exactly that, estimated false,
    and `stats` totals requests x 111 and x 7 with no estimate; the same run against a server
    reporting no usage records estimates, and `stats` shows them as ~N."""
    server = fake_server()
    server.usage = {"prompt_tokens": 111, "completion_tokens": 7, "total_tokens": 118}
    config = ville_config(server, api_key, cache=False)
    counted = tmp_path / "counted.sqlite"
    run_ville(config, counted, hours=HOURS)
    requests = _requests(_calls(counted))
    assert requests and all((c["tokens_in"], c["tokens_out"], c["estimated"]) == (111, 7, False)
                            for c in requests)
    total = compute_stats(counted)["total"]
    assert (total["tokens_in"], total["tokens_out"]) == (111 * len(requests), 7 * len(requests))
    assert (total["estimated"], total["estimated_in"], total["estimated_out"]) == (0, 0, 0)
    print_stats(counted)
    out = capsys.readouterr().out
    assert "server's own counts (usage) for every request" in out and "(~" not in out

    server.usage = {"total_tokens": 0}  # no prompt or completion count
    guessed = tmp_path / "guessed.sqlite"
    run_ville(config, guessed, hours=HOURS)
    requests = _requests(_calls(guessed))
    assert all(c["estimated"] for c in requests)
    total = compute_stats(guessed)["total"]
    assert total["estimated"] == len(requests) and total["estimated_in"] == total["tokens_in"] > 0
    print_stats(guessed)
    out = capsys.readouterr().out
    assert f"{int(total['tokens_in'])} (~{int(total['tokens_in'])})" in out
    assert f"{len(requests)} requests got no token count" in out
    _resumes(guessed, server, api_key)


#: An interview answer of three sentences and 400 characters (as the prompt asks: one to three).
WHOLE = ("I own Hobbs Cafe, the cosy coffee shop on the south side of town, and I have run it for years now. "
         "I am planning a Valentine's Day party there on February 14, 2023, from 5pm to 7pm, and I want to invite "
         "everyone I know in town. Klaus and Maria both said they would come, so I am baking cakes and hanging "
         "red paper hearts all over the walls and the windows, with candles on every table near the doors.")


@pytest.mark.parametrize("dialect", ["json_schema", "json_object_schema"])
def test_an_interview_answer_of_three_sentences_and_400_characters_comes_back_whole(dialect):
    """Under a grammar a string ends at its schema's maxLength; at 160 characters this answer came
    back "... on the south side of town, and I have run it for years now. I am planning a
    Valentine's Day party there on February 14, 2023, from 5pm to" (as found: "...from 5pm to").
    The interview's bound is three sentences: 480 characters."""
    assert len(WHOLE) == 400 and WHOLE.count(". ") == 2
    question = AnswerInterview(**WHO, question="Tell me about your week.")
    server = FakeOpenAIServer(lambda messages: json.dumps({"answer": WHOLE}), api_key=None, grammar_lengths=True,
                              dialects=(dialect,))
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, structured=dialect)
    try:
        attempt = backend.attempt(question)
    finally:
        backend.close()
        server.close()
    assert attempt.outcome is CallOutcome.OK, attempt.error
    assert attempt.answer.answer == WHOLE


def test_an_answer_longer_than_asked_keeps_its_whole_sentences():
    """A fourth sentence, or a part cut off after the last whole one, is left out; not a word is cut."""
    question = AnswerInterview(**WHO, question="Tell me about your week.")
    four = WHOLE + " It will be a lovely evening."
    assert parse_answer(question, json.dumps({"answer": four})).answer == WHOLE
    cut = WHOLE[:WHOLE.index("from 5pm") + len("from 5pm to")]
    assert parse_answer(question, json.dumps({"answer": cut})).answer == WHOLE[:WHOLE.index(" I am planning")]
