"""A damaged page, read-only storage and a full disk: one true line from every command.

A damaged page: every leaf page of one table of a 1-hour the_ville run has its cell pointers
overwritten (32 bytes of 0xff after the page header), found through SQLite's ``dbstat`` table.
Every command that opens a run file then exits 0 (it never read that table) or 2 with one line
naming the file; ``resume`` and ``fork`` read every table, so they exit 2 whatever the table.
Before, a damaged ``snapshot_parts`` page gave ``resume`` and ``fork`` a ``sqlite3.DatabaseError``
traceback.

Read-only storage and a full disk are real: a tmpfs remounted ``ro``, or filled to its last
block (``tests/mounts.py``; root only, as in CI). Before, ``fork`` of a run on read-only storage
said the run "is not a town run file", and ``resume`` on a full disk left a 0-byte ``.lock``
and said only "[Errno 28] No space left on device".
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import run_cli
from fault_checks import assert_sound, integrity, leftovers
from mounts import fill, remount_read_only

from town.recording.database import open_run
from web.cli import main

#: a fork from the run's last snapshot (tick 359, 07:59:50)
FORK_AT = "2023-02-13T08:00"
TABLES = ("snapshot_parts", "snapshots", "frames", "events", "memories", "retrievals", "vectors", "meta")
COMMANDS = {
    "resume": ["resume", "{bad}", "--hours", "0.05"],
    "fork": ["fork", "{bad}", "--at", FORK_AT, "--out", "{out}.sqlite", "--hours", "0.05"],
    "stats": ["stats", "{bad}"],
    "inspect": ["inspect", "{bad}", "--persona", "klaus_mueller"],
    "interview": ["interview", "{bad}", "--persona", "klaus_mueller", "--at", "2023-02-13T07:30", "what are you doing?"],
    "evaluate": ["evaluate", "{bad}", "--out", "{out}"],
    "compare": ["compare", "{good}", "{bad}"],
}


def damage(path: Path, table: str) -> list[int]:
    """Overwrite the cell pointers of every leaf page of ``table`` (the pages ``dbstat`` names)."""
    conn = sqlite3.connect(path)
    try:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [n for (n,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", (table,))]
    finally:
        conn.close()
    data = bytearray(path.read_bytes())
    for n in pages:
        start = (n - 1) * page + (100 if n == 1 else 0)  # page 1 starts with the file header
        data[start + 8:start + 40] = b"\xff" * 32
    path.write_bytes(bytes(data))
    return pages


def digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A 1-hour the_ville run (hashing embedder), snapshots at ticks -1 and 359."""
    path = tmp_path_factory.mktemp("good") / "good.sqlite"
    assert main(["simulate", "--hours", "1", "--out", str(path), "--quiet", "--embedder", "hashing"]) == 0
    return path


@pytest.fixture(scope="module")
def damaged(good, tmp_path_factory) -> dict[str, Path]:
    """Table -> a copy of the run with that table's pages damaged."""
    folder = tmp_path_factory.mktemp("damaged")
    copies = {}
    for table in TABLES:
        copies[table] = folder / f"{table}.sqlite"
        shutil.copy(good, copies[table])
        assert damage(copies[table], table)
    return copies


@pytest.mark.parametrize("table", TABLES)
def test_the_damage_hits_the_table(damaged, table):
    """Each copy fails SQLite's own check (or the check cannot run), and reading its table raises."""
    try:
        verdict = integrity(damaged[table])
    except sqlite3.DatabaseError as exc:
        verdict = str(exc)
    assert verdict != "ok"
    conn = sqlite3.connect(damaged[table])
    conn.execute("PRAGMA cell_size_check=ON")  # as the run file's own connections (else SQLite may read past the page)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            conn.execute(f"SELECT * FROM {table}").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("table", TABLES)
def test_a_damaged_page_is_one_line_from_every_command(good, damaged, table, command, tmp_path, capsys):
    """Exit 2 with one line naming the damaged file (resume and fork always), or exit 0 having
    read nothing of that table; never a traceback. A failed resume leaves the file's bytes as
    they were. (SQLite reads past some damaged leaves without an error, so a line may tell what
    it then found, e.g. an earlier last tick, rather than the damage.)"""
    bad = tmp_path / "bad.sqlite"
    shutil.copy(damaged[table], bad)
    before = digest(bad)
    code = main([a.format(bad=bad, good=good, out=tmp_path / "out") for a in COMMANDS[command]])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if command in ("resume", "fork") or code != 0:
        assert code == 2, err
        assert re.fullmatch(rf"town: error: [^\n]*{re.escape(str(bad))}[^\n]*\n", err), err
    assert digest(bad) == before
    assert not (tmp_path / "out.sqlite").exists()  # a failed fork leaves no file


@pytest.mark.parametrize("attempt", range(5))
def test_a_damaged_page_is_never_read_past(damaged, attempt):
    """As found in CI: SQLite read the damaged ``snapshots`` page's cells from past the page's end
    and returned rows (the read "did not raise"), so what a command read depended on memory
    beyond the page. The run file's own connections check cell pointers: reading that table
    through them always fails, every time."""
    conn = open_run(damaged["snapshots"], read_only=True)
    try:
        with pytest.raises(sqlite3.DatabaseError):
            conn.execute("SELECT * FROM snapshots").fetchall()
    finally:
        conn.close()


