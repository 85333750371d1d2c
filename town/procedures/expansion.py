"""Composition: a procedure's steps with the sub-procedures it calls expanded, and cycles refused.

A step may name another procedure instead of an action; expanding replaces it by that
procedure's action steps, recursively (docs/design, §2). A procedure that would call itself,
directly or through others, is refused naming the cycle.
"""

from __future__ import annotations

from collections.abc import Mapping

from .procedure import Procedure, ProcedureError, ProcedureStep, fill

__all__ = ["expand_steps", "fill_steps"]


def expand_steps(
    p: Procedure,
    procs: Mapping[str, Procedure],
    path: tuple[str, ...] = (),
    spans: list[tuple[str, int, int]] | None = None,
    out: list[ProcedureStep] | None = None,
) -> list[ProcedureStep]:
    """Append ``p``'s action steps to ``out``; each sub-procedure's ``(name, lo, hi)`` to ``spans``.

    Args:
        p: the procedure to expand.
        procs: name -> procedure, where the names its steps call are looked up.
        path: the names being expanded around ``p`` (outermost first), to find a cycle.
        spans: when given, gets ``(sub-procedure name, lo, hi)`` for each call at every depth:
            it covers ``out[lo:hi]``; inner calls come before the call that holds them.
        out: the list to append to (a new one when None).

    Returns:
        ``out``: the action steps in order, parameters unfilled.

    Raises:
        ProcedureError: naming an unknown sub-procedure or the cycle.
    """
    path = (*path, p.name)
    out = [] if out is None else out
    for step in p.steps:
        if step.procedure is None:
            out.append(step)
            continue
        if step.procedure in path:
            cycle = " -> ".join((*path[path.index(step.procedure) :], step.procedure))
            raise ProcedureError(
                f"procedure {path[0]!r}: composition cycle {cycle}; "
                "a procedure may not include itself"
            )
        sub = procs.get(step.procedure)
        if sub is None:
            raise ProcedureError(
                f"procedure {p.name!r}: step names unknown procedure {step.procedure!r}"
            )
        lo = len(out)
        expand_steps(sub, procs, path, spans, out)
        if spans is not None:
            spans.append((sub.name, lo, len(out)))
    return out


def fill_steps(steps: list[ProcedureStep], values: dict[str, str]) -> list[ProcedureStep]:
    """The steps with their description and object filled in from ``values``.

    Raises:
        ProcedureError: for a parameter without a value.
    """
    return [
        ProcedureStep(
            description=fill(s.description, values),
            object=fill(s.object, values),
            minutes=s.minutes,
        )
        for s in steps
    ]
