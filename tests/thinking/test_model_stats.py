"""`town stats` says what a model run did: which checks rejected its answers, and why a run
stopped before its first tick was recorded.

A tick's events (its MODEL_CALL events too) are written with the tick, so a run that never
finished one holds only the STATUS events, written at once: the stall and its last failure, the
stop and its reason. `stats` used to call such an openai run one "without a language model".
"""

from __future__ import annotations

import json

from fake_server import model_answer

from town.analysis.stats import compute_stats
from town.cli import main


def _simulate(server, out, api_key, *settings: str) -> int:
    return main(["simulate", "--hours", str(30 / 3600), "--out", str(out), "--quiet", "--embedder", "hashing",
                 "--backend", "openai", "--base-url", server.base_url, "--model", server.model,
                 "--api-key-env", api_key, "--no-cache", *settings])


def test_each_rejection_is_counted_under_the_check_that_made_it(fake_server, prompt_book, api_key, tmp_path,
                                                                capsys):
    """The fake model writes "10 min" into every decomposed step's description, those a day plan
    makes of the block at hand too: every answer the server gave with steps (a day plan's, the
    first tick's) is rejected by plain_descriptions (and so counted), no other answer by it."""

    def minutes_in_steps(messages):
        question = prompt_book[messages[-1]["content"]]
        answer = json.loads(model_answer(question))
        for step in answer.get("steps") or ():
            step["description"] += " 10 min"
        return json.dumps(answer)

    server = fake_server()
    server.responder = minutes_in_steps
    out = tmp_path / "steps.sqlite"
    assert _simulate(server, out, api_key, "--set", "backend.timeout_s=5") == 0
    schemas = [b["response_format"]["json_schema"] for b in server.bodies if "response_format" in b]
    plans = sum(s["name"] == "plan_day" for s in schemas)
    asked = sum(s["name"] == "plan_day" and "steps" in s["schema"]["properties"] for s in schemas)
    rejections = compute_stats(out)["rejections"]
    assert "decompose_task" not in rejections  # the first tick's blocks are split with the plans
    assert asked > 0 and rejections["plan_day"] == {"answers": plans, "checks": {"plain_descriptions": asked}}
    assert all("plain_descriptions" not in r["checks"] for t, r in rejections.items() if t != "plan_day")
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0
    table = capsys.readouterr().out.split("answers rejected, per template and check")[1]
    row, = [line for line in table.splitlines() if "plan_day" in line]
    assert row.split("│")[1:-1] == [" plan_day ", f" {plans:>7} ", " plain_descriptions ", f" {asked:>8} ",
                                     f" {100 * asked / plans:4.0f}% "]


def test_an_openai_run_without_a_recorded_tick_says_so_with_the_failures_it_saw(fake_server, api_key, tmp_path,
                                                                                capsys):
    """Every answer takes 2 s, the timeout is 0.5 s: two timeouts in a row stall the model (the
    server answers its model list, so the run goes on), and two questions in a row fall back:
    the run stops inside tick 0. `stats` names the backend, says no tick was recorded and why,
    and lists the stall with its last failure and the stop with its reason."""
    server = fake_server(fault_rate=1.0, faults=("slow",), slow_s=2.0)
    out = tmp_path / "stalled.sqlite"
    assert _simulate(server, out, api_key, "--set", "backend.timeout_s=0.5", "--set", "backend.max_retries=0",
                     "--set", "backend.max_consecutive_failures=2", "--set", "backend.max_consecutive_fallbacks=2") == 2
    s = compute_stats(out)
    assert s["last_tick"] is None and s["total"]["questions"] == 0 and s["backend"] == "openai"
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "without a language model" not in printed
    assert (f"backend openai (model {server.model} at {server.base_url}), but no tick was recorded: the run "
            "stopped inside its first tick") in " ".join(printed.split())
    assert "stalled: 2 consecutive failed model calls (the last: timeout: no whole reply within 0.5 s)" in printed
    assert "failed: tick 0 did not complete: ThinkingError: the model answered none of the last 2 questions" \
        in " ".join(printed.split())
