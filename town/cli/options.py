"""Turning command-line options into checked values.

--set pairs, game hours, ticks, config overrides, a persona named by id or full name.
"""

from __future__ import annotations

import argparse
import math

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


def check_hours(value: float, field: str = "--hours") -> float:
    """Check a number of game hours: finite and > 0.

    Raises:
        ConfigError: naming ``field`` otherwise.
    """
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"must be a finite number of game hours > 0, got {value}", field=field)
    return value


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
    """The id of the persona named ``name`` in the run: its id, or its name as people read it
    (case, accents and punctuation aside: :func:`town.names.same_name`; "kláus mueller." is Klaus Mueller).

    Raises:
        ConfigError: naming --persona and listing the run's ids for an unknown name.
    """
    ids = reader.personas()
    if name in ids:
        return name
    named = [k for k, v in (reader.meta.get("personas") or {}).items() if same_name(str(v.get("name", k)), name)]
    if len(named) == 1:
        return named[0]
    raise ConfigError(f"unknown persona {name!r}; this run has {', '.join(ids)}", field="--persona")


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
