"""Importance calibration: a model's ratings against memories rated by hand, and what a run does.

Park et al. 2023 §4.1 asks a language model how poignant a memory is, 1 to 10. A small model may
use little of that scale: on a two-core machine SmolLM2-135M rated seven memories of one game
hour 10 and ten 1, and a routine washing-up 6. Such ratings drive reflection (their sum) and
retrieval (a third of a memory's score), so a run measures them before it trusts them.

:func:`calibrate` asks the model, as part of the start-up check (its system text opens with
:data:`~.server_check.CHECK_MARK`), to rate the hand-rated set's check set in one request
(:class:`~.questions.RateImportances`, the run's own prompt); :func:`decide` compares its
ratings with the hand ratings (:func:`fit`: mean absolute error, rank correlation, the share
rated 1 or 10) and settles the weight the model's ratings get against the embedded rater's
(:mod:`town.importance`) for the whole run:

- 1 (the model's as they are): off by at most :data:`MAX_MAE` on average, rank correlation at
  least :data:`MIN_RANK`, at most :data:`MAX_EXTREMES` of them 1 or 10;
- 0 (the embedded rater's instead; the model is not asked): rank correlation under
  :data:`NO_ORDER`;
- :data:`BLEND` otherwise: ``round(w * model + (1 - w) * embedded)``, halves rounded up.

The hand-rated set is ``town/thinking/data/rated_memories.yaml`` (65 memories, rated by hand
for this project; ``benchmarks/importance_calibration.py`` measures a model on all of it). The
decision goes in the run's meta (``importance_calibration``), and a resumed run keeps it.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..world.fields import read_yaml
from .questions import RateImportances

__all__ = ["Rated", "Fit", "Calibration", "MAX_MAE", "MIN_RANK", "MAX_EXTREMES", "NO_ORDER", "BLEND",
           "rated_memories", "rank_correlation", "fit", "decide", "shuffled", "calibrate", "blend"]

#: The hand-rated set.
RATED_PATH = Path(__file__).parent / "data" / "rated_memories.yaml"
#: The most a model's ratings may be off from the hand ratings on average, kept as they are.
MAX_MAE = 2.0
#: The least rank correlation with the hand ratings, kept as they are.
MIN_RANK = 0.5
#: The largest share of ratings at 1 or 10, kept as they are (the check set's hand ratings: 20%).
MAX_EXTREMES = 0.5
#: Under this rank correlation the model's ratings order nothing: the embedded rater's instead.
NO_ORDER = 0.3
#: The model's weight in a blend.
BLEND = 0.5
#: Persona the check set's memories belong to (the prompt asks how poignant they are to her).
_CHECK_PERSONA = ("calibration", "Alex Moore", "Alex Moore is a resident of the town: works at the "
                  "library, has friends and family nearby, and cares about the people around her.")


@dataclass(frozen=True, kw_only=True)
class Rated:
    """A memory rated by hand: its kind (a ``MemoryKind`` value), text, rating 1-10, and
    whether it is in the check set the start-up check asks."""

    kind: str
    content: str
    rating: int
    check_set: bool = False


@cache
def rated_memories() -> tuple[Rated, ...]:
    """The hand-rated set, in file order.

    Raises:
        ValueError: naming the entry when a rating is not 1-10 or a field is missing.
    """
    rows = read_yaml(RATED_PATH)["memories"]
    out = []
    for i, row in enumerate(rows):
        item = Rated(kind=str(row["kind"]), content=str(row["content"]), rating=int(row["rating"]),
                     check_set=bool(row.get("check_set", False)))
        if not 1 <= item.rating <= 10:
            raise ValueError(f"{RATED_PATH}: memory {i + 1}: rating {item.rating} is not 1-10")
        out.append(item)
    return tuple(out)


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``values``, tied values given the mean of their ranks."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):
        tied = values == v
        ranks[tied] = ranks[tied].mean()
    return ranks


def rank_correlation(a: list[int], b: list[int]) -> float:
    """Spearman's rank correlation of two equal-length lists: Pearson's r of their ranks (ties
    averaged); 0.0 when either list is constant (its ranks carry no order)."""
    ra, rb = _ranks(np.asarray(a, float)), _ranks(np.asarray(b, float))
    if ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


@dataclass(frozen=True)
class Fit:
    """Ratings against hand ratings: mean absolute error (points of the 1-10 scale), rank
    correlation (-1..1), the share at 1 or 10 (0..1), and how many were compared."""

    mae: float
    rank: float
    extremes: float
    n: int


def fit(ratings: list[int], hand: list[int]) -> Fit:
    """How ``ratings`` agree with ``hand`` (equal lengths, at least one)."""
    r, h = np.asarray(ratings, float), np.asarray(hand, float)
    return Fit(mae=float(np.abs(r - h).mean()), rank=rank_correlation(ratings, hand),
               extremes=float(np.isin(r, (1, 10)).mean()), n=len(hand))


@dataclass(frozen=True, kw_only=True)
class Calibration:
    """What a run does with a model's importance ratings: the model's weight (0..1) against the
    embedded rater's, the check set's fit (None: no valid answer), and why, in words."""

    weight: float
    reason: str
    fit: Fit | None = None

    def to_meta(self) -> dict[str, Any]:
        """As the run's meta ``importance_calibration`` holds it."""
        return {"weight": self.weight, "reason": self.reason, "fit": None if self.fit is None else asdict(self.fit)}

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> Calibration:
        """From :meth:`to_meta`'s dict."""
        return cls(weight=float(data["weight"]), reason=str(data["reason"]),
                   fit=None if data.get("fit") is None else Fit(**data["fit"]))

    def line(self) -> str:
        """One line for ``stats``: "importance: model ratings ... because ..."."""
        what = ("kept as they are" if self.weight == 1 else "replaced by the embedded rater's" if self.weight == 0
                else f"blended with the embedded rater's ({self.weight:.0%} model)")
        return f"importance: model ratings {what} because {self.reason}"


