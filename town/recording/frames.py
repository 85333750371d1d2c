"""Frames as keyframes and deltas: the ``frames`` table's rows (docs/design, §4).

A run's FRAME events carry every persona's position and action each tick; most of it does not
change from one tick to the next. A row is a keyframe (the whole FRAME data, ``base`` = its own
tick) or the change from the tick before (:func:`frame_delta`). The frame of a tick is its
keyframe with the changes up to it applied. :class:`FrameLog` (the writer's) starts a new
keyframe at a run's first tick, after a gap, once :data:`KEYFRAME_TICKS` ticks have passed, or
when the changes since the keyframe would outweigh it (stored bytes), so reading any frame costs
at most about two whole frames, in a town of 3 or of 1,000. :class:`FrameHistory` is the
reader's part that seeks them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from town.errors import RecordingError
from town.recording.database import damaged
from town.recording.schema import pack_json

__all__ = ["KEYFRAME_TICKS", "FrameLog", "frame_delta", "apply_delta", "replay", "latest", "FrameHistory"]

#: A keyframe at least every this many ticks (10 game minutes at 10 s a tick).
KEYFRAME_TICKS = 60

#: The stored form of a tick in which nothing changed (read without decoding it, so it costs
#: nothing to read and counts no bytes against the keyframe).
_UNCHANGED = pack_json({"personas": {}})


class FrameLog:
    """The writer's frames: the last one, its keyframe, and the bytes stored since it.

    The rule depends only on the frames and the stored bytes, so a writer that goes on with a
    run (:meth:`load`) stores the rows an unbroken one would.
    """

    def __init__(self) -> None:
        self.frame: dict[str, Any] | None = None
        self.tick: int | None = None
        self.base = 0
        self.key_bytes = 0
        self.since = 0  # bytes of the changes stored after the keyframe (unchanged ticks: none)

    def row(self, tick: int, data: dict[str, Any]) -> tuple[int, bytes]:
        """``(base, packed data)`` of the row for the FRAME data ``data`` of ``tick``."""
        if self.frame is not None and self.tick == tick - 1 and tick - self.base < KEYFRAME_TICKS:
            blob = pack_json(frame_delta(self.frame, data))
            cost = 0 if blob == _UNCHANGED else len(blob)
            if self.since + cost <= self.key_bytes:
                self.frame, self.tick, self.since = data, tick, self.since + cost
                return self.base, blob
        blob = pack_json(data)
        self.frame, self.tick, self.base, self.key_bytes, self.since = data, tick, tick, len(blob), 0
        return tick, blob

    def load(self, rows: list[tuple[int, int, bytes]], decode: Callable[[Any, str], Any]) -> None:
        """Go on after a run's last rows: ``(tick, base, data)`` from its last keyframe on.

        Raises:
            ValueError: when the rows do not start at a keyframe (as :func:`replay`).
        """
        for tick, frame in replay(rows, decode):
            self.frame, self.tick = frame, tick
        self.base, self.key_bytes = rows[0][0], len(rows[0][2])
        self.since = sum(0 if data == _UNCHANGED else len(data) for _, _, data in rows[1:])


def frame_delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The change from one FRAME's data to the next.

    Returns:
        ``{"personas": {pid: {field: value}}}`` with only the fields that changed (a persona
        new in ``after`` with all of its fields), and ``"gone": [pid, ...]`` when personas left
        (a player).
    """
    old, new = before["personas"], after["personas"]
    changed = {}
    for pid, fields in new.items():
        was = old.get(pid)
        if was is None:
            changed[pid] = fields
        elif was != fields:
            changed[pid] = {k: v for k, v in fields.items() if k not in was or was[k] != v}
    delta: dict[str, Any] = {"personas": changed}
    gone = [pid for pid in old if pid not in new]
    if gone:
        delta["gone"] = gone
    return delta


