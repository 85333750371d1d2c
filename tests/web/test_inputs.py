"""Outside actions are typed inputs, from the outside (HTTP on the Flask test client):

- a request answers once its input is queued, even while the town is stuck in a tick or
  settling a run-ahead (it held a whisper's request 17.7 s);
- a player's id never is a persona's (a persona file ``player_ada.yaml`` and a player "Ada" gave
  HTTP 500 and a ``serve --player`` traceback);
- names compare as people read them ("Isabella Rodríguez", "Kláus Mueller", "Isabella
  Rodriguez." were accepted as players, "Cléo" next to "Cleo");
- a run given the same inputs at the same ticks is the same run (the run file holds them).
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from cli_helpers import REPO, same_run
from player_inputs import outcome
from test_serve_output import _serve

from town.config import load_config
from town.events import EventKind
from town.runner import Runner
from town.scenario import load_scenario
from town.simulation import Simulation
from town.player import start_tile
from town.simulation.inputs import Join, Move, Whisper
from town.scripted import ScriptedBackend
from web import create_app, live


class GatedBackend(ScriptedBackend):
    """The scripted answers, each waiting while ``gate`` is closed (a model that does not answer)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()
        self.held = threading.Event()

    def ask(self, question):
        if not self.gate.is_set():
            self.held.set()
            self.gate.wait()
        return super().ask(question)


@pytest.fixture
def served(tmp_path):
    """A run-ahead the_ville, running at full speed under a runner, and its test client."""
    backend = GatedBackend()
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing", "schedule": "run-ahead"}),
                     backend=backend, run_path=tmp_path / "ahead.sqlite")
    runner = Runner(sim, speed=None)
    app = create_app({"RUNNER": runner, "RUN_PATH": sim.run_path, "TESTING": True})
    runner.start()
    yield sim, backend, app.test_client()
    backend.gate.set()
    runner.stop()
    live(app).close()
    sim.close()


def test_a_whisper_to_a_run_ahead_town_answers_while_the_town_is_stuck(served):
    """The town waits for a model answer; the whisper is answered at once (before: the request
    waited for the runner, here for ever), then applied with everyone at one tick."""
    sim, backend, client = served
    seen = []
    sim.bus.subscribe(lambda e: seen.append(e) if e.kind in (EventKind.INPUT, EventKind.WHISPER) else None)
    while sim.clock.tick < 20:
        time.sleep(0.01)
    backend.gate.clear()
    assert backend.held.wait(10)
    started = time.monotonic()
    response = client.post("/api/personas/klaus_mueller/whisper", json={"text": "You want to bake bread."})
    assert response.status_code == 200 and time.monotonic() - started < 2.0
    assert outcome(client, response, within=0.3)["state"] == "queued"  # the town is still stuck
    backend.gate.set()
    done = outcome(client, response)
    assert done["state"] == "done", done
    [applied] = [e for e in seen if e.kind is EventKind.INPUT]
    [whisper] = [e for e in seen if e.kind is EventKind.WHISPER]
    assert applied.tick == whisper.tick == done["tick"] and whisper.data["memory"] == done["result"]["memory"]
    memory = sim.personas["klaus_mueller"].stream.get(done["result"]["memory"])
    assert memory.content == "I want to bake bread." and memory.created == sim.clock.time_of(done["tick"])


def _ville_with_player_ada(tmp_path: Path) -> Path:
    """the_ville with a fourth persona whose file is ``player_ada.yaml`` (Maria's, renamed Ada Byron)."""
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    text = (town / "maria_lopez.yaml").read_text(encoding="utf-8").replace("name: Maria Lopez", "name: Ada Byron")
    (town / "player_ada.yaml").write_text(text, encoding="utf-8")
    return town


def test_a_player_ada_next_to_a_persona_file_player_ada(tmp_path, capsys):
    """As found: the join was HTTP 500 (the id player_ada was the persona's). Now the player is
    ``player-ada``, and ``serve --player Ada`` starts (it gave a traceback)."""
    town = _ville_with_player_ada(tmp_path)
    sim = Simulation(load_scenario(town), load_config(None, {"embedder": "hashing"}), run_path=tmp_path / "a.sqlite")
    runner = Runner(sim, speed=None, paused=True)
    app = create_app({"RUNNER": runner, "RUN_PATH": sim.run_path, "TESTING": True})
    runner.start()
    try:
        client = app.test_client()
        joined = client.post("/api/player", json={"name": "Ada"})
        assert joined.status_code == 200 and joined.get_json()["player"]["id"] == "player-ada"
        assert outcome(client, joined)["state"] == "done"
        assert sim.players == {"player-ada"} and sim.personas["player_ada"].name == "Ada Byron"
    finally:
        runner.stop()
        live(app).close()
        sim.close()
    start, _rest, err = _serve(tmp_path, "--town", str(town), "--player", "Ada")
    assert any(line.startswith("town: you are Ada: play at http://") for line in start), start
    assert "Traceback" not in err


