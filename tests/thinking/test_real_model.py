"""the_ville on a real small model (SmolLM2-135M-Instruct served by llama-cpp-python), as CI runs it.

Runs when ``scripts/ci_llama_server.sh`` has started the server and exported ``TOWN_LLAMA_URL``
(and ``TOWN_LLAMA_MODEL``). Without it the test is skipped, except under ``CI=true``, where a
server that could not start fails the test. Requests go through a counting reverse proxy
written here, so the chat-completion requests the server received are counted on the server's
side of the client (the start-up check's probes apart). ``TOWN_LLAMA_MINUTES`` sets the game
minutes (default 30).
"""

from __future__ import annotations

import http.client
import os
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from town.cli import main
from town.events import EventKind
from town.recording import RunReader
from town.stats import compute_stats
from town.thinking.openai_backend import CHECK_MARK

URL = os.environ.get("TOWN_LLAMA_URL")
MODEL = os.environ.get("TOWN_LLAMA_MODEL", "smollm2")
MINUTES = int(os.environ.get("TOWN_LLAMA_MINUTES", "15"))  # 30 in docs/models.md; CI time is short

IN_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = [
    pytest.mark.slow,
    # answers under a schema end early: 30 game minutes took 4 wall minutes on a shared 2-core machine
    pytest.mark.timeout(900),  # the bar is 300 s on an idle 2-core machine; a busy one is slower
    pytest.mark.skipif(not URL and not IN_CI, reason="no model server: run scripts/ci_llama_server.sh"),
]


class CountingProxy:
    """Forwards every request to ``target`` (``http://host:port``) and counts chat completions."""

    def __init__(self, target: str):
        parsed = urllib.parse.urlsplit(target)
        self.host, self.port_to = parsed.hostname, parsed.port or 80
        self.chat = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _forward(self, method: str) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                probe = CHECK_MARK.encode() in body
                if method == "POST" and self.path.rstrip("/").endswith("/chat/completions") and not probe:
                    with proxy.lock:
                        proxy.chat += 1
                conn = http.client.HTTPConnection(proxy.host, proxy.port_to, timeout=600)
                headers = {
                    k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")
                }
                conn.request(method, self.path, body=body or None, headers=headers)
                reply = conn.getresponse()
                data = reply.read()
                try:
                    self.send_response(reply.status)
                    for k, v in reply.getheaders():
                        if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                            self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client timed out
                conn.close()

            def do_GET(self):  # noqa: N802
                self._forward("GET")

            def do_POST(self):  # noqa: N802
                self._forward("POST")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base_url = (
            f"http://127.0.0.1:{self.httpd.server_address[1]}{urllib.parse.urlsplit(URL).path}"
        )

    def close(self) -> None:
        """Stop the proxy."""
        self.httpd.shutdown()
        self.httpd.server_close()


def test_the_ville_on_smollm2_answers_right_the_first_time(tmp_path, capsys):
    """the_ville for MINUTES game minutes with --backend openai on SmolLM2.

    The run completes; the server received exactly the recorded attempts; every question ended
    with a validated answer or a recorded fallback; and fewer questions fell back to the scripted
    answer than before answers were constrained by schemas (35.6%).
    """
    if not URL:
        pytest.fail("CI=true but the model server did not start (scripts/ci_llama_server.sh)")
    proxy = CountingProxy(URL)
    out = tmp_path / "smollm2.sqlite"
    try:
        code = main(
            [
                "simulate",
                "--hours",
                str(MINUTES / 60),
                "--out",
                str(out),
                "--quiet",
                "--embedder",
                "hashing",
                "--backend",
                "openai",
                "--base-url",
                proxy.base_url,
                "--model",
                MODEL,
                "--no-cache",
                "--set",
                "backend.timeout_s=120",
                "--set",
                "backend.max_retries=2",
                "--set",
                "backend.max_prompt_tokens=700",  # a 135M model's prompt eval is the main cost
            ]
        )
    finally:
        proxy.close()
    assert code == 0
    with RunReader(out) as reader:
        assert reader.last_tick == MINUTES * 60 // reader.meta["seconds_per_tick"] - 1
        calls = [e.data for e in reader.events(kinds=[EventKind.MODEL_CALL])]
    requests = [c for c in calls if c["request"]]
    assert len(requests) == proxy.chat > 0
    questions = sum(c["attempt"] == 1 for c in requests)
    ok = sum(c["outcome"] == "ok" for c in requests)
    fallbacks = sum(c["outcome"] == "fallback" for c in calls)
    assert ok + fallbacks == questions
    s = compute_stats(out)
    assert s["total"]["requests"] == proxy.chat
    # The project's aim is under 5% of every template's questions (docs/models.md); on this
    # 135M model that is not yet shown, so CI holds the line it has measured: all questions
    # together fall back less often than the 35.6% recorded before schemas were sent.
    total = s["total"]
    assert total["fallbacks"] < 0.356 * max(total["questions"], 1), s["by_template"]
    capsys.readouterr()
    main(["stats", str(out)])
    report = capsys.readouterr().out
    artifacts = os.environ.get("TOWN_TEST_ARTIFACTS")
    if artifacts:  # the README's Performance section quotes this
        os.makedirs(artifacts, exist_ok=True)
        with open(os.path.join(artifacts, "smollm2_stats.txt"), "w") as f:
            f.write(report)
    print(report)
