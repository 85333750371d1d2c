"""A run file is data, never configuration: a shared run file's stored backend is never contacted.

Someone shares ``shared.sqlite`` whose stored backend names a listener of their choosing (here a
loopback listener the test starts, which counts every connection and keeps what it was sent) and
an environment variable holding a key (here a canary). Opening its replay, its evaluation, a
compare, an interview and an evaluation (`evaluate`, `evaluate --battery`, `compare`,
`interview`) sends the listener nothing: the scripted backend answers and the commands say so.
`resume` and `fork` of it refuse in one line naming the flags to pass, or go on with the backend
their command line names; the listener hears nothing and the canary variable is never read.
Beyond loopback, a POST asking for a model evaluation without the token makes no model request;
with the token it asks the model the server's own command line named, never the file's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests
from cli_helpers import REPO

from town.analysis.recorded import NamedModel
from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation
from web import create_app, live
from web.cli import main

TOWN = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
CANARY_VAR, CANARY = "TOWN_SHARED_CANARY", "canary-3f9a1c"


class Listener:
    """A loopback TCP listener that keeps every connection's first bytes (no answer is sent)."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    self.received.append(conn.recv(65536))
                except OSError:
                    self.received.append(b"")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener(monkeypatch):
    monkeypatch.setenv(CANARY_VAR, CANARY)
    server = Listener()
    yield server
    server.close()


