"""Frames per second the live page receives and draws, and replay seek time, at 200 and 1,000 personas.

For each N, a generated town (``town generate``, seed 1) is served live with its runner paused,
and frames are published on the simulation's bus at ``--rate`` ticks per wall second (x8 by
default) with ``--walkers`` of the personas stepping to a neighbouring tile each tick, so the
figures are the viewer's own, not the engine's. Headless Debian chromium (through Playwright)
opens the live page; after a warm-up the script prints, over ``--seconds``:

- frames received per second (Socket.IO ``frame`` messages) and the mean message bytes next to
  a whole frame's;
- frames drawn per second (map drawings that showed a new frame), drawings per second, the share
  of them that repainted only what changed, and the mean milliseconds per drawing;
- the replay page's seek: median and worst wall milliseconds from moving the scrubber to the
  frame shown, over 10 random ticks of the frames just recorded (0.6 s apart, after the page's
  start-up requests have ended).

Usage::

    .venv/bin/python benchmarks/viewer.py [--personas 200 1000] [--rate 8] [--seconds 15]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from town.config import load_config
from town.events import Event, EventKind
from town.generator import generate_town
from town.scenario import load_scenario
from town.simulation import Simulation
from web import create_app
from web.server import LiveServer, LiveSession

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run", "--disable-quic"]
FRAME_MESSAGE = re.compile(r'^42\d*\["frame",')
WARMUP = 5.0


class Publisher(threading.Thread):
    """Publishes a FRAME a tick at ``rate`` per second.

    ``walkers`` of the personas walk at any time: each steps to a neighbouring walkable tile a
    tick, stops with chance 1/15 a tick (its entry as at the start again, but where it is), and
    someone else sets off in its place.
    """

    def __init__(self, sim: Simulation, rate: float, walkers: float):
        super().__init__(daemon=True)
        self.sim, self.rate = sim, rate
        self.start_frame = sim.frame()
        self.frame = {pid: dict(entry) for pid, entry in self.start_frame.items()}
        self.count = int(len(self.frame) * walkers)
        self.walking: set[str] = set()
        self.stop = threading.Event()
        self.tick = sim.clock.tick
        self.rng = random.Random(0)

    def step(self) -> None:
        """Move the walkers one tile each and publish the frame."""
        tiles = self.sim.tilemap
        frame = {pid: dict(entry) for pid, entry in self.frame.items()}
        for pid in sorted(self.walking):
            if self.rng.random() < 1 / 15:
                self.walking.discard(pid)
                still = self.start_frame[pid]
                frame[pid].update(kind=still["kind"], action=still["action"], emoji=still["emoji"])
        idle = sorted(set(frame) - self.walking)
        self.walking.update(self.rng.sample(idle, max(0, self.count - len(self.walking))))
        for pid in sorted(self.walking):
            entry = frame[pid]
            steps = [(entry["x"] + dx, entry["y"] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            steps = [(x, y) for x, y in steps if 0 <= x < tiles.width and 0 <= y < tiles.height
                     and tiles.walkable(x, y)]
            if steps:
                entry["x"], entry["y"] = self.rng.choice(steps)
                entry["address"] = tiles.address_at(entry["x"], entry["y"])
                entry.update(kind="walk", action="walking about", emoji="🚶")
        self.frame = frame
        self.sim.bus.publish(Event(kind=EventKind.FRAME, tick=self.tick, time=self.sim.clock.time_of(self.tick),
                                   data={"personas": frame}))
        self.tick += 1

    def run(self) -> None:
        """Publish until stopped, holding the rate against the wall clock."""
        start = time.monotonic()
        while not self.stop.is_set():
            self.step()
            self.stop.wait(max(0.0, start + (self.tick / self.rate) - time.monotonic()))


def measure(browser, folder: Path, runs: Path, rate: float, walkers: float, seconds: float) -> dict:
    """Serve ``folder`` live with synthetic frames; the page's figures over ``seconds``."""
    sim = Simulation(load_scenario(folder), load_config(None, {"embedder": "hashing"}),
                     run_path=runs / f"{folder.name}.sqlite")
    session = LiveSession(sim, port=0, speed=rate, paused=True).start()
    publisher = Publisher(sim, rate, walkers)
    received: list[tuple[float, int]] = []
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(
        (time.monotonic(), len(p.encode()))) if isinstance(p, str) and FRAME_MESSAGE.match(p) else None))
    try:
        page.goto(session.url)
        page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0", timeout=120000)
        publisher.start()
        time.sleep(WARMUP)
        before = page.evaluate("() => ({...window.townMap.stats})")
        t0 = time.monotonic()
        time.sleep(seconds)
        after = page.evaluate("() => ({...window.townMap.stats})")
        t1 = time.monotonic()
    finally:
        publisher.stop.set()
        publisher.join(10)
        page.close()
        session.close()
        sim.close()
    window = [size for at, size in received if t0 <= at < t1]
    draws = after["draws"] - before["draws"]
    return {"received": len(window) / (t1 - t0), "bytes": statistics.mean(window) if window else 0,
            "full": received[0][1], "drawn": (after["framesDrawn"] - before["framesDrawn"]) / (t1 - t0),
            "draws": draws / (t1 - t0), "partial": (after["partial"] - before["partial"]) / max(1, draws),
            "ms": (after["ms"] - before["ms"]) / max(1, draws), "ticks": publisher.tick}


