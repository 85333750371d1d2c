"""The importance ratings a run keeps: a model's, the embedded rater's, or a blend of both.

:class:`CalibratedBackend` wraps the whole stack (the cache keeps the model's own answers) and
passes every question through, except the importance ones (``RateImportance``,
``RateImportances``), whose ratings it settles by the run's
:class:`~town.thinking.calibration.Calibration`: weight 1, the model's answer; weight 0, the
embedded rater's (the scripted backend's answer; the model is not asked); between, each rating blended
(:func:`~town.thinking.calibration.blend`).
"""

from __future__ import annotations

from typing import cast

from pydantic import BaseModel

from ..answers import ImportanceAnswer, ImportancesAnswer
from ..backend import ThinkingBackend
from ..calibration import Calibration, blend
from ..questions import A, Question, RateImportance, RateImportances

__all__ = ["CalibratedBackend"]


class CalibratedBackend(ThinkingBackend):
    """``inner`` with its importance ratings settled by ``calibration`` (thread-safe as ``inner``);
    ``embedded`` rates as the embedded rater (the scripted backend, which the caller chooses)."""

    def __init__(self, inner: ThinkingBackend, calibration: Calibration, embedded: ThinkingBackend):
        self.inner = inner
        self.calibration = calibration
        self.name = inner.name
        self._embedded = embedded

    def ask(self, question: Question[A]) -> A:
        """``inner``'s answer; for an importance question, the ratings the calibration keeps."""
        weight = self.calibration.weight
        if weight == 1 or not isinstance(question, (RateImportance, RateImportances)):
            return self.inner.ask(question)
        embedded: BaseModel = self._embedded.ask(cast(Question[BaseModel], question))
        if weight == 0:
            return cast(A, embedded)
        model: BaseModel = self.inner.ask(cast(Question[BaseModel], question))
        if isinstance(model, ImportanceAnswer) and isinstance(embedded, ImportanceAnswer):
            return cast(A, ImportanceAnswer(importance=blend(weight, model.importance, embedded.importance)))
        assert isinstance(model, ImportancesAnswer) and isinstance(embedded, ImportancesAnswer)
        return cast(A, ImportancesAnswer(ratings=[blend(weight, m, e) for m, e in zip(model.ratings,
                                                                                      embedded.ratings)]))

    def close(self) -> None:
        """Close ``inner``."""
        self.inner.close()
