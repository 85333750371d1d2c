"""Fixtures for the model backends: a fake OpenAI server whose 'model' answers every question.

The fake model knows which question a prompt renders (``prompt_book`` records each rendering),
answers it with the scripted answer, but rates importance one point higher (capped at 10), so a
test can tell model answers from fallbacks in the run.
"""

from __future__ import annotations

import threading

import pytest
from fake_server import FakeOpenAIServer, model_answer

from town.thinking.prompting import PromptSet

@pytest.fixture
def prompt_book(monkeypatch):
    """Rendered user prompt -> the question it was rendered from (filled as prompts render)."""
    book: dict[str, object] = {}
    lock = threading.Lock()
    render = PromptSet.render

    def recording_render(self, question):
        text = render(self, question)
        with lock:
            book[text] = question
        return text

    monkeypatch.setattr(PromptSet, "render", recording_render)
    return book


@pytest.fixture
def fake_server(prompt_book):
    """Factory: ``fake_server(**kwargs)`` -> a started :class:`FakeOpenAIServer` (closed after)."""
    servers = []

    def responder(messages):
        return model_answer(prompt_book[messages[-1]["content"]])

    def start(**kwargs):
        server = FakeOpenAIServer(responder, **kwargs)
        server.rating_responder = responder  # the start-up importance check: the fake model's ratings
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.close()


@pytest.fixture
def api_key(monkeypatch):
    """Sets TOWN_TEST_KEY=test-key (the fake server's key); returns the variable's name."""
    monkeypatch.setenv("TOWN_TEST_KEY", "test-key")
    return "TOWN_TEST_KEY"
