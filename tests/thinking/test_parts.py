"""The factory hands over the backend, its recorder and its stall guard as separate objects.

The backend interface is asking and closing; the start-up check returns what it settled and
sets nothing; a stop request is the stall guard's ``cancel``, which also ends a request in flight.
"""

from __future__ import annotations

import threading
import time

import pytest
from fake_server import FakeOpenAIServer
from samples import WHO
from ville_runs import ville_config

from town.config import Dialect, load_config
from town.errors import RunStopped
from town.thinking import server_check
from town.thinking.backend import ThinkingBackend
from town.backends import make_backend
from town.thinking.openai_backend import OpenAIBackend
from town.thinking.questions import RateImportance
from town.scripted import ScriptedBackend
from town.thinking.wrappers import CachingBackend, CallRecorder, StallGuard


def test_the_backend_interface_is_asking_and_closing():
    """No recorder, stall guard or cancel on the interface: what surrounds a backend is not it."""
    assert {"ask", "close", "name"} <= set(vars(ThinkingBackend))
    assert not {"recorder", "stall", "cancel"} & set(vars(ThinkingBackend))
    parts = make_backend(load_config(None, {}))
    assert isinstance(parts.backend, ScriptedBackend)
    assert (parts.recorder, parts.stall, parts.settled) == (None, None, None)


def test_a_model_backend_comes_with_its_recorder_stall_guard_and_settled_dialect(fake_server, api_key):
    """Against a server obeying every dialect with no ``/props``: ``auto`` settles on json_schema
    (the first tried) and one slot, and the run's configuration records both; the server's speed
    is measured, and the timeout given (1 s) is kept."""
    server = fake_server()
    config = ville_config(server, api_key)
    parts = make_backend(config)
    try:
        assert isinstance(parts.backend, CachingBackend)
        assert isinstance(parts.recorder, CallRecorder) and isinstance(parts.stall, StallGuard)
        settled = parts.settled
        assert (settled.dialect, settled.slots, settled.timeout_s) == (Dialect.JSON_SCHEMA, (1,), 1.0)
        assert settled.speed is not None and parts.run_meta(config, 3)["model_server"]["timeout_s"] == 1.0
        assert (config.backend.structured, config.backend.max_concurrency) == ("auto", "auto")
        run = parts.run_config(config).backend
        assert (run.structured, run.max_concurrency) == ("json_schema", "1")
    finally:
        parts.backend.close()


def test_the_server_check_returns_what_it_settled_and_sets_nothing(fake_server, api_key):
    """``server_check.check`` leaves the backend as it was; ``OpenAIBackend.check`` takes it on."""
    server = fake_server(dialects=("grammar",))
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key)
    try:
        settled = server_check.check(backend)
        assert (settled.dialect, settled.slots, settled.timeout_s) == (Dialect.GRAMMAR, (1,), 30.0)  # the least
        assert backend.structured is Dialect.JSON_OBJECT  # "auto" asks in JSON mode until checked
        assert backend.timeout_s == 600.0  # an "auto" timeout is the most until checked
        again = backend.check()
        assert (again.dialect, again.slots) == (settled.dialect, settled.slots)
        assert backend.structured is Dialect.GRAMMAR and backend.timeout_s == 30.0
        assert all(t.seconds == 30.0 for t in backend.transports)
    finally:
        backend.close()


def test_the_stall_guards_cancel_ends_a_request_in_flight():
    """A stop request (``stall.cancel``) during a reply trickling a byte a second (timeout 3 s)
    ends the question within 1 s with RunStopped: the guard also cancels the model's requests."""
    server = FakeOpenAIServer(lambda messages: '{"importance": 5}', api_key=None)
    config = ville_config(server, "NO_KEY_NEEDED", cache=False, timeout_s=3.0)
    parts = make_backend(config, backoff_s=0.01)
    server.trickle = True
    assert parts.stall is not None
    try:
        timer = threading.Timer(0.5, parts.stall.cancel)
        timer.start()
        started = time.monotonic()
        with pytest.raises(RunStopped):
            parts.backend.ask(RateImportance(**WHO, content="Klaus is reading.", kind="observation"))
        assert time.monotonic() - started < 1.5
    finally:
        parts.backend.close()
        server.close()
