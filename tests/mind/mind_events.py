"""Helpers over the events the mind's unit tests collect (imported by name, unlike conftest)."""

from __future__ import annotations

from town.events import EventKind


def retrieval_ids(seen, seq) -> list[int]:
    """Ids returned by the RETRIEVAL event ``seq`` among the collected events."""
    (event,) = [e for e in seen if e.seq == int(seq) and e.kind is EventKind.RETRIEVAL]
    return [c["id"] for c in event.data["candidates"] if c["in_top_k"]]
