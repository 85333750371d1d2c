"""Outside text and malformed bodies at the viewer's doors: a 400 naming the field (an error
acknowledgement over Socket.IO), never a 500, and the live run goes on.

Each test that reaches the live run then stops it and checks the run file: ``integrity_check``,
the replay viewer, and a resume from its newest snapshot (``fault_checks``).
"""

from __future__ import annotations

from fault_checks import assert_replays_and_resumes
from test_control import received, socket_client

from player_inputs import add_player
from web import live

#: The raw body as found: a JSON escape of a lone surrogate, which Python's json accepts.
SAY = b'{"text":"hello \\ud800 there","to":"isabella_rodriguez"}'


def _post(client, url, raw: bytes, headers: dict | None = None):
    return client.post(url, data=raw, content_type="application/json", headers=headers or {})


def _next_to_isabella(sim) -> str:
    """Ada joins and stands next to Isabella, who is awake and free (tick 30, 07:05)."""
    pid = add_player(sim, "Ada")
    isabella = sim.personas["isabella_rodriguez"]
    assert not isabella.asleep and isabella.conversation is None
    me = sim.personas[pid]
    me.place(*next((isabella.x + dx, isabella.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if sim.tilemap.walkable(isabella.x + dx, isabella.y + dy)))
    return pid


def _no_surrogate_anywhere(sim) -> None:
    for p in sim.personas.values():
        for record in p.stream.records():
            record.content.encode("utf-8")


def _goes_on_and_is_sound(runner, simulation, ticks: int = 3) -> None:
    before = runner.status()["tick"]
    runner.step(ticks)
    status = runner.status()
    assert status["state"] == "paused" and status["tick"] == before + ticks, status
    _no_surrogate_anywhere(simulation)
    runner.stop()
    simulation.close()
    assert_replays_and_resumes(simulation.run_path)


def test_a_lone_surrogate_said_by_the_player_is_a_400_and_the_run_goes_on(make_app, runner, simulation):
    """As found: Ada next to Isabella says "hello \\ud800 there": 400 naming ``text``
    (it was a 500, then the next tick failed in ``encode_batch``)."""
    runner.step(30)
    runner.call(lambda: _next_to_isabella(simulation))
    app = make_app()
    client = app.test_client()
    ada = {"X-Player-Secret": live(app).seats.seats["player-ada"].secret}  # a player with no tab, as `serve --player`
    response = _post(client, "/api/player/say", SAY, ada)
    assert response.status_code == 400
    assert response.get_json()["error"] == ("text: is not valid UTF-8 text (character 6: U+D800, a lone "
                                            "surrogate or a byte that is not UTF-8)")
    assert len(simulation.conversations) == 0
    # the same line without the bad character is taken: the refusal was the character's
    fine = _post(client, "/api/player/say", SAY.replace(b"\\ud800 ", b""), ada)
    assert fine.status_code == 200, fine.get_json()
    _goes_on_and_is_sound(runner, simulation)


def test_a_lone_surrogate_in_a_whisper_is_a_400(make_app, runner, simulation):
    """The whisper with the same character gave a 500 (``seed_for``, UnicodeEncodeError)."""
    client = make_app().test_client()
    response = _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "a party \\udfff tonight"}')
    assert response.status_code == 400 and response.get_json()["error"].startswith(
        "text: is not valid UTF-8 text (character 8: U+DFFF")
    # a NUL is refused the same way; bytes that are not UTF-8 are no JSON
    response = _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "a\\u0000b"}')
    assert response.status_code == 400 and response.get_json()["error"] == "text: must not contain NUL"
    response = _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "caf\xe9"}')
    assert response.status_code == 400 and response.get_json()["error"].startswith("body: not JSON")
    # a key is text too
    response = _post(client, "/api/player", b'{"name": "Ada", "\\ud800": 1}')
    assert response.status_code == 400 and "(a key)" in response.get_json()["error"]
    assert simulation.players == set()
    _goes_on_and_is_sound(runner, simulation)


