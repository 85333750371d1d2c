"""Malformed Socket.IO packets and payloads: one log line each, no traceback, the viewer goes on.

As found over long-polling after ``40``: ``42[``, ``4`` and ``42["player"]``-like packets printed
``TypeError: 'NoneType' object is not subscriptable`` with its stack in the ``serve`` terminal.
The raw packets are handed to the server as engine.io hands them (the Flask-SocketIO test client's
own path, ``server._handle_eio_message``), the event payloads through the test client's ``emit``.
"""

from __future__ import annotations

import logging

import pytest
from test_control import received, socket_client

DROPPED = "socket.io: a packet {} was dropped unread (later ones from this connection: quietly)"
NOT_EVENT = "of an event that is not [name, ...]"


@pytest.mark.parametrize(("raw", "why"), [
    ("2[", 'that does not decode (not <type><JSON>, e.g. 42["control", {...}])'),
    ("", NOT_EVENT),  # the engine.io message "4" with nothing after it
    ("2", NOT_EVENT),
    ("2{}", NOT_EVENT),
    ("21", NOT_EVENT),
    ("2[1]", NOT_EVENT),
    ("2[null]", NOT_EVENT),
    ('2["connect"]', "of the reserved event 'connect'"),
    ("3", "of an acknowledgement whose arguments are not a list"),
    ('51-["control",{"_placeholder":true,"num":0}]', "of binary data (the viewer takes text packets only)"),
    ("7", "of type 7, which a client does not send"),
])
def test_a_malformed_packet_is_dropped_with_one_line_and_the_viewer_goes_on(make_app, runner, caplog, raw, why):
    client = socket_client(make_app())
    server = client.socketio.server
    with caplog.at_level(logging.INFO):
        for _ in range(2):  # the second from the same connection: quietly
            server._handle_eio_message(client.eio_sid, raw)
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warned == [DROPPED.format(why)]
    assert all(r.exc_info is None for r in caplog.records)
    assert client.emit("control", {"op": "step"}, callback=True)["ok"] is True
    client.disconnect()


def test_event_payloads_of_the_wrong_shape_are_answered_or_ignored_with_one_line(make_app, runner, caplog):
    """``player`` without its secret (as found), with a number, an object, a text over 200
    characters, two arguments; ``resync`` with a payload; ``control`` with none: each answered
    (or, for resync, ignored) with one log line and no traceback."""
    client = socket_client(make_app())
    refused = {"ok": False, "error": "send the secret the join answered"}
    with caplog.at_level(logging.INFO):
        for args in ((), (7,), ({"secret": "x"},), ("s" * 201,), ("secret", "more")):
            assert client.emit("player", *args, callback=True) == refused, args
        client.emit("resync", {"x": 1})
        assert client.emit("control", callback=True)["ok"] is False
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "socket.io: player: a payload that is not one secret (none); refused",
        "socket.io: player: a payload that is not one secret (a int); refused",
        "socket.io: player: a payload that is not one secret (a dict); refused",
        "socket.io: player: a payload that is not one secret (a str); refused",
        "socket.io: player: a payload that is not one secret (a str and 1 more argument); refused",
        "socket.io: resync takes no payload, got a dict; ignored",
        "socket.io: control: a payload that is not one object (none); refused",
    ]
    assert all(r.exc_info is None for r in caplog.records)
    assert len(received(client, "control_error")) == 1
    client.disconnect()


@pytest.mark.parametrize(("auth", "line"), [
    ({"token": "x\ud800"}, "socket.io: connect: auth token is not valid UTF-8 text (character 1: U+D800, a lone "
                           "surrogate or a byte that is not UTF-8); ignored"),
    ({"token": ["a"]}, "socket.io: connect: auth token is a list, not text; ignored"),
    ({"player": "p" * 201}, "socket.io: connect: auth player is 201 characters long (at most 200); ignored"),
    ("token", "socket.io: connect: the auth payload is a str, not an object; ignored"),
])
def test_a_connection_with_a_bad_auth_payload_is_taken_without_it(make_app, runner, caplog, auth, line):
    """A token holding a lone surrogate raised UnicodeEncodeError in ``on_connect`` (beyond
    loopback, where the token is compared); now the field is ignored with one line."""
    app = make_app(HOST="0.0.0.0")
    with caplog.at_level(logging.INFO):
        client = socket_client(app, auth=auth)
    assert client.is_connected()
    assert received(client, "hello")[0]["control"] is False
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [line]
    client.disconnect()
