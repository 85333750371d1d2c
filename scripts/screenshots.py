"""Make the README's screenshots of the live viewer (Debian chromium through Playwright).

    .venv/bin/python scripts/screenshots.py [--out docs]

Writes ``screenshot-live.png`` (Smallville live, people talking), ``screenshot-follow.png`` (one
persona followed, its panel open), ``screenshot-player.png`` (a player talking with a persona),
``screenshot-conversation.png`` (a conversation's transcript) and ``screenshot-generated.png`` (a
generated town of 60, seed 1, the whole of it) at 1400x900. The towns run in this process on free
loopback ports, recorded to temporary run files; nothing else is written.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from town.config import load_config  # noqa: E402
from town.scenario import load_scenario  # noqa: E402
from town.simulation import Simulation  # noqa: E402
from town.simulation.inputs import Move  # noqa: E402
from web.server import LiveSession  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
#: What the player says in the third screenshot.
LINE = "Hello! I am new in town. Is there anything happening at Hobbs Cafe this week?"


def _talking(page) -> list[str]:
    return page.evaluate("() => window.townMap.drawnLabels.filter(b => b.kind === 'speech').map(b => b.id)")


def _settle(page, town, ticks: int) -> None:
    """Run ``ticks`` more ticks at x8 in the page, then pause and let the glide end."""
    tick = town.runner.status()["tick"]
    page.click("#btn-pause")  # resume
    page.wait_for_function(f"() => Number(document.querySelector('#clock').dataset.tick) >= {tick + ticks}",
                           timeout=120_000)
    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    page.wait_for_timeout(600)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs"), help="folder for the PNGs (default docs/)")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        sim = Simulation(load_scenario(ROOT / "personas" / "smallville"), load_config(None, {}),
                         run_path=Path(tmp) / "screens.sqlite")
        town = LiveSession(sim, port=0, speed=8, paused=True).start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            town.runner.step(30)
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            page.goto(town.url)
            page.wait_for_function("() => window.townMap && Object.keys(window.townMap.where).length > 0")
            for _ in range(120):  # until a few people talk
                _settle(page, town, 4)
                if len(_talking(page)) >= 2:
                    break
            page.screenshot(path=str(out / "screenshot-live.png"))
            followed = _talking(page)[0]
            page.select_option("#follow", followed)
            page.wait_for_selector("#persona-name")
            page.wait_for_timeout(800)
            page.screenshot(path=str(out / "screenshot-follow.png"))
            page.select_option("#follow", "")
            page.click("#persona-close")
            page.fill("#join-name", "Ada")
            page.click("#btn-join")
            page.wait_for_selector("#player-bar:not([hidden])")
            while not sim.players:  # the join is an input, applied between two ticks
                time.sleep(0.05)
            pid = next(iter(sim.players))
            me = sim.personas[pid]
            other = next(p for q, p in sorted(sim.personas.items())  # awake, free, not in a bathroom
                         if q != pid and p.conversation is None and not p.asleep and not p.path
                         and "bath" not in (sim.tilemap.address_at(p.x, p.y) or ""))
            spot = next((other.x + dx, other.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1))
                        if sim.tilemap.walkable(other.x + dx, other.y + dy))
            town.runner.call(lambda: sim.act(Move(player=pid, x=spot[0], y=spot[1])))
            town.runner.step(len(me.path) + 1)
            page.select_option("#follow", other.spec.id)
            page.click("#persona-close")
            page.wait_for_function(f"() => document.querySelector('#player-to').dataset.to === {other.spec.id!r}")
            page.fill("#player-line", LINE)
            page.press("#player-line", "Enter")
            page.wait_for_function("() => document.querySelector('#player-line').value === ''")
            town.runner.step(1)  # the persona answers on this tick
            page.wait_for_timeout(800)
            page.screenshot(path=str(out / "screenshot-player.png"))
            _conversation(page, town)
            page.screenshot(path=str(out / "screenshot-conversation.png"))
        finally:
            browser.close()
            town.close()
            sim.close()
        _generated(pw, Path(tmp), out / "screenshot-generated.png")
    for name in NAMES:
        print(out / name)
    return 0


NAMES = ("screenshot-live.png", "screenshot-follow.png", "screenshot-player.png", "screenshot-conversation.png",
         "screenshot-generated.png")


def _conversation(page, town) -> None:
    """Run on until a conversation of four lines or more has ended, and open its transcript."""
    from town.recording import RunReader

    for _ in range(60):
        with RunReader(town.simulation.run_path) as reader:
            ended = {e.data["conversation"] for e in reader.events(["conversation"])}
            lines = [e.data["conversation"] for e in reader.events(["chat"])]
        done = [c for c in ended if lines.count(c) >= 4]
        if done:
            break
        _settle(page, town, 30)
    else:
        raise SystemExit("screenshots: no conversation of four lines ended in 1,800 ticks")
    page.click("#tab-conversations")
    page.click(f".conversation-link[data-conversation='{max(done)}']")
    page.wait_for_selector("#transcript .transcript-line")
    page.wait_for_timeout(500)


def _generated(pw, tmp: Path, path: Path) -> None:
    """A generated town of 60 residents (seed 1) at its second game hour, the whole town in view
    (streets, homes, shops, offices, a college and a park)."""
    from town.generator import generate_town

    folder = tmp / "Millbrook"
    generate_town(60, 1, folder)
    sim = Simulation(load_scenario(folder), load_config(None, {}), run_path=tmp / "generated.sqlite")
    town = LiveSession(sim, port=0, speed=8, paused=True).start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        town.runner.step(60)
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(town.url)
        page.wait_for_function("() => window.townMap && Object.keys(window.townMap.where).length > 0")
        _settle(page, town, 300)
        page.screenshot(path=str(path))
    finally:
        browser.close()
        town.close()
        sim.close()


if __name__ == "__main__":
    raise SystemExit(main())
