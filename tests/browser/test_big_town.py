"""The live page on a generated town of 200 personas.

Every persona shown, frames as deltas, per-place crowd counts, and the residents search.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest
from test_crowds import check_view

import town.importance
import town.scripted.backend
from town.generator import generate_town
from town.recording.reader import RunReader
from town.scenario import load_scenario

pytestmark = pytest.mark.browser

PERSONAS = 200
FRAME_MESSAGE = re.compile(r'^42\d*\["frame",')  # a Socket.IO event (with an ack id)


@pytest.fixture(scope="module")
def big_town(tmp_path_factory):
    """A generated 200-persona town folder (seed 3)."""
    folder = tmp_path_factory.mktemp("big") / "twohundred"
    generate_town(PERSONAS, 3, folder)
    return folder


@pytest.fixture
def quick_rater(monkeypatch):
    """Every memory rates 3.

    The viewer never reads importance, and MiniLM rating 200 personas' first memories takes about
    a minute on a loaded 2-core machine (the engine's cost, measured by benchmarks/scale.py).
    """
    monkeypatch.setattr(town.scripted.backend, "rate", lambda content, kind: 3)
    monkeypatch.setattr(town.importance, "prepare", lambda contents: None)


def crowds_by_hand(frame: dict, sectors: dict[str, str], shown: int = 12) -> list[tuple[str, int]]:
    """The busiest sectors of a frame as (sector address, personas), by count then label."""
    counts = Counter(":".join(p["address"].split(":")[:2]) for p in frame["personas"].values()
                     if p["address"] and p["address"].count(":") >= 1)
    return sorted(counts.items(), key=lambda kv: (-kv[1], sectors.get(kv[0], kv[0])))[:shown]


def test_two_hundred_personas_live(big_town, quick_rater, live_town, page, artifacts):
    """Every persona is on the page as the run file's frame has it.

    After 10 s the frame messages average at most a quarter of a whole frame; crowd counts match
    the frame; the search box finds a persona by name and opens its panel.
    """
    received: list[tuple[float, int]] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: received.append((time.monotonic(), len(
            payload.encode() if isinstance(payload, str) else payload)))
            if FRAME_MESSAGE.match(payload if isinstance(payload, str) else "") else None)

    page.on("websocket", on_socket)
    town = live_town(big_town, speed=8)
    page.goto(town.url)
    page.wait_for_function("() => window.townFrames && window.townFrames.tick !== null", timeout=30000)
    start = received[0][0]
    page.wait_for_timeout(14000)
    full_bytes = received[0][1]  # the first frame on connect is whole
    later = [size for at, size in received if at - start >= 10]
    assert len(later) >= 8, f"only {len(later)} frames in the last 4 s at x8"
    assert sum(later) / len(later) <= 0.25 * full_bytes, (sum(later) / len(later), full_bytes)

    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    last = town.runner.status()["tick"] - 1
    page.wait_for_function(f"() => window.townFrames.tick === {last}")
    with RunReader(town.simulation.run_path) as reader:
        recorded = reader.frame(last)
    shown = page.evaluate("() => window.townFrames.personas")
    assert len(shown) == PERSONAS
    assert shown == recorded["personas"]  # the deltas rebuild the whole frame the run file holds
    page.wait_for_timeout(600)  # let the last movement finish and the map draw
    where = page.evaluate("() => window.townMap.where")
    assert {pid: (round(d["x"], 3), round(d["y"], 3)) for pid, d in where.items()} == {
        pid: (p["x"], p["y"]) for pid, p in recorded["personas"].items()}
    rows = page.eval_on_selector_all(
        ".persona-item", "bs => bs.map(b => [b.dataset.persona, Number(b.dataset.x), Number(b.dataset.y)])")
    assert {pid: (x, y) for pid, x, y in rows} == {pid: (p["x"], p["y"]) for pid, p in recorded["personas"].items()}

    scenario = load_scenario(big_town)
    sectors = {s["address"]: s["label"] for s in scenario.tilemap.to_dict()["sectors"]}
    crowds = page.eval_on_selector_all(
        "#crowds li.crowd", "ls => ls.map(l => [l.dataset.place, Number(l.dataset.count)])")
    assert [tuple(c) for c in crowds] == crowds_by_hand(recorded, sectors)
    assert crowds[0][1] >= 2

    people = {p.name: p.id for p in scenario.personas}
    name = sorted(people)[PERSONAS // 2]
    assert sum(1 for other in people if name.lower() in other.lower()) == 1
    page.fill("#persona-search", name.lower())
    visible = page.eval_on_selector_all(
        ".persona-list li:not([hidden]) .persona-item", "bs => bs.map(b => b.dataset.persona)")
    assert visible == [people[name]]
    page.press("#persona-search", "Enter")
    page.wait_for_function(f"() => document.querySelector('#persona-name')?.textContent === {json.dumps(name)}")
    page.screenshot(path=str(artifacts / "big-town.png"))

    # at three zoom levels on the busiest place no label boxes overlap, everyone in view is drawn
    # or counted; every building's whole name is laid out at 24 px a tile
    frame = recorded["personas"]
    check_view(page, frame)
    busiest = next(s["rect"] for s in scenario.tilemap.to_dict()["sectors"] if s["address"] == crowds[0][0])
    for zoom in (3, 8):
        page.evaluate(f"""() => {{ const c = window.townMap.camera; c.zoom = {zoom};
            c.cx = {busiest[0] + busiest[2] / 2}; c.cy = {busiest[1] + busiest[3] / 2}; c.settleCentre(); c.changed(); }}""")
        check_view(page, frame)
    page.screenshot(path=str(artifacts / "big-town-zoomed.png"))
    names = page.evaluate("""async () => (await import('/static/js/townscape.js'))
        .layoutLabels(window.townMap.map, 24).filter(b => b.kind === 'sector').map(b => b.text)""")
    assert sorted(names) == sorted(sectors.values())
    assert page.errors == []
