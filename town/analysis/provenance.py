"""Who came to know a news item, when and how, from the provenance of recorded memories.

A chain ends at a root: a memory with no ``source`` and no ``evidence`` whose ``probe`` key names
the item's probe (a seeded memory, a whisper, a news event). A chat memory leads where its
``source`` record (the speaker's memory it was told from) leads; a plan or reflection leads
where any of its ``evidence`` leads. Holding is not recalling: the upper bound of diffusion
(Park et al. 2023 §7.1.1) and the invitations of a gathering (§7.1.3) are counted from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..events import EventKind
from .moments import start_seq

__all__ = ["MemoryFact", "KnowledgeOnset", "load_memories", "leads_to", "knowledge", "heard_via_conversation",
           "plans_including"]


#: How a persona came to know a news item (the kind of the memory that made it known).
VIA_SEED, VIA_NEWS, VIA_WHISPER, VIA_CONVERSATION, VIA_INFERENCE = (
    "seed", "news", "whisper", "conversation", "inference")


@dataclass(frozen=True, kw_only=True)
class MemoryFact:
    """The provenance-relevant part of one recorded memory (from its MEMORY event).

    Attributes:
        persona: owner's id.
        id: record id within the owner's stream.
        seq: seq of the MEMORY event; tick: its tick.
        kind: observation | chat | reflection | plan | whisper.
        content: the sentence.
        subject: persona id the memory is about, if any.
        source: (speaker id, speaker's record id) for a memory heard in a conversation.
        evidence: record ids (same persona) a plan or reflection rests on.
        probe: the evaluation probe a seeded memory seeds, if any.
    """

    persona: str
    id: int
    seq: int
    tick: int
    kind: str
    content: str
    subject: str | None = None
    source: tuple[str, int] | None = None
    evidence: tuple[int, ...] = ()
    probe: str | None = None


def load_memories(reader) -> dict[tuple[str, int], MemoryFact]:
    """Every recorded memory of the town's personas, keyed by ``(persona, record id)``, in seq order.

    A player who joined from the viewer (not in the run's personas) is left out of every measure;
    nobody's memory has a player's memory as its source, so no chain passes through one.
    """
    town = set(reader.personas())
    out: dict[tuple[str, int], MemoryFact] = {}
    for e in reader.events(kinds=[EventKind.MEMORY]):
        d = e.data
        if d["persona"] not in town:
            continue
        source = d.get("source")
        out[(d["persona"], int(d["id"]))] = MemoryFact(
            persona=d["persona"], id=int(d["id"]), seq=e.seq, tick=e.tick, kind=d["kind"],
            content=d["content"], subject=d.get("subject"),
            source=None if not source else (str(source[0]), int(source[1])),
            evidence=tuple(int(i) for i in d.get("evidence") or ()),
            probe=d.get("probe"))
    return out


@dataclass(frozen=True, kw_only=True)
class KnowledgeOnset:
    """When and how a persona first came to know a news item.

    Attributes:
        persona: who knows.
        seq, tick: of the first memory whose provenance chain leads to the item.
        memory: that memory's record id.
        via: "seed" | "news" | "whisper" | "conversation" | "inference" (plan or reflection).
        source: for "conversation", the (speaker id, record id) it was heard from.
    """

    persona: str
    seq: int
    tick: int
    memory: int
    via: str
    source: tuple[str, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"persona": self.persona, "seq": self.seq, "tick": self.tick, "memory": self.memory,
                "via": self.via, "source": None if self.source is None else list(self.source)}


def leads_to(memories: dict[tuple[str, int], MemoryFact], tag: str) -> dict[tuple[str, int], bool]:
    """For every memory, whether its provenance chain leads to a root seeding probe ``tag``.

    Sources and evidence always point to earlier memories, so one pass in seq order suffices.
    """
    verdict: dict[tuple[str, int], bool] = {}
    for key, m in sorted(memories.items(), key=lambda kv: kv[1].seq):
        if m.source is not None:
            verdict[key] = verdict.get(m.source, False)
        elif m.evidence:
            verdict[key] = any(verdict.get((m.persona, e), False) for e in m.evidence)
        else:
            verdict[key] = m.probe == tag
    return verdict


def _via(m: MemoryFact, seed_until: int) -> str:
    if m.source is not None:
        return VIA_CONVERSATION
    if m.evidence:
        return VIA_INFERENCE
    if m.kind == "whisper":
        return VIA_WHISPER
    return VIA_SEED if m.seq <= seed_until else VIA_NEWS


def knowledge(reader, tag: str, *, memories: dict | None = None) -> dict[str, KnowledgeOnset]:
    """Who knows news item ``tag`` by the end of the run, and since when (Park et al. 2023 §7.1.1).

    Args:
        reader: the run.
        tag: the probe's name (as in probes.yaml).
        memories: :func:`load_memories` output, to share one load between measures.

    Returns:
        persona id -> :class:`KnowledgeOnset` of its first memory leading to the item; personas
        who never knew it are absent.
    """
    memories = load_memories(reader) if memories is None else memories
    seed_until = start_seq(reader)
    verdict = leads_to(memories, tag)
    out: dict[str, KnowledgeOnset] = {}
    for key, m in sorted(memories.items(), key=lambda kv: kv[1].seq):
        if verdict[key] and m.persona not in out:
            out[m.persona] = KnowledgeOnset(persona=m.persona, seq=m.seq, tick=m.tick, memory=m.id,
                                            via=_via(m, seed_until), source=m.source)
    return out


def heard_via_conversation(reader, tag: str) -> dict[str, list[dict]]:
    """Memories leading to probe ``tag`` that reached each persona through a conversation.

    Returns:
        persona id -> list of {"memory", "seq", "tick", "conversation", "source", "content"}
        for chat memories with a provenance source whose chain leads to the probe's seed.
    """
    memories = load_memories(reader)
    verdict = leads_to(memories, tag)
    out: dict[str, list[dict]] = {}
    for e in reader.events(kinds=[EventKind.MEMORY]):
        d = e.data
        if d.get("kind") == "chat" and d.get("source") and verdict.get((e.persona, int(d["id"]))):
            out.setdefault(e.persona, []).append({
                "memory": d["id"], "seq": e.seq, "tick": e.tick, "conversation": d.get("conversation"),
                "source": d["source"], "content": d["content"]})
    return out


def plans_including(reader, persona: str, date: str, text: str) -> bool:
    """True if a day plan of ``persona`` for ``date`` (ISO) has a block mentioning ``text``."""
    for e in reader.events(kinds=[EventKind.PLAN], persona=persona):
        if e.data.get("level") == "day" and e.data.get("date") == date:
            needle = text.lower()
            if any(needle in (b.get("description") or "").lower() or needle in (b.get("place") or "").lower()
                   for b in e.data["items"]):
                return True
    return False
