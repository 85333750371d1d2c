"""The `town` command line (also `python run.py`).

Sub-commands: simulate, resume, fork, inspect, interview, evaluate, stats; the viewer's serve
(the default of ``python run.py``) and replay are added by ``web.cli``, because the engine never
imports the web layer. Any :class:`TownError` ends the command with exit code 2 and one line
naming the file/field and the fix.
"""

from __future__ import annotations

import argparse
import logging
import math
import signal
import sys
import time
from datetime import datetime
from pathlib import Path

from .errors import ConfigError, TownError
from .runner import STOP_GRACE_S

__all__ = ["main", "build_parser", "saved_line", "STOP_GRACE_S"]



def _add_sim_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--town", default="the_ville", help="town folder or name under personas/ (default the_ville)")
    p.add_argument("--config", help="TOML configuration file (see town/default.toml)")
    p.add_argument("--seed", type=int, help="random seed (overrides the configuration)")
    p.add_argument("--backend", choices=["scripted", "openai", "local"], help="thinking backend")
    p.add_argument("--embedder", "--embed-backend", dest="embedder", choices=["minilm", "hashing", "openai"],
                   help="sentence embedder; 'openai' uses the server's /embeddings (--embed-model)")
    p.add_argument("--embed-model", help="embedding model on the OpenAI-compatible server")
    m = p.add_argument_group("model backends (--backend openai|local)")
    m.add_argument("--base-url", action="append", help="OpenAI-compatible API root, e.g. "
                   "http://127.0.0.1:8080/v1; give it again for more servers of the same model")
    m.add_argument("--structured", choices=["auto", "json_schema", "json_object_schema", "grammar",
                                            "json_object", "none"],
                   help="how requests carry the answer's JSON schema (default auto: probed at start)")
    m.add_argument("--max-concurrency", metavar="N|auto",
                   help="requests in flight per server (default auto: the slots it reports, else 1)")
    m.add_argument("--model", help="model name the server knows (openai backend)")
    m.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the API key "
                   "(default OPENAI_API_KEY; the key is never written anywhere)")
    m.add_argument("--prompts", metavar="DIR", help="folder of <question>.j2 templates overriding the packaged ones")
    m.add_argument("--no-cache", action="store_true", help="do not use the cache of resolved answers")
    m.add_argument("--model-path", metavar="FILE.gguf", help="GGUF model file (local backend)")
    p.add_argument("--ablate", metavar="PARTS",
                   help="switch parts off, comma-separated: reflection, planning, observation "
                        "(Park et al. 2023 §6.2's ablations); the config key `ablate`")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a configuration key, e.g. --set retrieval.k=5 (repeatable)")


