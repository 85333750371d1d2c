"""The JSON API's shapes and values, checked against the events the simulation published."""

from __future__ import annotations

from town.events import EventKind
from web import create_app, live


def kind(events, k, persona=None):
    """Events of kind ``k`` (and ``persona``) in publication order."""
    return [e for e in events if e.kind is k and (persona is None or e.persona == persona)]


def test_town_gives_map_personas_and_clock(make_app, runner):
    """/api/town: the map as personas/the_ville/map.yaml draws it, the three personas, and the clock
    after 5 steps."""
    runner.step(5)
    body = make_app().test_client().get("/api/town").get_json()
    assert body["name"] == "The Ville"
    town_map = body["map"]
    assert (town_map["world"], town_map["width"], town_map["height"]) == ("the_ville", 64, 44)
    assert len(town_map["collision"]) == 44 and {len(row) for row in town_map["collision"]} == {64}
    # values copied by hand from personas/the_ville/map.yaml
    college = town_map["sectors"][0]
    assert (college["name"], college["address"], college["rect"], college["doors"]) == (
        "Oak Hill College", "the_ville:Oak Hill College", [1, 1, 19, 17], [[10, 17]])
    library = next(a for a in town_map["arenas"] if a["address"] == "the_ville:Oak Hill College:library")
    assert (library["rect"], library["walls"], library["doors"], library["sector"]) == (
        [1, 1, 10, 10], True, [[6, 10]], "the_ville:Oak Hill College")
    table = next(o for o in town_map["objects"] if o["address"] == "the_ville:Oak Hill College:library:study table")
    assert (table["rect"], table["capacity"], table["arena"]) == ([3, 5, 5, 2], 6, library["address"])
    desk = next(o for o in town_map["objects"] if o["address"] == "the_ville:Oak Hill College:library:librarian desk")
    assert desk["rect"] == [8, 8, 1, 1]
    assert [p["id"] for p in body["personas"]] == ["isabella_rodriguez", "klaus_mueller", "maria_lopez"]
    klaus = body["personas"][1]
    assert (klaus["name"], klaus["age"], klaus["emoji"]) == ("Klaus Mueller", 20, "📚")
    assert (body["tick"], body["time"]) == (5, "2023-02-13 07:00:50")
    assert body["status"]["state"] == "paused"
    assert body["speeds"] == [1, 2, 4, 8, 16, 32, 64, None]
    assert body["token_required"] is False


def test_persona_panel_matches_the_simulation(make_app, runner, simulation, published):
    """/api/personas/<id>: identity from the file, place from the last frame, plan, memories."""
    runner.step(40)
    body = make_app().test_client().get("/api/personas/klaus_mueller").get_json()
    spec = simulation.personas["klaus_mueller"].spec
    assert body["identity"]["traits"] == ["kind", "inquisitive", "passionate", "a little shy"]
    assert body["identity"]["home"] == "the_ville:Dorm for Oak Hill College:Klaus Mueller's room:bed"
    last_frame = kind(published, EventKind.FRAME)[-1]
    assert body["now"]["tick"] == last_frame.tick == 39
    assert body["now"]["time"] == "2023-02-13 07:06:30"
    mine = last_frame.data["personas"]["klaus_mueller"]
    assert (body["now"]["x"], body["now"]["y"], body["now"]["action"], body["now"]["address"]) == (
        mine["x"], mine["y"], mine["action"], mine["address"])
    assert body["plan"]["date"] == "2023-02-13"
    assert body["plan"]["items"][0]["description"] == spec.routine[0].activity == "sleeping"
    # memories: the newest 12, newest first (ids from the seeded ones written at creation on)
    ids = [m["id"] for m in body["memories"]]
    assert ids == sorted(ids, reverse=True)[:12]
    written = kind(published, EventKind.MEMORY, "klaus_mueller")
    assert {w.data["id"] for w in written} <= set(range(ids[0] + 1))
    seqs = [r["seq"] for r in body["retrievals"]]
    expected = [e.seq for e in kind(published, EventKind.RETRIEVAL, "klaus_mueller")][::-1][:12]
    assert seqs == expected and seqs


