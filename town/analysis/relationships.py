"""Relationship network density (Park et al. 2023 §7.1.2).

``eta = 2|E| / (|V|(|V|-1))`` over the undirected graph whose edge joins two personas who each,
asked "Do you know <name>?", say yes from a retrieved memory about the other that is more than a
sighting (:func:`acquainted`).

Only pairs that can pass that test are asked. A retrieved memory is one of the stream's, so a
persona whose stream, as of the moment, holds no memory about the other that is more than a
sighting cannot be acquainted with them, whatever it answers: :func:`holders` finds, from the
recorded memories, when each persona first holds one about each other persona, and
:func:`density` counts every pair not asked as not acquainted. The result is the one asking every
pair would give, with any backend; the report says how many pairs were asked and how many were
screened out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .interview import InterviewResult, says_yes
from .moments import Moment
from .provenance import MemoryFact

__all__ = ["acquainted", "holders", "density"]


#: Memory kinds that show more than a sighting of the person they are about.
_ACQUAINTED_KINDS = frozenset({"chat", "whisper", "reflection"})


def _beyond_sighting(kind: str, seq: int, subject: str | None, seeded_until: int) -> bool:
    """True when a memory of this kind, event seq and subject shows more than a sighting.

    A conversation (kind chat), something heard (a whisper, or an observation written during the
    run without a subject: a news event), a relationship (an observation seeded before the first
    tick, e.g. from the persona file) or a reflection. A perceived observation (written during the
    run with a subject, "X is ... at ...") and one's own plan are not.
    """
    if kind in _ACQUAINTED_KINDS:
        return True
    if kind == "observation":
        return seq <= seeded_until or subject is None
    return False


def _knows_of(memory: dict[str, Any], other: str, name: str, seeded_until: int) -> bool:
    """True when a recorded memory is about ``other`` and is more than a sighting of them.

    About: its ``subject`` is ``other`` or its content holds ``name``. More than a sighting: see
    :func:`_beyond_sighting`.
    """
    if memory.get("subject") != other and name not in memory["content"]:
        return False
    return _beyond_sighting(memory["kind"], memory["seq"], memory.get("subject"), seeded_until)


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


def holders(memories: Iterable[MemoryFact], names: dict[str, str], seeded_until: int) -> dict[tuple[str, str], int]:
    """When each persona first holds a memory about each other persona that is more than a sighting.

    The memories :func:`acquainted` accepts (:func:`_knows_of`), found over the whole run: the
    owner's memory has the other as ``subject`` or holds the other's full name, and is more than
    a sighting. Before that seq no interview of the owner about the other can show acquaintance.

    Args:
        memories: the run's memories (:func:`town.analysis.provenance.load_memories` values).
        names: persona id -> full name (the personas asked about).
        seeded_until: :func:`start_seq` of the run.

    Returns:
        ``(owner, other) -> seq`` of the owner's first such memory about ``other`` (``other`` in
        ``names`` and not the owner); pairs with none are absent.
    """
    first: dict[tuple[str, str], int] = {}
    named: dict[str, tuple[str, ...]] = {}  # content -> ids of the personas whose name it holds
    for m in memories:
        if not _beyond_sighting(m.kind, m.seq, m.subject, seeded_until):
            continue
        if m.content not in named:
            named[m.content] = tuple(b for b, name in names.items() if name in m.content)
        for b in {m.subject, *named[m.content]}:
            if b in names and b != m.persona and m.seq < first.get((m.persona, b), m.seq + 1):
                first[(m.persona, b)] = m.seq
    return first


def density(moments_: list[Moment], verdicts: dict[tuple[int, str, str], bool],
            names: dict[str, str]) -> dict[str, Any]:
    """Relationship network density ``2|E| / (|V|(|V|-1))`` at the given moments (§7.1.2).

    Args:
        moments_: the moments asked at (:func:`moments`: the start, every 12 game hours, the end).
        verdicts: (moment index, asked persona, other persona) -> whether the asked persona's
            interview "Do you know <other's name>?" then shows acquaintance (:func:`acquainted`),
            for the pairs asked; a pair not asked (screened out by :func:`holders`) is not
            acquainted. Verdicts rather than interviews: a 250-persona town asks tens of
            thousands of pairs per moment.
        names: persona id -> full name.

    Returns:
        ``{"personas": N, "start", "end", "edges_start", "edges_end", "asked", "screened",
        "series": [{"hour", "time", "count" (edges), "share" (density), "asked" (ordered pairs
        interviewed), "screened" (ordered pairs not: no memory about the other that is more than
        a sighting), "edges": [[a, b], ...]}, ...] (one per moment), "edges": [[a, b], ...] (at
        the end), "one_sided_end": [[a, b], ...] (a knows b but not b a, at the end)}``;
        ``asked`` and ``screened`` at the top are summed over the moments.
    """
    ids = sorted(names)
    n = len(ids)
    pairs = n * (n - 1) // 2
    series, one_sided = [], []
    for i, m in enumerate(moments_):
        asked = {(a, b): known for (j, a, b), known in verdicts.items() if j == i}
        knows = {pair for pair, known in asked.items() if known}
        edges = sorted([a, b] for a, b in knows if a < b and (b, a) in knows)
        one_sided = sorted([a, b] for a, b in knows if (b, a) not in knows)
        series.append({"hour": m.hour, "time": m.time.isoformat(sep=" "), "count": len(edges),
                       "share": len(edges) / pairs if pairs else 0.0, "asked": len(asked),
                       "screened": 2 * pairs - len(asked), "edges": edges})
    return {"personas": n, "start": series[0]["share"], "end": series[-1]["share"],
            "edges_start": series[0]["count"], "edges_end": series[-1]["count"],
            "asked": sum(p["asked"] for p in series), "screened": sum(p["screened"] for p in series),
            "series": series, "edges": series[-1]["edges"], "one_sided_end": one_sided}
