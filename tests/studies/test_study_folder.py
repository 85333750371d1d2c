"""A study owns its folder, and bad folders, reports and sweeps end in one line.

- A file in ``--out`` named like a run that the study did not record, or like a report when no
  study wrote the folder's ``study-timing.json``, is refused, naming it, and left byte for byte
  as it was.
- The second of two concurrent studies into one folder refuses (naming the first's pid); the
  first's run equals the run of an uninterrupted study (scripts/same_run.py).
- ``sweep --vary 'seed=[1,2]'`` is refused: the seeds are what ``--seed``/``--seeds`` give.
- A study whose every run fails prints each run's error (no plot, no traceback).
- A ``result.json`` holding ``[]``, an ``--out`` symlink loop, a ``study.json`` without a summary
  given to ``compare``: one line each.
- A full disk while writing a report names the file, and leaves no empty or partial file.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import REPO, same_run

from town.cli.main import main

STUDY = ("study", "--town", "the_ville", "--conditions", "full", "--embedder", "hashing", "--quiet")


def _study(out: Path, hours: str = "0.1", *more: str) -> int:
    return main([*STUDY, "--hours", hours, "--out", str(out), *more])


def _one_line(err: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err


def test_a_foreign_file_named_like_a_run_is_refused_and_left_as_it_is(tmp_path, capsys):
    out = tmp_path / "study"
    out.mkdir()
    foreign = out / "full-s0.sqlite"
    foreign.write_bytes(b"my thesis, chapter 3\n")
    assert _study(out) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(foreign) in err and "not a run this study recorded" in err
    assert foreign.read_bytes() == b"my thesis, chapter 3\n"
    assert not (out / "study.json").exists()


def test_a_foreign_side_file_of_a_run_is_refused_and_left_as_it_is(tmp_path, capsys):
    """A `-wal` (which SQLite would replay into a new file of that name) or a `.lock` of someone
    else's run being made: refused in one line naming it, its bytes unchanged."""
    out = tmp_path / "study"
    out.mkdir()
    for suffix in ("-wal", ".lock"):
        side = out / f"full-s0.sqlite{suffix}"
        side.write_bytes(b"12345\n")
        assert _study(out) == 2
        err = capsys.readouterr().err
        _one_line(err)
        assert str(side) in err and side.read_bytes() == b"12345\n"
        side.unlink()


def test_a_foreign_file_in_a_runs_evaluation_folder_is_refused_and_left_as_it_is(tmp_path, capsys):
    """A user's ``full-s0.evaluation/report.json`` (no run file, no record of the study's) was
    replaced by the study's report with exit 0."""
    out = tmp_path / "study"
    (out / "full-s0.evaluation").mkdir(parents=True)
    foreign = out / "full-s0.evaluation" / "report.json"
    foreign.write_bytes(b"mine\n")
    assert _study(out) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(foreign) in err and "not a file this study recorded" in err
    assert foreign.read_bytes() == b"mine\n"
    assert not (out / "full-s0.sqlite").exists()


def test_a_dead_writers_part_file_is_cleared_and_a_live_ones_refused(tmp_path, capsys):
    """Ctrl-C reached a study worker writing ``run.json``; the pool's SIGTERM ended it before it
    removed ``.run.json.<pid>.part``, and the same command then refused the folder (found by CI).
    A part file of a process that is gone is no one's record: it is removed and the study runs;
    one of a live process (this test's own pid) is refused as before, its bytes unchanged."""
    out = tmp_path / "study"
    (out / "full-s0.evaluation").mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = out / "full-s0.evaluation" / f".run.json.{int(dead.stdout)}.part"
    stale.write_bytes(b'{"half": ')
    live = out / "full-s1.evaluation" / f".run.json.{os.getpid()}.part"
    live.parent.mkdir()
    live.write_bytes(b'{"half": ')
    assert _study(out, "0.1", "--seeds", "2") == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(live) in err and live.read_bytes() == b'{"half": ' and not stale.exists()
    live.unlink()
    assert _study(out, "0.1", "--seeds", "2") == 0
    assert (out / "full-s0.evaluation" / "result.json").exists()


@pytest.mark.parametrize("name", ["study.md", "study.json", "study-timing.json", "study.png"])
def test_a_foreign_file_named_like_a_report_is_refused_and_left_as_it_is(tmp_path, capsys, name):
    """A user's ``study.md`` (or any report name) in ``--out`` was overwritten with exit 0."""
    out = tmp_path / "study"
    out.mkdir()
    foreign = out / name
    foreign.write_bytes(b'{"runs": [], "my": "notes"}\n')
    assert _study(out) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(foreign) in err and "not a report a study wrote" in err
    assert foreign.read_bytes() == b'{"runs": [], "my": "notes"}\n'
    assert sorted(p.name for p in out.iterdir()) == [name]  # no run either


def test_a_study_writes_over_its_own_reports(tmp_path, monkeypatch, capsys):
    """A study cut by a full disk while writing its reports, then the same study again and again
    (once with its ``study.json`` gone and an older ``study.md``): each goes on over its own."""
    out = tmp_path / "study"
    real = io.open

    def opening(file, mode="r", *args, **kwargs):
        f = real(file, mode, *args, **kwargs)
        return _FullDisk(f) if "w" in mode and "study-timing.json" in os.fspath(file) else f

    with monkeypatch.context() as patched:
        patched.setattr(io, "open", opening)
        patched.setattr(builtins, "open", opening)
        assert _study(out) == 2
    assert _study(out) == 0, capsys.readouterr().err
    first = (out / "study.json").read_bytes()
    assert _study(out) == 0
    (out / "study.json").unlink()
    (out / "study.md").write_text("an older table\n")
    assert _study(out) == 0
    assert (out / "study.json").read_bytes() == first and "an older table" not in (out / "study.md").read_text()


