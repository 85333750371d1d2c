"""The per-app live state: the runner, its relay, the run reader and who may control."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from town.recording.reader import RunReader
from town.runner import Runner

from .players import Seats
from .relay import FrameRelay
from .security import token_ok

__all__ = ["Live", "live"]


class Live:
    """What one app serves live.

    Args:
        runner: the live runner, or None (no live run).
        run_path: the live run's SQLite file, or None.
        token: the control token, or None when control is open (loopback).
        relay: the relay forwarding the runner's bus to viewers, or None.
        player_grace_s: wall seconds a player whose tabs all closed stays (:class:`~web.players.Seats`).
    """

    def __init__(self, *, runner: Runner | None, run_path: str | Path | None,
                 token: str | None, relay: FrameRelay | None, player_grace_s: float = 15.0):
        self.runner = runner
        self.seats = None if runner is None else Seats(runner, player_grace_s)
        self.run_path = None if run_path is None else Path(run_path)
        self.token = token
        self.relay = relay
        self.controllers: set[str] = set()
        self._reader: RunReader | None = None
        self._lock = threading.Lock()
        self._unsubscribe = None

    @property
    def simulation(self) -> Any:
        """The live simulation (for its static map and persona specs only), or None."""
        return None if self.runner is None else self.runner.simulation

    def reader(self) -> RunReader | None:
        """The live run's reader, opened on first use (None until the file exists).

        Raises:
            RecordingError: when the file exists but is not a readable run.
        """
        with self._lock:
            if self._reader is None and self.run_path is not None and self.run_path.is_file():
                self._reader = RunReader(self.run_path)
            return self._reader

    def may_control(self, given: object) -> bool:
        """Whether ``given`` is the control token (True when no token is required)."""
        return token_ok(self.token, given)

    def attach(self) -> None:
        """Subscribe the relay to the runner's bus and start its sender."""
        if self.relay is not None and self.runner is not None and self._unsubscribe is None:
            self._unsubscribe = self.runner.simulation.bus.subscribe(self.relay.handle)
            self.relay.start()

    def close(self) -> None:
        """Detach the relay and close the reader (the runner is its owner's to stop)."""
        if self.seats is not None:
            self.seats.close()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.relay is not None:
            self.relay.stop()
        with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None


def live(app: Flask | None = None) -> Live:
    """The :class:`Live` of ``app`` (default: the current app)."""
    return (app or current_app).extensions["town_live"]
