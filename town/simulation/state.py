"""A simulation in its run file: the run's meta, snapshots of its state, restoring one, going on.

A snapshot leaves out each memory stream's records, FAISS index and access log: the run file
already holds every memory, its embedding and every access (docs/design, §4), so the stream is
rebuilt from the memories table when a run goes on (resume or fork).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from .. import __version__
from ..clock import GameClock
from ..config import Config
from ..embedding import Embedder
from ..events import EventBus
from ..persona import Persona
from ..procedures import ProcedureLibrary
from ..recording import RunWriter
from ..scenario import Scenario, check_persona_files, persona_fingerprints
from ..thinking.backend import ThinkingBackend
from ..world import TileMap, World
from .conversations import Conversations
from .timeline import Timeline

if TYPE_CHECKING:
    from ..backends import ThinkingParts
    from ..thinking.wrappers import CallRecorder

__all__ = ["Composed", "meta_of", "state_of", "restore", "continue_run"]


class Composed(Protocol):
    """What a run's meta, a snapshot and going on read of a simulation (``Simulation`` is one)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def config(self) -> Config: ...
    @property
    def tilemap(self) -> TileMap: ...
    @property
    def world(self) -> World: ...
    @property
    def backend(self) -> ThinkingBackend: ...
    @property
    def embedder(self) -> Embedder: ...
    @property
    def bus(self) -> EventBus: ...
    @property
    def clock(self) -> GameClock: ...
    @property
    def personas(self) -> Mapping[str, Persona]: ...
    @property
    def players(self) -> frozenset[str]: ...
    @property
    def conversations(self) -> Conversations: ...
    @property
    def timeline(self) -> Timeline: ...
    @property
    def procedures(self) -> ProcedureLibrary: ...
    def bind_recorder(self, recorder: CallRecorder | None) -> None: ...
    def set_state(self, state: dict[str, Any], vectors: dict[str, tuple] | None = None) -> None: ...
    def record_to(self, path: Path, writer: RunWriter) -> None: ...
    def close(self, *, finished: bool = True) -> None: ...


S = TypeVar("S", bound=Composed)


def meta_of(sim: Composed) -> dict[str, Any]:
    """Run metadata stored in the run file (no secrets)."""
    return {
        # absolute: `--town my_town` from another working directory is another folder, or none
        "scenario": str(Path(sim.scenario.folder).absolute()), "town": sim.scenario.name,
        "personas": {pid: {"name": p.name, "emoji": p.spec.emoji} for pid, p in sim.personas.items()},
        "seed": sim.config.seed, "ablate": sim.config.ablate, "backend": sim.backend.name,
        "embedder": sim.embedder.name,
        "config": sim.config.to_dict(), "start": sim.clock.start.isoformat(sep=" "),
        "seconds_per_tick": sim.clock.seconds_per_tick,
        "versions": {"town": __version__}, "map": sim.tilemap.to_dict(),
        "persona_files": persona_fingerprints(sim.scenario),
    }


def state_of(sim: Composed, *, vectors: bool = False) -> dict[str, Any]:
    """JSON-able full state (:meth:`Simulation.get_state`)."""
    personas = {}
    # players belong to a live session: resume and fork go on without them
    players = sim.players
    played = [c for c in sim.conversations if {c.a, c.b} & players]
    for pid, p in sim.personas.items():
        if pid in players:
            continue
        personas[pid] = {**p.get_state(), "stream": p.stream.get_state(vectors=vectors)}
    for c in played:
        for pid in {c.a, c.b} - players:
            personas[pid].update(conversation=None, action=None, speech=None)
    talk = sim.conversations.get_state(players)
    return {
        "clock": sim.clock.get_state(), "world": sim.world.get_state(), "personas": personas,
        "conversations": talk["conversations"], "next_conversation": talk["next_conversation"],
        "next_event": sim.timeline.fired, "town_procedures": sim.procedures.get_state(),
    }


