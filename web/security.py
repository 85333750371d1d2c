"""Who may connect and who may control: the origin check and the control token (docs/design, §5).

Socket.IO accepts only the server's own origin. On a loopback host that origin must also name a
loopback host, so a page on another site whose name resolves to 127.0.0.1 (DNS rebinding) is
refused. Control (pause, step, speed) needs the token when the server listens beyond loopback.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_HOSTS", "is_loopback", "origin_checker", "token_ok"]

#: Host names that only this machine can reach.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def is_loopback(host: str | None) -> bool:
    """True when ``host`` (a listen address or a Host header's name) is loopback-only."""
    return (host or "").strip().lower() in LOOPBACK_HOSTS


def _hostname(netloc: str) -> str:
    """The host name of ``host[:port]`` (IPv6 in brackets kept bare)."""
    return (urlsplit(f"//{netloc}").hostname or "").lower()


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
