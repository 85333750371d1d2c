"""Run-ahead scheduling: personas who cannot affect each other run their ticks out of step.

The tick-synchronous loop waits, every tick, for every request of that tick. With a model
server, most of those waits are needless: personas in different buildings, asleep or far apart
cannot change what the others see for many ticks. :class:`RunAhead` lets each *cluster* of
personas (``reach``: those who could see each other, and conversation partners) run its tick
as soon as no persona behind it could come into its members' sight by then, so requests from
different ticks share the servers' slots (after AI Metropolis, Xie et al. 2024, arXiv 2411.03519).

The rule keeps the result deterministic, whatever the threads' timing and the servers' speed
(ARCHITECTURE.md, "Running ahead"):

- A cluster's job decides, invites and talks on a snapshot of its own members, exactly as the
  tick-synchronous phases do (``phases.TickPhases``), and walks them.
- Its events are numbered *provisionally* (:class:`Provisional`) and kept; a tick is recorded
  only when every persona has passed it, its clusters in the order of their first persona, and
  the provisional numbers, in the events and in the personas' actions, become the bus's.
- Shared state has one rule. The town library is read as it was at the start of the *span* (a
  game hour, cut short by a snapshot, a timed event or the run's end); the changes made in a
  span are made when their tick is recorded, in tick and cluster order, and are seen from the
  next span on. Timed events (closures, whispers, news) fire at the start of a span: every
  persona meets at their tick. A conversation opened at tick ``t`` by the persona of rank ``r``
  (of ``n``) is numbered ``t * 2n + r + 1``, as in a tick-synchronous run (``Conversations.number``).
- The run file records ticks in order, once each, so replay, seek, resume and fork are
  unchanged. Snapshots fall on span ends, where everyone is at the same tick. Work done ahead
  and not yet recorded is lost when a run stops; a resumed run recomputes it, the same way.

Players (``town.player``) and anything that acts on the town between ticks (a whisper, a line
typed in the viewer) first :meth:`RunAhead.settle` the town: everyone catches up with the one
furthest ahead, and the span ends there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np

from ..clock import GameClock
from ..config import PerceptionConfig
from ..events import Event, EventBus, EventKind
from ..mind import Services
from ..mind.effects import LibraryChange
from ..mind.perceive import arena_of
from ..persona import Persona
from ..procedures import ProcedureLibrary
from ..world import TileMap
from .apply import Applier
from .conversations import Conversations
from .jobs import Pool
from .phases import TickPhases
from .reach import Reach, ready_clusters
from .record import frame
from .snapshot import take
from .timeline import Timeline

__all__ = ["Provisional", "RunAhead"]


class Provisional(int):
    """An event's number while its tick is not recorded yet: negative, so never a bus seq."""


_PROVISIONAL = itertools.count(1)


