"""Pages and the JSON API of the viewer (Blueprint ``views``).

API (all JSON; errors are ``{"error": str}`` with status 400/403/404/503):

- ``GET /api/town``: ``{name, map, personas: [identity], tick, time, seconds_per_tick, status,
  speeds, token_required}``
- ``GET /api/status``: the runner's status
- ``GET /api/personas/<id>``: ``{identity, now, plan, memories, retrievals}``
- ``GET /api/personas/<id>/memories?q=&kind=&limit=``: ``{persona, memories: [...]}``
- ``GET /api/personas/<id>/retrievals?purpose=&limit=``: ``{persona, retrievals: [...]}``
- ``GET /api/retrievals/<seq>``: the full trace (``RetrievalTrace.to_dict()`` + seq, returned)
- ``POST /api/control`` ``{op, value}``: ``{ok, status}``; needs the token beyond loopback
  (header ``X-Control-Token``, or ``token`` in the body or query)
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from town.errors import RecordingError, TownError
from town.events import VECTOR_KEYS
from town.runner import SPEEDS

from .control import apply_control
from .live import live
from .persona_view import memory_rows, persona_panel, spec_dict
from .security import origin_checker

__all__ = ["bp"]

bp = Blueprint("views", __name__)

MAX_LIMIT = 500


@bp.app_errorhandler(HTTPException)
def _json_errors(exc: HTTPException):
    """API errors as JSON; pages keep Flask's HTML errors."""
    if request.path.startswith("/api/"):
        return jsonify(error=exc.description), exc.code
    return exc


def _fail(code: int, message: str):
    abort(code, description=message)


def _specs() -> dict[str, Any]:
    """Persona id -> spec, from the live simulation (static scenario data)."""
    sim = live().simulation
    if sim is None:
        return {}
    return {pid: persona.spec for pid, persona in sim.personas.items()}


def _spec(pid: str) -> Any:
    spec = _specs().get(pid)
    if spec is None:
        _fail(404, f"no persona {pid!r} in this town")
    return spec


def _reader():
    try:
        return live().reader()
    except RecordingError as exc:
        _fail(503, str(exc))


def _limit(default: int) -> int:
    raw = request.args.get("limit", default)
    try:
        value = int(raw)
    except (TypeError, ValueError):
        _fail(400, f"limit: must be an integer, got {raw!r}")
    if not 1 <= value <= MAX_LIMIT:
        _fail(400, f"limit: must be between 1 and {MAX_LIMIT}, got {value}")
    return value


# -- pages -------------------------------------------------------------------------------


@bp.get("/")
def live_page():
    """The live page: map, clock, controls, persona panel and retrieval inspector."""
    return render_template("live.html", speeds=SPEEDS)


# -- API ---------------------------------------------------------------------------------


@bp.get("/api/status")
def status():
    """The runner's status, or 503 without a live run."""
    runner = live().runner
    if runner is None:
        _fail(503, "no live run")
    return jsonify(runner.status())


@bp.get("/api/town")
def town():
    """The town's static map and personas, with the clock and runner status."""
    state = live()
    sim = state.simulation
    if sim is None:
        _fail(503, "no live run")
    scenario = getattr(sim, "scenario", None)
    return jsonify(
        name=getattr(scenario, "name", None) or getattr(sim, "name", None) or "town",
        map=sim.tilemap.to_dict(),
        personas=[spec_dict(spec) for spec in _specs().values()],
        tick=sim.clock.tick,
        time=sim.clock.now.isoformat(sep=" "),
        seconds_per_tick=sim.clock.seconds_per_tick,
        status=state.runner.status(),
        speeds=list(SPEEDS),
        token_required=state.token is not None,
    )


@bp.get("/api/personas/<pid>")
def persona(pid: str):
    """The persona panel's data."""
    return jsonify(persona_panel(_reader(), _spec(pid)))


@bp.get("/api/personas/<pid>/memories")
def memories(pid: str):
    """The persona's memory stream, newest first, filtered by text (q) and kind."""
    _spec(pid)
    reader = _reader()
    rows = [] if reader is None else reader.memories(
        pid, q=request.args.get("q") or None, kind=request.args.get("kind") or None,
        limit=_limit(50))
    return jsonify(persona=pid, memories=memory_rows(rows))


@bp.get("/api/personas/<pid>/retrievals")
def retrievals(pid: str):
    """Summaries of the persona's retrievals, newest first."""
    _spec(pid)
    reader = _reader()
    rows = [] if reader is None else reader.retrievals(
        pid, purpose=request.args.get("purpose") or None, limit=_limit(20))
    return jsonify(persona=pid, retrievals=rows)


@bp.get("/api/retrievals/<int:seq>")
def retrieval(seq: int):
    """The full trace of retrieval event ``seq`` (without the query vector)."""
    reader = _reader()
    if reader is None:
        _fail(404, f"no retrieval {seq}")
    try:
        trace = reader.retrieval(seq)
    except RecordingError:
        _fail(404, f"no retrieval {seq}")
    return jsonify({k: v for k, v in trace.items() if k not in VECTOR_KEYS})


@bp.post("/api/control")
def control():
    """Pause, resume, step or set the speed of the live run."""
    state = live()
    if not origin_checker(current_app.config["HOST"])(request.headers.get("Origin"),
                                                      request.environ):
        _fail(403, "origin not allowed")
    body = request.get_json(silent=True)
    if not request.is_json or not isinstance(body, dict):
        _fail(400, 'send JSON {"op": ..., "value": ...}')
    given = (request.headers.get("X-Control-Token") or body.get("token")
             or request.args.get("token"))
    if not state.may_control(given):
        _fail(403, "control needs the token printed by `town serve` (?token=...)")
    if state.runner is None:
        _fail(503, "no live run")
    try:
        status = apply_control(state.runner, body.get("op"), body.get("value"))
    except TownError as exc:
        _fail(400, str(exc))
    return jsonify(ok=True, status=status)
