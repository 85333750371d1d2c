"""The live map in headless chromium: personas glide between tiles, and no drawn label overlaps
another (town names, action labels, speech bubbles) on the_ville and Smallville at 1400x900."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

PERSONAS = Path(__file__).resolve().parents[2] / "personas"
THE_VILLE, SMALLVILLE = PERSONAS / "the_ville", PERSONAS / "smallville"


def _overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of boxes whose interiors intersect (a brute-force check of the page's own boxes)."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if (a["x"] < b["x"] + b["w"] - 0.01 and b["x"] < a["x"] + a["w"] - 0.01
                    and a["y"] < b["y"] + b["h"] - 0.01 and b["y"] < a["y"] + a["h"] - 0.01):
                pairs.append((f"{a['kind']}:{a['text']}", f"{b['kind']}:{b['text']}"))
    return pairs


def test_a_walking_persona_is_drawn_between_two_tiles(live_town, page):
    """Step one tick: while the page animates, a walker is drawn strictly between its two tiles."""
    town = live_town(speed=1, paused=True)
    page.goto(town.url)
    page.wait_for_function("() => window.townMap")
    frame = None
    for _ in range(120):  # until someone is on the way
        town.runner.step(1)
        frame = town.simulation.frame()
        if any(p["kind"] == "walk" and town.simulation.personas[pid].path for pid, p in frame.items()):
            break
    walker = next(pid for pid, p in frame.items() if p["kind"] == "walk" and town.simulation.personas[pid].path)
    page.wait_for_function(f"() => Number(document.querySelector('#clock').dataset.tick) === {town.simulation.clock.tick - 1}")
    page.wait_for_timeout(1200)  # the glide (1 tick/s: up to 400 ms) is over
    before = (frame[walker]["x"], frame[walker]["y"])
    # record every drawing of the walker from now on, then step once
    page.evaluate(f"""() => {{
        window.trail = [];
        const map = window.townMap, draw = map.draw.bind(map);
        map.draw = () => {{ draw(); window.trail.push({{...map.where[{walker!r}]}}); }};
    }}""")
    town.runner.step(1)
    after = (town.simulation.frame()[walker]["x"], town.simulation.frame()[walker]["y"])
    assert after != before
    page.wait_for_timeout(1000)
    trail = page.evaluate("() => window.trail")
    assert trail[-1] == {"x": after[0], "y": after[1]}
    between = [t for t in trail
               if min(before[0], after[0]) <= t["x"] <= max(before[0], after[0])
               and min(before[1], after[1]) <= t["y"] <= max(before[1], after[1])
               and (t["x"], t["y"]) not in (before, after)]
    assert between, trail
    assert page.errors == []


@pytest.mark.parametrize("folder", [THE_VILLE, SMALLVILLE], ids=["the_ville", "smallville"])
def test_no_two_drawn_labels_overlap_at_1400x900(live_town, browser, artifacts, folder):
    """Whole town, then following a persona: the label boxes the page drew never intersect."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    town = live_town(folder, speed=None)
    page.goto(town.url)
    # run until people talk (bubbles and speaking labels are on the map), then freeze
    page.wait_for_function("() => window.townMap && window.townMap.drawnLabels.some(b => b.kind === 'speech')",
                           timeout=90_000)
    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    page.wait_for_timeout(300)
    boxes = page.evaluate("() => window.townMap.drawnLabels")
    kinds = {b["kind"] for b in boxes}
    assert {"sector", "room", "speech", "action"} <= kinds, kinds
    assert _overlapping(boxes) == []
    page.screenshot(path=str(artifacts / f"labels-{folder.name}.png"))
    speaker = next(b["id"] for b in boxes if b["kind"] == "speech")
    page.select_option("#follow", speaker)
    # the next drawing labels the followed persona's action (a fixed wait was too short under load)
    page.wait_for_function(
        "id => window.townMap.drawnLabels.some(b => b.kind === 'action' && b.id === id)", arg=speaker, timeout=15_000)
    boxes = page.evaluate("() => window.townMap.drawnLabels")
    assert _overlapping(boxes) == []
    page.screenshot(path=str(artifacts / f"labels-{folder.name}-follow.png"))
    assert errors == []
    context.close()


def test_repainting_only_what_changed_paints_what_a_whole_repaint_does(live_town, page):
    """Smallville's party, zoomed in on Hobbs Cafe: frames in which bubbles come and go, people
    step aside and someone is hovered are each drawn by repainting only the boxes that changed.
    The canvas they leave is then what a repaint of the whole view paints (the reference): no
    label, bubble tail or walker leaves a trace where it was, and none is cut off. Pixels may
    differ by antialiasing alone (at most 48 over the three channels, against 150 and more for
    an outline or a tail left behind)."""
    from test_crowds import party_frame

    from town.events import Event, EventKind
    from web import live

    town = live_town(SMALLVILLE, speed=8, paused=True)
    sim = town.simulation
    relay = live(town.app).relay
    frame = party_frame(sim)

    def send(tick: int) -> None:
        relay.handle(Event(kind=EventKind.FRAME, tick=tick, time=sim.clock.time_of(tick), data={"personas": frame}))
        page.wait_for_function(f"() => window.townFrames.tick === {tick}")
        page.wait_for_timeout(250)  # the glide (125 ms at x8) ends

    page.goto(town.url)
    page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0")
    send(1)
    cafe = next(s["rect"] for s in sim.tilemap.to_dict()["sectors"] if s["name"] == "Hobbs Cafe")
    page.evaluate(f"""() => {{ const c = window.townMap.camera; c.zoom = 2.5;
        c.cx = {cafe[0] + cafe[2] / 2}; c.cy = {cafe[1] + cafe[3] / 2}; c.settleCentre(); c.changed(); }}""")
    page.wait_for_timeout(500)  # the view settles and is drawn whole at its scale
    counts = "() => [window.townMap.stats.draws - window.townMap.stats.partial, window.townMap.stats.partial]"
    whole, partial = page.evaluate(counts)
    free = set(sim.tilemap.tiles("smallville:Hobbs Cafe:cafe")) - {(p["x"], p["y"]) for p in frame.values()}
    ids = sorted(frame)
    for k in range(2, 8):  # two people stop or start talking, one steps to a free tile, one is hovered
        for pid in (ids[(2 * k) % 24], ids[(2 * k + 5) % 24]):
            frame[pid]["speech"] = None if frame[pid]["speech"] else f"Line {k}: see you at the party tonight!"
        mover = frame[ids[(3 * k) % len(ids)]]
        step = min(free, key=lambda t: abs(t[0] - mover["x"]) + abs(t[1] - mover["y"]))
        free = (free - {step}) | {(mover["x"], mover["y"])}
        mover["x"], mover["y"] = step
        page.evaluate(f"() => window.townMap.setHovered({ids[k]!r})")
        send(k)
    now_whole, now_partial = page.evaluate(counts)
    assert now_whole == whole and now_partial > partial + 6  # every drawing since was partial
    traces = page.evaluate("""() => {
        const m = window.townMap, c = m.canvas, ctx = c.getContext('2d');
        m.draw();  // nothing changed: nothing repainted
        const partial = ctx.getImageData(0, 0, c.width, c.height).data;
        m.last = null; m.draw();  // the whole view
        const full = ctx.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < full.length; i += 4) {
          const d = Math.abs(full[i] - partial[i]) + Math.abs(full[i + 1] - partial[i + 1]) + Math.abs(full[i + 2] - partial[i + 2]);
          if (d > 48) n++;
        }
        return n; }""")
    assert traces == 0
    assert page.errors == []
