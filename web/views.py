"""Pages and the JSON API of the viewer (Blueprint ``views``).

API (all JSON; errors are ``{"error": str}`` with status 400/403/404/503):

- ``GET /api/town``: ``{name, map, personas: [identity], tick, time, seconds_per_tick, status,
  speeds, token_required}``
- ``GET /api/status``: the runner's status
- ``GET /api/personas/<id>``: ``{identity, now, plan, memories, retrievals}``
- ``GET /api/personas/<id>/memories?q=&kind=&limit=``: ``{persona, memories: [...]}``
- ``GET /api/personas/<id>/retrievals?purpose=&limit=``: ``{persona, retrievals: [...]}``
- ``GET /api/retrievals/<seq>``: the full trace (``RetrievalTrace.to_dict()`` + seq, returned)
- ``GET /api/procedures``: :func:`web.procedures_view.procedure_libraries` of the live run
- ``GET /api/personas/<id>/interview?q=``: :func:`town.analysis.interview.interview` as of now
- ``POST /api/personas/<id>/whisper`` ``{text}``: ``{ok, persona, input}``: the whisper is queued
  (``town.simulation.inputs``) and applied between ticks; needs the token like control
- ``GET /api/inputs/<id>``: what a queued input did: ``{id, state: queued|done|refused, tick?,
  result? | error?}`` (also sent as an ``input`` activity item)
- ``POST /api/control`` ``{op, value}``: ``{ok, status}``; needs the token beyond loopback
  (header ``X-Control-Token``, or ``token`` in the body or query)
- ``POST /api/player`` ``{name, color?}``: ``{ok, player, at: {x, y}, secret}`` (joins the town as a
  new player, :class:`web.players.Seats`); ``POST /api/player/move`` ``{x, y}``: ``{ok, input}`` or
  ``{ok: false, blocked}`` (a tile no one can stand on); ``POST /api/player/say`` ``{text, to}``:
  ``{ok, input}``; moves and lines carry the tab's secret (``X-Player-Secret``); each is an input,
  queued and applied between ticks (a refusal comes as its outcome), with the token like control. ``GET /api/players``: ``{players: [{id, name, color, here}]}``
"""

from __future__ import annotations

import os

from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from town.errors import RecordingError, TownError
from town.events import VECTOR_KEYS
from town.runner import SPEEDS
from town.simulation.inputs import parse_input

from .control import apply_control
from .live import live
from .params import fail as _fail
from .params import json_body
from .params import limit_arg as _limit
from .persona_view import memory_rows, persona_panel, spec_dict
from .procedures_view import procedure_libraries
from .run_files import embedder_for, runs_dir
from .security import origin_checker

__all__ = ["bp"]

bp = Blueprint("views", __name__)

@bp.app_errorhandler(HTTPException)
def _errors(exc: HTTPException):
    """API errors as JSON ``{"error"}``; pages get the error page (message escaped). Neither shows
    where the server keeps its runs: the runs folder's path is cut from the message, so a run is
    named as the page names it."""
    message = _public(str(exc.description))
    if request.path.startswith("/api/"):
        return jsonify(error=message), exc.code
    if request.path.startswith("/static/"):
        return exc
    return render_template("error.html", code=exc.code, title=exc.name, message=message), exc.code


def _public(message: str) -> str:
    """``message`` without the runs folder's path (as configured and as resolved) before a file name."""
    for folder in {str(runs_dir()), str(runs_dir().resolve())}:
        message = message.replace(folder.rstrip(os.sep) + os.sep, "")
    return message


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


def _persona_not_player(pid: str) -> Any:
    """The spec of the persona ``pid``; a player (whom no one whispers to or interviews) is 404 too."""
    spec = _spec(pid)
    if pid in live().simulation.players:
        _fail(404, f"no persona {pid!r} in this town")
    return spec


def _reader():
    try:
        return live().reader()
    except RecordingError as exc:
        _fail(503, str(exc))


# -- pages -------------------------------------------------------------------------------


@bp.get("/")
def live_page():
    """The live page: map, clock, controls, persona panel and retrieval inspector.

    A viewer without a live run (``replay``, ``demo``) sends ``/`` to its saved runs instead of a
    page that would only say "connecting".
    """
    if live().runner is None:
        return redirect(url_for("replay.runs_page"))
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
        players=sorted(getattr(sim, "players", ())),
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


@bp.get("/api/procedures")
def procedures():
    """The live run's procedure libraries (town and per persona), as recorded so far."""
    reader = _reader()
    if reader is None:
        return jsonify(threshold=0.6, libraries={"town": []})
    return jsonify(procedure_libraries(reader))


@bp.get("/api/personas/<pid>/interview")
def interview(pid: str):
    """Ask the persona ``q``; it answers from its recorded memory as of now (nothing is written)."""
    from town.analysis.interview import interview as ask

    _persona_not_player(pid)
    question = (request.args.get("q") or "").strip()
    if not question or len(question) > 500:
        _fail(400, "q: ask a question of 1-500 characters, e.g. 'Do you know about a party?'")
    reader = _reader()
    if reader is None or reader.last_tick is None:
        _fail(503, "the run has no recorded tick yet")
    try:
        result = ask(reader, pid, reader.frame(reader.last_tick)["time"], question,
                     embedder=embedder_for(reader))
    except TownError as exc:
        _fail(400, str(exc))
    return jsonify(result.to_dict())


