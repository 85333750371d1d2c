"""Whole-town runs against a fake OpenAI server that injects faults: timeouts, errors, bad JSON, a server down."""

from __future__ import annotations

import collections
import itertools
import os
import threading

from ville_runs import run_ville, ville_config

from town.events import EventKind
from town.recording import RunReader

#: wall seconds the server is down in the stall test (30 by default; TOWN_TEST_DOWN_S overrides)
DOWN_S = float(os.environ.get("TOWN_TEST_DOWN_S", "30"))

# server-side fault -> the outcome the client must record for it
EXPECTED_OUTCOME = {
    "ok": "ok",
    "500": "server_error",
    "429": "rate_limited",
    "slow": "timeout",
    "malformed": "bad_json",
    "invalid": "invalid",
}


def _calls(path):
    with RunReader(path) as reader:
        return [e for e in reader.events(kinds=[EventKind.MODEL_CALL])]


def test_two_hours_with_20_percent_faults_complete_and_every_failure_is_recorded(
    fake_server, api_key, tmp_path
):
    """A 2-hour run with 20% faults completes and records every failure.

    Faults: 500s, 429s, slow answers, malformed and schema-invalid JSON. The server's request
    count equals the recorded attempts, and each fault is recorded as the outcome it causes.
    """
    server = fake_server(fault_rate=0.2, retry_after_s=0.2, slow_s=1.3, seed=3)
    # the faults come in turn, so a run of few requests (2.1 per persona-hour) still meets each kind
    draw, kinds = server.draw_fault, itertools.cycle(("500", "429", "slow", "malformed", "invalid"))
    server.draw_fault = lambda: draw() and next(kinds)
    config = ville_config(
        server, api_key, cache=False, max_retries=3, max_consecutive_failures=1000
    )
    run = tmp_path / "faults.sqlite"
    sim = run_ville(config, run, hours=2)
    assert sim.clock.tick == sim.clock.ticks_for(hours=2)
    calls = _calls(run)
    attempts = [c for c in calls if c.data["request"]]
    assert len(attempts) == server.counts["chat"]
    recorded = collections.Counter(c.data["outcome"] for c in attempts)
    served = collections.Counter(
        {EXPECTED_OUTCOME[k]: n for k, n in server.counts.items() if k in EXPECTED_OUTCOME}
    )
    assert recorded == served
    assert sum(server.counts[f] for f in ("500", "429", "slow", "malformed", "invalid")) > 0
    for fault in ("500", "429", "slow", "malformed", "invalid"):
        assert server.counts[fault] > 0, fault
    # every attempt carries its accounting fields, and the tick it was made at
    for c in attempts:
        assert c.persona in sim.personas
        assert {
            "template",
            "purpose",
            "tokens_in",
            "tokens_out",
            "latency_ms",
            "cache_hit",
            "outcome",
        } <= set(c.data)
        assert c.data["cache_hit"] is False
    ok = [c for c in attempts if c.data["outcome"] == "ok"]
    assert all(c.data["tokens_in"] > 0 and c.data["tokens_out"] > 0 for c in ok)


def test_server_down_mid_run_stalls_then_the_run_completes(fake_server, api_key, tmp_path):
    """A server down for DOWN_S wall seconds stalls the run, which completes when it returns.

    STATUS stalled is published after 3 consecutive failures, then running once it answers;
    nothing falls back, and every request that reached the server is recorded.
    """
    server = fake_server()
    config = ville_config(server, api_key, cache=False, max_retries=3, max_consecutive_failures=3)
    run = tmp_path / "down.sqlite"
    timers = []

    def during(sim, tick):
        if tick == 30:
            server.down()
            timers.append(threading.Timer(DOWN_S, server.up))
            timers[-1].start()

    sim = run_ville(config, run, hours=1, during=during, recheck_interval_s=0.5)
    for t in timers:
        t.join()
    assert sim.clock.tick == sim.clock.ticks_for(hours=1)
    with RunReader(run) as reader:
        status = [e for e in reader.events(kinds=[EventKind.STATUS])]
        calls = reader.events(kinds=[EventKind.MODEL_CALL])
    states = [e.data["state"] for e in status]
    assert states[:2] == ["stalled", "running"], states
    assert states[-1] == "finished"
    refused = [c for c in calls if c.data["outcome"] == "connection_error"]
    # The 3rd failure stalls; later attempts wait for the server to answer GET /models. Requests the other personas had
    # already sent when the 3rd failed fail too (decisions run concurrently, one request each).
    assert 3 <= len(refused) <= 3 + len(sim.personas) - 1
    assert all(c.tick >= 30 for c in refused)
    assert not [c for c in calls if c.data["outcome"] == "fallback"]
    reached = [c for c in calls if c.data["request"] and c.data["outcome"] != "connection_error"]
    assert len(reached) == server.counts["chat"]
