"""The judge path: pairwise judgements by a model, conditions rated with openskill.

A fake OpenAI server (tests/thinking/fake_server.py) plays a judge that always prefers the
answer of one condition (its answers carry the word "heartfelt"), so that condition must end
with the highest mu, and the one it never prefers the lowest.
"""

from __future__ import annotations

import re

import pytest
from fake_server import FakeOpenAIServer

from town.analysis.judge import JUDGED, Judge, rate
from town.errors import ThinkingError


def _battery(condition: str) -> dict:
    """Two personas, the ten judged questions each; answers say which condition gave them."""
    word = {"full": "heartfelt", "no-reflection": "plain", "no-reflection-planning": "vague"}[condition]
    answers = [{"persona": p, "category": c, "index": i, "question": f"{c} question {i}?",
                "answer": f"A {word} answer from {p}."}
               for p in ("ann", "bob") for c in JUDGED for i in range(5)]
    return {"answers": answers}


def _prefers_heartfelt(messages) -> str:
    prompt = messages[-1]["content"]
    a = re.search(r'Answer A: "(.*)"', prompt).group(1)
    b = re.search(r'Answer B: "(.*)"', prompt).group(1)
    if "heartfelt" in a:
        return '{"better": "A", "reason": "warmer"}'
    if "heartfelt" in b:
        return '{"better": "B", "reason": "warmer"}'
    return '{"better": "tie", "reason": "both flat"}'


def test_fake_judge_preferring_one_condition_ranks_it_first():
    """20 questions x 3 pairs = 60 judgements; "full" wins all 40 of its matches."""
    server = FakeOpenAIServer(_prefers_heartfelt, api_key=None)
    try:
        judge = Judge(server.base_url, "fake-model")
        names = ["no-reflection", "full", "no-reflection-planning"]
        ranking = judge.rank({n: _battery(n) for n in names},
                             personas={"ann": ("Ann Able", "a baker"), "bob": ("Bob Brown", "a student")})
    finally:
        server.close()
    assert ranking["full"]["wins"] == 40 and ranking["full"]["losses"] == 0
    assert ranking["no-reflection"]["ties"] == 20 and ranking["no-reflection-planning"]["ties"] == 20
    assert ranking["full"]["judgements"] == 60 and ranking["full"]["invalid"] == 0
    best = max(ranking, key=lambda n: ranking[n]["mu"])
    assert best == "full"
    assert ranking["full"]["mu"] > 25 > ranking["no-reflection"]["mu"]
    assert server.counts["chat"] == 60


def test_prompt_names_the_persona_and_rubric():
    """The Jinja2 prompt carries the persona, the question, both answers and the rubric."""
    judge = Judge("http://127.0.0.1:9/v1", "m")
    text = judge.prompt(persona_name="Ann Able", persona_summary="A baker.", category="reactions",
                        question="Q?", answer_a="one", answer_b="two")
    assert 'Answer A: "one"' in text and 'Answer B: "two"' in text and "Ann Able" in text
    assert "sensible, specific reaction" in text and '"better"' in text


def test_rate_is_symmetric_and_ties_leave_mu():
    """One win moves both by the same amount from 25; a tie between equals moves neither mu."""
    one = rate([("a", "b", "a")], ["a", "b"])
    assert one["a"]["mu"] - 25 == pytest.approx(25 - one["b"]["mu"])
    assert one["a"]["mu"] > 25
    tie = rate([("a", "b", "tie")], ["a", "b"])
    assert tie["a"]["mu"] == pytest.approx(25) and tie["b"]["mu"] == pytest.approx(25)
    assert tie["a"]["sigma"] < 25 / 3  # but it is surer of both


def test_judge_down_is_one_clear_error():
    """An unreachable judge raises ThinkingError naming the model."""
    judge = Judge("http://127.0.0.1:9/v1", "judge-x", timeout_s=2)
    with pytest.raises(ThinkingError, match="judge-x"):
        judge.judge(persona_name="A", persona_summary="", category="reactions", question="?",
                    answer_a="x", answer_b="y")
