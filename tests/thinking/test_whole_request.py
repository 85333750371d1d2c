"""``timeout_s`` bounds a whole request however its bytes arrive, and a stop ends every model wait.

A server that trickles its reply one byte a second never trips a per-read timeout; the request
must still end at ``timeout_s`` with its connection closed, the stall guard must see it, and a
SIGTERM or SIGINT must end ``simulate`` within 5 s (2 s of grace for the tick, then its model
waits are cancelled) with the run file holding every whole tick. A tick that raises while the
model server is stalled must leave no ``mind_`` thread behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from cli_helpers import REPO
from fake_server import FakeOpenAIServer
from fault_checks import assert_sound
from test_stop_and_status import Blackhole, _file_states, _until
from ville_runs import ville_config

from town.errors import RecordingError, RunStopped
from town.recording import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation
from town.backends import make_backend
from town.thinking.model import CallOutcome, TransportFailure
from town.thinking.openai_backend import OpenAIBackend

MESSAGES = [{"role": "user", "content": "hello"}]


def _last_tick(path) -> int | None:
    """The run's last committed tick (None: none yet, or the file is still being created)."""
    try:
        with RunReader(path) as reader:
            return reader.last_tick
    except RecordingError:
        return None


def _simulate(server: FakeOpenAIServer, out, *settings: str) -> subprocess.Popen:
    """`python run.py simulate --hours 3 ...` against ``server``, every question one request."""
    return subprocess.Popen(
        [sys.executable, str(REPO / "run.py"), "simulate", "--hours", "3", "--out", str(out), "--quiet",
         "--embedder", "hashing", "--backend", "openai", "--base-url", server.base_url, "--model", server.model,
         "--api-key-env", "TOWN_TEST_KEY", "--no-cache", "--set", "backend.max_retries=0",
         "--set", "backend.max_consecutive_fallbacks=0", *settings],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "TOWN_TEST_KEY": "test-key"})


def _stopped(proc: subprocess.Popen, sig: int) -> tuple[int, float, str]:
    """Send ``sig``; (exit code, wall seconds to exit, stderr)."""
    started = time.monotonic()
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, time.monotonic() - started, err


def _resumes(out, server: FakeOpenAIServer) -> None:
    """`resume` continues the run from its snapshot at the server it names: exit 0, and the run is
    sound and longer."""
    done = subprocess.run([sys.executable, str(REPO / "run.py"), "resume", str(out), "--hours", "0.01",
                           "--quiet", "--base-url", server.base_url, "--api-key-env", "TOWN_TEST_KEY"], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TOWN_TEST_KEY": "test-key"})
    assert done.returncode == 0, done.stderr
    assert assert_sound(out) >= 2  # 0.01 game hours: ticks 0..2 again after the snapshot at -1


def test_a_trickled_reply_times_out_at_timeout_s_and_its_connection_is_closed():
    """Headers, then a byte a second: the request ends at 2.5 s (timeout_s, not at the next
    byte nor at 100 MB), and the server sees the client close the connection within 1.5 s."""
    server = FakeOpenAIServer(lambda messages: "{}", api_key=None)
    server.trickle = True
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, timeout_s=2.5,
                            structured="json_object")
    try:
        started = time.monotonic()
        with pytest.raises(TransportFailure) as failed:
            backend.send(backend.endpoints[0], list(MESSAGES), {})
        took = time.monotonic() - started
        assert failed.value.outcome is CallOutcome.TIMEOUT and "within 2.5 s" in str(failed.value)
        assert 2.4 < took < 2.8, took
        _until(lambda: server.closed_at, timeout=3)
        assert server.closed_at[0] - started < took + 1.5
    finally:
        backend.close()
        server.close()


