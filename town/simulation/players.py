"""The players of a live town, and what the inputs from outside do to the town.

:class:`Players` owns which personas are played from the viewer (no mind: no decision job) and
applies each input (``town.simulation.inputs``: a whisper, a player's join, leave, move or line)
when the simulation drains its queue between ticks. What a player is apart from a town (its id, name
rule, persona file) is :mod:`town.player`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..clock import GameClock
from ..embedding import Embedder
from ..errors import ConfigError, WorldError
from ..memory import MemoryStream
from ..mind import Conversation, MindContext
from ..mind.context import recall
from ..mind.converse import say_line
from ..persona import Persona
from ..player import PATIENCE_MINUTES, TALK_REACH, check_name, looking, player_spec, start_tile, takes_leave
from ..world import TileMap, World
from .conversations import Conversations
from .inputs import Input, Join, Leave, Move, Say, Whisper

__all__ = ["Players"]


class Players:
    """The players among a simulation's personas.

    Args:
        personas: the simulation's persona id -> persona (players are added to and removed from it).
        names: persona id -> name, as the minds know them (kept in step with ``personas``).
        tilemap, world, clock, conversations, embedder: the simulation's.
        think: runs a mind step now and applies its effects (``Simulation.think``).
        seq: the seq of a note just applied (``Applier.seq``).
        leave_conversation: ends a conversation now (``Simulation.leave_conversation``).
        whisper: writes a whisper memory, its id (``Timeline.whisper``).
    """

    def __init__(self, personas: dict[str, Persona], names: dict[str, str], *, tilemap: TileMap, world: World,
                 clock: GameClock, conversations: Conversations, embedder: Embedder,
                 think: Callable[[Callable[[MindContext], Any]], Any], seq: Callable[[Any], int | None],
                 leave_conversation: Callable[[int], None], whisper: Callable[[str, str], int]):
        self._personas, self._names = personas, names
        self._tilemap, self._world, self._clock, self._conversations = tilemap, world, clock, conversations
        self._embedder, self._think, self._seq, self._leave_conversation = embedder, think, seq, leave_conversation
        self._whisper = whisper
        self._ids: set[str] = set()

    @property
    def ids(self) -> frozenset[str]:
        """The players' persona ids."""
        return frozenset(self._ids)

    def apply(self, inp: Input) -> Any:
        """Apply an input; its result (JSON-able). Raises ConfigError for a refused one."""
        if isinstance(inp, Whisper):
            if inp.persona not in self._personas or inp.persona in self._ids:
                raise ConfigError(f"no persona {inp.persona!r} in this town", field="persona")
            return {"memory": self._whisper(inp.persona, inp.text)}
        if isinstance(inp, Join):
            return self.join(inp)
        if isinstance(inp, Leave):
            self._player(inp.player)
            self.leave(inp.player)
            return None
        if isinstance(inp, Move):
            return [list(t) for t in self.move(inp)]
        return self.say(inp)

    def join(self, inp: Join) -> dict[str, Any]:
        """A player joins on the street nearest the map's centre; ``{"player", "x", "y"}``.

        Raises:
            ConfigError: naming ``player`` for a bad name, or one that reads like a name in the
                town (:func:`town.player.check_name`).
        """
        name = check_name(inp.name, self._names)
        if inp.player in self._personas:
            raise ConfigError(f"{inp.player!r} is already in the town", field="player")
        x, y = start_tile(self._tilemap)
        address = self._tilemap.address_at(x, y) or ""
        p = Persona(spec=player_spec(inp.player, name, address), stream=MemoryStream(inp.player, self._embedder))
        p.place(x, y)
        p.start(looking(self._clock.tick, address))
        self._personas[p.id] = p
        self._ids.add(p.id)
        self._names[p.id] = p.name
        return {"player": p.id, "x": x, "y": y}

    def leave(self, pid: str) -> None:
        """Player ``pid`` leaves: its conversation ends as by walking away, and it is gone from
        the next frame. Its name may be taken again afterwards."""
        if (cid := self._personas[pid].conversation) is not None and cid in self._conversations:
            self._end_by(pid, cid)
        self._conversations.forget(pid)
        self._ids.discard(pid)
        del self._personas[pid], self._names[pid]

    def _player(self, pid: str) -> Persona:
        if pid not in self._ids:
            raise ConfigError(f"{pid!r} is not a player of this town", field="player")
        return self._personas[pid]

    def move(self, inp: Move) -> list[tuple[int, int]]:
        """Send the player to tile (x, y) along a path (one tile per tick); returns the path.
        Walking away ends the player's conversation.

        Raises:
            ConfigError: naming ``x, y`` when the tile is not walkable or cannot be reached.
        """
        p, x, y = self._player(inp.player), inp.x, inp.y
        if not self._tilemap.walkable(x, y):
            raise ConfigError(f"({x}, {y}) is not a walkable tile", field="x, y")
        try:
            path = self._world.path((p.x, p.y), (x, y))[1:]
        except WorldError:
            raise ConfigError(f"({x}, {y}) cannot be reached from ({p.x}, {p.y})", field="x, y") from None
        if p.conversation is not None and path:
            self._end_by(inp.player, p.conversation)
        p.start(looking(self._clock.tick, self._address(p), walking=bool(path)), path=tuple(path))
        return list(path)

    def say(self, inp: Say) -> int:
        """The player says ``text`` to persona ``to`` (within :data:`~town.player.TALK_REACH`
        tiles); starts a conversation if the player is not in one with ``to``. The persona
        answers on its next line tick. Returns the conversation id.

        Raises:
            ConfigError: naming ``to`` (unknown, too far, asleep, or talking with someone else)
                or ``text`` (not the player's turn).
        """
        pid, to = inp.player, inp.to
        p = self._player(pid)
        other = self._personas.get(to)
        if other is None or to in self._ids:
            raise ConfigError(f"{to!r} is not a persona of this town", field="to")
        conv: Conversation | None = self._conversations.get(p.conversation)
        if conv is None or to not in (conv.a, conv.b):
            far = max(abs(other.x - p.x), abs(other.y - p.y))
            if far > TALK_REACH:
                raise ConfigError(f"{other.name} is {far} tiles away: walk up to them first", field="to")
            if other.asleep:
                raise ConfigError(f"{other.name} is asleep", field="to")
            if other.conversation is not None:
                raise ConfigError(f"{other.name} is talking with someone else", field="to")
            if not self._conversations.may_open(pid, to):
                raise ConfigError(f"{other.name} has just ended a talk with you: talk again after the next tick",
                                  field="to")
            if conv is not None:
                self._end_by(pid, conv.id)
            # the persona is addressed: it retrieves what it knows of the player, as for anyone
            addressed = self._think(lambda ctx: recall(other, ctx, f"{p.name} wants to talk to me.",
                                                       purpose="react")[1])
            conv = self._conversations.open(pid, to, None, self._seq(addressed))
        elif conv.next_speaker != pid:
            raise ConfigError(f"wait for {other.name} to answer", field="text")
        talk = conv
        # a goodbye ends the talk by the player: the persona says goodbye back and it is over
        talk.ended_by = pid if takes_leave(inp.text) else ""
        self._think(lambda ctx: say_line(talk, pid, inp.text, self._personas, ctx))
        return talk.id

    def _end_by(self, pid: str, cid: int) -> None:
        """Player ``pid`` ends conversation ``cid`` now (it walked off, or went to someone else)."""
        conv = self._conversations.get(cid)
        if conv is not None:
            conv.ended_by = pid
        self._leave_conversation(cid)

    def tend(self) -> None:
        """At a tick's start: a player whose walk is over is "looking around" again; a conversation
        in which a player has been silent for :data:`~town.player.PATIENCE_MINUTES` ends."""
        for pid in sorted(self._ids):
            p = self._personas[pid]
            if p.action is not None and p.action.kind == "walk" and not p.path:
                p.start(looking(self._clock.tick, self._address(p)))
        for conv in self._conversations.waited_out(self._ids, PATIENCE_MINUTES * 60 // self._clock.seconds_per_tick):
            self._leave_conversation(conv.id)

    def _address(self, p: Persona) -> str:
        return self._tilemap.address_at(p.x, p.y) or p.spec.home
