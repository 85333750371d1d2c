"""Live viewer extras: whisper (on the runner's thread, token beyond loopback), interview as of
now without writing, and the procedure libraries of the live run; Runner.call itself.
"""

from __future__ import annotations

import threading

import pytest
from player_inputs import outcome

from town.events import EventKind


def whisper(client, pid, text, **headers):
    return client.post(f"/api/personas/{pid}/whisper", json={"text": text}, headers=headers)


def test_whisper_becomes_a_memory_of_kind_whisper(make_app, runner, published):
    """POST whisper: queued as an input, applied between ticks; its outcome names a whisper memory
    published with that text, recorded as an INPUT event at that tick; after the next tick the
    persona's memories API lists it first.
    """
    runner.step(3)
    client = make_app().test_client()
    response = whisper(client, "klaus_mueller", "You want to throw a party on Friday.")
    assert response.status_code == 200
    done = outcome(client, response)
    memory = done["result"]["memory"]
    assert done == {"id": response.get_json()["input"], "state": "done", "tick": 3, "result": {"memory": memory}}
    inputs = [(e.tick, e.persona, e.data) for e in published if e.kind is EventKind.INPUT]
    assert inputs == [(3, "klaus_mueller", {"id": done["id"], "ok": True, "result": {"memory": memory}, "input": {
        "kind": "whisper", "persona": "klaus_mueller", "text": "You want to throw a party on Friday."}})]
    events = [e for e in published if e.kind is EventKind.WHISPER]
    assert [(e.persona, e.data["text"], e.data["memory"]) for e in events] == [
        ("klaus_mueller", "You want to throw a party on Friday.", memory)]
    written = [e for e in published if e.kind is EventKind.MEMORY and e.data["id"] == memory
               and e.persona == "klaus_mueller"]
    assert written[0].data["kind"] == "whisper"
    runner.step(1)  # the run file commits per tick
    rows = client.get("/api/personas/klaus_mueller/memories?kind=whisper").get_json()["memories"]
    # the inner voice: typed in the second person, remembered in the first
    assert [(m["id"], m["content"]) for m in rows] == [(memory, "I want to throw a party on Friday.")]


def test_whisper_needs_the_token_beyond_loopback_and_the_own_origin(make_app, runner, published):
    """HOST=0.0.0.0: no token -> 403 and nothing injected; a foreign Origin -> 403; bad text 400."""
    app = make_app(HOST="0.0.0.0")
    client = app.test_client()
    assert whisper(client, "klaus_mueller", "hello").status_code == 403
    assert whisper(client, "klaus_mueller", "hello", **{"X-Control-Token": app.config["CONTROL_TOKEN"],
                                                       "Origin": "http://evil.example"}).status_code == 403
    assert not [e for e in published if e.kind is EventKind.WHISPER]
    token = {"X-Control-Token": app.config["CONTROL_TOKEN"]}
    for bad in ("", "   ", "x" * 501):
        assert whisper(client, "klaus_mueller", bad, **token).status_code == 400
    # as found: a whisper of zero-width and bidi characters only became a memory
    invisible = whisper(client, "klaus_mueller", "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u202e\u2067\u2069",
                        **token)
    assert invisible.status_code == 400 and invisible.get_json()["error"] == (
        "text: is empty (nothing but spaces, zero-width or bidi characters); type 1-500 characters")
    assert whisper(client, "nobody", "hello", **token).status_code == 404
    assert whisper(client, "klaus_mueller", "hello", **token).status_code == 200


def test_runner_call_runs_between_ticks_on_the_runner_thread(runner, simulation):
    """While the runner runs at max speed, call() runs on its thread and no tick moves meanwhile."""
    runner.resume()
    seen = []

    def job():
        before = simulation.clock.tick
        seen.append((threading.current_thread().name, before))
        return simulation.clock.tick - before

    assert runner.call(job) == 0
    assert seen[0][0] == "town-runner"
    runner.pause()
    assert runner.call(lambda: threading.current_thread().name) == "town-runner"
    assert runner.status()["state"] == "paused"
    with pytest.raises(ValueError, match="boom"):
        runner.call(lambda: (_ for _ in ()).throw(ValueError("boom")))


def test_live_interview_answers_from_memory_and_writes_nothing(make_app, runner, published):
    """The live interview answers; no event is published by asking."""
    runner.step(20)
    client = make_app().test_client()
    count = len(published)
    body = client.get("/api/personas/isabella_rodriguez/interview?q=Do you know about a party?").get_json()
    assert body["answer"].lower().startswith("yes") and body["tick"] == 19
    assert len(published) == count
    assert client.get("/api/personas/isabella_rodriguez/interview").status_code == 400


def test_live_procedures_are_the_published_ones(make_app, runner, published):
    """After 200 ticks /api/procedures lists each (library, name) a PROCEDURE event named."""
    runner.step(200)
    body = make_app().test_client().get("/api/procedures").get_json()
    named = {(e.data["library"], e.data["name"]) for e in published if e.kind is EventKind.PROCEDURE}
    shown = {(lib, p["name"]) for lib, procs in body["libraries"].items() for p in procs}
    assert named and shown == named
