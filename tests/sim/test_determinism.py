"""Two runs with the same seed give identical run contents (frames, events, traces)."""

from __future__ import annotations

import sqlite3

from cli_helpers import same_run

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation


def _run(path, seed, hours=4):
    config = load_config(None, {"embedder": "hashing", "seed": seed})
    sim = Simulation(load_scenario("the_ville"), config, run_path=path)
    sim.run(sim.clock.ticks_for(hours=hours))
    sim.close()


def _rows(path, table):
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def test_same_seed_gives_identical_runs(tmp_path):
    """Every table is equal row by row (scripts/same_run.py): frames, events (memories,
    retrievals with traces, chats), memories, vectors, snapshots and their parts."""
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    _run(a, 7)
    _run(b, 7)
    for table in ("frames", "events", "memories", "retrievals", "vectors", "snapshots", "snapshot_parts"):
        assert _rows(a, table), table
    compared = same_run(a, b)
    assert (compared.returncode, compared.stdout) == (0, "same run\n"), compared.stdout


def test_concurrent_decisions_publish_the_same_events(tmp_path):
    """With the thread pools used for model backends, events come out in the same order.

    One pool runs the personas' decisions, the invitations and the lines; the other the two
    summaries that end a conversation.
    """
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    _run(a, 3, hours=2)
    config = load_config(None, {"embedder": "hashing", "seed": 3})
    sim = Simulation(load_scenario("the_ville"), config, run_path=b, threads=3)
    sim.run(sim.clock.ticks_for(hours=2))
    sim.close()
    for table in ("frames", "events", "memories"):
        assert _rows(a, table) == _rows(b, table), table


def test_lines_said_ahead_and_town_library_changes_keep_the_sequential_run(tmp_path):
    """Smallville, 3 game hours: the pooled run equals the sequential one, table by table.

    In a pool, a conversation under way says its line as soon as both speakers have decided,
    and the town library, which 25 personas save to and use, changes in persona order (a
    ``LibraryChange`` effect, made when applied). Applying those lines' effects late, or
    changing the town library as the threads finish, each make the runs differ.
    """
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    config = load_config(None, {"embedder": "hashing", "seed": 3})
    for path, pooled in ((a, False), (b, True)):
        sim = Simulation(load_scenario("smallville"), config, run_path=path, threads=3 if pooled else None)
        sim.run(sim.clock.ticks_for(hours=3))
        sim.close()
    with sqlite3.connect(a) as conn:  # the run has what the test is about
        kinds = dict(conn.execute("SELECT kind, count(*) FROM events GROUP BY kind").fetchall())
        town = conn.execute("SELECT count(*) FROM events WHERE kind = 'procedure' "
                            "AND data LIKE '%\"library\":\"town\"%'").fetchone()[0]
    assert kinds["chat"] > 20 and town >= 20
    for table in ("frames", "events", "memories"):
        assert _rows(a, table) == _rows(b, table), table
