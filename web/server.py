"""Serving the viewer: a threaded WSGI server that also carries Socket.IO's WebSocket.

``LiveServer`` wraps werkzeug's threaded server (what ``socketio.run`` uses in threading mode) so
the CLI can serve in the foreground and tests can serve in a background thread and stop cleanly.
``LiveSession`` puts a simulation, its :class:`~town.runner.Runner`, the app and the server
together: what ``town serve`` runs.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

from town.runner import Runner

from . import create_app
from .live import live

__all__ = ["LiveServer", "LiveSession"]


class _RequestHandler(WSGIRequestHandler):
    """Closes the TCP connection after a WebSocket session ends.

    Otherwise werkzeug keeps the connection alive and parses the client's closing WebSocket
    frames as a new HTTP request (logging "400 Bad request syntax"), while the client waits
    3 s for a close that never comes.
    """

    def run_wsgi(self) -> None:
        super().run_wsgi()
        if self.headers.get("Upgrade", "").lower() == "websocket":
            self.close_connection = True


class LiveServer:
    """Serve ``app`` on ``host:port`` (port 0 picks a free port).

    Args:
        app: the app from :func:`web.create_app`.
        host: the listen address; use the same value as the app's ``HOST`` config.
        port: TCP port, 0 for any free one.

    Raises:
        OSError: when the address cannot be bound (e.g. the port is taken).
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 5000):
        self.app = app
        self._server = make_server(host, port, app, threaded=True,
                                   request_handler=_RequestHandler)
        self.host = host
        self.port = self._server.server_port
        app.config["PORT"] = self.port  # the Host header must name this port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:5000`` (loopback when bound to all addresses)."""
        host = self.host if self.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    def serve_forever(self) -> None:
        """Serve in the calling thread until :meth:`shutdown`."""
        self._server.serve_forever()

    def start(self) -> LiveServer:
        """Serve in a daemon thread; returns self."""
        self._thread = threading.Thread(target=self.serve_forever, name="town-web", daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop serving, close the socket and detach the app's relay."""
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(10)
        live(self.app).close()


class LiveSession:
    """A simulation run live: runner (wall-clock pacing), viewer app and server.

    Args:
        simulation: a ``town.simulation.Simulation`` recording to ``simulation.run_path``.
        host: listen address ("127.0.0.1": no control token; otherwise one is generated).
        port: TCP port (0: any free port).
        speed: ticks per wall second, 1..64, or None for "max".
        paused: start paused.
        until_tick: finish at this tick (None: run until stopped).
        config: further app config (e.g. ``{"CONTROL_TOKEN": ...}``).

    Raises:
        ConfigError: for a bad speed; OSError when the address cannot be bound.
    """

    def __init__(self, simulation: Any, *, host: str = "127.0.0.1", port: int = 5000,
                 speed: float | None = 8.0, paused: bool = False, until_tick: int | None = None,
                 config: dict[str, Any] | None = None):
        self.simulation = simulation
        self.runner = Runner(simulation, speed=speed, paused=paused, until_tick=until_tick)
        self.app = create_app({"RUNNER": self.runner, "RUN_PATH": simulation.run_path,
                               "HOST": host, **(config or {})})
        self.server = LiveServer(self.app, host, port)

    @property
    def url(self) -> str:
        """The viewer's base URL."""
        return self.server.url

    @property
    def token(self) -> str | None:
        """The control token (None on loopback): print it with the URL as ``?token=...``."""
        return self.app.config["CONTROL_TOKEN"]

    def start(self) -> LiveSession:
        """Start the runner and serve in a background thread; returns self."""
        self.runner.start()
        self.server.start()
        return self

    def close(self, timeout: float = 30.0) -> None:
        """Stop the runner (finishing its tick), then the server. The simulation stays open."""
        self.runner.stop(timeout)
        self.server.shutdown()
