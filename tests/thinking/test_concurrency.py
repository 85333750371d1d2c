"""Requests fit the server: one at a time on a single-slot server, several servers share the load."""

from __future__ import annotations

import itertools

from ville_runs import run_ville, ville_config

from town.events import EventKind
from town.recording import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation


def _requests(path):
    with RunReader(path) as reader:
        return [e.data for e in reader.events(kinds=[EventKind.MODEL_CALL]) if e.data["request"]]


def test_a_single_slot_server_gets_one_request_at_a_time_and_none_times_out(
    fake_server, api_key, tmp_path
):
    """Three personas ask at once; the server works 3 s per request and holds one at a time.

    The client's timeout (5 s) is shorter than three queued requests (9 s): it holds only because
    requests wait their turn on our side and the timeout runs from sending. Zero timeouts in the
    run's MODEL_CALL events, and the server's own log never shows two requests held at once.
    """
    server = fake_server(latency_s=3.0, slots=1)
    config = ville_config(server, api_key, cache=False, timeout_s=5.0, pool_size=3)
    run = tmp_path / "slot.sqlite"
    run_ville(config, run, hours=10 / 3600)  # one tick: the three personas plan at once
    calls = _requests(run)
    # the three day plans (Klaus's and Isabella's with their block at hand's steps) and Maria's rating
    assert len(calls) == len(server.log) >= 4
    assert [c["outcome"] for c in calls] == ["ok"] * len(calls)
    assert max(e["held"] for e in server.log) == 1
    spans = sorted((e["arrived"], e["end"]) for e in server.log)
    assert all(b[0] >= a[1] for a, b in itertools.pairwise(spans))  # no overlap at all
    assert all(2900 <= c["latency_ms"] < 5000 for c in calls)  # measured from sending


def test_an_endpoint_taken_down_mid_run_loses_no_question(fake_server, api_key, tmp_path):
    """Two endpoints share the load; one goes down mid-run: no fallback, every question answered.

    Requests before the outage went to both; after it, the failed one is set aside and the
    questions it failed are answered by the other.
    """
    a, b = fake_server(slots=1, latency_s=0.02), fake_server(slots=1, latency_s=0.02)
    config = ville_config(a, api_key, cache=False, more_base_urls=[b.base_url], pool_size=3,
                          max_consecutive_failures=1000)
    run = tmp_path / "two.sqlite"
    down_at = 1

    def during(sim, tick):
        if tick == down_at:
            b.down()

    run_ville(config, run, hours=1.2, during=during)  # past 07:30, when the next chunks ask again
    calls = _requests(run)
    with RunReader(run) as reader:
        fallbacks = [e for e in reader.events(kinds=[EventKind.MODEL_CALL])
                     if e.data["outcome"] == "fallback"]
    assert fallbacks == []
    assert a.counts["chat"] > 0 and b.counts["chat"] > 0
    failed = [c for c in calls if c["outcome"] != "ok"]
    assert failed and all(c["endpoint"] == b.base_url for c in failed)
    questions = sum(c["attempt"] == 1 for c in calls)
    assert sum(c["outcome"] == "ok" for c in calls) == questions


def test_a_timed_out_request_is_closed_before_it_is_retried(fake_server, api_key, tmp_path):
    """The client closes a timed-out request's connection before it sends the retry.

    The server works 3 s on the request; the client gives up after 0.5 s, and the server sees
    the connection closed at once, not when it finishes. The attempt records estimated tokens.
    """
    from town.thinking.openai_backend import OpenAIBackend
    from town.thinking.questions import RateImportance

    server = fake_server(fault_rate=1.0, faults=("slow",), slow_s=3.0)
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key,
                            timeout_s=0.5, structured="json_schema")
    try:
        q = RateImportance(persona="p", persona_name="P", content="ate breakfast", kind="observation")
        first = backend.attempt(q)
        assert first.outcome.value == "timeout"
        assert first.estimated and first.tokens_in > 0 and first.tokens_out == backend.max_tokens
        server.fault_rate = 0.0
        import time

        sent_again = time.monotonic()
        assert backend.attempt(q).outcome.value == "ok"
    finally:
        backend.close()
    deadline = time.monotonic() + 5
    while not server.closed_at and time.monotonic() < deadline:
        time.sleep(0.05)
    # closed when the timeout fired (the server polls every 20 ms), 2.5 s before it would answer
    assert server.closed_at and server.closed_at[0] - sent_again < 0.1


