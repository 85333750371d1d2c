"""A player's actions as the viewer sends them: each an input (``town.simulation.inputs``) applied
at once with ``Simulation.act`` (call on the thread that steps the simulation, e.g. in
``runner.call``); a refusal is raised, as the viewer would see it in the input's outcome."""

from __future__ import annotations

import time

from town.simulation import Simulation
from town.simulation.inputs import Join, Leave, Move, Say


def add_player(sim: Simulation, name: str) -> str:
    """``name`` joins; the player's id."""
    return sim.act(Join(name=name))["player"]


def remove_player(sim: Simulation, pid: str) -> None:
    sim.act(Leave(player=pid))


def move_player(sim: Simulation, pid: str, x: int, y: int) -> list[list[int]]:
    """The path the player walks (one tile per tick), as ``[x, y]`` lists."""
    return sim.act(Move(player=pid, x=x, y=y))


def player_says(sim: Simulation, pid: str, text: str, to: str) -> int:
    """The conversation id."""
    return sim.act(Say(player=pid, to=to, text=text))


def outcome(client, answer, within: float = 10.0) -> dict:
    """What the input an HTTP answer queued did (``GET /api/inputs/<id>``), once the runner applied it.

    Args:
        client: the app's Flask test client.
        answer: the response (or its JSON) that named the input (``{"input": id}``).
    """
    body = answer if isinstance(answer, dict) else answer.get_json()
    end = time.monotonic() + within
    while True:
        found = client.get(f"/api/inputs/{body['input']}").get_json()
        if found["state"] != "queued" or time.monotonic() > end:
            return found
        time.sleep(0.02)
