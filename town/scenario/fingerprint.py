"""What a run records of its persona files, so that `resume` can tell one edited since.

A persona file's fingerprint is one short hash per top-level field of its parsed YAML, so a
change is named by field (``age, lifestyle``), and comments or layout may change freely.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from .checks import read_yaml

if TYPE_CHECKING:
    from .town_spec import Scenario

__all__ = ["persona_fingerprints", "check_persona_files"]


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def persona_fingerprints(scenario: Scenario) -> dict[str, dict[str, str]]:
    """``{file name: {field: hash}}`` for each persona file of the town folder.

    A file that is not on disk (a scenario built in memory) is left out. The hash is the first
    16 hex digits of the SHA-256 of the field's value as sorted JSON.

    Raises:
        ConfigError: naming a file that cannot be read or parsed.
    """
    prints = {}
    for spec in scenario.personas:
        path = scenario.folder / f"{spec.id}.yaml"
        if path.is_file():
            data = read_yaml(path)
            fields = data if isinstance(data, dict) else {"": data}
            prints[path.name] = {str(k): _digest(v) for k, v in fields.items()}
    return prints


def check_persona_files(recorded: dict[str, dict[str, str]], scenario: Scenario) -> None:
    """Refuse to go on when a persona file differs from what the run recorded at its start.

    Args:
        recorded: the run's meta ``persona_files`` (:func:`persona_fingerprints` at its start).
        scenario: the town as loaded now.

    Raises:
        ConfigError: naming the first persona file (by name) that is new, gone, or has fields
            added, removed or changed, and those fields.
    """
    now = persona_fingerprints(scenario)
    advice = "put it back as it was, or fork the run to go on with the edited town"
    for name in sorted(set(recorded) | set(now)):
        path = scenario.folder / name
        if name not in now:
            raise ConfigError(f"gone since the run started; {advice}", file=path)
        if name not in recorded:
            raise ConfigError(f"new since the run started; {advice}", file=path)
        before, after = recorded[name], now[name]
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            raise ConfigError(f"{', '.join(changed)} changed since the run started; {advice}", file=path)