def test_memories_filter_by_text_and_kind(make_app, runner, simulation):
    """q= keeps records containing the text (any case); kind= keeps one kind; limit= caps."""
    runner.step(3)
    client = make_app().test_client()
    seeded = [m.content for m in simulation.personas["klaus_mueller"].spec.memories]
    want = [c for c in seeded if "paper" in c.lower()]
    body = client.get("/api/personas/klaus_mueller/memories?q=PAPER&kind=observation").get_json()
    got = [m["content"] for m in body["memories"]]
    assert sorted(c for c in got if c in seeded) == sorted(want) and len(want) == 3
    assert all("paper" in c.lower() for c in got)
    assert all(m["kind"] == "observation" for m in body["memories"])
    assert len(client.get("/api/personas/klaus_mueller/memories?limit=2").get_json()["memories"]) == 2
    assert client.get("/api/personas/klaus_mueller/memories?kind=reflection").get_json()["memories"] == []


def test_retrieval_trace_is_the_published_trace(make_app, runner, published):
    """/api/retrievals/<seq> returns the candidates exactly as the retrieval event carried them."""
    runner.step(10)
    client = make_app().test_client()
    event = kind(published, EventKind.RETRIEVAL, "maria_lopez")[-1]
    listed = client.get("/api/personas/maria_lopez/retrievals?limit=1").get_json()["retrievals"]
    assert [r["seq"] for r in listed] == [event.seq]
    trace = client.get(f"/api/retrievals/{event.seq}").get_json()
    assert "query_embedding" not in trace
    assert trace["candidates"] == event.data["candidates"]
    assert (trace["query"], trace["purpose"], trace["k"], trace["weights"]) == (
        event.data["query"], event.data["purpose"], event.data["k"], event.data["weights"])
    first = trace["candidates"][0]
    assert abs(first["recency_score"] + first["importance_score"] + first["relevance_score"]
               - first["total"]) < 1e-9


def test_unknown_things_are_json_404(make_app, runner, published):
    """Unknown persona or a seq that is not a retrieval: 404 with a JSON error naming it."""
    runner.step(2)
    client = make_app().test_client()
    for path in ("/api/personas/nobody", "/api/personas/nobody/memories",
                 "/api/personas/nobody/retrievals"):
        response = client.get(path)
        assert response.status_code == 404
        assert "nobody" in response.get_json()["error"]
    memory_seq = kind(published, EventKind.MEMORY)[0].seq
    for seq in (memory_seq, 10**9):
        response = client.get(f"/api/retrievals/{seq}")
        assert response.status_code == 404 and str(seq) in response.get_json()["error"]


def test_bad_limit_is_400(make_app, runner):
    """A limit that is not an integer in 1..500 is refused, naming limit."""
    client = make_app().test_client()
    for bad in ("x", "0", "501"):
        response = client.get(f"/api/personas/klaus_mueller/memories?limit={bad}")
        assert response.status_code == 400 and "limit" in response.get_json()["error"]


def test_without_a_live_run_the_api_says_503():
    """An app with no runner answers 503, not a crash."""
    app = create_app({"TESTING": True})
    try:
        response = app.test_client().get("/api/town")
        assert response.status_code == 503 and response.get_json() == {"error": "no live run"}
    finally:
        live(app).close()


def test_live_page_serves_the_vendored_socketio_client(make_app):
    """The page loads the Socket.IO client from our static folder (never a CDN), autoescaped."""
    client = make_app().test_client()
    html = client.get("/").get_data(as_text=True)
    assert '<script src="/static/vendor/socket.io.min.js">' in html
    assert "//cdn" not in html and "https://" not in html
    for path in ("/static/vendor/socket.io.min.js", "/static/js/main.js"):
        with client.get(path) as response:
            assert response.status_code == 200
