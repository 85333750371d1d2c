"""Simulation events and the bus that publishes them.

The Simulation publishes everything that happens as :class:`Event` s: frames, memories written,
retrievals (with traces), conversations, reflections, plans, procedure uses, model calls, status.
Subscribers (the run writer, the live viewer, progress output) receive them in order. The
viewer never reaches into a persona: it reads events or the run database.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["EventKind", "Event", "EventBus", "VECTOR_KEYS"]

#: Keys of ``Event.data`` that may hold a ``(d,) float32`` numpy vector instead of JSON.
VECTOR_KEYS = ("embedding", "query_embedding")


class EventKind(str, enum.Enum):
    """The closed set of event kinds (stored as their string value)."""

    FRAME = "frame"  # data: {"personas": {id: {x, y, address, action, emoji, speech, chat}}}
    MEMORY = "memory"  # data: MemoryRecord.to_dict() + "embedding"
    RETOLD = "retold"  # data: MemoryRecord.to_dict() of a held fact heard again (a teller added)
    RETRIEVAL = "retrieval"  # data: RetrievalTrace.to_dict() (+ "query_embedding")
    PLAN = "plan"  # data: {"level": "day"|"hour"|"action", "items": [...]} or action
    ACTION = "action"  # data: {"description", "address", "emoji", "start", "minutes"}
    CHAT = "chat"  # data: {"conversation": int, "speaker", "listener", "line", "shared": [ids]}
    # data: {"conversation", "participants", "start_tick", "end_tick", "lines", "summary"}, and
    # "written" (a conversation written whole), "ended_by" (the player who ended it)
    CONVERSATION = "conversation"
    REFLECTION = "reflection"  # data: {"focal_points", "insights": [{"memory", "evidence"}]}
    PROCEDURE = "procedure"  # data: {"op": save|use|outcome|deviation|prune, ...}
    MODEL_CALL = "model_call"  # data: {"template", "purpose", "tokens_in", ..., "outcome"}
    SCENARIO = "scenario"  # data: a timed scenario event that fired (close place, news, ...)
    WHISPER = "whisper"  # data: {"text", "memory"}
    INPUT = "input"  # data: {"id", "input": {"kind", ...}, "ok", "result" | "error"} (town.simulation.inputs)
    STATUS = "status"  # data: {"state": running|paused|stalled|finished, "reason"}


@dataclass(frozen=True, kw_only=True)
class Event:
    """One thing that happened at a tick.

    Attributes:
        kind: what happened.
        tick: simulation tick (int >= 0).
        time: game datetime of that tick.
        persona: persona id concerned, or None for town-wide events.
        data: JSON-able payload, except keys in :data:`VECTOR_KEYS` which may hold numpy vectors.
        seq: position in the run's event order, set by :class:`EventBus` (0 = unset).
    """

    kind: EventKind
    tick: int
    time: datetime
    persona: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    seq: int = 0

    def to_dict(self, *, vectors: bool = False) -> dict[str, Any]:
        """JSON-able dict; vectors are dropped unless ``vectors`` (then as lists of float)."""
        data = {}
        for key, value in self.data.items():
            if key in VECTOR_KEYS and value is not None and not isinstance(value, list):
                if not vectors:
                    continue
                value = [float(v) for v in value]
            data[key] = value
        return {
            "seq": self.seq,
            "kind": self.kind.value,
            "tick": self.tick,
            "time": self.time.isoformat(sep=" "),
            "persona": self.persona,
            "data": data,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        """Inverse of :meth:`to_dict`.

        Raises:
            KeyError, ValueError: when a field is missing or of the wrong kind.
        """
        return cls(
            kind=EventKind(d["kind"]),
            tick=int(d["tick"]),
            time=datetime.fromisoformat(d["time"]),
            persona=d.get("persona"),
            data=dict(d.get("data") or {}),
            seq=int(d.get("seq", 0)),
        )


class EventBus:
    """Publishes events to subscribers in order, numbering them with ``seq`` (1, 2, ...).

    Subscribers are called synchronously in the publishing thread; a subscriber that needs to
    hand events to another thread (the web viewer) must not block.
    """

    def __init__(self, start_seq: int = 0):
        self._subscribers: list[Callable[[Event], None]] = []
        self._seq = int(start_seq)
        self._lock = threading.Lock()

    @property
    def seq(self) -> int:
        """The seq of the last published event."""
        return self._seq

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def publish(self, event: Event) -> Event:
        """Number ``event`` and deliver it to every subscriber; returns the numbered event."""
        with self._lock:
            self._seq += 1
            numbered = Event(
                kind=event.kind,
                tick=event.tick,
                time=event.time,
                persona=event.persona,
                data=event.data,
                seq=self._seq,
            )
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(numbered)
        return numbered
