"""Control operations on the live runner, shared by the HTTP API and the Socket.IO namespace."""

from __future__ import annotations

from typing import Any

from town.errors import ConfigError
from town.runner import Runner

__all__ = ["OPS", "apply_control"]

#: The operations a viewer may ask for.
OPS = ("pause", "resume", "step", "speed")


def apply_control(runner: Runner, op: object, value: object = None) -> dict[str, Any]:
    """Apply one control operation and return the runner's status afterwards.

    Args:
        runner: the live runner.
        op: "pause" (which also cancels pending steps) | "resume" | "step" (value: ticks, default
            1, at most one game day: ``Runner.max_steps``) | "speed" (value: ticks per wall second
            1..64, or null/"max").
        value: the operation's argument.

    Returns:
        ``Runner.status()`` after the operation. A step answers at once: its ticks run on the
        runner's thread, and the frames show them as they come.

    Raises:
        ConfigError: naming ``op`` for an unknown operation, or the runner's error for a bad
            value (e.g. a speed outside 1..64, more than a game day of steps, stepping while
            running).
    """
    if op == "pause":
        runner.pause()
    elif op == "resume":
        runner.resume()
    elif op == "step":
        n = 1 if value is None else value
        if isinstance(n, str) and n.isdigit():
            n = int(n)
        runner.step(n, timeout=0)
    elif op == "speed":
        runner.set_speed(value)
    else:
        raise ConfigError(f"must be one of {', '.join(OPS)}, got {op!r}", field="op")
    return runner.status()
