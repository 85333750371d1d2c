"""The player's routes: the token and own-origin rules of control, bad input as one 400 line,
one player per tab (a secret each, a grace period after the last tab closes), and a player that
is never written to a snapshot (resume and fork go on without it)."""

from __future__ import annotations

import time

from test_control import socket_client

from player_inputs import add_player, move_player, outcome, player_says, remove_player
from town.player import PATIENCE_MINUTES
from web import live


def test_player_routes_follow_the_control_rules(make_app, simulation, runner):
    """Foreign origin -> 403; beyond loopback without the token -> 403; with it the player joins."""
    client = make_app().test_client()
    assert client.post("/api/player", json={"name": "Ada"}, headers={"Origin": "http://evil.example"}).status_code == 403
    assert simulation.players == set()
    open_app = make_app(HOST="0.0.0.0")
    token = open_app.config["CONTROL_TOKEN"]
    far = open_app.test_client()
    assert far.post("/api/player", json={"name": "Ada"}).status_code == 403
    joined = far.post("/api/player", json={"name": "Ada"}, headers={"X-Control-Token": token})
    assert joined.status_code == 200 and joined.get_json()["player"]["name"] == "Ada"
    assert outcome(far, joined) == {"id": joined.get_json()["input"], "state": "done", "tick": 0,
                                    "result": {"player": "player-ada", **joined.get_json()["at"]}}
    assert simulation.players == {"player-ada"}
    town = client.get("/api/town").get_json()
    assert town["players"] == ["player-ada"] and "player-ada" in [p["id"] for p in town["personas"]]


def test_bad_player_input_is_one_clear_400(make_app, simulation, runner):
    client = make_app().test_client()
    assert "player" in client.post("/api/player", json={"name": "<script>"}).get_json()["error"]
    assert "'klaus mueller' is already someone" in client.post("/api/player", json={"name": "klaus mueller"}).get_json()["error"]
    assert client.post("/api/player", json={"name": "Bo", "color": "red"}).get_json()["error"] == (
        "color: 'red': a colour is '#rrggbb'")
    joined = client.post("/api/player", json={"name": "Ada"})
    assert joined.status_code == 200
    ada = {"X-Player-Secret": joined.get_json()["secret"]}
    response = client.post("/api/player/say", json={"text": "hello", "to": "klaus_mueller"}, headers=ada)
    assert response.status_code == 200  # queued; the town refuses it when it is applied
    refused = outcome(client, response)
    assert refused["state"] == "refused" and refused["error"].startswith("to: Klaus Mueller is ")
    assert refused["error"].endswith("tiles away: walk up to them first")
    response = client.post("/api/player/say", json={"text": "\u200b\u200f \u2067", "to": "klaus_mueller"}, headers=ada)
    assert response.status_code == 400 and response.get_json()["error"].startswith("text: is empty")
    response = client.post("/api/player/move", json={"x": "a", "y": 1}, headers=ada)
    assert response.status_code == 400 and response.get_json()["error"] == "x, y: tile coordinates (integers)"


def test_a_name_that_is_not_text_is_named_as_such(make_app, simulation, runner):
    """A number, list, object, null or no name at all was refused as "is empty (nothing but
    spaces, zero-width or bidi characters)"; a name that is not text now says so, as a whisper does."""
    client = make_app().test_client()
    for body in ({"name": 5}, {"name": True}, {"name": ["Ada"]}, {"name": {"first": "Ada"}}, {"name": None}, {}):
        response = client.post("/api/player", json=body)
        assert response.status_code == 400
        assert response.get_json() == {"error": "name: Input should be a valid string"}, body
    assert client.post("/api/player", json={"name": " "}).get_json()["error"].startswith("player: is empty")
    assert client.get("/api/players").get_json() == {"players": []}


def test_a_blocked_move_is_a_note_not_an_http_error(make_app, simulation, runner):
    """A wall tile answers 200 ``{ok: false, blocked}``: the page shows a note, the console no error."""
    client = make_app().test_client()
    joined = client.post("/api/player", json={"name": "Ada"})
    ada = {"X-Player-Secret": joined.get_json()["secret"]}
    assert outcome(client, joined)["state"] == "done"
    wall = next((x, y) for y in range(simulation.tilemap.height) for x in range(simulation.tilemap.width)
                if not simulation.tilemap.walkable(x, y))
    response = client.post("/api/player/move", json={"x": wall[0], "y": wall[1]}, headers=ada)
    assert response.status_code == 200
    assert response.get_json() == {"ok": False, "blocked": f"({wall[0]}, {wall[1]}) is not a walkable tile"}
    assert simulation.personas["player-ada"].path == ()


