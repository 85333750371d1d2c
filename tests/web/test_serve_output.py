"""What `serve` prints: a few lines at start (the URL, what to try first, how to stop) and
nothing per page load, unless `-v/--verbose` asks for werkzeug's request log."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import requests
from cli_helpers import REPO

from web.cli import TRY_FIRST

#: At most this many lines before the viewer is ready.
START_LINES = 5


def _serve(tmp_path, *extra: str) -> tuple[list[str], str, str]:
    """Start `serve --port 0`, read its start lines, load the page and two API answers, stop it.

    Returns:
        (the lines printed up to and including TRY_FIRST, the rest of stdout, all of stderr).
    """
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "serve", "--port", "0", "--embedder",
                             "hashing", "--out", str(tmp_path / "live.sqlite"), *extra], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start: list[str] = []
    try:
        while len(start) <= START_LINES and TRY_FIRST not in start:
            line = proc.stdout.readline()
            assert line, f"serve ended early: {proc.stderr.read()[-2000:]}"
            start.append(line.rstrip("\n"))
        url = re.search(r"live at (http://\S+?)/ ", start[0]).group(1)
        for path in ("/", "/api/town", "/api/status", "/runs"):
            assert requests.get(url + path, timeout=30).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=60)
    return start, rest, err


def test_serve_prints_a_few_lines_and_nothing_per_page_load(tmp_path):
    """Start: the URL with the run file and how to stop, then what to try first (2 lines, at most
    5); four requests add nothing; Ctrl-C adds "stopping" (stderr) and "saved" (stdout). Without
    --town the town is Smallville, the 25-person one."""
    start, rest, err = _serve(tmp_path)
    assert len(start) <= START_LINES and start[-1] == TRY_FIRST
    assert start[0].startswith("town: Smallville is live at http://127.0.0.1:")
    assert "Ctrl-C" in start[0] and "live.sqlite" in start[0]
    assert [line for line in rest.splitlines() if line] == [next(line for line in rest.splitlines()
                                                                 if line.startswith("town: saved "))]
    assert err.splitlines() == ["town: stopping after this tick ..."]


def test_verbose_serve_logs_each_request(tmp_path):
    """`serve -v` turns werkzeug's request log on: each of the four requests is a line on stderr."""
    _, _, err = _serve(tmp_path, "-v")
    for path in ("/", "/api/town", "/api/status", "/runs"):
        assert re.search(rf'"GET {re.escape(path)} HTTP/1\.1" 200', err), path
