"""`town interview`: one question to a persona of a recorded run, with its retrieval trace."""

from __future__ import annotations

import argparse

from .inspect import print_candidates
from .options import persona_id


def cmd_interview(args: argparse.Namespace) -> int:
    """`town interview`: answer a question from a persona's memory as of --at, with the retrieval trace."""
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from ..analysis.interview import interview
    from ..recording import RunReader

    with RunReader(args.run) as reader:
        persona = persona_id(reader, args.persona)
        at = args.at or reader.frame(reader.last_tick)["time"]
        result = interview(reader, persona, at, args.question)
    console = Console()
    console.print(Text(persona, style="bold") + Text(f" at {result.at:%Y-%m-%d %H:%M} (tick {result.tick}): "
                                                     f"{result.question}"))
    console.print(Padding(Text(result.answer), (0, 0, 0, 2)))
    print_candidates(console, f"retrieval: weights={list(result.weights)} k={result.k} scored={result.n_scored}",
                     [c.to_dict() for c in result.candidates])
    return 0
