"""The live web viewer of `town` (docs/design, §5): Flask app factory, JSON API, Socket.IO, pages.

Parts:
    extensions.py    the unbound ``SocketIO`` (threading mode)
    live.py          per-app live state: runner, relay, run reader, control token, players
    players.py       one player per browser tab: its secret, colour, and leaving after a grace period
    relay.py         bus -> Socket.IO with bounded buffers ("latest frame wins")
    events.py        the Socket.IO namespace (hello, control)
    views.py         the live page and its JSON API (Blueprint ``views``)
    conversations.py the conversations of a run (list, transcripts), read from its events
    conversation_views.py  their API, live and in replay, and the live feed's last hour
    replay_views.py  the runs page, the replay page and their JSON API (Blueprint ``replay``)
    evaluation_views.py  a run's evaluation: scripted on GET, the named model on an authorised POST
    run_files.py     runs served by name (resolve_run first, 404/422), per-app caches
    params.py        checked query parameters (400 naming the parameter)
    procedures_view.py  the procedures tab's data (libraries as of a tick)
    persona_view.py  the persona panel's data, read from the run file
    control.py       pause / resume / step / speed on the runner
    security.py      Host check, own-origin check and the control token

The viewer reads events (live, via the runner's bus) and the run file; of the simulation it
reads only static scenario data (map, persona specs) and the clock.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask

from .compare_views import bp as compare_bp
from .conversation_views import bp as conversations_bp
from .evaluation_views import bp as evaluation_bp
from .events import LiveNamespace
from .extensions import socketio
from .live import Live, live
from .packets import guard_packets
from .params import MAX_BODY, SqlIntConverter
from .relay import FrameRelay
from .replay_views import bp as replay_bp
from .security import HostGuard, allowed_names, is_loopback, origin_checker
from .views import bp

__all__ = ["create_app", "live", "socketio", "LiveNamespace"]


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the viewer app.

    Args:
        test_config: config overrides. Keys: ``RUNNER`` (the live ``town.runner.Runner`` or
            None), ``RUN_PATH`` (the live run's file), ``RUNS_DIR`` (default "runs"),
            ``HOST`` (the listen address, default "127.0.0.1"), ``CONTROL_TOKEN`` (None: a
            random token is made when HOST is not loopback; on loopback none is needed),
            ``RELAY_INTERVAL`` (wall seconds between frame sends, default 1/30),
            ``ALLOWED_HOSTS`` (further names the Host header may give beyond loopback, default
            none), ``PORT`` (the bound port, set by ``web.server.LiveServer``; None: not checked),
            ``PLAYER_GRACE_S`` (wall seconds a player whose tabs all closed stays, default 15),
            ``ANALYSIS_MODEL`` (a :class:`town.analysis.recorded.NamedModel`: the model the command
            line named for evaluations on request; None: none, the scripted backend answers).

    Returns:
        The app, with ``app.config["CONTROL_TOKEN"]`` set (print it for the user) and the
        relay subscribed to the runner's bus. Call ``live(app).close()`` to detach it.
    """
    app = Flask(__name__)
    app.url_map.converters["int"] = SqlIntConverter
    app.config.from_mapping(
        RUNNER=None,
        RUN_PATH=None,
        RUNS_DIR="runs",
        HOST="127.0.0.1",
        CONTROL_TOKEN=None,
        RELAY_INTERVAL=1 / 30,
        ALLOWED_HOSTS=(),
        PORT=None,
        PLAYER_GRACE_S=15.0,
        ANALYSIS_MODEL=None,
        SECRET_KEY=secrets.token_hex(16),
        MAX_CONTENT_LENGTH=MAX_BODY,
    )
    if test_config:
        app.config.update(test_config)
    host = app.config["HOST"]
    if app.config["CONTROL_TOKEN"] is None and not is_loopback(host):
        app.config["CONTROL_TOKEN"] = secrets.token_urlsafe(16)

    socketio.init_app(app, async_mode="threading", cors_allowed_origins=origin_checker(host))
    guard_packets(socketio.server)  # bound a packet's size and nesting before it is decoded
    # after init_app, so that Socket.IO's own middleware is guarded too
    app.wsgi_app = HostGuard(app.wsgi_app, allowed_names(host, tuple(app.config["ALLOWED_HOSTS"])),
                             lambda: app.config["PORT"])
    runner = app.config["RUNNER"]
    relay = None if runner is None else FrameRelay(
        socketio, runner.status, interval=float(app.config["RELAY_INTERVAL"]))
    state = Live(runner=runner, run_path=app.config["RUN_PATH"],
                 token=app.config["CONTROL_TOKEN"], relay=relay,
                 player_grace_s=float(app.config["PLAYER_GRACE_S"]))
    app.extensions["town_live"] = state
    app.register_blueprint(bp)
    app.register_blueprint(replay_bp)
    app.register_blueprint(compare_bp)
    app.register_blueprint(conversations_bp)
    app.register_blueprint(evaluation_bp)
    state.attach()
    return app
