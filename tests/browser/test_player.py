"""Joining the town from the browser: the player walks up to Klaus and tells him about an event;
Klaus answers through the conversation code and his memory stream holds what he was told."""

from __future__ import annotations

import re
import time

import pytest
import requests

pytestmark = pytest.mark.browser

LINE = "There is a jazz night at The Rose and Crown Pub on Friday at 8 pm."


def _click_tile(page, x: int, y: int) -> None:
    """Click the middle of tile (x, y) on the map canvas."""
    box = page.eval_on_selector("#map", "c => { const r = c.getBoundingClientRect(); return {x: r.left, y: r.top}; }")
    s, ox, oy = page.evaluate("() => { const v = window.townMap.view(performance.now()); return [v.s, v.ox, v.oy]; }")
    page.mouse.click(box["x"] + ox + (x + 0.5) * s, box["y"] + oy + (y + 0.5) * s)


def test_the_player_tells_klaus_about_an_event_and_he_remembers_it(live_town, page, artifacts):
    town = live_town(speed=8, paused=True)
    sim = town.simulation
    town.runner.step(30)
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && Object.keys(window.townMap.where).length === 3")
    page.fill("#join-name", "Ada")
    page.click("#btn-join")
    page.wait_for_selector("#player-bar:not([hidden])")
    assert sim.players == {"player-ada"}
    me, klaus = sim.personas["player-ada"], sim.personas["klaus_mueller"]
    # an arrow key walks one tile
    page.wait_for_function("() => window.townMap.state['player-ada']")
    key, (dx, dy) = next((k, d) for k, d in (("ArrowRight", (1, 0)), ("ArrowLeft", (-1, 0)), ("ArrowDown", (0, 1)))
                         if sim.tilemap.walkable(me.x + d[0], me.y + d[1]))
    start = (me.x, me.y)
    page.locator("body").press(key)
    for _ in range(100):
        if me.path:
            break
        page.wait_for_timeout(50)
    town.runner.step(1)
    assert (me.x, me.y) == (start[0] + dx, start[1] + dy)
    for _ in range(4):  # walk up to Klaus (he may move on meanwhile)
        spot = next((x, y) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
                    if sim.tilemap.walkable(x := klaus.x + dx, y := klaus.y + dy))
        page.wait_for_timeout(300)
        _click_tile(page, *spot)
        for _ in range(200):
            if me.path or (me.x, me.y) == spot:
                break
            page.wait_for_timeout(50)
        town.runner.step(len(me.path) + 1)
        if max(abs(me.x - klaus.x), abs(me.y - klaus.y)) <= 2:
            break
    assert max(abs(me.x - klaus.x), abs(me.y - klaus.y)) <= 2
    page.wait_for_function("() => document.querySelector('#player-to').dataset.to === 'klaus_mueller'")
    assert page.text_content("#player-to") == "Say to Klaus Mueller:"
    page.fill("#player-line", LINE)
    page.press("#player-line", "Enter")
    page.wait_for_function("() => document.querySelector('#player-line').value === ''")
    town.runner.step(2)  # Klaus answers on the next line tick
    # written from the fact Klaus read (the realiser), stored absolute: the run starts Monday 13
    # February 2023, so "Friday" is the 17th; a start alone is said alone (no end made up)
    heard = "Ada told me that there is a jazz night at The Rose and Crown Pub on Friday, February 17 at 8pm."
    assert heard in [r.content for r in klaus.stream.records()]
    reply = page.wait_for_selector("#activity .act-chat >> text=Klaus Mueller → Ada")
    assert reply is not None
    # the run file (what the viewer's memory list reads) holds the memory too
    rows = requests.get(f"{town.url}/api/personas/klaus_mueller/memories", params={"q": "jazz night"},
                        timeout=10).json()["memories"]
    assert heard in [m["content"] for m in rows]
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "player.png"))
    assert page.errors == []


