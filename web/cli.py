"""The viewer's sub-commands, `serve` (the default) and `replay`, joined to the engine's CLI.

``python run.py`` and the ``town`` console script run :func:`main`: the engine's command line
(:mod:`town.cli`) plus these two, which need the web layer the engine never imports.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import quote

from town.cli import _add_sim_options, _remove_run, build_simulation
from town.cli import main as town_main
from town.errors import ConfigError, RecordingError, TownError

__all__ = ["main", "cmd_serve", "cmd_replay", "STOP_TIMEOUT_S"]

#: Wall seconds a stop request waits for the runner (2 s of grace, then its model waits are
#: cancelled) before a tick stuck in a model request is abandoned and the process ends.
STOP_TIMEOUT_S = 3.0


def _port(text: str) -> int:
    """Parse --port: a TCP port 0..65535 (0 picks a free one), for argparse."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0..65535)")
    return port


def _check_listen(host: str, port: int) -> None:
    """Fail early, with one line, when ``host:port`` cannot be listened on.

    Raises:
        ConfigError: naming --port or --host.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"cannot resolve {host!r}: {exc}", field="--host") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}; pass another --port",
                              field="--port") from None


def add_commands(sub) -> None:
    """Add the serve and replay parsers to the CLI's sub-parsers."""
    s = sub.add_parser("serve", help="run a town live and serve the viewer (default)")
    _add_sim_options(s)
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=_port, default=5000, help="TCP port (default 5000; 0 picks a free one)")
    s.add_argument("--speed", default="8", help="ticks per wall second: 1..64 or 'max' (default 8)")
    s.add_argument("--runs", default="runs", help="runs folder (default runs/)")
    s.add_argument("--out", help="run file to record to (default runs/<timestamp>.sqlite)")

    s = sub.add_parser("replay", help="serve the viewer over a saved run and open its replay page")
    s.add_argument("run", help="run file (.sqlite); the viewer serves the runs in its folder")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=_port, default=5000, help="TCP port (default 5000; 0 picks a free one)")
    s.add_argument("--no-open", action="store_true", help="only print the URL, do not open a browser")



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
    if args.out and Path(args.out).exists():
        raise ConfigError(f"{args.out} already exists; choose another --out", field="--out")
    _check_listen(args.host, args.port)
    out = Path(args.out) if args.out else new_run_path(runs)
    sim = session = None
    try:
        sim = build_simulation(args, out)
        from web.server import LiveSession

        try:
            session = LiveSession(sim, host=args.host, port=args.port, speed=speed,
                                  config={"RUNS_DIR": str(runs.resolve())}).start()
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
        _remove_run(out)
        raise
    url = session.url + (f"/?token={session.token}" if session.token else "/")
    lines = [f"town: {sim.scenario.name} is live at {url}  (recording to {out}; Ctrl-C to stop)"]
    if session.token:
        lines.append(f"town: listening beyond loopback on {args.host}; controls need the token {session.token}")
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


def cmd_replay(args: argparse.Namespace) -> int:
    """`town replay RUN`: serve the replay page of a saved run until Ctrl-C.

    The viewer's runs folder is the run's folder; the replay URL is printed (and opened). Only
    the run file is read.
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

    _check_listen(args.host, args.port)
    app = create_app({"RUNS_DIR": str(path.resolve().parent), "HOST": args.host})
    try:
        server = LiveServer(app, args.host, args.port)
    except (OSError, SystemExit) as exc:  # werkzeug exits on "address already in use"
        reason = getattr(exc, "strerror", None) or "the address is in use or not valid"
        raise ConfigError(f"cannot listen on {args.host}:{args.port}: {reason}; pass another --port "
                          "or --host", field="--port") from None
    url = f"{server.url}/replay/{quote(path.stem)}"
    print(f"town: replaying {path} at {url}  (all runs: {server.url}/runs; Ctrl-C to stop)", flush=True)
    if not args.no_open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0




def main(argv: list[str] | None = None) -> int:
    """The full `town` CLI: engine commands plus serve (the default) and replay."""
    return town_main(argv, commands={"serve": cmd_serve, "replay": cmd_replay},
                     add_commands=add_commands, default="serve")
