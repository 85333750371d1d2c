"""What a language model costs a town, against the project's fake OpenAI server (no real model).

Two parts:

1. **New vs old settings.** the_ville from 07:00 to 19:00 on 13 February, twice in one
   invocation: with the defaults (importance rated a batch at a time, answer schemas, one
   request in flight per server, a prompt budget) and with the old settings (one importance
   request per memory, JSON mode without a schema, unlimited concurrency, no prompt budget).
   Per persona per game hour: questions, requests, tokens in and out, retries and fallbacks,
   then the ratios old / new. Park et al. 2023's code spent about 54 calls and 26k tokens per
   agent per game hour.
2. **Several endpoints.** Smallville for one game hour against 1, 2 and 4 single-slot fake
   endpoints (each works on one request at a time, ``--latency`` wall seconds each): calls per
   second and the speed-up over one endpoint.

The fake model answers each question as the scripted backend would (tests/thinking/fake_server.py)
and reports tokens as characters / 4. Usage:

    .venv/bin/python benchmarks/model_cost.py [--hours 12] [--latency 0.02]
        [--endpoint-latency 0.2] [--endpoint-hours 1] [--part 1|2]

Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "thinking"))

from fake_server import FakeOpenAIServer, model_answer  # noqa: E402

from town.config import load_config  # noqa: E402
from town.scenario import load_scenario  # noqa: E402
from town.simulation import Simulation  # noqa: E402
from town.stats import compute_stats  # noqa: E402
from town.thinking.factory import make_backend  # noqa: E402
from town.thinking.prompting import PromptSet  # noqa: E402

KEY_ENV = "TOWN_BENCH_KEY"
COLUMNS = ("questions", "requests", "tokens_in", "tokens_out", "retries", "fallbacks")

NEW = {}
OLD = {
    "backend.importance": "each",
    "backend.structured": "json_object",
    "backend.max_concurrency": "64",
    "backend.max_prompt_tokens": 0,
}


class PromptBook:
    """Remembers which question each rendered prompt came from, so the fake model can answer."""

    def __init__(self):
        self.book: dict[str, object] = {}
        self.lock = threading.Lock()
        render = PromptSet.render
        book = self

        def recording_render(self, question):
            text = render(self, question)
            with book.lock:
                book.book[text] = question
            return text

        PromptSet.render = recording_render

    def respond(self, messages) -> str:
        """The fake model's reply to a chat request."""
        return model_answer(self.book[messages[-1]["content"]])


def run(town: str, hours: float, servers: list[FakeOpenAIServer], settings: dict, *,
        pool_size: int = 4) -> tuple[dict, float, int]:
    """Simulate ``town`` for ``hours`` against ``servers``; (stats, wall seconds, personas)."""
    over = {
        "embedder": "hashing",
        "backend.name": "openai",
        "backend.base_url": servers[0].base_url,
        "backend.more_base_urls": [s.base_url for s in servers[1:]],
        "backend.model": servers[0].model,
        "backend.api_key_env": KEY_ENV,
        "backend.cache": False,
        "backend.timeout_s": 60.0,
        "backend.pool_size": pool_size,
        **settings,
    }
    config = load_config(None, over)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.sqlite"
        backend = make_backend(config, backoff_s=0.01)
        sim = Simulation(load_scenario(town), config, backend=backend, run_path=path)
        backend.recorder.bind(sim.ctx.publish)
        started = time.perf_counter()
        try:
            for _ in range(sim.clock.ticks_for(hours=hours)):
                sim.step()
        finally:
            sim.close()
        wall = time.perf_counter() - started
        return compute_stats(path), wall, len(sim.personas)


def part1(book: PromptBook, hours: float, latency: float) -> None:
    """the_ville, new vs old settings, per persona per game hour."""
    rows = {}
    for name, settings in (("new", NEW), ("old", OLD)):
        server = FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency)
        try:
            stats, wall, personas = run("the_ville", hours, [server], settings)
        finally:
            server.close()
        total = stats["total"]
        rows[name] = {c: total[c] / (personas * hours) for c in COLUMNS}
        rows[name]["wall_s"] = wall
    print(f"\nthe_ville, 07:00 + {hours:g} game hours, fake server at {latency:g} s per request; "
          "per persona per game hour:")
    print(f"{'settings':10}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'wall s':>10}")
    for name, row in rows.items():
        print(f"{name:10}" + "".join(f"{row[c]:12.1f}" for c in COLUMNS) + f"{row['wall_s']:10.1f}")
    ratio = {c: rows["old"][c] / rows["new"][c] if rows["new"][c] else float("inf") for c in COLUMNS}
    print(f"{'old / new':10}" + "".join(f"{ratio[c]:11.1f}x" for c in COLUMNS))
    print(f"{'paper':10}{'':12}{54:12.1f}{26000:12.1f}   (Park et al. 2023's code: calls, tokens)")


def part2(book: PromptBook, hours: float, latency: float) -> None:
    """Smallville against 1, 2 and 4 single-slot endpoints."""
    print(f"\nSmallville, {hours:g} game hour(s), single-slot fake endpoints at {latency:g} s per request:")
    print(f"{'endpoints':>10}{'requests':>10}{'wall s':>10}{'calls/s':>10}{'speed-up':>10}")
    base = None
    for n in (1, 2, 4):
        servers = [FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency, slots=1)
                   for _ in range(n)]
        try:
            stats, wall, _ = run("smallville", hours, servers, {"backend.max_concurrency": "1"},
                                 pool_size=8)
        finally:
            for s in servers:
                s.close()
        rate = stats["total"]["requests"] / wall
        base = base or rate
        print(f"{n:>10}{stats['total']['requests']:>10}{wall:>10.1f}{rate:>10.2f}{rate / base:>9.1f}x")


def main() -> None:
    """Parse the options and run the parts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=12.0, help="the_ville game hours from 07:00")
    ap.add_argument("--latency", type=float, default=0.02, help="wall seconds per request, part 1")
    ap.add_argument("--endpoint-hours", type=float, default=1.0, help="Smallville game hours, part 2")
    ap.add_argument("--endpoint-latency", type=float, default=0.2,
                    help="wall seconds per request of each single-slot endpoint, part 2")
    ap.add_argument("--part", type=int, choices=(1, 2), help="run only this part")
    args = ap.parse_args()
    os.environ[KEY_ENV] = "bench"
    book = PromptBook()
    if args.part in (None, 1):
        part1(book, args.hours, args.latency)
    if args.part in (None, 2):
        part2(book, args.endpoint_hours, args.endpoint_latency)


if __name__ == "__main__":
    main()
