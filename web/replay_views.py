"""Saved runs: the runs page, the replay page and their JSON API (Blueprint ``replay``).

Runs are addressed by name only (docs/design, §4); every route goes through
:func:`web.run_files.open_named`, so a refused name is 404 and nothing outside the runs folder is
opened. Everything is read from the run file: no model, no network, no Simulation. A run's
evaluation is served by :mod:`web.evaluation_views`.

Pages: ``GET /runs`` (the runs folder), ``GET /replay/<name>``.

API (JSON; errors ``{"error"}`` with 400 bad parameter, 404 unknown/refused, 422 damaged run):

- ``GET /api/runs``: ``{"runs": [RunReader.summary() | {"name", "size_bytes", "error"}]}``
- ``GET /api/runs/<name>``: ``{"summary", "map", "personas": [identity], "start",
  "seconds_per_tick", "first_tick", "last_tick", "snapshots": [[tick, time, seq]],
  "analysis_model": {"backend", "model", "base_url"} | null}`` (the model a POST of the
  evaluation asks: the server's command line named it)
- ``GET /api/runs/<name>/opening``: ``{"opening": {"tick", "persona", "retrieval"} | null}``, where the
  page opens when its address names no tick: the liveliest moment, a speaker and its retrieval
- ``GET /api/runs/<name>/frames/<tick>``: ``RunReader.frame(tick)``
- ``GET /api/runs/<name>/frames?start=&end=``: ``{"frames": [...]}`` (at most 600 ticks)
- ``GET /api/runs/<name>/personas/<pid>?tick=``: the persona panel as of the end of ``tick``
- ``GET /api/runs/<name>/personas/<pid>/memories?tick=&q=&kind=&limit=``
- ``GET /api/runs/<name>/personas/<pid>/retrievals?purpose=&since=&until=&limit=``
- ``GET /api/runs/<name>/retrievals/<seq>``: the full trace (no query vector)
- ``GET /api/runs/<name>/retrievals/<seq>/lab?w=rec,imp,rel&k=``:
  :func:`town.recording.lab.rescore` (new top k, runners-up, entered, left)
- ``GET /api/runs/<name>/jump?persona=&kind=conversation|reflection&after=<tick>&direction=next|prev``:
  ``{"tick", "time", "kind", "summary"}`` of the next (previous) one, or ``{"tick": null}``
- ``GET /api/runs/<name>/moments``: ``{"moments": [{"kind", "tick", "seq", "personas"}]}``
  (conversations at their start tick, reflections), for the timeline's marks
- ``GET /api/runs/<name>/procedures?tick=``: :func:`web.procedures_view.procedure_libraries`
- ``GET /api/runs/<name>/personas/<pid>/interview?q=&tick=``: :func:`town.analysis.interview.interview`
  as of the end of ``tick`` (read-only: the run file is not changed)
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request

from town.errors import ConfigError, MemoryStreamError, RecordingError, TownError
from town.events import VECTOR_KEYS, EventKind
from town.recording.lab import rescore
from town.recording.reader import RunReader
from town.recording.runs import list_runs

from .params import MAX_INT, fail, int_arg, limit_arg, weights_arg
from .persona_view import memory_rows, persona_panel, seq_after_tick
from .procedures_view import procedure_libraries
from .run_files import embedder_for, identities, open_named, runs_dir

__all__ = ["bp", "JUMP_KINDS", "MAX_BATCH"]

bp = Blueprint("replay", __name__)

#: What "jump to the next ..." can look for.
JUMP_KINDS = ("conversation", "reflection")
#: Most frames one batch request returns.
MAX_BATCH = 600


def _tick(reader: RunReader, name: str = "tick") -> int | None:
    """The ``tick`` parameter, within the recorded ticks (None when absent)."""
    first, last = reader.first_tick, reader.last_tick
    if last is None:
        if request.args.get(name):
            fail(404, "the run has no frames yet")
        return None
    return int_arg(name, None, low=first, high=last)


def _identity(reader: RunReader, pid: str) -> dict[str, Any]:
    known = identities(reader)
    if pid not in known:
        fail(404, f"no persona {pid!r} in this run")
    return known[pid]


# -- pages -------------------------------------------------------------------------------


@bp.get("/runs")
def runs_page():
    """The saved runs of the runs folder (damaged files listed with their error)."""
    return render_template("runs.html", runs=list_runs(runs_dir()), folder=str(runs_dir()))


@bp.get("/replay/<name>")
def replay_page(name: str):
    """The replay page of run ``name`` (404 for an unknown or refused name, 422 if damaged)."""
    with open_named(name) as reader:
        summary = reader.summary()
        if reader.last_tick is None:
            fail(422, f"run {summary['name']} has no recorded ticks yet")
    return render_template("replay.html", run=summary)


# -- API ---------------------------------------------------------------------------------


@bp.get("/api/runs")
def runs():
    """The runs list as JSON."""
    return jsonify(runs=list_runs(runs_dir()))


@bp.get("/api/runs/<name>")
def run(name: str):
    """A run's summary, map, personas and span, and the model the server may be asked to evaluate it with."""
    with open_named(name) as reader:
        meta = reader.meta
        return jsonify(summary=reader.summary(), map=meta.get("map"),
                       personas=list(identities(reader).values()), start=meta.get("start"),
                       seconds_per_tick=meta.get("seconds_per_tick", 10),
                       first_tick=reader.first_tick, last_tick=reader.last_tick,
                       snapshots=reader.snapshots(), analysis_model=_analysis_model())


