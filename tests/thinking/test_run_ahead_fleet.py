"""Run-ahead against fake model servers: one run, whatever the slots, the servers and their speed."""

from __future__ import annotations

from cli_helpers import same_run

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation
from town.backends import make_backend

TICKS = 90  # Smallville from 07:00 to 07:15: everyone's day plan, then the first conversations


def _run(path, servers, key_env, threads):
    config = load_config(None, {
        "embedder": "hashing", "schedule": "run-ahead", "backend.name": "openai",
        "backend.base_url": servers[0].base_url, "backend.more_base_urls": [s.base_url for s in servers[1:]],
        "backend.model": servers[0].model, "backend.api_key_env": key_env, "backend.cache": False,
        "backend.timeout_s": 10.0, "backend.max_concurrency": str(servers[0].slots_n),
        "backend.pool_size": threads})
    parts = make_backend(config, backoff_s=0.01)
    sim = Simulation(load_scenario("smallville"), config, backend=parts.backend, stall=parts.stall, run_path=path)
    sim.bind_recorder(parts.recorder)
    sim.run(TICKS)
    sim.close()
    return sim


def _fleet(fake_server, slots, latencies):
    servers = [fake_server(slots=slots, latency_s=latency) for latency in latencies]
    for s in servers:
        s.slots_n = slots
    return servers


def test_the_same_run_on_1_4_and_16_slots_at_any_speed(fake_server, api_key, tmp_path):
    """One single-slot server without latency, one of 4 slots at 10 ms, and 4 servers of 4 slots
    at 5-30 ms each: ``same_run.py --ignore-timing`` says "same run" (what was asked and answered,
    every frame, event and memory), and the fleet did serve several requests at once."""
    runs = {}
    for name, slots, latencies, threads in (("one", 1, [0.0], 1), ("four", 4, [0.01], 8),
                                            ("sixteen", 4, [0.005, 0.02, 0.01, 0.03], 32)):
        servers = _fleet(fake_server, slots, latencies)
        runs[name] = tmp_path / f"{name}.sqlite"
        _run(runs[name], servers, api_key, threads)
        if name == "sixteen":
            # a busy enough hour: 88 requests once the day plan splits the block at hand, fewer
            # once a decomposition names the task just finished
            assert sum(len(s.log) for s in servers) >= 70
            spans = sorted((e["start"], e["end"]) for s in servers for e in s.log)
            most = max(sum(1 for a, b in spans if a <= start < b) for start, _ in spans)
            # 7 on a quiet machine, 5 on a loaded one; one request at a time would be 1
            assert most >= 3, most
    for name in ("four", "sixteen"):
        compared = same_run(runs["one"], runs[name], "--ignore-timing")
        assert (compared.returncode, compared.stdout) == (0, "same run\n"), (name, compared.stdout)
    plain = same_run(runs["one"], runs["sixteen"])
    assert plain.returncode == 1  # with the timing compared, the runs differ in it
