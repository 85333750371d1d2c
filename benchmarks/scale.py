"""How the cost of a tick grows with the number of personas (generated towns, scripted backend).

Run: ``.venv/bin/python benchmarks/scale.py [--sizes 25 100 250 1000] [--hours 1] [--embedder minilm]``

For each N it generates a town (``town.generator``, seed 1) and simulates it for ``--hours`` game
hours with the scripted backend, recording to a temporary run file, in a fresh process (so peak
RSS is that N's alone). Per N it prints ticks per second, wall seconds of the run and the CPU
seconds (user + sys, all threads) it took, the set-up's wall seconds (building the simulation and
seeding its memories; the town's generation is not counted), milliseconds per tick by phase (the
exclusive phase timers of ``benchmarks/throughput.py``), peak RSS, run-file MB per persona-hour
and memories per persona, and the growth exponent of the tick time between consecutive sizes:
``log(t2 / t1) / log(N2 / N1)`` (1 = linear). Figures only; no assertions. On a machine shared with
other jobs the wall figures grow and the CPU figures much less: quote both.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

PHASES = ("perceive", "retrieve", "embed", "plan", "reflect", "converse", "record", "other")


def one(n: int, hours: float, embedder: str) -> dict:
    """Generate and simulate one town of ``n`` personas; returns its figures."""
    from throughput import PhaseTimer, instrument

    from town.config import load_config
    from town.events import EventKind
    from town.generator import generate_town
    from town.recording import RunReader
    from town.scenario import load_scenario

    timer = PhaseTimer()
    timed = instrument(timer)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        generate_town(n, 1, Path(tmp) / f"scale_{n}")
        scenario = load_scenario(Path(tmp) / f"scale_{n}")
        generated = time.perf_counter() - started
        config = load_config(None, {"embedder": embedder})
        path = Path(tmp) / "run.sqlite"
        started = time.perf_counter()
        sim = timed(scenario, config, run_path=path)
        setup = time.perf_counter() - started
        ticks = sim.clock.ticks_for(hours=hours)
        for phase in PHASES:
            timer.seconds[phase] = 0.0
        started, cpu_started = time.perf_counter(), time.process_time()
        sim.run(ticks)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        sim.close()
        size = sum(p.stat().st_size for p in Path(tmp).glob("run.sqlite*"))
        with RunReader(path) as reader:
            memories = sum(1 for _ in reader.events(kinds=[EventKind.MEMORY]))
    return {"n": n, "ticks": ticks, "wall": wall, "cpu": cpu, "setup": setup, "generate": generated,
            "ms_per_tick": {phase: 1000 * s / ticks for phase, s in timer.seconds.items()},
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "mb_per_persona_hour": size / 1e6 / n / hours, "memories_per_persona": memories / n}


def main(argv: list[str] | None = None) -> int:
    """Print the scaling table (one subprocess per size)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 100, 250, 1000])
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.hours, args.embedder)))
        return 0
    print(f"{args.hours:g} game hour(s) per town, scripted backend, {args.embedder} embedder")
    head = (f"{'N':>5} {'ticks/s':>8} {'wall s':>7} {'CPU s':>7} {'setup s':>7} {'ms/tick':>8} {'exp':>5} "
            + " ".join(f"{p[:7]:>7}" for p in PHASES)
            + f" {'RSS MB':>7} {'MB/p-h':>7} {'mem/p':>6}")
    print(head)
    prev = None
    for n in args.sizes:
        done = subprocess.run([sys.executable, __file__, "--one", str(n), "--hours", str(args.hours),
                               "--embedder", args.embedder], capture_output=True, text=True, check=True)
        row = json.loads(done.stdout.strip().splitlines()[-1])
        per_tick = 1000 * row["wall"] / row["ticks"]
        exponent = (f"{math.log(per_tick / prev[1]) / math.log(n / prev[0]):5.2f}" if prev else f"{'':>5}")
        prev = (n, per_tick)
        print(f"{n:>5} {row['ticks'] / row['wall']:>8.1f} {row['wall']:>7.1f} {row['cpu']:>7.1f} "
              f"{row['setup']:>7.1f} {per_tick:>8.1f} {exponent} "
              + " ".join(f"{row['ms_per_tick'][p]:>7.1f}" for p in PHASES)
              + f" {row['rss_mb']:>7.0f} {row['mb_per_persona_hour']:>7.3f} {row['memories_per_persona']:>6.1f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
