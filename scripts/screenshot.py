"""Regenerate the README's screenshot (docs/screenshot-live.png) as a user sees the live viewer.

Run: ``.venv/bin/python scripts/screenshot.py [--out docs/screenshot-live.png] [--tick 420]``

It serves the_ville live (scripted backend, hashing embedder, a throw-away run file), lets it run
at x64 to ``--tick`` with the page watching from the first tick, pauses, and photographs the page at 1440x900 in Debian's headless
chromium with the fonts this machine has (no emoji font: persona markers fall back to initials).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from town.config import load_config  # noqa: E402
from town.scenario import load_scenario  # noqa: E402
from town.simulation import Simulation  # noqa: E402
from web.server import LiveSession  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def main(argv: list[str] | None = None) -> int:
    """Take the screenshot; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot-live.png"))
    parser.add_argument("--tick", type=int, default=420, help="tick to pause at (default 420, 08:10)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}),
                         run_path=Path(tmp) / "shot.sqlite")
        session = LiveSession(sim, port=0, speed=64, paused=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.goto(session.url)
                page.wait_for_selector("#status[data-state='paused']")
                page.click("#btn-pause")  # resume, with the page listening from the first tick
                page.wait_for_function(
                    f"() => Number(document.querySelector('#clock').dataset.tick) >= {args.tick}", timeout=120000)
                page.click("#btn-pause")
                page.wait_for_selector("#status[data-state='paused']")
                page.wait_for_timeout(1500)  # let the last movement and labels settle
                page.screenshot(path=args.out)
                browser.close()
        finally:
            session.close()
            sim.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
