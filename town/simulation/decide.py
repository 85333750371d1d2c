"""What each persona decides in a tick, on the same snapshot of the world (Park et al. 2023 §4).

Every persona sees the town as it was at the start of the tick (``snapshot.Snapshot``), then perceives,
plans its day when due, reflects when due, and either wants to talk to someone it sees or acts
on its plan. The addressed persona's answer to an invitation is a decision of its own. Each is
a job (``town.simulation.jobs``): it changes only the minds it thinks for and hands back the rest
as effects.
"""

from __future__ import annotations

from ..mind import MindContext, accept_talk, decide_action, maybe_reflect, perceive, plan_day, want_to_talk
from ..mind.effects import Note
from ..persona import Persona
from .snapshot import Snapshot

__all__ = ["decide", "answer_invitation"]


def decide(p: Persona, snapshot: Snapshot, ctx: MindContext) -> tuple[str, Note] | None:
    """One persona's decisions on the tick's snapshot: a job (its effects in ``ctx.out``).

    Returns:
        (whom it wants to talk to, the retrieval behind it), or None.
    """
    seen = perceive(p, ctx, snapshot.appearances, looked=snapshot.looks[p.id])
    planning = "planning" not in ctx.config.ablated
    if planning and (p.plan_date != ctx.now.date().isoformat() or p.needs_replan):
        plan_day(p, ctx)
    maybe_reflect(p, ctx)
    if p.conversation is not None:
        return None
    other = want_to_talk(p, ctx, seen)
    if other is None:
        decide_action(p, ctx, seen)
    return other


def answer_invitation(a: Persona, b: Persona, ctx: MindContext) -> Note | None:
    """Ask ``b``, after retrieving what it knows of ``a``, whether it will talk with ``a``.

    When ``b`` declines, ``a`` goes on with its plan (``decide_action``).

    Returns:
        The retrieval behind ``b``'s acceptance, or None when it declined.
    """
    accept, accepted = accept_talk(b, ctx, a.id, a.name)
    if not accept:
        decide_action(a, ctx)
        return None
    return accepted
