"""The world clock: ticks <-> game time.

One tick is ``seconds_per_tick`` game seconds (10 by default, as in Park et al. 2023's code).
Game time and wall-clock pacing never mix: pacing belongs to :mod:`town.runner`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .errors import ConfigError

__all__ = ["GameClock", "clock_text", "hours_text", "parse_game_time"]

TIME_FORMAT = "%Y-%m-%d %H:%M"


def parse_game_time(text: str, *, field: str = "time") -> datetime:
    """Parse ``"YYYY-MM-DD HH:MM"`` (seconds optional) into a naive game datetime.

    Raises:
        ConfigError: naming ``field`` when the text is not such a time.
    """
    for fmt in (TIME_FORMAT, "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"):
        try:
            return datetime.strptime(str(text).strip(), fmt)
        except ValueError:
            continue
    raise ConfigError(f"{text!r} is not a game time like '2023-02-13 07:00'", field=field)


def time_text(when: datetime) -> str:
    """A game time as messages show it: ``"2023-02-13 07:00"``, with seconds only off the minute
    (``"2023-02-13 07:16:40"``); every time of one message is shown this way."""
    return when.strftime(TIME_FORMAT if when.second == 0 and when.microsecond == 0 else "%Y-%m-%d %H:%M:%S")


def clock_text(minutes: int) -> str:
    """Minutes since midnight -> ``"HH:MM"`` (1440 -> ``"24:00"``, the end of a day)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def hours_text(hours: float) -> str:
    """Game hours as shown to a person: "43.5 game hours", "1 game hour" (two decimals at most;
    a span of ticks is rarely a round number: 15,659 ticks of 10 s are 43.4972 hours)."""
    shown = f"{round(hours, 2):g}"
    return f"{shown} game hour{'' if shown == '1' else 's'}"


class GameClock:
    """Counts ticks from a start datetime.

    Args:
        start: game datetime of tick 0.
        seconds_per_tick: game seconds per tick (> 0), default 10.
        tick: the current tick (>= 0).

    Raises:
        ConfigError: if ``seconds_per_tick`` <= 0, ``tick`` < 0, or ``start`` is outside the
            years 1900-2999.
    """

    def __init__(self, start: datetime, seconds_per_tick: int = 10, tick: int = 0):
        if int(seconds_per_tick) <= 0:
            raise ConfigError(f"must be > 0, got {seconds_per_tick}", field="seconds_per_tick")
        if int(tick) < 0:
            raise ConfigError(f"must be >= 0, got {tick}", field="tick")
        if not 1900 <= start.year <= 2999:
            raise ConfigError(f"must be a game time between the years 1900 and 2999, got {start}",
                              field="start")
        self._start = start
        self._spt = int(seconds_per_tick)
        self._tick = int(tick)

    @property
    def start(self) -> datetime:
        """Game datetime of tick 0."""
        return self._start

    @property
    def seconds_per_tick(self) -> int:
        """Game seconds per tick."""
        return self._spt

    @property
    def tick(self) -> int:
        """The current tick (read-only; use :meth:`advance`)."""
        return self._tick

    @property
    def now(self) -> datetime:
        """Game datetime of the current tick."""
        return self.time_of(self._tick)

    def time_of(self, tick: int) -> datetime:
        """Game datetime of ``tick``."""
        return self._start + timedelta(seconds=self._spt * int(tick))

    def ticks_for(self, *, hours: float = 0.0, minutes: float = 0.0) -> int:
        """Number of ticks in a game duration (rounded down)."""
        return int((hours * 3600 + minutes * 60) // self._spt)

    def advance(self, n: int = 1) -> int:
        """Move ``n`` >= 0 ticks forward and return the new tick.

        Raises:
            ValueError: if ``n`` < 0 (the clock never runs backwards).
        """
        if n < 0:
            raise ValueError(f"the clock cannot go back ({n} ticks)")
        self._tick += n
        return self._tick

    def get_state(self) -> dict:
        """JSON-able state for snapshots."""
        return {"start": self._start.isoformat(), "seconds_per_tick": self._spt, "tick": self._tick}

    def set_state(self, state: dict) -> None:
        """Restore from :meth:`get_state` output."""
        self._start = datetime.fromisoformat(state["start"])
        self._spt = int(state["seconds_per_tick"])
        self._tick = int(state["tick"])