def apply_delta(frame: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The FRAME data after ``delta`` (:func:`frame_delta`): a new dict; ``frame`` is unchanged."""
    personas = dict(frame["personas"])
    for pid in delta.get("gone", ()):
        personas.pop(pid, None)
    for pid, fields in delta["personas"].items():
        personas[pid] = {**personas[pid], **fields} if pid in personas else fields
    return {**frame, "personas": personas}


def replay(rows: Iterable[tuple[int, int, Any]], decode: Callable[[Any, str], Any]) -> Iterator[tuple[int, dict]]:
    """``(tick, FRAME data)`` of each row, in order, from rows that start at a keyframe.

    Args:
        rows: ``(tick, base, data)`` in tick order, the first a keyframe.
        decode: ``decode(data, what)`` of a stored value (raises the reader's error).

    Raises:
        ValueError: when the first row is not a keyframe, or a row's base is not its keyframe.
    """
    frame: dict[str, Any] | None = None
    base = None
    for tick, row_base, data in rows:
        value = decode(data, f"frame at tick {tick}")
        if row_base == tick:
            frame, base = value, tick
        elif frame is None or row_base != base:
            raise ValueError(f"the frame at tick {tick} is a change from tick {row_base}, which is not "
                             "recorded before it")
        else:
            frame = apply_delta(frame, value)
        yield tick, frame


def latest(rows: list[tuple[int, int, Any]], decode: Callable[[Any, str], Any]) -> dict[str, Any]:
    """The FRAME data of the last of ``rows`` (from its keyframe on), each change folded into
    one copy of the keyframe (what :func:`replay` yields last, without a frame per row).

    Raises:
        ValueError: as :func:`replay`.
    """
    (key_tick, key_base, key_data), changes = rows[0], rows[1:]
    if key_base != key_tick:
        raise ValueError(f"the frame at tick {key_tick} is a change from tick {key_base}, which is not "
                         "recorded before it")
    frame = decode(key_data, f"frame at tick {key_tick}")
    personas, copied = dict(frame["personas"]), set[str]()
    for tick, base, data in changes:
        if base != key_tick:
            raise ValueError(f"the frame at tick {tick} is a change from tick {base}, which is not "
                             "recorded before it")
        if data == _UNCHANGED:
            continue
        delta = decode(data, f"frame at tick {tick}")
        for pid in delta.get("gone", ()):
            personas.pop(pid, None)
        for pid, fields in delta["personas"].items():
            if pid in copied:
                personas[pid].update(fields)
            else:  # the keyframe's own dict stays as decoded
                personas[pid] = {**personas.get(pid, {}), **fields}
                copied.add(pid)
    return {**frame, "personas": personas}


class FrameHistory(ABC):
    """Seeking a run's frames (a part of :class:`~town.recording.reader.RunReader`).

    Reads through the reader's ``_rows`` (SQL rows), ``_decode`` (a stored value) and ``path``.
    """

    path: Path

    @abstractmethod
    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]: ...

    @abstractmethod
    def _decode(self, raw: str | bytes, what: str) -> Any: ...

    @property
    def first_tick(self) -> int | None:
        """The first recorded tick, or None before the first frame is committed."""
        return self._rows("SELECT MIN(tick) FROM frames")[0][0]

    @property
    def last_tick(self) -> int | None:
        """The last committed tick, or None before the first frame is committed."""
        return self._rows("SELECT MAX(tick) FROM frames")[0][0]

    def frame(self, tick: int | None) -> dict[str, Any]:
        """The frame of one tick: ``{"tick", "time", "personas": {pid: {x, y, address, ...}}}``.

        Reads the tick's keyframe and the changes after it up to the tick (at most
        ``KEYFRAME_TICKS - 1``; ``town.recording.frames``).

        Args:
            tick: the tick; None (what :attr:`last_tick` is before the first frame) is refused.

        Raises:
            RecordingError: when the run has no frame at ``tick`` ("PATH has no recorded tick
                yet" for None), or the frame's data is damaged.
        """
        if tick is None:
            raise RecordingError(f"{self.path} has no recorded tick yet")
        rows = self._rows("SELECT f.tick, f.base, f.data, t.time FROM frames t JOIN frames f"
                          " ON f.tick BETWEEN t.base AND t.tick WHERE t.tick = ? ORDER BY f.tick", (int(tick),))
        if not rows:
            span = f"{self.first_tick}-{self.last_tick}"
            raise RecordingError(f"{self.path}: no frame at tick {tick} (recorded ticks {span})")
        try:
            data = latest([r[:3] for r in rows], self._decode)
        except ValueError as exc:
            raise damaged(self.path, exc) from None
        return {"tick": int(tick), "time": rows[-1][3], **data}

    def frames(self, start: int, end: int) -> list[dict[str, Any]]:
        """Frames of ticks ``start..end`` (inclusive), in tick order, shaped as :meth:`frame`."""
        rows = self._rows(
            "SELECT tick, base, data, time FROM frames WHERE tick BETWEEN"
            " COALESCE((SELECT base FROM frames WHERE tick >= ? ORDER BY tick LIMIT 1), ?) AND ? ORDER BY tick",
            (int(start), int(start), int(end)),
        )
        times = {r[0]: r[3] for r in rows}
        return [{"tick": t, "time": times[t], **data}
                for t, data in self._replay([r[:3] for r in rows]) if t >= start]

    def _replay(self, rows: list[tuple]) -> list[tuple[int, dict[str, Any]]]:
        """``(tick, FRAME data)`` of frame rows from a keyframe on; a damaged one: RecordingError."""
        try:
            return list(replay(rows, self._decode))
        except ValueError as exc:
            raise damaged(self.path, exc) from None
