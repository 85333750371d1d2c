"""Joining the town from the browser: the player walks up to Klaus and tells him about an event;
Klaus answers through the conversation code and his memory stream holds what he was told."""

from __future__ import annotations

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
    assert sim.players == {"player_ada"}
    me, klaus = sim.personas["player_ada"], sim.personas["klaus_mueller"]
    # an arrow key walks one tile
    page.wait_for_function("() => window.townMap.state.player_ada")
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
    # stored absolute: the run starts Monday 13 February 2023, so "Friday" is the 17th
    heard = "Ada told me that there is a jazz night at The Rose and Crown Pub on Friday, February 17 at 8 pm."
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