class _Recorder(EventBus):
    """A cluster job's bus: keeps its events and town-library changes in order, numbered provisionally."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[tuple[int, Any], Provisional | None, Any]] = []
        self._step: tuple[int, Any] = (-1, "")  # before any thought: the tick's start

    def mark(self, step: int, key: Any) -> None:
        """What follows belongs to thought ``(step, key)`` (``TickPhases``'s ``mark``)."""
        self._step = (step, key)

    def publish(self, event: Event) -> Event:
        number = Provisional(-next(_PROVISIONAL))
        self.items.append((self._step, number, event))
        return replace(event, seq=number)

    def library(self, change: LibraryChange) -> None:
        """A change to the town library, made when the tick is recorded."""
        self.items.append((self._step, None, change))


@dataclass
class _Done:
    """A cluster's tick, run: its events and library changes by thought, and its members' frame entries."""

    items: list[tuple[tuple[int, Any], Provisional | None, Any]]
    frame: dict[str, dict[str, Any]]
    first: int = 0  # its first member's rank (ties between clusters' thoughts: none but the tick's start)


def renumber(value: Any, seqs: Mapping[int, int]) -> Any:
    """``value`` with every :class:`Provisional` inside it (dicts, lists, tuples) replaced by its seq.

    Raises:
        KeyError: for a provisional number not recorded yet (a bug: a tick cites a later one).
    """
    if isinstance(value, Provisional):
        return seqs[value]
    if isinstance(value, dict):
        return {k: renumber(v, seqs) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(renumber(v, seqs) for v in value)
    return value


@dataclass
class Progress:
    """What the scheduler did, for the benchmarks: how far ahead of the last recorded tick each job ran."""

    ahead: list[int] = field(default_factory=list)  # ticks past the last recorded one, per job


class RunAhead:
    """Runs a town's ticks cluster by cluster, ahead where the rule allows (module docstring).

    Args:
        personas: persona id -> persona, in persona order (no players).
        tilemap: the town's map.
        clock: the world clock: it stands at the first tick not recorded yet.
        services: what the jobs' minds reach.
        conversations: the conversations' owner.
        apply: the simulation's apply step (records library changes and frames).
        pool: the threads of a cluster's own jobs (or none).
        procedures: the town library.
        timeline: the timed events.
        perception: the vision radius, attention and retention.
        bus: the simulation's event bus.
        after_tick: called with each tick once it is recorded (a snapshot when due).
        barrier_every: the periods, in ticks, of the span ends that do not depend on the run
            (a game hour, the snapshots).
        threads: cluster jobs at once (0 or 1: one after another, furthest ahead first).
    """

    def __init__(self, *, personas: Mapping[str, Persona], tilemap: TileMap, clock: GameClock, services: Services,
                 conversations: Conversations, apply: Applier, pool: Pool, procedures: ProcedureLibrary,
                 timeline: Timeline, perception: PerceptionConfig, bus: EventBus,
                 after_tick: Callable[[int], None], barrier_every: tuple[int, ...], threads: int):
        self._personas, self._tilemap, self._clock, self._services = personas, tilemap, clock, services
        self._conversations, self._apply, self._pool, self._procedures = conversations, apply, pool, procedures
        self._timeline, self._perception, self._bus, self._after_tick = timeline, perception, bus, after_tick
        self._every = tuple(max(1, int(e)) for e in barrier_every)
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="cluster") if threads > 1 else None
        self._threads = max(1, threads)
        self._reach = Reach(tilemap)
        self._span: ExitStack | None = None
        self._seqs: dict[int, int] = {}
        self._parts: dict[int, list[_Done]] = {}
        self._running: dict[Future, tuple[int, list[int]]] = {}
        self._ids: list[str] = []  # the span's personas, in order; arrays below by their rank
        self._rank: dict[str, int] = {}
        self._ticks = np.zeros(0, dtype=np.int64)  # the tick each runs next
        self._busy = np.zeros(0, dtype=bool)  # its cluster's job runs now
        self._where = np.zeros((0, 2), dtype=np.int64)  # its tile
        self._arenas: list[str] = []  # its arena
        self._partner: list[int] = []  # its conversation partner's rank, or -1
        self._barrier = 0  # no cluster runs this tick or later in the span
        self.until: int | None = None  # no cluster runs past this tick (the run's end)
        self.furthest_first = True  # without threads: run the cluster furthest ahead (else the one furthest behind)
        self.progress = Progress()

    # ------------------------------------------------------------------ driving
    def step(self) -> int:
        """Run until the clock's tick is recorded (clusters run ahead meanwhile); the next tick.

        Raises:
            Whatever a cluster's job raised; that tick and those after it are not recorded.
        """
        target = self._clock.tick
        while self._clock.tick <= target:
            if self._span is not None and self._clock.tick >= self._barrier:
                self._end_span()
            if self._span is None:
                self._begin_span()
            if self._record():
                continue
            self._dispatch()
        return self._clock.tick

    def settle(self) -> None:
        """Bring everyone to the tick of the one furthest ahead, record it all and end the span."""
        if self._span is None:
            return
        self._barrier = int(np.maximum(self._ticks, self._ticks + self._busy).max())
        while self._clock.tick < self._barrier:
            self.step()
        if self._span is not None:
            self._end_span()

    def close(self) -> None:
        """Stop the cluster threads (a job still waiting on a model is abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ spans
    def _begin_span(self) -> None:
        """Everyone is at the clock's tick: fire the timed events due, freeze the library, set the barrier."""
        t = self._clock.tick
        self._apply.new_tick()
        self._timeline.fire_due(self._clock.now)
        self._span = ExitStack()
        self._span.enter_context(self._procedures.reads_as_of_now())
        barrier = min((t // e + 1) * e for e in self._every)
        if (at := self._timeline.next_at()) is not None:
            barrier = min(barrier, self._tick_at(at))
        if self.until is not None and self.until > t:
            barrier = min(barrier, self.until)
        self._barrier = barrier
        self._ids = list(self._personas)
        n = len(self._ids)
        self._rank = {pid: k for k, pid in enumerate(self._ids)}
        self._ticks = np.full(n, t, dtype=np.int64)
        self._busy = np.zeros(n, dtype=bool)
        self._where = np.zeros((n, 2), dtype=np.int64)
        self._arenas = [""] * n
        self._partner = [-1] * n
        for k in range(n):
            self._place(k)

    def _end_span(self) -> None:
        """Everyone is at the clock's tick and recorded: library changes become visible, actions renumbered."""
        assert self._span is not None and not self._running
        self._span.close()
        self._span = None
        for p in self._personas.values():
            p.renumber(self._seqs)
        for conv in self._conversations:  # a conversation written whole cites its sides' retrievals
            conv.renumber(self._seqs)
        self._seqs.clear()

    def _tick_at(self, at: datetime) -> int:
        """The first tick whose time is ``at`` or later (when a timed event fires)."""
        seconds = (at - self._clock.start).total_seconds()
        return max(self._clock.tick + 1, -int(-seconds // self._clock.seconds_per_tick))

    def _place(self, k: int) -> None:
        """Note persona ``k``'s tile, arena and conversation partner, as they are now."""
        p = self._personas[self._ids[k]]
        self._where[k] = (p.x, p.y)
        self._arenas[k] = arena_of(self._tilemap.address_at(p.x, p.y) or "")
        other = self._conversations.get(p.conversation)
        self._partner[k] = -1 if other is None else self._rank.get(other.b if other.a == p.id else other.a, -1)

    # ------------------------------------------------------------------ clusters
    def _dispatch(self) -> None:
        """Start every cluster that may run (without threads: run the one furthest ahead); wait for
        one to end.

        A cluster that may run stays so whatever the others do (the rule), so the clusters are
        looked for again only once fewer than twice the threads' jobs wait: a town of 1,000 asks
        the rule about once per few hundred jobs, not once per job.
        """
        ready = [] if len(self._running) > 2 * self._threads else ready_clusters(
            self._ticks, self._busy, self._where, self._arenas, self._partner, self._perception.vision_radius,
            self._barrier, self._reach)
        if self._executor is None:
            if not ready:
                raise RuntimeError(f"no cluster can run at tick {self._clock.tick}")  # the rule's bug
            t, members = (max if self.furthest_first else min)(ready, key=lambda r: (r[0], -r[1][0]))
            self._start(t, members)
            self._done(t, members, self._job(t, members))
            return
        for t, members in ready:
            self._start(t, members)
            self._running[self._executor.submit(self._job, t, members)] = (t, members)
        if not self._running:
            raise RuntimeError(f"no cluster can run at tick {self._clock.tick}")
        finished, _ = wait(list(self._running), return_when=FIRST_COMPLETED)
        for future in sorted(finished, key=lambda f: self._running[f]):
            t, members = self._running.pop(future)
            self._done(t, members, future.result())

    def _start(self, t: int, members: list[int]) -> None:
        self._busy[members] = True
        self.progress.ahead.append(t - self._clock.tick)

    def _done(self, t: int, members: list[int], done: _Done) -> None:
        done.first = members[0]
        self._parts.setdefault(t, []).append(done)
        self._busy[members] = False
        self._ticks[members] = t + 1
        for k in members:
            self._place(k)

    def _job(self, t: int, members: list[int]) -> _Done:
        """Cluster ``members``' tick ``t``: decide, invite, talk, walk (a worker thread's job)."""
        ids = [self._ids[k] for k in members]
        clock = GameClock(self._clock.start, self._clock.seconds_per_tick, t)
        recorder = _Recorder()
        apply = Applier(recorder, clock, self._personas, self._conversations.__getitem__, library=recorder.library)
        conversations = self._conversations.scoped(clock, apply.publish, ids)
        conversations.fall_silent()
        own = {pid: self._personas[pid] for pid in ids}
        snapshot = take(own, ids, self._tilemap, t, clock.now, self._perception)
        phases = TickPhases(self._services, clock, self._personas, conversations, apply, self._pool, recorder.mark)
        phases.run(snapshot, list(own.values()), frozenset(), self._perception.vision_radius)
        for p in own.values():
            p.walk()
        return _Done(recorder.items, frame(own, self._tilemap))

    # ------------------------------------------------------------------ recording
    def _record(self) -> bool:
        """Record the clock's tick if everyone has passed it; whether it did."""
        t = self._clock.tick
        if t >= self._barrier or self._ticks.min() <= t:
            return False
        personas: dict[str, dict[str, Any]] = {}
        parts = sorted(self._parts.pop(t, []), key=lambda d: d.first)
        # the thoughts of all clusters in a tick-synchronous tick's order; a thought's items in theirs
        for _, number, item in sorted((i for part in parts for i in part.items), key=lambda i: i[0]):
            if number is None:
                self._apply([item])
            else:
                self._seqs[number] = self._bus.publish(replace(item, data=renumber(item.data, self._seqs))).seq
        for part in parts:
            personas.update(part.frame)
        self._apply.publish(EventKind.FRAME, None, {"personas": {pid: personas[pid] for pid in self._ids}})
        self._clock.advance()
        if self._clock.tick >= self._barrier:
            self._end_span()
        self._after_tick(t)
        return True
