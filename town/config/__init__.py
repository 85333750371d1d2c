"""Run configuration: one TOML file over the packaged defaults, plus overrides.

The defaults live in ``town/default.toml``; overrides come from CLI flags. The effective
configuration is stored in each run (:meth:`Config.to_dict`).

Parts:
    models: :class:`Config` and its tables of settings as frozen pydantic models, their value
        checks and dict form; :class:`Dialect`, the values of ``backend.structured``.
    load: :func:`load_config` (the defaults, a TOML file, overrides).
    messages: a validation error as one :class:`~town.errors.ConfigError` line naming the field.
"""

from .load import load_config
from .models import (
    ABLATIONS,
    BackendConfig,
    BackendName,
    Config,
    Dialect,
    ConversationConfig,
    ConversationMode,
    EmbedderName,
    PerceptionConfig,
    ProceduresConfig,
    RecordingConfig,
    ReflectionConfig,
    RetrievalConfig,
    url_problem,
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
    "ConversationMode",
    "ConversationConfig",
    "BackendConfig",
    "Config",
    "ABLATIONS",
    "load_config",
    "url_problem",
]
