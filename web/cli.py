"""The viewer's sub-commands, `serve` (the default) and `replay`, joined to the engine's CLI.

``python run.py`` and the ``town`` console script run :func:`main`: the engine's command line
(:mod:`town.cli`) plus these two, which need the web layer the engine never imports.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from urllib.parse import quote

from town.analysis.recorded import NamedModel
from town.cli import add_model_choice, add_sim_options, build_simulation, remove_run, saved_line
from town.cli.options import check_out
from town.cli import main as town_main
from town.errors import ConfigError, RecordingError, TownError

from web.listen import allowed_hosts, check_listen, host_name, port

__all__ = ["main", "cmd_serve", "cmd_replay", "cmd_demo", "DEMO_TOWN", "DEMO_HOURS", "SERVE_TOWN", "STOP_TIMEOUT_S"]

#: Wall seconds a stop request waits for the runner (2 s of grace, then its model waits are
#: cancelled) before a tick stuck in a model request is abandoned and the process ends.
STOP_TIMEOUT_S = 3.0
#: The demo: 36 game hours of the 25-person town (Monday 07:00 to Tuesday 19:00, so through
#: Isabella's Valentine's party, 17:00-19:00), cached as runs/demo-smallville.sqlite.
DEMO_TOWN, DEMO_HOURS = "smallville", 36
#: What `serve` (and plain `python run.py`) runs without --town: the 25-person town.
SERVE_TOWN = "smallville"
DEMO_NAME = f"demo-{DEMO_TOWN}"


VERBOSE_HELP = "also log every HTTP request the viewer answers (off by default: about 20 lines a page load)"
#: What `serve` suggests at start, after the URL: the first thing worth a click.
TRY_FIRST = "town: try first: pick someone under Follow, then click one of their Latest retrievals"


def _request_log(verbose: bool) -> None:
    """Show werkzeug's one line per HTTP request only with ``-v/--verbose``.

    werkzeug logs each request at INFO on its ``werkzeug`` logger, which reaches the root
    handler the CLI sets up; WARNING and above (a failed bind, a crash) are always shown.
    """
    logging.getLogger("werkzeug").setLevel(logging.INFO if verbose else logging.WARNING)


def _add_verbose(parser: argparse.ArgumentParser) -> None:
    """Accept ``-v/--verbose`` after the sub-command too (``serve -v``), as before it."""
    parser.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help=VERBOSE_HELP)


ALLOWED_HELP = ("beyond loopback, a further name the Host header may give (repeatable); requests naming "
                "any host but loopback, --host and these get 400")


def add_commands(sub) -> None:
    """Add the serve and replay parsers to the CLI's sub-parsers."""
    s = sub.add_parser("serve", help="run a town live and serve the viewer (default)")
    add_sim_options(s, town=SERVE_TOWN)
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=port, default=5000, help="TCP port (default 5000; 0 picks a free one)")
    s.add_argument("--allowed-host", action="append", type=host_name, metavar="NAME", help=ALLOWED_HELP)
    s.add_argument("--speed", default="8", help="ticks per wall second: 1..64 or 'max' (default 8)")
    s.add_argument("--runs", default="runs", help="runs folder (default runs/)")
    s.add_argument("--out", help="run file to record to (default runs/<timestamp>.sqlite)")
    s.add_argument("--player", metavar="NAME", help="join the town as NAME: walk with the arrow keys "
                   "(or click a tile) and talk to the person next to you")
    _add_verbose(s)

    s = sub.add_parser("replay", help="serve the viewer over a saved run and open its replay page")
    s.add_argument("run", help="run file (.sqlite); the viewer serves the runs in its folder")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=port, default=5000, help="TCP port (default 5000; 0 picks a free one)")
    s.add_argument("--allowed-host", action="append", type=host_name, metavar="NAME", help=ALLOWED_HELP)
    s.add_argument("--no-open", action="store_true", help="only print the URL, do not open a browser")
    add_model_choice(s)
    _add_verbose(s)

    s = sub.add_parser("demo", help=f"simulate {DEMO_TOWN} for {DEMO_HOURS} game hours, through the party "
                                    "(once; cached) and open its replay with the evaluation charts")
    s.add_argument("--runs", default="runs", help=f"runs folder holding {DEMO_NAME}.sqlite (default runs/)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=port, default=5000, help="TCP port (default 5000; 0 picks a free one)")
    s.add_argument("--no-open", action="store_true", help="only print the URL, do not open a browser")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_verbose(s)


def cmd_serve(args: argparse.Namespace) -> int:
    """`town serve` (and plain `python run.py`): run a town live and serve the viewer.

    The run is recorded to ``--out`` (default ``runs/<timestamp>.sqlite``, unique even for two
    serves started in the same second). Ctrl-C stops the runner after its tick (a tick still
    waiting for the model 2 s later is cancelled and not recorded), writes a snapshot between
    ticks and closes the run cleanly, within 5 s. Ctrl-C during start-up leaves no run file.

    A tick that fails (a bug, a full disk, a model that never answers) shows as ``failed`` in
    the viewer, which stays up until Ctrl-C; the run file keeps every tick before it.

    Returns:
        0 after a stop; 2 after a failure caused by input, files or the model server
        (a :class:`~town.errors.TownError`), 1 after any other failure.
    """
    from town.recording.runs import new_run_path
    from town.runner import check_speed

    speed = check_speed(None if str(args.speed).lower() == "max" else _number(args.speed, "--speed"))
    runs = Path(args.runs)
    if args.out:
        check_out(args.out)
    if args.out and Path(args.out).exists():
        raise ConfigError(f"{args.out} already exists; choose another --out", field="--out")
    allowed = allowed_hosts(args)
    check_listen(args.host, args.port)
    _request_log(args.verbose)
    out = Path(args.out) if args.out else new_run_path(runs)
    sim = session = None
    try:
        sim = build_simulation(args, out)
        if args.player is not None:  # --player "" is refused, not ignored
            from town.simulation.inputs import parse_input

            sim.act(parse_input({"kind": "join", "name": args.player}))
        from web.server import LiveSession

        try:
            session = LiveSession(sim, host=args.host, port=args.port, speed=speed,
                                  config={"RUNS_DIR": str(runs.resolve()), "ALLOWED_HOSTS": allowed,
                                          "ANALYSIS_MODEL": NamedModel.from_args(args)}).start()
        except (OSError, SystemExit) as exc:  # werkzeug exits on "address already in use"
            reason = getattr(exc, "strerror", None) or "the address is in use or not valid"
            raise ConfigError(f"cannot listen on {args.host}:{args.port}: {reason}; pass another --port "
                              "or --host", field="--port") from None
    except BaseException:  # a bad option, Ctrl-C, a full disk: nothing half-made is left
        if session is not None:
            session.close()
        if sim is not None:
            try:
                sim.close(finished=False)
            except TownError:
                pass  # the run file is removed anyway
        remove_run(out)
        raise
    url = session.url + (f"/?token={session.token}" if session.token else "/")
    lines = [f"town: {sim.scenario.name} is live at {url}  (recording to {out}; Ctrl-C stops and saves it)"]
    if session.token:
        lines.append(f"town: listening beyond loopback on {args.host}; controls need the token {session.token}")
    from web.live import live

    for seat in live(session.app).seats.seats.values():  # `--player NAME`: the page that plays it
        lines.append(f"town: you are {seat.name}: play at {url}{'&' if '?' in url else '?'}player={seat.secret}")
    lines.append(TRY_FIRST)
    return _serve_until_stopped(session, sim, lines)


def _serve_until_stopped(session, sim, lines: list[str]) -> int:
    """Print ``lines``, wait for Ctrl-C or a failed tick, close the run; the exit code."""
    runner = session.runner
    code = 0
    try:
        for line in lines:
            print(line, flush=True)
        while runner.status()["state"] not in ("failed", "stopped", "finished"):
            time.sleep(0.2)
        if runner.error is not None:
            code = 2 if isinstance(runner.error, TownError) else 1
            sim.close(finished=False)  # what was recorded is on disk now
            kept = "" if isinstance(runner.error, RecordingError) else f"; {_kept(sim.run_path)}"
            print(f"town: error: {runner.status()['reason']}{kept}; the viewer stays up to show it "
                  "(Ctrl-C to exit)", file=sys.stderr, flush=True)
            while True:
                time.sleep(0.5)
    except KeyboardInterrupt:
        if code == 0:
            print("town: stopping after this tick ...", file=sys.stderr, flush=True)
    ended = runner.stop(timeout=STOP_TIMEOUT_S)
    if not ended:
        sim.abandon("a model request did not end after the stop request")
    try:
        sim.close(finished=False)
    finally:
        session.server.shutdown()
    try:
        print(f"town: {saved_line(sim.run_path)}", flush=True)
    except TownError:
        pass  # the error above already said what the run file keeps
    if not ended:
        # a worker thread is stuck in a model request that cannot be interrupted; everything
        # recorded is closed on disk, so end the process now rather than when the request ends
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _kept(path: Path) -> str:
    """"the run file X keeps ticks 0..N" for an error message."""
    from town.recording import RunReader

    try:
        with RunReader(path) as reader:
            last = reader.last_tick
    except TownError:
        return f"the run file {path} could not be read"
    if last is None:
        return f"the run file {path} holds no tick"
    return f"the run file {path} keeps ticks 0..{last} (replay it, or resume it)"


def _number(text: str, field: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConfigError(f"{text!r} is not a number (1..64 or 'max')", field=field) from None


def cmd_replay(args: argparse.Namespace, tick: int | None = None) -> int:
    """`town replay RUN`: serve the replay page of a saved run until Ctrl-C.

    The viewer's runs folder is the run's folder; the replay URL is printed (and opened), at
    ``tick`` when given. Only the run file is read; its stored backend is shown, never contacted
    (a model named by ``--backend``/``--base-url``/``--api-key-env`` answers evaluations POSTed
    with the token).
    """
    import webbrowser

    from town.recording import RunReader
    from town.recording.runs import RUN_SUFFIX

    path = Path(args.run)
    if path.suffix != RUN_SUFFIX:
        raise ConfigError(f"{path}: a run file ends in {RUN_SUFFIX}", field="RUN")
    with RunReader(path) as reader:  # a missing or damaged run is a clear error (exit 2)
        if reader.last_tick is None:
            raise ConfigError(f"{path} has no recorded tick to replay", field="RUN")
    from web import create_app
    from web.server import LiveServer

    allowed = allowed_hosts(args)
    check_listen(args.host, args.port)
    _request_log(args.verbose)
    app = create_app({"RUNS_DIR": str(path.resolve().parent), "HOST": args.host, "ALLOWED_HOSTS": allowed,
                      "ANALYSIS_MODEL": NamedModel.from_args(args)})
    try:
        server = LiveServer(app, args.host, args.port)
    except (OSError, SystemExit) as exc:  # werkzeug exits on "address already in use"
        reason = getattr(exc, "strerror", None) or "the address is in use or not valid"
        raise ConfigError(f"cannot listen on {args.host}:{args.port}: {reason}; pass another --port "
                          "or --host", field="--port") from None
    named, token = app.config["ANALYSIS_MODEL"], app.config["CONTROL_TOKEN"]
    asks = named.name != "scripted"
    url = (f"{server.url}/replay/{quote(path.stem)}" + (f"?token={token}" if asks and token else "")
           + ("" if tick is None else f"#t={tick}"))
    print(f"town: replaying {path} at {url}  (all runs: {server.url}/runs; Ctrl-C to stop)", flush=True)
    if asks:
        print(f"town: evaluations are scripted; the page's button (POST {server.url}/api/runs/{quote(path.stem)}"
              f"/evaluation) asks {named.base_url or named.name}" + (f" with the token {token}" if token else ""),
              flush=True)
    if not args.no_open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """`town demo`: replay a cached 36-hour Smallville run, simulating it first if there is none.

    The run is ``<runs>/demo-smallville.sqlite``: a finished one is opened at once; an
    interrupted one is resumed from its last snapshot to the end of its 36 hours; else it is
    simulated (scripted mind, default embedder, with a progress bar, or progress lines without a
    terminal); an older town's, refused. The replay opens at the run's liveliest moment
    (:func:`town.analysis.moments.liveliest`).
    """
    from town.cli import build_parser, cmd_resume, cmd_simulate
    from town.errors import RecordingError
    from town.recording import SCHEMA_VERSION, RunReader, stored_version

    path = Path(args.runs) / f"{DEMO_NAME}.sqlite"
    quiet = ["--quiet"] if args.quiet else []
    parse = build_parser(add_commands).parse_args
    if path.exists() and isinstance(version := stored_version(path), int) and version < SCHEMA_VERSION:
        raise RecordingError(f"{path} was made by an older town (run file schema_version {version}, this town "
                             f"reads {SCHEMA_VERSION}): delete it, and `python run.py demo` makes it again")
    if not path.exists():
        print(f"town: simulating {DEMO_TOWN} for {DEMO_HOURS} game hours into {path} (once; later "
              "`demo` opens it at once)", flush=True)
        cmd_simulate(parse(["simulate", "--town", DEMO_TOWN, "--hours", str(DEMO_HOURS), "--out", str(path),
                            *quiet]))
    else:
        with RunReader(path) as reader:
            done = reader.meta.get("finished") and reader.last_tick is not None
            left = 0 if done else DEMO_HOURS - ((reader.last_tick or 0) + 1) * reader.meta.get(
                "seconds_per_tick", 10) / 3600
        if left > 0:
            print(f"town: {path} was interrupted; simulating the remaining {left:.1f} game hours", flush=True)
            cmd_resume(parse(["resume", str(path), "--hours", f"{left:.4f}", *quiet]))
    from town.analysis.moments import liveliest

    with RunReader(path) as reader:
        lively = liveliest(reader)
    replay = ["replay", str(path), "--host", args.host, "--port", str(args.port)] + (["-v"] if args.verbose else [])
    return cmd_replay(parse(replay + (["--no-open"] if args.no_open else [])), tick=lively)


def main(argv: list[str] | None = None) -> int:
    """The full `town` CLI: engine commands plus serve (the default) and replay."""
    return town_main(argv, commands={"serve": cmd_serve, "replay": cmd_replay, "demo": cmd_demo},
                     add_commands=add_commands, default="serve")
