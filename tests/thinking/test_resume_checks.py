"""A failed resume or fork changes nothing: every check comes before the run is cut.

A run is killed with SIGKILL inside tick 100 (ticks 0..99 committed, last snapshot after tick
89, snapshots every 0.25 game hours = 90 ticks). Resuming it while the model server is down, a
persona file is missing or the town folder has moved exits 2 with one line, and the file still
holds ticks 90..99; a fork with another embedder leaves no file. Once the cause is gone, resume
cuts back to tick 89 and goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from cli_helpers import REPO
from fake_server import FakeOpenAIServer
from fault_checks import assert_sound, leftovers

from web.cli import main

COUNTS = {
    "frames": "SELECT COUNT(*), MAX(tick) FROM frames",
    "events": "SELECT COUNT(*), MAX(seq) FROM events",
    "memories": "SELECT COUNT(*), MAX(seq) FROM memories",
    "retrievals": "SELECT COUNT(*), MAX(seq) FROM retrievals",
    "snapshots": "SELECT COUNT(*), MAX(tick) FROM snapshots",
}


def counts(path) -> dict:
    """Row count and newest tick or seq of each content table (what a cut would change)."""
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(sql).fetchone() for table, sql in COUNTS.items()}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """(server, town folder, run file) of a run SIGKILLed inside tick 100 (openai backend)."""
    root = tmp_path_factory.mktemp("killed")
    town = root / "town"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    server = FakeOpenAIServer(lambda messages: "{}")  # every answer invalid: scripted fallbacks
    run = root / "run.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOWN_TEST_KEY": "test-key",
           "TOWN_TEST_KILL_AT_TICK": "100"}
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "fault_checks.py"), "simulate", "--town", str(town),
         "--hours", "1", "--out", str(run), "--quiet", "--embedder", "hashing", "--backend", "openai",
         "--base-url", server.base_url, "--model", server.model, "--api-key-env", "TOWN_TEST_KEY",
         "--no-cache", "--set", "backend.max_retries=0", "--set", "backend.max_consecutive_fallbacks=0",
         "--set", "recording.snapshot_every_hours=0.25"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == -9, done.stderr
    yield server, town, run
    server.close()


@pytest.fixture
def copy(killed, tmp_path, monkeypatch):
    """A fresh copy of the killed run (file + WAL) and of its town; the run points at the copy."""
    server, town, run = killed
    monkeypatch.setenv("TOWN_TEST_KEY", "test-key")
    for suffix in ("", "-wal"):
        shutil.copy(f"{run}{suffix}", tmp_path / f"run.sqlite{suffix}")
    return server, town, tmp_path / "run.sqlite"


def _named(server) -> list[str]:
    """The options naming the run's server and key variable (a run file's are never used)."""
    return ["--backend", "openai", "--base-url", server.base_url, "--api-key-env", "TOWN_TEST_KEY"]


def _resume(server, run) -> list[str]:
    """`resume RUN --hours 0.05` at the run's server, named on the command line."""
    return ["resume", str(run), "--hours", "0.05", "--quiet", *_named(server)]


def _refused(capsys, *words):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_the_killed_run_holds_ticks_after_its_last_snapshot(copy):
    """The premise: frames 0..99 and snapshots before any tick and after tick 89."""
    _, _, run = copy
    assert counts(run)["frames"] == (100, 99)
    assert counts(run)["snapshots"] == (2, 89)


def test_resume_with_the_model_server_down_cuts_nothing(copy, capsys):
    """The model server is down: exit 2, one line naming it, the run as it was."""
    server, _, run = copy
    before = counts(run)
    server.down()
    try:
        assert main(_resume(server, run)) == 2
    finally:
        server.up()
    _refused(capsys, "cannot reach")
    assert counts(run) == before
    assert assert_sound(run) == 99


def test_resume_with_a_persona_file_missing_cuts_nothing(copy, capsys):
    """A persona file of the run's town is gone: exit 2, one line, the run as it was."""
    server, town, run = copy
    before = counts(run)
    persona = town / "klaus_mueller.yaml"
    kept = persona.read_bytes()
    persona.unlink()
    try:
        assert main(_resume(server, run)) == 2
    finally:
        persona.write_bytes(kept)
    _refused(capsys)
    assert counts(run) == before
    assert assert_sound(run) == 99


def test_resume_with_a_persona_file_edited_cuts_nothing_and_names_the_fields(copy, capsys):
    """Klaus's age edited (20 -> 99), then his lifestyle rewritten too: each resume exits 2 with
    one line naming klaus_mueller.yaml and exactly the fields edited; the run as it was."""
    server, town, run = copy
    before = counts(run)
    persona = town / "klaus_mueller.yaml"
    kept = persona.read_text(encoding="utf-8")
    try:
        persona.write_text(kept.replace("\nage: 20\n", "\nage: 99\n"), encoding="utf-8")
        assert main(_resume(server, run)) == 2
        _refused(capsys, "klaus_mueller.yaml: age changed since the run started")
        persona.write_text(kept.replace("\nage: 20\n", "\nage: 99\n").replace(
            "likes a drink at the pub some evenings", "never goes out"), encoding="utf-8")
        assert main(_resume(server, run)) == 2
        _refused(capsys, "klaus_mueller.yaml: age, lifestyle changed since the run started")
    finally:
        persona.write_text(kept, encoding="utf-8")
    assert counts(run) == before
    assert assert_sound(run) == 99


