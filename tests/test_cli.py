"""The command line as a user runs it: bad input exits 2 with one clear line and no output file."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing

import pytest
import yaml
from cli_helpers import REPO, run_cli


@pytest.fixture
def town_copy(tmp_path):
    """A writable copy of the_ville to break."""
    folder = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", folder)
    return folder


def _edit(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True))


def _fails_cleanly(done, *needles):
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def _simulate(folder, out):
    return run_cli("simulate", "--town", str(folder), "--hours", "1", "--out", str(out), "--quiet",
                   "--embedder", "hashing")


def test_persona_missing_field(town_copy, tmp_path):
    """A persona file without `age` names the file and the field."""
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d.pop("age"))
    out = tmp_path / "x.sqlite"
    _fails_cleanly(_simulate(town_copy, out), "klaus_mueller.yaml", "age", "missing")
    assert not out.exists()


def test_routine_naming_unknown_place(town_copy, tmp_path):
    """A routine place that is not on the map is named with its field."""
    _edit(town_copy / "maria_lopez.yaml", lambda d: d["routine"][2].__setitem__("place", "the_ville:Nowhere"))
    out = tmp_path / "x.sqlite"
    _fails_cleanly(_simulate(town_copy, out), "maria_lopez.yaml", "routine[2].place", "the_ville:Nowhere")
    assert not out.exists()


def test_address_no_path_reaches(town_copy, tmp_path):
    """A walled room without doors that a routine uses: 'no path reaches'."""
    def wall_off(d):
        d["sectors"].append({"name": "Vault", "rect": [56, 38, 4, 4], "color": "#888888",
                             "arenas": [{"name": "cell", "rect": [57, 39, 2, 2]}]})
    _edit(town_copy / "map.yaml", wall_off)
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d["routine"][-1].__setitem__("place", "the_ville:Vault:cell"))
    out = tmp_path / "x.sqlite"
    done = _simulate(town_copy, out)
    _fails_cleanly(done, "klaus_mueller.yaml", "place", "no path reaches")
    assert not out.exists()


def test_events_file_unknown_type(town_copy, tmp_path):
    """An unknown event type names events[i].type and the allowed types."""
    _edit(town_copy / "events.yaml", lambda d: d["events"][0].__setitem__("type", "earthquake"))
    out = tmp_path / "x.sqlite"
    _fails_cleanly(_simulate(town_copy, out), "events.yaml", "events[0].type", "earthquake")
    assert not out.exists()


def test_inspect_unknown_persona(party_run):
    """inspect with a persona not in the run lists the ones it has."""
    _fails_cleanly(run_cli("inspect", str(party_run), "--persona", "bob"), "--persona", "bob", "klaus_mueller")


@pytest.mark.parametrize("last", ["0", "-5"])
def test_inspect_last_below_one_is_refused(party_run, last):
    """--last 0 printed 'no retrievals match' and --last -5 every retrieval of the run."""
    _fails_cleanly(run_cli("inspect", str(party_run), "--persona", "klaus_mueller", "--last", last),
                   "--last", f"must be at least 1, got {last}")


def test_missing_run_file(tmp_path):
    """A run file that does not exist is named."""
    missing = tmp_path / "nope.sqlite"
    _fails_cleanly(run_cli("inspect", str(missing), "--persona", "klaus_mueller"), str(missing), "not found")
    assert not missing.exists()


def test_corrupt_run_file(tmp_path):
    """A file that is not a run is refused with its name."""
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    _fails_cleanly(run_cli("inspect", str(bad), "--persona", "klaus_mueller"), str(bad))


def test_inspect_prints_traces_of_the_real_run(party_run):
    """inspect prints trace tables with the candidates' parts for the party run."""
    done = run_cli("inspect", str(party_run), "--persona", "Klaus Mueller", "--last", "2")
    assert done.returncode == 0, done.stderr
    # the name as people read it: case, accents and punctuation aside (it was compared in lower case only)
    again = run_cli("inspect", str(party_run), "--persona", "KLÁUS  mueller.", "--last", "2")
    assert again.returncode == 0 and again.stdout == done.stdout, again.stderr
    for column in ("rank", "recency", "importance", "relevance", "total", "query"):
        assert column in done.stdout
    done = run_cli("inspect", str(party_run), "--persona", "klaus_mueller", "--at", "2023-02-13 12:00",
                   "--last", "1")
    # the newest retrieval of Klaus at or before 12:00, read from the file with plain SQL
    with closing(sqlite3.connect(f"file:{party_run}?mode=ro", uri=True)) as db:
        seq, time = db.execute("SELECT seq, time FROM retrievals WHERE persona = 'klaus_mueller' AND "
                               "time <= '2023-02-13 12:00:00' ORDER BY seq DESC LIMIT 1").fetchone()
    assert done.returncode == 0 and f"#{seq} {time} klaus_mueller" in done.stdout, done.stdout[:500]
    assert done.stdout.count("query:") == 1


