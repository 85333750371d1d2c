"""A stalled or rate-limited model server is visible at once, and a stop ends the waiting.

Status reaches the viewer (``/api/status`` and Socket.IO) and the run file within 2 s of the
stall, whatever the tick is doing; a stop request ends waiting calls and the runner within 5 s;
no snapshot is taken inside a tick, and the interrupted tick is neither recorded nor finished.
A run whose questions all fall back (every request answered HTTP 404) stops with one line.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from cli_helpers import REPO
from fake_server import FakeOpenAIServer
from fault_checks import assert_sound
from ville_runs import run_ville, ville_config

from town.errors import ThinkingError
from town.events import EventKind
from town.recording import RunReader
from town.runner import Runner
from town.scenario import load_scenario
from town.simulation import Simulation
from town.backends import make_backend
from town.thinking.openai_backend import OpenAIBackend
from web import create_app, live
from web.cli import main
from web.extensions import socketio


class Blackhole:
    """Listens on ``port`` and never answers: every request waits for the client's timeout."""

    def __init__(self, port: int):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(128)

    def close(self) -> None:
        """Stop listening."""
        self.sock.close()


def _until(ok, timeout: float, every: float = 0.01) -> float:
    """Wall seconds until ``ok()`` (asserts it happens within ``timeout``)."""
    start = time.monotonic()
    while not ok():
        assert time.monotonic() - start < timeout, f"not within {timeout} s"
        time.sleep(every)
    return time.monotonic() - start


def _file_states(path) -> list[str]:
    with RunReader(path) as reader:
        return [e.data["state"] for e in reader.events(kinds=[EventKind.STATUS])]


@pytest.fixture
def live_run(tmp_path):
    """Factory: (sim, runner, app, socket client) running the_ville against a server config."""
    made = []

    def start(config):
        parts = make_backend(config, backoff_s=0.01, recheck_interval_s=0.2)
        sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=parts.stall,
                         run_path=tmp_path / "live.sqlite")
        sim.bind_recorder(parts.recorder)
        runner = Runner(sim, speed=None)
        app = create_app({"RUNNER": runner, "RUN_PATH": sim.run_path, "TESTING": True})
        viewer = socketio.test_client(app, flask_test_client=app.test_client())
        made.append((sim, runner, app, viewer))
        runner.start()
        return sim, runner, app, viewer

    yield start
    for sim, runner, app, viewer in made:
        runner.stop(timeout=5)
        viewer.disconnect()
        live(app).close()
        sim.close(finished=False)


def _stopped_cleanly(sim, runner):
    """Stop within 5 s; close; the file has no tick, snapshot or 'finished' from inside a tick."""
    tick = sim.clock.tick  # the tick in progress
    assert runner.stop(timeout=4.5) is True
    assert runner.status()["state"] == "stopped"
    sim.close(finished=True)  # a caller that asks for "finished": an interrupted tick refuses it
    path = sim.run_path
    assert assert_sound(path) == tick - 1
    with RunReader(path) as reader:
        assert reader.meta["finished"] is False
        for snap_tick, _, _ in reader.snapshots():
            assert snap_tick <= tick - 1
            # taken between ticks: the state's clock is at the tick after the snapshot's
            assert reader.snapshot_at_or_before(snap_tick)[2]["clock"]["tick"] == snap_tick + 1
        assert max(e.tick for e in reader.events()) <= tick
    assert "finished" not in _file_states(path)


def test_a_hanging_server_shows_stalled_within_2_s_and_stop_ends_within_5_s(fake_server, api_key, live_run):
    """The server hangs from tick 20: 'stalled' in the viewer and the file within 2 s; stop < 5 s."""
    server = fake_server()
    config = ville_config(server, api_key, cache=False, max_retries=3, max_consecutive_failures=3,
                          pool_size=4)
    sim, runner, app, viewer = live_run(config)
    _until(lambda: sim.clock.tick >= 20, timeout=60)
    server.down()
    hole = Blackhole(server.port)  # the server hangs: connections open, no answer
    try:
        _until(lambda: sim.stall.stalled, timeout=30)
        seen = _until(lambda: app.test_client().get("/api/status").get_json()["state"] == "stalled", 2)
        assert seen < 2
        assert _until(lambda: "stalled" in _file_states(sim.run_path), 2) < 2
        statuses = [e["args"][0] for e in viewer.get_received() if e["name"] == "status"]
        assert any(s["state"] == "stalled" for s in statuses)
        started = time.monotonic()
        _stopped_cleanly(sim, runner)
        assert time.monotonic() - started < 5
    finally:
        hole.close()


