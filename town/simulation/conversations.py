"""Conversations: their owner, which wishes to talk start one, and a conversation's turn.

A persona who wants to talk names someone (``want_to_talk``); the pairs are formed in persona
id order from the tick's snapshot, each persona in at most one, both awake and within sight
(:func:`pairs`), and the addressed one decides whether to accept (a player, who has no mind,
is taken to accept: it answers in words from the viewer, or stays silent until the persona's
patience ends the talk, ``town.player``). :meth:`Conversations.open`
stops both where they are; an action it interrupts is picked up again as the first step after
it. A conversation says a line every ``LINE_EVERY_TICKS`` ticks until one side ends it
(:func:`turn`: the line, then, when it is over, both sides' summaries side by side). A model
backend's conversation in ``[conversation] mode = "whole"`` is decided and written by one request
before it opens (``town.mind.converse.start_whole``: no one is asked first whether to talk) and
said a line per turn as written, without summaries.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from ..clock import GameClock
from ..events import EventKind
from ..mind import Conversation, MindContext, Appearance
from ..mind.converse import LINE_EVERY_TICKS, conversation_over, end_written, say_next_line, say_written_line, summarise
from ..mind.perceive import awake, in_sight
from ..persona import Action, Persona, Step
from .jobs import Thought

__all__ = ["Conversations", "pairs", "turn"]


class Conversations:
    """The open conversations, their ids, whose conversation ended last tick, a player's waits.

    Args:
        personas: persona id -> persona (who enters and leaves).
        clock: the world clock.
        address_at: tile -> its address ("" or None off the map).
        publish: publishes an event of the simulation's own; returns its seq.
    """

    def __init__(self, personas: Mapping[str, Persona], clock: GameClock,
                 address_at: Callable[[int, int], str | None], publish: Callable[..., int]):
        self._personas, self._clock, self._address_at, self._publish = personas, clock, address_at, publish
        self._open: dict[int, Conversation] = {}
        self._next = [1]  # one past the highest id opened, shared with the scoped views
        # the town's own personas (players join later), in persona order: a conversation's id is
        # a function of when it opens and who opens it (:meth:`number`)
        self._rank = {pid: k for k, pid in enumerate(personas)}
        self._opened_now: tuple[int, set[int]] = (-1, set())  # (tick, ids opened at it), owner only
        self._said_last: set[str] = set()  # whose conversation ended last tick (speech shown once)
        self._waits: dict[int, tuple[int, int]] = {}  # a player's conversation -> (lines, since tick)
        self._lock = threading.Lock()  # run-ahead opens and closes from several threads
        self._members: frozenset[str] | None = None  # a scoped view's personas (None: everyone)

    def scoped(self, clock: GameClock, publish: Callable[..., int], members: Collection[str]) -> Conversations:
        """A view for the run-ahead scheduler's job of ``members`` at ``clock``'s tick.

        It shares the open conversations with this owner, publishes with ``publish``, and says
        which are due and falls silent for ``members`` only; it numbers conversations by the same
        rule (:meth:`number`), so their ids do not depend on the order jobs run in.
        """
        view = copy.copy(self)
        view._clock, view._publish, view._members = clock, publish, frozenset(members)
        return view

    def number(self, a: str, b: str) -> int:
        """The id of a conversation ``a`` opens with ``b`` at the clock's tick t, of the town's n
        own personas: t * 2n + r + 1 when ``a`` is one of them, of rank r; t * 2n + n + r + 1 when
        ``a`` is a player (who opens only between ticks, before tick t, and never with another
        player), r the rank of ``b``.

        The same in both schedules: a tick-synchronous run opens its conversations in rank
        order, so the ids rise as they open; run-ahead opens them out of order, on its clusters'
        threads. A persona opens at most one conversation a tick, and a persona a player
        addressed is talking until that talk ends, so two conversations never share an id, but
        for a player addressing the same persona twice between two ticks (:meth:`may_open`).
        """
        n = len(self._rank)
        first = self._clock.tick * 2 * n + 1
        return first + self._rank[a] if a in self._rank else first + n + self._rank[b]

    def may_open(self, a: str, b: str) -> bool:
        """Whether a conversation of ``a`` and ``b`` opened now would have an id not used before
        (not when a player already opened one with the same persona between these two ticks)."""
        tick, ids = self._opened_now
        return tick != self._clock.tick or self.number(a, b) not in ids

    def __getitem__(self, cid: int) -> Conversation:
        return self._open[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self._open

    def __iter__(self) -> Iterator[Conversation]:
        """The open conversations, in the order they were opened."""
        return iter(list(self._open.values()))

    def __len__(self) -> int:
        return len(self._open)

    def get(self, cid: int | None) -> Conversation | None:
        """The open conversation ``cid``, or None."""
        return None if cid is None else self._open.get(cid)

    def open(self, a: str, b: str, decision: int | None, accepted: int | None) -> Conversation:
        """Open a conversation of ``a`` (who speaks first) and ``b``: both stop and talk.

        Args:
            a: persona id of the one who starts it (says the first line).
            b: persona id of the one addressed.
            decision: seq of the retrieval behind ``a``'s decision (None: no mind decided, a player).
            accepted: seq of the retrieval behind ``b``'s.

        Returns:
            The new conversation.
        """
        tick = self._clock.tick
        with self._lock:
            cid = self.number(a, b)
            if cid in self._open or not self.may_open(a, b):
                raise ValueError(f"conversation {cid} was opened already")
            conv = Conversation(id=cid, a=a, b=b, start_tick=tick)
            self._next[0] = max(self._next[0], cid + 1)
            self._open[conv.id] = conv
            if self._members is None:  # the owner's (a scoped view's conversations open once a tick)
                self._opened_now = (tick, (self._opened_now[1] if self._opened_now[0] == tick else set()) | {cid})
        for pid, other, seq in ((a, b, decision), (b, a, accepted)):
            p = self._personas[pid]
            interrupted = p.action is not None and p.action.kind == "do" and p.pending is None
            talk = Action(description=f"talking with {self._personas[other].name}",
                          address=self._address_at(p.x, p.y) or p.spec.home, emoji="💬",
                          start_tick=tick, end_tick=tick + 10**6, kind="talk")
            p.enter_conversation(conv.id, talk, _resume_step(p.action, tick, self._clock.seconds_per_tick)
                                 if interrupted and p.action is not None else None)
            self._publish(EventKind.ACTION, pid, {
                "description": talk.description, "address": talk.address, "emoji": "💬",
                "kind": "talk", "start": talk.start_tick, "end": None, "task": None,
                "decision": seq, "conversation": conv.id, "with": other})
        return conv

    def close(self, cid: int, *, shown: bool) -> Conversation:
        """Close conversation ``cid`` (its sides left it); returns it.

        Args:
            shown: its last line stays in this tick's frame and is cleared at the next tick's
                start (it ended by a line); else both fall silent now (one side walked away).
        """
        with self._lock:
            conv = self._open.pop(cid)
            self._waits.pop(cid, None)
        for pid in (conv.a, conv.b):
            if shown:
                with self._lock:
                    self._said_last.add(pid)
            else:
                self._personas[pid].fall_silent()
        return conv

    def forget(self, pid: str) -> None:
        """``pid`` has left the town: its last line is not cleared at the next tick's start."""
        self._said_last.discard(pid)

    def fall_silent(self) -> None:
        """At a tick's start: those whose conversation ended last tick say nothing any more (of
        a scoped view: its members)."""
        with self._lock:
            silent = set(self._said_last if self._members is None else self._said_last & self._members)
            self._said_last -= silent
        for pid in silent:
            self._personas[pid].fall_silent()

    def due(self, players: set[str] | frozenset[str]) -> list[Conversation]:
        """The conversations due a line this tick (not a player's), in conversation id order."""
        tick = self._clock.tick
        with self._lock:
            open_now = sorted(self._open.items())
        return [c for _, c in open_now if (tick - c.start_tick) % LINE_EVERY_TICKS == 0
                and not waits_for_player(c, players) and (self._members is None or c.a in self._members)]

    def waited_out(self, players: set[str] | frozenset[str], limit: int) -> list[Conversation]:
        """The conversations whose player has been silent ``limit`` ticks (their waits are noted)."""
        tick, out = self._clock.tick, []
        for conv in [c for c in self._open.values() if waits_for_player(c, players)]:
            lines, since = self._waits.get(conv.id, (-1, 0))
            if lines != len(conv.lines):
                self._waits[conv.id] = (len(conv.lines), tick)
            elif tick - since >= limit:
                out.append(conv)
        return out

    def get_state(self, players: set[str] | frozenset[str]) -> dict[str, Any]:
        """``{"conversations": [state...], "next_conversation": id}``, players' left out, in id
        order (run-ahead opens a later tick's before an earlier one's on another thread)."""
        return {"conversations": [c.get_state() for c in sorted(self._open.values(), key=lambda c: c.id)
                                  if not {c.a, c.b} & players],
                "next_conversation": self._next[0]}

    def set_state(self, conversations: list[dict[str, Any]], next_conversation: int) -> None:
        """Restore from :meth:`get_state` output; those whose speech shows ended last tick."""
        self._open = {c["id"]: Conversation.from_state(c) for c in conversations}
        self._next[0] = int(next_conversation)
        self._waits = {}
        self._said_last = {pid for pid, p in self._personas.items()
                           if p.speech is not None and p.conversation is None}


