"""What a mind step can reach: the world, the thinking backend, the clock and the event bus.

Also the two primitives every cognitive step goes through: :func:`remember` (write a memory,
rated by the backend, published as an event) and :func:`recall` (retrieve with a trace,
published as an event), after Park et al. 2023 §4.1.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..clock import GameClock
from ..config import Config
from ..events import Event, EventBus, EventKind
from ..memory import MemoryKind, MemoryRecord
from ..persona import Persona
from ..thinking.answers import MAX_RATINGS
from ..thinking.backend import ThinkingBackend
from ..thinking.questions import MemoryView, RateImportance, RateImportances
from ..world import World

__all__ = ["MindContext", "SeqRef", "Seq", "remember", "remember_many", "observe", "observing", "rate", "recall",
           "views", "seed_for"]


class SeqRef:
    """A reference to an event held back by :meth:`MindContext.buffered`.

    ``seq`` is filled in when the event is published; ``int(ref)`` gives it.
    """

    __slots__ = ("seq",)

    def __init__(self) -> None:
        self.seq: int | None = None

    def __int__(self) -> int:
        if self.seq is None:
            raise ValueError("the referenced event has not been published yet")
        return self.seq

    def __deepcopy__(self, memo: dict) -> int | None:
        return self.seq


#: An event's seq as a decision holds it: an int, or a :class:`SeqRef` while the event is held back.
Seq = int | SeqRef


def _resolve(value: Any) -> Any:
    if isinstance(value, SeqRef):
        return int(value)
    if isinstance(value, dict):
        return {k: _resolve(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v) for v in value]
    return value


@dataclass
class MindContext:
    """Services shared by all personas' minds during a simulation.

    Attributes:
        world: the world (places, objects, paths).
        backend: the thinking backend answering questions.
        bus: the event bus of the simulation.
        clock: the world clock (read-only for minds).
        config: the effective configuration.
        names: persona id -> full name.
        side: threads for :meth:`side_by_side` (None: its jobs run one after another).
    """

    world: World
    backend: ThinkingBackend
    bus: EventBus
    clock: GameClock
    config: Config
    names: dict[str, str]
    side: Executor | None = None
    _local: threading.local = field(default_factory=threading.local, repr=False)
    _refs_made: bool = field(default=False, repr=False)

    @property
    def tick(self) -> int:
        """The current tick."""
        return self.clock.tick

    @property
    def now(self) -> datetime:
        """Game datetime of the current tick."""
        return self.clock.now

    def publish(self, kind: EventKind, persona: str | None, data: dict[str, Any]) -> Seq:
        """Publish an event stamped with the current tick and game time.

        Returns:
            Its seq; inside :meth:`buffered` work, a :class:`SeqRef` resolved when flushed.
        """
        event = Event(kind=kind, tick=self.tick, time=self.now, persona=persona, data=data)
        buffer = getattr(self._local, "buffer", None)
        if buffer is not None:
            ref = SeqRef()
            buffer.append((event, ref))
            return ref
        # SeqRefs exist only once buffered work has run (a pooled backend); a sequential run
        # never walks the event data looking for them.
        return self.bus.publish(replace(event, data=_resolve(data)) if self._refs_made else event).seq

    def announce(self, kind: EventKind, persona: str | None, data: dict[str, Any]) -> int:
        """Publish an event at once, never held back (a STATUS noticed inside a decision).

        Returns:
            Its seq.
        """
        return self.bus.publish(Event(kind=kind, tick=self.tick, time=self.now, persona=persona,
                                      data=data)).seq

    def buffered(self, work) -> tuple[Any, list[tuple[Any, SeqRef | None]]]:
        """Run ``work()`` with this thread's events held back; returns (result, events).

        Lets several personas decide concurrently (their backend calls overlap) while events
        are published afterwards in a fixed order with :meth:`flush` (docs/design, §3).
        """
        self._refs_made = True
        self._local.buffer = []
        try:
            return work(), self._local.buffer
        finally:
            self._local.buffer = None

    def in_turn(self, work: Callable[[], Any]) -> None:
        """Run ``work()`` now, or, inside :meth:`buffered` work, when its events are published.

        For changes to what personas share (the town library) and the events that describe
        them: run from concurrent jobs, they take effect in job order, at the place a sequential
        run would make them, whatever the threads' timing (docs/design, §3).
        """
        buffer = getattr(self._local, "buffer", None)
        if buffer is None:
            work()
        else:
            buffer.append((work, None))

    def side_by_side(self, jobs: list) -> list:
        """Run independent jobs of one mind step at once; their results and events in job order.

        For work whose model requests do not depend on each other (both sides summarising one
        conversation): the requests overlap, and the events are published (or held back, inside
        :meth:`buffered` work) in the order the jobs are given, as if they had run one by one.
        """
        if self.side is None or len(jobs) < 2:
            return [job() for job in jobs]
        outer = getattr(self._local, "buffer", None)
        done = [future.result() for future in [self.side.submit(self.buffered, job) for job in jobs]]
        for _, events in done:
            if outer is None:
                self.flush(events)
            else:
                outer.extend(events)
        return [result for result, _ in done]

    def flush(self, events: Sequence[tuple[Any, SeqRef | None]]) -> None:
        """Publish held-back events in order, filling in their :class:`SeqRef` s.

        A held-back :meth:`in_turn` change is made at its place in the order.
        """
        for event, ref in events:
            if ref is None:
                event()
                continue
            data = _resolve(event.data)
            ref.seq = self.bus.publish(Event(kind=event.kind, tick=event.tick, time=event.time,
                                             persona=event.persona, data=data)).seq


def seed_for(ctx: MindContext, persona: str, purpose: str, extra: object = "", *, every_tick: bool = True) -> int:
    """A deterministic 31-bit seed for one question: run seed, tick, persona, purpose, extra.

    ``every_tick=False`` leaves the tick out: one seed for the whole run (a persona's choices that
    several questions make, such as whether to go to an event).
    """
    tick = ctx.tick if every_tick else ""
    key = f"{ctx.config.seed}|{tick}|{persona}|{purpose}|{extra}".encode()
    return zlib.crc32(key) & 0x7FFFFFFF


def views(records: list[MemoryRecord]) -> tuple[MemoryView, ...]:
    """Memory records as the compact views questions carry."""
    return tuple(
        MemoryView(id=r.id, content=r.content, kind=r.kind.value, importance=r.importance,
                   created=r.created.isoformat(sep=" "))
        for r in records
    )


def remember(p: Persona, ctx: MindContext, *, kind: MemoryKind | str, content: str,
             importance: int | None = None, **provenance: Any) -> MemoryRecord:
    """Write a memory: rate its importance (poignancy), add it, publish a MEMORY event.

    Args:
        p: the persona whose stream receives the memory.
        ctx: the mind's context (backend for the rating, bus for the event).
        kind: observation | chat | reflection | plan | whisper.
        content: one sentence.
        importance: 1-10; asked of the backend when None (Park et al. 2023 §4.1).
        **provenance: evidence, conversation, source, subject, predicate, object, and the
            measurement-only key of a seeded memory or whisper (see ``MemoryRecord``: recorded,
            never read by a decision).

    Returns:
        The new record.
    """
    kind = MemoryKind(kind)
    if importance is None:
        importance = rate(p, ctx, [(kind.value, content)])[0]
    record = p.stream.add(kind=kind, content=content, created=ctx.now, importance=importance,
                          **provenance)
    if kind is not MemoryKind.REFLECTION:
        p.importance_acc += record.importance
    ctx.publish(EventKind.MEMORY, p.id, {**record.to_dict(), "embedding": p.stream.vector(record.id)})
    return record


def observing(ctx: MindContext) -> bool:
    """False when ``ablate`` contains "observation" (Park et al. 2023 §6.2's ablation).

    Then nothing perceived during the run enters memory; the persona file's memories are seeded
    all the same.
    """
    return "observation" not in ctx.config.ablated


def observe(p: Persona, ctx: MindContext, content: str, **provenance: Any) -> MemoryRecord | None:
    """Remember what the persona perceives (an observation), unless observation is switched off.

    Returns:
        The new record, or None when observation is switched off (:func:`observing`).
    """
    if not observing(ctx):
        return None
    return remember(p, ctx, kind="observation", content=content, **provenance)


def rate(p: Persona, ctx: MindContext, items: list[tuple[str, str]]) -> list[int]:
    """Importance 1-10 of new memories, given as (kind, content) pairs (Park et al. 2023 §4.1).

    With ``backend.importance = "batch"`` (the default) the list is rated in one request
    (:class:`RateImportances`), or in consecutive parts of at most
    :data:`~town.thinking.answers.MAX_RATINGS` (a persona in a crowd sees more changes at once
    than one answer may rate); with "each", one paper-style :class:`RateImportance` request per
    memory.
    """
    if not items:
        return []
    if ctx.config.backend.importance == "each":
        return [ctx.backend.ask(RateImportance(
            persona=p.id, persona_name=p.name, content=content, kind=kind,
            seed=seed_for(ctx, p.id, "importance", content))).importance for kind, content in items]
    ratings: list[int] = []
    for start in range(0, len(items), MAX_RATINGS):
        part = items[start:start + MAX_RATINGS]
        ratings += ctx.backend.ask(RateImportances(
            persona=p.id, persona_name=p.name, persona_summary=p.summary(), items=tuple(part),
            seed=seed_for(ctx, p.id, "importance", "|".join(c for _, c in part)))).ratings
    return ratings


def remember_many(p: Persona, ctx: MindContext, items: list[dict[str, Any]]) -> list[MemoryRecord]:
    """Write several memories written together, their missing importances rated in one go.

    Args:
        p: the persona whose stream receives the memories.
        ctx: the mind's context.
        items: keyword arguments of :func:`remember` (kind, content, importance?, provenance).

    Returns:
        The new records, in order.
    """
    todo = [i for i, item in enumerate(items) if item.get("importance") is None]
    ratings = rate(p, ctx, [(MemoryKind(items[i]["kind"]).value, items[i]["content"]) for i in todo])
    items = [dict(item) for item in items]
    for i, value in zip(todo, ratings):
        items[i]["importance"] = value
    return [remember(p, ctx, **item) for item in items]


def recall(p: Persona, ctx: MindContext, query: str, *, purpose: str,
           k: int | None = None) -> tuple[list[MemoryRecord], Seq]:
    """Retrieve from the persona's stream with the run's k and weights; publish the trace.

    Returns:
        (records best first, seq of the RETRIEVAL event) — the seq ties decisions to it.
    """
    cfg = ctx.config.retrieval
    records, trace = p.stream.retrieve(query, now=ctx.now, k=k or cfg.k, weights=tuple(cfg.weights),
                                       purpose=purpose, tick=ctx.tick)
    return records, ctx.publish(EventKind.RETRIEVAL, p.id, trace.to_dict(vectors=True))
