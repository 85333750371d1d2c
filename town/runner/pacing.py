"""Wall-clock pacing: the speeds a run may go at, and when its next tick is due.

Game time and wall-clock time never mix: the simulation only knows ticks and game time, and the
runner decides how many ticks happen per wall second, like SimPy's
``RealtimeEnvironment(factor=...)``.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..errors import ConfigError

__all__ = ["SPEEDS", "MIN_SPEED", "MAX_SPEED", "MAX_LAG_SECONDS", "TALK_SPEED", "check_speed", "Pacer"]

#: Speeds offered by the viewer, in ticks per wall second (None = "max").
SPEEDS: tuple[float | None, ...] = (1, 2, 4, 8, 16, 32, 64, None)
MIN_SPEED = 1.0
MAX_SPEED = 64.0
#: The speed while a player talks (``Runner`` talk pace): a line typed in 15 wall seconds is
#: 15 ticks, 2.5 game minutes, well within a persona's patience (``town.player.PATIENCE_MINUTES``).
TALK_SPEED = 1.0
#: Wall seconds the runner may lag behind its schedule before it gives up catching up.
MAX_LAG_SECONDS = 0.5


def check_speed(speed: Any) -> float | None:
    """Validate a speed in ticks per wall second.

    Args:
        speed: a number in [1, 64], or None (or "max") for as fast as possible.

    Returns:
        The speed as a float, or None for "max".

    Raises:
        ConfigError: naming ``speed`` when it is not None/"max" nor a finite number in [1, 64].
    """
    if speed is None or speed == "max":
        return None
    if isinstance(speed, bool):
        raise ConfigError(f"must be a number of ticks per second or 'max', got {speed!r}", field="speed")
    try:
        value = float(speed)
    except (TypeError, ValueError):
        raise ConfigError(
            f"must be a number of ticks per second or 'max', got {speed!r}", field="speed"
        ) from None
    if not math.isfinite(value) or not MIN_SPEED <= value <= MAX_SPEED:
        raise ConfigError(f"must be between {MIN_SPEED:g} and {MAX_SPEED:g} ticks per second "
                          f"or 'max', got {speed!r}", field="speed")
    return value


class Pacer:
    """When the next tick is due: ``1 / speed`` wall seconds after the one before.

    The schedule is anchored at a (wall time, tick) pair. It is anchored anew at the first tick,
    after :meth:`restart` (a resume, a new speed), when the run has fallen more than
    ``MAX_LAG_SECONDS`` behind it (a slow tick is not followed by a burst to catch up), and when
    the clock jumped ahead of it by more than that (a run-ahead town settled many ticks at once,
    ``RunAhead.settle``: the next tick is not held back until the wall clock catches up).
    """

    def __init__(self) -> None:
        self._wall = self._tick = 0.0
        self._anchor = True

    def restart(self) -> None:
        """Anchor the schedule anew at the next tick."""
        self._anchor = True

    def delay(self, tick: int, speed: float | None) -> float:
        """Wall seconds to wait before stepping from ``tick`` (<= 0: step now; speed None: max)."""
        if self._anchor:
            self._wall, self._tick = time.monotonic(), tick
            self._anchor = False
        if speed is None:
            return 0.0
        due = self._wall + (tick - self._tick) / speed
        delay = due - time.monotonic()
        if -delay > MAX_LAG_SECONDS:  # fell behind: do not burst to catch up
            self._anchor = True
        elif delay > 1 / speed + MAX_LAG_SECONDS:  # the clock jumped ahead: go on from here
            self._wall, self._tick = time.monotonic() - 1 / speed, tick - 1
            return 0.0
        return delay
