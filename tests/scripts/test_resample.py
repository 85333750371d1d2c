"""scripts/resample.py's capture: every template the first hour asks reaches ``--per-template``
questions, conversations written whole included.

The_ville has three personas, and each plans its day once at 07:00: its first hour asks
``plan_day`` three times, so a fourth can only be the second day's first planning (dated the
14th). The scripted backend talks line by line, so ``write_conversation`` is asked only by the
capture that writes conversations whole.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter

from cli_helpers import REPO

_spec = importlib.util.spec_from_file_location("resample", REPO / "scripts" / "resample.py")
resample = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(resample)


def test_the_first_hour_is_topped_up_to_four_questions_a_template_with_whole_conversations():
    first_hour = Counter(q.template for q in resample.capture("the_ville", 60))
    assert first_hour["plan_day"] == 3 and "write_conversation" not in first_hour
    questions, filled = resample.gather("the_ville", 60, None, 4, 1500)
    got = Counter(q.template for q in questions)
    assert set(got) == set(first_hour) | {"write_conversation"}
    assert set(got.values()) == {4}
    plans = [q for q in questions if q.template == "plan_day"]
    assert [q.date[:10] for q in plans] == ["2023-02-13"] * 3 + ["2023-02-14"] and filled["plan_day"] == 1
    # a template the first hour asks four times or more takes nothing from the fill
    assert all(filled[t] == max(0, 4 - first_hour[t]) for t in first_hour)


def test_read_draws_accepted_answers_with_text_by_seed(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    rows = [{"template": "plan_day", "persona": "a", "check": None, "answer": {"add": [{"description": f"walk {i}"}]}}
            for i in range(5)]
    rows += [{"template": "rate_importance", "persona": "a", "check": None, "answer": {"importance": 3}},
             {"template": "plan_day", "persona": "a", "check": "not_filler", "answer": {"add": [{"description": "x"}]}}]
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    resample.read_sample(str(log), 3, 44)
    out = capsys.readouterr().out
    assert out.startswith("5 accepted answers with text")  # the rating and the rejected answer left out
    assert out.count("add[0].description: walk") == 3 and "importance" not in out
