"""A retrieval's candidates as stored: only what cannot be worked out again (docs/design, §4).

A trace's candidate rows (``CandidateScore.to_dict()``, top k then runners-up) repeat what the
run file holds elsewhere (a memory's content and importance) and numbers that follow exactly
from others: the rank, whether in the top k, the normalised importance and relevance (min-max
over the stream, from its bounds), the weighted parts and the total (``w * part``, summed as
``rank_block`` sums them). IEEE arithmetic rounds ``+ - * /`` the same everywhere, so those come
back bit for bit; exponentials (recency and its normalised part) do not, and are stored.

Stored, as zlib JSON: ``{"id": [...], "seconds": [...], "recency": [...], "recency_part": [...],
"bounds": [imp_low, imp_high, rel_low, rel_high], "relevance32": [...]}``: the seconds since
last access (hours = seconds / 3600), the bounds of the two normalisations (solved from the
candidates when the stream's extremes are not among them) and the relevance as float32 (the
vectors' own precision), base64 of the little-endian bytes. Whatever does not come back exactly that way is
stored as it is (``hours``, ``importance_part``, ``relevance_part``, ``relevance``), so what
is read is always what was written.
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["pack_candidates", "unpack_candidates"]


def _parts(raw: list[float], low: float, high: float) -> list[float]:
    """``(raw - low) / (high - low)`` per value as ``scoring._rescale`` computes it (0.5 when equal)."""
    if high == low:
        return [0.5] * len(raw)
    span = high - low
    return [(r - low) / span for r in raw]


def _near_int(value: float) -> list[float]:
    """Whole numbers next to ``value`` (importance is a whole number), nearest first."""
    if not math.isfinite(value):
        return []
    base = round(value)
    return [float(base + d) for d in (0, -1, 1, -2, 2)]


def _near_float32(value: float) -> list[float]:
    """float32 values next to ``value`` (relevance is a float32 cosine), nearest first."""
    if not math.isfinite(value):
        return []
    x = np.float32(value)
    out, lo, hi = [float(x)], x, x
    for _ in range(3):
        lo, hi = np.nextafter(lo, np.float32(-np.inf)), np.nextafter(hi, np.float32(np.inf))
        out += [float(lo), float(hi)]
    return out


def _bounds(parts: list[float], raw: list[float], near) -> tuple[float, float] | None:
    """The (low, high) of the min-max normalisation that gave ``parts`` from ``raw``, or None.

    A part of 0 is the low end, a part of 1 the high end; all 0.5: the bounds were equal. An end
    not among the candidates (the stream holds more records than they) is solved from the two
    candidates farthest apart and rounded to what the values can be (``near``: whole numbers
    or float32). A pair counts only when it gives every part back exactly.
    """
    if not parts:
        return 0.0, 0.0
    if all(p == 0.5 for p in parts) and len(set(raw)) == 1:
        return raw[0], raw[0]
    low = next((r for p, r in zip(parts, raw) if p == 0.0), None)
    high = next((r for p, r in zip(parts, raw) if p == 1.0), None)
    a, b = raw.index(max(raw)), raw.index(min(raw))
    if parts[a] == parts[b]:
        lows, highs = ([low] if low is not None else []), ([high] if high is not None else [])
    else:
        span = (raw[a] - raw[b]) / (parts[a] - parts[b])
        guess = raw[a] - parts[a] * span
        lows = [low] if low is not None else near(guess)
        highs = [high] if high is not None else near(guess + span)
    for lo in lows:
        for hi in highs:
            if _parts(raw, lo, hi) == parts:
                return lo, hi
    return None


def pack_candidates(candidates: Sequence[Mapping[str, Any]]) -> bytes:
    """The stored form of a trace's candidates (``CandidateScore.to_dict()`` rows, best first).

    When the normalised importance or relevance of the candidates cannot be worked out again
    from bounds (the stream's extremes are not among the candidates), those parts are stored
    as they are, so what is read back is always what was written.
    """
    ids = [c["id"] for c in candidates]
    importance = [float(c["importance"]) for c in candidates]
    relevance = [c["relevance"] for c in candidates]
    columns: dict[str, Any] = {
        "id": ids,
        "seconds": [round(c["hours"] * 3600) for c in candidates],
        "recency": [c["recency"] for c in candidates],
        "recency_part": [c["recency_part"] for c in candidates],
    }
    imp = _bounds([c["importance_part"] for c in candidates], importance, _near_int)
    rel = _bounds([c["relevance_part"] for c in candidates], relevance, _near_float32)
    if imp is None:
        columns["importance_part"] = [c["importance_part"] for c in candidates]
        imp = (0.0, 0.0)
    if rel is None:
        columns["relevance_part"] = [c["relevance_part"] for c in candidates]
        rel = (0.0, 0.0)
    if [s / 3600.0 for s in columns["seconds"]] != [c["hours"] for c in candidates]:
        columns["hours"] = [c["hours"] for c in candidates]
        del columns["seconds"]
    columns["bounds"] = [*imp, *rel]
    as32 = np.array(relevance, dtype="<f4")
    if (as32 == np.array(relevance)).all():  # as the vectors give them: float32
        columns["relevance32"] = base64.b64encode(as32.tobytes()).decode()
    else:
        columns["relevance"] = relevance
    return zlib.compress(json.dumps(columns, separators=(",", ":")).encode(), 6)


def unpack_candidates(blob: bytes, *, weights: Sequence[float], k: int,
                      memories: Callable[[list[int]], Mapping[int, tuple[str, int]]]) -> list[dict[str, Any]]:
    """The candidate rows :func:`pack_candidates` stored, as ``CandidateScore.to_dict()`` dicts.

    Args:
        blob: the stored form.
        weights: the retrieval's (recency, importance, relevance) weights.
        k: its k (the first ``min(k, n)`` rows are the top k).
        memories: ``memories(ids)`` -> record id -> (content, importance) of those records.

    Raises:
        zlib.error, ValueError, KeyError, TypeError: when the blob is damaged or a record is
            missing (the reader names the file and the retrieval).
    """
    c = json.loads(zlib.decompress(blob))
    ids = c["id"]
    records = memories(ids)
    contents, importance = zip(*(records[i] for i in ids)) if ids else ((), ())
    hours = c["hours"] if "hours" in c else [s / 3600.0 for s in c["seconds"]]
    relevance = (c["relevance"] if "relevance" in c
                 else np.frombuffer(base64.b64decode(c["relevance32"]), "<f4").astype(float).tolist())
    imp_low, imp_high, rel_low, rel_high = c["bounds"]
    importance_part = c.get("importance_part") or _parts([float(i) for i in importance], imp_low, imp_high)
    relevance_part = c.get("relevance_part") or _parts(relevance, rel_low, rel_high)
    w_rec, w_imp, w_rel = (float(w) for w in weights)
    rows = []
    for rank, (i, h, rec, rec_p, imp_p, rel, rel_p) in enumerate(zip(
            ids, hours, c["recency"], c["recency_part"], importance_part, relevance, relevance_part), start=1):
        scores = (rec_p if w_rec == 1.0 else rec_p * w_rec, imp_p if w_imp == 1.0 else imp_p * w_imp,
                  rel_p if w_rel == 1.0 else rel_p * w_rel)
        rows.append({"rank": rank, "id": i, "content": contents[rank - 1], "hours": h, "recency": rec,
                     "importance": importance[rank - 1], "relevance": rel, "recency_part": rec_p,
                     "importance_part": imp_p, "relevance_part": rel_p, "recency_score": scores[0],
                     "importance_score": scores[1], "relevance_score": scores[2],
                     "total": (scores[0] + scores[1]) + scores[2], "in_top_k": rank <= k})
    return rows
