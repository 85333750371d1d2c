"""Opening run files: missing, foreign, truncated, table-less and newer files get clear errors."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

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
    """A file of schema_version 99 names 99 and the version this code reads (1)."""
    run = synthetic()
    run.end_tick()
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (json.dumps(99),))
    conn.commit()
    conn.close()
    with pytest.raises(RecordingError, match="schema_version 99, this town reads schema_version 1"):
        RunReader(run.writer.path)