def test_a_busy_single_slot_gets_no_retry_until_its_abandoned_request_is_done(fake_server, api_key):
    """llama-cpp-python's server works on to the end of a request whose client went, one request at
    a time; the fake server here does the same (and, like it, answers its model list only once the
    slot is free). The first answer takes 3 s, the client gives up after 1 s: the connection is
    closed then, and the retry is sent only when the server is free again. Sent at once, it would
    queue behind the abandoned work (the server would hold two requests) and time out in turn."""
    from town.backends import make_backend
    from town.thinking.questions import RateImportance

    server = fake_server(latency_s=3.0, slots=1, models_wait_for_slot=True)

    def then_fast(messages):
        server.latency_s = 0.05  # only the first answer is slow
        return '{"importance": 4}'

    server.responder = then_fast
    parts = make_backend(ville_config(server, api_key, cache=False, timeout_s=1.0, max_retries=1), backoff_s=0.01)
    try:
        answer = parts.backend.ask(RateImportance(persona="p", persona_name="P", content="ate breakfast",
                                                  kind="observation"))
    finally:
        parts.backend.close()
    assert answer.importance == 4 and len(server.log) == 2
    first, retry = sorted(server.log, key=lambda e: e["arrived"])
    assert server.closed_at and 0.9 <= server.closed_at[0] - first["start"] < 1.5  # closed when it timed out
    assert retry["arrived"] >= first["end"] >= first["start"] + 3.0  # sent once the abandoned work was done
    assert max(e["held"] for e in server.log) == 1  # never two of our requests at once


def test_the_two_summaries_that_end_a_conversation_are_asked_at_once(fake_server, api_key):
    """Each side summarises a finished conversation on its own: a two-slot server holds both.

    The summaries do not depend on each other; asked one after another, the server would never
    hold two requests at once (each takes 0.5 s).
    """
    from town.backends import make_backend

    server = fake_server(latency_s=0.5, slots=2)
    config = ville_config(server, api_key, cache=False, timeout_s=30.0, pool_size=2, max_concurrency="2")
    parts = make_backend(config, backoff_s=0.01)
    sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=parts.stall)
    try:
        conv = sim.conversations.open("isabella_rodriguez", "klaus_mueller", None, None)
        conv.lines.append(("isabella_rodriguez", "Good morning, Klaus."))
        server.log.clear()
        server.bodies.clear()
        sim.leave_conversation(conv.id)
    finally:
        sim.close()
    asked = [b["messages"][-1]["content"] for b in server.bodies]
    # the two summaries came first (then each side's rating of its own summary)
    assert sorted(a.split("\n")[:2] for a in asked[:2]) == [
        ["You are Isabella Rodriguez.", "You just talked with Klaus Mueller:"],
        ["You are Klaus Mueller.", "You just talked with Isabella Rodriguez:"]]
    first, second = sorted(server.log, key=lambda e: e["arrived"])[:2]
    assert second["arrived"] < first["end"]  # the second came while the first was held
    assert second["held"] == 2
    assert all(p.conversation is None for p in sim.personas.values())


def test_a_pooled_run_on_four_endpoints_equals_the_sequential_run(fake_server, api_key, tmp_path):
    """A generated town of 40 for a game hour: 4 endpoints and 8 threads, or one request at a time.

    Requests finish in whatever order the threads and servers give, lines of conversations under
    way start as soon as both speakers have decided, and the town library is shared; the run
    file must still be the sequential one, event for event (a model call's timing aside).
    """
    import sqlite3

    from town.generator import generate_town
    from town.backends import make_backend

    folder = generate_town(40, 2, tmp_path / "town")["folder"]
    runs = []
    for name, endpoints, pool in (("seq", 1, 1), ("pool", 4, 8)):
        servers = [fake_server(latency_s=0.005 * (i + 1), slots=1) for i in range(endpoints)]
        config = ville_config(servers[0], api_key, cache=False, pool_size=pool, max_concurrency="1",
                              more_base_urls=[s.base_url for s in servers[1:]], timeout_s=10.0)
        parts = make_backend(config)
        sim = Simulation(load_scenario(str(folder)), config, backend=parts.backend, stall=parts.stall,
                         run_path=tmp_path / f"{name}.sqlite")
        sim.bind_recorder(parts.recorder)
        sim.run(sim.clock.ticks_for(hours=1))
        sim.close()
        runs.append(tmp_path / f"{name}.sqlite")

    def rows(path, sql):
        with sqlite3.connect(path) as conn:
            return conn.execute(sql).fetchall()

    events = ("SELECT seq, tick, kind, persona, data FROM events "
              "WHERE kind NOT IN ('model_call', 'status') ORDER BY seq")
    kinds = dict(rows(runs[0], "SELECT kind, count(*) FROM events GROUP BY kind"))
    # lines under way (32 in this hour: a talk with nothing new ends after greet, ask, answer, close)
    assert kinds["chat"] > 25 and kinds["procedure"] > 10  # and a shared library
    assert rows(runs[0], events) == rows(runs[1], events)
    for table in ("frames", "memories", "retrievals"):
        sql = f"SELECT * FROM {table} ORDER BY 1"
        assert rows(runs[0], sql) == rows(runs[1], sql), table
