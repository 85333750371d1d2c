"""Reading YAML/JSON scenario fields with errors that name the file and the dotted field.

Shared by the map loader (:mod:`town.world.layout`) and :mod:`town.scenario`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ..errors import ConfigError
from ..files import read_bounded
from ..text import hidden_problem, text_problem

__all__ = ["DuplicateKey", "Fields", "REQUIRED", "load_yaml", "read_yaml"]

REQUIRED = object()

#: Longest text accepted per field name (the last part of the dotted field); others: 2000.
#: They keep every sentence the mind builds from persona files within the answers' limits.
#: docs/scenario-files.md ("Text limits") lists them; a test keeps the two the same.
TEXT_LIMITS = {"name": 100, "activity": 100, "task": 100, "place": 200, "home": 200, "persona": 100,
               "description": 300, "content": 400, "text": 400, "emoji": 16, "host": 60, "world": 60}

class DuplicateKey(yaml.YAMLError):
    """A mapping of a YAML file gives one key twice (PyYAML keeps the last silently)."""

    def __init__(self, key: Any, line: int, first: int):
        super().__init__(f"duplicate key {key!r} at line {line} (first at line {first})")
        self.key, self.line, self.first = key, line, first


class _UniqueKeys:
    """A safe loader's mixin whose mappings refuse a key given twice (:class:`DuplicateKey`,
    with 1-based lines); a merge key (``<<``) may be overridden, as YAML allows."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)  # type: ignore[attr-defined]
                line = key_node.start_mark.line + 1
                try:
                    if key in seen:
                        raise DuplicateKey(key, line, seen[key])
                    seen[key] = line
                except TypeError:  # an unhashable key: the constructor's own error says so
                    continue
        return super().construct_mapping(node, deep)  # type: ignore[misc]


class _SafeLoader(_UniqueKeys, yaml.SafeLoader):
    """PyYAML's safe loader refusing duplicate keys."""


#: libyaml's safe loader when PyYAML was built with it (about 25 times faster: a town of 1,000
#: residents reads its persona files twice at start), else PyYAML's own; both give the same
#: data (both refuse duplicate keys), and a file either refuses is parsed again by PyYAML's for
#: its error message. Every YAML file `town` reads is read with these (:func:`read_yaml`,
#: :func:`load_yaml`).
_LOADER: type = type("_CSafeLoader", (_UniqueKeys, yaml.CSafeLoader), {}) if hasattr(yaml, "CSafeLoader") \
    else _SafeLoader

#: Fields that name someone or somewhere (a persona's name, a sector's, a place, a host): they
#: may hold no character that draws nothing or reorders the text (:func:`town.text.hidden_problem`).
NAME_FIELDS = frozenset({"name", "persona", "host", "home", "place", "world"})

_TYPE_NAMES = {
    str: "a text",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a mapping",
}


def load_yaml(text: str) -> Any:
    """The parsed YAML ``text``, by the one loader of `town`'s YAML (a safe loader refusing a key
    given twice in a mapping).

    Raises:
        DuplicateKey: for a key given twice in one mapping.
        yaml.YAMLError: for text that is not YAML (worded as PyYAML's own loader words it).
    """
    try:
        return yaml.load(text, Loader=_LOADER)
    except DuplicateKey:
        raise
    except yaml.YAMLError:  # said as PyYAML's own loader says it (libyaml words it otherwise)
        return yaml.load(text, Loader=_SafeLoader)


def read_yaml(path: Path) -> Any:
    """The parsed YAML of ``path`` (None for an empty file).

    Raises:
        ConfigError: naming the file when it cannot be read or is not valid YAML or UTF-8; a
            YAML error is one line with its position (1-based line and column) and problem; a
            key given twice in a mapping names the key and both lines.
    """
    try:
        return load_yaml(read_bounded(path))
    except DuplicateKey as exc:
        raise ConfigError(str(exc), file=path) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        what = " ".join(str(exc.problem or exc.context or "").split())
        raise ConfigError(f"not valid YAML{where}: {what}", file=path) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {' '.join(str(exc).split())}", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    except OSError as exc:
        if path.is_symlink() and not path.exists():
            raise ConfigError(f"is a link to {os.readlink(path)}, which is not there", file=path) from None
        raise ConfigError(f"cannot read it: {exc.strerror}", file=path) from None


class Fields:
    """Typed access to the fields of one file's parsed data.

    Args:
        file: the file the data came from (named in every error).
    """

    def __init__(self, file: str | Path | None):
        self.file = None if file is None else str(file)

    def error(self, field: str | None, reason: str) -> ConfigError:
        """A :class:`ConfigError` naming this file, ``field`` and ``reason``."""
        return ConfigError(reason, file=self.file, field=field or None)

    def check(self, value: Any, kind: type, field: str) -> Any:
        """Return ``value`` if it is of ``kind`` (int is no bool; float accepts int).

        Raises:
            ConfigError: naming ``field`` and the expected type otherwise.
        """
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not ok:
            raise self.error(
                field, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, got {value!r}"
            )
        if kind is str:
            if not value.strip():
                raise self.error(field, "must not be empty")
            key = field.rsplit(".", 1)[-1].split("[", 1)[0]
            limit = TEXT_LIMITS.get(key, 2000)
            if len(value) > limit:
                raise self.error(field, f"is {len(value)} characters long; at most {limit}")
            problem = text_problem(value)  # the check every outside text passes (town.text)
            if problem is None and key in NAME_FIELDS:
                problem = hidden_problem(value)
            if problem is not None:
                raise self.error(field, problem)
            if limit <= 100 and any(c in value for c in "\r\n"):
                raise self.error(field, "must not contain line breaks (a short field)")
        return value

    def get(
        self, data: dict, key: str, kind: type, prefix: str = "", default: Any = REQUIRED
    ) -> Any:
        """Read ``data[key]`` as ``kind``; ``prefix`` is the dotted path of ``data``.

        Raises:
            ConfigError: for a missing required field or a wrong type.
        """
        field = f"{prefix}.{key}" if prefix else key
        if key not in data or data[key] is None:
            if default is REQUIRED:
                raise self.error(field, "missing required field")
            return default
        return self.check(data[key], kind, field)

    def mapping(self, value: Any, field: str, allowed: Iterable[str] | None = None) -> dict:
        """Check that ``value`` is a mapping with only ``allowed`` keys (if given).

        Raises:
            ConfigError: for a non-mapping or an unknown key (naming the allowed ones).
        """
        if not isinstance(value, dict):
            raise self.error(field or None, f"must be a mapping, got {type(value).__name__}")
        if allowed is not None:
            allowed = list(allowed)
            for key in value:
                if key not in allowed:
                    where = f"{field}.{key}" if field else str(key)
                    raise self.error(where, f"unknown field; allowed: {', '.join(allowed)}")
        return value

    def ints(self, value: Any, n: int, field: str, *, what: str) -> tuple[int, ...]:
        """Check a list of exactly ``n`` integers (e.g. ``[x, y]`` or ``[x, y, w, h]``).

        Raises:
            ConfigError: naming ``field`` and ``what`` was expected.
        """
        if (
            not isinstance(value, list | tuple)
            or len(value) != n
            or any(not isinstance(v, int) or isinstance(v, bool) for v in value)
        ):
            raise self.error(field, f"must be {what}, got {value!r}")
        return tuple(value)
