"""scripts/same_run.py, run as a user runs it, on two copies of the hand-built run (tests/handbuilt_run.py).

Each test changes one cell of the second copy with plain SQL and checks the line the script prints
for it, written out here from the hand-built run's own description.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import zlib

import pytest
from cli_helpers import REPO
from handbuilt_run import build_run


def same_run(a, b) -> subprocess.CompletedProcess:
    """``python scripts/same_run.py A B`` from the repository root."""
    return subprocess.run([sys.executable, str(REPO / "scripts" / "same_run.py"), str(a), str(b)],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def runs(tmp_path):
    """Two files of the same hand-built run, made one after the other."""
    return build_run(tmp_path / "a.sqlite"), build_run(tmp_path / "b.sqlite")


def _edit(path, sql: str, *params) -> None:
    with sqlite3.connect(path) as db:
        assert db.execute(sql, params).rowcount == 1


def test_the_same_run_twice_is_the_same_run(runs):
    """Made twice, the run differs only in when and where it was made, which is set aside."""
    a, b = runs
    _edit(b, "UPDATE meta SET value = ? WHERE key = 'created'", json.dumps("1999-01-01T00:00:00"))
    done = same_run(a, b)
    assert (done.returncode, done.stdout) == (0, "same run\n")


def test_a_changed_memory_is_named_by_persona_id_and_column(runs):
    """c#3 is 'Ann Able told me: "Bring a friend on Tuesday evening."' (tests/handbuilt_run.py)."""
    a, b = runs
    _edit(b, "UPDATE memories SET content = 'Ann Able told me: \"Bring a friend.\"' WHERE persona = 'c' AND id = 3")
    done = same_run(a, b)
    assert done.returncode == 1
    assert done.stdout == ("memories {'persona': 'c', 'id': 3} column content: value: "
                           "A 'Ann Able told me: \"Bring a friend on Tuesday evening.\"', "
                           "B 'Ann Able told me: \"Bring a friend.\"'\n")


def test_a_changed_frame_is_named_down_to_the_field(runs):
    """A frame is zlib-compressed JSON (tick 0 a keyframe, the whole frame): the line names the
    path inside it, with both values."""
    a, b = runs
    with sqlite3.connect(b) as db:
        data = json.loads(zlib.decompress(db.execute("SELECT data FROM frames WHERE tick = 0").fetchone()[0]))
        was = data["personas"]["d"]["x"]
        data["personas"]["d"]["x"] = was + 1
        db.execute("UPDATE frames SET data = ? WHERE tick = 0", (zlib.compress(json.dumps(data).encode()),))
    done = same_run(a, b)
    assert (done.returncode, done.stdout) == (1, f"frames {{'tick': 0}} column data: .personas.d.x: "
                                                 f"A '{was}', B '{was + 1}'\n")


def test_a_missing_event_and_a_changed_seed_are_both_reported(runs):
    """One line per table that differs, in the schema's table order (meta before events)."""
    a, b = runs
    with sqlite3.connect(a) as db:
        last, n = db.execute("SELECT max(seq), count(*) FROM events").fetchone()
    _edit(a, "DELETE FROM events WHERE seq = ?", last)
    with sqlite3.connect(b) as db:
        db.execute("INSERT INTO meta (key, value) VALUES ('seed', '7')")
    done = same_run(a, b)
    assert (done.returncode, done.stdout) == (1, f"meta: row ('start',) in A where B has ('seed',)\n"
                                                 f"events: {n - 1} rows in A, {n} in B\n")
