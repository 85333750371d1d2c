"""Turning command-line options into checked values.

--set pairs, game hours, ticks, config overrides, the model server a run goes on with, a persona
named by id or full name.
"""

from __future__ import annotations

import argparse
import copy
import math
from typing import Any

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


def server_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The model server ``resume`` and ``fork`` name: ``--base-url`` (repeatable), ``--api-key-env``."""
    over: dict[str, Any] = {}
    if args.base_url:
        over["backend.base_url"], over["backend.more_base_urls"] = args.base_url[0], list(args.base_url[1:])
    if args.api_key_env:
        over["backend.api_key_env"] = args.api_key_env
    return over


def named_server(config: dict[str, Any], over: dict[str, Any], run: str) -> dict[str, Any]:
    """Run ``run``'s stored configuration ``config`` with its model server's address and key
    variable only those the command names in ``over`` (dotted keys: ``backend.base_url``,
    ``backend.more_base_urls``, ``backend.api_key_env``, default ``OPENAI_API_KEY``), never the
    stored ones: a run file is data (ARCHITECTURE.md).

    Raises:
        ConfigError: naming --base-url when the backend or embedder, as stored or as ``over``
            sets them, asks a server and the command names none.
    """
    config = copy.deepcopy(config)
    backend = config.setdefault("backend", {})
    name, embedder = over.get("backend.name", backend.get("name")), over.get("embedder", config.get("embedder"))
    url = over.get("backend.base_url")
    if not url and (name == "openai" or embedder == "openai"):
        raise ConfigError(f"{run} was recorded with a model server ({backend.get('base_url') or 'none stored'}); "
                          "a run file's server is never contacted: name it with --base-url (and its key's "
                          "variable with --api-key-env)", field="--base-url")
    backend.update(base_url=url, more_base_urls=list(over.get("backend.more_base_urls") or []),
                   api_key_env=over.get("backend.api_key_env") or "OPENAI_API_KEY")
    return config


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