def test_a_study_goes_on_from_its_own_unfinished_run(tmp_path, capsys):
    """The study's own run file, left unfinished (a killed worker), is removed and simulated again."""
    out = tmp_path / "study"
    assert _study(out) == 0
    done = json.loads((out / "study.json").read_text())
    (out / "full-s0.evaluation" / "result.json").unlink()
    (out / "study.json").unlink()
    import sqlite3

    with sqlite3.connect(out / "full-s0.sqlite") as db:  # as if the worker died mid-run
        db.execute("UPDATE meta SET value = 'false' WHERE key = 'finished'")
    assert _study(out) == 0
    assert json.loads((out / "study.json").read_text()) == done
    timing = json.loads((out / "study-timing.json").read_text())
    assert timing["runs"]["full-s0"]["restarted"] is True


def test_the_second_of_two_concurrent_studies_refuses_and_the_first_is_whole(tmp_path, capsys):
    """The second study is started in this process the moment the first is writing its run: a
    second process took seconds to start, and a first study of one game hour had sometimes
    finished by then (the second then found a finished study and reported it)."""
    out, alone = tmp_path / "shared", tmp_path / "alone"
    args = [sys.executable, str(REPO / "run.py"), *STUDY, "--hours", "1"]
    first = subprocess.Popen([*args, "--out", str(out)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 120
        while not (out / "full-s0.sqlite.lock").exists():  # the first is writing its run
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.01)
        code = main([*STUDY, "--hours", "1", "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2, err
        _one_line(err)
        assert f"in use by another study (pid {first.pid})" in err
        stdout, stderr = first.communicate(timeout=600)
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate()  # its pipes closed here, not left to warn in the next test
    assert first.returncode == 0, stderr
    assert subprocess.run([*args, "--out", str(alone)], cwd=REPO, capture_output=True, timeout=600).returncode == 0
    compared = same_run(out / "full-s0.sqlite", alone / "full-s0.sqlite")
    assert compared.returncode == 0, compared.stdout + compared.stderr
    assert (out / "study.json").read_bytes() == (alone / "study.json").read_bytes()


def test_a_sweep_over_seed_is_refused(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", "--town", "the_ville", "--hours", "0.1", "--vary", "seed=[1,2]", "--seeds", "1",
                 "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert "--vary" in err and "--seeds" in err
    assert not list(out.glob("*.sqlite"))


def test_a_study_whose_every_run_fails_prints_their_errors(tmp_path, capsys):
    out = tmp_path / "failing"
    assert main(["study", "--town", str(tmp_path / "nonexistent"), "--hours", "0.1", "--conditions",
                 "full,no-reflection", "--out", str(out), "--quiet"]) == 1
    printed = capsys.readouterr()
    assert "Traceback" not in printed.out + printed.err
    for name in ("full-s0", "no-reflection-s0"):
        line = next(x for x in printed.out.splitlines() if x.startswith(f"failed: {name}: "))
        assert "nonexistent" in line
    assert "no run finished" in printed.out
    timing = json.loads((out / "study-timing.json").read_text())
    assert all("nonexistent" in r["error"] for r in timing["runs"].values())
    assert not (out / "study.json").exists() and not (out / "study.png").exists()


def test_a_result_file_holding_a_list_is_one_line(tmp_path, capsys):
    out = tmp_path / "study"
    (out / "full-s0.evaluation").mkdir(parents=True)
    result = out / "full-s0.evaluation" / "result.json"
    result.write_text("[]")
    assert _study(out) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(result) in err and "not a result file" in err


def test_an_out_symlink_loop_is_one_line(tmp_path, capsys):
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    assert _study(loop) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert "--out" in err and "symlink loop" in err


def test_compare_of_a_study_without_a_summary_is_one_line(tmp_path, capsys):
    out = tmp_path / "study"
    assert _study(out) == 0
    broken = tmp_path / "broken"
    broken.mkdir()
    report = json.loads((out / "study.json").read_text())
    del report["conditions"]["full"]["summary"]
    (broken / "study.json").write_text(json.dumps(report))
    capsys.readouterr()
    assert main(["compare", str(out), str(broken)]) == 2
    err = capsys.readouterr().err
    _one_line(err)
    assert str(broken / "study.json") in err and "summary" in err


class _FullDisk:
    """A file whose writes fail as on a full disk (what was opened stays, empty)."""

    def __init__(self, f):
        self._f = f

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


@pytest.mark.parametrize(("name", "code", "says"), [
    ("study-timing.json", 2, "town: error: cannot write {out}/study-timing.json: No space left on device"),
    ("report.json", 1, "failed: full-s0: cannot write {out}/full-s0.evaluation/report.json: No space left on device"),
])
def test_a_full_disk_names_the_file_and_leaves_no_empty_one(tmp_path, monkeypatch, capsys, name, code, says):
    out = tmp_path / "study"
    real = io.open

    def opening(file, mode="r", *args, **kwargs):
        f = real(file, mode, *args, **kwargs)
        return _FullDisk(f) if "w" in mode and name in os.fspath(file) else f

    monkeypatch.setattr(io, "open", opening)
    monkeypatch.setattr(builtins, "open", opening)
    assert _study(out) == code
    printed = capsys.readouterr()
    assert "Traceback" not in printed.out + printed.err
    assert says.format(out=out) in " ".join((printed.out + printed.err).split())
    written = [p for p in out.rglob("*") if name in p.name]
    assert written == [], written  # neither an empty file nor a partial one
