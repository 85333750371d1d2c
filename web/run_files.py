"""Saved runs served by name (docs/design, §4, §5): the one way from a URL's run name to a reader.

:func:`open_named` resolves a name inside the app's runs folder with
:func:`town.recording.runs.resolve_run` (which refuses ``/``, ``..``, percent-encoded tricks and
absolute paths) before anything is opened, and answers 404 for a refused or unknown name and 422
for a file that is not a readable run (damaged, truncated, another schema version). It also holds
the per-app caches of things that are slow to rebuild: the persona identities of a run's town,
the embedders used for interviews, and evaluation reports.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import abort, current_app

from town.embedding import Embedder, make_embedder
from town.errors import RecordingError, TownError
from town.recording.reader import RunReader
from town.recording.runs import resolve_run

from .persona_view import spec_dict

__all__ = ["runs_dir", "open_named", "identities", "embedder_for", "cached_report"]

_lock = threading.Lock()


def runs_dir() -> Path:
    """The app's runs folder (config ``RUNS_DIR``)."""
    return Path(current_app.config["RUNS_DIR"])


@contextmanager
def open_named(name: str) -> Iterator[RunReader]:
    """Open run ``name`` of the runs folder for the duration of a request.

    Aborts with 404 when ``resolve_run`` refuses the name or finds no such run (nothing outside
    the runs folder is ever opened), and with 422 (the RecordingError message) when the file is
    not a readable run; a RecordingError raised while reading also becomes 422.
    """
    try:
        path = resolve_run(runs_dir(), name)
    except RecordingError as exc:
        abort(404, description=str(exc))
    try:
        reader = RunReader(path)
    except RecordingError as exc:
        abort(422, description=str(exc))
    try:
        yield reader
    except RecordingError as exc:
        abort(422, description=str(exc))
    finally:
        reader.close()


def _cache(name: str) -> dict[Any, Any]:
    return current_app.extensions.setdefault(name, {})


def identities(reader: RunReader) -> dict[str, dict[str, Any]]:
    """Persona id -> identity (``spec_dict`` fields) of a run, in the run's persona order.

    Name and emoji come from the run's meta; age, traits, background, lifestyle and home from
    the town folder the meta names, when it still loads (cached per folder); otherwise None.
    """
    listed = reader.meta.get("personas")
    meta = listed if isinstance(listed, dict) else {}
    folder = reader.meta.get("scenario")
    specs: dict[str, Any] = {}
    if folder:
        cache = _cache("town_scenarios")
        with _lock:
            if folder not in cache:
                from town.scenario import load_scenario

                try:
                    cache[folder] = {s.id: s for s in load_scenario(folder).personas}
                except TownError:
                    cache[folder] = {}
            specs = cache[folder]
    out = {}
    for pid in reader.personas():
        base = spec_dict(specs[pid]) if pid in specs else spec_dict({"id": pid})
        for key in ("name", "emoji"):
            base[key] = (meta.get(pid) or {}).get(key) or base.get(key) or (pid if key == "name" else None)
        out[pid] = base
    return out


def embedder_for(reader: RunReader) -> Embedder:
    """The run's embedder (by its meta name), built once per app.

    Raises:
        ConfigError: for an unknown embedder name or a missing model package.
    """
    name = str(reader.meta.get("embedder", "minilm"))
    cache = _cache("town_embedders")
    with _lock:
        if name not in cache:
            cache[name] = make_embedder(name)
        return cache[name]


def cached_report(reader: RunReader, key: str, build) -> Any:
    """``build(reader)``, cached per run file, ``key`` and the file's size and mtime."""
    stat = reader.path.stat()
    wal = Path(f"{reader.path}-wal")
    stamp = (str(reader.path), key, stat.st_size, stat.st_mtime_ns,
             wal.stat().st_mtime_ns if wal.exists() else 0)
    cache = _cache("town_reports")
    with _lock:
        if stamp in cache:
            return cache[stamp]
    value = build(reader)
    with _lock:
        if len(cache) > 32:
            cache.clear()
        cache[stamp] = value
    return value