def test_cancel_ends_a_request_in_flight_at_once_and_refuses_new_ones():
    """A stop request during a trickled reply (timeout 60 s) ends it within 0.5 s with
    RunStopped; the next request is refused at once."""
    server = FakeOpenAIServer(lambda messages: "{}", api_key=None)
    server.trickle = True
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, timeout_s=60.0,
                            structured="json_object")
    try:
        timer = threading.Timer(0.5, backend.cancel)
        timer.start()
        started = time.monotonic()
        with pytest.raises(RunStopped):
            backend.send(backend.endpoints[0], list(MESSAGES), {})
        assert time.monotonic() - started < 1.0
        with pytest.raises(RunStopped):
            backend.send(backend.endpoints[0], list(MESSAGES), {})
        _until(lambda: server.closed_at, timeout=3)
    finally:
        backend.close()
        server.close()


def test_sigterm_ends_simulate_on_a_trickling_server_within_5_s_keeping_every_whole_tick(tmp_path):
    """As found: the server trickles from tick 3; `stalled` is recorded (each request
    ends at timeout_s=5 s); SIGTERM exits within 5 s; the file holds ticks 0..L, L the last
    committed before the signal, is sound, replays and resumes."""
    server = FakeOpenAIServer(lambda messages: "{}")  # invalid answers: scripted fallbacks
    out = tmp_path / "trickle.sqlite"
    proc = _simulate(server, out, "--set", "backend.timeout_s=5", "--set", "backend.max_consecutive_failures=1")
    try:
        _until(lambda: out.exists() and (_last_tick(out) or 0) >= 3, timeout=60, every=0.1)
        server.trickle = True
        _until(lambda: "stalled" in _file_states(out), timeout=20, every=0.2)
        assert server.counts["trickle"] >= 1
        last = _last_tick(out)
        code, took, err = _stopped(proc, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.trickle = False
    assert code == 0 and took < 5, (took, err)
    assert "Traceback" not in err
    assert assert_sound(out) == last
    with RunReader(out) as reader:
        assert reader.meta["finished"] is False
    _resumes(out, server)
    server.close()


def test_sigint_ends_simulate_waiting_on_a_silent_server_within_5_s_and_drops_the_tick(tmp_path):
    """timeout_s=60 and a server that accepts but never answers from tick 3: SIGINT exits
    within 5 s (not after the 60 s timeout), and the tick in progress is not recorded."""
    server = FakeOpenAIServer(lambda messages: "{}")
    out = tmp_path / "silent.sqlite"
    proc = _simulate(server, out, "--set", "backend.timeout_s=60")
    hole = None
    try:
        _until(lambda: out.exists() and (_last_tick(out) or 0) >= 3, timeout=60, every=0.1)
        server.down()
        hole = Blackhole(server.port)
        time.sleep(1.0)  # the tick in progress now waits for its requests
        last = _last_tick(out)
        code, took, err = _stopped(proc, signal.SIGINT)
    finally:
        if proc.poll() is None:
            proc.kill()
        if hole is not None:
            hole.close()
    assert code == 0 and took < 5, (took, err)
    assert "is not recorded" in err
    assert assert_sound(out) == last
    server.up()
    _resumes(out, server)
    server.close()


def test_sigint_ends_simulate_within_5_s_with_a_request_in_flight_on_a_busy_single_slot(tmp_path):
    """As found with llama-cpp-python: a one-slot server working 30 s on each request (and on to
    its end when the client goes; its model list waits for the slot), the tick's other questions
    waiting for that slot on our side, the timeout chosen at start (30 s). SIGINT with the first
    question in flight exits within 5 s, and the tick is not recorded."""
    server = FakeOpenAIServer(lambda messages: "{}", latency_s=30.0, slots=1, models_wait_for_slot=True)
    out = tmp_path / "busy.sqlite"
    proc = _simulate(server, out)
    try:
        _until(lambda: server.active >= 1, timeout=60, every=0.1)
        time.sleep(1.0)
        code, took, err = _stopped(proc, signal.SIGINT)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.close()
    assert code == 0 and took < 5, (took, err)
    assert "is not recorded" in err


def test_sigint_during_the_start_up_checks_speed_request_exits_within_5_s_leaving_no_run(tmp_path):
    """The start-up check's requests take 30 s each (the reading one is in flight): SIGINT ends
    `simulate` within 5 s, one line, and no run file is left."""
    server = FakeOpenAIServer(lambda messages: "{}", check_latency_s=30.0)
    out = tmp_path / "checking.sqlite"
    proc = _simulate(server, out)
    try:
        _until(lambda: server.counts["check"] >= 1, timeout=60, every=0.1)
        time.sleep(1.0)
        code, took, err = _stopped(proc, signal.SIGINT)
    finally:
        if proc.poll() is None:
            proc.kill()
        server.close()
    assert code == 130 and took < 5, (took, err)
    assert err.strip() == "town: interrupted" and not out.exists()


def test_a_tick_that_raises_while_stalled_leaves_no_thread_behind(fake_server, api_key, tmp_path):
    """The server hangs at tick 3 and the run stalls with pool threads in StallGuard.wait and in
    requests (timeout 1 s); an exception raised in the tick (as a test timeout raises it) ends every
    `mind_` thread within 5 s, without close()."""
    server = fake_server()
    config = ville_config(server, api_key, cache=False, max_retries=3, max_consecutive_failures=2,
                          pool_size=4, timeout_s=1, max_concurrency="4")
    parts = make_backend(config, backoff_s=0.01, recheck_interval_s=0.2)
    stall = parts.stall
    sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=stall,
                     run_path=tmp_path / "r.sqlite")
    sim.bind_recorder(parts.recorder)
    main = threading.main_thread()
    assert threading.current_thread() is main
    for _ in range(3):
        sim.step()
    server.down()
    hole = Blackhole(server.port)
    raised = threading.Event()

    def interrupt_when_stalled():
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not stall.stalled:
            time.sleep(0.01)
        if stall.stalled:  # the tick's jobs wait in StallGuard.wait, its checks failing
            time.sleep(0.5)
            raised.set()
        signal.pthread_kill(main.ident, signal.SIGINT)  # KeyboardInterrupt inside step(), always

    watcher = threading.Thread(target=interrupt_when_stalled, daemon=True)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            while True:
                sim.step()
        assert raised.is_set()
        started = time.monotonic()
        _until(lambda: not [t for t in threading.enumerate() if t.name.startswith("mind")], timeout=5)
        assert time.monotonic() - started < 5
    finally:
        hole.close()
        sim.close(finished=False)


