"""The mind's hold on procedural memory: a persona's, reached for use, and the event each use publishes.

Every save, use, outcome, deviation and prune of a procedure is a PROCEDURE event carrying the
procedure as its library describes it, so a recorded run shows how each library grew and was
used (docs/design, §2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ProcedureError
from ..events import EventKind
from ..persona import Persona
from ..procedures import ProceduralMemory, ProcedureLibrary
from .context import MindContext

__all__ = ["memory_of", "publish_procedure", "on_library"]


def memory_of(p: Persona) -> ProceduralMemory:
    """The persona's procedural memory.

    Raises:
        ProcedureError: for a persona without one (a player: no mind carries out its tasks).
    """
    if p.procedures is None:
        raise ProcedureError(f"{p.id} has no procedural memory")
    return p.procedures


def publish_procedure(p: Persona, ctx: MindContext, op: str, which: str, lib: ProcedureLibrary, name: str,
                      **data: Any) -> None:
    """Publish a PROCEDURE event about procedure ``name`` of ``lib`` (the town's in turn).

    Args:
        p: the persona whose mind acted.
        ctx: the mind's context.
        op: "save" | "use" | "outcome" | "deviation" | "prune".
        which: "persona" (the persona's own library) or "town" (the shared one).
        lib: that library (its ``describe(name)`` goes into the event).
        name: the procedure's name.
        **data: the op's own fields (task, place, result, reason, ...).
    """
    on_library(ctx, which, lambda: ctx.publish(
        EventKind.PROCEDURE,
        p.id,
        {
            "op": op,
            "library": "town" if which == "town" else p.id,
            "name": name,
            "procedure": lib.describe(name),
            **data,
        },
    ))


def on_library(ctx: MindContext, which: str, work: Callable[[], Any]) -> None:
    """Make a change to library ``which`` (and publish its events) with ``work()``.

    The town library is shared: its changes are made in turn (:meth:`MindContext.in_turn`), so
    concurrent decisions change it in persona order, as a sequential run would. A persona's
    own library is only ever touched by its own jobs: changed at once.
    """
    if which == "town":
        ctx.in_turn(work)
    else:
        work()
