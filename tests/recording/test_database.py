"""Opening run files: missing, foreign, truncated, table-less and newer files get clear errors."""

from __future__ import annotations

import json
import shutil
import sqlite3

import numpy as np
import pytest

from mounts import remount_read_only

from town.errors import RecordingError
from town.recording.reader import RunReader


def test_missing_file(tmp_path):
    """A missing path names the file."""
    path = tmp_path / "nope.sqlite"
    with pytest.raises(RecordingError, match=f"run file not found: {path}"):
        RunReader(path)


@pytest.mark.parametrize("content", [b"", b"hello", np.random.default_rng(1).bytes(8192)])
def test_random_bytes_are_not_a_run(tmp_path, content):
    """Empty, short and random files are refused, naming the file."""
    path = tmp_path / "junk.sqlite"
    path.write_bytes(content)
    message = r"junk\.sqlite is not a town run file \(or is damaged\)"
    with pytest.raises(RecordingError, match=message):
        RunReader(path)


def test_truncated_run_is_refused(synthetic):
    """A run cut to half its bytes is refused (before any read can return wrong data)."""
    run = synthetic()
    for i in range(300):
        run.memory("ana", f"memory {i}", 3)
        run.end_tick()
    run.writer.close()
    path = run.writer.path
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    message = r"is not a town run file \(or is damaged\): (truncated|database disk image is malformed)"
    with pytest.raises(RecordingError, match=message):
        RunReader(path)


def test_sqlite_file_without_run_tables(tmp_path):
    """Another program's SQLite database is refused, naming the missing tables."""
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(RecordingError, match="is not a town run file.*missing tables frames"):
        RunReader(path)


def test_unknown_schema_version_names_both_versions(synthetic):
    """A file of schema_version 99 names 99 and the version this code reads (4)."""
    run = synthetic()
    run.end_tick()
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (json.dumps(99),))
    conn.commit()
    conn.close()
    with pytest.raises(RecordingError, match="schema_version 99, this town reads schema_version 4; open it with"):
        RunReader(run.writer.path)


def test_an_older_run_file_is_refused_with_the_command_that_makes_it_again(synthetic):
    """A schema_version 3 file (memories without their typed fields) is refused in one line with the simulate command of its own town, game hours and seed: 360
    ticks of 10 s are 1 game hour."""
    run = synthetic(meta={"scenario": "personas/smallville", "seed": 7, "seconds_per_tick": 10})
    for _ in range(360):
        run.end_tick()
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(RecordingError) as err:
        RunReader(run.writer.path)
    path = run.writer.path
    assert str(err.value) == (
        f"{path}: run file has schema_version 3, this town reads schema_version 4 (written by an older town); "
        f"make the run again, after moving this file away: python run.py simulate --town personas/smallville "
        f"--hours 1 --seed 7 --out {path}")


def test_run_on_read_only_storage_is_read_not_called_damaged(synthetic, tmpfs):
    """A closed run copied to read-only storage (no -wal/-shm) reads like the original."""
    run = synthetic()
    run.memory("ana", "ana sees a kettle", 4)
    for _ in range(3):
        run.end_tick()
    run.writer.close()
    mount = tmpfs()
    shutil.copy(run.writer.path, mount / "run.sqlite")
    remount_read_only(mount)
    probe = sqlite3.connect(mount / "run.sqlite")
    with pytest.raises(sqlite3.OperationalError):  # the failure the reader has to get round
        probe.execute("PRAGMA journal_mode=WAL")
    probe.close()
    with RunReader(run.writer.path) as original, RunReader(mount / "run.sqlite") as reader:
        assert (reader.first_tick, reader.last_tick) == (0, 2)
        assert reader.frame(2) == original.frame(2)
        assert [m["content"] for m in reader.memories("ana")] == ["ana sees a kettle"]
    assert sorted(p.name for p in mount.iterdir()) == ["run.sqlite"]  # nothing written beside it
