"""Moving the map's view in headless chromium: the wheel and a pinch zoom around the cursor or the
fingers, a drag pans by the pointer's movement, keys and buttons zoom, pan and fit, and a drag
leaves a follow.

Expected views are worked out from the view before each gesture: a wheel of deltaY = -300 px
doubles the scale (web/static/js/view.js: WHEEL_OCTAVE), keeping the tile under the cursor under
it; a drag by (dx, dy) moves the map's corner by (dx, dy).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

VIEW = "() => { const v = window.townMap.view(); return [v.s, v.ox, v.oy]; }"


def _canvas(page) -> dict:
    return page.eval_on_selector("#map", "c => { const r = c.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; }")


def _clamped(offset: float, size: float, room: float, pad: float = 14) -> float:
    """Where the view keeps a map corner: a map smaller than the canvas centred, a larger one at
    most ``pad`` px beyond either edge (web/static/js/view.js, clampOffset)."""
    if size + 2 * pad <= room:
        return (room - size) / 2
    return min(pad, max(room - size - pad, offset))


def test_wheel_zooms_around_the_cursor_and_a_drag_pans_by_its_movement(live_town, page):
    town = live_town(speed=8, paused=True)
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0")
    box = _canvas(page)
    s0, ox0, oy0 = page.evaluate(VIEW)
    assert s0 == pytest.approx(page.evaluate("() => window.townMap.fit"))
    # off centre across; down the middle, where a town still lower than the canvas stays centred
    mx, my = round(box["x"] + box["w"] * 0.4), round(box["y"] + box["h"] * 0.5)  # events carry whole px
    tile = ((mx - box["x"] - ox0) / s0, (my - box["y"] - oy0) / s0)
    page.mouse.move(mx, my)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"() => window.townMap.view().s > {s0 * 1.5}")
    s1, ox1, oy1 = page.evaluate(VIEW)
    assert s1 == pytest.approx(2 * s0)
    # the tile under the cursor stays under it
    assert (mx - box["x"] - ox1) / s1 == pytest.approx(tile[0], abs=1e-6)
    assert (my - box["y"] - oy1) / s1 == pytest.approx(tile[1], abs=1e-6)
    page.wait_for_timeout(400)  # the view settles: the town is drawn again at the new scale
    assert page.evaluate("() => window.townMap.last.s") == pytest.approx(s1)

    # a drag by (-120, -80) moves the map by that much; the click that ends it picks nothing
    page.mouse.move(mx, my)
    page.mouse.down()
    for i in range(1, 7):
        page.mouse.move(mx - 20 * i, my - 80 * i / 6)
    page.mouse.up()
    s2, ox2, oy2 = page.evaluate(VIEW)
    assert (s2, ox2, oy2) == pytest.approx((s1, ox1 - 120, oy1 - 80))
    assert page.evaluate("() => window.townMap.selected") == ""
    assert page.locator("#persona-panel").is_hidden()

    # keys: + zooms by 1.25 around the centre, 0 fits the whole town again
    page.locator("body").press("+")
    assert page.evaluate(VIEW)[0] == pytest.approx(s1 * 1.25)
    page.locator("body").press("0")
    assert page.evaluate(VIEW) == pytest.approx([s0, ox0, oy0])
    page.click("#zoom-in")
    assert page.evaluate(VIEW)[0] == pytest.approx(s0 * 1.25)
    page.click("#zoom-fit")
    assert page.evaluate(VIEW) == pytest.approx([s0, ox0, oy0])
    assert page.errors == []


def test_a_drag_leaves_a_follow(live_town, page):
    """Following zooms in on the persona; a drag keeps the view where the drag leaves it and sets
    Follow back to the whole town."""
    town = live_town(speed=8, paused=True)
    town.runner.step(1)  # a frame to show
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && window.townMap.state.klaus_mueller")
    s0 = page.evaluate(VIEW)[0]
    page.select_option("#follow", "klaus_mueller")
    page.wait_for_function(f"() => window.townMap.view().s > {s0 * 2}")
    s1, ox1, oy1 = page.evaluate(VIEW)
    box = _canvas(page)
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 30, cy + 10)
    page.mouse.move(cx + 60, cy + 20)
    page.mouse.up()
    assert page.eval_on_selector("#follow", "s => s.value") == ""
    assert page.evaluate("() => window.townMap.follow") == ""
    w, h = page.evaluate("() => [window.townMap.map.width, window.townMap.map.height]")
    assert page.evaluate(VIEW) == pytest.approx([s1, _clamped(ox1 + 60, w * s1, box["w"]),
                                                 _clamped(oy1 + 20, h * s1, box["h"])])
    assert page.errors == []


def test_a_pinch_zooms_around_the_fingers_and_keys_pan_by_a_quarter(live_town, browser):
    """Two fingers 100 px apart move apart to 200 px while their midpoint moves 40 px down (touch
    events, each finger's move its own pointer event): the scale doubles and the tile under the
    fingers' first midpoint is under their last one. Then W and A pan the map down and right by
    a quarter of the view, and - zooms out by 1.25."""
    town = live_town(speed=8, paused=True)
    context = browser.new_context(viewport={"width": 1440, "height": 900}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0")
    box = _canvas(page)
    s0, ox0, oy0 = page.evaluate(VIEW)
    cx, cy = round(box["x"] + box["w"] / 2), round(box["y"] + box["h"] / 2)
    tile = ((cx - box["x"] - ox0) / s0, (cy - box["y"] - oy0) / s0)
    cdp = context.new_cdp_session(page)

    def touch(kind: str, spread: float, down: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": cx - spread / 2, "y": cy + down, "id": 0},
                                                 {"x": cx + spread / 2, "y": cy + down, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 100, 0)
    for i in range(1, 5):
        touch("touchMove", 100 + 25 * i, 10 * i)
    touch("touchEnd", 0, 0)
    s1, ox1, oy1 = page.evaluate(VIEW)
    assert s1 == pytest.approx(2 * s0)
    assert (cx - box["x"] - ox1) / s1 == pytest.approx(tile[0], abs=1e-6)
    assert (cy + 40 - box["y"] - oy1) / s1 == pytest.approx(tile[1], abs=1e-6)

    page.locator("body").press("w")
    page.locator("body").press("a")
    w, h = page.evaluate("() => [window.townMap.cssW, window.townMap.cssH]")
    assert page.evaluate(VIEW) == pytest.approx([s1, ox1 + w / 4, oy1 + h / 4])
    page.locator("body").press("-")
    assert page.evaluate(VIEW)[0] == pytest.approx(s1 / 1.25)
    assert errors == []
    context.close()