def _analysis_model() -> dict[str, Any] | None:
    """The model the server's command line named for evaluations on request (shown on a button), or None."""
    named = current_app.config.get("ANALYSIS_MODEL")
    if named is None or named.name == "scripted":
        return None
    return {"backend": named.name, "model": named.model, "base_url": named.base_url}


@bp.get("/api/runs/<name>/opening")
def opening_moment(name: str):
    """Where the replay opens without a tick in its address (:func:`town.analysis.moments.opening`)."""
    from town.analysis.moments import opening

    with open_named(name) as reader:
        return jsonify(opening=opening(reader))


@bp.get("/api/runs/<name>/frames/<int:tick>")
def frame(name: str, tick: int):
    """One tick's frame."""
    with open_named(name) as reader:
        try:
            return jsonify(reader.frame(tick))
        except RecordingError as exc:
            fail(404, str(exc))


@bp.get("/api/runs/<name>/frames")
def frames(name: str):
    """Frames ``start..end`` (inclusive) for playback."""
    start = int_arg("start", 0, low=0)
    end = int_arg("end", min(start + 59, MAX_INT), low=start)
    if end - start + 1 > MAX_BATCH:
        fail(400, f"end: at most {MAX_BATCH} frames per request, asked for {end - start + 1}")
    with open_named(name) as reader:
        return jsonify(frames=reader.frames(start, end))


@bp.get("/api/runs/<name>/personas/<pid>")
def persona(name: str, pid: str):
    """The persona panel as of the end of ``tick`` (default: the last tick)."""
    with open_named(name) as reader:
        identity = _identity(reader, pid)
        tick = _tick(reader)
        return jsonify(persona_panel(reader, identity,
                                     tick=reader.last_tick if tick is None else tick))


@bp.get("/api/runs/<name>/personas/<pid>/memories")
def memories(name: str, pid: str):
    """The persona's memory stream as of the end of ``tick``, newest first, filtered."""
    with open_named(name) as reader:
        _identity(reader, pid)
        tick = _tick(reader)
        rows = reader.memories(pid, q=request.args.get("q") or None,
                               kind=request.args.get("kind") or None, limit=limit_arg(50),
                               as_of_seq=None if tick is None else seq_after_tick(reader, tick))
        return jsonify(persona=pid, memories=memory_rows(rows))


@bp.get("/api/runs/<name>/personas/<pid>/retrievals")
def retrievals(name: str, pid: str):
    """The persona's retrievals, newest first, by purpose and tick range."""
    with open_named(name) as reader:
        _identity(reader, pid)
        rows = reader.retrievals(pid, purpose=request.args.get("purpose") or None,
                                 since_tick=int_arg("since", None, low=0),
                                 until_tick=int_arg("until", None, low=0), limit=limit_arg(50))
        return jsonify(persona=pid, retrievals=rows)


def _trace(reader: RunReader, seq: int) -> dict[str, Any]:
    try:
        return reader.retrieval(seq)
    except RecordingError:
        fail(404, f"no retrieval {seq} in this run")


@bp.get("/api/runs/<name>/retrievals/<int:seq>")
def retrieval(name: str, seq: int):
    """The full recorded trace of retrieval ``seq`` (without the query vector)."""
    with open_named(name) as reader:
        return jsonify({k: v for k, v in _trace(reader, seq).items() if k not in VECTOR_KEYS})