def test_a_run_recorded_without_persona_fingerprints_resumes_with_a_note(copy, capsys):
    """An older run (no meta ``persona_files``) with an edited persona file: resume says in
    one line that persona files are not checked, goes on (18 ticks after tick 89), and records
    the files' fingerprints, so that the next resume checks them."""
    server, town, run = copy
    conn = sqlite3.connect(run)
    with conn:
        conn.execute("DELETE FROM meta WHERE key = 'persona_files'")
    conn.close()
    persona = town / "klaus_mueller.yaml"
    kept = persona.read_text(encoding="utf-8")
    try:
        persona.write_text(kept.replace("\nage: 20\n", "\nage: 99\n"), encoding="utf-8")
        assert main(_resume(server, run)) == 0
        err = capsys.readouterr().err
        assert [line for line in err.splitlines() if "note:" in line] == [
            f"town: note: {run} was recorded before runs kept their persona files' fingerprints; "
            "persona files are not checked against it this time"]
        assert counts(run)["frames"][0] == 90 + 18
        conn = sqlite3.connect(run)
        (recorded,) = conn.execute("SELECT value FROM meta WHERE key = 'persona_files'").fetchone()
        conn.close()
        # the age field's value 99 as sorted JSON, hashed by hand: the files as resumed
        assert json.loads(recorded)["klaus_mueller.yaml"]["age"] == hashlib.sha256(b"99").hexdigest()[:16]
    finally:
        persona.write_text(kept, encoding="utf-8")
    assert main(_resume(server, run)) == 2
    _refused(capsys, "klaus_mueller.yaml: age changed since the run started")


def test_resume_with_the_town_folder_moved_cuts_nothing(copy, capsys):
    """The run's town folder has moved: exit 2, one line naming it, the run as it was."""
    server, town, run = copy
    before = counts(run)
    moved = town.with_name("moved")
    town.rename(moved)
    try:
        assert main(_resume(server, run)) == 2
    finally:
        moved.rename(town)
    _refused(capsys, str(town))
    assert counts(run) == before
    assert assert_sound(run) == 99


def test_fork_with_another_embedder_leaves_no_file_and_the_parent_as_it_was(copy, capsys, tmp_path):
    """A fork asking for another embedder: exit 2, no fork file, the parent as it was."""
    server, _, run = copy
    before = counts(run)
    out = tmp_path / "fork.sqlite"
    assert main(["fork", str(run), "--at", "2023-02-13 07:16", "--out", str(out),
                 "--set", "embedder=minilm", "--quiet", *_named(server)]) == 2
    _refused(capsys, "embedder")
    assert leftovers(out) == []
    assert counts(run) == before
    assert assert_sound(run) == 99


def test_fork_after_the_run_ends_is_refused_and_at_its_end_is_not(copy, capsys, tmp_path):
    """Ticks 0..99 of 10 s from 07:00 end at 07:16:40: a fork at 08:00 exits 2 with one line
    naming that time and leaves no file; a fork at 07:16:40 goes on from the snapshot after
    tick 89 (3 ticks: 0.01 h = 36 s)."""
    server, _, run = copy
    before = counts(run)
    out = tmp_path / "late.sqlite"
    assert main(["fork", str(run), "--at", "2023-02-13 08:00", "--out", str(out), "--hours", "0.01", "--quiet"]) == 2
    _refused(capsys, f"--at: 2023-02-13 08:00 is after the end of {run}, whose last tick ends at 2023-02-13 07:16:40")
    assert leftovers(out) == []
    assert counts(run) == before
    assert main(["fork", str(run), "--at", "2023-02-13 07:16:40", "--out", str(out), "--hours", "0.01",
                 "--quiet", *_named(server)]) == 0
    assert counts(out)["frames"] == (90 + 3, 92)


def test_a_model_run_goes_on_only_with_the_model_the_command_names(copy, capsys, tmp_path):
    """Without --base-url, resume and fork of the model run exit 2 with one line showing the
    stored backend and naming the flags; the server hears nothing, the run is as it was and no
    fork file is left. `fork --backend scripted` goes on without the server (no request)."""
    server, _, run = copy
    before, heard = counts(run), sum(server.counts.values())
    shown = f"{run} was made with backend openai (model {server.model}) at {server.base_url}"
    assert main(["resume", str(run), "--hours", "0.05", "--quiet"]) == 2
    _refused(capsys, shown, "pass --backend openai --base-url URL [--api-key-env VAR]", "or --backend scripted")
    out = tmp_path / "fork.sqlite"
    assert main(["fork", str(run), "--at", "2023-02-13 07:16", "--out", str(out), "--quiet"]) == 2
    _refused(capsys, shown)
    assert main(["resume", str(run), "--hours", "0.05", "--quiet", "--backend", "openai"]) == 2
    _refused(capsys, "--base-url: --backend openai needs --base-url URL")
    assert leftovers(out) == [] and counts(run) == before
    assert main(["fork", str(run), "--at", "2023-02-13 07:16", "--out", str(out), "--hours", "0.01", "--quiet",
                 "--backend", "scripted"]) == 0
    assert sum(server.counts.values()) == heard
    conn = sqlite3.connect(out)
    (backend,) = conn.execute("SELECT value FROM meta WHERE key = 'backend'").fetchone()
    conn.close()
    assert json.loads(backend) == "scripted"


def test_resume_once_it_can_continue_cuts_back_to_the_snapshot_and_goes_on(copy, capsys):
    """With everything in place: ticks 90..99 are dropped, 18 new ticks follow tick 89."""
    server, _, run = copy
    assert main(_resume(server, run)) == 0
    assert counts(run)["frames"][0] == 90 + 18
    assert assert_sound(run) == 89 + 18
