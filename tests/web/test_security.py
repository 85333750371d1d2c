"""The Host check, the own-origin check and the control token."""

from __future__ import annotations

import http.client

import pytest
from cli_helpers import run_cli

from web.security import allowed_names, host_allowed, is_loopback, origin_checker, token_ok
from web.server import LiveServer


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


LOOPBACK_NAMES = allowed_names("127.0.0.1")
WIDE_NAMES = allowed_names("0.0.0.0", ("town.example", "192.168.1.9"))


@pytest.mark.parametrize(("host", "names", "port", "allowed"), [
    ("127.0.0.1:5000", LOOPBACK_NAMES, 5000, True),
    ("localhost:5000", LOOPBACK_NAMES, 5000, True),
    ("LOCALHOST:5000", LOOPBACK_NAMES, 5000, True),
    ("[::1]:5000", LOOPBACK_NAMES, 5000, True),
    ("evil.example:5000", LOOPBACK_NAMES, 5000, False),     # DNS rebinding
    ("127.0.0.1:5001", LOOPBACK_NAMES, 5000, False),        # another port
    ("127.0.0.1", LOOPBACK_NAMES, 5000, False),             # no port = 80
    ("127.0.0.1", LOOPBACK_NAMES, 80, True),
    ("127.0.0.1:99999", LOOPBACK_NAMES, 5000, False),       # not a port
    ("user@127.0.0.1:5000", LOOPBACK_NAMES, 5000, False),
    ("127.0.0.1:5000/x", LOOPBACK_NAMES, 5000, False),
    ("", LOOPBACK_NAMES, 5000, False),
    (None, LOOPBACK_NAMES, 5000, False),
    ("192.168.1.9:5000", LOOPBACK_NAMES, 5000, False),      # a LAN name on a loopback server
    ("town.example:5000", WIDE_NAMES, 5000, True),          # --allowed-host
    ("192.168.1.9:5000", WIDE_NAMES, 5000, True),
    ("0.0.0.0:5000", WIDE_NAMES, 5000, True),               # the --host value itself
    ("localhost:5000", WIDE_NAMES, 5000, True),
    ("other.example:5000", WIDE_NAMES, 5000, False),
    ("town.example.evil:5000", WIDE_NAMES, 5000, False),
    ("evil.example", LOOPBACK_NAMES, None, False),          # unbound: only the port is unchecked
    ("localhost", LOOPBACK_NAMES, None, True),
])
def test_host_allowed(host, names, port, allowed):
    """Loopback names with the bound port; beyond loopback also --host and --allowed-host."""
    assert host_allowed(host, names, port) is allowed


def test_allowed_names_ignore_extra_names_on_loopback():
    """On a loopback listener only 127.0.0.1, localhost and ::1 are allowed, whatever else is given."""
    assert allowed_names("127.0.0.1", ("town.example",)) == {"127.0.0.1", "localhost", "::1"}
    assert allowed_names("[FE80::1]") == {"127.0.0.1", "localhost", "::1", "fe80::1"}


def _status(port, host, path):
    """GET ``path`` from 127.0.0.1:``port`` with a raw Host header; returns the status code."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_real_server_answers_only_its_own_host_names(simulation, runner):
    """Over a real socket: memories, interviews and Socket.IO answer a foreign Host with 400."""
    from web import create_app

    runner.step(1)  # an interview needs a recorded tick
    app = create_app({"RUNNER": runner, "RUN_PATH": simulation.run_path})
    server = LiveServer(app, "127.0.0.1", 0).start()
    port = server.port
    memories = "/api/personas/klaus_mueller/memories"
    interview = "/api/personas/klaus_mueller/interview?q=Who%20are%20you%3F"
    polling = "/socket.io/?EIO=4&transport=polling"
    try:
        for path in (memories, interview, polling):
            assert _status(port, f"evil.example:{port}", path) == 400, path
            assert _status(port, f"127.0.0.1:{port + 1}", path) == 400, path
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert _status(port, host, memories) == 200, host
        assert _status(port, f"localhost:{port}", interview) == 200
        assert _status(port, f"localhost:{port}", polling) == 200
    finally:
        server.shutdown()


def test_beyond_loopback_the_allowed_host_names_are_answered(make_app):
    """HOST=0.0.0.0 with ALLOWED_HOSTS: those names and loopback get 200, any other 400."""
    app = make_app(HOST="0.0.0.0", ALLOWED_HOSTS=("town.example",), PORT=5000)
    client = app.test_client()
    path = "/api/personas/klaus_mueller/memories"
    assert client.get(path, headers={"Host": "town.example:5000"}).status_code == 200
    assert client.get(path, headers={"Host": "localhost:5000"}).status_code == 200
    assert client.get(path, headers={"Host": "evil.example:5000"}).status_code == 400
    assert client.get(path, headers={"Host": "town.example:5001"}).status_code == 400


def test_cli_refuses_allowed_host_on_loopback_and_bad_names():
    """--allowed-host with a loopback --host is one line and exit 2; so is a name with a port."""
    on_loopback = run_cli("serve", "--allowed-host", "town.example", "--port", "0")
    assert on_loopback.returncode == 2
    assert "--allowed-host" in on_loopback.stderr and "loopback" in on_loopback.stderr
    assert "Traceback" not in on_loopback.stderr
    bad = run_cli("serve", "--host", "0.0.0.0", "--allowed-host", "http://town.example:80")
    assert bad.returncode == 2 and "is not a host name" in bad.stderr
