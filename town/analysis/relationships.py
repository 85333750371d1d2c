"""Relationship network density (Park et al. 2023 §7.1.2).

``eta = 2|E| / (|V|(|V|-1))`` over the undirected graph whose edge joins two personas who each,
asked "Do you know <name>?", say yes from a retrieved memory about the other that is more than a
sighting (:func:`acquainted`).
"""

from __future__ import annotations

from typing import Any

from .interview import InterviewResult, says_yes
from .moments import Moment

__all__ = ["acquainted", "density"]


#: Memory kinds that show more than a sighting of the person they are about.
_ACQUAINTED_KINDS = frozenset({"chat", "whisper", "reflection"})


def _knows_of(memory: dict[str, Any], other: str, name: str, seeded_until: int) -> bool:
    """True when a recorded memory is about ``other`` and is more than a sighting of them.

    About: its ``subject`` is ``other`` or its content holds ``name``. More than a sighting: a
    conversation (kind chat), something heard (a whisper, or an observation written during the
    run without a subject: a news event), a relationship (an observation seeded before the
    first tick, e.g. from the persona file) or a reflection. A perceived observation (written
    during the run with a subject, "X is ... at ...") and one's own plan are not.
    """
    if memory.get("subject") != other and name not in memory["content"]:
        return False
    if memory["kind"] in _ACQUAINTED_KINDS:
        return True
    if memory["kind"] == "observation":
        return memory["seq"] <= seeded_until or memory.get("subject") is None
    return False


def acquainted(result: InterviewResult, other: str, name: str, seeded_until: int) -> bool:
    """True when ``result`` (the answer to "Do you know <name>?") shows acquaintance with ``other``.

    The answer says yes (:func:`town.analysis.interview.says_yes`) and at least one memory it was given
    is about ``other`` and more than a sighting (see :func:`_knows_of`).

    Args:
        result: the interview.
        other: the other persona's id.
        name: their full name.
        seeded_until: :func:`start_seq` of the run (observations up to it were seeded).
    """
    return says_yes(result.answer) and any(
        _knows_of(m, other, name, seeded_until) for m in result.retrieved)


def density(moments_: list[Moment], answers: dict[tuple[int, str, str], InterviewResult],
            names: dict[str, str], seeded_until: int) -> dict[str, Any]:
    """Relationship network density ``2|E| / (|V|(|V|-1))`` at the given moments (§7.1.2).

    Args:
        moments_: the moments asked at (:func:`moments`: the start, every 12 game hours, the end).
        answers: (moment index, asked persona, other persona) -> the interview "Do you know
            <other's name>?" of the asked persona then.
        names: persona id -> full name.
        seeded_until: :func:`start_seq` of the run.

    Returns:
        ``{"personas": N, "start", "end", "edges_start", "edges_end", "series": [{"hour",
        "time", "count" (edges), "share" (density), "edges": [[a, b], ...]}, ...] (one per
        moment), "edges": [[a, b], ...] (at the end), "one_sided_end": [[a, b], ...] (a knows b
        but not b a, at the end)}``.
    """
    ids = sorted(names)
    n = len(ids)
    pairs = n * (n - 1) // 2
    series, one_sided = [], []
    for i, m in enumerate(moments_):
        knows = {(a, b) for a in ids for b in ids
                 if a != b and acquainted(answers[(i, a, b)], b, names[b], seeded_until)}
        edges = sorted([a, b] for a, b in knows if a < b and (b, a) in knows)
        one_sided = sorted([a, b] for a, b in knows if (b, a) not in knows)
        series.append({"hour": m.hour, "time": m.time.isoformat(sep=" "), "count": len(edges),
                       "share": len(edges) / pairs if pairs else 0.0, "edges": edges})
    return {"personas": n, "start": series[0]["share"], "end": series[-1]["share"],
            "edges_start": series[0]["count"], "edges_end": series[-1]["count"],
            "series": series, "edges": series[-1]["edges"], "one_sided_end": one_sided}