@bp.get("/api/runs/<name>/retrievals/<int:seq>/lab")
def lab(name: str, seq: int):
    """Re-rank retrieval ``seq`` with weights ``w`` and ``k`` (default: the recorded ones)."""
    with open_named(name) as reader:
        trace = _trace(reader, seq)
        weights = weights_arg("w") or tuple(trace["weights"])
        k = int_arg("k", int(trace["k"]), low=1, high=500)
        try:
            return jsonify(rescore(reader, seq, weights=weights, k=k))
        except MemoryStreamError as exc:
            fail(400, str(exc))


def _conversation_hit(event, persona: str | None) -> dict[str, Any] | None:
    data = event.data
    if persona is not None and persona not in (data.get("participants") or []):
        return None
    summary = data.get("summary") or ""
    if isinstance(summary, dict):  # one summary per participant
        summary = summary.get(persona) or next(iter(summary.values()), "")
    return {"tick": int(data.get("start_tick", event.tick)), "end_tick": event.tick,
            "summary": summary, "participants": data.get("participants")}


def _reflection_hit(event, persona: str | None) -> dict[str, Any] | None:
    if persona is not None and event.persona != persona:
        return None
    focal = event.data.get("focal_points") or []
    return {"tick": event.tick, "summary": "; ".join(focal[:2]), "persona": event.persona}


@bp.get("/api/runs/<name>/jump")
def jump(name: str):
    """The next (or previous) conversation or reflection of a persona after (before) a tick."""
    kind = request.args.get("kind", "conversation")
    if kind not in JUMP_KINDS:
        fail(400, f"kind: must be one of {', '.join(JUMP_KINDS)}, got {kind!r}")
    direction = request.args.get("direction", "next")
    if direction not in ("next", "prev"):
        fail(400, f"direction: must be next or prev, got {direction!r}")
    after = int_arg("after", -1, low=-1, high=MAX_INT - 1)  # after + 1 is a tick too
    with open_named(name) as reader:
        persona_id = request.args.get("persona") or None
        if persona_id is not None:
            _identity(reader, persona_id)
        hit = _conversation_hit if kind == "conversation" else _reflection_hit
        events = reader.events(kinds=[EventKind(kind)], newest_first=direction == "prev",
                               since_tick=after + 1 if direction == "next" else None)
        for event in events:
            found = hit(event, persona_id)
            if found is None:
                continue
            if (found["tick"] > after) if direction == "next" else (found["tick"] < after):
                found.update(kind=kind, time=reader.frame(found["tick"])["time"], seq=event.seq)
                return jsonify(found)
        return jsonify(tick=None, kind=kind)


@bp.get("/api/runs/<name>/moments")
def moments(name: str):
    """Every conversation and reflection, for the timeline's marks (oldest first)."""
    with open_named(name) as reader:
        out = []
        for event in reader.events(kinds=[EventKind.CONVERSATION, EventKind.REFLECTION]):
            found = (_conversation_hit if event.kind is EventKind.CONVERSATION
                     else _reflection_hit)(event, None)
            out.append({"kind": event.kind.value, "tick": found["tick"], "seq": event.seq,
                        "personas": found.get("participants") or [event.persona]})
        return jsonify(moments=out)


@bp.get("/api/runs/<name>/procedures")
def procedures(name: str):
    """The procedure libraries (town and per persona) as of the end of ``tick``."""
    with open_named(name) as reader:
        return jsonify(procedure_libraries(reader, until_tick=_tick(reader)))


@bp.get("/api/runs/<name>/personas/<pid>/interview")
def interview(name: str, pid: str):
    """Ask the persona ``q`` from its memory as of the end of ``tick`` (the run is not changed)."""
    from town.analysis.interview import interview as ask

    question = (request.args.get("q") or "").strip()
    if not question:
        fail(400, "q: ask a question, e.g. 'Do you know about a party?'")
    if len(question) > 500:
        fail(400, f"q: at most 500 characters, got {len(question)}")
    with open_named(name) as reader:
        _identity(reader, pid)
        tick = _tick(reader)
        tick = reader.last_tick if tick is None else tick
        try:
            result = ask(reader, pid, reader.frame(tick)["time"], question,
                         embedder=embedder_for(reader))
        except ConfigError as exc:
            fail(400, str(exc))
        return jsonify(result.to_dict())