def build_parser(add_commands=None) -> argparse.ArgumentParser:
    """The argument parser of all sub-commands.

    Args:
        add_commands: ``add_commands(subparsers)`` adds more sub-commands first (the viewer's
            ``serve`` and ``replay`` come from ``web.cli``: the engine never imports the web layer).
    """
    parser = argparse.ArgumentParser(
        prog="town", description="A generative-agents town you can watch, replay and inspect.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    sub = parser.add_subparsers(dest="command")
    if add_commands is not None:
        add_commands(sub)

    s = sub.add_parser("simulate", help="simulate a town for some game hours, recording a run")
    _add_sim_options(s)
    s.add_argument("--hours", type=float, required=True, help="game hours to simulate")
    s.add_argument("--out", required=True, help="run file to write (.sqlite)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    s = sub.add_parser("resume", help="continue a run from its last snapshot for more game hours")
    s.add_argument("run", help="run file")
    s.add_argument("--hours", type=float, required=True, help="game hours to add after the snapshot")
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    s = sub.add_parser("fork", help="start a new run from a saved snapshot of another")
    s.add_argument("run", help="parent run file")
    s.add_argument("--at", required=True, help='game time, e.g. "2023-02-14 09:00" (newest snapshot at or before)')
    s.add_argument("--out", required=True, help="new run file")
    s.add_argument("--seed", type=int, help="another seed from the fork on")
    s.add_argument("--config", help="another TOML configuration from the fork on")
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a key")
    s.add_argument("--hours", type=float, default=1.0, help="game hours to simulate after the fork (default 1)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")

    s = sub.add_parser("stats", help="model calls and tokens of a run, per persona per game hour and per template")
    s.add_argument("run", help="run file")

    s = sub.add_parser("inspect", help="print retrieval traces of a recorded run")
    s.add_argument("run", help="run file")
    s.add_argument("--persona", required=True, help="persona id or full name")
    s.add_argument("--last", type=int, default=3, help="the last N retrievals (default 3)")
    s.add_argument("--at", help='game time, e.g. "2023-02-13 12:00": show the last N up to then')
    s.add_argument("--purpose", help="only this purpose (act, chat, react, plan_day, reflect)")

    s = sub.add_parser("interview", help="ask a persona of a recorded run a question, from its memory as of a time")
    s.add_argument("run", help="run file")
    s.add_argument("--persona", required=True, help="persona id or full name")
    s.add_argument("--at", help='game time, e.g. "2023-02-14 12:00" (default: the end of the run)')
    s.add_argument("question", help='e.g. "Do you know about a party?"')

    s = sub.add_parser("evaluate", help="interview every persona: diffusion, relationship density, "
                                         "attendance and cost of a run")
    s.add_argument("run", help="run file")
    s.add_argument("--out", help="folder for report.json and the PNG plots (default <run>.evaluation/)")
    s.add_argument("--every", type=float, default=12.0, metavar="HOURS",
                   help="game hours between diffusion samples, besides the start and the end (default 12)")
    s.add_argument("--interview", action="store_true",
                   help="also list every persona's answer to each probe's question at the end")
    s.add_argument("--battery", action="store_true",
                   help="ask every persona the interview battery (5 categories x 5 questions), grade "
                        "the answers against the run and write battery.json")
    s.add_argument("--at", help="battery: interview time (default: the run's middle, on the hour)")
    s.add_argument("--backend", choices=["scripted", "openai", "local"],
                   help="battery: answer with this backend (default: the run's own)")
    s.add_argument("--model", help="battery: model name on the OpenAI-compatible server")
    s.add_argument("--base-url", help="battery: OpenAI-compatible API root")

    s = sub.add_parser("compare", help="two runs side by side: first diverging tick, diffusion and density "
                                       "over time, attendance, plans, retrieval overlap, cost")
    s.add_argument("run_a", help="run file A (e.g. a run)")
    s.add_argument("run_b", help="run file B (e.g. its fork)")
    s.add_argument("--json", metavar="FILE", help="also write the full comparison as JSON")

    s = sub.add_parser("study", help="the paper's controlled study: run each condition with one seed, "
                                     "interview, grade, rank (Park et al. 2023 §6)")
    _add_sim_options(s)
    s.add_argument("--hours", type=float, required=True, help="game hours per condition")
    s.add_argument("--conditions", default="full,no-reflection,no-reflection-planning,"
                                           "no-observation-reflection-planning",
                   help="comma-separated: full, or no- and parts joined by '-' (default: the paper's four)")
    s.add_argument("--out", required=True, help="folder for the runs, study.json and study.png")
    s.add_argument("--judge-base-url", help="OpenAI-compatible API root of a judge model (optional)")
    s.add_argument("--judge-model", help="the judge model's name")
    s.add_argument("--judge-api-key-env", default="OPENAI_API_KEY", metavar="VAR",
                   help="environment variable holding the judge's API key (default OPENAI_API_KEY)")
    s.add_argument("--quiet", action="store_true", help="no progress bars")

    s = sub.add_parser("generate", help="write a new town folder of N generated residents (no model needed)")
    s.add_argument("--personas", type=int, required=True, metavar="N", help="number of residents")
    s.add_argument("--seed", type=int, default=0, help="seed of every random choice (default 0)")
    s.add_argument("--out", required=True, help="the new town folder, e.g. personas/big_town")
    s.add_argument("--force", action="store_true", help="replace the files of an existing town folder")
    return parser


def _set_pairs(items: list[str]) -> dict:
    """``--set KEY=VALUE`` options as a dict of dotted keys.

    Raises:
        ConfigError: naming --set for an item without '='.
    """
    over = {}
    for item in items:
        if "=" not in item:
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE, e.g. retrieval.k=5", field="--set")
        key, value = item.split("=", 1)
        over[key.strip()] = value.strip()
    return over


def _hours(value: float, field: str = "--hours") -> float:
    """Check a number of game hours: finite and > 0.

    Raises:
        ConfigError: naming ``field`` otherwise.
    """
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"must be a finite number of game hours > 0, got {value}", field=field)
    return value


def _ticks(hours: float, seconds_per_tick: int) -> int:
    """Ticks in ``hours`` game hours at ``seconds_per_tick`` game seconds a tick (at least one).

    Raises:
        ConfigError: naming --hours when that is less than one tick.
    """
    ticks = int(hours * 3600 // seconds_per_tick)
    if ticks < 1:
        raise ConfigError(f"{hours} game hours is less than one tick ({seconds_per_tick} "
                          "game seconds)", field="--hours")
    return ticks


def _remove_run(out: Path) -> None:
    """Delete a run file that never got going (and its WAL side files)."""
    for suffix in ("", "-wal", "-shm", ".lock"):
        Path(f"{out}{suffix}").unlink(missing_ok=True)


def _overrides(args: argparse.Namespace) -> dict:
    over = _set_pairs(args.set)
    if args.seed is not None:
        over["seed"] = args.seed
    if args.backend:
        over["backend.name"] = args.backend
    if args.embedder:
        over["embedder"] = args.embedder
    if getattr(args, "ablate", None) is not None:
        over["ablate"] = args.ablate
    if getattr(args, "embed_model", None):
        over["backend.embed_model"] = args.embed_model
    for flag, key in (("model", "backend.model"), ("api_key_env", "backend.api_key_env"),
                      ("structured", "backend.structured"), ("max_concurrency", "backend.max_concurrency")):
        if getattr(args, flag, None):
            over[key] = getattr(args, flag)
    if getattr(args, "base_url", None):
        over["backend.base_url"] = args.base_url[0]
        over["backend.more_base_urls"] = list(args.base_url[1:])
    if getattr(args, "no_cache", False):
        over["backend.cache"] = False
    return over


def build_simulation(args: argparse.Namespace, run_path: Path):
    """Load the scenario and configuration named by ``args`` and create a recorded Simulation.

    Raises:
        ConfigError: for a bad town, configuration or option; RecordingError for a bad run path.
    """
    from .config import load_config
    from .scenario import load_scenario
    from .simulation import Simulation
    from .thinking.factory import make_backend, settled

    config = load_config(args.config, _overrides(args))
    scenario = load_scenario(args.town)
    # the model server is checked here, before the run file and its first tick
    backend = make_backend(config, prompts_dir=args.prompts, model_path=args.model_path)
    config = settled(config, backend)
    sim = Simulation(scenario, config, backend=backend, run_path=run_path)
    sim.bind_recorder()
    return sim


def cmd_simulate(args: argparse.Namespace) -> int:
    """`town simulate`: run for --hours game hours with a progress bar, then print a summary."""
    out = Path(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out or remove it", field="--out")
    _hours(args.hours)
    try:
        sim = build_simulation(args, out)
    except BaseException:  # Ctrl-C, a bad town, a full disk before the first snapshot
        _remove_run(out)  # nothing worth keeping, nothing half-made left
        raise
    try:
        ticks = _ticks(args.hours, sim.clock.seconds_per_tick)
    except ConfigError:
        sim.close()
        _remove_run(out)
        raise
    return _drive(sim, ticks, out, quiet=args.quiet)


def _drive(sim, total: int, out: Path, *, quiet: bool) -> int:
    """Step ``sim`` ``total`` ticks with a progress bar; Ctrl-C finishes the tick and saves.

    A tick still waiting for the model :data:`STOP_GRACE_S` wall seconds after Ctrl-C is
    cancelled (``Simulation.cancel``): it is not recorded, and the run keeps its last snapshot.
    A tick that fails is not recorded either; the run is closed unfinished and the error raised.
    """
    import threading

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .errors import RunStopped

    stop = {"requested": False}

    def on_sigint(*_):
        if not stop["requested"]:
            stop["requested"] = True
            timer = threading.Timer(STOP_GRACE_S, sim.cancel)
            timer.daemon = True
            timer.start()

    previous = signal.signal(signal.SIGINT, on_sigint)
    previous_term = signal.signal(signal.SIGTERM, on_sigint)
    console = Console(stderr=True)
    started = time.perf_counter()
    completed = False
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} ticks"),
                      TextColumn("{task.fields[rate]} ticks/s"), TimeElapsedColumn(), console=console,
                      disable=quiet) as bar:
            task = bar.add_task("", total=total, rate="-")
            for i in range(total):
                if stop["requested"]:
                    break
                try:
                    sim.step()
                except RunStopped:
                    console.print(f"interrupted inside tick {sim.clock.tick}, which is not recorded; the run "
                                  "can be resumed from its last snapshot")
                    break
                if i % 60 == 0 or i == total - 1:
                    rate = (i + 1) / max(1e-9, time.perf_counter() - started)
                    bar.update(task, completed=i + 1, rate=f"{rate:,.0f}",
                               description=sim.clock.now.strftime("%a %d %b %H:%M"))
            else:
                completed = True
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)
        sim.close(finished=completed)
    _print_summary(out, time.perf_counter() - started)
    if stop["requested"]:
        console.print(f"{saved_line(out)} (interrupted; `resume` continues it)", highlight=False)
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    """`town resume`: drop what came after the last snapshot and simulate on for --hours."""
    from .recording import RunReader, newest_snapshot
    from .simulation import Simulation

    _hours(args.hours)
    with RunReader(args.run) as reader:  # clear message for a missing or damaged file
        ticks = _ticks(args.hours, int(reader.meta["seconds_per_tick"]))
    # every check (town, persona files, model server, embedder) before the run is cut
    sim = Simulation.from_run(args.run, newest_snapshot(args.run))
    return _drive(sim, ticks, Path(args.run), quiet=args.quiet)


