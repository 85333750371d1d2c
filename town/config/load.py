"""Reading the configuration: the packaged defaults, then a user's TOML file, then overrides.

The defaults live in ``town/default.toml``; overrides come from CLI flags (dotted keys, texts
read as the setting's type). Unknown keys are refused before anything is merged, naming the file.
"""

from __future__ import annotations

import tomllib
import types
import typing
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..files import read_bounded
from .messages import is_table
from .models import Config

__all__ = ["load_config"]


def _target_type(path: str) -> Any:
    kind: Any = Config
    for part in path.split("."):
        if not is_table(kind) or part not in kind.model_fields:
            raise ConfigError("unknown setting", file="overrides", field=path)
        kind = kind.model_fields[part].annotation
    return kind


def _parse_text(kind: Any, text: str, path: str) -> Any:
    """Turn a command-line text into the value the setting at ``path`` takes."""
    if isinstance(kind, types.UnionType):  # X | None
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    inner = kind
    try:
        if typing.get_origin(inner) is tuple:
            return [float(v) for v in text.strip("[]() ").split(",")]
        if inner is bool:
            return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}[
                text.lower()
            ]
        return {int: int, float: float}.get(inner, str)(text)
    except (KeyError, ValueError):
        raise ConfigError(
            f"cannot read {text!r} as this setting's type", file="overrides", field=path
        ) from None


def _merge(base: dict, extra: dict, prefix: str, *, parse: bool) -> None:
    """Merge ``extra`` into ``base`` in place; with ``parse``, check keys and read texts."""
    for key, value in extra.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if "." in str(key):  # dotted override "backend.model"
            head, rest = str(key).split(".", 1)
            _merge(base, {head: {rest: value}}, prefix, parse=parse)
            continue
        kind = _target_type(path) if parse else None
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value, path, parse=parse)
        elif parse and isinstance(value, str) and not is_table(kind):
            base[key] = _parse_text(kind, value, path)
        else:
            base[key] = value


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_bounded(path))
    except FileNotFoundError:
        raise ConfigError("configuration file not found", file=path) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read it: {exc.strerror}", file=path) from None


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> Config:
    """Load the defaults, then ``path`` (TOML) over them, then ``overrides`` over both.

    Args:
        path: a TOML file with any subset of the settings, or None for the defaults alone.
        overrides: settings by dotted key (``{"retrieval.k": 5}``) or nested dicts; text values
            (from the command line) are read as the setting's type (``"0.5,1,1"`` for weights).

    Raises:
        ConfigError: naming the file (or ``overrides``) and the dotted field for an unknown key,
            a wrong type or a bad value.
    """
    default = Path(__file__).parent.parent / "default.toml"
    merged = tomllib.loads(default.read_text(encoding="utf-8"))
    source = "town/default.toml"
    if path is not None:
        source = str(path)
        user = _read_toml(Path(path))
        _merge(merged, _checked_keys(user, "", source), "", parse=False)
    if overrides:
        _merge(merged, dict(overrides), "", parse=True)
        source = f"{source} + overrides"
    return Config.from_dict(merged, file=source)


def _checked_keys(data: dict[str, Any], prefix: str, file: str) -> dict[str, Any]:
    """Reject unknown keys of a user file before merging, naming that file."""
    kind: Any = _target_type(prefix) if prefix else Config
    hints = {name: f.annotation for name, f in kind.model_fields.items()}
    for key, value in data.items():
        path = f"{prefix}.{key}" if prefix else key
        if key not in hints:
            raise ConfigError(
                f"unknown setting; allowed: {', '.join(hints)}", file=file, field=path
            )
        if isinstance(value, dict) and is_table(hints[key]):
            _checked_keys(value, path, file)
    return data
