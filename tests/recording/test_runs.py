"""The runs folder gate: resolve_run refuses traversal; list_runs survives damaged files."""

from __future__ import annotations

import os

import pytest

from town.errors import RecordingError
from town.recording.runs import list_runs, resolve_run


@pytest.fixture
def runs_dir(tmp_path, synthetic):
    """tmp_path/runs with one good run 'morning', one damaged 'broken', and a file outside."""
    runs = tmp_path / "runs"
    runs.mkdir()
    run = synthetic(name="runs/morning")
    run.end_tick()
    run.writer.close()
    (runs / "broken.sqlite").write_bytes(b"not sqlite at all")
    (tmp_path / "secret.sqlite").write_bytes(b"outside")
    return runs


@pytest.mark.parametrize("name", [
    "../../etc/passwd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "%252e%252e%252fsecret", "/etc/passwd",
    "a/b", "a\\b", "..", "../secret", "%2e%2e", "morning\x00", "%00", "", ".hidden", "C:secret",
])
def test_resolve_run_refuses_traversal(runs_dir, name):
    """Names that are not bare run names are refused."""
    with pytest.raises(RecordingError, match="not allowed"):
        resolve_run(runs_dir, name)


def test_resolve_run_refuses_a_symlink_out_of_the_folder(runs_dir):
    """A link inside runs/ pointing outside is refused."""
    os.symlink(runs_dir.parent / "secret.sqlite", runs_dir / "sneaky.sqlite")
    with pytest.raises(RecordingError, match="leads outside"):
        resolve_run(runs_dir, "sneaky")


def test_resolve_run_accepts_name_with_or_without_suffix(runs_dir):
    """'morning' and 'morning.sqlite' name the same file; an unknown name is not found."""
    expected = (runs_dir / "morning.sqlite").resolve()
    assert resolve_run(runs_dir, "morning") == expected
    assert resolve_run(runs_dir, "morning.sqlite") == expected
    with pytest.raises(RecordingError, match="run not found: evening"):
        resolve_run(runs_dir, "evening")


def test_list_runs_notes_damaged_files(runs_dir):
    """The good run is summarised; the damaged one carries an error instead of failing."""
    runs = {r["name"]: r for r in list_runs(runs_dir)}
    assert set(runs) == {"morning", "broken"}
    assert runs["morning"]["ticks"] == 1 and runs["morning"]["finished"] is True
    assert "is not a town run file" in runs["broken"]["error"]
    assert list_runs(runs_dir / "missing") == []


def test_list_runs_lists_a_run_with_damaged_meta_as_an_error_row(runs_dir, synthetic):
    """A run whose meta JSON is damaged is one error row; the good run is still listed."""
    import sqlite3

    run = synthetic(name="runs/bad_meta")
    run.end_tick()
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    with conn:
        conn.execute("UPDATE meta SET value = '{{' WHERE key = 'personas'")
    conn.close()
    rows = {r["name"]: r for r in list_runs(runs_dir)}
    assert "error" not in rows["morning"] and rows["morning"]["ticks"] == 1
    assert "meta 'personas'" in rows["bad_meta"]["error"]
    assert rows["bad_meta"]["size_bytes"] == run.writer.path.stat().st_size