def waits_for_player(conv: Conversation, players: set[str] | frozenset[str]) -> bool:
    """Whether ``conv`` waits for a player's line: the next line is a player's (whoever started it)."""
    return conv.next_speaker in players


def pairs(intents: Sequence[tuple[str, str, Any]], snapshot: Mapping[str, Appearance], radius: int,
          personas: Mapping[str, Persona], players: set[str] | frozenset[str]) -> list[tuple[str, str, Any]]:
    """The wishes to talk that may start a conversation, each persona in at most one.

    Args:
        intents: ``(who, whom, what the wish cites)`` in persona id order.
        snapshot: the tick's views of every persona.
        radius: vision radius in tiles.
        personas: persona id -> persona (whether the one addressed sleeps now).
        players: the players' ids: a player may be addressed like anyone, unless it is on its
            way somewhere (its walk is the viewer's; a conversation would stop it).
    """
    busy: set[str] = set()
    out = []
    for a, b, cite in intents:
        # both awake (in the snapshot and now) and within sight of each other
        # in a conversation at the tick's start (one ending this tick may end before this runs)
        if ({a, b} & busy or (b in players and snapshot[b].kind == "walk") or snapshot[b].conversation is not None
                or personas[b].asleep or not (awake(snapshot[a]) and awake(snapshot[b]))
                or not in_sight(snapshot[a], snapshot[b], radius)):
            continue
        busy |= {a, b}
        out.append((a, b, cite))
    return out