def _wait(pred, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def _step(town, ticks: int) -> None:
    target = town.runner.status()["tick"] + ticks
    town.runner.step(ticks)
    _wait(lambda: town.runner.status()["tick"] >= target)


def test_two_tabs_are_two_players_who_talk_to_isabella_in_turn_and_leave_with_their_tabs(live_town, browser):
    """Ada's tab and Bo's tab join as two players in their own colours (the second tab still
    has its Join box). Ada, next to Isabella, says who she is (Isabella may have greeted the
    newcomer first, without a name): Isabella answers her by name, in Ada's talk bar; Ada walks off, Bo says who he is and is answered by name. A wall tile clicked
    gets a note on the map and no console error. Each player leaves once its tab has been closed
    for the grace period (1 s here), the other staying."""
    town = live_town(speed=8, paused=True, PLAYER_GRACE_S=1.0)
    sim = town.simulation
    _step(town, 30)
    isabella = sim.personas["isabella_rodriguez"]
    tabs = {}
    for name, color in (("Ada", "#ee6c4d"), ("Bo", "#5fa8d3")):
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.console_errors = []
        page.on("console", lambda m, p=page: p.console_errors.append(m.text) if m.type == "error" else None)
        page.goto(town.url)
        page.wait_for_function("() => window.townMap && window.townMap.state.isabella_rodriguez")
        assert page.is_visible("#join")  # another tab's player takes nobody's Join box
        page.fill("#join-name", name)
        page.fill("#join-color", color)
        page.click("#btn-join")
        page.wait_for_selector("#player-bar:not([hidden])")
        assert page.text_content("#playing") == f"you are {name}"
        tabs[name] = (context, page)
    assert sim.players == {"player-ada", "player-bo"}
    _step(town, 1)
    ada_page, bo_page = tabs["Ada"][1], tabs["Bo"][1]
    bo_page.wait_for_function("() => window.townMap.who('player-ada').color === '#ee6c4d'")
    ada_page.wait_for_function("() => window.townMap.who('player-bo').color === '#5fa8d3'")

    def next_to_isabella(pid: str) -> None:
        me = sim.personas[pid]
        me.place(*next((isabella.x + dx, isabella.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if sim.tilemap.walkable(isabella.x + dx, isabella.y + dy)))

    answers = {}
    for name, line in (("Ada", "Hello Isabella, I'm Ada."), ("Bo", "Hi Isabella! I am Bo, new in town.")):
        pid, page = f"player-{name.lower()}", tabs[name][1]
        town.runner.call(lambda pid=pid: next_to_isabella(pid))
        _step(town, 1)
        page.wait_for_function("() => document.querySelector('#player-to').dataset.to === 'isabella_rodriguez'")
        page.fill("#player-line", line)
        page.press("#player-line", "Enter")
        page.wait_for_function("() => document.querySelector('#player-line').value === ''")
        _step(town, 2)  # she answers on the next line tick
        # she may have greeted the newcomer first: her answer is the line after the player's
        answer = page.wait_for_selector("#player-heard li.mine ~ li.theirs")
        answers[name] = answer.text_content()
        page.evaluate("() => document.activeElement.blur()")  # keys typed in the talk bar do not walk
        page.keyboard.press("ArrowUp" if sim.tilemap.walkable(sim.personas[pid].x, sim.personas[pid].y - 1) else "ArrowDown")
        _wait(lambda pid=pid: bool(sim.personas[pid].path))
        _step(town, 2)  # walking off ends the talk: Isabella is free for the next one
        assert isabella.conversation is None
    assert answers["Ada"].startswith("Isabella Rodriguez: Nice to meet you, Ada! ")
    assert answers["Bo"].startswith("Isabella Rodriguez: Nice to meet you, Bo! ")

    wall = next((x, y) for y in range(sim.tilemap.height) for x in range(sim.tilemap.width)
                if not sim.tilemap.walkable(x, y) and 5 < x < sim.tilemap.width - 5 and 5 < y < sim.tilemap.height - 5)
    _click_tile(bo_page, *wall)
    bo_page.wait_for_function("() => window.townMap.drawnLabels.some(b => b.kind === 'note' && b.text === \"You can't walk there\")")
    assert sim.personas["player-bo"].path == ()

    tabs["Ada"][0].close()
    _wait(lambda: "player-ada" not in sim.players)
    assert sim.players == {"player-bo"}
    _step(town, 1)
    bo_page.wait_for_function("() => !window.townMap.state['player-ada']")
    assert bo_page.console_errors == [] and bo_page.text_content("#playing") == "you are Bo"
    tabs["Bo"][0].close()
    _wait(lambda: sim.players == set())


def test_a_persona_who_speaks_first_to_the_player_is_heard_in_the_talk_bar(live_town, page):
    """When a persona opens a conversation with the player (the frames and CHAT events the engine
    publishes for any conversation: both in conversation 900, Isabella the speaker, the player
    the listener), the player's talk bar shows her line and addresses the answer to her, wherever
    the player stands; the speech bubble over her head is drawn."""
    from town.events import Event, EventKind
    from web import live

    town = live_town(speed=8, paused=True)
    sim = town.simulation
    _join_as_ada(town, page, "isabella_rodriguez")
    _step(town, 1)
    page.wait_for_function("() => window.townMap.state['player-ada']")
    assert page.get_attribute("#player-to", "data-to") != "isabella_rodriguez"

    line = "Hello Ada! Are you coming to the party at Hobbs Cafe tomorrow?"
    tick = town.runner.status()["tick"]
    frame = {pid: dict(p) for pid, p in sim.frame().items()}
    frame["isabella_rodriguez"].update(kind="talk", conversation=900, speech=line, target="player-ada")
    frame["player-ada"].update(kind="talk", conversation=900, target="isabella_rodriguez")
    relay = live(town.app).relay
    relay.handle(Event(kind=EventKind.FRAME, tick=tick, time=sim.clock.time_of(tick), data={"personas": frame}))
    relay.handle(Event(kind=EventKind.CHAT, tick=tick, time=sim.clock.time_of(tick), persona="isabella_rodriguez",
                       seq=10**6, data={"conversation": 900, "speaker": "isabella_rodriguez", "listener": "player-ada",
                                        "line": line, "shared": [], "retrieval": None}))
    heard = page.wait_for_selector("#player-heard li.theirs")
    assert heard.text_content() == f"Isabella Rodriguez: {line}"
    assert page.get_attribute("#player-to", "data-to") == "isabella_rodriguez"
    assert page.text_content("#player-to") == "Say to Isabella Rodriguez:"
    assert page.is_enabled("#player-line")
    page.wait_for_function("() => window.townMap.drawnLabels.some(b => b.kind === 'speech' && b.id === 'isabella_rodriguez')")
    assert page.errors == []


def _join_as_ada(town, page, drawn: str) -> None:
    """Step the paused town 30 ticks, open the page once persona ``drawn`` is on the map, and join as Ada."""
    _step(town, 30)
    page.goto(town.url)
    page.wait_for_function(f"() => window.townMap && window.townMap.state.{drawn}")
    page.fill("#join-name", "Ada")
    page.click("#btn-join")
    page.wait_for_selector("#player-bar:not([hidden])")


def _talking_with(town, page, persona: str, greeting: str) -> list:
    """Ada joins, stands next to ``persona`` and says ``greeting``; the persona answers and the
    talk waits for her. Returns the list the town's CHAT events go to from then on."""
    from town.events import EventKind

    sim = town.simulation
    _join_as_ada(town, page, persona)
    other = sim.personas[persona]
    chats: list = []
    sim.bus.subscribe(lambda e: chats.append(e) if e.kind is EventKind.CHAT else None)

    def next_to() -> None:
        sim.personas["player-ada"].place(*next((other.x + dx, other.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                               if sim.tilemap.walkable(other.x + dx, other.y + dy)))
    town.runner.call(next_to)
    _step(town, 3)  # one who greets the newcomer first has said so: then it is Ada's turn
    page.wait_for_function(f"() => document.querySelector('#player-to').dataset.to === '{persona}'")
    _say(town, page, chats, greeting)
    assert sim.personas["player-ada"].conversation is not None and other.conversation is not None
    return chats


def _say(town, page, chats: list, line: str, *, shown: bool = True):
    """Ada says ``line`` in the talk bar; returns the CHAT event of the answer (said on the next
    line tick), once her bar shows it (``shown``; an answer that ends the talk leaves the bar)."""
    said = len(chats)
    page.fill("#player-line", line)
    page.press("#player-line", "Enter")
    page.wait_for_function("() => document.querySelector('#player-line').value === ''")
    _step(town, 2)  # the answer comes on the next line tick

    def found():  # the persona's first line after hers
        mine = next((i for i, e in enumerate(chats) if i >= said and e.data["speaker"] == "player-ada"
                     and e.data["line"] == line), None)
        return None if mine is None else next((e for e in chats[mine:] if e.data["speaker"] != "player-ada"), None)
    _wait(lambda: found() is not None)
    answer = found()
    if shown:
        item = page.wait_for_selector(f"#player-heard li.theirs[data-seq='{answer.seq}']", state="attached")
        name = town.simulation.personas[answer.data["speaker"]].name
        assert item.text_content() == f"{name}: {answer.data['line']}"
    return answer


def _talking_with_klaus(town, page) -> None:
    """Ada joins, stands next to Klaus and greets him; he answers and the talk waits for her."""
    _talking_with(town, page, "klaus_mueller", "Hello Klaus, I'm Ada.")


def test_the_talk_bar_says_when_the_partner_leaves(live_town, page):
    """Ada greets Klaus and then says nothing: after his patience (20 game minutes, 120 ticks of
    10 s) he leaves the talk, and her bar says "Klaus Mueller left the conversation."; while they
    talk it says nothing of the kind."""
    town = live_town(speed=8, paused=True)
    _talking_with_klaus(town, page)
    assert page.is_hidden("#player-left")
    _step(town, 125)
    assert town.simulation.personas["player-ada"].conversation is None
    notice = page.wait_for_selector("#player-left:not([hidden])", timeout=10_000)
    assert notice.text_content() == "Klaus Mueller left the conversation."
    assert page.errors == []


def test_the_town_slows_while_the_player_talks_and_the_bar_turns_it_off(live_town, page):
    """Running at 64 ticks a wall second, the town goes at 1 tick a second while Ada talks with
    Klaus (at most 4 ticks in 1.5 s; unslowed it would be ~96), and the bar says "slowed while you
    talk"; unticking "slow the town while I talk" sends the runner's talk_pace control "off", and
    the town goes at full speed again (20 ticks within 5 s) with the note gone."""
    town = live_town(speed=8, paused=True)
    _talking_with_klaus(town, page)
    assert page.is_checked("#talk-pace")
    town.runner.set_speed(64)
    town.runner.resume()
    page.wait_for_selector("#talk-slowed:not([hidden])", timeout=10_000)
    assert page.text_content("#talk-slowed") == "slowed while you talk"
    start = town.runner.status()["tick"]
    time.sleep(1.5)
    assert town.runner.status()["tick"] - start <= 4
    assert town.simulation.personas["player-ada"].conversation is not None
    page.uncheck("#talk-pace")
    _wait(lambda: town.runner.status()["talk_pace"] is False)
    start = town.runner.status()["tick"]
    _wait(lambda: town.runner.status()["tick"] - start >= 20, timeout=5.0)
    page.wait_for_selector("#talk-slowed", state="hidden", timeout=10_000)
    town.runner.pause()
    assert page.errors == []


def test_the_players_goodbye_is_the_player_ending_the_talk_not_the_partner_leaving(live_town, page):
    """Ada greets Klaus, then says "Thanks, bye!": he says goodbye back and the talk is over, and
    her bar says she ended it ("You ended the conversation with Klaus Mueller."), never that he
    left; the run's CONVERSATION event names her as the one who ended it."""
    from town.events import EventKind

    town = live_town(speed=8, paused=True)
    ended: list = []
    town.simulation.bus.subscribe(lambda e: ended.append(e) if e.kind is EventKind.CONVERSATION else None)
    chats = _talking_with(town, page, "klaus_mueller", "Hello Klaus, I'm Ada.")
    goodbye = _say(town, page, chats, "Thanks, bye!", shown=False)
    assert town.simulation.personas["player-ada"].conversation is None
    assert [e.data.get("ended_by") for e in ended] == ["player-ada"]
    assert goodbye.data["conversation"] == ended[0].data["conversation"]
    notice = page.wait_for_selector("#player-left:not([hidden])", timeout=10_000)
    assert notice.text_content() == "You ended the conversation with Klaus Mueller."
    page.wait_for_timeout(500)  # nothing says otherwise afterwards
    assert page.text_content("#player-left") == "You ended the conversation with Klaus Mueller."
    assert page.errors == []


_SENTENCES = re.compile(r"^[A-Z][^…]*[.!?]$")


def test_a_player_asks_three_kinds_of_question_and_then_is_told_the_partner_left(live_town, page):
    """Ada, next to Isabella at 07:05 on Monday, asks three kinds of question in her talk bar and
    each answer, shown there, is whole sentences (a capital first, a stop last, nothing cut off
    with "…") of its kind, checked against the run's own records:

    - a greeting ("Hello Isabella, I'm Ada."): met in kind, by the name Ada gave;
    - recent news ("Have you heard any news?"): passes on memories of hers (the CHAT's
      ``shared`` ids), and says them: most words of each memory shared are in the answer;
    - how she is ("How are you?"): the first sentence says how she is.

    Each answer is shown in the bar as said (``_say``).

    Ada then says nothing: after Isabella's patience (20 game minutes) she leaves, and the bar
    says "Isabella Rodriguez left the conversation."."""
    town = live_town(speed=8, paused=True)
    isabella = town.simulation.personas["isabella_rodriguez"]
    chats = _talking_with(town, page, "isabella_rodriguez", "Hello Isabella, I'm Ada.")
    hello = next(i for i, e in enumerate(chats) if e.data["line"] == "Hello Isabella, I'm Ada.")
    greeting = next(e for e in chats[hello:] if e.data["speaker"] == isabella.id)
    news = _say(town, page, chats, "Have you heard any news?")
    how = _say(town, page, chats, "How are you?")
    for answer in (greeting, news, how):
        line = answer.data["line"]
        assert _SENTENCES.match(line), line
    assert greeting.data["line"].startswith("Nice to meet you, Ada!")
    shared = news.data["shared"]
    assert shared
    memories = {r.id: r.content for r in isabella.stream.records()}
    words = lambda text: {w.lower() for w in re.findall(r"[A-Za-z']{4,}", text)}  # noqa: E731
    for mid in shared:
        told = words(memories[mid])
        assert len(told & words(news.data["line"])) >= len(told) / 2, (memories[mid], news.data["line"])
    first = re.split(r"(?<=[.!?])\s", how.data["line"])[0].lower()
    assert re.search(r"\b(?:well|good|fine|great|complain|okay|busy|tired|not bad)\b", first), how.data["line"]

    assert page.is_hidden("#player-left")
    _step(town, 125)
    assert isabella.conversation is None
    notice = page.wait_for_selector("#player-left:not([hidden])", timeout=10_000)
    assert notice.text_content() == "Isabella Rodriguez left the conversation."
    assert page.errors == []
