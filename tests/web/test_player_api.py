"""The player's routes: the token and own-origin rules of control, bad input as one 400 line,
and a player that is never written to a snapshot (resume and fork go on without it)."""

from __future__ import annotations

from town.player import PATIENCE_MINUTES, add_player, move_player, player_says


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
    assert simulation.players == {"player_ada"}
    town = client.get("/api/town").get_json()
    assert town["players"] == ["player_ada"] and "player_ada" in [p["id"] for p in town["personas"]]


def test_bad_player_input_is_one_clear_400(make_app, simulation, runner):
    client = make_app().test_client()
    assert "player" in client.post("/api/player", json={"name": "<script>"}).get_json()["error"]
    assert "'klaus mueller' is already someone" in client.post("/api/player", json={"name": "klaus mueller"}).get_json()["error"]
    assert client.post("/api/player", json={"name": "Ada"}).status_code == 200
    wall = next((x, y) for y in range(simulation.tilemap.height) for x in range(simulation.tilemap.width)
                if not simulation.tilemap.walkable(x, y))
    response = client.post("/api/player/move", json={"x": wall[0], "y": wall[1]})
    assert response.status_code == 400 and "not a walkable tile" in response.get_json()["error"]
    response = client.post("/api/player/say", json={"text": "hello", "to": "klaus_mueller"})
    assert response.status_code == 400 and "tiles away: walk up to them first" in response.get_json()["error"]


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