def test_a_damaged_snapshot_part_names_what_sqlite_found(damaged, tmp_path):
    """The case as found, from a real process: ``resume`` and ``fork`` of a run whose
    ``snapshot_parts`` pages are damaged say SQLite's reason in one line."""
    bad = tmp_path / "bad.sqlite"
    shutil.copy(damaged["snapshot_parts"], bad)
    for args in (["resume", str(bad), "--hours", "0.05"],
                 ["fork", str(bad), "--at", FORK_AT, "--out", str(tmp_path / "f.sqlite"), "--hours", "0.05"]):
        done = run_cli(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr == (f"town: error: {bad} is not a town run file (or is damaged): "
                               "database disk image is malformed\n")


@pytest.fixture
def read_only_run(good, tmpfs) -> Path:
    """The run on a tmpfs remounted read-only."""
    folder = tmpfs()
    shutil.copy(good, folder / "run.sqlite")
    remount_read_only(folder)
    return folder / "run.sqlite"


def test_a_run_on_read_only_storage_forks(read_only_run, tmp_path):
    """Fork only reads its parent: it forks, the fork replays, nothing is written beside the parent."""
    fork = tmp_path / "fork.sqlite"
    done = run_cli("fork", str(read_only_run), "--at", FORK_AT, "--out", str(fork), "--hours", "0.05", "--quiet")
    assert done.returncode == 0, done.stderr
    assert assert_sound(fork) == 359 + 18
    assert sorted(p.name for p in read_only_run.parent.iterdir()) == ["run.sqlite"]


@pytest.mark.parametrize("into", ["resume", "fork into"])
def test_writing_to_read_only_storage_says_so(read_only_run, into):
    """``resume`` of a run there, or a fork into it: one line naming the file and the read-only
    storage, never "is not a town run file"."""
    args = (["resume", str(read_only_run), "--hours", "0.05"] if into == "resume" else
            ["fork", str(read_only_run), "--at", FORK_AT, "--out", str(read_only_run.parent / "f.sqlite"), "--hours", "0.05"])
    done = run_cli(*args)
    assert done.returncode == 2, done.stderr
    target = read_only_run if into == "resume" else read_only_run.parent / "f.sqlite"
    assert done.stderr == (f"town: error: cannot lock run file {target}: Read-only file system "
                           f"({read_only_run.parent} is on read-only storage)\n")


def test_resume_on_a_full_disk_leaves_no_lock_and_the_run_as_it_was(good, tmpfs):
    """The run open in another connection (a viewer), its disk full: resume says the disk is
    full in one line, leaves no ``.lock`` (before: a 0-byte one), and the run's bytes are the
    same; with room again it passes ``integrity_check``."""
    folder = tmpfs("1m")
    run = folder / "run.sqlite"
    shutil.copy(good, run)
    before = digest(good)  # never read the run's own bytes here while the viewer holds it: closing
    # any descriptor of the file drops this process's SQLite locks on it
    viewer = sqlite3.connect(run)  # keeps -wal and -shm beside the run, as a viewer would
    try:
        viewer.execute("PRAGMA journal_mode=WAL")
        viewer.execute("SELECT COUNT(*) FROM frames").fetchone()
        filler = fill(folder)
        done = run_cli("resume", str(run), "--hours", "0.05")
        assert done.returncode == 2, done.stderr
        assert done.stderr == (f"town: error: cannot lock run file {run}: No space left on device "
                               "(the disk holding it is full: 0 bytes free)\n")
        assert leftovers(run) == ["", "-wal", "-shm"]
    finally:
        viewer.close()
    assert digest(run) == before
    filler.unlink()
    assert integrity(run) == "ok"


def test_opening_a_run_on_a_full_disk_says_the_disk_is_full(good, tmpfs):
    """With no ``-shm`` beside it, SQLite cannot even open the run: the line says the disk is
    full, not that the file is no run."""
    folder = tmpfs("1m")
    run = folder / "run.sqlite"
    shutil.copy(good, run)
    before = digest(good)
    filler = fill(folder)
    done = run_cli("resume", str(run), "--hours", "0.05")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"town: error: cannot read run file {run}: disk I/O error "
                           "(the disk holding it is full: 0 bytes free)\n")
    assert ".lock" not in leftovers(run) and digest(run) == before
    filler.unlink()
    assert integrity(run) == "ok"


def test_a_run_file_under_proc_is_not_said_to_be_on_a_full_disk(tmp_path, monkeypatch, capsys):
    """As found: ``simulate --out /proc/x.sqlite`` said "cannot lock run file /proc/x.sqlite: No
    such file or directory (the disk holding it is full: 0 bytes free)": /proc has no blocks, so
    0 of them are free. A folder on a filesystem of no blocks is not full; one of 1,000 blocks of
    4,096 bytes with 255 free (1,044,480 bytes, under 1 MiB) is."""
    import os

    from town.recording.database import storage_note

    def fake(blocks: int, free: int):
        return lambda _folder: os.statvfs_result((4096, 4096, blocks, free, free, 0, 0, 0, 0, 255))

    monkeypatch.setattr(os, "statvfs", fake(0, 0))
    assert storage_note(tmp_path / "run.sqlite") == ""
    monkeypatch.setattr(os, "statvfs", fake(1000, 255))
    assert storage_note(tmp_path / "run.sqlite") == " (the disk holding it is full: 1,044,480 bytes free)"
    monkeypatch.undo()
    if os.statvfs("/proc").f_blocks == 0:
        out = Path("/proc/x.sqlite")
        assert main(["simulate", "--town", "the_ville", "--hours", "0.1", "--out", str(out), "--embedder",
                     "hashing"]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith(f"town: error: cannot lock run file {out}: ") and "full" not in err[0], err
