"""Behaviour comes from memory text alone: evaluation probes change nothing, and talk does not
loop on the same lines.

One 48-hour run of the_ville with every evaluation probe removed (no probes.yaml, no ``probe:``
keys) serves both tests: its first 36 hours must equal the session's party run (which has the
probes) in frames, events and memories, all but the probe column/keys; over the 48 hours, at
most 20% of a pair's chat lines repeat an earlier line of that pair verbatim.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import zlib
from collections import defaultdict

import pytest
import yaml
from cli_helpers import REPO, run_cli

from town.events import EventKind
from town.recording import RunReader

TICKS_36H = 36 * 360


def _strip_probes(value):
    if isinstance(value, dict):
        return {k: _strip_probes(v) for k, v in value.items() if k != "probe"}
    if isinstance(value, list):
        return [_strip_probes(v) for v in value]
    return value


@pytest.fixture(scope="module")
def probe_free_run(tmp_path_factory):
    """The_ville without any evaluation probe, simulated for 48 game hours by the CLI."""
    base = tmp_path_factory.mktemp("noprobe")
    town = base / "the_ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    (town / "probes.yaml").unlink()
    for path in town.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        stripped = _strip_probes(data)
        if stripped != data:
            path.write_text(yaml.safe_dump(stripped, allow_unicode=True, sort_keys=False))
    assert "probe:" not in "".join(p.read_text() for p in town.glob("*.yaml"))
    out = base / "run.sqlite"
    done = run_cli("simulate", "--town", str(town), "--hours", "48", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


def _rows(path, sql):
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def _events(path):
    out = []
    for seq, tick, time, kind, persona, data in _rows(
            path, f"SELECT seq, tick, time, kind, persona, data FROM events WHERE tick < {TICKS_36H} "
                  f"AND kind != '{EventKind.STATUS.value}' ORDER BY seq"):
        raw = zlib.decompress(data) if isinstance(data, bytes) else data
        out.append((seq, tick, time, kind, persona, _strip_probes(json.loads(raw))))
    return out


def test_removing_every_probe_leaves_frames_events_and_memories_identical(party_run, probe_free_run):
    frames = f"SELECT tick, time, seq, data FROM frames WHERE tick < {TICKS_36H} ORDER BY tick"
    assert _rows(party_run, frames) == _rows(probe_free_run, frames)
    assert _events(party_run) == _events(probe_free_run)
    memories = (f"SELECT m.persona, m.id, m.seq, m.tick, m.created, m.kind, m.importance, m.content, v.vector "
                f"FROM memories m JOIN vectors v ON v.id = m.vector WHERE m.tick < {TICKS_36H} "
                f"ORDER BY m.persona, m.id")
    assert _rows(party_run, memories) == _rows(probe_free_run, memories)
    # The party run did carry probes: the comparison left something out.
    assert _rows(party_run, "SELECT count(*) FROM memories WHERE probe IS NOT NULL")[0][0] >= 2


def test_at_most_a_fifth_of_a_pairs_lines_repeat_verbatim(probe_free_run):
    """For each pair of personas, over 48 game hours: lines equal to an earlier line of the same
    pair (either speaker) are at most 20% of the pair's lines."""
    with RunReader(probe_free_run) as r:
        lines = defaultdict(list)
        for e in r.events(kinds=[EventKind.CHAT]):
            lines[frozenset((e.data["speaker"], e.data["listener"]))].append(e.data["line"])
    assert len(lines) >= 2
    for pair, said in lines.items():
        repeats = sum(1 for i, line in enumerate(said) if line in said[:i])
        assert repeats <= 0.2 * len(said), (sorted(pair), repeats, len(said), said)
