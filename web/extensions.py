"""Flask extensions, created unbound and attached to an app by :func:`web.create_app`."""

from __future__ import annotations

from flask_socketio import SocketIO

__all__ = ["socketio"]

#: The Socket.IO server (threading async mode, set in ``create_app``'s ``init_app`` call).
socketio = SocketIO()
