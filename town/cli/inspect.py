"""`town inspect`: a recorded run's retrieval traces as tables that fit the terminal."""

from __future__ import annotations

import argparse
from datetime import datetime

from .options import check_count, moment_in_run, persona_id

#: The most retrievals `inspect --last` prints (past SQLite's integers it was an OverflowError).
MAX_LAST = 1_000_000


def cmd_inspect(args: argparse.Namespace) -> int:
    """`town inspect`: print retrieval traces as tables, one row per candidate."""
    from rich.console import Console

    from ..errors import ConfigError
    from ..memory.trace import PURPOSES
    from ..recording import RunReader

    # SQLite reads LIMIT -1 as no limit and LIMIT 0 as nothing
    check_count(args.last, "--last", MAX_LAST, "retrievals")
    if args.purpose is not None and args.purpose not in PURPOSES:
        raise ConfigError(f"unknown purpose {args.purpose!r}; one of: {', '.join(PURPOSES)}", field="--purpose")
    with RunReader(args.run) as reader:
        persona = persona_id(reader, args.persona)
        until = None
        if args.at:
            at = moment_in_run(reader, args.at, "--at")
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
