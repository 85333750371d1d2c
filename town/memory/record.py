"""One entry of a persona's memory stream (Park et al. 2023 §4.1).

A :class:`MemoryRecord` is a frozen value; the stream replaces it (:meth:`MemoryRecord.accessed`)
when a retrieval moves its ``last_accessed``. Its embedding is not part of the record: vectors live
only in the stream's FAISS index (see :class:`town.memory.stream.MemoryStream`).
"""

from __future__ import annotations

import dataclasses
import enum
import numbers
from datetime import datetime
from typing import Any

from town.errors import MemoryStreamError
from town.memory.fact import Decided, Fact, PlanItem, tellers_from_list, tellers_to_list
from town.memory.times import TIME_FORMAT, format_time, parse_time

__all__ = [
    "MemoryKind",
    "MemoryRecord",
    "TIME_FORMAT",
    "format_time",
    "parse_time",
    "parse_kind",
]

class MemoryKind(str, enum.Enum):
    """What a memory record is: the closed set of the paper's memory types plus whispers."""

    OBSERVATION = "observation"
    CHAT = "chat"
    REFLECTION = "reflection"
    PLAN = "plan"
    WHISPER = "whisper"  # an injected "inner voice" (Park et al. 2023 §3.1's user control)


def parse_kind(value: object) -> MemoryKind:
    """A :class:`MemoryKind` from itself or its value.

    Raises:
        MemoryStreamError: naming ``kind`` and listing the kinds, for an unknown kind.
    """
    try:
        return MemoryKind(value)
    except ValueError:
        kinds = ", ".join(k.value for k in MemoryKind)
        raise MemoryStreamError(f"kind: must be one of {kinds}, got {value!r}") from None


