"""What each persona decides in a tick, on the same snapshot of the world (Park et al. 2023 §4).

Every persona sees the town as it was at the start of the tick (:func:`views`), then perceives,
plans its day when due, reflects when due, and either wants to talk to someone it sees or acts
on its plan. The addressed persona's answer to an invitation is a decision of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..mind import View, accept_talk, decide_action, maybe_reflect, perceive, plan_day, want_to_talk
from ..mind.context import SeqRef
from ..mind.perceive import arena_of
from ..mind.plan import is_sleep
from ..persona import Persona

if TYPE_CHECKING:
    from .core import Simulation

__all__ = ["views", "decide", "answer_invitation"]


def views(sim: Simulation) -> dict[str, View]:
    """The tick's snapshot: each persona's place and action as at the start of the tick."""
    views = {}
    minute = sim.clock.now.hour * 60 + sim.clock.now.minute
    for pid, p in sim.personas.items():
        a = p.action
        address = sim.tilemap.address_at(p.x, p.y) or ""
        if a is None:  # not decided yet (the first tick): what the routine says
            routine = p.spec.routine_at(minute).activity
            action, kind = routine, "sleep" if is_sleep(routine) else "idle"
        else:
            action, kind = a.description, a.kind
        views[pid] = View(id=pid, name=p.name, x=p.x, y=p.y, arena=arena_of(address), action=action,
                          kind=kind, address=a.address if a else address, conversation=p.conversation)
    return views


def decide(sim: Simulation, p: Persona, snapshot: dict[str, View],
           looked: tuple[list[View], list[dict]] | None) -> tuple[str, int | SeqRef] | None:
    """One persona's decisions on the tick's snapshot (``looked``: its :func:`look` result).

    Returns:
        (whom it wants to talk to, the retrieval seq behind it), or None.
    """
    ctx = sim.ctx
    if p.id in sim.players:  # moved and voiced from the viewer
        return None
    seen = perceive(p, ctx, snapshot, looked=looked)
    planning = "planning" not in sim.config.ablated
    if planning and (p.plan_date != ctx.now.date().isoformat() or p.needs_replan):
        plan_day(p, ctx)
    maybe_reflect(p, ctx)
    if p.conversation is not None:
        return None
    other = want_to_talk(p, ctx, seen)
    if other is None:
        decide_action(p, ctx, seen)
    return other


def answer_invitation(sim: Simulation, a: str, b: str) -> int | SeqRef | None:
    """Ask ``b``, after retrieving what it knows of ``a``, whether it will talk with ``a``.

    When ``b`` declines, ``a`` goes on with its plan (``decide_action``).

    Returns:
        The seq of the retrieval behind ``b``'s acceptance, or None when it declined.
    """
    accept, accepted = accept_talk(sim.personas[b], sim.ctx, a, sim.personas[a].name)
    if not accept:
        decide_action(sim.personas[a], sim.ctx)
        return None
    return accepted
