"""Incremental snapshots: a simulation state split into parts, each stored only when it changed.

A state (``Simulation.get_state()``) is split into a head (the clock, the conversations and the
counters, written with every snapshot) and parts: ``world``, ``town_procedures`` and one
``persona:<id>`` per persona (:func:`split`). The writer stores a part only when its packed
bytes differ from the version it last stored (:class:`PartLog`), so a night when everyone sleeps
writes little more than the head. The state at a snapshot is its head and, for each part, the
newest version at or before its tick (:func:`read_state`). Memory records are not in the state
at all: the ``memories``, ``vectors`` and ``retrievals`` tables hold them (docs/design, §4).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from town.recording.schema import pack_json, digest_of

__all__ = ["PARTS", "split", "join", "PartLog", "read_state", "newest_parts"]

#: Top-level keys of a state stored as parts of their own (besides one part per persona).
PARTS = ("world", "town_procedures")

#: ``rows(sql, params)`` of a run file's connection.
Rows = Callable[[str, tuple], list[tuple]]


def split(state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(head, parts)`` of a state: the head holds every key but the parts, and the persona
    ids in order under ``"personas"``; the parts are keyed ``persona:<id>``, ``world``, ....

    A key the state lacks has no part (a state without ``"personas"`` is all head)."""
    head = {k: v for k, v in state.items() if k not in PARTS and k != "personas"}
    parts = {k: state[k] for k in PARTS if k in state}
    if "personas" in state:
        head["personas"] = list(state["personas"])
        parts.update((f"persona:{pid}", ps) for pid, ps in state["personas"].items())
    return head, parts


def join(head: dict[str, Any], parts: dict[str, Any], what: str) -> dict[str, Any]:
    """The state :func:`split` made ``head`` and ``parts`` from.

    Raises:
        KeyError: naming ``what`` (e.g. "snapshot at tick 359") and the part that is missing.
    """
    state = {k: v for k, v in head.items() if k != "personas"}
    try:
        if "personas" in head:
            state["personas"] = {pid: parts[f"persona:{pid}"] for pid in head["personas"]}
        state.update((k, parts[k]) for k in PARTS if k in parts)
    except KeyError as exc:
        raise KeyError(f"{what}: no part {exc.args[0]!r}") from None
    return state


class PartLog:
    """What the writer stored last of each part (its digest), to store only changed parts.

    Args:
        conn: the run file, whose stored parts seed the log (a run written on after resume or
            fork compares with what the file holds, so it writes what an unbroken run would).
    """

    def __init__(self, conn: sqlite3.Connection | None = None):
        self._digests: dict[str, bytes] = {}
        if conn is not None:
            for part, _, blob in newest_parts(lambda sql, params: conn.execute(sql, params).fetchall()):
                self._digests[part] = digest_of(blob)

    def changed(self, parts: dict[str, Any]) -> list[tuple[str, bytes]]:
        """``(part, packed state)`` of the parts that differ from their last stored version,
        which they become (the caller stores them in the same transaction)."""
        out = []
        for name, value in parts.items():
            blob = pack_json(value)
            digest = digest_of(blob)
            if self._digests.get(name) != digest:
                self._digests[name] = digest
                out.append((name, blob))
        return out


def newest_parts(rows: Rows, tick: int | None = None) -> list[tuple[str, int, bytes]]:
    """``(part, tick, packed state)`` of each part's newest version (at or before ``tick``).

    SQLite gives a bare column of a ``MAX()`` aggregate from the row holding the maximum.
    """
    where, params = ("WHERE tick <= ?", (int(tick),)) if tick is not None else ("", ())
    return rows(f"SELECT part, MAX(tick), state FROM snapshot_parts {where} GROUP BY part", params)


def read_state(rows: Rows, tick: int, head: bytes, decode: Callable[[bytes, str], Any]) -> dict[str, Any]:
    """The whole state of the snapshot at ``tick`` whose head row holds ``head``.

    Args:
        rows: ``rows(sql, params)`` of the run file.
        tick: the snapshot's tick.
        head: its ``snapshots.state`` blob.
        decode: ``decode(raw, what)`` of a stored value (raises the reader's error).

    Raises:
        whatever ``decode`` raises for a damaged value, and KeyError naming a missing part.
    """
    what = f"snapshot at tick {tick}"
    parts = {part: decode(blob, f"{what}, part {part!r} of tick {at}") for part, at, blob in newest_parts(rows, tick)}
    return join(decode(head, what), parts, what)
