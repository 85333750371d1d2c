"""The Simulation: clock + world + personas + event bus, advanced one tick at a time.

Within a tick every persona decides on the same snapshot of the world (positions and actions
at the start of the tick); the effects that cross personas (starting conversations, lines
heard, moves) are then applied in a fixed order (persona id order, conversation id order), so a
run is deterministic for a given seed and backend (docs/design).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, importance
from .clock import GameClock
from .embedding import Embedder, make_embedder
from .errors import RunStopped
from .events import EventBus, EventKind
from .memory import MemoryStream
from .memory.vectors import VectorIndex
from .mind import (
    Conversation,
    MindContext,
    View,
    accept_talk,
    decide_action,
    maybe_reflect,
    move,
    observe,
    perceive,
    plan_day,
    remember,
    remember_many,
    say_next_line,
    want_to_talk,
)
from .mind.context import SeqRef
from .mind.converse import LINE_EVERY_TICKS
from .mind.perceive import SightIndex, arena_of, awake, in_sight, look
from .mind.plan import is_sleep
from .persona import Action, Persona
from .player import player_conversation, tend_players
from .procedures import ProceduralMemory, ProcedureLibrary
from .thinking.backend import ThinkingBackend
from .thinking.scripted import ScriptedBackend
from .world import World

__all__ = ["Simulation"]

log = logging.getLogger(__name__)


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

    def __init__(self, scenario, config, *, backend: ThinkingBackend | None = None,
                 embedder: Embedder | None = None, run_path: str | Path | None = None,
                 bus: EventBus | None = None, seed_memories: bool = True):
        self.scenario = scenario
        self.config = config
        self.tilemap = scenario.tilemap
        self.world = World(scenario.tilemap)
        self.backend = backend or ScriptedBackend()
        self.embedder = embedder or make_embedder(config.embedder, backend=config.backend)
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
        pool = int(config.backend.pool_size)
        self._pool = (ThreadPoolExecutor(max_workers=pool, thread_name_prefix="mind")
                      if self.backend.name != "scripted" and pool > 1 else None)
        if self._pool is not None:  # a job's own independent requests (never nested further)
            self.ctx.side = ThreadPoolExecutor(max_workers=pool, thread_name_prefix="mind-side")
        self.run_path = None if run_path is None else Path(run_path)
        self.writer = None
        self.interrupted: str | None = None  # why a tick did not complete (then no snapshot)
        self._failed = False  # ... by an error, not a stop request
        if self.run_path is not None:
            from .recording import RunWriter

            self.writer = RunWriter(self.run_path, self.meta())
            self.bus.subscribe(self.writer.handle)
        if seed_memories:
            self._seed()
            self.snapshot()

    # ------------------------------------------------------------------ set-up
    def meta(self) -> dict[str, Any]:
        """Run metadata stored in the run file (no secrets)."""
        return {
            "scenario": str(self.scenario.folder), "town": self.scenario.name,
            "personas": {pid: {"name": p.name, "emoji": p.spec.emoji} for pid, p in self.personas.items()},
            "seed": self.config.seed, "ablate": self.config.ablate, "backend": self.backend.name,
            "embedder": self.embedder.name,
            "config": self.config.to_dict(), "start": self.clock.start.isoformat(sep=" "),
            "seconds_per_tick": self.clock.seconds_per_tick,
            "versions": {"town": __version__}, "map": self.tilemap.to_dict(),
        }

    @classmethod
    def from_run(cls, run_path: str | Path, snapshot: tuple[int, int, dict], *, config=None,
                 backend: ThinkingBackend | None = None, fork_to: str | Path | None = None) -> Simulation:
        """Continue a recorded run from one of its snapshots.

        Everything that can refuse is checked first: the run's town folder and persona files,
        the configuration, the model server (``make_backend``) and the embedder. Only then is
        the run cut back to the snapshot in one transaction (resume) or copied up to it into
        ``fork_to`` (fork), and the simulation writes on to that file. A failed check leaves
        every file as it was. Memory vectors come from the run's memories table.

        Args:
            run_path: the recorded run.
            snapshot: ``(tick, seq, state)`` of the snapshot to continue from
                (``recording.newest_snapshot``).
            config: configuration to go on with (default: the run's own).
            backend: thinking backend (default: built from ``config`` by ``make_backend``).
            fork_to: a new run file to fork into; None continues ``run_path`` itself (resume).

        Raises:
            RecordingError: for a missing or damaged run, or one another process writes;
            ConfigError if the town or a persona file is gone, or the embedder differs;
            ThinkingError when the model server cannot be reached.
        """
        from .config import Config
        from .errors import ConfigError
        from .recording import RunReader, RunWriter, fork_copy, truncate_after_snapshot
        from .scenario import load_scenario

        tick, seq, state = snapshot
        with RunReader(run_path) as reader:
            meta = reader.meta
            vectors = {}
            for pid in state["personas"]:
                rs = reader.stream_as_of(pid, seq + 1)
                vectors[pid] = (rs.ids, rs.embeddings)
        config = config or Config.from_dict(meta["config"])
        scenario = load_scenario(meta["scenario"])
        if backend is None:
            from .thinking.factory import make_backend

            backend = make_backend(config)  # checks a model server before anything is written
        sim = cls(scenario, config, backend=backend, bus=EventBus(start_seq=seq), seed_memories=False)
        try:
            recorded = meta.get("embedder")
            if recorded and recorded != sim.embedder.name:
                raise ConfigError(
                    f"{run_path}: its memories were embedded with {recorded!r}, but the configuration "
                    f"asks for {sim.embedder.name!r} (dim {sim.embedder.dim}); a run never mixes "
                    "embedders: keep the run's embedder", field="embedder")
            sim.bind_recorder()
            sim.set_state(state, vectors)
            if fork_to is None:
                truncate_after_snapshot(run_path, tick)
                path = Path(run_path)
            else:
                fork_copy(run_path, fork_to, tick)
                path = Path(fork_to)
            sim.run_path = path
            sim.writer = RunWriter.append(path)
        except BaseException:
            sim.close(finished=False)
            raise
        sim.writer.set_meta(config=config.to_dict(), seed=config.seed, ablate=config.ablate,
                            backend=sim.backend.name)
        sim.bus.subscribe(sim.writer.handle)
        return sim

    def bind_recorder(self) -> None:
        """Publish the backend's MODEL_CALL events with the persona's others, its STATUS at once."""
        recorder = getattr(self.backend, "recorder", None)
        if recorder is not None:
            recorder.bind(self.ctx.publish, announce=self.ctx.announce)

    def cancel(self) -> None:
        """End the model calls waiting now (stall, backoff, 429) and refuse new ones.

        A stop request when the tick does not end by itself: the tick then fails with
        :class:`~town.errors.RunStopped` and is not recorded.
        """
        stall = getattr(self.backend, "stall", None)
        if stall is not None:
            stall.cancel()

    def abandon(self, reason: str) -> None:
        """Give up the tick another thread is stuck in (a model request that does not end).

        Its events are not recorded and :meth:`close` takes no snapshot (the state is half a
        tick); the run file keeps the ticks before it.
        """
        self.interrupted = f"tick {self.clock.tick} was abandoned: {reason}"
        self._failed = False
        if self.writer is not None:
            self.writer.discard_tick()

    def _seed(self) -> None:
        """Write each persona's seeded memories and relationships (tick 0).

        A relationship from the persona file is long-known background, not news: it is written
        with importance ``RELATIONSHIP_IMPORTANCE`` instead of being rated.
        """
        for p in self.personas.values():
            items = [dict(kind=getattr(m, "kind", "observation") or "observation", content=m.content,
                          importance=m.importance, probe=m.probe) for m in p.spec.memories]
            for rel in getattr(p.spec, "relationships", ()) or ():
                other = self.ctx.names.get(rel.persona, rel.persona)
                items.append(dict(kind="observation", subject=rel.persona,
                                  content=_relationship_sentence(other, rel.description),
                                  importance=RELATIONSHIP_IMPORTANCE))
            remember_many(p, self.ctx, items)  # the rest rated in one request per persona

    # ------------------------------------------------------------------ the tick
    def _fire_scenario_events(self) -> None:
        events = self.scenario.events
        now = self.clock.now
        while self._next_event < len(events) and events[self._next_event].at <= now:
            ev = events[self._next_event]
            self._next_event += 1
            self._apply_scenario_event(ev)

    def _apply_scenario_event(self, ev) -> None:
        kind = ev.type.value if hasattr(ev.type, "value") else str(ev.type)
        data = {"type": kind, "at": ev.at.isoformat(sep=" ")}
        fields = dict(getattr(ev, "fields", {}) or {})
        data.update({k: v for k, v in fields.items() if isinstance(v, (str, int, float, list, tuple, type(None)))})
        if kind == "close_place":
            self.world.close(fields["place"])
        elif kind == "open_place":
            self.world.open(fields["place"])
        elif kind == "whisper":
            self.whisper(fields["persona"], fields["text"], probe=fields.get("probe"),
                         importance=fields.get("importance"))
        elif kind == "news":
            targets = fields.get("personas") or "all"
            ids = sorted(self.personas) if targets == "all" else list(targets)
            for pid in ids:
                observe(self.personas[pid], self.ctx, fields["text"], probe=fields.get("probe"))
        self.ctx.publish(EventKind.SCENARIO, None, data)

    def whisper(self, persona: str, text: str, *, probe: str | None = None,
                importance: int | None = None) -> int:
        """Inject an inner-voice memory (kind ``whisper``) into a persona; returns its id.

        ``probe`` names the evaluation probe the whisper seeds (measurement only; no decision
        reads it). ``importance`` is rated like any memory's when None.

        Raises:
            KeyError: for an unknown persona id.
        """
        p = self.personas[persona]
        record = remember(p, self.ctx, kind="whisper", content=text, probe=probe, importance=importance)
        self.ctx.publish(EventKind.WHISPER, persona, {"text": text, "memory": record.id})
        return record.id

    def _snapshot_views(self) -> dict[str, View]:
        views = {}
        minute = self.clock.now.hour * 60 + self.clock.now.minute
        for pid, p in self.personas.items():
            a = p.action
            address = self.tilemap.address_at(p.x, p.y) or ""
            if a is None:  # not decided yet (the first tick): what the routine says
                routine = p.spec.routine_at(minute).activity
                action, kind = routine, "sleep" if is_sleep(routine) else "idle"
            else:
                action, kind = a.description, a.kind
            views[pid] = View(id=pid, name=p.name, x=p.x, y=p.y, arena=arena_of(address), action=action,
                              kind=kind, address=a.address if a else address, conversation=p.conversation)
        return views

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
        self._fire_scenario_events()
        snapshot = self._snapshot_views()
        radius = self.config.perception.vision_radius
        sight = SightIndex(snapshot, radius)
        looks = {pid: look(p, snapshot, radius, index=sight) for pid, p in self.personas.items()
                 if pid not in self.players}
        self._embed_ahead([item["content"] for _, new in looks.values() for item in new])
        with self.procedures.reads_as_of_now():  # the shared library as at the tick's start
            wanted = self._concurrently([lambda p=p: self._decide(p, snapshot, looks.get(p.id))
                                         for p in self.personas.values()])
        intents = [(pid, *want) for pid, want in zip(self.personas, wanted) if want is not None]
        busy, pairs = set(), []
        for a, b, seq in intents:
            # both awake (in the snapshot and now) and within sight of each other
            if ({a, b} & busy or b in self.players or self.personas[b].conversation is not None
                    or self.personas[b].asleep or not (awake(snapshot[a]) and awake(snapshot[b]))
                    or not in_sight(snapshot[a], snapshot[b], radius)):
                continue
            busy |= {a, b}
            pairs.append((a, b, seq))
        # the pairs share nobody, so whether each b accepts is asked of all of them at once
        answers = self._concurrently([lambda a=a, b=b: self._answer_invitation(a, b) for a, b, _ in pairs])
        for (a, b, seq), accepted in zip(pairs, answers):
            if accepted is not None:
                self.open_conversation(a, b, seq, accepted)
        talking = [c for _, c in sorted(self.conversations.items())
                   if (self.clock.tick - c.start_tick) % LINE_EVERY_TICKS == 0
                   and not player_conversation(c, self.players)]
        ended = self._concurrently([lambda c=c: say_next_line(c, self.personas, ctx) for c in talking])
        for conv, done in zip(talking, ended):
            if done:  # the last line stays in this tick's frame; the next tick clears it
                self._said_last.update((conv.a, conv.b))
                del self.conversations[conv.id]
        for p in self.personas.values():
            move(p)
        ctx.publish(EventKind.FRAME, None, {"personas": self.frame()})
        tick = self.clock.tick
        self.clock.advance()
        every = max(1, int(round(self.config.recording.snapshot_every_hours * 3600 / self.clock.seconds_per_tick)))
        if self.clock.tick % every == 0:
            self.snapshot(tick)
        return self.clock.tick

    def _embed_ahead(self, texts: list[str]) -> None:
        """Embed a tick's new observations of every persona in one batch, before anyone decides.

        Only fills the embedding caches (the stream's embedder's, and the scripted importance
        rater's): each persona then writes and rates its own memories in its own turn as before,
        so what a decision can retrieve does not change, but the model runs once per tick instead
        of once per persona.
        """
        if not texts:
            return
        self.embedder.embed(sorted(set(texts)))
        if self.backend.name == "scripted":
            importance.prepare(texts)

    def _decide(self, p: Persona, snapshot: dict[str, View], looked):
        """One persona's decisions on the tick's snapshot (``looked``: its :func:`look` result).

        Returns:
            (whom it wants to talk to, the retrieval seq behind it), or None.
        """
        ctx = self.ctx
        if p.id in self.players:  # moved and voiced from the viewer
            return None
        seen = perceive(p, ctx, snapshot, looked=looked)
        planning = "planning" not in self.config.ablated
        if planning and (p.plan_date != ctx.now.date().isoformat() or p.needs_replan):
            plan_day(p, ctx)
        maybe_reflect(p, ctx)
        if p.conversation is not None:
            return None
        other = want_to_talk(p, ctx, seen)
        if other is None:
            decide_action(p, ctx, seen)
        return other

    def _concurrently(self, jobs: list) -> list:
        """Run independent jobs (a persona or a conversation each); publish events in job order.

        With a model backend they run in a thread pool, so calls within a tick overlap.
        """
        if self._pool is None:
            return [job() for job in jobs]
        futures = [self._pool.submit(self.ctx.buffered, job) for job in jobs]
        results = []
        for future in futures:
            result, events = future.result()
            self.ctx.flush(events)
            results.append(result)
        return results

    def _answer_invitation(self, a: str, b: str) -> int | SeqRef | None:
        """Ask ``b``, after retrieving what it knows of ``a``, whether it will talk with ``a``.

        When ``b`` declines, ``a`` goes on with its plan (``decide_action``).

        Returns:
            The seq of the retrieval behind ``b``'s acceptance, or None when it declined.
        """
        accept, accepted = accept_talk(self.personas[b], self.ctx, a, self.personas[a].name)
        if not accept:
            decide_action(self.personas[a], self.ctx)
            return None
        return accepted

    def open_conversation(self, a: str, b: str, decision: int | None, accepted: int | None) -> Conversation:
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
        cid = self._next_conversation
        self._next_conversation += 1
        conv = Conversation(id=cid, a=a, b=b, start_tick=self.clock.tick)
        self.conversations[cid] = conv
        for pid, other, seq in ((a, b, decision), (b, a, accepted)):
            p = self.personas[pid]
            p.conversation = cid
            p.path = []
            if p.action is not None and p.action.kind == "do" and p.pending is None:
                p.steps.insert(0, _resume_step(p.action, self.clock.tick, self.clock.seconds_per_tick))
            p.action = Action(description=f"talking with {self.personas[other].name}",
                              address=self.tilemap.address_at(p.x, p.y) or p.spec.home, emoji="💬",
                              start_tick=self.clock.tick, end_tick=self.clock.tick + 10**6, kind="talk")
            self.ctx.publish(EventKind.ACTION, pid, {
                "description": p.action.description, "address": p.action.address, "emoji": "💬",
                "kind": "talk", "start": p.action.start_tick, "end": None, "task": None,
                "decision": seq, "conversation": cid, "with": other})
        return conv

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
            vectors: include each stream's FAISS index and access log. Snapshots leave them
                out: the run file already holds every memory's embedding and every access, so a
                snapshot stays small (docs/design, §4) and :meth:`from_run` rebuilds them.
        """
        personas = {}
        # players belong to a live session: resume and fork go on without them
        played = [c for c in self.conversations.values() if {c.a, c.b} & self.players]
        for pid, p in self.personas.items():
            if pid in self.players:
                continue
            stream = p.stream.get_state()
            if not vectors:
                stream.pop("index")
                stream.pop("access_log")
            personas[pid] = {**p.get_state(), "stream": stream}
        for c in played:
            for pid in {c.a, c.b} - self.players:
                personas[pid].update(conversation=None, action=None, speech=None)
        return {
            "clock": self.clock.get_state(), "world": self.world.get_state(), "personas": personas,
            "conversations": [c.get_state() for c in self.conversations.values() if c not in played],
            "next_conversation": self._next_conversation, "next_event": self._next_event,
            "town_procedures": self.procedures.get_state(),
        }

    def set_state(self, state: dict[str, Any], vectors: dict[str, tuple] | None = None) -> None:
        """Restore from :meth:`get_state` output (resume and fork).

        Args:
            state: the state; streams without an ``index`` need ``vectors``.
            vectors: persona id -> (ids ``(n,) int64``, embeddings ``(n, d) float32``).
        """
        self.clock.set_state(state["clock"])
        self.world.set_state(state["world"])
        for pid, ps in state["personas"].items():
            p = self.personas[pid]
            p.set_state(ps)
            stream = dict(ps["stream"])
            if "index" not in stream:
                ids, emb = vectors[pid]
                index = VectorIndex(int(stream["dim"]))
                if len(ids):
                    index.add(np.ascontiguousarray(emb, dtype=np.float32), np.asarray(ids, dtype=np.int64))
                stream["index"] = index.to_base64()
                stream["access_log"] = []
            p.stream.set_state(stream)
        self.conversations = {c["id"]: Conversation.from_state(c) for c in state["conversations"]}
        self._said_last = {pid for pid, p in self.personas.items() if p.speech is not None and p.conversation is None}
        self._next_conversation = int(state["next_conversation"])
        self._next_event = int(state["next_event"])
        if "town_procedures" in state:
            self.procedures.set_state(state["town_procedures"])


#: Importance of a relationship seeded from a persona file (known background, Park et al. 2023
#: §4.1's mundane end of the scale).
RELATIONSHIP_IMPORTANCE = 3


def _relationship_sentence(other: str, description: str) -> str:
    """"Klaus Mueller is a regular at the cafe" from a persona file's relationship description."""
    if description[:2].lower() in ("a ", "an", "my", "th"):
        return f"{other} is {description}"
    return f"About {other}: {description}"


def _resume_step(action: Action, tick: int, seconds_per_tick: int):
    """The rest of an interrupted action as a step to pick up after a conversation."""
    from .persona import Step

    minutes = max(1, (action.end_tick - tick) * seconds_per_tick // 60)
    return Step(description=action.description, object=action.address, minutes=minutes, task=action.task)


