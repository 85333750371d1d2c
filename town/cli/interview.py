"""`town interview`: one question to a persona of a recorded run, with its retrieval trace."""

from __future__ import annotations

import argparse
from datetime import datetime

from ..errors import ConfigError
from .inspect import print_candidates
from .options import moment_in_run, persona_id


def _moment(reader, at: str | None) -> str | datetime:
    """The time asked about: ``--at`` within the run's span (:func:`~.options.moment_in_run`),
    default its last tick's time."""
    if at is None:
        return reader.frame(reader.last_tick)["time"]
    return moment_in_run(reader, at, "--at")


def _answered_by(result) -> str:
    """Which backend gave the answer, in one line."""
    if result.fallback:
        return (f"answered by the scripted backend: the model's answer failed after {result.requests} "
                "request(s) and fell back")
    requests = f", {result.requests} request(s)" if result.requests else ""
    return f"answered by the {result.backend} backend{requests}"


#: The longest question, as the viewer's interview tabs take (`web/views.py`, `web/replay_views.py`):
#: a question of any length was embedded and matched against every memory.
MAX_QUESTION = 500


def cmd_interview(args: argparse.Namespace) -> int:
    """`town interview`: answer a question from a persona's memory as of --at, with the retrieval trace.

    The answer comes from the scripted backend, or from the model named by ``--backend``,
    ``--base-url``, ``--model``, ``--api-key-env`` (never the one the run file stores); the line
    after it says which backend gave it.

    Raises:
        ConfigError: naming ``question`` when it is empty (or only spaces) or longer than
            :data:`MAX_QUESTION` characters, ``--at`` outside the
            run's span (:func:`_moment`), ``--persona`` for an unknown persona.
        ThinkingError: when the model server cannot be reached.
    """
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from ..analysis.interview import interview
    from ..analysis.recorded import NamedModel, load_embedder, run_backend, scripted_note
    from ..recording import RunReader

    question = args.question.strip()
    if not question:
        raise ConfigError("is empty; ask something, e.g. 'Do you know about a party?'", field="question")
    if len(question) > MAX_QUESTION:
        raise ConfigError(f"is {len(question):,} characters long; ask at most {MAX_QUESTION}", field="question")
    with RunReader(args.run) as reader:
        if reader.last_tick is None:
            raise ConfigError(f"{reader.path} has no recorded tick yet", field="run")
        persona = persona_id(reader, args.persona)
        at = _moment(reader, args.at)
        named = NamedModel.from_args(args)
        note = scripted_note(reader, named)
        embedder = load_embedder(reader, named)
        parts = run_backend(reader, named)
        try:
            result = interview(reader, persona, at, question, backend=parts, embedder=embedder)
        finally:
            parts.backend.close()
    console = Console()
    console.print(Text(persona, style="bold") + Text(f" at {result.at:%Y-%m-%d %H:%M} (tick {result.tick}): "
                                                     f"{result.question}"))
    console.print(Padding(Text(result.answer), (0, 0, 0, 2)))
    console.print(Text(_answered_by(result)), style="dim")
    if note:
        console.print(Text(f"note: {note}"), style="dim")
    print_candidates(console, f"retrieval: weights={list(result.weights)} k={result.k} scored={result.n_scored}",
                     [c.to_dict() for c in result.candidates])
    return 0
