"""Turning command-line options into checked values.

--set pairs, game hours, ticks, config overrides, a persona named by id or full name.
"""

from __future__ import annotations

import argparse
import math
from datetime import datetime
from pathlib import Path

from ..errors import ConfigError
from ..names import same_name


def set_pairs(items: list[str]) -> dict:
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


def check_out(out: str | Path) -> Path:
    """A new run file's ``--out``: ending in ``.sqlite``, with a name the viewer serves
    (:func:`town.recording.runs.run_name_problem`), checked before anything is made.

    Raises:
        ConfigError: naming --out and what is wrong with it.
    """
    from ..recording.runs import run_name_problem

    problem = run_name_problem(out)
    if problem is not None:
        raise ConfigError(problem, field="--out")
    return Path(out)


#: The most game hours an option takes (about 114 game years): beyond about 5e304 hours their
#: seconds overflow to infinity, and ``--hours 1e308`` was a "cannot convert float NaN" traceback.
MAX_HOURS = 1_000_000


def check_hours(value: float, field: str = "--hours") -> float:
    """Check a number of game hours: finite, > 0 and at most :data:`MAX_HOURS`.

    Raises:
        ConfigError: naming ``field`` otherwise.
    """
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"must be a finite number of game hours > 0, got {value}", field=field)
    if value > MAX_HOURS:
        raise ConfigError(f"must be at most {MAX_HOURS:,} game hours, got {value}", field=field)
    return value


def check_count(value: int, field: str, high: int, what: str) -> int:
    """Check a count given on the command line: 1 to ``high`` (a number past SQLite's or Python's
    integers was an OverflowError traceback).

    Raises:
        ConfigError: naming ``field``, e.g. "--last: must be at most 1,000,000 retrievals, got ...".
    """
    if value < 1:
        raise ConfigError(f"must be at least 1, got {value}", field=field)
    if value > high:
        raise ConfigError(f"must be at most {high:,} {what}, got {value:,}", field=field)
    return value


def moment_in_run(reader, text: str, field: str = "--at") -> datetime:
    """The game time ``text`` (``--at``), checked to lie within the run's span: from its start to
    the end of its last tick.

    Raises:
        ConfigError: naming ``field`` when ``text`` is no game time, or before the run's start or
            after the end of its last tick (the message gives the span).
    """
    from ..analysis.recorded import run_span
    from ..clock import parse_game_time, time_text

    when = parse_game_time(text, field=field)
    span = run_span(reader)
    start, end = datetime.fromisoformat(span["start"]), datetime.fromisoformat(span["end"])
    if not start <= when <= end:
        where = "before the run starts" if when < start else "after the run ends"
        ticks = "no ticks" if span["last_tick"] is None else f"ticks 0-{span['last_tick']}"
        raise ConfigError(f"{time_text(when)} is {where}: {reader.path} covers {time_text(start)} to "
                          f"{time_text(end)} ({ticks})", field=field)
    return when


def ticks_for(hours: float, seconds_per_tick: int) -> int:
    """Ticks in ``hours`` game hours at ``seconds_per_tick`` game seconds a tick (at least one).

    Raises:
        ConfigError: naming --hours when that is less than one tick.
    """
    ticks = int(hours * 3600 // seconds_per_tick)
    if ticks < 1:
        raise ConfigError(f"{hours} game hours is less than one tick ({seconds_per_tick} "
                          "game seconds)", field="--hours")
    return ticks


def overrides(args: argparse.Namespace) -> dict:
    """The configuration overrides (dotted key -> value) the options of ``args`` name."""
    over = set_pairs(args.set)
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
    if getattr(args, "run_ahead", False):
        over["schedule"] = "run-ahead"
    return over


def persona_id(reader, name: str) -> str:
    """The id of the persona named ``name`` in the run (:func:`named_persona`).

    Raises:
        ConfigError: naming --persona and listing the run's ids for an unknown name.
    """
    listed = reader.meta.get("personas") or {}
    names = {pid: str((listed.get(pid) or {}).get("name", pid)) for pid in reader.personas()}
    return named_persona(names, name, "--persona", f"unknown persona {name!r}; this run has")


def named_persona(names: dict[str, str], name: str, field: str, unknown: str) -> str:
    """The id of the persona called ``name``: its id, or its name as people read it (case,
    accents and punctuation aside: :func:`town.names.same_name`; "kláus mueller." is Klaus Mueller).

    Args:
        names: persona id -> full name, in the order they are listed.
        name: what the user typed.
        field: the option named by the error.
        unknown: the error's opening for an unknown name; the ids follow it.

    Raises:
        ConfigError: naming ``field``: ``unknown`` and the ids, for a name no persona has.
    """
    if name in names:
        return name
    named = [k for k, v in names.items() if same_name(v, name)]
    if len(named) == 1:
        return named[0]
    raise ConfigError(f"{unknown} {', '.join(names)}", field=field)


def whisper_pairs(items: list[str]) -> list[tuple[str, str]]:
    """``--whisper "PERSONA_ID: text"`` options as (persona id, text) pairs, in order.

    Raises:
        ConfigError: naming --whisper for an item without "ID:" before its text.
    """
    pairs = []
    for item in items:
        pid, colon, text = item.partition(":")
        if not colon or not pid.strip():
            raise ConfigError(f'{item!r}: expected "PERSONA_ID: text", e.g. "isabella_rodriguez: I am '
                              'hosting a quiz night at Hobbs Cafe on Friday at 6pm"', field="--whisper")
        pairs.append((pid.strip(), text.strip()))
    return pairs
