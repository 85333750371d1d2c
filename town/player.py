"""A player: a person who joins the town from the viewer, walks about and talks with personas.

The player is a :class:`~town.persona.Persona` without a mind: it has a memory stream (so it
remembers what it is told) but no plan; it moves where the viewer sends it, one tile per tick.
When the player speaks to a persona next to it, a conversation starts like any other; the
player's line is heard as a chat line (the persona remembers 'Ada told me: "..."', so what the
player says can spread), and the persona answers with the ordinary conversation code
(``say_next_line``: a retrieval, then the backend's ``NextLine``) on the next line tick.

These functions change the simulation: call them on the runner's thread between ticks
(``Runner.call``), like a whisper. A player is not recorded in snapshots (resume and fork go on
without it) nor in the run's meta, so the evaluation counts the town's personas only.
"""

from __future__ import annotations

import re
from datetime import time

from .errors import ConfigError, WorldError
from .memory import MemoryStream
from .mind.context import recall
from .mind.converse import say_line
from .names import look_alike
from .persona import Action, Persona
from .scenario import PersonaSpec, RoutineItem

__all__ = ["add_player", "remove_player", "move_player", "player_says", "tend_players",
           "TALK_REACH", "MAX_LINE_CHARS", "PATIENCE_MINUTES"]

#: Tiles (in x and in y) within which the player can talk to a persona.
TALK_REACH = 2
#: The longest line the player may say, in characters.
MAX_LINE_CHARS = 300
#: Game minutes a persona waits for the player's next line before the talk ends (15 wall s at x8).
PATIENCE_MINUTES = 20
_NAME = re.compile(r"^[^\W\d_][\w .'-]{0,39}$")


def _spec(pid: str, name: str, home: str) -> PersonaSpec:
    return PersonaSpec(
        id=pid, name=name, age=30, emoji="🙋", traits=("curious",),
        background=f"{name} is visiting the town.", lifestyle="", home=home,
        routine=(RoutineItem(start=time(0, 0), end=time(0, 0), activity="looking around", place=home),))


def _looking(sim, p: Persona, walking: bool = False) -> Action:
    tick = sim.clock.tick
    return Action(description="walking" if walking else "looking around",
                  address=sim.tilemap.address_at(p.x, p.y) or p.spec.home, emoji="🚶" if walking else "🙋",
                  start_tick=tick, end_tick=tick + 10**6, kind="walk" if walking else "do")


def add_player(sim, name: str) -> str:
    """Add a player called ``name`` on the street nearest the map's centre; returns its id.

    Raises:
        ConfigError: naming ``player`` for a bad name (1-40 letters, spaces, ' . -), or one a
            persona or player of the town already has or that looks like it (:mod:`town.names`).
    """
    name = " ".join(str(name).split())
    if not _NAME.match(name):
        raise ConfigError(f"{name!r}: a player's name is 1-40 letters, spaces, ' . or -", field="player")
    if any(p.name.lower() == name.lower() for p in sim.personas.values()):
        raise ConfigError(f"{name!r} is already someone in the town; choose another name", field="player")
    like = look_alike(name, {pid: p.name for pid, p in sim.personas.items()})
    if like is not None:
        raise ConfigError(f"{name!r} looks like {sim.personas[like].name!r} ({like}), who is already in the town; "
                          "choose another name", field="player")
    pid = "player_" + re.sub(r"\W+", "_", name.lower()).strip("_")
    tm = sim.tilemap
    cx, cy = tm.width / 2, tm.height / 2
    # a street tile (an address without a building part) nearest the centre, else any
    tiles = sorted(tm.walkable_tiles(), key=lambda t: ((t[0] - cx) ** 2 + (t[1] - cy) ** 2, t[1], t[0]))
    x, y = next((t for t in tiles if ":" not in (tm.address_at(*t) or "")), tiles[0])
    p = Persona(spec=_spec(pid, name, tm.address_at(x, y) or ""), stream=MemoryStream(pid, sim.embedder))
    p.place(x, y)
    p.start(_looking(sim, p))
    sim.join(p)
    return pid


