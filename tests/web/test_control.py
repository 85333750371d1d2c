"""Control over HTTP and Socket.IO: the token rule beyond loopback, and the own-origin rule."""

from __future__ import annotations

import time

import pytest
import socketio as sio_client

from web import socketio
from web.server import LiveServer


def post(client, body, **headers):
    """POST /api/control with a JSON body."""
    return client.post("/api/control", json=body, headers=headers)


def settled(runner, tick: int, timeout: float = 10.0) -> int:
    """The tick the runner stands at once it has reached ``tick`` (a step answers at once and
    runs on the runner's thread); the pause cancels anything more still pending."""
    deadline = time.monotonic() + timeout
    while runner.status()["tick"] < tick and time.monotonic() < deadline:
        time.sleep(0.005)
    runner.pause()
    return runner.status()["tick"]


def test_loopback_needs_no_token_and_steps_exactly_one_tick(make_app, runner):
    """On 127.0.0.1, a step with no token is accepted and moves the clock by one tick."""
    app = make_app()
    assert app.config["CONTROL_TOKEN"] is None
    before = runner.status()["tick"]
    response = post(app.test_client(), {"op": "step"})
    assert response.status_code == 200
    assert response.get_json()["status"]["tick"] == before  # answered at once
    assert settled(runner, before + 1) == before + 1


def test_beyond_loopback_refuses_without_token_and_accepts_with_it(make_app, runner):
    """HOST=0.0.0.0: a token is made; no or wrong token -> 403 and nothing moves; right -> 200."""
    app = make_app(HOST="0.0.0.0")
    token = app.config["CONTROL_TOKEN"]
    assert isinstance(token, str) and len(token) >= 16
    client = app.test_client()
    for headers in ({}, {"X-Control-Token": "wrong"}):
        response = post(client, {"op": "step", "value": 3}, **headers)
        assert response.status_code == 403 and "token" in response.get_json()["error"]
    assert runner.status()["tick"] == 0
    assert post(client, {"op": "step", "value": 3}, **{"X-Control-Token": token}).status_code == 200
    assert settled(runner, 3) == 3
    with client.post(f"/api/control?token={token}", json={"op": "speed", "value": 16}) as response:
        assert response.get_json()["status"]["speed"] == 16.0


def test_bad_operations_are_400(make_app, runner):
    """Unknown op, a speed outside 1..64, a form post: 400 naming what is wrong."""
    client = make_app().test_client()
    assert "op" in post(client, {"op": "rewind"}).get_json()["error"]
    response = post(client, {"op": "speed", "value": 100})
    assert response.status_code == 400 and "speed" in response.get_json()["error"]
    assert client.post("/api/control", data={"op": "pause"}).status_code == 400
    runner.resume()
    response = post(client, {"op": "step"})
    assert response.status_code == 400 and "pause before stepping" in response.get_json()["error"]


@pytest.mark.parametrize("op", ["speed", "step"])
def test_a_true_or_false_value_is_no_number(make_app, runner, op):
    """``{"op": "speed", "value": true}`` set the speed to 1 (read as 1.0), and a step of
    ``true`` was refused as "got 1.0": a JSON boolean is no number, 400, the speed unchanged."""
    client = make_app().test_client()
    runner.pause()
    before = runner.status()
    for value in (True, False):
        response = post(client, {"op": op, "value": value})
        assert response.status_code == 400
        assert response.get_json() == {"error": f"value: must be a number, text or null, got {value}"}
    assert runner.status() == before


def test_foreign_origin_post_is_refused_even_on_loopback(make_app, runner):
    """A page on another site cannot drive the local town (CSRF)."""
    client = make_app().test_client()
    response = post(client, {"op": "step"}, Origin="http://evil.example")
    assert response.status_code == 403 and runner.status()["tick"] == 0
    assert post(client, {"op": "step"}, Origin="http://localhost").status_code == 200


def socket_client(app, **kwargs):
    """A Flask-SocketIO test client of ``app``."""
    return socketio.test_client(app, flask_test_client=app.test_client(), **kwargs)


def received(client, name):
    """Payloads of the events named ``name`` received so far."""
    return [e["args"][0] for e in client.get_received() if e["name"] == name]