def test_a_terminal_escape_in_a_whisper_or_a_line_is_a_400(make_app, runner, simulation):
    """As found: the whisper ``"hi\\u0007\\u001b[31mred"`` became Klaus's memory, and ``inspect``
    printed its ESC raw to the terminal. Each C0 and C1 control but tab and line breaks is refused,
    naming the first (BEL at character 2); nothing is queued or remembered."""
    client = make_app().test_client()
    before = len(simulation.personas["klaus_mueller"].stream.records())
    response = _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "hi\\u0007\\u001b[31mred"}')
    assert response.status_code == 400
    assert response.get_json()["error"] == ("text: holds a control character (character 2: U+0007); only tab and "
                                            "line breaks may be in a text")
    for code in (0x08, 0x1B, 0x7F, 0x85, 0x9B):
        body = ('{"text": "a \\u%04x b"}' % code).encode()
        response = _post(client, "/api/personas/klaus_mueller/whisper", body)
        assert response.status_code == 400 and f"(character 2: U+{code:04X})" in response.get_json()["error"], code
    runner.step(30)
    runner.call(lambda: _next_to_isabella(simulation))
    app = make_app()
    ada = {"X-Player-Secret": live(app).seats.seats["player-ada"].secret}
    client = app.test_client()
    say = SAY.replace(b"hello \\ud800 there", b"hello \\u001b]0;owned\\u0007")
    response = _post(client, "/api/player/say", say, ada)
    assert response.status_code == 400 and "(character 6: U+001B)" in response.get_json()["error"]
    assert len(simulation.conversations) == 0
    # tab and line breaks are still spaces in a typed text
    response = _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "the quiz\\tis\\r\\non Friday"}')
    assert response.status_code == 200, response.get_json()
    _goes_on_and_is_sound(runner, simulation)
    texts = [r.content for r in simulation.personas["klaus_mueller"].stream.records()[before:]]
    assert not any(c in t for t in texts for c in "\x07\x08\x1b\x7f\x85\x9b")


def test_a_lone_surrogate_over_socketio_is_refused(make_app, runner, simulation):
    """A control message holding a lone surrogate is acknowledged with the error, nothing moves."""
    client = socket_client(make_app())
    ack = client.emit("control", {"op": "step", "value": 1, "token": "x\ud800"}, callback=True)
    assert ack["ok"] is False and ack["error"].startswith("token: is not valid UTF-8 text (character 1: U+D800")
    assert received(client, "control_error")[0]["error"] == ack["error"]
    assert runner.status()["tick"] == 0
    client.disconnect()
    _goes_on_and_is_sound(runner, simulation)


def test_control_events_with_no_or_a_malformed_payload_are_answered(make_app, runner):
    """No payload raised TypeError in ``on_control`` and was never acknowledged; a list, a
    text, a number and two arguments are refused the same way."""
    client = socket_client(make_app())
    for args in ((), ([{"op": "step"}],), ("step",), (7,), ({"op": "step"}, "more")):
        ack = client.emit("control", *args, callback=True)
        assert ack == {"ok": False, "error": 'send one {"op": ..., "value": ...} object'}, args
    assert len(received(client, "control_error")) == 5
    assert runner.status()["tick"] == 0
    assert client.emit("control", {"op": "step"}, callback=True)["ok"] is True
    client.disconnect()


def test_a_body_nested_100000_deep_is_a_400(make_app, runner, simulation):
    """A whisper nested 100,000 deep gave a 500 (RecursionError); now 400 before it is parsed.
    A body over 1,000,000 bytes is refused unread (413)."""
    client = make_app().test_client()
    deep = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = _post(client, "/api/personas/klaus_mueller/whisper", deep)
    assert response.status_code == 400
    assert response.get_json()["error"] == 'body: nested more than 8 deep; send JSON {"text": ...}'
    for url in ("/api/control", "/api/player", "/api/player/say"):
        assert _post(client, url, b"[" * 100_000).status_code == 400
    # brackets inside a text are text, not nesting
    assert _post(client, "/api/personas/klaus_mueller/whisper", b'{"text": "[[[[[[[[[[[[ a list"}').status_code == 200
    huge = b'{"text": "' + b"x" * 1_000_000 + b'"}'
    assert _post(client, "/api/personas/klaus_mueller/whisper", huge).status_code == 413
    _goes_on_and_is_sound(runner, simulation)


def test_a_chunked_body_over_the_limit_is_a_413(make_app, runner):
    """A body sent chunked (no Content-Length, as the server reads it: ``wsgi.input_terminated``)
    is cut at 1,000,000 bytes, not refused: a 2 MB whisper was "body: not JSON (Unterminated
    string ...)", and one padded with spaces past the limit was taken. Both are 413 as with a length."""
    import io

    client = make_app().test_client()
    for body in (b'{"text": "' + b"x" * 2_000_000 + b'"}', b'{"text": "hello"}' + b" " * 2_000_000):
        response = client.post("/api/personas/klaus_mueller/whisper", input_stream=io.BytesIO(body),
                               content_type="application/json", headers={"Transfer-Encoding": "chunked"},
                               environ_overrides={"wsgi.input_terminated": True})
        assert (response.status_code, response.get_json()) == (
            413, {"error": "The data value transmitted exceeds the capacity limit."})
    small = client.post("/api/personas/klaus_mueller/whisper", input_stream=io.BytesIO(b'{"text": "hello"}'),
                        content_type="application/json", headers={"Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})
    assert small.status_code == 200