def _player(sim, pid: str) -> Persona:
    if pid not in sim.players:
        raise ConfigError(f"{pid!r} is not a player of this town", field="player")
    return sim.personas[pid]


def remove_player(sim, pid: str) -> None:
    """The player leaves the town: a conversation it is in ends (both remember it, as when one
    walks away) and it is gone from the next frame. Its name may be taken again afterwards.

    Raises:
        ConfigError: naming ``player`` when ``pid`` is not a player of this town.
    """
    _player(sim, pid)
    sim.leave(pid)


def move_player(sim, pid: str, x: int, y: int) -> list[tuple[int, int]]:
    """Send the player to tile (x, y) along a path (one tile per tick); returns the path.

    Walking away ends the player's conversation.

    Raises:
        ConfigError: naming ``x, y`` when the tile is not walkable or cannot be reached.
    """
    p = _player(sim, pid)
    if not sim.tilemap.walkable(int(x), int(y)):
        raise ConfigError(f"({x}, {y}) is not a walkable tile", field="x, y")
    try:
        path = sim.world.path((p.x, p.y), (int(x), int(y)))[1:]
    except WorldError:
        raise ConfigError(f"({x}, {y}) cannot be reached from ({p.x}, {p.y})", field="x, y") from None
    if p.conversation is not None and path:
        sim.leave_conversation(p.conversation)
    p.start(_looking(sim, p, walking=bool(path)), path=tuple(path))
    return list(path)


def player_says(sim, pid: str, text: str, to: str) -> int:
    """The player says ``text`` to persona ``to`` (within :data:`TALK_REACH` tiles).

    Starts a conversation if the player is not in one with ``to``; the persona answers on the
    next line tick through the ordinary conversation code.

    Returns:
        The conversation id.

    Raises:
        ConfigError: naming ``text`` (empty or longer than :data:`MAX_LINE_CHARS`) or ``to``
            (unknown, too far, asleep, or talking with someone else).
    """
    p = _player(sim, pid)
    text = " ".join(str(text).split())
    if not text or len(text) > MAX_LINE_CHARS:
        raise ConfigError(f"say 1-{MAX_LINE_CHARS} characters", field="text")
    other = sim.personas.get(to)
    if other is None or to in sim.players:
        raise ConfigError(f"{to!r} is not a persona of this town", field="to")
    conv = sim.conversations.get(p.conversation)
    if conv is None or to not in (conv.a, conv.b):
        far = max(abs(other.x - p.x), abs(other.y - p.y))
        if far > TALK_REACH:
            raise ConfigError(f"{other.name} is {far} tiles away: walk up to them first", field="to")
        if other.asleep:
            raise ConfigError(f"{other.name} is asleep", field="to")
        if other.conversation is not None:
            raise ConfigError(f"{other.name} is talking with someone else", field="to")
        if conv is not None:
            sim.leave_conversation(conv.id)
        # the persona is addressed: it retrieves what it knows of the player, as for anyone
        addressed = sim.think(lambda ctx: recall(other, ctx, f"{p.name} wants to talk to me.", purpose="react")[1])
        conv = sim.open_conversation(pid, to, None, sim.apply.seq(addressed))
    elif len(conv.lines) % 2 == 1:
        raise ConfigError(f"wait for {other.name} to answer", field="text")
    sim.think(lambda ctx: say_line(conv, pid, text, sim.personas, ctx))
    return conv.id


def tend_players(sim) -> None:
    """The simulation's care of its players at the start of a tick.

    A player whose walk is over is "looking around" again; a conversation in which the player
    has been silent for :data:`PATIENCE_MINUTES` ends (the persona goes back to its plan).
    """
    for pid in sorted(sim.players):
        p = sim.personas[pid]
        if p.action is not None and p.action.kind == "walk" and not p.path:
            p.start(_looking(sim, p))
    for conv in sim.conversations.waited_out(sim.players, PATIENCE_MINUTES * 60 // sim.clock.seconds_per_tick):
        sim.leave_conversation(conv.id)
