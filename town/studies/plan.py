"""What a study runs: its conditions, each with N seeds, and the name of each run.

A *study* (Park et al. 2023 §6) compares the full architecture with ablations: each condition
sets the config key ``ablate`` (:func:`condition_ablate`). A *sweep* varies config keys instead:
every combination of the values given with ``--vary KEY=JSON_LIST`` is a condition
(:func:`sweep_conditions`). Either way every condition runs with seeds ``0 .. N-1`` (or the
ones given), and every run is named ``<condition>-s<seed>`` in the study's folder.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..config import ABLATIONS
from ..errors import ConfigError

__all__ = ["PAPER_TRUESKILL", "Condition", "condition_ablate", "study_conditions", "parse_vary",
           "sweep_conditions", "run_name"]

#: Park et al. 2023 §6.5 (Figure 8): TrueSkill (mu, sigma) of each condition; "human" is the
#: paper's human-written condition, which a simulation cannot reproduce.
PAPER_TRUESKILL = {
    "full": (29.89, 0.72),
    "no-reflection": (26.88, 0.69),
    "no-reflection-planning": (25.64, 0.68),
    "human": (22.95, 0.69),
    "no-observation-reflection-planning": (21.21, 0.70),
}

#: What a condition's name may hold: it names files in the study's folder.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._=,+-]*")


@dataclass(frozen=True)
class Condition:
    """One condition of a study: a name and the config keys it sets (dotted key -> value)."""

    name: str
    settings: dict[str, Any] = field(default_factory=dict)


def condition_ablate(name: str) -> str:
    """"full" -> ""; "no-reflection-planning" -> "planning,reflection" (the config key ``ablate``).

    Raises:
        ConfigError: naming ``--conditions`` for a name that is neither "full" nor "no-" followed
            by parts of :data:`town.config.ABLATIONS` joined by "-".
    """
    if name == "full":
        return ""
    parts = name.removeprefix("no-").split("-") if name.startswith("no-") else []
    if not parts or any(p not in ABLATIONS for p in parts):
        raise ConfigError(f"unknown condition {name!r}: use 'full' or 'no-' and parts of "
                          f"{', '.join(ABLATIONS)} joined by '-' (e.g. no-reflection-planning)",
                          field="--conditions")
    return ",".join(sorted(set(parts)))


def study_conditions(names: str) -> list[Condition]:
    """The conditions a comma-separated ``--conditions`` list names, each setting ``ablate``.

    Raises:
        ConfigError: naming ``--conditions`` for a bad or repeated name, or an empty list.
    """
    listed = [c.strip() for c in names.split(",") if c.strip()]
    if not listed or len(set(listed)) != len(listed):
        raise ConfigError(f"{names!r}: give each condition once, comma-separated", field="--conditions")
    return [Condition(c, {"ablate": condition_ablate(c)}) for c in listed]


def parse_vary(items: list[str]) -> dict[str, list[Any]]:
    """``--vary KEY=JSON_LIST`` options as ``{key: values}``, in the order given.

    Raises:
        ConfigError: naming ``--vary`` for an item without ``=``, a value that is not a JSON list
            of at least one value, a repeated key or repeated values.
    """
    out: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{item!r}: expected KEY=JSON_LIST, e.g. 'retrieval.k=[5,10]'", field="--vary")
        try:
            values = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{key}: {text!r} is not JSON ({exc.msg})", field="--vary") from None
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{key}: give a JSON list of values, e.g. [5,10]", field="--vary")
        if key in out:
            raise ConfigError(f"{key} is varied twice", field="--vary")
        if len({json.dumps(v, sort_keys=True) for v in values}) != len(values):
            raise ConfigError(f"{key}: a value is repeated", field="--vary")
        out[key] = values
    if not out:
        raise ConfigError("give at least one --vary KEY=JSON_LIST", field="--vary")
    return out


def _value_name(value: Any) -> str:
    """A value as a file-name part: [1,0.5,1] -> "1-0.5-1", "a b" -> "a_b"."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    text = re.sub(r"[\[\]{}\"']", "", text).replace(",", "-").replace(":", "-")
    return re.sub(r"[^A-Za-z0-9._-]", "_", text) or "empty"


def sweep_conditions(vary: dict[str, list[Any]]) -> list[Condition]:
    """Every combination of the varied values, the first key's values outermost.

    A condition is named ``<last part of key>=<value>`` for each key, joined by ",":
    ``weights=1-0-1,k=5``.

    Raises:
        ConfigError: naming ``--vary`` when two combinations would share a name, for ``ablate``
            (a study's conditions set it) or ``seed`` (every condition runs each of ``--seeds``).
    """
    if "ablate" in vary:
        raise ConfigError("ablate is what `study --conditions` varies; use study", field="--vary")
    if "seed" in vary:
        raise ConfigError("seed is what --seed and --seeds vary (--seed 1 --seeds 2 runs seeds 1 and 2); "
                          "drop it from --vary", field="--vary")
    out = []
    for combo in itertools.product(*vary.values()):
        settings = dict(zip(vary, combo, strict=True))
        name = ",".join(f"{k.rsplit('.', 1)[-1]}={_value_name(v)}" for k, v in settings.items())
        out.append(Condition(name, settings))
    if len({c.name for c in out}) != len(out):
        raise ConfigError("two combinations get the same run name (values that read alike, such as "
                          "[1,1,1] and \"1-1-1\"); give values that differ in their digits or letters", field="--vary")
    return out


def run_name(condition: str, seed: int) -> str:
    """The run's name in the study's folder: ``<condition>-s<seed>``.

    Raises:
        ConfigError: naming the condition when it would not make a plain file name.
    """
    if not _NAME.fullmatch(condition) or ".." in condition:
        raise ConfigError(f"condition {condition!r} does not make a file name", field="--conditions")
    return f"{condition}-s{seed}"
