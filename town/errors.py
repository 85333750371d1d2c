"""The exception hierarchy of `town`: one root, a subclass per concern.

Every message names the file or field at fault and, where there is one, the fix. The CLI
turns any :class:`TownError` into exit code 2 and one line on stderr.
"""

from __future__ import annotations

__all__ = [
    "TownError",
    "ConfigError",
    "WorldError",
    "MemoryStreamError",
    "ThinkingError",
    "RecordingError",
    "ProcedureError",
    "RunStopped",
]


class TownError(Exception):
    """Root of all errors that `town` raises on purpose (bad input, bad files, bad servers)."""


class ConfigError(TownError, ValueError):
    """A scenario, persona, events or configuration file (or a CLI value) is invalid.

    Args:
        reason: what is wrong and, where possible, how to fix it.
        file: the file at fault, if any.
        field: the field at fault, e.g. ``routine[2].place``.
    """

    def __init__(self, reason: str, *, file: object | None = None, field: str | None = None):
        self.reason = reason
        self.file = None if file is None else str(file)
        self.field = field
        parts = [p for p in (self.file, field) if p]
        super().__init__(": ".join([*parts, reason]))


class WorldError(TownError):
    """The map or a place in it cannot serve a request (unknown address, no path, ...)."""


class MemoryStreamError(TownError, ValueError):
    """Bad arguments to a memory stream: importance outside 1-10, bad weights, k < 1, ..."""


class ThinkingError(TownError):
    """A thinking backend cannot start or answer (unreachable server, wrong key, ...)."""


class RecordingError(TownError):
    """A run file is missing, damaged, of an unknown schema version, or cannot be written."""


class ProcedureError(TownError, ValueError):
    """A procedure or procedure library is invalid: bad field, unknown name, composition cycle."""


class RunStopped(TownError):
    """A stop was requested while the run waited for the model (a stall, a backoff, a 429).

    The waiting call ends with this error; the tick it belonged to is not recorded.
    """