def seek(browser, runs: Path, name: str, ticks: int) -> list[float]:
    """Wall ms of 10 scrubber seeks to random recorded ticks on the replay page."""
    server = LiveServer(create_app({"RUNS_DIR": str(runs)}), "127.0.0.1", 0).start()
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    try:
        page.goto(f"{server.url}/replay/{name}")
        page.wait_for_function("() => window.townMap && window.townMap.stats.draws > 0", timeout=120000)
        page.wait_for_load_state("networkidle", timeout=900000)  # the evaluation report it loads once
        out = []
        for tick in random.Random(1).sample(range(1, ticks - 1), 10):
            page.wait_for_timeout(600)  # a seek's own follow-up requests (panel, retrievals) end
            out.append(page.evaluate("""async (tick) => {
                const s = document.getElementById('scrubber'), clock = document.getElementById('clock');
                const t0 = performance.now();
                s.value = tick; s.dispatchEvent(new Event('input'));
                while (Number(clock.dataset.tick) !== tick) await new Promise(requestAnimationFrame);
                return performance.now() - t0;
            }""", tick))
        return out
    finally:
        page.close()
        server.shutdown()


def main() -> None:
    """Print one row per town size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--personas", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--rate", type=float, default=8.0, help="ticks per wall second (x8)")
    parser.add_argument("--walkers", type=float, default=0.1, help="share of personas moving a tick")
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    print(f"{'N':>5} {'recv/s':>7} {'drawn/s':>8} {'draws/s':>8} {'partial':>8} {'ms/draw':>8} "
          f"{'msg B':>8} {'full B':>8} {'seek ms':>8} {'worst':>6}")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for n in args.personas:
            folder = Path(tmp) / f"town{n}"
            generate_town(n, 1, folder)
            runs = Path(tmp) / f"runs{n}"
            runs.mkdir()
            r = measure(browser, folder, runs, args.rate, args.walkers, args.seconds)
            seeks = seek(browser, runs, folder.name, r["ticks"])
            print(f"{n:>5} {r['received']:>7.1f} {r['drawn']:>8.1f} {r['draws']:>8.1f} {r['partial']:>8.0%} "
                  f"{r['ms']:>8.1f} {r['bytes']:>8.0f} {r['full']:>8.0f} {statistics.median(seeks):>8.0f} "
                  f"{max(seeks):>6.0f}", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
