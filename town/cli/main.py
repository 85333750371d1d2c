"""Running the `town` command line: the commands by name, exit codes, signals."""

from __future__ import annotations

import logging
import signal
import sys

from ..errors import TownError
from ..text import text_problem
from .compare import cmd_compare
from .evaluate import cmd_evaluate
from .generate import cmd_generate
from .inspect import cmd_inspect
from .interview import cmd_interview
from .parser import build_parser
from .simulate import cmd_fork, cmd_resume, cmd_simulate
from .stats import cmd_stats
from .study import cmd_study, cmd_sweep

COMMANDS = {"generate": cmd_generate, "stats": cmd_stats, "simulate": cmd_simulate,
            "inspect": cmd_inspect, "resume": cmd_resume, "fork": cmd_fork, "interview": cmd_interview,
            "evaluate": cmd_evaluate, "study": cmd_study, "sweep": cmd_sweep,
            "compare": cmd_compare}


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def _unfit_argument(args, argv: list[str]) -> str | None:
    """The error line for the first argument that is unfit text (:func:`town.text.text_problem`).

    Non-UTF-8 bytes in an argument reach Python as lone surrogates. The argument is named by its
    option (``--player``) when it was given as one, else by its name (``question``).
    """
    for dest, value in vars(args).items():
        for text in value if isinstance(value, list) else [value]:
            problem = text_problem(text) if isinstance(text, str) else None
            if problem is not None:
                option = "--" + dest.replace("_", "-")
                given = any(a == option or a.startswith(option + "=") for a in argv)
                return f"town: error: {option if given else dest}: {problem}"
    return None


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
    unfit = _unfit_argument(args, argv)
    if unfit is not None:
        print(unfit, file=sys.stderr)
        return 2
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
