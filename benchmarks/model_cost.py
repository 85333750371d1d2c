"""What a language model costs a town, against the project's fake OpenAI server (no real model).

Two parts:

1. **New vs old settings.** the_ville from 07:00 to 19:00 on 13 February, and Smallville from
   07:00 for ``--smallville-hours`` (default 12, rows ``smallville ...``), each twice in one
   invocation: with the defaults (a conversation written in one request, importance rated when
   a retrieval or a reflection reads it, everything new at once, answer schemas, one request in
   flight per server, a prompt budget) and with the old settings (a conversation line by line,
   one importance request per memory, JSON mode without a schema, unlimited concurrency, no
   prompt budget).
   Per persona: questions, requests, tokens in and out, retries and fallbacks in the first game
   hour (07:00, when everyone plans the day: the morning burst) and per game hour over the whole
   run, then the ratios old / new. Park et al. 2023's code spent about 54 calls and 26k tokens
   per agent per game hour. With ``--base-url URL --model NAME`` (e.g. CI's SmolLM2 server,
   ``scripts/ci_llama_server.sh``) the defaults run once more against that real server, for
   ``--model-hours`` (default 1: the first hour only; 12 gives its average too), its timeout
   set by the start-up check.
2. **Several endpoints.** Smallville for one game hour (07:00, the scenario's first) against 1,
   2 and 4 single-slot fake endpoints (each works on one request at a time,
   ``--endpoint-latency`` wall seconds each): calls per second and the speed-up over one
   endpoint. Where the parallelism goes: the process's CPU seconds, each endpoint's busy share
   of the wall time and the share of it with 0, 1, ... requests in flight (from the servers' own
   logs), and the ceiling the run's ticks allow (:func:`ceiling`). Then the same for a town the
   project's generator makes in a temporary folder (``--town-personas``, default 100, seed
   ``--town-seed``) from 07:00 for ``--town-hours`` at ``--town-latency``, and how many of its
   requests fall in the first tick (everyone plans the day) and how many after it: a town of 25
   has too few independent requests per tick for 4 endpoints, a town of 100 has enough.
   For each town, then, a fleet of 4 endpoints of 4 slots each (16 requests at once) under the
   tick-synchronous and the run-ahead scheduler (``schedule = "run-ahead"``,
   town/simulation/runahead.py), one line each: calls per second and the speed-up over the one
   single-slot endpoint above, the share of wall time with 0, 1-4, ... requests in flight, and
   for run-ahead how far ahead of the last recorded tick its jobs ran (median, max) and its
   ceiling: the same run with 64 slots per endpoint, whose wall time is the critical path of
   dependent requests. The part ends with a whole Smallville day (``--day-hours``, default 24)
   on that fleet under the run-ahead scheduler (``--day-schedules tick,run-ahead``: both),
   requests and wall time, and the two targets set for this work against what was measured: Smallville's
   first hour with run-ahead at least 6x one single-slot endpoint, the day within 5 minutes.
3. **Ceilings by hour** (only with ``--part 3``): Smallville from 07:00 (``--ceiling-hours``)
   and the generated town of part 2 (``--town-personas``, ``--town-ceiling-hours``) at no
   latency, for each game hour: the ceiling of 4 endpoints over one when every tick waits for
   its own requests, and the bound of any scheduler that keeps each persona's requests in
   order, run-ahead's included (the hour's requests over the most one persona sent), to see
   whether the hour of part 2 is typical.

The fake model answers each question as the scripted backend would (tests/thinking/fake_server.py)
and reports tokens as characters / 4. Usage:

    .venv/bin/python benchmarks/model_cost.py [--hours 12] [--latency 0.02]
        [--smallville-hours 12] [--base-url URL --model NAME [--model-hours 1]]
        [--endpoint-latency 0.2] [--endpoint-hours 1] [--town-personas 100] [--town-seed 1]
        [--town-hours 0.75] [--town-latency 0.2] [--single-endpoints 1,2,4] [--day-hours 24]
        [--day-schedules run-ahead] [--ceiling-hours 12] [--town-ceiling-hours 12] [--part 1|2|3]

Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "thinking"))

from fake_server import FakeOpenAIServer, model_answer  # noqa: E402

from town.analysis.stats import blank_row, compute_stats  # noqa: E402
from town.config import load_config  # noqa: E402
from town.events import EventKind  # noqa: E402
from town.generator import generate_town  # noqa: E402
from town.recording.reader import RunReader  # noqa: E402
from town.scenario import load_scenario  # noqa: E402
from town.simulation import Simulation  # noqa: E402
from town.simulation.jobs import Pool  # noqa: E402
from town.backends import make_backend  # noqa: E402
from town.thinking.openai_backend import OpenAIBackend  # noqa: E402
from town.thinking.prompting import PromptSet  # noqa: E402

KEY_ENV = "TOWN_BENCH_KEY"
COLUMNS = ("questions", "requests", "tokens_in", "tokens_out", "retries", "fallbacks")

NEW = {}
OLD = {
    "conversation.mode": "per-line",
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


class TickSteps:
    """Which step of its tick each request was sent in (for :func:`ceiling` by step).

    A tick runs its decisions, then its invitations, then the lines of the conversations it
    opened, each step waiting for all of its jobs before the next starts. The lines of the
    conversations already under way start during the decisions, once both speakers have decided
    (``Pool.map_ahead``): a request is counted in the step running when it is sent.
    """

    def __init__(self, book: PromptBook):
        self.now: tuple[int, int] | None = None  # (tick, step) of the step running
        self.sent: list[tuple[tuple[int, int], str]] = []  # ((tick, step), persona) per request
        lock = threading.Lock()
        self.tick = 0  # the tick running (the FRAME events tell: :meth:`seen`)
        mapping, ahead, send = Pool.map, Pool.map_ahead, OpenAIBackend.send
        steps = self

        def step_of(tick: int) -> tuple[int, int]:
            return (tick, steps.now[1] + 1 if steps.now and steps.now[0] == tick else 1)

        def counting(pool, jobs):
            steps.now = step_of(steps.tick)
            return mapping(pool, jobs)

        def deciding(pool, jobs, lines):
            steps.now = step_of(steps.tick)
            return ahead(pool, jobs, lines)

        def sending(backend, endpoint, messages, fields, max_tokens=None):
            question = book.book.get(messages[-1]["content"])
            if steps.now is not None and question is not None:  # not the start-up check
                with lock:
                    steps.sent.append((steps.now, question.persona))
            return send(backend, endpoint, messages, fields, max_tokens)

        Pool.map = counting
        Pool.map_ahead = deciding
        OpenAIBackend.send = sending

    def reset(self) -> None:
        """Forget the requests seen (a new run starts)."""
        self.now, self.sent, self.tick = None, [], 0

    def seen(self, event) -> None:
        """A FRAME ends its tick: the next one runs."""
        if event.kind is EventKind.FRAME:
            self.tick = event.tick + 1


def run(town: str, hours: float, servers: list, settings: dict, *, pool_size: int = 4,
        steps: TickSteps | None = None, ahead: list | None = None) -> tuple[dict, float, int, list[tuple[int, str]]]:
    """Simulate ``town`` for ``hours`` against ``servers`` (fake ones, or any with ``base_url``
    and ``model``; ``steps``: reset, then filled by the run; ``ahead``: filled with the
    run-ahead scheduler's ticks ahead of the last recorded one, per job).

    Returns:
        (stats, wall seconds, personas, (tick, persona) of every request sent).
    """
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
    if steps is not None:
        steps.reset()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.sqlite"
        parts = make_backend(config, backoff_s=0.01)
        sim = Simulation(load_scenario(town), config, backend=parts.backend, stall=parts.stall, run_path=path)
        sim.bind_recorder(parts.recorder)
        if steps is not None:
            sim.bus.subscribe(steps.seen)
        started = time.perf_counter()
        try:
            sim.run(sim.clock.ticks_for(hours=hours))
        finally:
            sim.close()
        wall = time.perf_counter() - started
        if ahead is not None and sim._ahead is not None:
            ahead.extend(sim._ahead.progress.ahead)
        with RunReader(path) as reader:
            calls = [(e.tick, e.persona) for e in reader.events(kinds=[EventKind.MODEL_CALL])
                     if e.data["outcome"] != "fallback"]
        return compute_stats(path), wall, len(sim.personas), calls


def per_persona(stats: dict, personas: int, hours: float) -> tuple[dict, dict]:
    """(the first game hour, the average game hour) of a run's :data:`COLUMNS`, per persona."""
    first = blank_row()
    start = min(hour for _, hour in stats["by_persona_hour"])
    for (_, hour), row in stats["by_persona_hour"].items():
        if hour == start:
            for c in COLUMNS:
                first[c] += row[c]
    return ({c: first[c] / personas for c in COLUMNS},
            {c: stats["total"][c] / (personas * hours) for c in COLUMNS})


def part1(book: PromptBook, hours: float, latency: float, model_server: tuple[str, str] | None = None,
          model_hours: float = 1.0, smallville_hours: float = 12.0) -> None:
    """the_ville and Smallville (``smallville_hours`` from 07:00; 0: the_ville only), new vs old
    settings (and the defaults on a real server), per persona: the first game hour and the
    average game hour, in one table."""
    rows = {}
    towns = [("the_ville", "", hours)] + ([("smallville", "smallville ", smallville_hours)] if smallville_hours else [])
    for town, label, town_hours in towns:
        for name, settings in (("new", NEW), ("old", OLD)):
            server = FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency)
            try:
                stats, wall, personas, _ = run(town, town_hours, [server], settings)
            finally:
                server.close()
            first, per = f"{label}{name}, first hour", f"{label}{name}, per hour"
            rows[first], rows[per] = per_persona(stats, personas, town_hours)
            rows[per]["wall_s"] = rows[first]["wall_s"] = wall
    print(f"\nthe_ville, 07:00 + {hours:g} game hours"
          + (f", and Smallville, 07:00 + {smallville_hours:g}" if smallville_hours else "")
          + f", fake server at {latency:g} s per request; per persona, in the first game hour and per "
          "game hour over the run:")
    print(f"{'settings':28}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'wall s':>10}")
    for name, row in rows.items():
        print(f"{name:28}" + "".join(f"{row[c]:12.1f}" for c in COLUMNS) + f"{row['wall_s']:10.1f}")
    for _, label, _ in towns:
        new, old = rows[f"{label}new, per hour"], rows[f"{label}old, per hour"]
        ratio = {c: old[c] / new[c] if new[c] else float("inf") for c in COLUMNS}
        print(f"{label + 'old / new per hour':28}" + "".join(f"{ratio[c]:11.1f}x" for c in COLUMNS))
    print(f"{'paper':28}{'':12}{54:12.1f}{26000:12.1f}   (Park et al. 2023's code on Smallville: calls, tokens)")
    if model_server is None:
        return
    url, model = model_server
    stats, wall, personas, _ = run("the_ville", model_hours, [SimpleNamespace(base_url=url, model=model)],
                                   {"backend.timeout_s": "auto"})
    first, average = per_persona(stats, personas, model_hours)
    print(f"\nthe_ville, 07:00 + {model_hours:g} game hours, the defaults on {model} at {url} "
          f"({wall:.0f} s wall); per persona:")
    print(f"{'':20}" + "".join(f"{c:>12}" for c in COLUMNS))
    for name, row in (("first hour", first), ("per hour", average)):
        print(f"{name:20}" + "".join(f"{row[c]:12.1f}" for c in COLUMNS))


