"""The thinking-backend interface: anything that can answer the mind's typed questions.

After Concordia's small language-model interface: retry, caching and call recording are
wrappers with this same interface, not flags inside one class.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

from .questions import A, Question

if TYPE_CHECKING:
    from .wrappers import CallRecorder, StallGuard

__all__ = ["ThinkingBackend"]


class ThinkingBackend(abc.ABC):
    """Answers :mod:`town.thinking.questions` questions.

    Implementations must be deterministic for the same question when they claim to be
    (the scripted backend is), and must never raise for a model's bad answer: they fall back
    to the scripted answer and report it through their accounting instead.
    """

    #: Short name stored in run metadata (e.g. "scripted", "openai").
    name: str = "abstract"
    #: Records the calls as MODEL_CALL events (the model wrappers); None: nothing to record.
    recorder: CallRecorder | None = None
    #: Pauses the calls while the model server is down (the model wrappers), or None.
    stall: StallGuard | None = None

    @abc.abstractmethod
    def ask(self, question: Question[A]) -> A:
        """Answer ``question`` with an instance of ``type(question).answer_model`` (its ``A``).

        Raises:
            ThinkingError: only for failures that must stop the run (e.g. at start-up).
        """

    def cancel(self) -> None:
        """End every wait for the model now, requests in flight included, and refuse new ones.

        A stop request (not undone): the waiting calls raise :class:`~town.errors.RunStopped`.
        Default: nothing (the scripted backend never waits).
        """

    def close(self) -> None:
        """Release resources (connections, thread pools). Default: nothing."""
