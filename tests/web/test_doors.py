"""Two doors of the viewer that gave a 500 or a traceback, tried from the outside:

- a run name of 249 or more characters in a URL (a file name over 255 bytes with ``.sqlite``)
  was HTTP 500 (``OSError: File name too long``); now 404 with one line;
- a Socket.IO packet nested 100,000 deep (no token needed) printed a 54-line traceback per
  packet; now it is dropped unread, with one log line for a connection's first.
"""

from __future__ import annotations

import logging
import time

import pytest
import socketio as sio_client

from web import create_app
from web.server import LiveServer


@pytest.mark.parametrize("length", [248, 249, 300, 5000])
def test_a_run_name_too_long_for_a_file_is_a_404_in_one_line(tmp_path, length):
    """248 characters + ``.sqlite`` is 255 bytes, the longest file name: not found; longer: too long."""
    client = create_app({"RUNS_DIR": str(tmp_path), "TESTING": True}).test_client()
    name = "r" * length
    for url in (f"/api/runs/{name}", f"/api/runs/{name}/frames/0", f"/api/compare/{name}/{name}"):
        response = client.get(url)
        assert response.status_code == 404, (url, response.status_code)
        error = response.get_json()["error"]
        assert "\n" not in error
        assert (error.endswith(f"too long ({length + 7} bytes as a file name; at most 255)") if length > 248
                else error.startswith("run not found"))
    page = client.get(f"/replay/{name}")
    assert page.status_code == 404 and b"Traceback" not in page.data


def test_a_socketio_packet_nested_100000_deep_is_dropped_with_one_log_line(tmp_path, caplog, capfd):
    """Over a real server: the raw packet ``2[[[...]]]`` 100,000 deep as found (200,001
    characters), one 5,000 deep (10,001 characters) and a control of 200,000 characters, each
    sent three times by a new viewer: one warning each, no traceback; the viewer's next control
    is answered, and another viewer is served as before."""
    server = LiveServer(create_app({"RUNS_DIR": str(tmp_path)}), "127.0.0.1", 0).start()
    try:
        deep = "nested more than 9 deep"
        for packet, why in (("2" + "[" * 100_000 + "]" * 100_000, "200001 characters long (at most 100000)"),
                            ("2" + "[" * 5_000 + "]" * 5_000, deep),
                            ('2["control",{"op":"' + "x" * 200_000 + '"}]', "200022 characters long (at most 100000)")):
            caplog.clear()
            sender = sio_client.Client()
            sender.connect(server.url, headers={"Origin": server.url}, transports=["polling"], wait_timeout=5)
            with caplog.at_level(logging.INFO):
                for _ in range(3):
                    sender.eio.send(packet)
                answer = sender.call("control", {"op": "pause"}, timeout=10)  # after those three
            assert answer == {"ok": False, "error": "no live run to control"}
            refused = [r for r in caplog.records if r.name == "web.packets" and r.levelno >= logging.WARNING]
            assert [r.getMessage() for r in refused] == [
                f"socket.io: a packet {why} was dropped unread (later ones from this connection: quietly)"]
            assert all(r.exc_info is None for r in caplog.records)
            sender.disconnect()
        other = sio_client.Client()
        hello = []
        other.on("hello", hello.append)
        other.connect(server.url, headers={"Origin": server.url}, transports=["polling"], wait_timeout=5)
        end = time.monotonic() + 10
        while not hello and time.monotonic() < end:
            time.sleep(0.05)
        assert hello and hello[0]["control"] is False  # a viewer without a live run
        other.disconnect()
    finally:
        server.shutdown()
    assert "Traceback" not in capfd.readouterr().err
