"""Who may connect and who may control: the Host check, the origin check and the control token.

See docs/design, §5.

Every request (pages, the JSON API and Socket.IO alike) must name an allowed host in its
``Host`` header, else it gets 400: ``127.0.0.1``, ``localhost`` or ``[::1]`` with the bound
port, and, when the server listens beyond loopback, the listen address and the names given with
``--allowed-host``. A page on another site whose name resolves to this machine (DNS rebinding)
sends its own name and is refused. Socket.IO also accepts only the server's own origin, on a
loopback host only a loopback one. Control (pause, step, speed) needs the token when the server
listens beyond loopback.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from werkzeug.exceptions import BadRequest

__all__ = ["LOOPBACK_HOSTS", "is_loopback", "origin_checker", "token_ok", "allowed_names",
           "host_allowed", "HostGuard"]

#: Host names that only this machine can reach.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def is_loopback(host: str | None) -> bool:
    """True when ``host`` (a listen address or a Host header's name) is loopback-only."""
    return (host or "").strip().lower() in LOOPBACK_HOSTS


def _hostname(netloc: str) -> str:
    """The host name of ``host[:port]`` (IPv6 in brackets kept bare)."""
    return (urlsplit(f"//{netloc}").hostname or "").lower()


def allowed_names(listen_host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """Host names a request may address: loopback, plus (beyond loopback) the listen address and ``extra``.

    Args:
        listen_host: the ``--host`` value.
        extra: the ``--allowed-host`` names (ignored on a loopback listener).

    Returns:
        Lower-case names, IPv6 addresses without brackets.
    """
    names = {"127.0.0.1", "localhost", "::1"}
    if not is_loopback(listen_host):
        names |= {n.strip().lower().strip("[]") for n in (listen_host, *extra)}
    return frozenset(names)


def host_allowed(host: str | None, names: frozenset[str], port: int | None) -> bool:
    """Whether a ``Host`` header (``name[:port]``) names an allowed host and the bound port.

    Args:
        host: the header's value.
        names: from :func:`allowed_names`.
        port: the bound TCP port; a header without a port means 80. None: the app is not bound
            to a socket (a test client) and the port is not checked.
    """
    try:
        parts = urlsplit(f"//{host or ''}")
        given = parts.port or 80
    except ValueError:  # a port that is not a number in 0..65535
        return False
    if (parts.hostname or "") not in names or parts.username is not None or parts.path:
        return False
    return port is None or given == port


class HostGuard:
    """WSGI middleware: 400 for a request whose ``Host`` header :func:`host_allowed` refuses.

    It wraps the whole app, Socket.IO included (a same-origin polling request carries no
    Origin header for the origin check to see). Flask's ``TRUSTED_HOSTS`` would check the name
    but ignores the port.

    Args:
        app: the WSGI app to guard.
        names: from :func:`allowed_names`.
        port: called per request: the bound port, or None while unbound (not checked).
    """

    def __init__(self, app: Callable, names: frozenset[str], port: Callable[[], int | None]):
        self.app, self.names, self.port = app, names, port

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Any:
        """Answer 400 for a foreign Host, else pass the request on."""
        if not host_allowed(environ.get("HTTP_HOST"), self.names, self.port()):
            refusal = BadRequest("this server answers only to its own host names (see --allowed-host)")
            return refusal(environ, start_response)
        return self.app(environ, start_response)


def origin_checker(listen_host: str) -> Callable[[str | None, Mapping[str, Any]], bool]:
    """Build the ``cors_allowed_origins`` callable for a server listening on ``listen_host``.

    The returned ``allowed(origin, environ)`` is True only when ``origin`` equals
    ``scheme://Host`` of the request itself, and, on a loopback listener, that host is loopback.
    A request without an Origin header (not a browser page) is not cross-site and is allowed.
    """
    loopback = is_loopback(listen_host)

    def allowed(origin: str | None, environ: Mapping[str, Any]) -> bool:
        if not origin:
            return True
        host = environ.get("HTTP_HOST", "")
        own = f"{environ.get('wsgi.url_scheme', 'http')}://{host}"
        if origin.lower() != own.lower():
            return False
        return not loopback or is_loopback(_hostname(host))

    return allowed


def token_ok(expected: str | None, given: object) -> bool:
    """Whether ``given`` matches the control token (always True when no token is set)."""
    if expected is None:
        return True
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())
