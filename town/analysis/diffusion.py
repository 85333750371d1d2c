"""Information diffusion (Park et al. 2023 §7.1.1): who recalls a news item when asked, at each moment.

A persona knows the item at a moment when its answer to the probe's question matches every one
of the probe's facts (:func:`recalls`). Beside it, an upper bound: the personas *holding* a
memory whose provenance chain leads to the item (:func:`town.analysis.provenance.knowledge`).
"""

from __future__ import annotations

import re
from typing import Any

from .interview import InterviewResult
from .moments import Moment
from .provenance import KnowledgeOnset

__all__ = ["recalls", "diffusion"]


def recalls(answer: str, facts) -> bool:
    """True when ``answer`` matches every regular expression of ``facts`` (case-insensitive)."""
    return all(re.search(f, answer, re.IGNORECASE) for f in facts)


def diffusion(probe, moments_: list[Moment], answers: dict[tuple[int, str], InterviewResult],
              personas: list[str], onsets: dict[str, KnowledgeOnset]) -> dict[str, Any]:
    """Share of personas who recall news ``probe`` when asked, at each moment (§7.1.1).

    Args:
        probe: a :class:`town.scenario.Probe` (its name, question and facts).
        moments_: the sample moments.
        answers: (moment index, persona) -> that persona's interview about the probe then.
        personas: the run's persona ids.
        onsets: :func:`knowledge` of the probe (for the provenance upper bound).

    Returns:
        ``{"probe", "question", "facts", "personas": N, "start", "end", "start_count",
        "end_count", "bound": {"start", "end", "start_count", "end_count"}, "series": [{"hour",
        "time", "count", "share", "bound_count", "bound_share", "recalled": [pid]}, ...],
        "knowers": {pid: KnowledgeOnset.to_dict()}, "answers": {pid: answer at the end}}``:
        shares are of N; ``bound`` counts personas holding a memory whose chain leads to the
        probe's seed (an upper bound of recall).
    """
    n = len(personas)
    series = []
    for i, m in enumerate(moments_):
        recalled = [p for p in personas if recalls(answers[(i, p)].answer, probe.facts)]
        bound = sum(1 for o in onsets.values() if o.seq < m.seq)
        series.append({"hour": m.hour, "time": m.time.isoformat(sep=" "), "count": len(recalled),
                       "share": len(recalled) / n if n else 0.0, "bound_count": bound,
                       "bound_share": bound / n if n else 0.0, "recalled": recalled})
    first, last = series[0], series[-1]
    end = len(moments_) - 1
    return {
        "probe": probe.name, "question": probe.question, "facts": list(probe.facts), "personas": n,
        "start": first["share"], "end": last["share"],
        "start_count": first["count"], "end_count": last["count"],
        "bound": {"start": first["bound_share"], "end": last["bound_share"],
                  "start_count": first["bound_count"], "end_count": last["bound_count"]},
        "series": series,
        "knowers": {p: o.to_dict() for p, o in sorted(onsets.items())},
        "answers": {p: answers[(end, p)].answer for p in personas},
    }
