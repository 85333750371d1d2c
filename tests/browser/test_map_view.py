"""Moving the map's view in headless chromium: the wheel zooms around the cursor, a drag pans by
the pointer's movement, keys and buttons zoom and fit, and a drag leaves a follow.

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