def test_a_long_429_wait_shows_rate_limited_and_stop_ends_it(fake_server, api_key, live_run):
    """From tick 20 every request is answered 429 with Retry-After 11 s: 'rate_limited' within
    2 s, in the viewer and the run file; a stop during the wait ends it within 5 s."""
    server = fake_server(faults=("429",), retry_after_s=11)
    config = ville_config(server, api_key, cache=False, max_retries=3)
    sim, runner, app, viewer = live_run(config)
    _until(lambda: sim.clock.tick >= 20, timeout=60)
    server.fault_rate = 1.0
    _until(lambda: server.counts["429"] > 0, timeout=30)
    assert _until(lambda: runner.status()["state"] == "rate_limited", 2) < 2
    assert app.test_client().get("/api/status").get_json()["state"] == "rate_limited"
    assert _until(lambda: "rate_limited" in _file_states(sim.run_path), 2) < 2
    assert "11 s" in runner.status()["reason"]
    started = time.monotonic()
    _stopped_cleanly(sim, runner)
    assert time.monotonic() - started < 5


def test_sigterm_to_serve_with_a_hanging_request_exits_within_5_s(tmp_path):
    """serve waiting on a request that would take its full 30 s timeout: SIGTERM ends the
    process within 5 s, exit 0; the run is sound, unfinished, and keeps the ticks before."""
    server = FakeOpenAIServer(lambda messages: "{}")  # invalid answers: scripted fallbacks
    out = tmp_path / "live.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "run.py"), "serve", "--town", "the_ville", "--port", "0", "--speed", "max",
         "--out", str(out),
         "--embedder", "hashing", "--backend", "openai", "--base-url", server.base_url, "--model",
         server.model, "--api-key-env", "TOWN_TEST_KEY", "--no-cache", "--set", "backend.timeout_s=30",
         "--set", "backend.max_retries=0", "--set", "backend.max_consecutive_fallbacks=0"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TOWN_TEST_KEY": "test-key"})
    hole = None
    try:
        assert re.search(r"is live at", proc.stdout.readline())
        _until(lambda: server.counts["chat"] > 30, timeout=60)
        server.down()
        hole = Blackhole(server.port)
        time.sleep(1.0)  # requests now hang
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
        if hole is not None:
            hole.close()
        server.close()
    assert code == 0 and took < 5, took
    last = assert_sound(out)
    with RunReader(out) as reader:
        assert reader.meta["finished"] is False
        assert all(t <= last for t, _, _ in reader.snapshots())
    assert "finished" not in _file_states(out)


def test_a_run_whose_first_20_questions_fall_back_stops_with_one_line(fake_server, api_key, tmp_path,
                                                                      capsys, monkeypatch):
    """A model name the server does not serve (the start-up check skipped): every request is
    answered HTTP 404, and after 20 fallbacks in a row the run stops: exit 2, one line."""
    server = fake_server()
    monkeypatch.setattr(OpenAIBackend, "check", lambda self: None)
    out = tmp_path / "run.sqlite"
    # 2 game hours: the first asks the_ville's three about 19 questions, fewer than 20
    code = main(["simulate", "--hours", "2", "--out", str(out), "--quiet", "--embedder", "hashing",
                 "--backend", "openai", "--base-url", server.base_url, "--model", "no-such-model",
                 "--api-key-env", api_key, "--no-cache", "--set", "backend.pool_size=1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "none of the last 20 questions" in err and "every request: HTTP 404" in err
    assert server.counts["chat"] == 20  # one request per question (a 404 is not retried)
    assert_sound(out)
    with RunReader(out) as reader:
        assert reader.meta["finished"] is False


def test_20_fallbacks_in_a_row_later_stop_the_run(fake_server, api_key, tmp_path):
    """The model answers, then is withdrawn at tick 30: 20 questions in a row fall back (HTTP
    404) and the run stops with ThinkingError; the file keeps the ticks before."""
    server = fake_server()
    config = ville_config(server, api_key, cache=False, pool_size=1)
    run = tmp_path / "later.sqlite"

    def during(sim, tick):
        if tick == 30:
            server.model = "withdrawn"

    with pytest.raises(ThinkingError, match=r"none of the last 20 questions.*HTTP 404"):
        run_ville(config, run, hours=8, during=during)  # about 5 questions a game hour after the first
    last = assert_sound(run)
    assert last >= 29
    with RunReader(run) as reader:
        calls = reader.events(kinds=[EventKind.MODEL_CALL])
        assert [c for c in calls if c.tick < 30 and c.data["outcome"] == "ok"]
        assert not [c for c in calls if c.tick < 30 and c.data["outcome"] == "fallback"]
        assert reader.meta["finished"] is False