@pytest.mark.parametrize(("first", "name", "like"), [
    (None, "Isabella Rodríguez", "Isabella Rodriguez"),
    (None, "Kláus Mueller", "Klaus Mueller"),
    (None, "Isabella Rodriguez.", "Isabella Rodriguez"),
    (None, "ISABELLA  RODRIGUEZ", "Isabella Rodriguez"),
    ("Cleo", "Cléo", "Cleo"),
])
def test_a_name_that_reads_like_one_in_the_town_is_refused(make_app, simulation, first, name, like):
    """As found, each was accepted as a player; now a 400 naming the one it reads as, and nobody joins.
    (Cleo's tab is open: were it closed, "Cléo" would take Cleo back, as the same name does.)"""
    app = make_app()
    client = app.test_client()
    if first is not None:
        joined = client.post("/api/player", json={"name": first})
        assert outcome(client, joined)["state"] == "done"
        assert live(app).seats.attach(joined.get_json()["secret"], "cleo-tab") is not None
    response = client.post("/api/player", json={"name": name})
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"] == f"player: {name if '  ' not in name else ' '.join(name.split())!r} " \
        f"is already someone in the town ({like!r}); choose another name"
    assert len(simulation.players) == (first is not None)


def test_a_name_that_reads_longer_than_forty_letters_is_refused(make_app, simulation):
    """As found: "\ufdfa" (one character; NFKC reads it as 18 letters) joined, and three of them
    (54 letters as read) would too; now 1-40 letters as read, or a 400 and nobody joins."""
    client = make_app().test_client()
    response = client.post("/api/player", json={"name": "\ufdfa" * 3})
    assert response.status_code == 400
    assert "a player's name is 1-40 letters" in response.get_json()["error"]
    assert len(simulation.players) == 0


def test_the_same_inputs_at_the_same_ticks_make_the_same_run(tmp_path):
    """Two runs of the_ville, each given a whisper at tick 5 and a player's join and walk at tick
    8 (one queued from other threads, one applied directly): the run files are equal row by row."""
    paths = []
    for k, queued in enumerate((True, False)):
        path = tmp_path / f"{k}.sqlite"
        sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}), run_path=path)
        x, y = start_tile(sim.tilemap)
        there = next(t for t in ((x + 3, y), (x - 3, y), (x, y + 3), (x, y - 3)) if sim.tilemap.walkable(*t))
        wanted = {5: [Whisper(persona="isabella_rodriguez", text="You want to paint the cafe.")],
                  8: [Join(name="Ada"), Move(player="player-ada", x=there[0], y=there[1])]}
        for tick in range(12):
            for inp in wanted.get(tick, []):
                if queued:  # from the viewer's thread, as a request would
                    threading.Thread(target=sim.inputs.submit, args=(inp,)).start()
                else:
                    sim.act(inp)
            while queued and sim.inputs.pending < len(wanted.get(tick, [])):
                time.sleep(0.001)
            sim.step()
        sim.close()
        paths.append(path)
    compared = same_run(*paths)
    assert compared.returncode == 0, compared.stdout + compared.stderr


def test_controls_are_typed_inputs_over_http_and_socketio(make_app, runner):
    """A control is checked as a typed input (``Control``) at both doors: one line naming the field."""
    from test_control import socket_client

    app = make_app()
    client = app.test_client()
    cases = [({"op": "stop"}, "op: must be one of pause, resume, step, speed, talk_pace, got 'stop'"),
             ({"op": "speed", "value": [8]}, "value: "),
             ({"op": "step", "value": {"n": 1}}, "value: "),
             ({"op": "talk_pace", "value": "maybe"}, "value: must be \"on\" or \"off\", got 'maybe'")]
    sock = socket_client(app)
    for message, error in cases:
        answer = client.post("/api/control", json=message)
        assert answer.status_code == 400 and answer.get_json()["error"].startswith(error), answer.get_json()
        acked = sock.emit("control", message, callback=True)
        assert acked["ok"] is False and acked["error"].startswith(error), acked
    stepped = client.post("/api/control", json={"op": "step", "value": "3"})  # digits read as a number
    assert stepped.status_code == 200
    end = time.monotonic() + 10
    while runner.status()["tick"] < 3 and time.monotonic() < end:
        time.sleep(0.02)
    assert runner.status()["tick"] == 3
