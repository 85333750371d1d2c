"""A tick's decide and apply phases: the decisions, then the invitations, then the lines.

Each phase is a map of jobs over the pool (``jobs.Pool``), its thoughts applied in order: the
decisions in persona order, the answers to invitations in pair order (then the accepted
conversations open), the lines in conversation order. With threads, a conversation already
under way says its line as soon as both of its speakers have decided, while the others still
decide (nothing else in the tick reads or writes those two minds); its effects are applied in
the line phase all the same, so the run is the one a sequential run gives.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from functools import partial
from typing import Any, TypeVar

from ..clock import GameClock
from ..mind import Conversation, MindContext, Services
from ..mind.converse import Opening, talks_whole
from ..persona import Persona
from .apply import Applier
from .conversations import Conversations, finish, pairs, turn
from .decide import answer_invitation, decide, open_whole
from .jobs import Pool, Thought, think
from .snapshot import Snapshot

__all__ = ["TickPhases"]

T = TypeVar("T")


class TickPhases:
    """Runs a tick's jobs and applies them.

    Args:
        services: what the jobs' minds reach.
        clock: the world clock (the tick the jobs think in).
        personas: persona id -> persona.
        conversations: the conversations' owner.
        apply: the apply step.
        pool: the threads (or none).
        mark: told ``(step, key)`` before each thought is applied: step 0 a decision (key: the
            persona's id), 1 an answer to an invitation and 2 the conversation it opens (the id
            of the one inviting), 3 a line (the conversation's id). The run-ahead scheduler
            records a tick's clusters in this order, the order of a tick-synchronous run.
    """

    def __init__(self, services: Services, clock: GameClock, personas: Mapping[str, Persona],
                 conversations: Conversations, apply: Applier, pool: Pool,
                 mark: Callable[[int, Any], None] = lambda step, key: None):
        self._services, self._clock, self._personas = services, clock, personas
        self._conversations, self._apply, self._pool, self._mark = conversations, apply, pool, mark

    def think(self, work: Callable[[MindContext], T]) -> Thought[T]:
        """``work`` as a job thinking in the current tick (:func:`~town.simulation.jobs.think`)."""
        return think(self._services, self._clock.tick, self._clock.now, work)

    def run(self, snapshot: Snapshot, minds: Sequence[Persona], players: frozenset[str], radius: int) -> None:
        """Decide, invite, talk: the jobs of the tick whose snapshot is ``snapshot``.

        Args:
            snapshot: the tick's snapshot.
            minds: the personas who decide, in persona order.
            players: the players' ids (none decides; a persona may address one, whose lines come
                from the viewer).
            radius: the vision radius in tiles.
        """
        jobs = {p.id: partial(self.think, partial(decide, p, snapshot, whole=partial(self._whole, p.id)))
                for p in minds}
        ahead: dict[int, Future] = {}
        if not self._pool.threaded:
            decided = self._pool.map(list(jobs.values()))
        else:  # a conversation under way says its line once both speakers have decided
            lines = {c.id: ((c.a, c.b), partial(self.think, partial(self._turn, c)))
                     for c in self._conversations.due(players)}
            decided, ahead = self._pool.map_ahead(jobs, lines)
        for p, thought in zip(minds, decided):
            self._mark(0, p.id)
            self._apply(thought.effects)
        intents = [(p.id, *t.result) for p, t in zip(minds, decided) if t.result is not None]
        self._invite(pairs(intents, snapshot.appearances, radius, self._personas, players), players)
        self._talk(players, ahead)

    def _whole(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` talk whole (``talks_whole``): one request decides and writes it."""
        return talks_whole(self._services.config, self._personas[a], self._personas[b])

    def _invite(self, invitations: list[tuple[str, str, Any]], players: frozenset[str]) -> None:
        """Ask each one addressed (the pairs share nobody: all at once); open the accepted.

        A player has no mind to ask: it is taken to accept (no retrieval behind it), and answers
        the persona's first line in words from the viewer, or not at all. Two personas who talk
        whole (``talks_whole``) are not asked: one request decides whether the one who saw the
        other starts it and writes the exchange (``open_whole``), whose first line may decline;
        it opens already written.
        """
        whole = {(a, b) for a, b, _ in invitations if b not in players and self._whole(a, b)}
        asked = [(a, b) for a, b, _ in invitations if b not in players]
        jobs = [partial(open_whole, self._personas[a], self._personas[b], self._personas, side=self.side)
                if (a, b) in whole else partial(answer_invitation, self._personas[a], self._personas[b])
                for a, b in asked]
        answers = dict(zip(asked, self._pool.map([partial(self.think, job) for job in jobs])))
        for (a, _), thought in answers.items():
            self._mark(1, a)
            self._apply(thought.effects)
        for a, b, wish in invitations:
            answer = answers.get((a, b))
            result = None if answer is None else answer.result
            if answer is not None and result is None:  # declined (by the one asked, or the one who saw)
                continue
            self._mark(2, a)
            if isinstance(result, Opening):
                seqs = {pid: self._apply.seq(note) for pid, note in result.retrievals}
                conv = self._conversations.open(a, b, seqs[a], seqs[b])
                conv.script, conv.written = result.script, result.written
                conv.retrievals = {pid: seq for pid, seq in seqs.items() if seq is not None}
            else:
                self._conversations.open(a, b, self._apply.seq(wish), self._apply.seq(result))

    def _talk(self, players: frozenset[str], ahead: dict[int, Future]) -> None:
        """Say the next line of each conversation due one (not a player's); end those over.

        Args:
            players: the players' ids.
            ahead: conversation id -> future of its line started ahead (during the decisions).
                Those conversations were open before this tick, so their ids come before any
                opened in it, and their effects are applied first, as if said here.
        """
        talking = self._conversations.due(players)
        rest = [c for c in talking if c.id not in ahead]
        said = {c.id: ahead[c.id].result() for c in talking if c.id in ahead}
        said.update(zip((c.id for c in rest), self._pool.map(
            [partial(self.think, partial(self._turn, c)) for c in rest])))
        for conv in talking:
            self._mark(3, conv.id)
            self._apply(said[conv.id].effects)
            if said[conv.id].result:  # the last line stays in this tick's frame; the next tick clears it
                self._conversations.close(conv.id, shown=True)

    def _turn(self, conv: Conversation, ctx: MindContext) -> bool:
        """A conversation's turn (:func:`~town.simulation.conversations.turn`): True when over."""
        return turn(conv, self._personas, ctx, self.side)

    def side(self, works: Sequence[Callable[[MindContext], T]]) -> list[Thought[T]]:
        """Run a job's independent parts side by side (the side threads); their thoughts in order."""
        return self._pool.map_side([partial(self.think, w) for w in works])

    def leave(self, cid: int) -> None:
        """End conversation ``cid`` now (one side walked away): both fall silent, summarise and
        remember it, as at any end; applied at once."""
        conv = self._conversations.close(cid, shown=False)
        thought = self.think(partial(finish, list(conv.lines), conv, self._personas, side=self.side))
        self._apply(thought.effects)
