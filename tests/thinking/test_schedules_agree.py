"""A run-ahead run is the tick-synchronous run (``scripts/same_run.py``), in both conversation
modes, and stays so when stopped in the middle of a conversation and resumed.

Smallville from 07:00 to 08:00 on the fake model, snapshots every 0.1 game hour (36 ticks):
run-ahead's spans end at every snapshot, so conversations under way cross span ends, where the
scheduler renumbers what cites its provisional event numbers. The expected result is the
tick-synchronous run itself, compared row by row (how the ticks were scheduled and how long the
calls took aside: ``--ignore-timing``).
"""

from __future__ import annotations

import pytest
from cli_helpers import same_run

from town.backends import make_backend
from town.config import load_config
from town.events import EventKind
from town.mind.converse import LINE_EVERY_TICKS
from town.recording import RunReader
from town.recording.continuation import newest_snapshot
from town.scenario import load_scenario
from town.simulation import Simulation

TICKS = 360  # 07:00-08:00: the day plans, then the morning's first conversations
SPAN = 36  # ticks between snapshots (0.1 game hour), each a span end for run-ahead


def _config(server, key_env, mode, schedule):
    return load_config(None, {
        "embedder": "hashing", "schedule": schedule, "conversation.mode": mode, "backend.name": "openai",
        "backend.base_url": server.base_url, "backend.model": server.model, "backend.api_key_env": key_env,
        "backend.cache": False, "backend.timeout_s": 10.0, "backend.max_concurrency": "4", "backend.pool_size": 8,
        "recording.snapshot_every_hours": SPAN * 10 / 3600})


def _run(path, config, ticks, *, resume=False):
    """Smallville for ``ticks`` ticks recorded to ``path`` (``resume``: from its newest snapshot)."""
    parts = make_backend(config, backoff_s=0.01)
    if resume:
        sim = Simulation.from_run(path, newest_snapshot(path), config=config, backend=parts.backend)
    else:
        sim = Simulation(load_scenario("smallville"), config, backend=parts.backend, stall=parts.stall,
                         run_path=path)
    sim.bind_recorder(parts.recorder)
    try:
        sim.run(ticks)
    finally:
        sim.close()
    return sim


@pytest.mark.parametrize("mode", ["whole", "per-line"])
def test_a_run_ahead_run_is_the_tick_synchronous_run_and_resumes_to_it(fake_server, api_key, tmp_path, mode):
    """same_run.py says "same run" for the tick-synchronous and the run-ahead run (personas ran
    10 ticks or more ahead; more than 10 conversations, some across a span end); the run-ahead
    run stopped two lines into a conversation that goes on past the stop, and resumed, differs
    from it only in the snapshot its stop wrote."""
    server = fake_server(slots=4, latency_s=0.005)
    tick, ahead, stopped = tmp_path / "tick.sqlite", tmp_path / "ahead.sqlite", tmp_path / "stopped.sqlite"
    _run(tick, _config(server, api_key, mode, "tick"), TICKS)
    sim = _run(ahead, _config(server, api_key, mode, "run-ahead"), TICKS)
    assert max(sim._ahead.progress.ahead) >= 10  # how far depends on the machine's speed: 19-20+ seen
    with RunReader(tick) as reader:
        talks = [e.data for e in reader.events(kinds=[EventKind.CONVERSATION])]
    assert len(talks) > 10 and [t for t in talks if t["start_tick"] // SPAN != t["end_tick"] // SPAN]
    compared = same_run(tick, ahead, "--ignore-timing")
    assert (compared.returncode, compared.stdout) == (0, "same run\n"), compared.stdout

    talk = next(t for t in talks if t["end_tick"] - t["start_tick"] > 2 * LINE_EVERY_TICKS)
    stop = talk["start_tick"] + LINE_EVERY_TICKS + 1  # two lines said, the rest still to say
    config = _config(server, api_key, mode, "run-ahead")
    _run(stopped, config, stop)
    _run(stopped, config, TICKS - stop, resume=True)
    compared = same_run(tick, stopped, "--ignore-timing")
    differ = {line.split(":")[0].split(" ")[0] for line in compared.stdout.splitlines()}
    assert differ == {"snapshots", "snapshot_parts"}, compared.stdout
    assert f"in A where B has ({stop - 1}," in compared.stdout, compared.stdout  # the stop's snapshot
