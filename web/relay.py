"""The live relay: from the simulation's bus to the viewers' Socket.IO connections.

The simulation never waits on a browser. :meth:`FrameRelay.handle` (a bus subscriber, run on the
runner's thread) only appends to bounded buffers; a background task sends at most every
``interval`` wall seconds:

- ``frame`` to each viewer, acknowledged by the viewer. A viewer that keeps up gets every frame,
  in tick order. A viewer with ``max_inflight`` frames not yet acknowledged gets nothing more
  until it catches up, and then only the latest frame: nothing queues without bound, and ticks
  only ever increase per viewer. Frames go as deltas (:func:`frame_delta`): the first frame a
  viewer gets, the one after it fell behind and the one after it asks to ``resync`` are full,
  ``{"tick", "time", "full": true, "personas": {pid: entry}}``; every other is
  ``{"tick", "time", "base", "changed": {pid: {field: value}}, "gone": [pid]}``, the fields that
  differ from the frame of tick ``base``, which that viewer was sent just before. The run file
  keeps full frames (seek and comparison read them).
- ``activity`` ``{"items": [...], "model_calls": int}``: light summaries of chat lines,
  retrievals, conversations, reflections, procedure and scenario events, plus the running count
  of model calls, broadcast to all viewers.
- ``status`` (the runner's status) whenever a STATUS event passes.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_socketio import SocketIO

from town.events import Event, EventKind

__all__ = ["FrameRelay", "activity_item", "frame_delta"]

#: Event kinds summarised in ``activity`` messages.
ACTIVITY_KINDS = frozenset({EventKind.CHAT, EventKind.RETRIEVAL, EventKind.CONVERSATION,
                            EventKind.REFLECTION, EventKind.PROCEDURE, EventKind.SCENARIO,
                            EventKind.WHISPER, EventKind.STATUS, EventKind.INPUT})
_ACTIVITY_KEYS = ("speaker", "listener", "line", "conversation", "retrieval", "purpose", "query",
                  "participants", "summary", "op", "name", "library", "result", "merged", "via", "text", "state",
                  "reason", "speed", "id", "ok", "error", "ended_by")


def activity_item(event: Event) -> dict[str, Any]:
    """A light JSON summary of ``event`` for the page's ticker and speech bubbles."""
    item = {"seq": event.seq, "kind": event.kind.value, "tick": event.tick,
            "time": event.time.isoformat(sep=" "), "persona": event.persona}
    for key in _ACTIVITY_KEYS:
        value = event.data.get(key)
        if isinstance(value, str | int | float | bool | list) or value is None and key in event.data:
            item[key] = value
    if event.kind is EventKind.INPUT:  # what was asked, e.g. {"kind": "move", "player", "x", "y"}
        item["input"] = event.data.get("input")
    return item


def frame_delta(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]
                ) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """What changed between two frames' persona entries.

    Args:
        old: ``{pid: {"x", "y", "address", "action", ...}}`` of the earlier frame.
        new: the same shape for the later frame.

    Returns:
        ``(changed, gone)``: per persona whose entry differs, only the fields that differ (a field
        that disappeared is ``None``; a persona new in ``new`` comes whole); and the ids in ``old``
        missing from ``new``, sorted. Applying both to ``old`` gives ``new``.
    """
    changed: dict[str, dict[str, Any]] = {}
    for pid, entry in new.items():
        before = old.get(pid)
        if before is None:
            changed[pid] = entry
        elif before != entry:
            fields = {k: v for k, v in entry.items() if k not in before or before[k] != v}
            fields.update({k: None for k in before if k not in entry})
            changed[pid] = fields
    return changed, sorted(pid for pid in old if pid not in new)


@dataclass
class _Viewer:
    """What the relay knows of one connection (``full``: its next frame must be whole)."""

    last_tick: int
    inflight: int = 0
    full: bool = True


