"""The moments of a recorded run at which personas are interviewed; game minutes spent at a place.

"Start" means the state written before the first tick: the seeded memories, up to the seq of
the run's initial snapshot (the one before tick 0). A moment "at hour h" is the end of game hour
h: the memories of ticks before ``h * ticks_per_hour``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .recorded import seq_after

__all__ = ["start_seq", "Moment", "moments", "minutes_at", "liveliest", "opening"]


def start_seq(reader) -> int:
    """The seq up to which events belong to the start (the snapshot written before tick 0).

    Returns:
        The seq of the earliest snapshot taken before the first recorded tick, else 0.
    """
    first = reader.first_tick or 0
    before = [seq for tick, _, seq in reader.snapshots() if tick < first]
    return min(before) if before else 0


@dataclass(frozen=True)
class Moment:
    """A moment of the run at which personas are interviewed.

    Attributes:
        hour: game hours since the start (0 = the start, before the first tick).
        time: its game datetime.
        tick: the last tick whose memories it holds (the first tick for the start).
        seq: interview streams hold the memories of events with seq < this.
    """

    hour: float
    time: datetime
    tick: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (``time`` as "YYYY-MM-DD HH:MM:SS")."""
        return {"hour": self.hour, "time": self.time.isoformat(sep=" "), "tick": self.tick, "seq": self.seq}


def moments(reader, every_hours: float = 12.0) -> list[Moment]:
    """The default sample moments: the start, the end of every ``every_hours`` game hours, the end.

    Returns:
        Moments in time order; the last is the end of the run's last tick (not repeated when it
        falls on a multiple of ``every_hours``). Only the start for a run without ticks.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    first, last = reader.first_tick or 0, reader.last_tick
    out = [Moment(0.0, t0, first, start_seq(reader) + 1)]
    if last is None:
        return out
    end = (last + 1) * spt / 3600
    hours = [every_hours * i for i in range(1, int(end // every_hours) + 1) if every_hours * i < end]
    for h in [*hours, end]:
        tick = min(last, int(round(h * 3600 / spt)) - 1)
        out.append(Moment(round(h, 4), t0 + timedelta(seconds=(tick + 1) * spt), tick,
                          seq_after(reader, tick)))
    return out


def minutes_at(reader, place: str, start: datetime, end: datetime) -> dict[str, float]:
    """Game minutes each persona spent on tiles of ``place`` (address prefix) in [start, end).

    Counted from the recorded frames: each frame is one tick of ``seconds_per_tick`` seconds.

    Returns:
        persona id -> game minutes (0.0 for personas never there).
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    first = max(0, int((start - t0).total_seconds() // spt))
    last = int((end - t0).total_seconds() // spt) - 1
    out = {pid: 0.0 for pid in reader.personas()}
    if last < first:
        return out
    prefix = place if place.endswith(":") else place + ":"
    for frame in reader.frames(first, last):
        for pid, st in frame["personas"].items():
            address = st.get("address") or ""
            if address == place or address.startswith(prefix):
                out[pid] = out.get(pid, 0.0) + spt / 60
    return out


def liveliest(reader, window_minutes: float = 10.0) -> int | None:
    """The tick that ends the game window of ``window_minutes`` in which the most conversations
    said a line (the earliest such window); None for a run without talk.

    What the demo opens at: people about and talking.
    """
    from collections import Counter, deque

    spt = int(reader.meta.get("seconds_per_tick", 10))
    width = max(1, int(window_minutes * 60 // spt))
    inside: deque[tuple[int, int]] = deque()
    talking: Counter[int] = Counter()
    best, best_tick = 0, None
    for e in reader.events(["chat"]):
        inside.append((e.tick, e.data.get("conversation")))
        talking[e.data.get("conversation")] += 1
        while inside[0][0] <= e.tick - width:
            _, old = inside.popleft()
            talking[old] -= 1
            if not talking[old]:
                del talking[old]
        if len(talking) > best:
            best, best_tick = len(talking), e.tick
    return best_tick


def opening(reader) -> dict[str, Any] | None:
    """Where a replay opens when its address names no tick: ``{"tick", "persona", "retrieval"}``.

    The tick is :func:`liveliest`'s; the persona, the speaker of the newest line said at or before
    it, and the retrieval (its seq) that line was decided on. A run without talk opens at its
    first retrieval during a tick; a run without one, None.
    """
    tick = liveliest(reader)
    if tick is not None:
        for line in reader.events(["chat"], until_tick=tick, newest_first=True, limit=1):
            if line.data.get("retrieval") is not None:
                return {"tick": tick, "persona": line.data.get("speaker") or line.persona,
                        "retrieval": line.data["retrieval"]}
    for found in reader.events(["retrieval"], since_tick=max(0, reader.first_tick or 0), limit=1):
        return {"tick": found.tick, "persona": found.persona, "retrieval": found.seq}
    return None
