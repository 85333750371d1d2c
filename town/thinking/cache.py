"""An SQLite cache of *resolved* answers (docs/design, §3).

A resolved answer is either the valid answer a model gave, or the fact that the question fell
back to the scripted answer. Entries are keyed by (backend, model, template, rendered prompt,
params), hashed with SHA-256; the key parts are stored too, for inspection. A warm re-run then
makes no requests and gives the same run. Keys (API keys) are never part of an entry.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ThinkingError

__all__ = ["AnswerCache", "CachedAnswer", "cache_key", "default_cache_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    template TEXT NOT NULL,
    prompt TEXT NOT NULL,
    params TEXT NOT NULL,
    answer TEXT,            -- the answer's JSON, NULL when it fell back
    fallback INTEGER NOT NULL
)
"""


def default_cache_path() -> Path:
    """``$TOWN_CACHE_DIR/answers.sqlite``, default ``~/.cache/town/answers.sqlite``."""
    import os

    root = os.environ.get("TOWN_CACHE_DIR") or Path.home() / ".cache" / "town"
    return Path(root) / "answers.sqlite"


def cache_key(backend: str, model: str, template: str, prompt: str, params: dict[str, Any]) -> str:
    """SHA-256 hex of the JSON of (backend, model, template, prompt, params with sorted keys)."""
    blob = json.dumps(
        [backend, model, template, prompt, params], sort_keys=True, ensure_ascii=False
    )
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(frozen=True, kw_only=True)
class CachedAnswer:
    """A resolved answer: the answer's JSON dict, or None with ``fallback`` True."""

    answer: dict[str, Any] | None
    fallback: bool


class AnswerCache:
    """Resolved answers in one SQLite file; safe to share between threads.

    Args:
        path: the cache file (created with its folder when missing).

    Raises:
        ThinkingError: when the file cannot be opened as a cache.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise ThinkingError(
                f"{self.path}: cannot open the answer cache ({exc}); "
                "pass --no-cache or remove the file"
            ) from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedAnswer | None:
        """The resolved answer stored under ``key``, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT answer, fallback FROM answers WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        return CachedAnswer(
            answer=None if row[0] is None else json.loads(row[0]), fallback=bool(row[1])
        )

    def put(
        self, key: str, parts: tuple[str, str, str, str, dict[str, Any]], resolved: CachedAnswer
    ) -> None:
        """Store ``resolved`` under ``key`` with its key ``parts`` (replacing any entry)."""
        backend, model, template, prompt, params = parts
        answer = None if resolved.answer is None else json.dumps(resolved.answer, sort_keys=True)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    backend,
                    model,
                    template,
                    prompt,
                    json.dumps(params, sort_keys=True),
                    answer,
                    int(resolved.fallback),
                ),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            self._db.close()
