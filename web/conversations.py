"""The conversations of a run, read from its events: the list, and each one's transcript.

A conversation is its CHAT events (one per line, with the retrieval the speaker's line came
from) and, once it ended, its CONVERSATION event (both sides' summaries). The index of a run file
reads only the events recorded since it last looked, so a live run's list stays current at the
cost of its new lines. Any tick can be looked at: a conversation is open at tick t when it
started by t and had not ended by t, and its transcript then holds the lines said by t.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app

from town.events import EventKind
from town.recording.reader import RunReader

__all__ = ["Line", "Talk", "ConversationIndex", "index_for", "MAX_LISTED"]

#: Past conversations listed at most (newest first).
MAX_LISTED = 200


@dataclass(frozen=True)
class Line:
    """One line said: its CHAT event's seq, tick and time, speaker, listener, words, and the
    seq of the retrieval it came from (None for a player's own words)."""

    seq: int
    tick: int
    time: str
    speaker: str
    listener: str
    line: str
    retrieval: int | None
    shared: int

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "tick": self.tick, "time": self.time, "speaker": self.speaker,
                "listener": self.listener, "line": self.line, "retrieval": self.retrieval, "shared": self.shared}


@dataclass
class Talk:
    """One conversation as recorded so far."""

    id: int
    participants: tuple[str, str]
    start_tick: int
    start_time: str
    lines: list[Line] = field(default_factory=list)
    end_tick: int | None = None
    end_time: str | None = None
    summary: dict[str, str] = field(default_factory=dict)

    def open_at(self, tick: int | None) -> bool:
        """Whether it was under way at the end of ``tick`` (None: the latest)."""
        return self.end_tick is None or (tick is not None and tick < self.end_tick)

    def as_of(self, tick: int | None) -> dict[str, Any]:
        """Its list entry as of ``tick``: id, participants, start, end (None while open), lines
        said by then, the last of them."""
        lines = self.lines if tick is None else [x for x in self.lines if x.tick <= tick]
        ended = not self.open_at(tick)
        return {"id": self.id, "participants": list(self.participants), "start_tick": self.start_tick,
                "start_time": self.start_time, "end_tick": self.end_tick if ended else None,
                "end_time": self.end_time if ended else None, "lines": len(lines),
                "last": lines[-1].to_dict() if lines else None}

    def transcript(self, tick: int | None) -> dict[str, Any]:
        """Its entry as of ``tick`` with every line said by then, and the summaries once ended."""
        out = self.as_of(tick)
        out["lines"] = [x.to_dict() for x in self.lines if tick is None or x.tick <= tick]
        out["summary"] = self.summary if out["end_tick"] is not None else {}
        return out


class ConversationIndex:
    """Every conversation of one run file, brought up to date from the events after the last read."""

    def __init__(self) -> None:
        self.after = 0
        self.after_tick = -1
        self.talks: dict[int, Talk] = {}
        self.by_persona: dict[str, list[int]] = {}
        self._lock = threading.Lock()

    def update(self, reader: RunReader) -> ConversationIndex:
        """Read the CHAT and CONVERSATION events recorded since the last update; returns self."""
        with self._lock:
            if self.after and not self._still_same(reader):  # the run was cut back (resume): read it again
                self.__init__()
            for e in reader.events([EventKind.CHAT, EventKind.CONVERSATION], after_seq=self.after):
                self.after, self.after_tick = e.seq, e.tick
                d = e.data
                cid = d.get("conversation")
                if not isinstance(cid, int):
                    continue
                time = e.time.isoformat(sep=" ")
                talk = self.talks.get(cid)
                if e.kind is EventKind.CHAT:
                    if talk is None:
                        talk = self._new(cid, (str(d.get("speaker")), str(d.get("listener"))), e.tick, time)
                    retrieval = d.get("retrieval")
                    talk.lines.append(Line(seq=e.seq, tick=e.tick, time=time, speaker=str(d.get("speaker")),
                                           listener=str(d.get("listener")), line=str(d.get("line", "")),
                                           retrieval=retrieval if isinstance(retrieval, int) else None,
                                           shared=len(d.get("shared") or ())))
                else:
                    parts = d.get("participants") or ["?", "?"]
                    if talk is None:  # ended before its first line (someone walked away)
                        talk = self._new(cid, (str(parts[0]), str(parts[-1])), int(d.get("start_tick", e.tick)), time)
                    talk.end_tick, talk.end_time = e.tick, time
                    summary = d.get("summary")
                    talk.summary = {str(k): str(v) for k, v in summary.items()} if isinstance(summary, dict) else {}
        return self

    def _still_same(self, reader: RunReader) -> bool:
        """Whether the last event read is still in the file, at the same tick."""
        found = reader.events([EventKind.CHAT, EventKind.CONVERSATION], after_seq=self.after - 1, limit=1)
        return bool(found) and found[0].seq == self.after and found[0].tick == self.after_tick

    def _new(self, cid: int, participants: tuple[str, str], tick: int, time: str) -> Talk:
        talk = Talk(id=cid, participants=participants, start_tick=tick, start_time=time)
        self.talks[cid] = talk
        for pid in set(participants):
            self.by_persona.setdefault(pid, []).append(cid)
        return talk

    def listing(self, *, tick: int | None = None, persona: str | None = None,
                limit: int = MAX_LISTED) -> dict[str, list[dict[str, Any]]]:
        """``{"open": [...], "past": [...]}`` as of ``tick`` (None: now), newest first.

        Args:
            tick: the moment looked at; conversations started after it are left out.
            persona: only the conversations this persona (or player) took part in.
            limit: at most this many past conversations.
        """
        with self._lock:
            ids = self.by_persona.get(persona, []) if persona else list(self.talks)
            talks = [self.talks[i] for i in ids if tick is None or self.talks[i].start_tick <= tick]
            talks.sort(key=lambda t: (t.start_tick, t.id), reverse=True)
            opened = [t.as_of(tick) for t in talks if t.open_at(tick)]
            past = [t.as_of(tick) for t in talks if not t.open_at(tick)][:limit]
        return {"open": opened, "past": past}

    def transcript(self, cid: int, tick: int | None = None) -> dict[str, Any] | None:
        """Conversation ``cid``'s transcript as of ``tick``, or None when it had not started."""
        with self._lock:
            talk = self.talks.get(cid)
            if talk is None or (tick is not None and talk.start_tick > tick):
                return None
            return talk.transcript(tick)


def index_for(reader: RunReader) -> ConversationIndex:
    """The up-to-date index of ``reader``'s run file (one per file, kept by the app)."""
    indexes = current_app.extensions.setdefault("town_conversations", {})
    key = str(Path(reader.path).resolve())
    with _lock:
        if key not in indexes:
            if len(indexes) >= 16:
                indexes.pop(next(iter(indexes)))
            indexes[key] = ConversationIndex()
        index = indexes[key]
    return index.update(reader)


_lock = threading.Lock()