def turn(conv: Conversation, personas: Mapping[str, Persona], ctx: MindContext,
         side: Callable[[Sequence[Callable[[MindContext], str]]], list[Thought[str]]]) -> bool:
    """A conversation's line; when that ends it, both sides' summaries and its end. True if over.

    Args:
        conv: the conversation.
        personas: persona id -> persona.
        ctx: the job's context.
        side: runs independent jobs (at once on the side threads) and returns their thoughts in
            order: the two summaries do not depend on each other.
    """
    line, over = (say_written_line if conv.written else say_next_line)(conv, personas, ctx)
    if over:
        finish([*conv.lines, (line.speaker, line.text)], conv, personas, ctx, side)
    return over


def finish(lines: list[tuple[str, str]], conv: Conversation, personas: Mapping[str, Persona],
           ctx: MindContext, side: Callable[[Sequence[Callable[[MindContext], str]]], list[Thought[str]]]) -> None:
    """Both sides summarise ``conv`` (side by side), then it is over (``conversation_over``); a
    conversation written whole has no summaries (``end_written``)."""
    if conv.written:
        end_written(lines, conv, personas, ctx)
        return
    thoughts = side([partial(summarise, lines, conv, personas[pid], personas[other])
                     for pid, other in ((conv.a, conv.b), (conv.b, conv.a))])
    for thought in thoughts:
        ctx.out.extend(thought.effects)
    conversation_over(lines, conv, {conv.a: thoughts[0].result, conv.b: thoughts[1].result}, ctx)


def _resume_step(action: Action, tick: int, seconds_per_tick: int) -> Step:
    """The rest of an interrupted action as a step to pick up after a conversation."""
    minutes = max(1, (action.end_tick - tick) * seconds_per_tick // 60)
    return Step(description=action.description, object=action.address, minutes=minutes, task=action.task)