def restore(sim: Composed, state: dict[str, Any],
            vectors: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> None:
    """Restore from :func:`state_of` output (:meth:`Simulation.set_state`)."""
    sim.clock.set_state(state["clock"])
    sim.world.set_state(state["world"])
    for pid, ps in state["personas"].items():
        p = sim.personas[pid]
        p.set_state(ps)
        stream = ps["stream"]
        p.stream.set_state(stream, vectors=None if "index" in stream or vectors is None else vectors[pid])
    sim.conversations.set_state(state["conversations"], state["next_conversation"])
    sim.timeline.set_fired(state["next_event"])
    if "town_procedures" in state:
        sim.procedures.set_state(state["town_procedures"])


def continue_run(make: Callable[[Scenario, Config, ThinkingParts, EventBus], S], run_path: str | Path,
                 snapshot: tuple[int, int, dict[str, Any]], *, config: Config | None = None,
                 backend: ThinkingBackend | None = None, fork_to: str | Path | None = None) -> S:
    """Continue a recorded run from one of its snapshots.

    Everything that can refuse is checked first: the run's town folder and persona files
    (on resume, each must match the run's meta ``persona_files``: no field edited, none added
    or gone; a run recorded before that key is not checked), the configuration, the model
    server (``make_backend``) and the embedder. Only then is the run cut back to the snapshot
    in one transaction (resume) or copied up to it into ``fork_to`` (fork), and the simulation
    writes on to that file, recording the persona files it goes on with. A failed check leaves
    every file as it was. Memory records and vectors come from the run's memories table.

    Args:
        make: builds the simulation (scenario, config, the backend's parts, bus), its memories not
            seeded.
        run_path: the recorded run.
        snapshot: ``(tick, seq, state)`` of the snapshot to continue from
            (``recording.newest_snapshot``).
        config: configuration to go on with (default: the run's own).
        backend: thinking backend (default: built from ``config`` by ``make_backend``).
        fork_to: a new run file to fork into; None continues ``run_path`` itself (resume).

    Raises:
        RecordingError: for a missing or damaged run, or one another process writes;
        ConfigError if the town or a persona file is gone, a persona file was edited since
        the run started (resume), or the embedder differs;
        ThinkingError when the model server cannot be reached.
    """
    from ..errors import ConfigError
    from ..recording import RunReader, fork_copy, truncate_after_snapshot
    from ..scenario import load_scenario

    tick, seq, state = snapshot
    with RunReader(run_path) as reader:
        meta = reader.meta
        vectors = {}
        for pid, ps in state["personas"].items():
            rs = reader.stream_as_of(pid, seq + 1)
            vectors[pid] = (rs.ids, rs.embeddings)
            ps["stream"]["records"] = reader.stream_records(pid, seq + 1)
    config = config or Config.from_dict(meta["config"])
    if not Path(meta["scenario"]).is_dir():  # else load_scenario's line reads as if --town named it
        raise ConfigError(f"was recorded in the town folder {meta['scenario']}, which is gone; put that folder "
                          "back to go on from this run", file=run_path)
    scenario = load_scenario(meta["scenario"])
    if fork_to is None and meta.get("persona_files") is not None:
        check_persona_files(meta["persona_files"], scenario)
    from ..backends import ThinkingParts, make_backend

    # a model server is checked before anything is written
    # the run's importance calibration is kept: a resumed run rates as the uninterrupted one
    parts = (make_backend(config, calibration=meta.get("importance_calibration")) if backend is None
             else ThinkingParts(backend=backend))
    sim = make(scenario, config, parts, EventBus(start_seq=seq))
    try:
        recorded = meta.get("embedder")
        if recorded and recorded != sim.embedder.name:
            raise ConfigError(
                f"{run_path}: its memories were embedded with {recorded!r}, but the configuration "
                f"asks for {sim.embedder.name!r} (dim {sim.embedder.dim}); a run never mixes "
                "embedders: keep the run's embedder", field="embedder")
        sim.bind_recorder(parts.recorder)
        sim.set_state(state, vectors)
        if fork_to is None:
            truncate_after_snapshot(run_path, tick)
            path = Path(run_path)
        else:
            fork_copy(run_path, fork_to, tick)
            path = Path(fork_to)
        writer = RunWriter.append(path)
    except BaseException:
        sim.close(finished=False)
        raise
    writer.set_meta(config=config.to_dict(), seed=config.seed, ablate=config.ablate,
                    backend=sim.backend.name, persona_files=persona_fingerprints(scenario))
    if parts.calibration is not None:  # the run's own decision, or a first one (a fork to a model)
        writer.set_meta(importance_calibration=parts.calibration.to_meta())
    sim.record_to(path, writer)
    return sim
