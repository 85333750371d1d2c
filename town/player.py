"""A player: a person who joins the town from the viewer, walks about and talks with personas.

The player is a :class:`~town.persona.Persona` without a mind: it has a memory stream (so it
remembers what it is told) but no plan; it moves where the viewer sends it, one tile per tick.
When the player speaks to a persona next to it, a conversation starts like any other; the
player's line is heard as a chat line (the persona remembers 'Ada told me: "..."', so what the
player says can spread), and the persona answers with the ordinary conversation code on the
next line tick. A persona may also address the player, deciding as for anyone; the player, who
has no mind, is taken to accept, and the talk waits for its words.

This module holds what a player is, apart from any simulation: its id, name rule, persona file
and where it appears. What players do reaches a town only as inputs (``town.simulation.inputs``:
join, leave, move, say), which the simulation's :class:`~town.simulation.players.Players` applies
between ticks. A player is not recorded in snapshots (resume and fork go on without it) nor in
the run's meta, so the evaluation counts the town's personas only.
"""

from __future__ import annotations

import re
from datetime import time

from .errors import ConfigError
from .names import look_alike, reading_form
from .persona import Action
from .scenario import PersonaSpec, RoutineItem
from .world import TileMap

__all__ = ["player_id", "is_player_id", "check_name", "player_spec", "start_tile", "looking", "takes_leave",
           "TALK_REACH", "PATIENCE_MINUTES", "PREFIX"]

#: Tiles (in x and in y) within which the player can talk to a persona.
TALK_REACH = 2
#: Game minutes a persona waits for the player's next line before the talk ends (15 wall s at x8).
PATIENCE_MINUTES = 20
#: What every player id starts with: a persona id (a file name) matches ``[a-z0-9_]+``, so a
#: player's id never is one (a persona file ``player_ada.yaml`` and a player "Ada" are two people).
PREFIX = "player-"
_NAME = re.compile(r"^[^\W\d_][\w .'-]{0,39}$")


#: A line that takes leave ("Thanks, bye!", "See you later", "Goodbye").
_GOODBYE = re.compile(r"\b(?:bye|goodbye|see you|take care|so long)\b", re.I)


def takes_leave(line: str) -> bool:
    """Whether ``line`` takes leave of the listener ("Thanks, bye!", "See you later"): a player's
    goodbye ends the talk by the player (the partner says goodbye back), and a persona answers
    anyone's goodbye with its own."""
    return _GOODBYE.search(line) is not None


def player_id(name: str) -> str:
    """The id of a player called ``name``: :data:`PREFIX` and its words as read ("Zoë O'Brien" ->
    ``player-zoe_o_brien``); two players whose names differ in their ids never look alike."""
    return PREFIX + "_".join(reading_form(name).split())


def is_player_id(pid: str) -> bool:
    """True for an id of the players' kind (:data:`PREFIX`)."""
    return pid.startswith(PREFIX)


def check_name(name: str, town: dict[str, str]) -> str:
    """``name`` (spaces collapsed) if a player may take it in a town of ``town`` (id -> name).

    Raises:
        ConfigError: naming ``player`` for a bad name (1-40 letters, spaces, ' . -), or one a
            persona or player of the town already has or that reads like it (:mod:`town.names`).
    """
    name = " ".join(str(name).split())
    # as read, too: one character can read as many ("\ufdfa" folds to 18 letters)
    if not _NAME.match(name) or len(reading_form(name)) > 40:
        raise ConfigError(f"{name!r}: a player's name is 1-40 letters, spaces, ' . or -", field="player")
    like = look_alike(name, town)
    if like is not None:
        if reading_form(name) == reading_form(town[like]):
            raise ConfigError(f"{name!r} is already someone in the town ({town[like]!r}); choose another name",
                              field="player")
        raise ConfigError(f"{name!r} looks like {town[like]!r} ({like}), who is already in the town; "
                          "choose another name", field="player")
    return name


def player_spec(pid: str, name: str, home: str) -> PersonaSpec:
    """The persona file of a player: a visitor looking around ``home`` (where it appeared)."""
    return PersonaSpec(
        id=pid, name=name, age=30, emoji="🙋", traits=("curious",),
        background=f"{name} is visiting the town.", lifestyle="", home=home,
        routine=(RoutineItem(start=time(0, 0), end=time(0, 0), activity="looking around", place=home),))


def start_tile(tilemap: TileMap) -> tuple[int, int]:
    """Where a player appears: the street tile (an address without a building part) nearest the
    map's centre, else the walkable tile nearest it (ties: top row, then left)."""
    cx, cy = tilemap.width / 2, tilemap.height / 2
    tiles = sorted(tilemap.walkable_tiles(), key=lambda t: ((t[0] - cx) ** 2 + (t[1] - cy) ** 2, t[1], t[0]))
    return next((t for t in tiles if ":" not in (tilemap.address_at(*t) or "")), tiles[0])


def looking(tick: int, address: str, *, walking: bool = False) -> Action:
    """A player's action from ``tick`` on: walking, or looking around at ``address``."""
    return Action(description="walking" if walking else "looking around", address=address,
                  emoji="🚶" if walking else "🙋", start_tick=tick, end_tick=tick + 10**6,
                  kind="walk" if walking else "do")
