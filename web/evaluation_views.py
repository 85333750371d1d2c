"""A saved run's evaluation (Blueprint ``evaluation``): a GET never asks a model.

A run file is data: the backend it stores is shown (``made_with``: backend, model, base URL), never
contacted. ``GET /api/runs/<name>/evaluation`` is :func:`town.analysis.evaluate.evaluate` (diffusion,
density, attendance, cost) answered by the scripted backend. ``POST`` the same URL to have it
answered by the model the server's command line named (app config ``ANALYSIS_MODEL``, a
:class:`town.analysis.recorded.NamedModel`): own origin and, beyond loopback, the control token.
Errors ``{"error"}``: 403 (origin, token), 404 (unknown run), 409 (no model named), 422 (damaged
run), 503 (an embedder or model server that does not answer).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request

from town.errors import RecordingError, TownError
from town.recording.reader import RunReader

from .params import fail
from .run_files import cached_report, embedder_for, open_named
from .security import origin_checker, token_ok

__all__ = ["bp"]

bp = Blueprint("evaluation", __name__)


@bp.get("/api/runs/<name>/evaluation")
def evaluation(name: str):
    """The run's evaluation (personas interviewed): diffusion of each probe, density, attendance, cost.

    Answered by the scripted backend: a GET never makes a model request, and a run file's stored
    backend is never contacted (the run's summary says what it was made with, as data). 422 for a
    damaged run; 503 when the run's embedder lives at a model server.
    """
    from town.analysis.evaluate import evaluate

    with open_named(name) as reader:
        try:
            report = cached_report(reader, "evaluation", lambda r: evaluate(r, embedder=embedder_for(r)))
        except RecordingError:
            raise  # a damaged run: 422 (open_named)
        except TownError as exc:  # e.g. an embedder at a model server
            fail(503, str(exc))
        return jsonify(report)


@bp.post("/api/runs/<name>/evaluation")
def model_evaluation(name: str):
    """The run's evaluation answered by the model the server's command line named (``--backend``,
    ``--base-url``, ``--api-key-env``; never the run file's), on request.

    Needs the own origin and, beyond loopback, the control token (``X-Control-Token`` or
    ``?token=``): 403 otherwise, before anything is read; 409 when no model was named; 503 when
    it does not answer.
    """
    from town.analysis.evaluate import evaluate
    from town.analysis.recorded import load_embedder, run_backend

    if not origin_checker(current_app.config["HOST"])(request.headers.get("Origin"), request.environ):
        fail(403, "origin not allowed")
    if not token_ok(current_app.config["CONTROL_TOKEN"],
                    request.headers.get("X-Control-Token") or request.args.get("token")):
        fail(403, "a model evaluation needs the token printed by the server (?token=...)")
    named = current_app.config.get("ANALYSIS_MODEL")
    if named is None or named.name == "scripted":
        fail(409, "this server was started without a model: start it with --backend openai --base-url URL "
                  "[--api-key-env VAR] to evaluate with one")

    def build(reader: RunReader) -> dict[str, Any]:
        parts = run_backend(reader, named)
        try:
            return evaluate(reader, backend=parts, embedder=load_embedder(reader, named))
        finally:
            parts.backend.close()

    with open_named(name) as reader:
        try:
            report = cached_report(reader, f"evaluation by {named}", build)
        except RecordingError:
            raise
        except TownError as exc:  # the named model server is down
            fail(503, str(exc))
        return jsonify(report)
