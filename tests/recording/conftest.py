"""A tiny synthetic simulation that publishes frames, memories and retrievals into a RunWriter."""

from __future__ import annotations

import json
from datetime import datetime

import numpy as np
import pytest

from mounts import Mounts

from town.clock import GameClock
from town.events import Event, EventBus, EventKind
from town.recording.writer import RunWriter

START = datetime(2023, 2, 13, 7, 0)
DIM = 8
FMT = "%Y-%m-%d %H:%M:%S"


def brute_force(records, vectors, query, now, weights, k, runners_up=5):
    """Reference retrieval (Park et al. 2023 §4.1, docs/design, §1), written out in plain Python.

    recency = 0.995 ** game hours since last access, importance, relevance = dot of unit
    vectors; each min-max normalised (0.5 when all equal); weighted sum; best first, ties to the
    newer created then the higher id. Returns the top k then runners-up as candidate dicts.
    """
    n = len(records)
    hours = [(now - datetime.strptime(r["last_accessed"], FMT)).total_seconds() / 3600
             for r in records]
    raw = {"recency": [0.995 ** h for h in hours],
           "importance": [float(r["importance"]) for r in records],
           "relevance": [float(np.dot(vectors[r["id"]].astype(np.float64), query))
                         for r in records]}

    def normalise(values):
        low, high = min(values), max(values)
        return [0.5] * n if high == low else [(v - low) / (high - low) for v in values]

    parts = {name: normalise(values) for name, values in raw.items()}
    scores = {name: [w * p for p in parts[name]]
              for w, name in zip(weights, ("recency", "importance", "relevance"))}
    total = [scores["recency"][i] + scores["importance"][i] + scores["relevance"][i]
             for i in range(n)]
    # "YYYY-MM-DD HH:MM:SS" sorts as time: best score, then newer created, then higher id
    newest_first = sorted(range(n), key=lambda i: (records[i]["created"], records[i]["id"]),
                          reverse=True)
    order = sorted(newest_first, key=lambda i: -total[i])  # stable: ties stay newest first
    return [{"rank": j + 1, "id": records[i]["id"], "content": records[i]["content"],
             "hours": hours[i], "recency": raw["recency"][i],
             "importance": records[i]["importance"], "relevance": raw["relevance"][i],
             "recency_part": parts["recency"][i], "importance_part": parts["importance"][i],
             "relevance_part": parts["relevance"][i], "recency_score": scores["recency"][i],
             "importance_score": scores["importance"][i],
             "relevance_score": scores["relevance"][i], "total": total[i], "in_top_k": j < k}
            for j, i in enumerate(order[: k + runners_up])]


class SyntheticRun:
    """Publishes hand-made events tick by tick; remembers what it wrote for the tests."""

    def __init__(self, path, personas=("ana", "bo"), *, seed=0, meta=None):
        self.clock = GameClock(START)
        self.bus = EventBus()
        base = {"scenario": "tiny", "town": "tiny", "personas": list(personas), "seed": seed,
                "backend": "scripted", "start": "2023-02-13 07:00:00"}
        self.writer = RunWriter(path, {**base, **(meta or {})})
        self.bus.subscribe(self.writer.handle)
        self.personas = list(personas)
        self.rng = np.random.default_rng(seed)
        self.frames: dict[int, dict] = {}
        self.records: dict[str, dict[int, dict]] = {p: {} for p in personas}
        self.vectors: dict[str, dict[int, np.ndarray]] = {p: {} for p in personas}
        self.published: list[Event] = []

    @property
    def tick(self) -> int:
        """The tick being built."""
        return self.clock.tick

    @property
    def now(self) -> datetime:
        """Game time of the tick being built."""
        return self.clock.now

    def publish(self, kind, persona, data) -> Event:
        """Publish one event of the current tick on the bus."""
        event = self.bus.publish(Event(kind=kind, tick=self.tick, time=self.now, persona=persona,
                                       data=data))
        self.published.append(event)
        return event

    def unit(self) -> np.ndarray:
        """A random unit ``(DIM,) float32`` vector."""
        v = self.rng.normal(size=DIM).astype(np.float32)
        return v / np.linalg.norm(v)

    def memory(self, persona, content, importance, *, kind="observation", vector=None) -> Event:
        """Publish a new memory record (with its embedding) of ``persona``."""
        mid = len(self.records[persona])
        stamp = self.now.strftime("%Y-%m-%d %H:%M:%S")
        record = {"id": mid, "persona": persona, "kind": kind, "content": content,
                  "created": stamp, "last_accessed": stamp, "importance": importance,
                  "evidence": [], "subject": None, "predicate": None, "object": None,
                  "conversation": None, "source": None, "probe": None}
        self.records[persona][mid] = dict(record)
        self.vectors[persona][mid] = self.unit() if vector is None else vector
        data = {**record, "embedding": self.vectors[persona][mid]}
        return self.publish(EventKind.MEMORY, persona, data)

    def retrieve(self, persona, *, weights=(1.0, 1.0, 1.0), k=3, purpose="react", query="q",
                 vector=None) -> Event:
        """Score the persona's stream by brute force and publish the trace."""
        q = self.unit() if vector is None else vector
        records = list(self.records[persona].values())
        candidates = brute_force(records, self.vectors[persona], q, self.now, weights, k)
        stamp = self.now.strftime(FMT)
        for c in candidates:
            if c["in_top_k"]:
                self.records[persona][c["id"]]["last_accessed"] = stamp
        trace = {"persona": persona, "tick": self.tick, "game_time": stamp, "purpose": purpose,
                 "query": query, "weights": list(weights), "k": k, "n_scored": len(records),
                 "candidates": candidates, "query_embedding": q}
        return self.publish(EventKind.RETRIEVAL, persona, trace)

    def end_tick(self) -> Event:
        """Publish this tick's frame (commits it) and advance the clock."""
        personas = {p: {"x": (self.tick + i) % 40, "y": i, "address": f"tiny:house {p}",
                        "action": f"{p} is idling at tick {self.tick}", "emoji": "z",
                        "speech": None, "conversation": None}
                    for i, p in enumerate(self.personas)}
        event = self.publish(EventKind.FRAME, None, {"personas": personas})
        self.frames[self.tick] = {"personas": personas}
        self.clock.advance()
        return event

    def snapshot(self) -> dict:
        """Snapshot the state after the last finished tick; returns it as read back from JSON."""
        tick = self.tick - 1
        state = {"tick": tick, "personas": {p: {"records": self.records[p]} for p in self.personas},
                 "world": {"rng": "opaque"}}
        self.writer.snapshot(tick, self.clock.time_of(tick), self.bus.seq, state)
        return json.loads(json.dumps(state))


@pytest.fixture
def synthetic(tmp_path):
    """Factory: ``synthetic(name, **kw) -> SyntheticRun`` writing ``tmp_path/name.sqlite``."""
    runs = []

    def make(name="run", **kw) -> SyntheticRun:
        run = SyntheticRun(tmp_path / f"{name}.sqlite", **kw)
        runs.append(run)
        return run

    yield make
    for run in runs:
        run.writer.close()


@pytest.fixture
def reference():
    """The brute-force reference retrieval :func:`brute_force`."""
    return brute_force



@pytest.fixture
def tmpfs(tmp_path):
    """``tmpfs(size=None) -> folder``: a fresh tmpfs under ``tmp_path`` (``mounts.Mounts``),
    unmounted after the test; skipped where mounting is not allowed."""
    with Mounts(tmp_path) as mounts:
        yield mounts.mount
