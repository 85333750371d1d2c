"""A tiny synthetic simulation that publishes frames, memories and retrievals into a RunWriter."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from town.clock import GameClock
from town.events import Event, EventBus, EventKind
from town.memory.scoring import rank
from town.recording.writer import RunWriter

START = datetime(2023, 2, 13, 7, 0)
DIM = 8


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
        return self.clock.tick

    @property
    def now(self) -> datetime:
        return self.clock.now

    def publish(self, kind, persona, data) -> Event:
        event = self.bus.publish(Event(kind=kind, tick=self.tick, time=self.now, persona=persona,
                                       data=data))
        self.published.append(event)
        return event

    def unit(self) -> np.ndarray:
        v = self.rng.normal(size=DIM).astype(np.float32)
        return v / np.linalg.norm(v)

    def memory(self, persona, content, importance, *, kind="observation", vector=None) -> Event:
        mid = len(self.records[persona])
        stamp = self.now.strftime("%Y-%m-%d %H:%M:%S")
        record = {"id": mid, "persona": persona, "kind": kind, "content": content,
                  "created": stamp, "last_accessed": stamp, "importance": importance,
                  "evidence": [], "subject": None, "predicate": None, "object": None,
                  "conversation": None, "source": None, "tags": []}
        self.records[persona][mid] = dict(record)
        self.vectors[persona][mid] = self.unit() if vector is None else vector
        return self.publish(EventKind.MEMORY, persona, {**record, "embedding": self.vectors[persona][mid]})

    def retrieve(self, persona, *, weights=(1.0, 1.0, 1.0), k=3, purpose="react", query="q",
                 vector=None) -> Event:
        """Score the persona's stream with town.memory.scoring and publish the trace."""
        q = self.unit() if vector is None else vector
        recs = list(self.records[persona].values())
        fmt = "%Y-%m-%d %H:%M:%S"
        hours = np.array([(self.now - datetime.strptime(r["last_accessed"], fmt)).total_seconds()
                          / 3600 for r in recs])
        ids = np.array([r["id"] for r in recs])
        created = np.array([datetime.strptime(r["created"], fmt).timestamp() / 3600 for r in recs])
        vecs = np.stack([self.vectors[persona][i] for i in ids])
        relevance = vecs @ q
        importance = np.array([r["importance"] for r in recs])
        ranking = rank(hours=hours, importance=importance, relevance=relevance, created=created,
                       ids=ids, weights=weights, k=k)
        candidates = []
        for j, pos in enumerate(ranking.positions):
            r = recs[pos]
            candidates.append({
                "rank": j + 1, "id": r["id"], "content": r["content"], "hours": float(hours[pos]),
                "recency": float(ranking.recency[j]), "importance": r["importance"],
                "relevance": float(relevance[pos]),
                "recency_part": float(ranking.parts[j, 0]),
                "importance_part": float(ranking.parts[j, 1]),
                "relevance_part": float(ranking.parts[j, 2]),
                "recency_score": float(ranking.contributions[j, 0]),
                "importance_score": float(ranking.contributions[j, 1]),
                "relevance_score": float(ranking.contributions[j, 2]),
                "total": float(ranking.total[j]), "in_top_k": j < ranking.n_top})
        stamp = self.now.strftime(fmt)
        for c in candidates:
            if c["in_top_k"]:
                self.records[persona][c["id"]]["last_accessed"] = stamp
        trace = {"persona": persona, "tick": self.tick, "game_time": stamp, "purpose": purpose,
                 "query": query, "weights": list(weights), "k": k, "n_scored": len(recs),
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

    def snapshot(self) -> None:
        """Snapshot the state after the last finished tick."""
        tick = self.tick - 1
        state = {"tick": tick, "records": self.records, "rng": "opaque"}
        self.writer.snapshot(tick, self.clock.time_of(tick), self.bus.seq, state)


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
