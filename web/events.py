"""The Socket.IO namespace of the live page.

Client -> server: ``control`` ``{"op": "pause"|"resume"|"step"|"speed", "value", "token"?}``,
answered (acknowledgement) with ``{"ok": true, "status"}`` or ``{"ok": false, "error"}``; a
refused control also gets a ``control_error`` event. Server -> client: ``hello`` on connect
(status, model-call count, whether this connection may control), then ``frame`` (full, then
deltas), ``activity`` and ``status`` from :class:`~web.relay.FrameRelay`. ``resync`` (no payload)
asks for the latest frame whole, when a delta's ``base`` is not the tick the page holds.

The token comes in the connection's auth payload (``{"token": ...}``) or in each control
message; it is needed only when the server listens beyond loopback. A tab that plays a player
names it by its secret, in the auth payload (``{"player": secret}``) or in a ``player`` message
(``secret``), answered ``{"ok": true, "player": id}``; while one of its tabs is connected, the
player stays (:class:`web.players.Seats`).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app, request
from flask_socketio import Namespace, emit

from town.errors import ConfigError, TownError
from town.text import check_texts

from .control import apply_control
from .extensions import socketio
from .live import live
from .security import origin_checker

__all__ = ["LiveNamespace", "MAX_FIELD"]

logger = logging.getLogger(__name__)

#: The longest token or player secret taken from a connection, in characters (both are under 64).
MAX_FIELD = 200


def _auth_text(auth: Any, key: str) -> str | None:
    """The text ``auth[key]`` of a connection's auth payload, or None; a field that is no text,
    longer than :data:`MAX_FIELD` or unfit (:func:`town.text.check_texts`) is ignored with one log line."""
    value = auth.get(key) if isinstance(auth, dict) else None
    if value is None:
        return None
    problem = None
    if not isinstance(value, str):
        problem = f"is a {type(value).__name__}, not text"
    elif len(value) > MAX_FIELD:
        problem = f"is {len(value)} characters long (at most {MAX_FIELD})"
    else:
        try:
            check_texts(value, field=key)
        except ConfigError as exc:
            problem = exc.reason
    if problem is None:
        return value
    logger.warning("socket.io: connect: auth %s %s; ignored", key, problem)
    return None


class LiveNamespace(Namespace):
    """Handlers of the live page's connection (namespace ``/``)."""

    def on_connect(self, auth: Any = None) -> None:
        """Accept a viewer from the server's own origin; note whether it may control.

        Raises:
            ConnectionRefusedError: for a foreign Origin.
        """
        allowed = origin_checker(current_app.config["HOST"])
        if not allowed(request.headers.get("Origin"), request.environ):
            raise ConnectionRefusedError("origin not allowed")
        state = live()
        if auth is not None and not isinstance(auth, dict):
            logger.warning("socket.io: connect: the auth payload is a %s, not an object; ignored", type(auth).__name__)
        token = _auth_text(auth, "token")
        can_control = state.runner is not None and state.may_control(token)
        if can_control:
            state.controllers.add(request.sid)
        if state.relay is not None:
            state.relay.add_viewer(request.sid)
        seat = None
        player = _auth_text(auth, "player")
        if state.seats is not None and player:
            seat = state.seats.attach(player, request.sid)
        emit("hello", {
            "player": None if seat is None else seat.pid,
            "status": None if state.runner is None else state.runner.status(),
            "model_calls": 0 if state.relay is None else state.relay.model_calls,
            "control": can_control,
        })

    def on_disconnect(self, reason: Any = None) -> None:
        """Forget the viewer."""
        state = live()
        state.controllers.discard(request.sid)
        if state.relay is not None:
            state.relay.remove_viewer(request.sid)
        if state.seats is not None:
            state.seats.detach(request.sid)

    def on_player(self, secret: Any = None, *_more: Any) -> dict[str, Any]:
        """This connection's tab plays the player whose secret is ``secret``."""
        state = live()
        if not isinstance(secret, str) or len(secret) > MAX_FIELD or _more:
            logger.warning("socket.io: player: a payload that is not one secret (%s); refused", _shape(secret, _more))
            return {"ok": False, "error": "send the secret the join answered"}
        if state.seats is None:
            return {"ok": False, "error": "send the secret the join answered"}
        seat = state.seats.attach(secret, request.sid)
        if seat is None:
            return {"ok": False, "error": "no player has this secret (it left the town)"}
        return {"ok": True, "player": seat.pid}

    def on_resync(self, *args: Any) -> None:
        """Send this viewer the latest frame whole next (it takes no payload: one is ignored, logged)."""
        if args:
            logger.warning("socket.io: resync takes no payload, got %s; ignored", _shape(args[0], args[1:]))
        state = live()
        if state.relay is not None:
            state.relay.resync(request.sid)

    def on_control(self, message: Any = None, *_more: Any) -> dict[str, Any]:
        """Apply ``{"op", "value"}`` if this connection (or the message's token) may control.

        Any other payload (none, a list, a text, a number, more than one argument, an unfit
        text: :func:`town.text.check_texts`) is refused with the reason.
        """
        state = live()
        if not isinstance(message, dict) or _more:
            logger.warning("socket.io: control: a payload that is not one object (%s); refused", _shape(message, _more))
            return self._refuse(None, 'send one {"op": ..., "value": ...} object')
        try:
            check_texts(message)
        except TownError as exc:
            return self._refuse(None, str(exc))
        op = message.get("op")
        if state.runner is None:
            return self._refuse(op, "no live run to control")
        if request.sid not in state.controllers and not state.may_control(message.get("token")):
            return self._refuse(op, "control needs the token printed by `town serve` (?token=...)")
        try:
            status = apply_control(state.runner, message)
        except TownError as exc:
            return self._refuse(op, str(exc))
        return {"ok": True, "status": status}

    @staticmethod
    def _refuse(op: Any, error: str) -> dict[str, Any]:
        emit("control_error", {"op": op, "error": error})
        return {"ok": False, "error": error}


def _shape(first: Any, more: tuple) -> str:
    """What a refused payload was, in a few words: "none", "a list", "a str and 1 more argument"."""
    kind = "none" if first is None else f"a {type(first).__name__}"
    return kind + (f" and {len(more)} more argument{'s' if len(more) > 1 else ''}" if more else "")


socketio.on_namespace(LiveNamespace("/"))