def _share(path: Path, url: str, *, embedder: str | None = None) -> None:
    """Make ``path``'s stored backend name ``url`` and the canary variable, as a sharer could."""
    with sqlite3.connect(path) as db:
        config = json.loads(db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
        config["backend"].update(name="openai", base_url=url, more_base_urls=[url], model="any-model",
                                 api_key_env=CANARY_VAR, timeout_s=2)
        rows = {"config": config, "backend": "openai"}
        if embedder:
            config["embedder"], rows["embedder"] = embedder, embedder
            config["backend"]["embed_model"] = "any-embedder"
        db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       [(k, json.dumps(v)) for k, v in rows.items()])


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A 30-game-minute scripted run of the_ville (hashing embedder)."""
    folder = tmp_path_factory.mktemp("made")
    sim = Simulation(load_scenario(TOWN), load_config(None, {"embedder": "hashing"}),
                     run_path=folder / "made.sqlite")
    sim.run(180)
    sim.close()
    return folder / "made.sqlite"


@pytest.fixture
def shared(made, listener, tmp_path):
    """``runs/shared.sqlite`` and its copy ``runs/other.sqlite``, both naming the listener."""
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("shared", "other"):
        shutil.copy(made, runs / f"{name}.sqlite")
        _share(runs / f"{name}.sqlite", listener.url)
    return runs


def _nothing_sent(listener: Listener) -> None:
    assert listener.received == []
    assert not any(CANARY.encode() in r for r in listener.received)


def test_the_commands_answer_with_the_scripted_backend_and_say_so(shared, listener, tmp_path, capsys):
    run, other = str(shared / "shared.sqlite"), str(shared / "other.sqlite")
    assert main(["interview", run, "--persona", "isabella_rodriguez", "Do you know about a party?"]) == 0
    printed = capsys.readouterr().out
    assert "answered by the scripted backend" in printed
    assert "was recorded with the openai backend" in " ".join(printed.split())
    assert main(["evaluate", run, "--out", str(tmp_path / "eval")]) == 0
    assert json.loads((tmp_path / "eval" / "report.json").read_text())["answered_by"] == "scripted"
    assert main(["evaluate", run, "--battery", "--out", str(tmp_path / "battery")]) == 0
    assert main(["compare", run, other]) == 0
    assert "answering with the scripted backend" in " ".join(capsys.readouterr().out.split())
    _nothing_sent(listener)


def test_a_model_is_asked_only_where_the_command_names_it(shared, listener, tmp_path, capsys):
    """`--backend openai` without `--base-url` refuses in one line: the file's address is never used."""
    run = str(shared / "shared.sqlite")
    assert main(["interview", run, "--persona", "isabella_rodriguez", "--backend", "openai", "Hello?"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--base-url" in err
    _nothing_sent(listener)


def test_an_embedder_at_the_files_server_is_refused_in_one_line(made, listener, tmp_path, capsys):
    run = tmp_path / "embedded.sqlite"
    shutil.copy(made, run)
    _share(run, listener.url, embedder="openai:any-embedder")
    assert main(["interview", str(run), "--persona", "isabella_rodriguez", "Hello?"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--base-url" in err and "Traceback" not in err
    _nothing_sent(listener)


def test_the_viewer_shows_what_the_run_was_made_with_and_asks_no_model(shared, listener):
    app = create_app({"RUNS_DIR": str(shared), "TESTING": True})
    try:
        client = app.test_client()
        page = client.get("/replay/shared")
        assert page.status_code == 200
        assert f"made with openai · any-model · {listener.url}" in page.get_data(as_text=True)
        assert client.get("/api/runs/shared").get_json()["summary"]["made_with"] == {
            "backend": "openai", "model": "any-model", "base_url": listener.url, "embedder": "hashing"}
        evaluation = client.get("/api/runs/shared/evaluation")
        assert evaluation.status_code == 200
        assert evaluation.get_json()["answered_by"] == "scripted"
        assert client.get("/api/compare/shared/other").status_code == 200
        asked = client.get("/api/runs/shared/personas/isabella_rodriguez/interview?q=Do+you+know+about+a+party%3F")
        assert asked.status_code == 200
        # on loopback no token is needed, but the server named no model: nothing to ask
        assert client.post("/api/runs/shared/evaluation").status_code == 409
    finally:
        live(app).close()
    _nothing_sent(listener)


def test_beyond_loopback_a_request_without_the_token_makes_no_model_request(shared, listener):
    """The server's own command line named a model (the listener stands for it): without the token
    a POST is 403 and nothing is sent; with it, that model (and the key its command named) is asked."""
    named = NamedModel(backend="openai", base_url=listener.url, api_key_env=CANARY_VAR)
    app = create_app({"RUNS_DIR": str(shared), "TESTING": True, "HOST": "0.0.0.0", "ANALYSIS_MODEL": named})
    try:
        client = app.test_client()
        host = {"Host": "localhost"}
        assert client.get("/api/runs/shared/evaluation", headers=host).status_code == 200
        assert client.post("/api/runs/shared/evaluation", headers=host).status_code == 403
        assert client.post("/api/runs/shared/evaluation?token=wrong", headers=host).status_code == 403
        _nothing_sent(listener)
        token = app.config["CONTROL_TOKEN"]
        answer = client.post("/api/runs/shared/evaluation", headers={**host, "X-Control-Token": token})
        assert answer.status_code == 503  # the listener answers nothing: the model did not start
    finally:
        live(app).close()
    assert listener.received and f"Bearer {CANARY}".encode() in listener.received[0]


class WatchedEnviron(dict):
    """``os.environ`` that notes every variable read by name (``[]``, ``get``, ``in``, ``os.getenv``)."""

    def __init__(self, values):
        super().__init__(values)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)


def _frames(run: Path) -> int:
    with sqlite3.connect(run) as db:
        return db.execute("SELECT COUNT(*) FROM frames").fetchone()[0]


def test_resume_and_fork_go_on_only_with_the_backend_their_command_names(shared, listener, tmp_path, monkeypatch,
                                                                         capsys):
    """Without --backend or --base-url, `resume` and `fork` of the shared file exit 2 with one line
    showing what it was made with and the flags to pass, and change nothing; with --backend
    scripted they go on (6 ticks: 0.0167 game hours of 10 s), as does a scripted run. The
    listener hears nothing, and the canary variable is never read."""
    environ = WatchedEnviron(os.environ)
    monkeypatch.setattr(os, "environ", environ)
    run, fork = shared / "shared.sqlite", tmp_path / "fork.sqlite"
    frames = _frames(run)
    shown = f"{run} was made with backend openai (model any-model) at {listener.url}"
    for argv in (["resume", str(run)], ["fork", str(run), "--at", "2023-02-13 07:10", "--out", str(fork)]):
        assert main([*argv, "--hours", "0.0167", "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and shown in err and "Traceback" not in err
        assert "pass --backend openai --base-url URL [--api-key-env VAR]" in err and "or --backend scripted" in err
    assert not fork.exists() and _frames(run) == frames
    assert main(["resume", str(run), "--hours", "0.0167", "--quiet", "--backend", "scripted"]) == 0
    assert _frames(run) == 180 + 6  # the run's only snapshot ends its 180 ticks
    assert main(["fork", str(run), "--at", "2023-02-13 07:10", "--out", str(fork), "--hours", "0.0167", "--quiet",
                 "--backend", "scripted"]) == 0
    embedded = shared / "other.sqlite"
    _share(embedded, listener.url, embedder="openai")  # a server embedder, with a scripted mind
    assert main(["resume", str(embedded), "--hours", "0.0167", "--quiet", "--backend", "scripted"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the openai embedder needs --base-url URL" in err
    _nothing_sent(listener)
    assert CANARY_VAR not in environ.read


def _replay(run: Path, *options: str) -> tuple[subprocess.Popen, str, str]:
    """``replay RUN --port 0 --no-open OPTIONS`` started; (the process, its base URL, its first lines)."""
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "replay", str(run), "--port", "0", "--no-open",
                             *options], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    lines = first + (proc.stdout.readline() if options else "")
    return proc, re.search(r"at (http://127\.0\.0\.1:\d+)/replay/", first).group(1), lines


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 0
    proc.stdout.close()
    proc.stderr.close()


def test_the_replay_command_opens_the_shared_file_without_asking_its_model(shared, listener):
    """`replay shared.sqlite` as a user runs it: the page and its evaluation send the file's
    listener nothing; a model named on its command line is asked only by a POST."""
    proc, url, _ = _replay(shared / "shared.sqlite")
    try:
        assert requests.get(f"{url}/replay/shared", timeout=30).status_code == 200
        assert requests.get(f"{url}/api/runs/shared/evaluation", timeout=120).json()["answered_by"] == "scripted"
        assert requests.post(f"{url}/api/runs/shared/evaluation", timeout=30).status_code == 409
    finally:
        _stop(proc)
    _nothing_sent(listener)
    proc, url, lines = _replay(shared / "shared.sqlite", "--backend", "openai", "--base-url", listener.url,
                               "--api-key-env", CANARY_VAR)
    try:
        assert f"asks {listener.url}" in lines
        assert requests.get(f"{url}/api/runs/shared/evaluation", timeout=120).json()["answered_by"] == "scripted"
        _nothing_sent(listener)
        assert requests.post(f"{url}/api/runs/shared/evaluation", timeout=120).status_code == 503
    finally:
        _stop(proc)
    assert listener.received and f"Bearer {CANARY}".encode() in listener.received[0]
