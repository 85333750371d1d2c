"""The thinking-backend interface: anything that can answer the mind's typed questions.

After Concordia's small language-model interface: retry, caching and call recording are
wrappers with this same interface, not flags inside one class. What surrounds a model backend
and is not answering (the recorder of its calls, the stall guard whose ``cancel`` is a stop
request, what its start-up check settled) is built beside it, as separate objects
(:class:`town.backends.ThinkingParts`), not reached through it.
"""

from __future__ import annotations

import abc

from .questions import A, Question

__all__ = ["ThinkingBackend"]


class ThinkingBackend(abc.ABC):
    """Answers :mod:`town.thinking.questions` questions.

    Implementations must be deterministic for the same question when they claim to be
    (the scripted backend is), and must never raise for a model's bad answer: they fall back
    to the scripted answer and report it through their accounting instead.
    """

    #: Short name stored in run metadata (e.g. "scripted", "openai").
    name: str = "abstract"

    @abc.abstractmethod
    def ask(self, question: Question[A]) -> A:
        """Answer ``question`` with an instance of ``type(question).answer_model`` (its ``A``).

        Raises:
            ThinkingError: only for failures that must stop the run (e.g. at start-up).
            RunStopped: when a stop request ended the wait for the model (model backends).
        """

    def close(self) -> None:
        """Release resources (connections, thread pools). Default: nothing."""
