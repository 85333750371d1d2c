"""A persona's procedural memory reached for use, the PROCEDURE event each use notes, and when a
library changes.

Every save, use, outcome, deviation and prune of a procedure is a PROCEDURE event carrying the
procedure as its library describes it, so a recorded run shows how each library grew and was
used (docs/design, §2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import ProcedureError
from ...events import EventKind
from ...persona import Persona
from ...procedures import ProceduralMemory, ProcedureLibrary
from ..context import MindContext
from ..effects import LibraryChange, Outbox

__all__ = ["memory_of", "note_procedure", "on_library"]


def memory_of(p: Persona) -> ProceduralMemory:
    """The persona's procedural memory.

    Raises:
        ProcedureError: for a persona without one (a player: no mind carries out its tasks).
    """
    if p.procedures is None:
        raise ProcedureError(f"{p.id} has no procedural memory")
    return p.procedures


def note_procedure(out: Outbox, p: Persona, op: str, which: str, lib: ProcedureLibrary, name: str,
                   **data: Any) -> None:
    """Note a PROCEDURE event about procedure ``name`` of ``lib``, as the library describes it now.

    Args:
        out: the outbox of the job (or of the town library's change) the event belongs to.
        p: the persona whose mind acted.
        op: "save" | "use" | "outcome" | "deviation" | "prune".
        which: "persona" (the persona's own library) or "town" (the shared one).
        lib: that library (its ``describe(name)`` goes into the event).
        name: the procedure's name.
        **data: the op's own fields (task, place, result, reason, ...).
    """
    out.note(EventKind.PROCEDURE, p.id, {"op": op, "library": "town" if which == "town" else p.id,
                                         "name": name, "procedure": lib.describe(name), **data})


def on_library(ctx: MindContext, which: str, work: Callable[[Outbox], Any]) -> None:
    """Change library ``which`` with ``work(out)``, which notes the change's events in ``out``.

    A persona's own library is its mind's: changed now, by the job that owns it. The town
    library is shared: its change is a :class:`~town.mind.effects.LibraryChange`, made when the
    job's effects are applied, so the personas change it in persona order whatever the threads'
    timing.
    """
    if which == "town":
        ctx.out.add(LibraryChange(work))
    else:
        work(ctx.out)
