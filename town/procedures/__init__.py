"""Procedural memory: how to do things, learned from verified successes (docs/design, §2).

Parts:
    procedure: :class:`Procedure` and :class:`ProcedureStep` (frozen values), Laplace reliability.
    library: :class:`ProcedureLibrary`: dedup on save, retrieval by ``when``, feedback, pruning,
        composition (recursive expansion, cycles refused).
    generalise: concrete values -> ``{parameters}``; :func:`anonymise` for the town library.
    episode: :class:`Episode`: one attempt at a task, verified step by step by the world.
    memory: :class:`ProceduralMemory`: a persona's library, the town library, the episode.
"""

from .episode import Episode, Goal, Outcome, StepFailure
from .generalise import anonymise, generalise_steps, generalise_text, home_of, persona_values
from .library import Match, ProcedureLibrary, PruneRule
from .memory import ProceduralMemory
from .procedure import (
    Procedure,
    ProcedureError,
    ProcedureStatus,
    ProcedureStep,
    fill,
    laplace_reliability,
    parameters_of,
)

__all__ = [
    "Episode",
    "Goal",
    "Outcome",
    "StepFailure",
    "anonymise",
    "generalise_steps",
    "generalise_text",
    "home_of",
    "persona_values",
    "Match",
    "ProcedureLibrary",
    "PruneRule",
    "ProceduralMemory",
    "Procedure",
    "ProcedureError",
    "ProcedureStatus",
    "ProcedureStep",
    "fill",
    "laplace_reliability",
    "parameters_of",
]
