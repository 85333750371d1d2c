"""Seek speed and size of a run file: ``frame(tick)`` at random ticks vs reading every frame.

Builds (or opens) a run of 12,960 ticks (36 game hours at 10 s/tick) x 3 personas with
realistic frames, memories (384-d embeddings) and retrieval traces (top 10 + 5 runners-up), then
prints the median milliseconds of ``RunReader.frame(tick)`` at random ticks next to the time of
one full read of all frames, in the same run, and the file size.

Usage::

    .venv/bin/python benchmarks/seek.py [PATH] [--ticks 12960] [--personas 3]
    .venv/bin/python benchmarks/seek.py /tmp/big.sqlite --ticks 17280 --personas 25  # size budget
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

import numpy as np

from town.clock import GameClock
from town.events import Event, EventBus, EventKind
from town.recording import RunReader, RunWriter

DIM = 384
PLACES = ["the_ville:Hobbs Cafe:cafe:counter", "the_ville:Isabella's house:kitchen:stove",
          "the_ville:Oak Hill College:library:desk", "the_ville:Johnson Park:park:bench"]
ACTIONS = ["brewing coffee for the morning rush", "reading a history book about the town",
           "talking with a neighbour about the Valentine's party", "walking home slowly"]


def build(path: Path, ticks: int, personas: int, memory_every: int, retrieval_every: int) -> None:
    """Record a synthetic run of ``ticks`` ticks through an EventBus into ``path``."""
    rng = np.random.default_rng(0)
    clock = GameClock(datetime(2023, 2, 13, 7))
    ids = [f"persona_{i:02d}" for i in range(personas)]
    bus = EventBus()
    writer = RunWriter(path, {"town": "the_ville", "scenario": "bench", "personas": ids,
                              "seed": 0, "backend": "scripted"})
    bus.subscribe(writer.handle)
    counts = dict.fromkeys(ids, 0)
    queries = [rng.normal(size=DIM).astype(np.float32) for _ in range(50)]
    for tick in range(ticks):
        now = clock.now
        for j, pid in enumerate(ids):
            if (tick + j) % memory_every == 0:
                vec = rng.normal(size=DIM).astype(np.float32)
                stamp = now.strftime("%Y-%m-%d %H:%M:%S")
                record = {"id": counts[pid], "persona": pid, "kind": "observation",
                          "content": f"{pid} sees someone {ACTIONS[tick % 4]}",
                          "created": stamp, "last_accessed": stamp, "importance": 1 + tick % 10,
                          "evidence": [], "subject": pid, "predicate": "is", "object": "busy",
                          "conversation": None, "source": None, "tags": [],
                          "embedding": vec / np.linalg.norm(vec)}
                counts[pid] += 1
                bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=now, persona=pid,
                                  data=record))
            if (tick + j) % retrieval_every == 0 and counts[pid]:
                n = min(counts[pid], 15)
                cands = [{"rank": r + 1, "id": int(rng.integers(counts[pid])),
                          "content": f"{pid} saw someone {ACTIONS[r % 4]}", "hours": 1.5 * r,
                          "recency": 0.99, "importance": 5, "relevance": 0.4,
                          "recency_part": 0.8, "importance_part": 0.4, "relevance_part": 0.6,
                          "recency_score": 0.8, "importance_score": 0.4, "relevance_score": 0.6,
                          "total": 1.8 - 0.01 * r, "in_top_k": r < 10} for r in range(n)]
                trace = {"persona": pid, "tick": tick,
                         "game_time": now.strftime("%Y-%m-%d %H:%M:%S"),
                         "purpose": "react", "query": f"what is {ACTIONS[tick % 4]}?",
                         "weights": [1.0, 1.0, 1.0], "k": 10, "n_scored": counts[pid],
                         "candidates": cands, "query_embedding": queries[tick % 50]}
                bus.publish(Event(kind=EventKind.RETRIEVAL, tick=tick, time=now, persona=pid,
                                  data=trace))
        frame = {pid: {"x": int(rng.integers(140)), "y": int(rng.integers(100)),
                       "address": PLACES[(tick // 360 + j) % 4],
                       "action": ACTIONS[(tick // 90 + j) % 4],
                       "emoji": "☕", "speech": None if tick % 7 else "Hi there, lovely day!",
                       "conversation": None} for j, pid in enumerate(ids)}
        bus.publish(Event(kind=EventKind.FRAME, tick=tick, time=now, data={"personas": frame}))
        if tick % 360 == 359:
            writer.snapshot(tick, now, bus.seq, {"tick": tick, "personas": frame})
        clock.advance()
    writer.close()


def main() -> None:
    """Build or open the run, then time seeks and a full read."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", help="run file to use (built if it does not exist)")
    parser.add_argument("--ticks", type=int, default=12_960)
    parser.add_argument("--personas", type=int, default=3)
    parser.add_argument("--memory-every", type=int, default=6, help="ticks between memories")
    parser.add_argument("--retrieval-every", type=int, default=6, help="ticks between retrievals")
    parser.add_argument("--samples", type=int, default=500)
    args = parser.parse_args()
    path = Path(args.path) if args.path else Path(tempfile.mkdtemp()) / "seek.sqlite"
    if not path.exists():
        started = time.perf_counter()
        build(path, args.ticks, args.personas, args.memory_every, args.retrieval_every)
        print(f"built {path} in {time.perf_counter() - started:.1f} s")
    reader = RunReader(path)
    summary = reader.summary()
    first, last = reader.first_tick, reader.last_tick
    rng = np.random.default_rng(1)
    seeks = []
    for tick in rng.integers(first, last + 1, size=args.samples).tolist():
        started = time.perf_counter()
        reader.frame(tick)
        seeks.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    frames = reader.frames(first, last)
    full = (time.perf_counter() - started) * 1000
    print(f"run: {summary['ticks']} ticks x {len(summary['personas'])} personas, "
          f"{len(reader.events(kinds=['memory']))} memories, "
          f"{len(reader.events(kinds=['retrieval']))} retrievals, "
          f"{summary['size_bytes'] / 1e6:.1f} MB on disk")
    print(f"frame(tick) median over {args.samples} random ticks: {statistics.median(seeks):.3f} ms")
    print(f"full read of all {len(frames)} frames:            {full:.1f} ms "
          f"({full / len(frames):.4f} ms per frame)")


if __name__ == "__main__":
    main()
