"""How memory records write game datetimes in dicts (to the second)."""

from __future__ import annotations

from datetime import datetime

from town.errors import MemoryStreamError

__all__ = ["TIME_FORMAT", "format_time", "parse_time"]

#: How record datetimes are written in dicts (game time, to the second).
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def format_time(value: datetime) -> str:
    """Game datetime -> ``"YYYY-MM-DD HH:MM:SS"`` (:data:`TIME_FORMAT`).

    Written with ``isoformat`` (about 3 times faster than ``strftime``): every retrieval logs one.
    """
    return value.isoformat(" ", "seconds")


def parse_time(text: str, *, field: str) -> datetime:
    """``"YYYY-MM-DD HH:MM:SS"`` -> game datetime.

    Raises:
        MemoryStreamError: naming ``field`` when the text is not such a time.
    """
    try:
        return datetime.strptime(str(text), TIME_FORMAT)
    except ValueError:
        raise MemoryStreamError(f"{field}: {text!r} is not a time like '2023-02-13 07:00:00'")
