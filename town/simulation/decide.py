"""What each persona decides in a tick, on the same snapshot of the world (Park et al. 2023 §4).

Every persona sees the town as it was at the start of the tick (``snapshot.Snapshot``), then perceives,
plans its day when due, reflects when due, and either wants to talk to someone it sees or acts
on its plan. The addressed persona's answer to an invitation is a decision of its own; two who
talk whole decide and talk in one request instead (:func:`open_whole`). Each is a job
(``town.simulation.jobs``): it changes only the minds it thinks for and hands back the rest as
effects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from ..mind import MindContext, accept_talk, decide_action, maybe_reflect, perceive, plan_day, want_to_talk
from ..mind.converse import Opening, start_whole, whole_side
from ..mind.effects import Note
from ..persona import Persona
from ..thinking.questions import Side
from .jobs import Thought
from .snapshot import Snapshot

__all__ = ["decide", "answer_invitation", "open_whole"]


def decide(p: Persona, snapshot: Snapshot, ctx: MindContext,
           whole: Callable[[str], bool] = lambda other: False) -> tuple[str, Note | None] | None:
    """One persona's decisions on the tick's snapshot: a job (its effects in ``ctx.out``).

    ``whole(other id)``: whether ``p`` and that persona talk whole (then the exchange decides,
    :func:`open_whole`).

    Returns:
        (whom it wants to talk to, the retrieval behind it; None when the exchange decides), or None.
    """
    seen = perceive(p, ctx, snapshot.appearances, looked=snapshot.looks[p.id])
    planning = "planning" not in ctx.config.ablated
    if planning and (p.plan_date != ctx.now.date().isoformat() or p.needs_replan):
        plan_day(p, ctx)
    maybe_reflect(p, ctx)
    if p.conversation is not None:
        return None
    other = want_to_talk(p, ctx, seen, whole)
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


def open_whole(a: Persona, b: Persona, personas: Mapping[str, Persona], ctx: MindContext,
               side: Callable[[Sequence[Callable[[MindContext], tuple[Side, Note]]]], list[Thought[tuple[Side, Note]]]]
               ) -> Opening | None:
    """``a`` saw ``b`` and they would talk whole: both retrieve side by side (``side`` runs
    independent jobs, their thoughts in order), then one request decides and writes the
    exchange (``town.mind.converse.start_whole``). When ``a`` does not start it, ``a`` goes on
    with its plan (``decide_action``).

    Returns:
        The exchange to open, or None when ``a`` declined.
    """
    thoughts = side([partial(whole_side, p, other) for p, other in ((a, b), (b, a))])
    for thought in thoughts:
        ctx.out.extend(thought.effects)
    opening = start_whole(a, b, (thoughts[0].result, thoughts[1].result), personas, ctx)
    if opening is None:
        decide_action(a, ctx)
    return opening