def cmd_fork(args: argparse.Namespace) -> int:
    """`town fork`: copy a run up to the newest snapshot at or before --at, then simulate on."""
    from .clock import parse_game_time
    from .config import Config, load_config
    from .recording import RunReader, newest_snapshot
    from .simulation import Simulation

    at = parse_game_time(args.at, field="--at")
    _hours(args.hours)
    out = Path(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out", field="--out")
    with RunReader(args.run) as reader:
        parent_config = reader.meta["config"]
    over = _set_pairs(args.set)
    if args.seed is not None:
        over["seed"] = args.seed
    config = (load_config(args.config, over) if args.config
              else load_config(None, {**_flatten(parent_config), **over}) if over
              else Config.from_dict(parent_config))
    ticks = _ticks(args.hours, config.seconds_per_tick)
    snapshot = newest_snapshot(args.run, at)
    try:
        sim = Simulation.from_run(args.run, snapshot, config=config, fork_to=out)
    except (TownError, KeyboardInterrupt):
        _remove_run(out)  # leave no half-made fork behind
        raise
    return _drive(sim, ticks, out, quiet=args.quiet)


def _flatten(d: dict, prefix: str = "") -> dict:
    """Nested config dict -> dotted keys (None values dropped), for overriding a run's config."""
    out = {}
    for key, value in d.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        elif value is not None:
            out[f"{prefix}{key}"] = value
    return out


def saved_line(path: Path) -> str:
    """What a stopped run holds, in one line: "saved runs/X.sqlite: ticks 0..N, last snapshot at T".

    Raises:
        RecordingError: for a missing or damaged run file.
    """
    from .recording import RunReader

    with RunReader(path) as reader:
        first, last, snapshots = reader.first_tick, reader.last_tick, reader.snapshots()
    ticks = "no ticks yet" if last is None else f"ticks {first}..{last}"
    snap = f"last snapshot at {snapshots[-1][1]}" if snapshots else "no snapshot"
    return f"saved {path}: {ticks}, {snap}"


def _print_summary(path: Path, seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    from .events import EventKind
    from .recording import RunReader

    with RunReader(path) as reader:
        table = Table(title=f"{path} ({seconds:.1f} s wall, ticks {reader.first_tick}..{reader.last_tick})")
        for col in ("persona", "memories", "retrievals", "reflections", "conversations"):
            table.add_column(col, justify="right" if col != "persona" else "left")
        for pid in reader.personas():
            def n(kind):
                return len(reader.events(kinds=[kind], persona=pid))
            convs = sum(1 for e in reader.events(kinds=[EventKind.CONVERSATION]) if pid in e.data["participants"])
            table.add_row(pid, str(n(EventKind.MEMORY)), str(n(EventKind.RETRIEVAL)),
                          str(n(EventKind.REFLECTION)), str(convs))
    Console().print(table)


def cmd_inspect(args: argparse.Namespace) -> int:
    """`town inspect`: print retrieval traces as tables, one row per candidate."""
    from rich.console import Console

    from .clock import parse_game_time
    from .recording import RunReader

    with RunReader(args.run) as reader:
        persona = _persona_id(reader, args.persona)
        until = None
        if args.at:
            at = parse_game_time(args.at, field="--at")
            start = datetime.fromisoformat(reader.meta["start"])
            until = int((at - start).total_seconds() // reader.meta.get("seconds_per_tick", 10))
        rows = reader.retrievals(persona, purpose=args.purpose, until_tick=until, limit=args.last,
                                 newest_first=True)[::-1]
        console = Console()
        if not rows:
            console.print(f"no retrievals of {persona} match")
        for summary in rows:
            trace = reader.retrieval(summary["seq"])
            print_candidates(console, f"#{summary['seq']} {trace['game_time']} {persona} [{trace['purpose']}] "
                                      f"query: {trace['query']!r}  weights={trace['weights']} k={trace['k']} "
                                      f"scored={trace['n_scored']}", trace["candidates"])
    return 0


#: The content column is never narrower than this (characters); below it traces go vertical.
MIN_CONTENT = 30
_NUMBERS = (("hours", "hours", "{:.2f}"), ("recency", "recency", "{:.4f}"), ("importance", "importance", "{}"),
            ("relevance", "relevance", "{:.4f}"), ("rec·n", "recency_part", "{:.3f}"),
            ("imp·n", "importance_part", "{:.3f}"), ("rel·n", "relevance_part", "{:.3f}"), ("total", "total", "{:.4f}"))


def print_candidates(console, title: str, candidates: list[dict]) -> None:
    """Print a retrieval trace's candidates so that it fits ``console.width``.

    A table whose content column wraps (never below :data:`MIN_CONTENT` characters) when the
    terminal is wide enough for it; else one block per candidate (rank and scores on one line,
    the memory's full text wrapped below it).

    Args:
        console: a ``rich.console.Console`` (its width: the terminal's, or ``COLUMNS``).
        title: the trace's heading.
        candidates: ``CandidateScore.to_dict()`` rows, best first.
    """
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    def rank(c):
        return str(c["rank"]) + ("" if c["in_top_k"] else " (runner-up)")

    rows = [(rank(c), *(fmt.format(c[key]) for _, key, fmt in _NUMBERS)) for c in candidates]
    names = ("rank", *(name for name, _, _ in _NUMBERS))
    # every column but the content at its widest cell, the content at its minimum, 3 per border
    fixed = sum(max(len(x) for x in column) for column in zip(names, *rows))
    if fixed + MIN_CONTENT + 3 * (len(names) + 1) + 1 <= console.width:
        table = Table(title=title, title_justify="left", expand=True)
        table.add_column("rank", no_wrap=True)
        table.add_column("content", overflow="fold", min_width=MIN_CONTENT, ratio=1)
        for name in names[1:]:
            table.add_column(name, no_wrap=True, justify="right")
        for c, row in zip(candidates, rows, strict=True):
            table.add_row(row[0], Text(c["content"]), *row[1:])
        console.print(table)
        return
    console.print(Text(title, style="italic"))
    for c, row in zip(candidates, rows, strict=True):
        parts = "  ".join(f"{name} {value}" for name, value in zip(names[1:], row[1:], strict=True))
        console.print(Text(f"rank {row[0]}", style="bold"))
        console.print(Padding(Text(parts, style="dim"), (0, 0, 0, 4)))
        console.print(Padding(Text(c["content"]), (0, 0, 0, 4)))


def _persona_id(reader, name: str) -> str:
    ids = reader.personas()
    if name in ids:
        return name
    names = {v.get("name", k).lower(): k for k, v in (reader.meta.get("personas") or {}).items()}
    if name.lower() in names:
        return names[name.lower()]
    raise ConfigError(f"unknown persona {name!r}; this run has {', '.join(ids)}", field="--persona")


def cmd_stats(args: argparse.Namespace) -> int:
    """`town stats`: print the run's model-call accounting (see :mod:`town.stats`)."""
    from .stats import print_stats

    print_stats(args.run)
    return 0


def cmd_interview(args: argparse.Namespace) -> int:
    """`town interview`: answer a question from a persona's memory as of --at, with the retrieval trace."""
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from .interview import interview
    from .recording import RunReader

    with RunReader(args.run) as reader:
        persona = _persona_id(reader, args.persona)
        at = args.at or reader.frame(reader.last_tick)["time"]
        result = interview(reader, persona, at, args.question)
    console = Console()
    console.print(Text(persona, style="bold") + Text(f" at {result.at:%Y-%m-%d %H:%M} (tick {result.tick}): "
                                                     f"{result.question}"))
    console.print(Padding(Text(result.answer), (0, 0, 0, 2)))
    print_candidates(console, f"retrieval: weights={list(result.weights)} k={result.k} scored={result.n_scored}",
                     [c.to_dict() for c in result.candidates])
    return 0


def cmd_battery(args: argparse.Namespace) -> int:
    """`town evaluate --battery`: ask, grade, print per-category counts, write battery.json."""
    from rich.console import Console
    from rich.table import Table

    from .battery import interview_backend, run_battery
    from .recording import RunReader

    with RunReader(args.run) as reader:
        backend = interview_backend(reader, name=args.backend, model=args.model, base_url=args.base_url)
    result, path = run_battery(args.run, at=args.at, backend=backend, out_dir=args.out)
    s = result["summary"]
    t = Table(title=f"{args.run}: battery at {result['at']} ({result['backend']}"
                    f"{', ablated: ' + result['ablate'] if result['ablate'] else ''})")
    for col in ("category", "correct", "wrong", "don't know", "judge only", "accuracy"):
        t.add_column(col)
    for name, c in s["categories"].items():
        acc = "-" if c["accuracy"] is None else f"{c['accuracy']:.0%}"
        t.add_row(name, str(c["correct"]), str(c["wrong"]), str(c["dont_know"]), str(c["ungraded"]), acc)
    Console().print(t)
    Console().print(f"hallucinations: {s['hallucinations']} in {s['answers']} answers "
                    f"({s['stranger_answers']} about a stranger); written: {path}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """`town compare`: print where two runs part and how their outcomes differ."""
    import json

    from rich.console import Console
    from rich.table import Table

    from .compare import compare, divergence_text, over_time_rows
    from .recording import RunReader

    with RunReader(args.run_a) as a, RunReader(args.run_b) as b:
        if a.meta.get("town") != b.meta.get("town"):
            raise ConfigError(f"{args.run_a} is of {a.meta.get('town')!r} but {args.run_b} of "
                              f"{b.meta.get('town')!r}; compare runs of one town", field="run_b")
        report = compare(a, b)
    console = Console(width=None if sys.stdout.isatty() else 140)
    console.print(f"A {args.run_a} ({report['a']['ablate'] or 'full'}), B {args.run_b} "
                  f"({report['b']['ablate'] or 'full'})")
    console.print(f"first diverging tick: {divergence_text(report)}")
    t = Table(title="side by side")
    for col in ("measure", "A", "B"):
        t.add_column(col)
    for name, c in report["diffusion"].items():
        t.add_row(f"{name}: knowing at the end", str(c["a"][-1] if c["a"] else 0), str(c["b"][-1] if c["b"] else 0))
    for name, g in report["attendance"].items():
        t.add_row(f"{name}: came / invited", *(f"{len(g[s]['attended'])} / {len(g[s]['invited'])}" for s in "ab"))
    t.add_row("model requests", str(report["cost"]["a"]["requests"]), str(report["cost"]["b"]["requests"]))
    t.add_row("tokens", *(str(report["cost"][s]["tokens_in"] + report["cost"][s]["tokens_out"]) for s in "ab"))
    console.print(t)
    header, rows = over_time_rows(report)
    t = Table(title="over time: network density by interview, personas knowing each item by provenance")
    for col in header:
        t.add_column(col)
    for row in rows:
        t.add_row(*row)
    console.print(t)
    r = report["retrievals"]
    mean = "-" if r["mean_jaccard"] is None else f"{r['mean_jaccard']:.3f}"
    console.print(f"retrievals at the same tick, persona and purpose: {r['matched']}, identical top k "
                  f"{r['identical']}, mean Jaccard {mean}")
    if r["first_differing"]:
        f = r["first_differing"]
        console.print(f"first differing retrieval: tick {f['tick']} {f['persona']} ({f['purpose']}) "
                      f"A seq {f['a_seq']} vs B seq {f['b_seq']}, Jaccard {f['jaccard']:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        console.print(f"written: {args.json}")
    return 0


def cmd_study(args: argparse.Namespace) -> int:
    """`town study`: run, interview and grade each condition; print the table beside the paper's."""
    from rich.console import Console
    from rich.table import Table

    from .study import condition_ablate, run_study, table_rows

    _hours(args.hours)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    for c in conditions:
        condition_ablate(c)  # a bad name fails before any run
    judge = None
    if args.judge_base_url or args.judge_model:
        if not (args.judge_base_url and args.judge_model):
            raise ConfigError("give both --judge-base-url and --judge-model", field="--judge-model")
        from .judge import Judge

        judge = Judge(args.judge_base_url, args.judge_model, api_key_env=args.judge_api_key_env)
    if args.ablate:
        raise ConfigError("the study sets each condition's ablations; drop --ablate", field="--ablate")
    started = time.perf_counter()
    study = run_study(args.town, args.hours, conditions, args.out, overrides=_overrides(args), judge=judge,
                      quiet=args.quiet)
    t = Table(title=f"{study['town']}, {args.hours:g} game hours, seed {study['seed']}, interviews at "
                    f"{study['at']} ({time.perf_counter() - started:.0f} s)")
    for col in ("condition", "self-knowledge", "memory", "plans", "hallucinations", "judge μ ± σ",
                "paper TrueSkill μ"):
        t.add_column(col)
    for row in table_rows(study):
        t.add_row(*row)
    console = Console(width=None if sys.stdout.isatty() else 140)
    console.print(t)
    console.print(f"paper ({study['paper_citation']}): human-written condition μ {study['paper']['human']['mu']}; "
                  f"written: {Path(args.out) / 'study.json'}, {Path(args.out) / 'study.png'}")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    """`town evaluate`: interview every persona, print the tables, write report.json + PNG plots."""
    if args.battery:
        return cmd_battery(args)
    from rich.console import Console
    from rich.table import Table

    from .evaluate import diffusion_rows, evaluate, format_summary, write_report
    from .recording import RunReader

    every = _hours(args.every, "--every")
    with RunReader(args.run) as reader:
        report = evaluate(reader, every_hours=every)
    out = Path(args.out) if args.out else Path(args.run).with_suffix(".evaluation")
    paths = write_report(report, out)
    console = Console(width=None if sys.stdout.isatty() else 140)
    ablate = report.get("ablate") or ""
    t = Table(title=f"{args.run}: {report['personas']} personas, {report['hours']:.1f} game hours, "
                    f"answers by the {report['answered_by']} backend{', ablated: ' + ablate if ablate else ''}")
    for col in ("measure", "start", "end", "paper"):
        t.add_column(col)
    for row in format_summary(report):
        t.add_row(*row)
    console.print(t)
    if report["diffusion"]:
        header, rows = diffusion_rows(report)
        dt = Table(title="diffusion at each sample time: share who recall the news when asked "
                         "[upper bound: share holding a memory whose provenance leads to it]")
        for col in header:
            dt.add_column(col)
        for row in rows:
            dt.add_row(*row)
        console.print(dt)
    if args.interview:
        for name, d in report["diffusion"].items():
            it = Table(title=f"interviews at the end: {d['question']}")
            for col in ("persona", "recalled", "provenance", "answer"):
                it.add_column(col, overflow="fold")
            recalled = set(d["series"][-1]["recalled"])
            for pid, answer in d["answers"].items():
                it.add_row(pid, "yes" if pid in recalled else "-", "holds" if pid in d["knowers"] else "-",
                           answer)
            console.print(it)
    citations = sorted({d["paper"]["citation"] for d in report["diffusion"].values() if d.get("paper")}
                       | ({report["density"]["paper"]["citation"]} if report["density"].get("paper") else set()))
    if citations:
        console.print(f"paper figures from the town's probes.yaml ({'; '.join(citations)})")
    console.print(f"written: {', '.join(str(p) for p in paths.values())}")
    return 0


def cmd_generate(args) -> int:
    """``town generate``: write a generated town folder and check that it loads."""
    from .generator import generate_town
    from .scenario import load_scenario

    started = time.perf_counter()
    made = generate_town(args.personas, args.seed, args.out, force=args.force)
    load_scenario(made["folder"])  # the same checks as any town: schema, places, reachability
    w, h = made["size"]
    print(f"wrote {made['folder']}: {made['personas']} personas, {made['sectors']} places on a {w} x {h} map, "
          f"probes {', '.join(made['probes'])} ({time.perf_counter() - started:.1f} s); "
          f"run it with: town simulate --town {made['folder']} --hours 1 --out runs/<name>.sqlite")
    return 0


COMMANDS = {"generate": cmd_generate, "stats": cmd_stats, "simulate": cmd_simulate,
            "inspect": cmd_inspect, "resume": cmd_resume, "fork": cmd_fork, "interview": cmd_interview,
            "evaluate": cmd_evaluate, "study": cmd_study, "compare": cmd_compare}


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None, *, commands: dict | None = None, add_commands=None,
         default: str | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 2 user error, 130 interrupted).

    Args:
        argv: arguments (default ``sys.argv[1:]``).
        commands: more sub-commands by name (``web.cli`` adds serve and replay).
        add_commands: adds their parsers (see :func:`build_parser`).
        default: the sub-command run when none is named ("serve" for ``python run.py``).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {**COMMANDS, **(commands or {})}
    parser = build_parser(add_commands)
    if default and (not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "-v", "--verbose")):
        argv = [default, *argv]
    args = parser.parse_args(argv)
    if args.command is None:
        if not default:
            parser.print_help()
            return 2
        args = parser.parse_args([default, *argv])
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    signal.signal(signal.SIGTERM, _terminate)  # `kill` stops as cleanly as Ctrl-C
    try:
        return commands[args.command](args)
    except TownError as exc:
        print(f"town: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, UnicodeError) as exc:  # a file the user named cannot be read or written
        print(f"town: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("town: interrupted", file=sys.stderr)
        return 130
