"""Measures over a recorded run (Park et al. 2023 §7): diffusion, relationships, attendance, cost.

The paper measured by asking: every agent was interviewed, and its answer decided. So do these
measures, through :class:`town.interview.Interviewer` (the answer, and the memories it was
given, from the persona's recorded memory as of a moment, through the run's backend):

* **Information diffusion** (§7.1.1): a persona knows a news item at a moment when its answer to
  the probe's question matches every one of the probe's facts (:func:`recalls`). Beside it, an
  upper bound: the personas *holding* a memory whose *provenance chain* leads to the item. A
  chain ends at a root: a memory with no ``source`` and no ``evidence`` whose ``probe`` key names
  the item's probe (a seeded memory, a whisper, a news event). A chat memory leads where its
  ``source`` record (the speaker's memory it was told from) leads; a plan or reflection leads
  where any of its ``evidence`` leads. Holding is not recalling: a memory that is never
  retrieved for the question counts in the bound only.
* **Relationship network density** (§7.1.2): ``eta = 2|E| / (|V|(|V|-1))`` over the undirected
  graph whose edge joins two personas who each, asked "Do you know <name>?", say yes from a
  retrieved memory about the other that is more than a sighting (:func:`acquainted`).
* **Attendance** (§7.1.3): invited = received the item through a conversation or a whisper
  (a provenance chain from the probe key; the host excluded); came = on tiles of the gathering
  place for at least ``min_minutes`` game minutes inside its time window.
* **Cost**: model requests and tokens per persona per game hour, from MODEL_CALL events, counted
  as ``town stats`` counts them (:func:`town.stats.tally`).

"Start" means the state written before the first tick: the seeded memories, up to the seq of
the run's initial snapshot (the one before tick 0). A moment "at hour h" is the end of game hour
h: the memories of ticks before ``h * ticks_per_hour``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .events import EventKind
from .interview import InterviewResult, says_yes, seq_after
from .stats import blank_row, tally

__all__ = [
    "minutes_at",
    "heard_via_conversation",
    "plans_including",
    "MemoryFact",
    "KnowledgeOnset",
    "Moment",
    "load_memories",
    "start_seq",
    "moments",
    "knowledge",
    "recalls",
    "diffusion",
    "acquainted",
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


@dataclass(frozen=True)
class Moment:
    """A moment of the run at which personas are interviewed.

    Attributes:
        hour: game hours since the start (0 = the start, before the first tick).
        time: its game datetime.
        tick: the last tick whose memories it holds (the first tick for the start).
        seq: interview streams hold the memories of events with seq < this.
    """

    hour: float
    time: datetime
    tick: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (``time`` as "YYYY-MM-DD HH:MM:SS")."""
        return {"hour": self.hour, "time": self.time.isoformat(sep=" "), "tick": self.tick, "seq": self.seq}


def moments(reader, every_hours: float = 12.0) -> list[Moment]:
    """The default sample moments: the start, the end of every ``every_hours`` game hours, the end.

    Returns:
        Moments in time order; the last is the end of the run's last tick (not repeated when it
        falls on a multiple of ``every_hours``). Only the start for a run without ticks.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    first, last = reader.first_tick or 0, reader.last_tick
    out = [Moment(0.0, t0, first, start_seq(reader) + 1)]
    if last is None:
        return out
    end = (last + 1) * spt / 3600
    hours = [every_hours * i for i in range(1, int(end // every_hours) + 1) if every_hours * i < end]
    for h in [*hours, end]:
        tick = min(last, int(round(h * 3600 / spt)) - 1)
        out.append(Moment(round(h, 4), t0 + timedelta(seconds=(tick + 1) * spt), tick,
                          seq_after(reader, tick)))
    return out


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


# ---------------------------------------------------------------------------- relationships
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

    The answer says yes (:func:`town.interview.says_yes`) and at least one memory it was given
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
    """Model requests and tokens per persona, in total and per game hour (from MODEL_CALL events).

    Counted as ``town stats`` counts them (:func:`town.stats.tally`): only an HTTP attempt is a
    request and carries tokens; a fallback or cache-hit marker event is not a request. A scripted
    run has no MODEL_CALL events, so every figure is zero. Calls without a persona are counted
    under ``"(town)"``.

    Returns:
        ``{"hours": game hours recorded, "personas": {pid: row}, "total": row}`` where a row is a
        :func:`town.stats.blank_row` (questions, requests, failed, retries, fallbacks,
        cache_hits, tokens_in, tokens_out, latency_ms) plus ``requests_per_hour`` and
        ``tokens_per_hour``.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    last = reader.last_tick
    hours = 0.0 if last is None else (last + 1) * spt / 3600
    rows: dict[str, dict[str, float]] = {p: blank_row() for p in reader.personas()}
    total = blank_row()
    for e in reader.events(kinds=[EventKind.MODEL_CALL]):
        tally(rows.setdefault(e.persona or "(town)", blank_row()), e.data)
        tally(total, e.data)

    def rates(row: dict[str, float]) -> dict[str, float]:
        tokens = row["tokens_in"] + row["tokens_out"]
        return {**row, "requests_per_hour": row["requests"] / hours if hours else 0.0,
                "tokens_per_hour": tokens / hours if hours else 0.0}

    return {"hours": hours, "personas": {p: rates(r) for p, r in rows.items()}, "total": rates(total)}
