"""The own-origin check and the control token."""

from __future__ import annotations

import pytest

from web.security import is_loopback, origin_checker, token_ok


def environ(host, scheme="http"):
    """A minimal WSGI environ for a request to ``host``."""
    return {"HTTP_HOST": host, "wsgi.url_scheme": scheme}


@pytest.mark.parametrize(("listen", "origin", "host", "allowed"), [
    ("127.0.0.1", "http://127.0.0.1:5000", "127.0.0.1:5000", True),
    ("127.0.0.1", "http://localhost:5000", "localhost:5000", True),
    ("127.0.0.1", "http://[::1]:5000", "[::1]:5000", True),
    ("127.0.0.1", "http://127.0.0.1:5001", "127.0.0.1:5000", False),   # other port
    ("127.0.0.1", "https://127.0.0.1:5000", "127.0.0.1:5000", False),  # other scheme
    ("127.0.0.1", "http://evil.example:5000", "evil.example:5000", False),  # DNS rebinding
    ("0.0.0.0", "http://192.168.1.9:5000", "192.168.1.9:5000", True),
    ("0.0.0.0", "http://evil.example", "192.168.1.9:5000", False),
    ("127.0.0.1", None, "127.0.0.1:5000", True),  # not a browser page
])
def test_origin_checker(listen, origin, host, allowed):
    """Only the request's own scheme://host, and on loopback only loopback names."""
    assert origin_checker(listen)(origin, environ(host)) is allowed


def test_loopback_names():
    """127.0.0.1, localhost and ::1 are loopback; 0.0.0.0 and LAN addresses are not."""
    assert all(map(is_loopback, ["127.0.0.1", "localhost", "::1", "LOCALHOST"]))
    assert not any(map(is_loopback, ["0.0.0.0", "192.168.1.9", "", None]))


def test_token_ok():
    """No token set: anyone; token set: only that exact string."""
    assert token_ok(None, None)
    assert token_ok("abc", "abc")
    assert not token_ok("abc", "abd") and not token_ok("abc", None) and not token_ok("abc", 123)
