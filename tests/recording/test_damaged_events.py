"""Damaged events inside a run file give one line from every command and 422 from the viewer.

A 2-hour the_ville run is damaged the way flipped bytes damage it: in the second half of the
file, every events row (found by its bytes: a game time, then an event kind, then the data's
``{``) gets its kind's third letter and its time's last digit overwritten ('memory' becomes
'me7ory'), at most 300 bytes in all. The index on (kind, persona, tick) still holds the true
kinds, so a query by kind returns damaged rows. ``stats``, ``evaluate``, ``interview`` and
``compare`` then say in one line that the file is damaged and which event (reader.py refuses
the row), and the viewer's evaluation and compare endpoints answer 422 with that reason.
"""

from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
from fault_checks import integrity

from town.events import EventKind
from web import create_app, live
from web.cli import main

KINDS = b"|".join(re.escape(k.value.encode()) for k in EventKind)
#: An events row's time (its last digit), kind, persona and the opening of its JSON data.
ROW = re.compile(rb"\d\d:\d\d:\d(\d)(" + KINDS + rb")[a-z_]*\{")


def damage(path, most: int = 300) -> int:
    """Overwrite two bytes of each events row in the file's second half; rows damaged."""
    data = bytearray(path.read_bytes())
    rows = [m for m in ROW.finditer(bytes(data)) if m.start() >= len(data) // 2][: most // 2]
    for m in rows:
        data[m.start(1)] = ord("x")  # 08:15:00 -> 08:15:0x
        data[m.start(2) + 2] = ord("7")  # memory -> me7ory
    path.write_bytes(bytes(data))
    return len(rows)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A folder with good.sqlite (2 game hours of the_ville) and bad.sqlite, its damaged copy."""
    folder = tmp_path_factory.mktemp("runs")
    good = folder / "good.sqlite"
    assert main(["simulate", "--hours", "2", "--out", str(good), "--quiet", "--embedder", "hashing"]) == 0
    bad = folder / "bad.sqlite"
    shutil.copy(good, bad)
    assert damage(bad) > 50
    return folder


def test_the_damage_hits_event_kinds_in_the_events_table(runs):
    """Read past the index: kinds that are no EventKind are there; the index no longer matches."""
    conn = sqlite3.connect(runs / "bad.sqlite")
    try:
        kinds = {k for (k,) in conn.execute("SELECT kind FROM events NOT INDEXED")}
    finally:
        conn.close()
    assert "me7ory" in kinds and kinds - {k.value for k in EventKind}
    assert integrity(runs / "good.sqlite") == "ok" and integrity(runs / "bad.sqlite") != "ok"


@pytest.mark.parametrize("command", [
    ["stats", "{bad}"],
    ["evaluate", "{bad}", "--out", "{out}"],
    ["interview", "{bad}", "--persona", "klaus_mueller", "--at", "2023-02-13T08:00", "do you know Isabella?"],
    ["compare", "{good}", "{bad}"],
], ids=lambda c: c[0])
def test_each_command_says_in_one_line_that_the_run_is_damaged(runs, tmp_path, capsys, command):
    """Exit 2 and one line naming the file and the damaged event, no traceback."""
    args = [a.format(bad=runs / "bad.sqlite", good=runs / "good.sqlite", out=tmp_path / "ev") for a in command]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.fullmatch(rf"town: error: {re.escape(str(runs / 'bad.sqlite'))} is not a town run file "
                        r"\(or is damaged\): event \d+: .+\n", err), err


@pytest.mark.parametrize("url", ["/api/runs/bad/evaluation", "/api/compare/good/bad"])
def test_the_viewer_answers_422_with_the_reason(runs, url):
    """The evaluation and compare endpoints: 422 and the one-line reason, not 500."""
    app = create_app({"RUNS_DIR": str(runs), "TESTING": True})
    try:
        reply = app.test_client().get(url)
    finally:
        live(app).close()
    assert reply.status_code == 422, reply.get_data(as_text=True)[:300]
    assert re.search(r"bad\.sqlite is not a town run file \(or is damaged\): event \d+: ",
                     reply.get_json()["error"])