def test_socket_control_on_loopback(make_app, runner):
    """Hello says the viewer may control; a step is acknowledged with the new status."""
    client = socket_client(make_app())
    hello = received(client, "hello")
    assert hello[0]["control"] is True and hello[0]["status"]["state"] == "paused"
    ack = client.emit("control", {"op": "step", "value": 2}, callback=True)
    assert ack["ok"] is True and ack["status"]["state"] == "paused"
    assert settled(runner, 2) == 2
    client.disconnect()


def test_socket_control_needs_token_beyond_loopback(make_app, runner):
    """HOST=0.0.0.0: without token the control is refused (ack + control_error), with it accepted."""
    app = make_app(HOST="0.0.0.0")
    token = app.config["CONTROL_TOKEN"]
    anonymous = socket_client(app)
    assert received(anonymous, "hello")[0]["control"] is False
    ack = anonymous.emit("control", {"op": "step"}, callback=True)
    assert ack["ok"] is False and "token" in ack["error"]
    assert received(anonymous, "control_error")[0]["op"] == "step"
    assert runner.status()["tick"] == 0
    ack = anonymous.emit("control", {"op": "step", "token": token}, callback=True)
    assert ack["ok"] is True and settled(runner, 1) == 1
    trusted = socket_client(app, auth={"token": token})
    assert received(trusted, "hello")[0]["control"] is True
    assert trusted.emit("control", {"op": "step"}, callback=True)["ok"] is True
    assert settled(runner, 2) == 2
    anonymous.disconnect()
    trusted.disconnect()


@pytest.mark.parametrize(("headers", "connected"), [
    ({"Origin": "http://evil.example"}, False),
    ({"Origin": "http://evil.example:5000", "Host": "evil.example:5000"}, False),  # DNS rebinding
    ({"Origin": "http://localhost"}, True),
    ({}, True),
])
def test_socket_accepts_only_own_origin(make_app, runner, headers, connected):
    """The namespace refuses a foreign Origin, and a non-loopback Host on a loopback server."""
    client = socket_client(make_app(), headers=headers)
    assert client.is_connected() is connected


def test_real_server_refuses_foreign_origin(simulation, runner):
    """Over a real socket, engine.io's origin check (cors_allowed_origins) refuses other sites.

    Long-polling is used because the WebSocket client adds an Origin header of its own.
    """
    from web import create_app

    app = create_app({"RUNNER": runner, "RUN_PATH": simulation.run_path})
    server = LiveServer(app, "127.0.0.1", 0).start()
    try:
        evil = sio_client.Client()
        with pytest.raises(sio_client.exceptions.ConnectionError):
            evil.connect(server.url, headers={"Origin": "http://evil.example"},
                         transports=["polling"], wait_timeout=5)
        own = sio_client.Client()
        own.connect(server.url, headers={"Origin": server.url}, transports=["polling"],
                    wait_timeout=5)
        assert own.connected
        own.disconnect()
    finally:
        server.shutdown()


def test_a_huge_step_is_refused_and_a_day_of_steps_answers_at_once_and_pause_cancels_it(make_app, runner, simulation):
    """As found: while paused, ``{"op": "step", "value": 1000000000000}`` ran ten game
    days under "paused" and held the request 60 s. Now: 400 naming the limit, nothing moves; a
    day's worth (86,400 / 10 s = 8,640 ticks) is answered at once, and a pause stops it."""
    client = make_app().test_client()
    huge = post(client, {"op": "step", "value": 1000000000000})
    assert huge.status_code == 400
    assert huge.get_json()["error"] == "step: at most 8640 ticks (one game day) at a time, got 1000000000000"
    assert runner.max_steps == 86_400 // simulation.clock.seconds_per_tick == 8640
    assert runner.status()["tick"] == 0
    started = time.monotonic()
    day = post(client, {"op": "step", "value": 8640})
    assert day.status_code == 200 and time.monotonic() - started < 2.0  # not when the ticks are done
    more = post(client, {"op": "step", "value": 8640})  # on top of those still pending
    assert more.status_code == 400 and "are pending" in more.get_json()["error"]
    paused = post(client, {"op": "pause"})
    assert paused.status_code == 200 and paused.get_json()["status"]["state"] == "paused"
    stopped_at = runner.status()["tick"]
    assert stopped_at < 8640
    time.sleep(0.3)
    assert runner.status()["tick"] == stopped_at  # nothing left pending
    assert post(client, {"op": "step", "value": 8640}).status_code == 200  # the allowance is back
    assert settled(runner, stopped_at + 1) < stopped_at + 8640
