"""Crowds on the map in headless chromium: at the party all of Smallville stands in Hobbs Cafe,
half of them saying long lines. At three zoom levels no two label boxes the page drew overlap
(building and room names, crowd badges, action labels, speech bubbles), and every persona in view
is drawn or counted in exactly one badge. A badge lists the conversations of its place.

The party frame is made here (everyone on the cafe's tiles, the first 24 in twelve pairs, each
pair one conversation) and handed to the viewer's relay, so the test needs no 36-hour run; which
personas are in view is worked out from that frame and the view the page reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from town.events import Event, EventKind
from web import live

pytestmark = pytest.mark.browser

PERSONAS = Path(__file__).resolve().parents[2] / "personas"
SMALLVILLE, TILED = PERSONAS / "smallville", PERSONAS / "tiled_example"
LINE = "Isabella told me that she is planning a Valentine's Day party at Hobbs Cafe tomorrow from 5pm to 7pm."


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of boxes whose interiors intersect (a brute-force check of the page's own boxes)."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if (a["x"] < b["x"] + b["w"] - 0.01 and b["x"] < a["x"] + a["w"] - 0.01
                    and a["y"] < b["y"] + b["h"] - 0.01 and b["y"] < a["y"] + a["h"] - 0.01):
                pairs.append((f"{a['kind']}:{a['text']}", f"{b['kind']}:{b['text']}"))
    return pairs


def drawn_or_counted(page, frame: dict) -> tuple[set, list]:
    """(the personas in view by hand, every persona the page drew or counted, with repeats)."""
    s, ox, oy, w, h = page.evaluate("() => { const v = window.townMap.view(), m = window.townMap; "
                                    "return [v.s, v.ox, v.oy, m.cssW, m.cssH]; }")
    in_view = {pid for pid, p in frame.items()
               if 0 <= ox + (p["x"] + 0.5) * s <= w and 0 <= oy + (p["y"] + 0.5) * s <= h}
    shown = page.evaluate("() => [...window.townMap.drawnIds, ...window.townMap.drawnLabels"
                          ".filter(b => b.kind === 'crowd').flatMap(b => b.ids)]")
    return in_view, shown


def check_view(page, frame: dict) -> dict:
    """No overlapping labels; everyone in view drawn or counted once. Returns the label kinds drawn."""
    page.wait_for_timeout(450)  # the view settles and is drawn at its scale
    boxes = page.evaluate("() => window.townMap.drawnLabels")
    assert overlapping(boxes) == []
    in_view, shown = drawn_or_counted(page, frame)
    assert len(shown) == len(set(shown)), "someone drawn and counted, or counted twice"
    assert in_view <= set(shown)
    kinds: dict[str, int] = {}
    for b in boxes:
        kinds[b["kind"]] = kinds.get(b["kind"], 0) + 1
    return kinds


def party_frame(sim) -> dict:
    """Every persona on its own tile of Hobbs Cafe's cafe room, in twelve talking pairs and one alone."""
    tiles = sorted(sim.tilemap.tiles("smallville:Hobbs Cafe:cafe"), key=lambda t: (t[1], t[0]))
    frame = {}
    for i, pid in enumerate(sorted(sim.personas)):
        x, y = tiles[(i * 3) % len(tiles)]
        talking = i < 24
        frame[pid] = {"x": x, "y": y, "address": sim.tilemap.address_at(x, y), "action": "at the party",
                      "emoji": "🎉", "kind": "talk" if talking else "do", "target": None,
                      "speech": LINE if talking and i % 2 == 0 else None,
                      "conversation": 100 + i // 2 if talking else None}
    return frame


def test_the_party_at_three_zoom_levels(live_town, page, artifacts):
    town = live_town(SMALLVILLE, speed=8, paused=True)
    sim = town.simulation
    frame = party_frame(sim)
    relay = live(town.app).relay
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0")
    relay.handle(Event(kind=EventKind.FRAME, tick=1, time=sim.clock.time_of(1), data={"personas": frame}))
    page.wait_for_function("() => window.townFrames.tick === 1")
    cafe = next(s["rect"] for s in sim.tilemap.to_dict()["sectors"] if s["name"] == "Hobbs Cafe")
    kinds = check_view(page, frame)  # the whole town
    assert kinds.get("crowd", 0) >= 1 and kinds.get("speech", 0) >= 1 and kinds.get("sector", 0) >= 10
    page.screenshot(path=str(artifacts / "party-fit.png"))
    for zoom in (2.5, 6):  # closer and closer on the cafe
        page.evaluate(f"""() => {{ const c = window.townMap.camera; c.zoom = {zoom};
            c.cx = {cafe[0] + cafe[2] / 2}; c.cy = {cafe[1] + cafe[3] / 2}; c.settleCentre(); c.changed(); }}""")
        kinds = check_view(page, frame)
        assert kinds.get("speech", 0) >= 2
        page.screenshot(path=str(artifacts / f"party-{zoom}.png"))
    # at the whole-town view a badge lists its place's conversations: twelve pairs in the cafe
    page.click("#zoom-fit")
    page.wait_for_timeout(450)
    badge = page.evaluate("() => window.townMap.drawnLabels.find(b => b.kind === 'crowd')")
    box = page.eval_on_selector("#map", "c => { const r = c.getBoundingClientRect(); return [r.left, r.top]; }")
    page.mouse.click(box[0] + badge["x"] + badge["w"] / 2, box[1] + badge["y"] + badge["h"] / 2)
    page.wait_for_selector("#crowd-pop:not([hidden])")
    talks = page.eval_on_selector_all("#crowd-pop .crowd-talks button", "bs => bs.map(b => Number(b.dataset.conversation))")
    assert sorted(talks) == list(range(100, 112))
    people = page.eval_on_selector_all("#crowd-pop .crowd-people button", "bs => bs.map(b => b.dataset.persona)")
    assert sorted(people) == sorted(frame)
    assert page.errors == []


def test_the_tiled_towns_names_show_beside_its_people(live_town, page):
    """Every building's name of the Tiled town is drawn while its two people are labelled
    (selected and hovered), which once dropped the Bakery's."""
    town = live_town(TILED, speed=8, paused=True)
    town.runner.step(5)
    page.goto(town.url)
    page.wait_for_function("() => window.townMap && Object.keys(window.townMap.where).length === 2")
    page.evaluate("() => { const m = window.townMap; m.setSelected('ada_brandt'); m.setHovered('ben_brandt'); }")
    page.wait_for_timeout(300)
    boxes = page.evaluate("() => window.townMap.drawnLabels")
    assert sorted(b["text"] for b in boxes if b["kind"] == "sector") == ["Bakery", "Cottage", "The Green"]
    assert sum(b["kind"] == "action" for b in boxes) == 2 and overlapping(boxes) == []
