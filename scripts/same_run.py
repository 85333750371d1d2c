"""Are two run files the same run? Compares them table by table, row by row, byte for byte.

    python scripts/same_run.py A.sqlite B.sqlite
    python scripts/same_run.py --ignore-timing A.sqlite B.sqlite

Every row of every table of the run file (town/recording/schema.py) must be equal, blobs byte for
byte (zlib output is a function of its input, so equal blobs mean equal frames, states and
candidates). Two ``meta`` keys are set aside, since they say where and when a run was made, not
what happened: ``created`` (the wall-clock time the file was made) and ``scenario`` (the town
folder's path, which differs between two checkouts). No other column holds wall-clock time: a
MODEL_CALL event's ``latency_ms`` does, but the scripted backend publishes none.

``--ignore-timing`` also leaves out how long model calls took, where they went and how the
ticks were scheduled, which differ between two runs of the same town on other servers, slots
or schedules: a MODEL_CALL event's ``latency_ms`` and ``endpoint``, in the stored
configuration the servers' addresses, their slots and the threads (``backend`` keys
:data:`TIMING_BACKEND`) and the ``schedule`` (a run-ahead run against the tick-synchronous
one), and the server's speed measured at start (``meta`` keys :data:`TIMING_META`). What each
call asked and answered, its tokens and outcome, stay compared.

Prints the first difference of each table (the row's key and, for JSON, the first differing
path inside it) and exits 1, or prints "same run" and exits 0. The SQLite files themselves differ
in bytes whenever ``created`` does, so compare runs with this, not ``cmp``.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zlib
from pathlib import Path
from typing import Any

#: meta keys that record where and when, not what.
SET_ASIDE = ("created", "scenario")

#: With ``--ignore-timing``: MODEL_CALL data keys, the config's backend keys and its own keys that
#: say how fast, where and in what order of work.
TIMING_DATA = ("latency_ms", "endpoint")
TIMING_BACKEND = ("base_url", "more_base_urls", "max_concurrency", "pool_size", "timeout_s")
TIMING_CONFIG = ("schedule",)
#: With ``--ignore-timing``: meta keys that are measured speeds (the model server's, at start).
TIMING_META = ("model_server",)

#: Table -> its key columns (rows are compared in key order).
KEYS = {"meta": ("key",), "frames": ("tick",), "events": ("seq",), "vectors": ("id",),
        "memories": ("persona", "id"), "retrievals": ("seq",), "snapshots": ("tick",),
        "snapshot_parts": ("part", "tick")}


def _decoded(value: Any) -> Any:
    """A cell as something readable: zlib-compressed JSON and JSON text decoded, else as is."""
    if isinstance(value, bytes):
        try:
            return json.loads(zlib.decompress(value))
        except (zlib.error, ValueError):
            return f"<{len(value)} bytes>"
    if isinstance(value, str) and value[:1] in "[{\"":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The first path where two decoded JSON values differ, with both values (None: equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(dict.fromkeys([*a, *b])):
            if key not in a or key not in b:
                return f"{path}.{key}: only in {'B' if key not in a else 'A'}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None if list(a) == list(b) else f"{path}: keys in another order"
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} items in A, {len(b)} in B"
    if a != b or type(a) is not type(b):
        return f"{path or 'value'}: A {str(a)[:200]!r}, B {str(b)[:200]!r}"
    return None


def _rows(db: sqlite3.Connection, table: str, timing: bool = True) -> list[tuple]:
    columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    rows = db.execute(f"SELECT * FROM {table} ORDER BY {', '.join(KEYS[table])}").fetchall()
    return [(tuple(dict(zip(columns, r, strict=True))[k] for k in KEYS[table]), columns,
             r if timing else _timeless(table, columns, r)) for r in rows
            if not (table == "meta" and (r[0] in SET_ASIDE or (not timing and r[0] in TIMING_META)))]


def _timeless(table: str, columns: list[str], row: tuple) -> tuple:
    """A row without timing: a MODEL_CALL event without :data:`TIMING_DATA`, the stored config
    without :data:`TIMING_BACKEND` and :data:`TIMING_CONFIG`."""
    cells = dict(zip(columns, row, strict=True))
    if table == "events" and cells["kind"] == "model_call":
        data = json.loads(cells["data"])
        cells["data"] = json.dumps({k: v for k, v in data.items() if k not in TIMING_DATA}, sort_keys=True)
    elif table == "meta" and cells["key"] == "config":
        config = {k: v for k, v in json.loads(cells["value"]).items() if k not in TIMING_CONFIG}
        config["backend"] = {k: v for k, v in config["backend"].items() if k not in TIMING_BACKEND}
        cells["value"] = json.dumps(config, sort_keys=True)
    return tuple(cells.values())


def compare(path_a: str | Path, path_b: str | Path, *, timing: bool = True) -> list[str]:
    """One line per table that differs: its first differing row and where in it."""
    found = []
    with sqlite3.connect(f"file:{path_a}?mode=ro", uri=True) as a, \
            sqlite3.connect(f"file:{path_b}?mode=ro", uri=True) as b:
        for table in KEYS:
            rows_a, rows_b = _rows(a, table, timing), _rows(b, table, timing)
            for (key_a, columns, row_a), (key_b, _, row_b) in zip(rows_a, rows_b):
                if key_a != key_b:
                    found.append(f"{table}: row {key_a} in A where B has {key_b}")
                    break
                if row_a != row_b:
                    column = next(c for c, x, y in zip(columns, row_a, row_b, strict=True) if x != y)
                    x, y = (_decoded(r[columns.index(column)]) for r in (row_a, row_b))
                    found.append(f"{table} {dict(zip(KEYS[table], key_a, strict=True))} column {column}: "
                                 f"{first_difference(x, y) or 'same decoded, different bytes'}")
                    break
            else:
                if len(rows_a) != len(rows_b):
                    found.append(f"{table}: {len(rows_a)} rows in A, {len(rows_b)} in B")
    return found


def main(argv: list[str]) -> int:
    """Compare the two run files named in ``argv`` (``--ignore-timing`` first, optionally); print
    the differences; 0 if none, 1 if some, 2 for bad arguments."""
    timing = "--ignore-timing" not in argv[:1]
    files = argv if timing else argv[1:]
    if len(files) != 2 or not all(Path(p).is_file() for p in files):
        print("usage: python scripts/same_run.py [--ignore-timing] A.sqlite B.sqlite (two existing run files)",
              file=sys.stderr)
        return 2
    differences = compare(*files, timing=timing)
    for line in differences:
        print(line)
    if not differences:
        print("same run")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
