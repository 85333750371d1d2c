"""The replay page asks a model for an evaluation only when clicked, and only the server's own.

The server's command line named a model (a loopback listener standing for it, which counts
connections and never answers). Opening the page sends it nothing; the button names it; a click
sends one request (the model's start-up check) and the card says the model did not answer.
"""

from __future__ import annotations

import socket
import threading

import pytest

from town.analysis.recorded import NamedModel

pytestmark = pytest.mark.browser


@pytest.fixture
def listener():
    sock = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []

    def accept():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    seen.append(conn.recv(65536))
                except OSError:
                    seen.append(b"")

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1", seen
    sock.close()


def test_a_model_evaluation_is_asked_only_on_a_click(saved_run, listener, page):
    from web import create_app
    from web.server import LiveServer

    url, seen = listener
    named = NamedModel(backend="openai", base_url=url, model="judge-model")
    app = create_app({"RUNS_DIR": str(saved_run.parent), "ANALYSIS_MODEL": named})
    server = LiveServer(app, "127.0.0.1", 0).start()
    try:
        page.goto(f"{server.url}/replay/{saved_run.stem}")
        button = page.wait_for_selector("#evaluate-with-model", timeout=60_000)
        assert button.text_content() == f"Evaluate with judge-model at {url}"
        page.wait_for_selector("#chart-diffusion", state="attached", timeout=60_000)  # the scripted one
        assert seen == []
        button.click()
        # on its own line, which a seek re-drawing the scripted evaluation no longer wipes (found in CI)
        page.wait_for_function(
            "() => document.querySelector('#model-evaluation-status').textContent.includes('no model evaluation')",
            timeout=120_000)
        assert seen and b" /v1/" in seen[0].split(b"\r\n")[0]  # the named model's API, asked on the click
        assert page.errors == []
    finally:
        server.shutdown()
