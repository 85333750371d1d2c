"""Conversations and the recent feed, live and in replay (Blueprint ``conversations``).

API (JSON; :mod:`web.conversations` reads them from the run file):

- ``GET /api/conversations?persona=&limit=``: the live run's ``{open: [...], past: [...]}``,
  newest first; an entry is ``{id, participants, start_tick, start_time, end_tick, end_time,
  lines, last}``
- ``GET /api/conversations/<id>``: its transcript: the entry with ``lines: [{seq, tick, time,
  speaker, listener, line, retrieval, shared}]`` (``retrieval``: the seq of the speaker's
  retrieval; null for a player's words) and ``summary`` (each side's, once it ended)
- ``GET /api/runs/<name>/conversations?tick=&persona=&limit=`` and
  ``/api/runs/<name>/conversations/<id>?tick=``: the same for a saved run, as of ``tick``
- ``GET /api/feed?hours=1``: the live run's recent activity items (as the Socket.IO ``activity``
  message carries them, oldest first, at most :data:`FEED_MAX`), so a page opened mid-run starts
  with the last game hour
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from town.events import EventKind

from .conversations import index_for
from .live import live
from .params import MAX_INT, fail, int_arg, limit_arg
from .relay import ACTIVITY_KINDS, activity_item
from .run_files import open_named

__all__ = ["bp", "FEED_MAX"]

bp = Blueprint("conversations", __name__)

#: Feed items a page gets on opening, at most.
FEED_MAX = 400
_FEED_KINDS = sorted(k.value for k in ACTIVITY_KINDS - {EventKind.STATUS, EventKind.RETRIEVAL})


def _live_reader():
    reader = live().reader()
    if reader is None:
        fail(503, "no live run (or nothing recorded yet)")
    return reader


def _persona() -> str | None:
    persona = request.args.get("persona") or None
    if persona is not None and len(persona) > 200:
        fail(400, "persona: an id of at most 200 characters")
    return persona


@bp.get("/api/conversations")
def live_conversations():
    """The live run's open and past conversations (``persona``: only theirs)."""
    return jsonify(index_for(_live_reader()).listing(persona=_persona(), limit=limit_arg(200)))


@bp.get("/api/conversations/<int:cid>")
def live_transcript(cid: int):
    """One conversation of the live run, every line so far."""
    found = index_for(_live_reader()).transcript(cid)
    if found is None:
        fail(404, f"no conversation {cid} in this run")
    return jsonify(found)


def _tick(reader) -> int | None:
    last = reader.last_tick
    return int_arg("tick", None, low=reader.first_tick or 0, high=MAX_INT if last is None else last)


@bp.get("/api/runs/<name>/conversations")
def run_conversations(name: str):
    """A saved run's conversations as of ``tick`` (default: its end)."""
    with open_named(name) as reader:
        return jsonify(index_for(reader).listing(tick=_tick(reader), persona=_persona(), limit=limit_arg(200)))


@bp.get("/api/runs/<name>/conversations/<int:cid>")
def run_transcript(name: str, cid: int):
    """One conversation of a saved run, as of ``tick`` (default: its end)."""
    with open_named(name) as reader:
        found = index_for(reader).transcript(cid, _tick(reader))
    if found is None:
        fail(404, f"no conversation {cid} in {name} by then")
    return jsonify(found)


@bp.get("/api/feed")
def feed():
    """The live run's activity of the last ``hours`` game hours (1 by default, at most 24).

    Talk and the other news (reflections, procedures, whispers, scenario events) come first,
    up to :data:`FEED_MAX` of them; the retrievals the feed shows (all but ``act``, as the
    page), up to a quarter as many, so that a busy hour's retrievals do not crowd out its talk.
    """
    reader = _live_reader()
    hours = int_arg("hours", 1, low=1, high=24)
    last = reader.last_tick
    if last is None:
        return jsonify(items=[])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    since = max(0, last - hours * 3600 // spt + 1)
    news = reader.events(_FEED_KINDS, since_tick=since, newest_first=True, limit=FEED_MAX)
    recalled = [e for e in reader.events([EventKind.RETRIEVAL], since_tick=since, newest_first=True, limit=FEED_MAX)
                if e.data.get("purpose") != "act"][:FEED_MAX // 4]
    return jsonify(items=[activity_item(e) for e in sorted(news + recalled, key=lambda e: e.seq)])