def _controller(body_hint: str) -> dict[str, Any]:
    """The JSON body of a control request from the own origin with the token (403/400/503)."""
    state = live()
    if not origin_checker(current_app.config["HOST"])(request.headers.get("Origin"),
                                                      request.environ):
        _fail(403, "origin not allowed")
    body = json_body(body_hint)
    given = (request.headers.get("X-Control-Token") or body.get("token")
             or request.args.get("token"))
    if not state.may_control(given):
        _fail(403, "control needs the token printed by `town serve` (?token=...)")
    if state.runner is None:
        _fail(503, "no live run")
    return body


def _queue(data: dict[str, Any]) -> int:
    """Queue the input ``data`` describes (400 naming the field at fault; 503 after the run); its id."""
    try:
        return live().runner.submit(parse_input(data))
    except TownError as exc:
        _fail(400, str(exc))


@bp.post("/api/personas/<pid>/whisper")
def whisper(pid: str):
    """Queue a whisper memory for the persona (applied between ticks; its memory id comes as the input's outcome)."""
    body = _controller('{"text": ...}')
    _persona_not_player(pid)
    return jsonify(ok=True, persona=pid, input=_queue({"kind": "whisper", "persona": pid, "text": body.get("text")}))


@bp.get("/api/inputs/<int:input_id>")
def input_outcome(input_id: int):
    """What the queued input ``input_id`` did (``Inputs.outcome``), or 404."""
    sim = live().simulation
    outcome = None if sim is None else sim.inputs.outcome(input_id)
    if outcome is None:
        _fail(404, f"no input {input_id} (unknown, or forgotten among the last thousand)")
    return jsonify(outcome)


@bp.post("/api/control")
def control():
    """Pause, resume, step or set the speed of the live run."""
    state = live()
    body = _controller('{"op": ..., "value": ...}')
    try:
        status = apply_control(state.runner, body)
    except TownError as exc:
        _fail(400, str(exc))
    return jsonify(ok=True, status=status)


def _seated(body: dict[str, Any]) -> str:
    """The player of the tab that sent ``body`` (its secret in ``X-Player-Secret`` or ``secret``), or 403."""
    seats = live().seats
    seat = None if seats is None else seats.seat_of(request.headers.get("X-Player-Secret") or body.get("secret"))
    if seat is None:
        _fail(403, "this tab plays nobody: join first (each tab plays only the player it joined as)")
    return seat.pid


@bp.post("/api/player")
def join():
    """Join as a new player ``{name, color?}``; the answer's ``secret`` lets this tab (only) act as it.
    The join is an input: the player is in the town from the next tick (``input``: its id).

    A name whose player left its tab moments ago takes that player back (:class:`web.players.Seats`).
    """
    body = _controller('{"name": ..., "color": "#rrggbb"}')
    try:
        joined = live().seats.join(body.get("name"), body.get("color"))
    except TownError as exc:
        _fail(400, str(exc))
    seat = joined.seat
    return jsonify(ok=True, player={**spec_dict(joined.spec), "color": seat.color}, at=joined.at,
                   secret=joined.secret, input=joined.input)


@bp.get("/api/players")
def players():
    """The town's players: ``{players: [{id, name, color, here}]}`` (``here``: a tab plays it now)."""
    seats = live().seats
    if seats is None:
        _fail(503, "no live run")
    return jsonify(players=seats.players())


@bp.post("/api/player/move")
def player_move():
    """Send this tab's player to a tile ``{x, y}`` (it walks one tile per tick), as an input.

    A tile no one can stand on is no HTTP error: the answer is ``{ok: false, blocked: why}``; a
    tile the player cannot reach is the input's refusal (``x, y``).
    """
    body = _controller('{"x": ..., "y": ..., "secret": ...}')
    pid = _seated(body)
    x, y = body.get("x"), body.get("y")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
        _fail(400, "x, y: tile coordinates (integers)")
    if not live().simulation.tilemap.walkable(x, y):
        return jsonify(ok=False, blocked=f"({x}, {y}) is not a walkable tile")
    return jsonify(ok=True, input=_queue({"kind": "move", "player": pid, "x": x, "y": y}))


@bp.post("/api/player/say")
def player_say():
    """This tab's player says ``text`` to the persona ``to`` next to it, as an input; the answer
    comes as a chat event, a refusal (too far, asleep, busy) as the input's outcome."""
    body = _controller('{"text": ..., "to": ..., "secret": ...}')
    pid = _seated(body)
    text, to = body.get("text"), body.get("to")
    if not isinstance(text, str) or not isinstance(to, str):
        _fail(400, "text, to: a line and the persona id it is said to")
    return jsonify(ok=True, input=_queue({"kind": "say", "player": pid, "to": to, "text": text}))