def in_flight(servers: list[FakeOpenAIServer], most: int | None = None) -> tuple[list[float], list[float]]:
    """Requests in flight, from the servers' own logs.

    Returns:
        (each server's busy share of the run's wall time, the share of that time with 0, 1, ...,
        ``most`` (default: len(servers)) requests being worked on across all of them).
    """
    most = len(servers) if most is None else most
    spans = [(e["start"], e["end"]) for s in servers for e in s.log]
    if not spans:
        return [0.0] * len(servers), [1.0] + [0.0] * most
    first, last = min(a for a, _ in spans), max(b for _, b in spans)
    wall = max(last - first, 1e-9)
    busy = [sum(e["end"] - e["start"] for e in s.log) / wall for s in servers]
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    share = [0.0] * (most + 1)
    level, at = 0, first
    for t, step in edges:
        share[min(level, most)] += t - at
        level, at = level + step, t
    return busy, [x / wall for x in share]


def ceiling(calls: list[tuple[Any, str]], endpoints: int) -> float:
    """Best speed-up over one endpoint when every tick (or every step of a tick) waits for its own requests.

    A tick with n requests, c of them one persona's (asked one after another), needs at least
    max(ceil(n / endpoints), c) request times; one endpoint needs n. Upper bound: it ignores
    chains that pass from one persona to another (a line, then the listener's rating of it).

    Args:
        calls: (tick or (tick, step), persona) of every request.
        endpoints: single-slot endpoints.
    """
    ticks: dict[Any, Counter] = defaultdict(Counter)
    for tick, persona in calls:
        ticks[tick][persona] += 1
    slots = sum(max(-(-sum(c.values()) // endpoints), max(c.values())) for c in ticks.values())
    return len(calls) / slots if slots else 1.0


def endpoint_rows(book: PromptBook, steps: TickSteps, town: str, hours: float, latency: float,
                  single: tuple[int, ...] = (1, 2, 4)) -> tuple[list[tuple[int, str]], float]:
    """Print one row per 1, 2 and 4 (``single``) single-slot endpoints for ``town``.

    A first tick against a fast server comes first (a warm-up). Then the ceiling when each step of
    a tick also waits for the one before (:class:`TickSteps`), then the fleet's rows (:func:`fleet_rows`).

    Returns:
        ((tick, persona) of every request the last run sent, calls per second of the first).
    """
    warm = FakeOpenAIServer(book.respond, api_key="bench")
    try:  # one-time costs (templates compiled, modules loaded, caches filled) must not land on the first run
        run(town, 10 / 3600, [warm], {}, pool_size=8)
    finally:
        warm.close()
    print(f"{'endpoints':>10}{'requests':>10}{'wall s':>10}{'CPU s':>8}{'calls/s':>10}{'speed-up':>10}"
          f"{'ceiling':>9}   busy share per endpoint; share of wall with 0..n in flight")
    base = None
    calls: list[tuple[int, str]] = []
    for n in single:
        servers = [FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency, slots=1)
                   for _ in range(n)]
        cpu = time.process_time()
        try:
            stats, wall, _, calls = run(town, hours, servers, {"backend.max_concurrency": "1"}, pool_size=8,
                                        steps=steps)
            busy, share = in_flight(servers)
        finally:
            for s in servers:
                s.close()
        cpu = time.process_time() - cpu
        rate = stats["total"]["requests"] / wall
        base = base or rate
        print(f"{n:>10}{stats['total']['requests']:>10}{wall:>10.1f}{cpu:>8.1f}{rate:>10.2f}"
              f"{rate / base:>9.2f}x{ceiling(calls, n):>8.2f}x   "
              + " ".join(f"{b:.2f}" for b in busy) + "; " + " ".join(f"{x:.2f}" for x in share))
    print(f"ceiling when each step of a tick (decisions, invitations, lines) waits for the one before: "
          f"2 endpoints {ceiling(steps.sent, 2):.2f}x, 4 endpoints {ceiling(steps.sent, 4):.2f}x")
    return calls, base or 1.0


def fleet_rows(book: PromptBook, town: str, hours: float, latency: float, base: float, endpoints: int = 4,
               slots: int = 4, wide: int = 64) -> float:
    """``town`` on ``endpoints`` fake endpoints of ``slots`` slots each, tick-synchronous and
    run-ahead (``schedule = "run-ahead"``), against ``base`` calls per second (one single-slot
    endpoint, the same invocation). The run-ahead ceiling is the same run with ``wide`` slots per
    endpoint: with a slot free for every request, its wall time is the critical path of dependent
    requests (and the engine's own time between them). Returns run-ahead's speed-up over ``base``."""
    total = endpoints * slots
    results = {}
    for name, schedule, per in (("tick-synchronous", "tick", slots), ("run-ahead", "run-ahead", slots),
                                ("ceiling", "run-ahead", wide)):
        servers = [FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency, slots=per)
                   for _ in range(endpoints)]
        ahead: list[int] = []
        cpu = time.process_time()
        try:
            stats, wall, _, _ = run(town, hours, servers, {"backend.max_concurrency": str(per), "schedule": schedule},
                                    pool_size=max(32, 2 * endpoints * per), ahead=ahead)
            _, share = in_flight(servers, most=endpoints * per)
        finally:
            for s in servers:
                s.close()
        results[name] = (stats["total"]["requests"], wall, time.process_time() - cpu, share, ahead)
    ceiling_rate = results["ceiling"][0] / results["ceiling"][1]
    for name in ("tick-synchronous", "run-ahead"):
        requests, wall, cpu, share, ahead = results[name]
        rate = requests / wall
        groups = [sum(share[1 + k:1 + k + slots]) for k in range(0, total, slots)]
        flight = f"0: {share[0]:.2f}, " + ", ".join(f"{k + 1}-{k + slots}: {g:.2f}"
                                                   for k, g in zip(range(0, total, slots), groups))
        line = (f"{name} scheduler, {total} slots ({endpoints} endpoints x {slots}): {requests} requests in "
                f"{wall:.1f} s ({cpu:.1f} s CPU), {rate:.2f} calls/s, {rate / base:.2f}x one single-slot "
                f"endpoint; share of wall with requests in flight {flight}")
        if name == "run-ahead":
            line += (f"; ahead of the last recorded tick: median {statistics.median(ahead):.0f}, max {max(ahead)} "
                     f"ticks; run-ahead ceiling {ceiling_rate / base:.2f}x ({wide} slots per endpoint: "
                     f"{results['ceiling'][1]:.1f} s), reached {rate / ceiling_rate:.0%}")
        print(line)
    return results["run-ahead"][0] / results["run-ahead"][1] / base


def day(book: PromptBook, hours: float, latency: float, schedules: tuple[str, ...] = ("run-ahead",),
        endpoints: int = 4, slots: int = 4) -> float:
    """Smallville for ``hours`` from 07:00 on the fleet under each of ``schedules`` ("tick",
    "run-ahead"): requests and wall time. Returns the last one's wall seconds."""
    print(f"\nSmallville, {hours:g} game hours, {endpoints} fake endpoints x {slots} slots at {latency:g} s per request:")
    wall = 0.0
    for schedule in schedules:
        servers = [FakeOpenAIServer(book.respond, api_key="bench", latency_s=latency, slots=slots)
                   for _ in range(endpoints)]
        try:
            stats, wall, _, _ = run("smallville", hours, servers, {"backend.max_concurrency": str(slots),
                                                                   "schedule": schedule}, pool_size=32)
        finally:
            for s in servers:
                s.close()
        name = "run-ahead" if schedule == "run-ahead" else "tick-synchronous"
        print(f"{name} scheduler: {stats['total']['requests']} requests, {wall / 60:.1f} min ({wall:.0f} s) wall")
    return wall


#: The targets set for part 2: Smallville's first hour with run-ahead on 4 x 4 slots over one
#: single-slot endpoint (at least), and a whole Smallville day's wall minutes on that fleet (at most).
SPEED_UP_TARGET, DAY_MINUTES_TARGET = 6.0, 5.0


def part2(book: PromptBook, steps: TickSteps, hours: float, latency: float, personas: int, seed: int, town_hours: float,
          town_latency: float, single: tuple[int, ...] = (1, 2, 4), day_hours: float = 24.0,
          day_schedules: tuple[str, ...] = ("run-ahead",)) -> None:
    """Smallville, then a generated town of ``personas`` (0: none), against 1, 2 and 4 single-slot
    endpoints, then a fleet of 4 x 4 slots with either scheduler; then Smallville for
    ``day_hours`` on that fleet (0: not) under ``day_schedules``; then the targets."""
    print(f"\nSmallville, {hours:g} game hour(s), single-slot fake endpoints at {latency:g} s per request:")
    _, base = endpoint_rows(book, steps, "smallville", hours, latency, single)
    speed_up = fleet_rows(book, "smallville", hours, latency, base)
    if personas:
        generated(book, steps, personas, seed, town_hours, town_latency, single)
    wall = day(book, day_hours, latency, day_schedules) if day_hours else None
    print(f"\ntargets: Smallville 07:00 + {hours:g} h with run-ahead on 4 x 4 slots {speed_up:.2f}x one single-slot "
          f"endpoint (target >= {SPEED_UP_TARGET:g}x: {'met' if speed_up >= SPEED_UP_TARGET else 'not met'})"
          + ("" if wall is None else
             f"; Smallville {day_hours:g} game hours with {day_schedules[-1]} {wall / 60:.1f} min (target for a day, "
             f"24 game hours: <= {DAY_MINUTES_TARGET:g} min"
             + (f": {'met' if wall <= DAY_MINUTES_TARGET * 60 else 'not met'})" if day_hours == 24 else ")")))


def generated(book: PromptBook, steps: TickSteps, personas: int, seed: int, town_hours: float, town_latency: float,
              single: tuple[int, ...]) -> None:
    """Part 2's generated town of ``personas`` (seed ``seed``) for ``town_hours``."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = generate_town(personas, seed, Path(tmp) / "town")["folder"]
        print(f"\nA generated town of {personas} personas (seed {seed}), 07:00 + {town_hours:g} game hour(s), "
              f"single-slot fake endpoints at {town_latency:g} s per request:")
        calls, base = endpoint_rows(book, steps, str(folder), town_hours, town_latency, single)
        fleet_rows(book, str(folder), town_hours, town_latency, base)
    first = [c for c in calls if c[0] == 0]
    later = [c for c in calls if c[0] > 0]
    print(f"requests in tick 0 (everyone plans the day): {len(first)}; in later ticks: {len(later)}, "
          f"over {len({t for t, _ in later})} ticks, ceiling of 2 / 4 endpoints for those alone "
          f"{ceiling(later, 2):.2f}x / {ceiling(later, 4):.2f}x")


def part3(book: PromptBook, hours: float, personas: int = 0, seed: int = 1, town_hours: float = 12.0) -> None:
    """For each game hour of Smallville (``hours`` from 07:00; 0: none) and of a generated town of
    ``personas`` (0: none; seed ``seed``, ``town_hours``), at no latency: the ceiling of 4
    endpoints over one when every tick waits for its own requests, and any in-order scheduler's
    bound (:func:`persona_bound`)."""
    if hours:
        ceilings_by_hour(book, "smallville", "Smallville", hours)
    if personas:
        with tempfile.TemporaryDirectory() as tmp:
            folder = generate_town(personas, seed, Path(tmp) / "town")["folder"]
            ceilings_by_hour(book, str(folder), f"A generated town of {personas} (seed {seed})", town_hours)


def persona_bound(calls: list[tuple[Any, str]]) -> float:
    """Best speed-up over one endpoint of any scheduler that sends each persona's requests one
    after another (run-ahead's included): requests over the most that one persona sent. Upper
    bound: it ignores the chains between personas (a conversation's write after both decided)."""
    most = Counter(persona for _, persona in calls).most_common(1)
    return len(calls) / most[0][1] if most else 1.0


def ceilings_by_hour(book: PromptBook, town: str, name: str, hours: float) -> None:
    """Part 3's table for ``town`` (shown as ``name``) over ``hours`` game hours from 07:00."""
    server = FakeOpenAIServer(book.respond, api_key="bench")
    try:
        _, wall, _, calls = run(town, hours, [server], {"backend.max_concurrency": "1"}, pool_size=8)
    finally:
        server.close()
    per_hour = 3600 // load_config(None, {}).seconds_per_tick
    print(f"\n{name}, 07:00 + {hours:g} game hours ({wall:.0f} s wall): the ceiling of 4 single-slot endpoints "
          "over one when every tick waits for its own requests; the bound of a scheduler keeping each persona's "
          "requests in order (requests / the most one persona sent)")
    print(f"{'hour':>6}{'requests':>10}{'ticks asking':>14}{'ceiling':>9}{'in-order bound':>16}")
    for h in range(int(hours)):
        window = [c for c in calls if h * per_hour <= c[0] < (h + 1) * per_hour]
        print(f"{7 + h:>4}:00{len(window):>10}{len({t for t, _ in window}):>14}{ceiling(window, 4):>8.2f}x"
              f"{persona_bound(window):>15.2f}x")


def main() -> None:
    """Parse the options and run the parts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, default=12.0, help="the_ville game hours from 07:00")
    ap.add_argument("--latency", type=float, default=0.02, help="wall seconds per request, part 1")
    ap.add_argument("--smallville-hours", type=float, default=12.0,
                    help="Smallville game hours from 07:00, part 1 (0: the_ville only)")
    ap.add_argument("--base-url", help="part 1 also runs the defaults on this real server (e.g. SmolLM2's)")
    ap.add_argument("--model", default="smollm2", help="the real server's model name (default smollm2)")
    ap.add_argument("--model-hours", type=float, default=1.0, help="the_ville game hours on the real server")
    ap.add_argument("--endpoint-hours", type=float, default=1.0, help="Smallville game hours, part 2")
    ap.add_argument("--endpoint-latency", type=float, default=0.2,
                    help="wall seconds per request of each single-slot endpoint, part 2")
    ap.add_argument("--town-personas", type=int, default=100,
                    help="residents of the generated town of part 2 (0: Smallville only)")
    ap.add_argument("--town-seed", type=int, default=1, help="seed of the generated town, part 2")
    ap.add_argument("--town-hours", type=float, default=0.75, help="the generated town's game hours, part 2")
    ap.add_argument("--town-latency", type=float, default=0.2,
                    help="wall seconds per request of each endpoint for the generated town, part 2")
    ap.add_argument("--single-endpoints", default="1,2,4",
                    help="the numbers of single-slot endpoints of part 2's first rows (the first is the base)")
    ap.add_argument("--day-hours", type=float, default=24.0,
                    help="part 2 ends with Smallville for this many game hours on 4 x 4 slots (0: not)")
    ap.add_argument("--day-schedules", default="run-ahead",
                    help="the schedulers of that day, in order: run-ahead, or tick,run-ahead for both")
    ap.add_argument("--ceiling-hours", type=float, default=12.0, help="Smallville game hours, part 3 (0: none)")
    ap.add_argument("--town-ceiling-hours", type=float, default=12.0,
                    help="the generated town's game hours, part 3 (its size and seed: --town-personas, --town-seed)")
    ap.add_argument("--part", type=int, choices=(1, 2, 3), help="run only this part (3 runs only when asked)")
    args = ap.parse_args()
    if not set(args.day_schedules.split(",")) <= {"tick", "run-ahead"}:
        ap.error(f"--day-schedules: {args.day_schedules!r} names a scheduler other than tick and run-ahead")
    os.environ[KEY_ENV] = "bench"
    book = PromptBook()
    if args.part in (None, 1):
        part1(book, args.hours, args.latency, (args.base_url, args.model) if args.base_url else None,
              args.model_hours, args.smallville_hours)
    if args.part in (None, 2):
        part2(book, TickSteps(book), args.endpoint_hours, args.endpoint_latency, args.town_personas, args.town_seed,
              args.town_hours, args.town_latency, tuple(int(n) for n in args.single_endpoints.split(",")),
              args.day_hours, tuple(args.day_schedules.split(",")))
    if args.part == 3:
        part3(book, args.ceiling_hours, args.town_personas, args.town_seed, args.town_ceiling_hours)


if __name__ == "__main__":
    main()