def test_each_tab_moves_only_its_own_player(make_app, simulation, runner):
    """Two players join; each secret moves its own player only; no secret, or a made-up one, is 403."""
    client = make_app().test_client()
    ada = client.post("/api/player", json={"name": "Ada", "color": "#EE6C4D"}).get_json()
    bo = client.post("/api/player", json={"name": "Bo"}).get_json()
    assert outcome(client, ada)["state"] == outcome(client, bo)["state"] == "done"
    assert simulation.players == {"player-ada", "player-bo"} and ada["secret"] != bo["secret"]
    assert client.get("/api/players").get_json()["players"] == [
        {"id": "player-ada", "name": "Ada", "color": "#ee6c4d", "here": False},
        {"id": "player-bo", "name": "Bo", "color": "#f4d35e", "here": False}]  # the first colour not taken
    me = simulation.personas["player-bo"]
    step = next((me.x + dx, me.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if simulation.tilemap.walkable(me.x + dx, me.y + dy))
    for headers in ({}, {"X-Player-Secret": "x" * 24}, {"X-Player-Secret": ada["secret"][:-1]}):
        response = client.post("/api/player/move", json={"x": step[0], "y": step[1]}, headers=headers)
        assert response.status_code == 403 and "plays nobody" in response.get_json()["error"]
    moved = client.post("/api/player/move", json={"x": step[0], "y": step[1]}, headers={"X-Player-Secret": bo["secret"]})
    assert moved.status_code == 200 and outcome(client, moved)["result"] == [list(step)]
    assert me.path == (step,) and simulation.personas["player-ada"].path == ()


def _gone(simulation, pid: str, within: float = 5.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if pid not in simulation.players:
            return True
        time.sleep(0.05)
    return False


def test_a_player_leaves_after_its_tab_closes_and_a_rejoin_in_time_takes_it_back(make_app, simulation, runner):
    """Grace 0.4 s: while a tab's connection holds the secret the player stays; rejoining by name
    in the grace period takes the same player back with a new secret (the old one is void); once
    the last tab has been gone for the grace period the player leaves the town."""
    app = make_app(PLAYER_GRACE_S=0.4)
    client = app.test_client()
    first = client.post("/api/player", json={"name": "Ada"}).get_json()["secret"]
    tab = socket_client(app, auth={"player": first})
    assert [e["args"][0]["player"] for e in tab.get_received() if e["name"] == "hello"] == ["player-ada"]
    time.sleep(0.8)
    assert simulation.players == {"player-ada"}, "left while its tab was open"
    again = client.post("/api/player", json={"name": "ada"})  # the tab is open: the name is taken
    assert again.status_code == 400 and "already someone" in again.get_json()["error"]
    tab.disconnect()
    back = client.post("/api/player", json={"name": "Ada"}).get_json()  # within the grace period
    assert back["player"]["id"] == "player-ada" and back["secret"] != first
    assert client.post("/api/player/move", json={"x": 0, "y": 0}, headers={"X-Player-Secret": first}).status_code == 403
    assert live(app).seats.attach(back["secret"], "tab-2") is not None
    live(app).seats.detach("tab-2")
    assert _gone(simulation, "player-ada")
    assert "player-ada" not in simulation.personas and client.get("/api/players").get_json()["players"] == []


def test_a_player_joined_without_a_tab_leaves_but_serve_player_stays(make_app, simulation, runner):
    """A join never followed by a connection leaves after the grace period; a player that was
    there when the app started (``serve --player``) has no tab and stays."""
    runner.call(lambda: add_player(simulation, "Cy"))
    app = make_app(PLAYER_GRACE_S=0.2)
    client = app.test_client()
    client.post("/api/player", json={"name": "Ada"})
    assert _gone(simulation, "player-ada")
    time.sleep(0.5)
    assert simulation.players == {"player-cy"}
    assert client.get("/api/players").get_json()["players"][0]["here"] is True


def test_a_player_leaving_ends_its_conversation(simulation):
    """Ada leaves mid-conversation: Klaus is free, both remember the talk, Ada is in no frame."""
    pid = add_player(simulation, "Ada")
    klaus, me = simulation.personas["klaus_mueller"], simulation.personas[pid]
    me.place(klaus.x, klaus.y)
    cid = player_says(simulation, pid, "Hello Klaus!", "klaus_mueller")
    simulation.step()
    remove_player(simulation, pid)
    assert cid not in simulation.conversations and klaus.conversation is None
    assert any(r.conversation == cid and r.content.startswith("I talked with") for r in klaus.stream.records())
    simulation.step()
    assert pid not in simulation.frame() and simulation.players == set()


def test_a_player_is_left_out_of_snapshots(simulation):
    """After talking with Klaus, the state has no player and Klaus is free; a fresh town takes it."""
    simulation.run(30)
    pid = add_player(simulation, "Ada")
    klaus = simulation.personas["klaus_mueller"]
    me = simulation.personas[pid]
    for _ in range(5):  # walk up to Klaus (he may walk on meanwhile)
        spot = next((klaus.x + dx, klaus.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if simulation.tilemap.walkable(klaus.x + dx, klaus.y + dy))
        move_player(simulation, pid, *spot)
        simulation.run(len(me.path))
        if max(abs(me.x - klaus.x), abs(me.y - klaus.y)) <= 2:
            break
    cid = player_says(simulation, pid, "Hello Klaus!", "klaus_mueller")
    assert klaus.conversation == cid
    state = simulation.get_state(vectors=True)
    assert pid not in state["personas"] and state["personas"]["klaus_mueller"]["conversation"] is None
    assert all(pid not in (c["a"], c["b"]) for c in state["conversations"])
    from town.config import load_config
    from town.simulation import Simulation

    fresh = Simulation(simulation.scenario, load_config(None, {"embedder": "hashing"}), seed_memories=False)
    fresh.set_state(state)
    assert fresh.personas["klaus_mueller"].conversation is None and fresh.players == set()


def test_a_silent_player_is_left_after_twenty_game_minutes(simulation):
    """Klaus answers, then waits 20 game minutes (120 ticks) for the player's next line, no more."""
    pid = add_player(simulation, "Ada")
    klaus, me = simulation.personas["klaus_mueller"], simulation.personas[pid]
    me.place(klaus.x, klaus.y)  # set down next to him (walking is tested above)
    cid = player_says(simulation, pid, "Hello Klaus!", "klaus_mueller")
    simulation.step()  # Klaus answers on this tick
    conv = simulation.conversations.get(cid)
    assert conv is not None and [w for w, _ in conv.lines] == [pid, "klaus_mueller"], "he ended it at once"
    waited = 0
    while cid in simulation.conversations:
        simulation.step()
        waited += 1
        assert waited <= 200
    assert PATIENCE_MINUTES == 20 and waited == 20 * 6 + 1
    assert klaus.conversation is None and me.conversation is None


def test_the_web_join_refuses_a_look_alike(make_app, simulation, runner):
    """POST /api/player with "Isabеlla Rodriguez" (a Cyrillic е): 400 naming the persona it looks like; nobody joins."""
    response = make_app().test_client().post("/api/player", json={"name": "Isab\u0435lla Rodriguez"})
    assert response.status_code == 400 and "looks like 'Isabella Rodriguez'" in response.get_json()["error"]
    assert simulation.players == set()


def test_a_player_is_neither_interviewed_nor_whispered_to(make_app, simulation, runner):
    """Asking a player a question (its panel is a persona's) was a 400 naming the CLI's
    "--persona: unknown persona 'player-ada'; this run has ...": a 404 as a whisper to it is."""
    client = make_app().test_client()
    joined = client.post("/api/player", json={"name": "Ada"})
    assert outcome(client, joined)["state"] == "done"
    answer = client.get("/api/personas/player-ada/interview?q=Do you know about a party?")
    assert (answer.status_code, answer.get_json()) == (404, {"error": "no persona 'player-ada' in this town"})
    whisper = client.post("/api/personas/player-ada/whisper", json={"text": "hello"})
    assert (whisper.status_code, whisper.get_json()) == (404, {"error": "no persona 'player-ada' in this town"})