EXIT_SCRIPT = """
import sys, threading, time
sys.path[:0] = [{tests!r}, {thinking!r}]
from fake_server import FakeOpenAIServer
from samples import WHO
from test_stop_and_status import Blackhole
from ville_runs import ville_config
from town.simulation.jobs import Pool
from town.backends import make_backend
from town.thinking.questions import RateImportance

server = FakeOpenAIServer(lambda messages: '{{"importance": 5}}', api_key=None)
config = ville_config(server, "NO_KEY_NEEDED", cache=False, max_consecutive_failures=1, timeout_s=0.5)
parts = make_backend(config, backoff_s=0.01, recheck_interval_s=0.2)
pool = Pool(2, parts.stall)
server.down()
hole = Blackhole(server.port)
waiting = threading.Thread(target=pool.map, args=([
    lambda n=n: parts.backend.ask(RateImportance(**WHO, content=f"memory {{n}}", kind="observation")) for n in range(2)],),
    daemon=True)
waiting.start()
while not parts.stall.stalled:
    time.sleep(0.01)
time.sleep(0.5)
print("stalled", flush=True)
"""


def test_interpreter_exit_ends_pool_threads_waiting_on_a_stalled_server():
    """A script whose `mind_` pool threads wait in StallGuard.wait (never closed, never
    stopped) ends within 5 s of its last line: interpreter exit cancels the waits first."""
    script = EXIT_SCRIPT.format(tests=str(REPO / "tests"), thinking=str(REPO / "tests" / "thinking"))
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "stalled\n", proc.stderr.read()
        started = time.monotonic()
        code = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    assert code == 0 and time.monotonic() - started < 5
