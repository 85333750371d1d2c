"""Conversations in a tick: which wishes to talk start one, opening it, and its lines.

A persona who wants to talk names someone (``want_to_talk``); the pairs are formed in persona
id order from the tick's snapshot, each persona in at most one, both awake and within sight,
and the addressed one decides whether to accept. Opening a conversation stops both where they
are; an action it interrupts is picked up again as the first step after it. A conversation
says a line every ``LINE_EVERY_TICKS`` ticks until one side ends it. With a model backend, a
conversation already under way says its line as soon as both its speakers have decided
(:mod:`town.simulation.jobs`): nothing else in the tick reads or writes their minds.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import TYPE_CHECKING

from ..events import EventKind
from ..mind import Conversation, View, say_next_line
from ..mind.context import SeqRef
from ..mind.converse import LINE_EVERY_TICKS
from ..mind.perceive import awake, in_sight
from ..persona import Action, Step
from ..player import player_conversation
from .decisions import answer_invitation

if TYPE_CHECKING:
    from .core import Simulation

__all__ = ["start_conversations", "open_conversation", "due_lines", "talk"]


def start_conversations(sim: Simulation, intents: list[tuple[str, str, int | SeqRef]],
                        snapshot: dict[str, View], radius: int) -> None:
    """Open the conversations the tick's wishes to talk lead to.

    Args:
        sim: the simulation.
        intents: ``(who, whom, seq of the retrieval behind it)`` in persona id order.
        snapshot: the tick's views of every persona.
        radius: vision radius in tiles.
    """
    busy: set[str] = set()
    pairs = []
    for a, b, seq in intents:
        # both awake (in the snapshot and now) and within sight of each other
        # in a conversation at the tick's start (one ending this tick may end before this runs)
        if ({a, b} & busy or b in sim.players or snapshot[b].conversation is not None
                or sim.personas[b].asleep or not (awake(snapshot[a]) and awake(snapshot[b]))
                or not in_sight(snapshot[a], snapshot[b], radius)):
            continue
        busy |= {a, b}
        pairs.append((a, b, seq))
    # the pairs share nobody, so whether each b accepts is asked of all of them at once
    answers = sim._concurrently([lambda a=a, b=b: answer_invitation(sim, a, b) for a, b, _ in pairs])
    for (a, b, seq), accepted in zip(pairs, answers):
        if accepted is not None:
            sim.open_conversation(a, b, seq, accepted)


def due_lines(sim: Simulation) -> list[Conversation]:
    """The conversations due a line this tick (not a player's), in conversation id order."""
    return [c for _, c in sorted(sim.conversations.items())
            if (sim.clock.tick - c.start_tick) % LINE_EVERY_TICKS == 0
            and not player_conversation(c, sim.players)]


def talk(sim: Simulation, ahead: dict[int, Future] | None = None) -> None:
    """Say the next line of each conversation due one this tick (not a player's); end those done.

    Args:
        sim: the simulation.
        ahead: conversation id -> future of its line started ahead (during the decisions, as
            soon as both speakers had decided; :func:`~town.simulation.jobs.run_with_followers`),
            with its events held back. Those conversations were open before this tick, so their
            ids come before any opened in it, and their events are published first, as if said
            here.
    """
    ahead = ahead or {}
    talking = due_lines(sim)
    said = {}
    for conv in talking:
        if conv.id in ahead:
            said[conv.id], events = ahead[conv.id].result()
            sim.ctx.flush(events)
    rest = [c for c in talking if c.id not in ahead]
    for conv, done in zip(rest, sim._concurrently(
            [lambda c=c: say_next_line(c, sim.personas, sim.ctx) for c in rest]), strict=True):
        said[conv.id] = done
    for conv in talking:
        if said[conv.id]:  # the last line stays in this tick's frame; the next tick clears it
            sim._said_last.update((conv.a, conv.b))
            del sim.conversations[conv.id]


def open_conversation(sim: Simulation, a: str, b: str, decision: int | SeqRef | None,
                      accepted: int | SeqRef | None) -> Conversation:
    """Open a conversation of ``a`` and ``b`` (:meth:`Simulation.open_conversation`)."""
    cid = sim._next_conversation
    sim._next_conversation += 1
    conv = Conversation(id=cid, a=a, b=b, start_tick=sim.clock.tick)
    sim.conversations[cid] = conv
    for pid, other, seq in ((a, b, decision), (b, a, accepted)):
        p = sim.personas[pid]
        p.conversation = cid
        p.path = []
        if p.action is not None and p.action.kind == "do" and p.pending is None:
            p.steps.insert(0, _resume_step(p.action, sim.clock.tick, sim.clock.seconds_per_tick))
        p.action = Action(description=f"talking with {sim.personas[other].name}",
                          address=sim.tilemap.address_at(p.x, p.y) or p.spec.home, emoji="💬",
                          start_tick=sim.clock.tick, end_tick=sim.clock.tick + 10**6, kind="talk")
        sim.ctx.publish(EventKind.ACTION, pid, {
            "description": p.action.description, "address": p.action.address, "emoji": "💬",
            "kind": "talk", "start": p.action.start_tick, "end": None, "task": None,
            "decision": seq, "conversation": cid, "with": other})
    return conv


def _resume_step(action: Action, tick: int, seconds_per_tick: int) -> Step:
    """The rest of an interrupted action as a step to pick up after a conversation."""
    minutes = max(1, (action.end_tick - tick) * seconds_per_tick // 60)
    return Step(description=action.description, object=action.address, minutes=minutes, task=action.task)
