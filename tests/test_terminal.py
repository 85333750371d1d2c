"""Terminal output a user reads: traces that fit 80 columns, and what a stopped `serve` saved."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from cli_helpers import REPO, run_cli

from town.analysis.interview import interview
from town.recording import RunReader
from web import create_app, live


@pytest.fixture(scope="module")
def hour_run(tmp_path_factory):
    """One game hour of the_ville (hashing embedder), made by the CLI."""
    out = tmp_path_factory.mktemp("terminal") / "hour.sqlite"
    done = run_cli("simulate", "--hours", "1", "--embedder", "hashing", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


def _at_width(columns: int, *args: str) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "dumb"}
    done = subprocess.run([sys.executable, str(REPO / "run.py"), *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_interview_at_80_columns_shows_every_memory_in_full(hour_run):
    """Each candidate's whole text is printed (wrapped), no line is wider than 80 columns."""
    question = "What are you working on?"
    out = _at_width(80, "interview", str(hour_run), "--persona", "klaus_mueller", question)
    with RunReader(hour_run) as reader:
        expected = [c.content for c in interview(reader, "klaus_mueller", reader.frame(reader.last_tick)["time"],
                                                 question).candidates]
    assert len(expected) > 10 and max(len(e) for e in expected) > 200
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    flat = _flat(out)
    for content in expected:
        assert _flat(content) in flat


def test_inspect_at_80_columns_shows_every_memory_in_full_and_a_table_when_wide(hour_run):
    """inspect at 80 columns: every candidate's full text; at 200 columns: one table, content
    column wider than 30 characters."""
    with RunReader(hour_run) as reader:
        (last,) = reader.retrievals("maria_lopez", limit=1, newest_first=True)
        contents = [c["content"] for c in reader.retrieval(last["seq"])["candidates"]]
    out = _at_width(80, "inspect", str(hour_run), "--persona", "maria_lopez", "--last", "1")
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    for content in contents:
        assert _flat(content) in _flat(out)
    wide = _at_width(200, "inspect", str(hour_run), "--persona", "maria_lopez", "--last", "1")
    header = next(line for line in wide.splitlines() if " content " in line)
    content_cell = header.split("┃")[2]
    assert len(content_cell) > 30 and max(len(line) for line in wide.splitlines()) <= 200


def test_stopping_serve_says_what_was_saved(tmp_path):
    """Ctrl-C on `serve` ends with "saved X: ticks 0..N, last snapshot at T" (read back from the file)."""
    out = tmp_path / "live.sqlite"
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "serve", "--port", "0", "--speed", "64",
                             "--embedder", "hashing", "--out", str(out)], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "is live at" in proc.stdout.readline()
        db = None
        for _ in range(200):
            if out.exists():
                db = sqlite3.connect(out)
                if db.execute("SELECT COUNT(*) FROM frames").fetchone()[0] >= 20:
                    break
                db.close()
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    db = sqlite3.connect(out)
    (last,) = db.execute("SELECT MAX(tick) FROM frames").fetchone()
    (snapshot,) = db.execute("SELECT time FROM snapshots ORDER BY tick DESC LIMIT 1").fetchone()
    assert last >= 19
    assert f"town: saved {out}: ticks 0..{last}, last snapshot at {snapshot}" in stdout
    # a clean stop closes the file: its newest snapshot holds the last tick, so the runs page
    # says "stopped", not "open"; resume goes on from there (0.05 h = 180 s = 18 ticks of 10 s)
    (snap_tick,) = db.execute("SELECT MAX(tick) FROM snapshots").fetchone()
    meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('finished', 'closed')").fetchall())
    db.close()
    assert snap_tick == last and meta == {"finished": "false", "closed": "true"}
    app = create_app({"RUNS_DIR": str(tmp_path), "TESTING": True})
    try:
        row = app.test_client().get("/runs").get_data(as_text=True).split('data-run="live"')[1].split("</tr>")[0]
    finally:
        live(app).close()
    assert ">stopped</span>" in row and ">open</span>" not in row
    done = run_cli("resume", str(out), "--hours", "0.05", "--quiet")
    assert done.returncode == 0, done.stderr
    with RunReader(out) as reader:
        assert reader.last_tick == last + 18 and reader.meta["finished"] is True


def test_without_a_terminal_a_run_prints_plain_progress_lines(tmp_path):
    """Output to a pipe gets no bar to draw on: a line at every tenth of the run's ticks instead
    (36 ticks: every 3rd), each naming the game time, the tick and the share done."""
    done = run_cli("simulate", "--hours", "0.1", "--embedder", "hashing", "--out", str(tmp_path / "p.sqlite"))
    assert done.returncode == 0, done.stderr
    lines = re.findall(r"^town: Mon 13 Feb (07:\d\d), tick (\d+) of 36 \((\d+)%\), [\d.,]+ game min/min$", done.stderr, re.M)
    assert [int(tick) for _, tick, _ in lines] == list(range(3, 37, 3))
    assert [int(share) for _, _, share in lines] == [100 * t // 36 for t in range(3, 37, 3)]
    assert lines[-1][0] == "07:06"  # 36 ticks of 10 s from 07:00