@dataclasses.dataclass(frozen=True, kw_only=True)
class MemoryRecord:
    """A memory record of one persona.

    Attributes:
        id: stable id within the persona's stream (0, 1, 2, ...).
        persona: persona id owning the stream.
        kind: observation, chat, reflection, plan or whisper.
        content: one natural-language sentence (non-empty).
        created: game datetime the record was written.
        last_accessed: game datetime of the last retrieval returning it (``created`` until then).
        importance: poignancy, int 1-10 (Park et al. 2023 §4.1).
        evidence: ids of the records a reflection was drawn from.
        subject, predicate, object: optional triple describing the event.
        conversation: id of the conversation the record came from, if any.
        source: ``(persona id, record id)`` it was heard from, if any.
        probe: name of the evaluation probe a seeded memory, whisper or news event seeds
            (measurement only: no decision reads it, and heard memories never copy it; an
            evaluation follows ``source`` chains back to the memory carrying it).
        fact: what the memory states as the persona understood it when it was made
            (:class:`~town.memory.fact.Fact`), or None where it understood no statement.
        tellers: ``((name, game datetime), ...)`` who told it and when, oldest first; hearing a
            known fact again adds a teller here instead of a copy of the record.
        plan_items: a plan memory's blocks (:class:`~town.memory.fact.PlanItem`), in order.
        decisions: a plan memory's decisions about events (:class:`~town.memory.fact.Decided`).

    Raises:
        MemoryStreamError: naming the field, for an importance outside 1-10 or not an int, empty
            content, a negative id or a malformed source.
    """

    id: int
    persona: str
    kind: MemoryKind
    content: str
    created: datetime
    last_accessed: datetime
    importance: int
    evidence: tuple[int, ...] = ()
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    conversation: int | None = None
    source: tuple[str, int] | None = None
    probe: str | None = None
    fact: Fact | None = None
    tellers: tuple[tuple[str, datetime], ...] = ()
    plan_items: tuple[PlanItem, ...] = ()
    decisions: tuple[Decided, ...] = ()

    def __post_init__(self) -> None:
        check_importance(self.importance)
        object.__setattr__(self, "importance", int(self.importance))
        check_content(self.content)
        if isinstance(self.id, bool) or not isinstance(self.id, int) or self.id < 0:
            raise MemoryStreamError(f"id: must be an int >= 0, got {self.id!r}")
        if not isinstance(self.kind, MemoryKind):
            raise MemoryStreamError(f"kind: must be a MemoryKind, got {self.kind!r}")
        if self.source is not None and (
            len(self.source) != 2 or not isinstance(self.source[1], int)
        ):
            raise MemoryStreamError(f"source: must be (persona id, record id), got {self.source!r}")
        if self.fact is not None and not isinstance(self.fact, Fact):
            raise MemoryStreamError(f"fact: must be a Fact, got {self.fact!r}")
        object.__setattr__(self, "tellers", tuple((str(n), t) for n, t in self.tellers))
        object.__setattr__(self, "plan_items", tuple(self.plan_items))
        object.__setattr__(self, "decisions", tuple(self.decisions))

    def with_fields(self, **changes: Any) -> MemoryRecord:
        """A copy with some fields changed (checked again, as a new record is)."""
        return dataclasses.replace(self, **changes)

    def accessed(self, now: datetime) -> MemoryRecord:
        """A copy whose ``last_accessed`` is ``now`` (a retrieval returned the record).

        Skips re-validating the other fields, which were checked when the record was made: a
        retrieval touches k records, and ``dataclasses.replace`` would re-run ``__post_init__``.
        """
        fields = self.__dict__.copy()  # one copy of the compact dict, no re-hashing
        fields["last_accessed"] = now
        copy = object.__new__(MemoryRecord)
        object.__setattr__(copy, "__dict__", fields)
        return copy

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (datetimes as ``"YYYY-MM-DD HH:MM:SS"``; no embedding)."""
        return {
            "id": self.id,
            "persona": self.persona,
            "kind": self.kind.value,
            "content": self.content,
            "created": format_time(self.created),
            "last_accessed": format_time(self.last_accessed),
            "importance": self.importance,
            "evidence": list(self.evidence),
            "subject": self.subject,
            "predicate": self.predicate,
            "object": self.object,
            "conversation": self.conversation,
            "source": None if self.source is None else [self.source[0], self.source[1]],
            "probe": self.probe,
            "fact": None if self.fact is None else self.fact.to_dict(),
            "tellers": tellers_to_list(self.tellers),
            "plan_items": [item.to_dict() for item in self.plan_items],
            **({"decisions": [d.to_dict() for d in self.decisions]} if self.decisions else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MemoryRecord:
        """Inverse of :meth:`to_dict`.

        Raises:
            MemoryStreamError: naming the field that is missing or malformed.
        """
        try:
            source = d.get("source")
            return cls(
                id=int(d["id"]),
                persona=str(d["persona"]),
                kind=parse_kind(d["kind"]),
                content=str(d["content"]),
                created=parse_time(d["created"], field="created"),
                last_accessed=parse_time(d["last_accessed"], field="last_accessed"),
                importance=d["importance"],
                evidence=tuple(int(e) for e in d.get("evidence") or ()),
                subject=d.get("subject"),
                predicate=d.get("predicate"),
                object=d.get("object"),
                conversation=None if d.get("conversation") is None else int(d["conversation"]),
                source=None if source is None else (str(source[0]), int(source[1])),
                probe=None if d.get("probe") is None else str(d["probe"]),
                fact=None if d.get("fact") is None else Fact.from_dict(d["fact"]),
                tellers=tellers_from_list(d.get("tellers") or ()),
                plan_items=tuple(PlanItem.from_dict(i) for i in d.get("plan_items") or ()),
                decisions=tuple(Decided.from_dict(i) for i in d.get("decisions") or ()),
            )
        except KeyError as exc:
            raise MemoryStreamError(f"memory record: missing field {exc.args[0]!r}") from None
        except ValueError as exc:
            if isinstance(exc, MemoryStreamError):
                raise
            raise MemoryStreamError(f"memory record: {exc}") from None


def check_importance(value: object) -> None:
    """Refuse an importance that is not an int in 1-10.

    Raises:
        MemoryStreamError: naming ``importance``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= int(value) <= 10:
        raise MemoryStreamError(f"importance: must be an int in 1-10, got {value!r}")


def check_content(value: object) -> None:
    """Refuse content that is not a non-empty string.

    Raises:
        MemoryStreamError: naming ``content``.
    """
    if not isinstance(value, str) or not value.strip():
        raise MemoryStreamError(f"content: must be a non-empty sentence, got {value!r}")
