"""The Simulation: clock + world + personas + event bus, advanced one tick at a time.

Within a tick every persona decides on the same snapshot of the world (positions and actions
at the start of the tick); the effects that cross personas (starting conversations, lines
heard, moves) are then applied in a fixed order (persona id order, conversation id order), so a
run is deterministic for a given seed and backend (docs/design).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import importance
from ..clock import GameClock
from ..embedding import CachedEmbedder, Embedder, make_embedder
from ..errors import RunStopped
from ..events import EventBus, EventKind
from ..memory import MemoryStream
from ..mind import Conversation, MindContext, move, remember, say_next_line
from ..mind.context import SeqRef
from ..mind.perceive import SightIndex, look
from ..persona import Persona
from ..perspective import inner_voice, meaning
from ..player import tend_players
from ..procedures import ProceduralMemory, ProcedureLibrary
from ..textevent import place_names
from ..thinking.backend import ThinkingBackend
from ..thinking.scripted import ScriptedBackend
from ..world import World
from .conversations import due_lines, open_conversation, start_conversations, talk
from .decisions import decide, views
from .jobs import in_order, run_with_followers
from .pools import end_waits, thread_pools
from .seeding import seed
from .state import continue_run, meta_of, restore, state_of
from .timed_events import fire_scenario_events

if TYPE_CHECKING:
    from ..config import Config
    from ..scenario import Scenario

__all__ = ["Simulation"]


class Simulation:
    """A town of personas living by a world clock (Park et al. 2023).

    Args:
        scenario: a loaded ``town.scenario.Scenario``.
        config: the effective ``town.config.Config``.
        backend: thinking backend (default: :class:`ScriptedBackend`).
        embedder: embedder for memory streams (default: ``make_embedder(config.embedder)``).
        run_path: SQLite run file to record to (None: not recorded).
        bus: an event bus to publish on (default: a new one).

    Raises:
        RecordingError: when ``run_path`` exists already.
    """

    def __init__(self, scenario: Scenario, config: Config, *, backend: ThinkingBackend | None = None,
                 embedder: Embedder | None = None, run_path: str | Path | None = None,
                 bus: EventBus | None = None, seed_memories: bool = True):
        self.scenario = scenario
        self.config = config
        self.tilemap = scenario.tilemap
        self.world = World(scenario.tilemap)
        self.backend = backend or ScriptedBackend()
        self.embedder = embedder or make_embedder(config.embedder, backend=config.backend)
        if isinstance(self.embedder, CachedEmbedder):  # a cache that holds a day of this town's texts
            self.embedder.fit(len(scenario.personas))
        self.bus = bus or EventBus()
        start = config.start or scenario.start
        self.clock = GameClock(start, config.seconds_per_tick)
        self.personas: dict[str, Persona] = {}
        threshold = config.procedures.threshold
        self.procedures = ProcedureLibrary(self.embedder, threshold=threshold)  # the town library
        roster = tuple((s.name, s.home) for s in scenario.personas)
        for spec in sorted(scenario.personas, key=lambda s: s.id):
            p = Persona(spec=spec, stream=MemoryStream(spec.id, self.embedder),
                        procedures=ProceduralMemory(ProcedureLibrary(self.embedder, threshold=threshold),
                                                    self.procedures, roster))
            p.x, p.y = self.world.tile_for(spec.home)
            self.personas[spec.id] = p
        self.conversations: dict[int, Conversation] = {}
        self.players: set[str] = set()  # personas played from the viewer (town.player): no mind
        self.player_waits: dict[int, tuple[int, int]] = {}  # conversation -> (lines, since tick)
        self._said_last: set[str] = set()  # whose conversation ended last tick (speech shown once)
        self._next_conversation = 1
        self._next_event = 0
        self.ctx = MindContext(world=self.world, backend=self.backend, bus=self.bus, clock=self.clock,
                               config=config,
                               names={pid: p.name for pid, p in self.personas.items()})
        # the side pool: a job's own independent requests (never nested further)
        self._pool, self.ctx.side = thread_pools(self.backend, int(config.backend.pool_size))
        self.run_path = None if run_path is None else Path(run_path)
        self.writer = None
        self.interrupted: str | None = None  # why a tick did not complete (then no snapshot)
        self._failed = False  # ... by an error, not a stop request
        if self.run_path is not None:
            from ..recording import RunWriter

            self.writer = RunWriter(self.run_path, self.meta())
            self.bus.subscribe(self.writer.handle)
        if seed_memories:
            seed(self)
            self.snapshot()

    # ------------------------------------------------------------------ set-up
    def meta(self) -> dict[str, Any]:
        """Run metadata stored in the run file (no secrets; :func:`~town.simulation.state.meta_of`)."""
        return meta_of(self)

    @classmethod
    def from_run(cls, run_path: str | Path, snapshot: tuple[int, int, dict[str, Any]], *,
                 config: Config | None = None, backend: ThinkingBackend | None = None,
                 fork_to: str | Path | None = None) -> Simulation:
        """Continue a recorded run from one of its snapshots (:func:`~town.simulation.state.continue_run`).

        Raises:
            RecordingError: for a missing or damaged run, or one another process writes;
            ConfigError if the town or a persona file is gone, or the embedder differs;
            ThinkingError when the model server cannot be reached.
        """
        return continue_run(cls, run_path, snapshot, config=config, backend=backend, fork_to=fork_to)

    def bind_recorder(self) -> None:
        """Publish the backend's MODEL_CALL events with the persona's others, its STATUS at once."""
        recorder = self.backend.recorder
        if recorder is not None:
            recorder.bind(self.ctx.publish, announce=self.ctx.announce)

    def cancel(self) -> None:
        """End the model calls waiting now (requests in flight, stall, backoff, 429) and refuse
        new ones (``ThinkingBackend.cancel``).

        A stop request when the tick does not end by itself: the tick then fails with
        :class:`~town.errors.RunStopped` and is not recorded.
        """
        self.backend.cancel()

    def abandon(self, reason: str) -> None:
        """Give up the tick another thread is stuck in (a model request that does not end).

        Its events are not recorded and :meth:`close` takes no snapshot (the state is half a
        tick); the run file keeps the ticks before it.
        """
        self.interrupted = f"tick {self.clock.tick} was abandoned: {reason}"
        self._failed = False
        if self.writer is not None:
            self.writer.discard_tick()

    # ------------------------------------------------------------------ the tick
    def whisper(self, persona: str, text: str, *, probe: str | None = None,
                importance: int | None = None) -> int:
        """Inject an inner-voice memory (kind ``whisper``) into a persona; returns its id.

        ``probe`` names the evaluation probe the whisper seeds (measurement only; no decision
        reads it). ``importance`` is rated like any memory's when None.

        Raises:
            KeyError: for an unknown persona id.
        """
        p = self.personas[persona]
        thought = inner_voice(text)  # "You want to ..." is remembered as "I want to ..."
        record = remember(p, self.ctx, kind="whisper", content=thought, probe=probe, importance=importance,
                          **meaning(thought, place_names(self.tilemap.addresses())))
        self.ctx.publish(EventKind.WHISPER, persona, {"text": text, "memory": record.id})
        return record.id

    def step(self) -> int:
        """Simulate one tick; publish its events, the FRAME last. Returns the new tick count.

        A tick that raises is not recorded (the run file keeps the ticks before it) and leaves
        the simulation ``interrupted``: its state is half a tick, so :meth:`close` takes no
        snapshot and it must not step again.

        Raises:
            RuntimeError: when an earlier tick was interrupted.
        """
        if self.interrupted is not None:
            raise RuntimeError(f"the simulation was interrupted ({self.interrupted}); resume the run instead")
        try:
            return self._step()
        except BaseException as exc:
            end_waits(self.backend, self._pool, self.ctx.side)  # no job goes on waiting
            self.interrupted = f"tick {self.clock.tick} did not complete: {type(exc).__name__}: {exc}"
            self._failed = not isinstance(exc, (RunStopped, KeyboardInterrupt))
            if self.writer is not None:
                self.writer.discard_tick()
            raise

    def _step(self) -> int:
        ctx = self.ctx
        for pid in self._said_last:
            self.personas[pid].speech = None
        self._said_last = set()
        if self.players:
            tend_players(self)
        fire_scenario_events(self)
        snapshot = views(self)
        radius = self.config.perception.vision_radius
        sight = SightIndex(snapshot, radius)
        looks = {pid: look(p, snapshot, self.config.perception, now=ctx.now, index=sight)
                 for pid, p in self.personas.items() if pid not in self.players}
        observed = [item["content"] for _, new in looks.values() for item in new]
        self._embed_ahead(observed, observed)
        jobs = {pid: lambda p=p: decide(self, p, snapshot, looks.get(p.id))
                for pid, p in self.personas.items()}
        ahead: dict = {}
        with self.procedures.reads_as_of_now():  # the shared library as at the tick's start
            if self._pool is None:
                wanted = in_order(None, ctx, list(jobs.values()))
            else:  # a conversation under way says its line once both speakers have decided
                lines = {c.id: ((c.a, c.b), lambda c=c: say_next_line(c, self.personas, ctx))
                         for c in due_lines(self)}
                wanted, ahead = run_with_followers(self._pool, ctx, jobs, lines)
            intents = [(pid, *want) for pid, want in zip(self.personas, wanted) if want is not None]
            start_conversations(self, intents, snapshot, radius)
            talk(self, ahead)
        for p in self.personas.values():
            move(p)
        ctx.publish(EventKind.FRAME, None, {"personas": self.frame()})
        tick = self.clock.tick
        self.clock.advance()
        every = max(1, int(round(self.config.recording.snapshot_every_hours * 3600 / self.clock.seconds_per_tick)))
        if self.clock.tick % every == 0:
            self.snapshot(tick)
        return self.clock.tick

    def _embed_ahead(self, texts: list[str], rated: list[str]) -> None:
        """Embed memories every persona is about to write, in one batch, before any is written.

        Used for a tick's new observations (before anyone decides) and for the seeded memories
        (before the first is written). Only fills the embedding caches (the stream's embedder's,
        and the scripted importance rater's): each persona then writes and rates its own memories
        in its own turn as before, so what a decision can retrieve does not change, but the
        model runs once instead of once per persona.

        Args:
            texts: contents of the memories to be written.
            rated: those of them whose importance will be rated.
        """
        if texts:
            self.embedder.embed(sorted(set(texts)))
        if rated and self.backend.name == "scripted":
            importance.prepare(rated)

    def _concurrently(self, jobs: list) -> list:
        """Run independent jobs (a persona or a conversation each); publish events in job order.

        With a model backend they run in a thread pool, so calls within a tick overlap
        (:func:`~town.simulation.jobs.in_order`).
        """
        return in_order(self._pool, self.ctx, jobs)

    def open_conversation(self, a: str, b: str, decision: int | SeqRef | None,
                          accepted: int | SeqRef | None) -> Conversation:
        """Open a conversation of ``a`` (who speaks first) and ``b``: both stop and talk.

        Args:
            a: persona id of the one who starts it (says the first line).
            b: persona id of the one addressed.
            decision: seq of the retrieval behind ``a``'s decision.
            accepted: seq of the retrieval behind ``b``'s. Both may be
                a ``SeqRef`` inside a buffered job, or None when no mind decided (a player).

        Returns:
            The new conversation.
        """
        return open_conversation(self, a, b, decision, accepted)

    def frame(self) -> dict[str, dict[str, Any]]:
        """The current frame: per persona position, address, action, emoji, speech, conversation."""
        out = {}
        for pid, p in self.personas.items():
            a = p.action
            out[pid] = {"x": p.x, "y": p.y, "address": self.tilemap.address_at(p.x, p.y),
                        "action": a.description if a else "idle", "emoji": a.emoji if a else "🙂",
                        "kind": a.kind if a else "idle", "target": a.address if a else None,
                        "speech": p.speech, "conversation": p.conversation}
        return out

    # ------------------------------------------------------------------ driving
    def run(self, ticks: int, *, progress=None) -> None:
        """Simulate ``ticks`` ticks; ``progress(tick)`` is called after each one."""
        for _ in range(int(ticks)):
            self.step()
            if progress is not None:
                progress(self.clock.tick)

    def snapshot(self, tick: int | None = None) -> None:
        """Write a full-state snapshot to the run file (after ``tick``; -1 = before any tick)."""
        if self.writer is None:
            return
        last = self.clock.tick - 1 if tick is None else tick
        self.writer.snapshot(last, self.clock.time_of(last), self.bus.seq, self.get_state())

    def close(self, *, finished: bool = True) -> None:
        """Snapshot and close the run file (idempotent).

        After an interrupted tick no snapshot is taken and the run stays unfinished; after a
        write failure (``writer.broken``) the file is left as the failure left it.

        Args:
            finished: the run reached its end (else it was interrupted: meta ``finished`` stays
                false and the last STATUS says "stopped"; it can be resumed).
        """
        try:
            if self.writer is not None and self.writer.broken is None:
                if self.interrupted is None:
                    self.snapshot()  # only ever between ticks
                else:
                    finished = False
                status = {"state": "finished", "reason": "closed"} if finished else {
                    "state": "failed" if self._failed else "stopped",
                    "reason": self.interrupted or "interrupted"}
                self.ctx.publish(EventKind.STATUS, None, status)
                self.writer.close(finished=finished)
        finally:
            self.writer = None
            if self._pool is not None:
                # a worker stuck in a model request must not hold the process: it is abandoned
                self._pool.shutdown(wait=self.interrupted is None, cancel_futures=True)
            if self.ctx.side is not None:
                self.ctx.side.shutdown(wait=self.interrupted is None, cancel_futures=True)
            self.backend.close()

    # ------------------------------------------------------------------ state
    def get_state(self, *, vectors: bool = False) -> dict[str, Any]:
        """JSON-able full state: clock, world, personas (with memory streams), conversations.

        Args:
            vectors: include each stream's records, FAISS index and access log. Snapshots
                leave them out: the run file already holds every memory, its embedding and every
                access, so a snapshot stays small (docs/design, §4) and :meth:`from_run` rebuilds
                them.
        """
        return state_of(self, vectors=vectors)

    def set_state(self, state: dict[str, Any], vectors: dict[str, tuple] | None = None) -> None:
        """Restore from :meth:`get_state` output (resume and fork).

        Args:
            state: the state; streams without an ``index`` need their ``records`` put in and
                ``vectors``.
            vectors: persona id -> (ids ``(n,) int64``, embeddings ``(n, d) float32``).
        """
        restore(self, state, vectors)
