"""Procedural memory: how to do things, learned from verified successes (docs/design, §2).

Parts:
    procedure: :class:`Procedure` and :class:`ProcedureStep` (frozen values), Laplace reliability.
    library: :class:`ProcedureLibrary`: dedup on save, retrieval by ``when``, feedback, state.
    expansion: composition: sub-procedures expanded recursively, cycles refused.
    pruning: :class:`PruneRule`: the three rules that retire a procedure.
    generalise: concrete values -> ``{parameters}``; :func:`anonymise` for the town library.
    episode: :class:`Episode`: one attempt at a task, verified step by step by the world.
    memory: :class:`ProceduralMemory`: a persona's library, the town library, the episode.

The mind's use of all this is ``town.mind.practice`` (following a procedure, tracking a task,
learning from a verified success, pruning); nothing here imports the mind.
"""

from .episode import Episode, Goal, Outcome, StepFailure
from .generalise import anonymise, generalise_steps, generalise_text, home_of, persona_values
from .library import Match, ProcedureLibrary
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
from .pruning import PruneRule

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