def decide(got: Fit | None) -> Calibration:
    """The weight for a check set's fit (see the module's docstring)."""
    if got is None:
        return Calibration(weight=1.0, reason="the model gave no valid answer to the start-up check, so nothing "
                                              "was measured")
    said = (f"on {got.n} memories rated by hand they were off by {got.mae:.1f} on average, rank "
            f"correlation {got.rank:.2f}, {got.extremes:.0%} at 1 or 10")
    if got.rank < NO_ORDER:
        return Calibration(weight=0.0, fit=got, reason=f"they order nothing ({said})")
    if got.mae <= MAX_MAE and got.rank >= MIN_RANK and got.extremes <= MAX_EXTREMES:
        return Calibration(weight=1.0, fit=got, reason=f"they agree with the hand ratings ({said})")
    bad = [w for w, off in (("off", got.mae > MAX_MAE), ("bimodal", got.extremes > MAX_EXTREMES),
                            ("weakly ordered", got.rank < MIN_RANK)) if off]
    return Calibration(weight=BLEND, fit=got, reason=f"they are {' and '.join(bad)} ({said})")


def blend(weight: float, model: int, embedded: int) -> int:
    """``weight * model + (1 - weight) * embedded``, halves rounded up, within 1-10."""
    return min(10, max(1, int(np.floor(weight * model + (1 - weight) * embedded + 0.5))))


class _Attempting(Protocol):
    """What :func:`calibrate` needs of a model backend: one marked attempt."""

    def attempt(self, question: Any, *, opening: str = "") -> Any:
        """One request for ``question``, the system text opened with ``opening``."""


def shuffled(items: list[Rated]) -> list[Rated]:
    """``items`` in a fixed order unrelated to their ratings (by a hash of their text): listed
    low to high, as the set is, a model that only counts up the list would look calibrated
    (SmolLM2-135M did: off by 0.2, rank correlation 0.98)."""
    return sorted(items, key=lambda m: hashlib.sha1(m.content.encode("utf-8")).hexdigest())


def calibrate(model: _Attempting, opening: str, tries: int = 2) -> Calibration:
    """Ask ``model`` to rate the check set (one request, up to ``tries`` attempts) and decide.

    Args:
        model: a ``ModelBackend`` (its ``attempt`` never raises for a model's failure).
        opening: the start-up check's mark, opening the request's system text.
    """
    items = shuffled([m for m in rated_memories() if m.check_set])
    pid, name, summary = _CHECK_PERSONA
    question = RateImportances(persona=pid, persona_name=name, persona_summary=summary,
                               items=tuple((m.kind, m.content) for m in items))
    for _ in range(tries):
        result = model.attempt(question, opening=opening)
        if result.answer is not None:
            return decide(fit(list(result.answer.ratings), [m.rating for m in items]))
    return decide(None)
