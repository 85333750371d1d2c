"""The live map of a Tiled town in headless chromium: every wall tile is drawn, no tree grows
inside a building, and marker initials ignore parentheses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "personas" / "tiled_example"
PAD = 14  # px the map keeps free around the whole-town view (web/static/js/map.js)


def rgb(hex_color: str) -> tuple[int, int, int]:
    """'#rrggbb' -> (r, g, b)."""
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def darker(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """A building's wall colour: each channel 30% towards black, rounded half up (as JS does)."""
    return tuple(int(c * 0.7 + 0.5) for c in color)


def close(a, b, tolerance=6) -> bool:
    """Colours equal up to antialiasing."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_tiled_walls_are_drawn_and_buildings_have_no_trees(live_town, page, artifacts):
    """Sampled at tile centres on the canvas: the Bakery's walls are its colour darkened, the
    fence on open ground is the neutral wall colour, and no Bakery floor tile shows a tree."""
    raw = json.loads((EXAMPLE / "map.tmj").read_text())
    width, height = raw["width"], raw["height"]
    town = live_town(EXAMPLE, paused=True)
    page.goto(town.url)
    page.wait_for_selector("#map")
    page.wait_for_timeout(1000)
    box = page.eval_on_selector("#map", "c => [c.clientWidth, c.clientHeight, c.width / c.clientWidth]")
    css_w, css_h, dpr = box
    s = max(4, min((css_w - 2 * PAD) / width, (css_h - 2 * PAD) / height))
    ox, oy = (css_w - width * s) / 2, (css_h - height * s) / 2

    def pixel(x, y):
        px, py = int((ox + (x + 0.5) * s) * dpr), int((oy + (y + 0.5) * s) * dpr)
        return tuple(page.eval_on_selector(
            "#map", f"c => Array.from(c.getContext('2d').getImageData({px}, {py}, 1, 1).data)")[:3])

    bakery = darker((0xe3, 0xc7, 0x9b))  # the Bakery sector's color property
    for tile in [(1, 7), (12, 3), (2, 9), (10, 9), (10, 5), (6, 5)]:  # outer and inner walls
        assert close(pixel(*tile), bakery), (tile, pixel(*tile), bakery)
    for x in range(24, 31):  # the garden fence, outside every sector
        assert close(pixel(x, 11), rgb("#6f675c")), (x, pixel(x, 11))
    leaf = (0x7d, 0xbb, 0x62)  # a tree's highlight covers its tile's centre
    floor = [(x, y) for x in range(2, 12) for y in (2, 3, 4, 6, 7, 8)]
    assert not [t for t in floor if close(pixel(*t), leaf, 30)]
    page.screenshot(path=str(artifacts / "tiled-example.png"))
    assert page.errors == []


def test_marker_initials_ignore_parentheses(live_town, page):
    """The map's initials helper, as the page loads it, skips bracketed words and punctuation."""
    names = {"Isabella Rodriguez": "IR", "Isabella Rodriguez (owner)": "IR", "(Dr.) Klaus Mueller": "KM",
             "Maria [Mia] Lopez": "ML", "Ada": "AD", "Ben Brandt (the gardener)": "BB"}
    town = live_town(EXAMPLE, paused=True)
    page.goto(town.url)
    got = page.evaluate("async (names) => { const dom = await import('/static/js/dom.js');"
                        " return names.map((n) => dom.initials(n)); }", list(names))
    assert got == list(names.values())


def test_map_badges_are_unique_in_smallville(live_town, page):
    """Smallville's 25 names share initials in three pairs (ML, RP, JM); the map's badges tell
    each pair apart (worked out by hand from the rule in ``uniqueInitials``) and no two badges
    in the town are the same. Before, two "ML" and two "RP" walked in one room."""
    import yaml

    folder = EXAMPLE.parent / "smallville"
    personas = [{"id": f.stem, "name": yaml.safe_load(f.read_text())["name"]}
                for f in sorted(folder.glob("*.yaml")) if f.stem not in ("town", "map", "events", "probes")]
    assert len(personas) == 25
    town = live_town(EXAMPLE, paused=True)
    page.goto(town.url)
    got = page.evaluate("async (ps) => { const dom = await import('/static/js/dom.js');"
                        " return Object.fromEntries(dom.uniqueInitials(ps)); }", personas)
    assert {pid: got[pid] for pid in ("maria_lopez", "mei_lin", "rajiv_patel", "ryan_park", "jane_moreno",
                                      "jennifer_moore", "klaus_mueller")} == {
        "maria_lopez": "MLo", "mei_lin": "MLi", "rajiv_patel": "RaP", "ryan_park": "RyP",
        "jane_moreno": "JaM", "jennifer_moore": "JeM", "klaus_mueller": "KM"}
    assert len(set(got.values())) == 25
    twins = [{"id": "a", "name": "Ann Lee"}, {"id": "b", "name": "Ann Lee"}, {"id": "c", "name": "Bo"}]
    assert page.evaluate("async (ps) => { const dom = await import('/static/js/dom.js');"
                         " return Object.fromEntries(dom.uniqueInitials(ps)); }", twins) == {
        "a": "AL1", "b": "AL2", "c": "BO"}