def test_too_long_persona_text_is_refused_at_load(town_copy, tmp_path):
    """A routine task longer than the mind's answers allow is refused when the town loads,
    not hours into a run."""
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d["routine"][1].__setitem__("task", "x" * 121))
    out = tmp_path / "x.sqlite"
    _fails_cleanly(_simulate(town_copy, out), "klaus_mueller.yaml", "routine[1].task", "at most 100")
    assert not out.exists()


def test_huge_map_is_refused(town_copy, tmp_path):
    """A map larger than 1000 x 1000 tiles is refused instead of exhausting memory."""
    _edit(town_copy / "map.yaml", lambda d: d.__setitem__("size", [100000, 100000]))
    _fails_cleanly(_simulate(town_copy, tmp_path / "x.sqlite"), "map.yaml", "size", "at most 1000")


@pytest.mark.parametrize("hours", ["nan", "inf", "-1", "0.00001"])
def test_bad_hours_are_refused_without_leaving_a_file(tmp_path, hours):
    """--hours must be a finite positive number of at least one tick; nothing is written."""
    out = tmp_path / "x.sqlite"
    done = run_cli("simulate", "--hours", hours, "--out", str(out), "--embedder", "hashing")
    _fails_cleanly(done, "--hours")
    assert not out.exists()


def test_serve_on_a_busy_port_fails_before_recording(tmp_path):
    """serve on a port already in use says so in one line and leaves no run file."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = tmp_path / "live.sqlite"
        done = run_cli("serve", "--port", str(port), "--out", str(out), "--embedder", "hashing")
    _fails_cleanly(done, "--port", str(port), "in use")
    assert not out.exists()


@pytest.mark.parametrize("name", ["", "<b>x</b>"])
def test_serve_with_a_bad_player_name_fails_before_recording(tmp_path, name):
    """--player "" was ignored (the town ran with no player); now one line and no run file."""
    out = tmp_path / "live.sqlite"
    done = run_cli("serve", "--port", "0", "--out", str(out), "--embedder", "hashing", "--player", name,
                   timeout=120)  # without the check "" served until stopped
    _fails_cleanly(done, "player", "is empty" if not name else f"{name!r}: a player's name is 1-40 letters")
    assert not out.exists()


def test_weights_over_the_memory_bound_are_refused_before_the_run_file(tmp_path):
    """1e308 passed the config check, then the memory stream refused it after the run file was
    made (left behind with 0 ticks, its message naming only 'weights')."""
    out = tmp_path / "x.sqlite"
    done = run_cli("simulate", "--hours", "0.01", "--out", str(out), "--embedder", "hashing", "--quiet",
                   "--set", "retrieval.weights=1e308,1e308,1e308")
    _fails_cleanly(done, "retrieval.weights", "<= 1e+06", "1e+308")
    assert not out.exists()
