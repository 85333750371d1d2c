"""A procedure library: save after verified success, retrieve by ``when``, feedback, state.

One library per persona plus a shared town library (docs/design, §2; Voyager's skill library, Wang et
al. 2023). Procedures are few (tens), so similarity is an exact numpy dot product over
L2-normalised embeddings; vectors are re-embedded on :meth:`ProcedureLibrary.set_state`.
Pruning rules: :mod:`~town.procedures.pruning`; composites: :mod:`~town.procedures.expansion`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import numpy as np

from ..embedding import Embedder
from .expansion import expand_steps, fill_steps
from .procedure import Procedure, ProcedureError, ProcedureStatus, ProcedureStep
from .pruning import PruneRule, prune_rule

__all__ = [
    "ProcedureLibrary",
    "Match",
    "DEDUP_SIMILARITY",
]

#: A save whose name or ``when`` is more similar than this (cosine) to a kept procedure
#: updates that procedure instead of adding another (docs/design, §2).
DEDUP_SIMILARITY = 0.9
_EPS = 1e-12  # 3/5 must pass a 0.6 threshold whatever the float rounding


@dataclass(frozen=True, kw_only=True)
class Match:
    """A retrieved procedure and the cosine similarity of its ``when`` to the task."""

    procedure: Procedure
    similarity: float


def _locked(method):
    """Run a library method under the library's lock (thread safety, not ordering)."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class ProcedureLibrary:
    """Procedures of one persona (or of the town), keyed by unique name.

    Args:
        embedder: ``when`` and names are embedded with it.
        threshold: least reliability for retrieval, in [0, 1] (config ``procedures.threshold``).
        k: how many procedures :meth:`retrieve` returns at most (docs/design, §2: 2).

    Raises:
        ProcedureError: for a threshold outside [0, 1] or k < 1.
    """

    def __init__(self, embedder: Embedder, *, threshold: float = 0.6, k: int = 2):
        if not 0.0 <= threshold <= 1.0:
            raise ProcedureError(f"procedures.threshold must be in [0, 1], got {threshold}")
        if k < 1:
            raise ProcedureError(f"procedure retrieval k must be >= 1, got {k}")
        self._embedder = embedder
        self.threshold = float(threshold)
        self.k = int(k)
        self._lock = threading.RLock()  # the town library is shared by personas deciding in a pool
        self._procs: dict[str, Procedure] = {}
        self._vectors: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # name -> (name, when) (d,)
        self._frozen: tuple[dict, dict] | None = None  # what retrieve/expand read in a tick

    @contextmanager
    def reads_as_of_now(self) -> Iterator[None]:
        """Within the block, :meth:`retrieve` and :meth:`expand` see the library as it is now.

        The town library is shared by personas that decide concurrently within a tick; a
        procedure one of them saves or updates that tick reaches the others' retrievals from the
        next tick on, whatever the threads' timing, so a run stays deterministic. Writes go on
        as usual (in persona order: the apply step makes each ``LibraryChange``). Procedures
        are immutable, so the view is two shallow dict copies.
        """
        with self._lock:
            self._frozen = (dict(self._procs), dict(self._vectors))
        try:
            yield
        finally:
            with self._lock:
                self._frozen = None

    def _reads(self) -> tuple[dict[str, Procedure], dict[str, tuple[np.ndarray, np.ndarray]]]:
        """(procedures, vectors) that retrieval and expansion read: frozen in a tick, else live."""
        return self._frozen or (self._procs, self._vectors)

    def _read(self, name: str) -> tuple[Procedure, dict[str, Procedure]]:
        """Procedure ``name`` and the procedures around it, as :meth:`_reads` sees them.

        Raises:
            ProcedureError: for an unknown name.
        """
        procs, _ = self._reads()
        if name not in procs:
            raise ProcedureError(f"no procedure named {name!r} in the library")
        return procs[name], procs

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        return len(self._procs)

    def __contains__(self, name: object) -> bool:
        return name in self._procs

    def procedures(self) -> tuple[Procedure, ...]:
        """All procedures, pruned ones included, in the order they were first saved."""
        return tuple(self._procs.values())

    def get(self, name: str) -> Procedure:
        """The procedure called ``name``.

        Raises:
            ProcedureError: for an unknown name.
        """
        try:
            return self._procs[name]
        except KeyError:
            raise ProcedureError(f"no procedure named {name!r} in the library") from None

    def is_reliable(self, procedure: Procedure) -> bool:
        """True if ``reliability >= threshold`` (the retrieval filter)."""
        return procedure.reliability >= self.threshold - _EPS

    def status(self, procedure: Procedure) -> ProcedureStatus:
        """Active, below threshold, or pruned."""
        if procedure.pruned is not None:
            return ProcedureStatus.PRUNED
        return (
            ProcedureStatus.ACTIVE
            if self.is_reliable(procedure)
            else ProcedureStatus.BELOW_THRESHOLD
        )

    def describe(self, name: str) -> dict[str, Any]:
        """``Procedure.to_dict()`` plus ``status`` and ``threshold``: what a viewer shows."""
        p = self.get(name)
        return {**p.to_dict(), "status": self.status(p).value, "threshold": self.threshold}

    # ------------------------------------------------------------------ saving
    def _embed(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._embedder.embed(texts), dtype=np.float32)

    def _store(self, procedure: Procedure) -> None:
        v = self._embed([procedure.name, procedure.when])
        self._procs[procedure.name] = procedure
        self._vectors[procedure.name] = (v[0], v[1])

    def _track(self, procedure: Procedure, now: datetime) -> Procedure:
        """Set or clear ``below_since`` after the counts changed."""
        if self.is_reliable(procedure):
            return replace(procedure, below_since=None)
        return (
            procedure if procedure.below_since is not None else replace(procedure, below_since=now)
        )

    def duplicate_of(self, procedure: Procedure) -> Procedure | None:
        """The kept (not pruned) procedure whose name or ``when`` is > 0.9 similar, most similar."""
        if not self._procs:
            return None
        v = self._embed([procedure.name, procedure.when])
        best, best_sim = None, DEDUP_SIMILARITY
        for name, p in self._procs.items():
            if p.pruned is not None:
                continue
            vn, vw = self._vectors[name]
            sim = max(float(vn @ v[0]), float(vw @ v[1]))
            if sim > best_sim:
                best, best_sim = p, sim
        return best

    @_locked
    def save(self, procedure: Procedure, *, now: datetime) -> tuple[Procedure, bool]:
        """Save a procedure generalised from a verified success, or update its near-duplicate.

        A near-duplicate (name or ``when`` cosine > 0.9, not pruned) takes the new steps and adds
        the new counts, so a second verified success of the same task becomes successes + 1.

        Args:
            procedure: the generalised procedure (usually successes=1, failures=0).
            now: game datetime (``last_used`` of an updated procedure).

        Returns:
            (the stored procedure, True if an existing one was updated).

        Raises:
            ProcedureError: if a step names an unknown procedure or the steps form a cycle.
        """
        dup = self.duplicate_of(procedure)
        if dup is not None:
            updated = dup.with_counts(
                successes=dup.successes + procedure.successes,
                failures=dup.failures + procedure.failures,
                steps=procedure.steps,
                last_used=now,
            )
            self.check_composition(updated)
            updated = self._track(updated, now)
            self._procs[dup.name] = updated
            return updated, True
        name, n = procedure.name, 2
        while name in self._procs:  # a pruned namesake is kept for the record
            name, n = f"{procedure.name} ({n})", n + 1
        new = self._track(replace(procedure, name=name), now)
        self.check_composition(new)
        self._store(new)
        return new, False

    # ------------------------------------------------------------------ retrieval + feedback
    @_locked
    def retrieve(self, task: str) -> list[Match]:
        """Procedures for ``task``: reliability >= threshold, not pruned, top k by ``when`` cosine.

        Ties in similarity go to the higher reliability, then the name.

        Returns:
            At most ``k`` matches, most similar first.
        """
        procs, vectors = self._reads()
        eligible = [p for p in procs.values() if p.pruned is None and self.is_reliable(p)]
        if not eligible:
            return []
        q = self._embed([task])[0]
        scored = [
            Match(procedure=p, similarity=float(vectors[p.name][1] @ q)) for p in eligible
        ]
        scored.sort(key=lambda m: (-m.similarity, -m.procedure.reliability, m.procedure.name))
        return scored[: self.k]

    @_locked
    def record_use(self, name: str, *, now: datetime) -> Procedure:
        """Mark a procedure as being followed from ``now`` (``last_used``); counts wait for the outcome.

        Raises:
            ProcedureError: for an unknown or pruned procedure.
        """
        p = self.get(name)
        if p.pruned is not None:
            raise ProcedureError(f"procedure {name!r} was pruned ({p.pruned}); it cannot be used")
        self._procs[name] = replace(p, last_used=now)
        return self._procs[name]

    @_locked
    def record_outcome(self, name: str, *, success: bool, now: datetime) -> Procedure:
        """Feedback after a use: successes + 1 or failures + 1 (docs/design, §2).

        Raises:
            ProcedureError: for an unknown procedure.
        """
        p = self.get(name)
        p = p.with_counts(
            successes=p.successes + int(success), failures=p.failures + int(not success)
        )
        self._procs[name] = self._track(p, now)
        return self._procs[name]

    @_locked
    def prune(self, now: datetime) -> list[tuple[Procedure, PruneRule]]:
        """Apply the three pruning rules (:func:`~town.procedures.pruning.prune_rule`) to every kept procedure.

        A pruned procedure stays, marked, never retrieved.

        Returns:
            The newly pruned procedures with the rule that fired, in library order.
        """
        out = []
        for name, p in list(self._procs.items()):
            if p.pruned is not None:
                continue
            rule = prune_rule(p, now)
            if rule is not None:
                self._procs[name] = replace(p, pruned=rule.value, pruned_at=now)
                out.append((self._procs[name], rule))
        return out

    # ------------------------------------------------------------------ composition
    def check_composition(self, procedure: Procedure) -> None:
        """Refuse unknown sub-procedures and cycles (expanding with ``procedure`` in place).

        Raises:
            ProcedureError: naming the unknown procedure or the cycle.
        """
        expand_steps(procedure, {**self._procs, procedure.name: procedure})

    def expand(self, name: str, values: dict[str, str] | None = None) -> list[ProcedureStep]:
        """The action steps of ``name`` with sub-procedures expanded recursively, in order.

        Args:
            name: procedure name.
            values: parameter -> concrete value; when given, the step texts are filled in.

        Raises:
            ProcedureError: unknown procedure, a composition cycle (naming it), or a parameter
                without a value.
        """
        procedure, procs = self._read(name)
        steps = expand_steps(procedure, procs)
        return steps if values is None else fill_steps(steps, values)

    def calls(self, name: str) -> list[tuple[str, int, int]]:
        """The sub-procedures ``name`` calls, at every depth, over its expanded steps.

        Returns:
            ``(sub-procedure name, lo, hi)`` each: it covers ``expand(name)[lo:hi]``; inner calls
            come before the call that holds them. Empty for a flat procedure.

        Raises:
            ProcedureError: unknown procedure or a composition cycle.
        """
        procedure, procs = self._read(name)
        spans: list[tuple[str, int, int]] = []
        expand_steps(procedure, procs, spans=spans)
        return spans

    # ------------------------------------------------------------------ state
    @_locked
    def get_state(self) -> dict[str, Any]:
        """JSON-able: ``{"threshold", "procedures": [Procedure.to_dict() + "status"]}``."""
        return {
            "threshold": self.threshold,
            "procedures": [self.describe(name) for name in self._procs],
        }

    @_locked
    def set_state(self, state: dict[str, Any]) -> None:
        """Restore procedures from :meth:`get_state` output (the threshold stays the config's).

        Raises:
            ProcedureError: for a malformed procedure, naming the field.
        """
        procs = [Procedure.from_dict(d) for d in state["procedures"]]
        self._procs, self._vectors = {}, {}
        for p in procs:
            self._store(p)
