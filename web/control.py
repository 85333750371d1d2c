"""Control operations on the live runner, shared by the HTTP API and the Socket.IO namespace."""

from __future__ import annotations

from typing import Any

from town.runner import Runner
from town.simulation.inputs import Control, parse_control

__all__ = ["apply_control"]


def apply_control(runner: Runner, message: object) -> dict[str, Any]:
    """Apply one control (a typed input: :class:`~town.simulation.inputs.Control`) and return the
    runner's status afterwards.

    Args:
        runner: the live runner.
        message: ``{"op", "value"}``: "pause" (which also cancels pending steps) | "resume" |
            "step" (value: ticks, default 1, at most one game day: ``Runner.max_steps``) |
            "speed" (value: ticks per wall second 1..64, or null/"max") | "talk_pace" (value
            "on": slow while a player talks; "off").

    Returns:
        ``Runner.status()`` after the operation. A step answers at once: its ticks run on the
        runner's thread, and the frames show them as they come.

    Raises:
        ConfigError: naming ``op`` for an unknown operation, or the runner's error for a bad
            value (e.g. a speed outside 1..64, more than a game day of steps, stepping while
            running).
    """
    control: Control = parse_control(message)
    if control.op == "pause":
        runner.pause()
    elif control.op == "resume":
        runner.resume()
    elif control.op == "step":
        runner.step(control.value, timeout=0)  # type: ignore[arg-type]  # the runner checks it
    elif control.op == "talk_pace":
        runner.set_talk_pace(control.value == "on")
    else:
        runner.set_speed(control.value)  # type: ignore[arg-type]  # the runner checks it
    return runner.status()
