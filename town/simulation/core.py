"""The Simulation: it composes the owners of a town's state and advances them one tick at a time.

The owners: the personas (``Persona``), the conversations (``Conversations``), the timed events
(``Timeline``), the world, the clock, the town library and the event bus. A tick is snapshot ->
decide -> apply -> record: every persona decides on the same snapshot of the town, its decision
a job that hands back effects, and the apply step makes them real in a fixed order (persona id,
then pair, then conversation id), so a run is deterministic for a given seed and backend
however its jobs were scheduled (ARCHITECTURE.md, "A tick").
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from .. import importance
from ..clock import GameClock
from ..embedding import CachedEmbedder, Embedder, make_embedder
from ..errors import RunStopped, TownError
from ..events import EventBus, EventKind
from ..memory import MemoryStream
from ..mind import MindContext, Services
from ..persona import Persona
from ..procedures import ProceduralMemory, ProcedureLibrary
from ..recording import RunWriter
from ..textevent import place_names
from ..thinking.backend import ThinkingBackend
from ..backends import default_backend
from ..thinking.wrappers import CallRecorder, StallGuard
from ..world import World
from .apply import Applier
from .conversations import Conversations
from .inputs import Input, Inputs
from .jobs import Pool, note_call
from .phases import TickPhases
from .players import Players
from .record import frame, snapshot_due
from .runahead import RunAhead
from .seeding import seed
from .snapshot import take
from .state import continue_run, meta_of, restore, state_of
from .timeline import Timeline

if TYPE_CHECKING:
    from ..config import Config
    from ..scenario import Scenario
    from ..backends import ThinkingParts

__all__ = ["Simulation"]

T = TypeVar("T")


class Simulation:
    """A town of personas living by a world clock (Park et al. 2023).

    Args:
        scenario: a loaded ``town.scenario.Scenario``.
        config: the effective ``town.config.Config``.
        backend: thinking backend (default: the scripted one, :func:`town.backends.default_backend`).
        stall: a model backend's stall guard (``ThinkingParts.stall``): :meth:`cancel` and a
            failed tick end its waits; None: nothing to end (the scripted backend).
        embedder: embedder for memory streams (default: ``make_embedder(config.embedder)``).
        run_path: SQLite run file to record to (None: not recorded).
        bus: an event bus to publish on (default: a new one).
        threads: threads for a tick's jobs, and run-ahead's clusters at once (default:
            ``backend.pool_size`` for a model backend, none for the scripted one).

    Raises:
        RecordingError: when ``run_path`` exists already.
    """

    def __init__(self, scenario: Scenario, config: Config, *, backend: ThinkingBackend | None = None,
                 stall: StallGuard | None = None, embedder: Embedder | None = None,
                 run_path: str | Path | None = None, bus: EventBus | None = None, seed_memories: bool = True,
                 threads: int | None = None):
        self.scenario, self.config = scenario, config
        self.tilemap = scenario.tilemap
        self.world = World(scenario.tilemap)
        self.backend, self.stall = backend or default_backend(), stall
        self.recorder: CallRecorder | None = None  # a model backend's, once bound: what it is asked now
        self.embedder = embedder or make_embedder(config.embedder, backend=config.backend)
        if isinstance(self.embedder, CachedEmbedder):  # a cache that holds a day of this town's texts
            self.embedder.fit(len(scenario.personas))
        self.bus = bus or EventBus()
        start = config.start or scenario.start
        self.clock = GameClock(start, config.seconds_per_tick)
        self._personas: dict[str, Persona] = {}
        self.personas = MappingProxyType(self._personas)
        threshold = config.procedures.threshold
        self.procedures = ProcedureLibrary(self.embedder, threshold=threshold)  # the town library
        roster = tuple((s.name, s.home) for s in scenario.personas)
        for spec in sorted(scenario.personas, key=lambda s: s.id):
            p = Persona(spec=spec, stream=MemoryStream(spec.id, self.embedder),
                        procedures=ProceduralMemory(ProcedureLibrary(self.embedder, threshold=threshold),
                                                    self.procedures, roster))
            p.place(*self.world.tile_for(spec.home))
            self._personas[spec.id] = p
        self._names = {pid: p.name for pid, p in self._personas.items()}
        self.services = Services(world=self.world, backend=self.backend, config=config,
                                 names=MappingProxyType(self._names), seconds_per_tick=self.clock.seconds_per_tick)
        self.apply = Applier(self.bus, self.clock, self.personas, lambda cid: self.conversations[cid])
        self.conversations = Conversations(self.personas, self.clock, self.tilemap.address_at, self.apply.publish)
        self.inputs = Inputs()  # what people outside do, applied between ticks (drain_inputs)
        self.timeline = Timeline(scenario.events, self.world, self.personas, place_names(self.tilemap.addresses()),
                                 self.think, self.apply.publish)
        self._players = Players(self._personas, self._names, tilemap=self.tilemap, world=self.world, clock=self.clock,
                                conversations=self.conversations, embedder=self.embedder, think=self.think, seq=self.apply.seq,
                                leave_conversation=self.leave_conversation, whisper=self.timeline.whisper)
        if threads is None:
            threads = 0 if self.backend.name == "scripted" else int(config.backend.pool_size)
        self._pool = Pool(threads, stall)
        self._phases = TickPhases(self.services, self.clock, self.personas, self.conversations, self.apply, self._pool)
        self._ahead = None if config.schedule != "run-ahead" else RunAhead(
            personas=self.personas, tilemap=self.tilemap, clock=self.clock, services=self.services,
            conversations=self.conversations, apply=self.apply, pool=self._pool, procedures=self.procedures,
            timeline=self.timeline, perception=config.perception, bus=self.bus, after_tick=self._recorded,
            barrier_every=(self.clock.ticks_for(hours=1), self.clock.ticks_for(hours=config.recording.snapshot_every_hours)),
            threads=threads)
        self.run_path: Path | None = None
        self.writer: RunWriter | None = None
        self.interrupted: str | None = None  # why a tick did not complete (then no snapshot)
        self._failed = False  # ... by an error, not a stop request
        if run_path is not None:
            self.record_to(Path(run_path), RunWriter(run_path, self.meta()))
        if seed_memories:
            seed(self.personas, self._names, self.tilemap, self._embed_ahead, self.think)
            self.snapshot()

    @property
    def players(self) -> frozenset[str]:  # the personas played from the viewer (no mind; Players)
        return self._players.ids

    @property
    def player_talking(self) -> bool:
        """Whether a player is in a conversation now (the runner then slows: its talk pace)."""
        return any(self.personas[pid].conversation is not None for pid in self._players.ids)

    def drain_inputs(self) -> None:
        """Apply the queued inputs (``self.inputs.submit``, any thread) in order, each an INPUT event
        of the clock's tick, with everyone at that tick (run-ahead settles first); :meth:`step` starts with it."""
        if self.inputs.pending:
            self.settle()
            self._guard(lambda: self.inputs.drain(self._players.apply, self.apply.publish, self.clock.tick))

    def act(self, inp: Input) -> Any:
        """Apply ``inp`` now, after the inputs queued before it (between ticks, on the thread that
        steps the simulation: ``serve --player``, tests); its result, or its refusal raised."""
        got: list[tuple[dict[str, Any], TownError | None]] = []
        self.inputs.submit(inp, lambda outcome, refusal: got.append((outcome, refusal)))
        self.drain_inputs()
        if got[0][1] is not None:
            raise got[0][1]
        return got[0][0]["result"]

    # ------------------------------------------------------------------ set-up
    def meta(self) -> dict[str, Any]:  # stored in the run file (no secrets; state.meta_of)
        return meta_of(self)

    @classmethod
    def from_run(cls, run_path: str | Path, snapshot: tuple[int, int, dict[str, Any]], *,
                 config: Config | None = None, backend: ThinkingBackend | None = None,
                 fork_to: str | Path | None = None) -> Simulation:
        """Continue a recorded run from one of its snapshots (:func:`~town.simulation.state.continue_run`).

        Raises:
            RecordingError (a missing, damaged or busy run), ConfigError (a file gone, another
            embedder), ThinkingError (the model server cannot be reached).
        """
        def make(scenario: Scenario, config: Config, parts: ThinkingParts, bus: EventBus) -> Simulation:
            return cls(scenario, config, backend=parts.backend, stall=parts.stall, bus=bus, seed_memories=False)

        return continue_run(make, run_path, snapshot, config=config, backend=backend, fork_to=fork_to)

    def record_to(self, path: Path, writer: RunWriter) -> None:
        """Record to the run file ``path`` through ``writer`` (a new run's, or a resumed or forked one)."""
        self.run_path, self.writer = Path(path), writer
        self.bus.subscribe(writer.handle)

    def bind_recorder(self, recorder: CallRecorder | None) -> None:
        """Publish ``recorder``'s MODEL_CALL events with the persona's others, STATUS at once."""
        self.recorder = recorder
        if recorder is not None:
            recorder.bind(self._note_call, announce=self.announce)

    def _note_call(self, kind: EventKind, persona: str | None, data: dict[str, Any]) -> None:
        """A model call's event: among the running job's effects, else published now."""
        note_call(kind, persona, data, self.apply.publish)

    def announce(self, kind: EventKind, persona: str | None, data: dict[str, Any]) -> int:
        """Publish an event at once, from any thread (a STATUS noticed while a tick waits); its seq."""
        return self.apply.publish(kind, persona, data)

    def cancel(self) -> None:
        """A stop request: end the model calls waiting now and refuse new ones (``StallGuard.cancel``);
        the tick fails with :class:`~town.errors.RunStopped` and is not recorded."""
        if self.stall is not None:
            self.stall.cancel()

    def abandon(self, reason: str) -> None:
        """Give up the tick another thread is stuck in (a model request that does not end): its
        events are not recorded, :meth:`close` takes no snapshot; the run keeps the ticks before it."""
        self.interrupted = f"tick {self.clock.tick} was abandoned: {reason}"
        self._failed = False
        if self.writer is not None:
            self.writer.discard_tick()

    # ------------------------------------------------------------------ the tick
    def think(self, work: Callable[[MindContext], T]) -> T:
        """Run a mind step now, outside a tick's jobs (a whisper, news, a player's line), and apply
        its effects; what it returned."""
        self.settle()
        thought = self._phases.think(work)
        self.apply(thought.effects)
        return thought.result

    def whisper(self, persona: str, text: str, *, probe: str | None = None,
                importance: int | None = None) -> int:
        """Inject an inner-voice memory into a persona; returns its id (:meth:`Timeline.whisper`;
        KeyError for an unknown persona id)."""
        return self.timeline.whisper(persona, text, probe=probe, importance=importance)

    def step(self) -> int:
        """Simulate one tick (run-ahead: until it is recorded); publish its events, the FRAME
        last. Returns the new tick count. A tick that raises is not recorded (the run file keeps
        the ticks before it) and leaves the simulation ``interrupted``: its state is half a tick,
        so :meth:`close` takes no snapshot and it must not step again (RuntimeError)."""
        if self.interrupted is not None:
            raise RuntimeError(f"the simulation was interrupted ({self.interrupted}); resume the run instead")
        self.drain_inputs()
        return self._guard(self._step if self._ahead is None or self.players else self._ahead.step)

    def _guard(self, work: Callable[[], T]) -> T:
        """``work()``, which runs ticks; when it raises, the simulation is ``interrupted``."""
        try:
            return work()
        except BaseException as exc:
            self._pool.end_waits()  # no job goes on waiting
            self.interrupted = f"tick {self.clock.tick} did not complete: {type(exc).__name__}: {exc}"
            self._failed = not isinstance(exc, (RunStopped, KeyboardInterrupt))
            if self.writer is not None:
                self.writer.discard_tick()
            raise

    def _step(self) -> int:
        self.apply.new_tick()
        self.conversations.fall_silent()
        players = self.players
        if players:
            self._players.tend()
        self.timeline.fire_due(self.clock.now)
        minds = [p for pid, p in self.personas.items() if pid not in players]
        perception = self.config.perception
        snapshot = take(self.personas, [p.id for p in minds], self.tilemap, self.clock.tick, self.clock.now, perception)
        observed = [item["content"] for _, new in snapshot.looks.values() for item in new]
        self._embed_ahead(observed, observed)
        with self.procedures.reads_as_of_now():  # the shared library as at the tick's start
            self._phases.run(snapshot, minds, players, perception.vision_radius)
        for p in self.personas.values():
            p.walk()
        self.apply.publish(EventKind.FRAME, None, {"personas": self.frame()})
        self.clock.advance()
        self._recorded(self.clock.tick - 1)
        return self.clock.tick

    def _recorded(self, tick: int) -> None:  # tick ``tick`` is recorded: a snapshot when due
        if snapshot_due(self.clock.tick, self.config.recording.snapshot_every_hours, self.clock.seconds_per_tick):
            self.snapshot(tick)

    def settle(self) -> None:
        """Run-ahead: bring every persona to the same tick, recorded (``RunAhead.settle``); else nothing."""
        if self._ahead is not None and self.interrupted is None:
            self._guard(self._ahead.settle)

    def leave_conversation(self, cid: int) -> None:
        """End conversation ``cid`` now (a player walked away or stayed silent): both fall
        silent, summarise and remember it, as at any end (:meth:`TickPhases.leave`)."""
        self.settle()
        self._phases.leave(cid)

    def _embed_ahead(self, texts: list[str], rated: list[str]) -> None:
        """Embed in one batch the memories (``texts``; ``rated``: to be rated) everyone is about to
        write, filling the caches only: the model runs once instead of once per persona."""
        if texts:
            self.embedder.embed(sorted(set(texts)))
        if rated and self.backend.name == "scripted":
            importance.prepare(rated)

    def frame(self) -> dict[str, dict[str, Any]]:
        """The current frame (:func:`~town.simulation.record.frame`)."""
        return frame(self.personas, self.tilemap)

    # ------------------------------------------------------------------ driving
    def end_at(self, tick: int) -> None:  # the run ends before ``tick``: run-ahead runs no persona to it
        if self._ahead is not None:
            self._ahead.until = int(tick)

    def run(self, ticks: int, *, progress=None) -> None:
        """Simulate ``ticks`` ticks (:meth:`end_at` the tick after); ``progress(tick)`` after each one."""
        self.end_at(self.clock.tick + int(ticks))
        for _ in range(int(ticks)):
            self.step()
            if progress is not None:
                progress(self.clock.tick)

    def snapshot(self, tick: int | None = None) -> None:
        """Write a full-state snapshot to the run file (after ``tick``; -1 = before any tick)."""
        if self.writer is None:
            return
        self.settle()
        last = self.clock.tick - 1 if tick is None else tick
        self.writer.snapshot(last, self.clock.time_of(last), self.bus.seq, self.get_state())

    def close(self, *, finished: bool = True) -> None:
        """Snapshot and close the run file (idempotent). After an interrupted tick no snapshot is
        taken and the run stays unfinished; after a write failure the file is left as it was.

        Args:
            finished: the run reached its end (else it was interrupted: meta ``finished`` stays
                false and the last STATUS says "stopped"; it can be resumed).
        """
        try:
            if self.writer is not None and self.writer.broken is None:
                with contextlib.suppress(Exception):  # run-ahead catching up failed: interrupted
                    self.settle()
                if self.interrupted is None:
                    self.snapshot()  # only ever between ticks
                else:
                    finished = False
                status = {"state": "finished", "reason": "closed"} if finished else {
                    "state": "failed" if self._failed else "stopped",
                    "reason": self.interrupted or "interrupted"}
                self.apply.publish(EventKind.STATUS, None, status)
                self.writer.close(finished=finished)
        finally:
            self.writer = None
            # a worker stuck in a model request must not hold the process: it is abandoned
            self._pool.close(wait=self.interrupted is None)
            if self._ahead is not None:
                self._ahead.close()
            self.backend.close()

    # ------------------------------------------------------------------ state
    def get_state(self, *, vectors: bool = False) -> dict[str, Any]:
        """JSON-able full state: clock, world, personas (with memory streams), conversations;
        ``vectors``: with each stream's records, index and access log (snapshots leave them out)."""
        return state_of(self, vectors=vectors)

    def set_state(self, state: dict[str, Any], vectors: dict[str, tuple] | None = None) -> None:
        """Restore from :meth:`get_state` output (resume and fork); a stream without an ``index``
        needs its ``records`` and ``vectors``: persona id -> (ids ``(n,)``, embeddings ``(n, d)``)."""
        restore(self, state, vectors)
