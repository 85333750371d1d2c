"""Run configuration: one TOML file over the packaged defaults, plus overrides.

The defaults live in ``town/default.toml``; overrides come from CLI flags. The effective
configuration is stored in each run (:meth:`Config.to_dict`).

Parts: :mod:`~town.config.models` (the settings as frozen pydantic models, their checks and dict
form), :mod:`~town.config.load` (defaults, TOML file, overrides) and
:mod:`~town.config.messages` (a validation error as one line naming the field).
"""

from .load import load_config
from .models import (
    ABLATIONS,
    BackendConfig,
    BackendName,
    Config,
    Dialect,
    EmbedderName,
    PerceptionConfig,
    ProceduresConfig,
    RecordingConfig,
    ReflectionConfig,
    RetrievalConfig,
)

__all__ = [
    "BackendName",
    "EmbedderName",
    "Dialect",
    "RetrievalConfig",
    "ReflectionConfig",
    "ProceduresConfig",
    "RecordingConfig",
    "PerceptionConfig",
    "BackendConfig",
    "Config",
    "ABLATIONS",
    "load_config",
]
