"""Procedures cut model calls: decomposition requests fall on day 2 (fewer calls)."""

from __future__ import annotations

from collections import Counter

from cli_helpers import run_cli
from fake_server import FakeOpenAIServer, model_answer
from ville_runs import run_ville, ville_config

from town.events import EventKind
from town.recording import RunReader
from town.thinking.questions import DecomposeTask


def test_day_two_needs_at_least_30_percent_fewer_decomposition_requests(prompt_book, api_key, tmp_path):
    """the_ville, openai backend, cache off, a fake server answering every question validly:
    DecomposeTask requests counted at the server on 14 Feb are >= 30% fewer than on 13 Feb, the
    run's MODEL_CALL events agree, and `stats` prints both figures."""
    clock = {}
    at_server: Counter = Counter()

    def responder(messages):
        question = prompt_book[messages[-1]["content"]]
        if isinstance(question, DecomposeTask):
            at_server[clock["sim"].clock.now.date().isoformat()] += 1
        return model_answer(question)

    server = FakeOpenAIServer(responder)
    try:
        config = ville_config(server, api_key, cache=False)
        run = tmp_path / "two_days.sqlite"
        run_ville(config, run, hours=41, before=lambda sim: clock.setdefault("sim", sim))
    finally:
        server.close()
    day1, day2 = at_server["2023-02-13"], at_server["2023-02-14"]
    assert day1 > 0 and day2 <= 0.7 * day1, (day1, day2)
    with RunReader(run) as reader:
        recorded = Counter(e.time.date().isoformat() for e in reader.events(kinds=[EventKind.MODEL_CALL])
                           if e.data["template"] == "decompose_task" and e.data["request"])
        reused = [e for e in reader.events(kinds=[EventKind.PROCEDURE]) if e.data["op"] == "use"]
    assert recorded["2023-02-13"] == day1 and recorded["2023-02-14"] == day2
    assert reused
    done = run_cli("stats", str(run))
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "decompose_task" in line]
    assert any("2023-02-13" in r and f" {day1} " in f" {r} " for r in rows), rows
    assert any("2023-02-14" in r and f" {day2} " in f" {r} " for r in rows), rows
