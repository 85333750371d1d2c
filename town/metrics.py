"""Measures over a recorded run (Park et al. 2023 §7): diffusion, relationships, attendance, cost.

All functions read a :class:`town.recording.RunReader` only; nothing needs the simulation.

* **Information diffusion** (§7.1.1): a persona knows a news item when it holds a memory whose
  *provenance chain* leads to the item. A chain ends at a root: a memory with no ``source`` and
  no ``evidence`` whose ``probe`` key names the item's probe (a seeded memory, a whisper, a news
  event). A chat memory leads where its ``source`` record (the speaker's memory it was told from)
  leads; a plan or reflection leads where any of its ``evidence`` leads.
* **Relationship network density** (§7.1.2): ``eta = 2|E| / (|V|(|V|-1))`` over the undirected
  graph whose edge joins two personas who *both* hold a memory naming the other (its ``subject``
  is the other's id, or its content contains the other's full name).
* **Attendance** (§7.1.3): invited = received the item through a conversation or a whisper
  (the host excluded); attended = on tiles of the gathering place for at least ``min_minutes``
  game minutes inside its time window.
* **Cost**: model calls and tokens per persona per game hour, from MODEL_CALL events.

"Start" means the state written before the first tick: the seeded memories, up to the seq of
the run's initial snapshot (the one before tick 0). Time series are sampled at the end of every
game hour, counting memories of ticks up to that point.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .events import EventKind

__all__ = [
    "minutes_at",
    "heard_via_conversation",
    "plans_including",
    "MemoryFact",
    "KnowledgeOnset",
    "load_memories",
    "start_seq",
    "knowledge",
    "diffusion",
    "relationship_edges",
    "density",
    "attendance",
    "cost",
]

#: How a persona came to know a news item (the kind of the memory that made it known).
VIA_SEED, VIA_NEWS, VIA_WHISPER, VIA_CONVERSATION, VIA_INFERENCE = (
    "seed", "news", "whisper", "conversation", "inference")


def minutes_at(reader, place: str, start: datetime, end: datetime) -> dict[str, float]:
    """Game minutes each persona spent on tiles of ``place`` (address prefix) in [start, end).

    Counted from the recorded frames: each frame is one tick of ``seconds_per_tick`` seconds.

    Returns:
        persona id -> game minutes (0.0 for personas never there).
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    first = max(0, int((start - t0).total_seconds() // spt))
    last = int((end - t0).total_seconds() // spt) - 1
    out = {pid: 0.0 for pid in reader.personas()}
    if last < first:
        return out
    prefix = place if place.endswith(":") else place + ":"
    for frame in reader.frames(first, last):
        for pid, st in frame["personas"].items():
            address = st.get("address") or ""
            if address == place or address.startswith(prefix):
                out[pid] = out.get(pid, 0.0) + spt / 60
    return out


def heard_via_conversation(reader, tag: str) -> dict[str, list[dict]]:
    """Memories leading to probe ``tag`` that reached each persona through a conversation.

    Returns:
        persona id -> list of {"memory", "seq", "tick", "conversation", "source", "content"}
        for chat memories with a provenance source whose chain leads to the probe's seed.
    """
    memories = load_memories(reader)
    verdict = _leads_to(memories, tag)
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


# ---------------------------------------------------------------------------- memories
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
    """Every recorded memory, keyed by ``(persona, record id)``, in seq order."""
    out: dict[tuple[str, int], MemoryFact] = {}
    for e in reader.events(kinds=[EventKind.MEMORY]):
        d = e.data
        source = d.get("source")
        out[(d["persona"], int(d["id"]))] = MemoryFact(
            persona=d["persona"], id=int(d["id"]), seq=e.seq, tick=e.tick, kind=d["kind"],
            content=d["content"], subject=d.get("subject"),
            source=None if not source else (str(source[0]), int(source[1])),
            evidence=tuple(int(i) for i in d.get("evidence") or ()),
            probe=d.get("probe"))
    return out


def start_seq(reader) -> int:
    """The seq up to which events belong to the start (the snapshot written before tick 0).

    Returns:
        The seq of the earliest snapshot taken before the first recorded tick, else 0.
    """
    first = reader.first_tick or 0
    before = [seq for tick, _, seq in reader.snapshots() if tick < first]
    return min(before) if before else 0


# ---------------------------------------------------------------------------- diffusion
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


def _leads_to(memories: dict[tuple[str, int], MemoryFact], tag: str) -> dict[tuple[str, int], bool]:
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
    verdict = _leads_to(memories, tag)
    out: dict[str, KnowledgeOnset] = {}
    for key, m in sorted(memories.items(), key=lambda kv: kv[1].seq):
        if verdict[key] and m.persona not in out:
            out[m.persona] = KnowledgeOnset(persona=m.persona, seq=m.seq, tick=m.tick, memory=m.id,
                                            via=_via(m, seed_until), source=m.source)
    return out


def _hour_ticks(reader) -> tuple[int, int]:
    """(ticks per game hour, number of whole or partial game hours recorded)."""
    spt = int(reader.meta.get("seconds_per_tick", 10))
    per_hour = max(1, 3600 // spt)
    last = reader.last_tick
    hours = 0 if last is None else -(-(last + 1) // per_hour)
    return per_hour, hours


def _series(onsets: dict[str, tuple[int, int]], n: int, reader, seed_until: int) -> list[dict]:
    """Counts over game hours of items whose onset (seq, tick) has happened, as shares of ``n``."""
    per_hour, hours = _hour_ticks(reader)
    t0 = datetime.fromisoformat(reader.meta["start"])
    points = []
    for h in range(hours + 1):
        if h == 0:
            count = sum(1 for seq, _ in onsets.values() if seq <= seed_until)
        else:
            count = sum(1 for _, tick in onsets.values() if tick < h * per_hour)
        points.append({"hour": h, "time": (t0 + timedelta(hours=h)).isoformat(sep=" "),
                       "count": count, "share": count / n if n else 0.0})
    return points


def diffusion(reader, tag: str, *, memories: dict | None = None) -> dict[str, Any]:
    """Share of personas who know news item ``tag`` at the start, at the end and every game hour.

    Returns:
        ``{"tag", "personas": N, "start": share, "end": share, "start_count", "end_count",
        "series": [{"hour", "time", "count", "share"}, ...] (hour 0 = start, then the end of
        each game hour), "knowers": {pid: KnowledgeOnset.to_dict()}}``.
    """
    onsets = knowledge(reader, tag, memories=memories)
    n = len(reader.personas())
    seed_until = start_seq(reader)
    series = _series({p: (o.seq, o.tick) for p, o in onsets.items()}, n, reader, seed_until)
    start_count = series[0]["count"]
    return {"tag": tag, "personas": n, "start_count": start_count, "end_count": len(onsets),
            "start": start_count / n if n else 0.0, "end": len(onsets) / n if n else 0.0,
            "series": series, "knowers": {p: o.to_dict() for p, o in sorted(onsets.items())}}


# ---------------------------------------------------------------------------- relationships
def relationship_edges(reader, *, memories: dict | None = None) -> dict[tuple[str, str], tuple[int, int]]:
    """Mutual-knowledge edges and when each formed (Park et al. 2023 §7.1.2).

    A persona *names* another when one of its memories has the other as ``subject`` or contains
    the other's full name (from the run's meta). The edge {a, b} (a < b) exists once both named
    each other.

    Returns:
        (a, b) with a < b -> (seq, tick) of the memory that completed the pair.
    """
    memories = load_memories(reader) if memories is None else memories
    listed = reader.meta.get("personas")
    names = {pid: (listed.get(pid) or {}).get("name", pid) if isinstance(listed, dict) else pid
             for pid in reader.personas()}
    first: dict[tuple[str, str], tuple[int, int]] = {}
    for m in sorted(memories.values(), key=lambda m: m.seq):
        for other, name in names.items():
            if other == m.persona or (m.persona, other) in first:
                continue
            if m.subject == other or name in m.content:
                first[(m.persona, other)] = (m.seq, m.tick)
    edges = {}
    for (a, b), when in first.items():
        if a < b and (b, a) in first:
            edges[(a, b)] = max(when, first[(b, a)])
    return edges


def density(reader, *, memories: dict | None = None) -> dict[str, Any]:
    """Relationship network density ``2|E| / (|V|(|V|-1))`` at the start, the end and hourly.

    Returns:
        ``{"personas": N, "start", "end", "edges_start", "edges_end", "series": [{"hour", "time",
        "count" (edges), "share" (density)}, ...], "edges": [[a, b], ...] (at the end)}``.
    """
    edges = relationship_edges(reader, memories=memories)
    n = len(reader.personas())
    pairs = n * (n - 1) // 2
    seed_until = start_seq(reader)
    series = _series({f"{a}|{b}": w for (a, b), w in edges.items()}, pairs, reader, seed_until)
    return {"personas": n, "edges_start": series[0]["count"], "edges_end": len(edges),
            "start": series[0]["share"], "end": len(edges) / pairs if pairs else 0.0,
            "series": series, "edges": [list(e) for e in sorted(edges)]}


# ---------------------------------------------------------------------------- attendance
def attendance(reader, tag: str, *, place: str, start: datetime, end: datetime,
               host: str | None = None, min_minutes: float = 30.0,
               memories: dict | None = None) -> dict[str, Any]:
    """Who was invited to a gathering and who came (Park et al. 2023 §7.1.3).

    Args:
        reader: the run.
        tag: the gathering's probe name.
        place: its address (prefix), e.g. ``"smallville:Hobbs Cafe"``.
        start: the gathering's first game datetime.
        end: the game datetime it ends (exclusive).
        host: the host's persona id (never counted as invited or as a guest).
        min_minutes: game minutes at the place inside the window that count as attending.
        memories: :func:`load_memories` output, to share one load between measures.

    Returns:
        ``{"tag", "place", "start", "end", "host", "invited": [pid], "attended": [pid]
        (guests: not the host), "invited_attended": [pid], "minutes": {pid: game minutes}}``;
        invited = the first memory leading to ``tag`` that came by conversation or whisper
        was written before ``end``.
    """
    memories = load_memories(reader) if memories is None else memories
    verdict = _leads_to(memories, tag)
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    end_tick = int((end - t0).total_seconds() // spt)
    invited = sorted({m.persona for key, m in memories.items()
                      if verdict[key] and m.tick < end_tick and m.persona != host
                      and (m.source is not None or (m.kind == "whisper" and not m.evidence))})
    minutes = minutes_at(reader, place, start, end)
    attended = sorted(p for p, mins in minutes.items() if mins >= min_minutes and p != host)
    return {"tag": tag, "place": place, "start": start.isoformat(sep=" "),
            "end": end.isoformat(sep=" "), "host": host, "min_minutes": min_minutes,
            "invited": invited, "attended": attended,
            "invited_attended": [p for p in attended if p in invited],
            "minutes": {p: round(v, 2) for p, v in sorted(minutes.items())}}


# ---------------------------------------------------------------------------- cost
def cost(reader) -> dict[str, Any]:
    """Model calls and tokens per persona, in total and per game hour (from MODEL_CALL events).

    A scripted run has no MODEL_CALL events, so every figure is zero. Calls without a persona
    are counted under ``"(town)"``.

    Returns:
        ``{"hours": game hours recorded, "personas": {pid: {"calls", "tokens_in", "tokens_out",
        "calls_per_hour", "tokens_per_hour", "cache_hits"}}, "total": {...same keys}}``.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    last = reader.last_tick
    hours = 0.0 if last is None else (last + 1) * spt / 3600
    rows: dict[str, dict[str, float]] = {p: {"calls": 0, "tokens_in": 0, "tokens_out": 0, "cache_hits": 0}
                                         for p in reader.personas()}
    for e in reader.events(kinds=[EventKind.MODEL_CALL]):
        row = rows.setdefault(e.persona or "(town)", {"calls": 0, "tokens_in": 0, "tokens_out": 0,
                                                      "cache_hits": 0})
        row["calls"] += 1
        row["tokens_in"] += int(e.data.get("tokens_in") or 0)
        row["tokens_out"] += int(e.data.get("tokens_out") or 0)
        row["cache_hits"] += int(bool(e.data.get("cache_hit")))

    def rates(row: dict[str, float]) -> dict[str, float]:
        tokens = row["tokens_in"] + row["tokens_out"]
        return {**row, "calls_per_hour": row["calls"] / hours if hours else 0.0,
                "tokens_per_hour": tokens / hours if hours else 0.0}

    total = {k: sum(r[k] for r in rows.values()) for k in ("calls", "tokens_in", "tokens_out", "cache_hits")}
    return {"hours": hours, "personas": {p: rates(r) for p, r in rows.items()}, "total": rates(total)}
