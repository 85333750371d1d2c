"""Checks every town file shares: reading YAML, ids, places on the map, probe names, importance, game times.

Each raises a :class:`~town.errors.ConfigError` naming the file, the dotted field and the reason.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ..clock import parse_game_time
from ..errors import ConfigError
from ..world import TileMap
from ..world.fields import Fields, read_yaml

__all__ = ["ID", "read_yaml", "map_place", "probe_key", "rated_importance", "game_time"]

#: A persona id or probe name.
ID = re.compile(r"^[a-z0-9_]+$")


def map_place(f: Fields, tilemap: TileMap, value: Any, field_: str) -> str:
    """``value`` as an address of the map (stripped).

    Raises:
        ConfigError: naming ``field_`` when it is no text or no address of the map.
    """
    place = f.check(value, str, field_).strip()
    if not tilemap.has_address(place):
        raise f.error(field_, f"unknown place {place!r}: not an address of map {tilemap.world!r}")
    return place


def probe_key(f: Fields, data: dict, prefix: str, probes: set[str]) -> str | None:
    """The optional ``probe`` of ``data``: a name of ``probes`` or None.

    Raises:
        ConfigError: naming ``<prefix>.probe`` when it names no probe of probes.yaml.
    """
    name = f.get(data, "probe", str, prefix, default=None)
    if name is not None and name not in probes:
        known = ", ".join(sorted(probes)) or "none (no probes.yaml)"
        raise f.error(f"{prefix}.probe", f"unknown probe {name!r}; probes of probes.yaml: {known}")
    return name


def rated_importance(f: Fields, data: dict, prefix: str, default: Any) -> Any:
    """The ``importance`` of ``data`` (1-10), or ``default`` when absent (``REQUIRED``: must be there).

    Raises:
        ConfigError: naming ``<prefix>.importance`` when it is no integer 1-10.
    """
    value = f.get(data, "importance", int, prefix, default=default)
    if value is not None and not 1 <= value <= 10:
        raise f.error(f"{prefix}.importance", f"must be 1-10, got {value}")
    return value


def game_time(f: Fields, data: dict, key: str, prefix: str) -> datetime:
    """``data[key]`` as a game datetime (a YAML datetime or text like ``"2023-02-13 07:00"``).

    Raises:
        ConfigError: naming ``<prefix>.<key>`` when it is missing or no game time.
    """
    name = f"{prefix}.{key}" if prefix else key
    value = f.get(data, key, str if not isinstance(data.get(key), datetime) else datetime, prefix)
    if isinstance(value, datetime):
        return value
    try:
        return parse_game_time(value, field=name)
    except ConfigError as exc:
        raise f.error(name, exc.reason) from None