class FrameRelay:
    """Forwards a bus's events to Socket.IO viewers with bounded buffers.

    Args:
        socketio: the app's Socket.IO server.
        status: returns the runner's status dict (sent on STATUS events and on connect).
        namespace: the Socket.IO namespace of the viewers.
        interval: wall seconds between sends (default 1/30).
        max_pending: frames kept for viewers that are behind (older ones are dropped).
        max_inflight: unacknowledged frames after which a viewer is skipped until it acks.
    """

    def __init__(self, socketio: SocketIO, status: Callable[[], dict[str, Any]], *,
                 namespace: str = "/", interval: float = 1 / 30, max_pending: int = 64,
                 max_inflight: int = 64):
        self._sio = socketio
        self._status = status
        self._namespace = namespace
        self._interval = interval
        self._max_inflight = max_inflight
        self._frames: deque[dict[str, Any]] = deque(maxlen=max_pending)
        self._activity: deque[dict[str, Any]] = deque(maxlen=256)
        self._status_changed = False
        self._viewers: dict[str, _Viewer] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._model_calls = 0
        self._sent_calls = 0
        self._task = None
        self._deltas: dict[int, dict[str, Any]] = {}  # tick -> delta message from tick - 1

    @property
    def model_calls(self) -> int:
        """Model calls seen on the bus since the relay was attached."""
        return self._model_calls

    # -- bus side (runner's thread): never blocks on a viewer ----------------------------

    def handle(self, event: Event) -> None:
        """Bus subscriber: buffer ``event`` for the next send."""
        with self._lock:
            if event.kind is EventKind.FRAME:
                self._frames.append({"tick": event.tick, "time": event.time.isoformat(sep=" "),
                                     "personas": event.data.get("personas", {})})
            elif event.kind is EventKind.MODEL_CALL:
                self._model_calls += 1
            if event.kind in ACTIVITY_KINDS:
                self._activity.append(activity_item(event))
            if event.kind is EventKind.STATUS:
                self._status_changed = True
        self._wake.set()

    # -- viewers -------------------------------------------------------------------------

    def add_viewer(self, sid: str) -> None:
        """Register a connection; its first frame will be the latest one."""
        with self._lock:
            last = self._frames[-1]["tick"] - 1 if self._frames else -1
            self._viewers[sid] = _Viewer(last_tick=last)
        self._wake.set()

    def remove_viewer(self, sid: str) -> None:
        """Forget a connection."""
        with self._lock:
            self._viewers.pop(sid, None)

    def resync(self, sid: str) -> None:
        """The viewer lost track (a delta not based on what it holds): next, the latest frame whole."""
        with self._lock:
            viewer = self._viewers.get(sid)
            if viewer is not None:
                viewer.full = True
                viewer.last_tick = self._frames[-1]["tick"] - 1 if self._frames else -1
        self._wake.set()

    def _acked(self, sid: str, *_args: Any) -> None:
        with self._lock:
            viewer = self._viewers.get(sid)
            if viewer is not None and viewer.inflight > 0:
                viewer.inflight -= 1
        self._wake.set()

    # -- sending (background task) -------------------------------------------------------

    def start(self) -> None:
        """Start the background sender (once)."""
        if self._task is None:
            self._task = self._sio.start_background_task(self._run)

    def stop(self) -> None:
        """Stop the background sender after its current send."""
        self._stopped.set()
        self._wake.set()

    def _run(self) -> None:
        while not self._stopped.is_set():
            self._wake.wait()
            self._wake.clear()
            self.flush()
            self._sio.sleep(self._interval)

    def flush(self) -> None:
        """Send what is buffered: frames per viewer, then activity and status to all."""
        with self._lock:
            frames = list(self._frames)
            activity = list(self._activity)
            self._activity.clear()
            status_changed, self._status_changed = self._status_changed, False
            plan: list[tuple[str, list[tuple[dict[str, Any], bool]]]] = []
            for sid, viewer in self._viewers.items():
                new = [f for f in frames if f["tick"] > viewer.last_tick]
                room = self._max_inflight - viewer.inflight
                if not new or room <= 0:
                    continue
                if len(new) > room or new[0]["tick"] != viewer.last_tick + 1:
                    new = new[-1:]  # behind: the latest frame wins, whole
                    viewer.full = True
                viewer.inflight += len(new)
                viewer.last_tick = new[-1]["tick"]
                plan.append((sid, [(f, viewer.full and i == 0) for i, f in enumerate(new)]))
                viewer.full = False
            model_calls = self._model_calls
            calls_changed, self._sent_calls = model_calls != self._sent_calls, model_calls
        by_tick = {f["tick"]: f for f in frames}
        for sid, batch in plan:
            for frame, full in batch:
                message = None if full else self._delta(frame, by_tick.get(frame["tick"] - 1))
                self._sio.emit("frame", message or {**frame, "full": True}, to=sid,
                               namespace=self._namespace,
                               callback=lambda *a, _sid=sid: self._acked(_sid, *a))
        for tick in [t for t in self._deltas if t not in by_tick]:
            del self._deltas[tick]
        if activity or calls_changed:
            self._sio.emit("activity", {"items": activity, "model_calls": model_calls},
                           namespace=self._namespace)
        if status_changed:
            self._sio.emit("status", self._status(), namespace=self._namespace)

    def _delta(self, frame: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any] | None:
        """The delta message of ``frame`` from ``base``, the frame of the tick before.

        Computed once for all viewers; None when ``base`` is no longer buffered.
        """
        tick = frame["tick"]
        if tick not in self._deltas:
            if base is None:
                return None
            changed, gone = frame_delta(base["personas"], frame["personas"])
            self._deltas[tick] = {"tick": tick, "time": frame["time"], "base": tick - 1,
                                  "changed": changed, "gone": gone}
        return self._deltas[tick]
