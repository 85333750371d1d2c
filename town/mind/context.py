"""What a mind step can reach, and the two primitives every cognitive step goes through.

A :class:`MindContext` is one job's: the town's services (the world, the thinking backend, the
configuration, the personas' names: shared and only read), the tick the job thinks in, and the
:class:`~town.mind.effects.Outbox` it hands back. :func:`remember` writes a memory (rated by the
backend) to the persona's own stream and notes its event; :func:`recall` retrieves with a trace
and notes it, after Park et al. 2023 §4.1.

With ``[backend] importance = "deferred"`` on a model backend, memories whose record nobody reads
at once (:func:`remember_later`: observations, the day's plan) wait unrated in ``Persona.unrated``
and are not in the stream; :func:`rate_unrated` rates all of them in one request (parts of at most
:data:`~town.thinking.answers.MAX_RATINGS`) and writes them, each at the game time it was
perceived, just before anything reads the stream: a retrieval, a reflection that may be due,
another memory written now. Nothing ever reads an importance not yet rated.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..config import Config
from ..events import EventKind
from ..memory import MemoryKind, MemoryRecord, PlanItem
from ..memory.fact import Decided, Fact
from ..memory.times import format_time, parse_time
from ..persona import Persona
from ..thinking.answers import MAX_RATINGS
from ..thinking.backend import ThinkingBackend
from ..thinking.questions import MemoryView, RateImportance, RateImportances
from ..world import World
from .effects import Note, Outbox
from .weigh import NEWS, fact_importance

__all__ = ["Services", "MindContext", "remember", "remember_many", "remember_later", "rate_unrated", "deferring",
           "unrated_bound", "observe", "observing", "rate", "recall", "memory_views", "seed_for", "MAX_IMPORTANCE",
           "fact_weight"]

#: The highest importance a rating gives (1-10): what an unrated memory may add at most.
MAX_IMPORTANCE = 10


@dataclass(frozen=True)
class Services:
    """What every mind step can reach, shared by all and never written by a mind.

    Attributes:
        world: the world (places, objects, paths; which places are closed).
        backend: the thinking backend answering questions.
        config: the effective configuration.
        names: persona id -> full name.
        seconds_per_tick: game seconds per tick.
    """

    world: World
    backend: ThinkingBackend
    config: Config
    names: Mapping[str, str]
    seconds_per_tick: int


class MindContext:
    """One job's context: the services, the tick it thinks in, and its effects (``out``).

    Args:
        services: the town's services.
        tick: the tick the job thinks in.
        now: its game time.
    """

    __slots__ = ("services", "tick", "now", "out", "steps_made")

    def __init__(self, services: Services, tick: int, now: datetime):
        self.services = services
        self.tick = tick
        self.now = now
        self.out = Outbox()
        #: (task, place, minutes) -> the steps a day plan's request made for that chunk of the
        #: block at hand (``town.mind.plan``), taken by its decomposition in the same job
        self.steps_made: dict[tuple[str, str, int], list] = {}

    @property
    def world(self) -> World:
        """The world."""
        return self.services.world

    @property
    def backend(self) -> ThinkingBackend:
        """The thinking backend."""
        return self.services.backend

    @property
    def config(self) -> Config:
        """The effective configuration."""
        return self.services.config

    @property
    def names(self) -> Mapping[str, str]:
        """Persona id -> full name."""
        return self.services.names

    @property
    def seconds_per_tick(self) -> int:
        """Game seconds per tick."""
        return self.services.seconds_per_tick


def seed_for(ctx: MindContext, persona: str, purpose: str, extra: object = "", *, every_tick: bool = True) -> int:
    """A deterministic 31-bit seed for one question: run seed, tick, persona, purpose, extra.

    ``every_tick=False`` leaves the tick out: one seed for the whole run (a persona's choices that
    several questions make, such as whether to go to an event).
    """
    tick = ctx.tick if every_tick else ""
    key = f"{ctx.config.seed}|{tick}|{persona}|{purpose}|{extra}".encode()
    return zlib.crc32(key) & 0x7FFFFFFF


def memory_views(records: list[MemoryRecord]) -> tuple[MemoryView, ...]:
    """Memory records as the compact views questions carry."""
    return tuple(
        MemoryView(id=r.id, content=r.content, kind=r.kind.value, importance=r.importance,
                   created=r.created.isoformat(sep=" "), fact=r.fact, tellers=tuple(n for n, _ in r.tellers),
                   plan_items=r.plan_items, decisions=r.decisions)
        for r in records
    )


def remember(p: Persona, ctx: MindContext, *, kind: MemoryKind | str, content: str,
             importance: int | None = None, teller: str | None = None, at: datetime | None = None,
             **provenance: Any) -> MemoryRecord:
    """Write a memory: rate its importance (poignancy), add it, publish a MEMORY event; or, for a
    fact the stream holds already, add ``teller`` to that record (one memory per fact).

    Args:
        p: the persona whose stream receives the memory.
        ctx: the job's context (backend for the rating, its outbox for the event).
        kind: observation | chat | reflection | plan | whisper.
        content: one sentence.
        importance: 1-10; asked of the backend when None (Park et al. 2023 §4.1); a whisper
            so rated weighs at least :data:`~town.mind.weigh.NEWS`, as news told in a line does.
        teller: who told it (a full name), kept in the record's ``tellers`` with the time.
        at: the game time it was perceived (a memory written late by :func:`rate_unrated`); default now.
        **provenance: fact, plan_items, decisions, evidence, conversation, source, subject, predicate,
            object, and the measurement-only key of a seeded memory or whisper (see
            ``MemoryRecord``: recorded, never read by a decision).

    Returns:
        The new record, or the record already holding its fact (refreshed: :func:`retell`).
    """
    rate_unrated(p, ctx)  # the unrated are older: written first, in order
    kind = MemoryKind(kind)
    fact = provenance.get("fact")
    if fact is not None and fact.moved:  # "I've moved my party to Wednesday": the party it knows, where it now is
        fact = provenance["fact"] = fact.placed([r.fact for r in p.stream.records() if r.fact is not None])
    held = None if fact is None or kind is MemoryKind.REFLECTION else p.stream.holding(fact.key())
    if importance is None:
        importance = _rated(p, ctx, kind.value, content, fact)
        if kind is MemoryKind.WHISPER:  # told to it, as news in a line is: worth passing on
            importance = max(importance, NEWS)
    when = ctx.now if at is None else at
    if held is not None:
        return retell(p, ctx, held, teller=teller, importance=importance, at=when)
    tellers = () if teller is None else ((teller, when),)
    record = p.stream.add(kind=kind, content=content, created=when, importance=importance,
                          tellers=tellers, **provenance)
    if kind is not MemoryKind.REFLECTION:
        p.gain_importance(record.importance)
    ctx.out.note(EventKind.MEMORY, p.id, {**record.to_dict(), "embedding": p.stream.vector(record.id)})
    return record


def _rated(p: Persona, ctx: MindContext, kind: str, content: str, fact: Fact | None) -> int:
    """Importance of a new memory: from its fact's meaning (:func:`~town.mind.weigh.fact_importance`)
    when it states an event (a place and a start), else asked of the backend (:func:`rate`)."""
    if not _rated_by_fact(kind, fact):
        return rate(p, ctx, [(kind, content)])[0]
    assert fact is not None
    return fact_weight(p, ctx, fact)


def fact_weight(p: Persona, ctx: MindContext, fact: Fact) -> int:
    """Importance 1-10 of a memory of ``p`` stating ``fact``, from its meaning now
    (:func:`~town.mind.weigh.fact_importance`, with ``p``'s ties from its file)."""
    ties = frozenset(ctx.services.names.get(r.persona, r.persona) for r in p.spec.relationships)
    return fact_importance(fact, me=p.name, ties=ties, now=ctx.now)


def _rated_by_fact(kind: str, fact: Fact | None) -> bool:
    """Whether a new memory's importance comes from its fact (an event: a place and a start; or a
    cancellation or a move), not from the backend."""
    return fact is not None and (fact.place is not None and fact.start is not None or fact.cancelled or fact.moved) \
        and kind != MemoryKind.REFLECTION.value


def retell(p: Persona, ctx: MindContext, held: MemoryRecord, *, teller: str | None,
           importance: int, at: datetime | None = None) -> MemoryRecord:
    """A held fact perceived again (at ``at``, default now): its record gains the teller, is
    accessed then, and takes ``importance`` if higher; no copy is written (a RETOLD event records
    the change). Being told is still an event perceived, so ``importance`` counts toward
    reflection (§4.2's trigger)."""
    record = p.stream.retold(held.id, teller=teller, now=ctx.now if at is None else at, importance=importance)
    p.gain_importance(importance)
    ctx.out.note(EventKind.RETOLD, p.id, record.to_dict())
    return record


def observing(ctx: MindContext) -> bool:
    """False when ``ablate`` contains "observation" (Park et al. 2023 §6.2's ablation).

    Then nothing perceived during the run enters memory; the persona file's memories are seeded
    all the same.
    """
    return "observation" not in ctx.config.ablated


def observe(p: Persona, ctx: MindContext, content: str, **provenance: Any) -> None:
    """Remember what the persona perceives (an observation, :func:`remember_later`), unless
    observation is switched off (:func:`observing`)."""
    if observing(ctx):
        remember_later(p, ctx, [dict(kind="observation", content=content, **provenance)])


def deferring(ctx: MindContext) -> bool:
    """Whether new memories wait for a later rating: ``[backend] importance = "deferred"`` on a
    model backend (the scripted backend rates each tick's, as with "batch")."""
    return ctx.config.backend.importance == "deferred" and ctx.config.backend.name.value != "scripted"


def remember_later(p: Persona, ctx: MindContext, items: list[dict[str, Any]]) -> None:
    """Write memories whose records the caller does not read: at once, their missing importances
    rated together (:func:`remember_many`), or, when :func:`deferring`, kept unrated in
    ``p.unrated`` until :func:`rate_unrated`. A memory rated by its fact is rated now (its importance
    depends on the time).

    Args:
        items: keyword arguments of :func:`remember` (kind, content, importance?, teller?, provenance).
    """
    if not deferring(ctx):
        remember_many(p, ctx, items)
        return
    for item in items:
        item = dict(item)
        kind = MemoryKind(item["kind"]).value
        if item.get("importance") is None and _rated_by_fact(kind, item.get("fact")):
            item["importance"] = _rated(p, ctx, kind, item["content"], item["fact"])
        p.defer_memory(_unrated_json(item, ctx.now))


def rate_unrated(p: Persona, ctx: MindContext) -> None:
    """Rate ``p``'s unrated memories, everything new since its last rating, in one request (parts
    of at most :data:`~town.thinking.answers.MAX_RATINGS`), and write them to the stream in the
    order and at the game times they were perceived. Nothing to do when none wait."""
    if not p.unrated:
        return
    items = [_unrated_item(m) for m in p.take_unrated()]
    todo = [i for i, item in enumerate(items) if item.get("importance") is None]
    ratings = rate(p, ctx, [(MemoryKind(items[i]["kind"]).value, items[i]["content"]) for i in todo])
    for i, value in zip(todo, ratings):
        items[i]["importance"] = value
    for item in items:
        remember(p, ctx, **item)


def unrated_bound(p: Persona) -> int:
    """The most that ``p``'s unrated memories may add to its reflection sum: their importance
    when known, else :data:`MAX_IMPORTANCE` each."""
    return sum(MAX_IMPORTANCE if m.get("importance") is None else int(m["importance"]) for m in p.unrated)


def _unrated_json(item: dict[str, Any], at: datetime) -> dict[str, Any]:
    """:func:`remember`'s arguments as JSON (persona state), with ``at``."""
    out = {**item, "kind": MemoryKind(item["kind"]).value, "at": format_time(at)}
    if item.get("fact") is not None:
        out["fact"] = item["fact"].to_dict()
    for key in ("plan_items", "decisions"):
        if key in item:
            out[key] = [i.to_dict() for i in item[key]]
    for key in ("evidence", "source"):
        if key in item and item[key] is not None:
            out[key] = list(item[key])
    return out


def _unrated_item(d: dict[str, Any]) -> dict[str, Any]:
    """Inverse of :func:`_unrated_json`."""
    item = {**d, "at": parse_time(d["at"], field="at")}
    if d.get("fact") is not None:
        item["fact"] = Fact.from_dict(d["fact"])
    if "plan_items" in d:
        item["plan_items"] = tuple(PlanItem.from_dict(i) for i in d["plan_items"])
    if "decisions" in d:
        item["decisions"] = tuple(Decided.from_dict(i) for i in d["decisions"])
    if d.get("evidence") is not None:
        item["evidence"] = tuple(int(e) for e in d["evidence"])
    if d.get("source") is not None:
        item["source"] = (str(d["source"][0]), int(d["source"][1]))
    return item


def rate(p: Persona, ctx: MindContext, items: list[tuple[str, str]]) -> list[int]:
    """Importance 1-10 of new memories, given as (kind, content) pairs (Park et al. 2023 §4.1).

    With ``backend.importance = "batch"`` (the default) the list is rated in one request
    (:class:`RateImportances`), or in consecutive parts of at most
    :data:`~town.thinking.answers.MAX_RATINGS` (a persona in a crowd sees more changes at once
    than one answer may rate); with "each", one paper-style :class:`RateImportance` request per
    memory.
    """
    if not items:
        return []
    if ctx.config.backend.importance == "each":
        return [ctx.backend.ask(RateImportance(
            persona=p.id, persona_name=p.name, content=content, kind=kind,
            seed=seed_for(ctx, p.id, "importance", content))).importance for kind, content in items]
    ratings: list[int] = []
    for start in range(0, len(items), MAX_RATINGS):
        part = items[start:start + MAX_RATINGS]
        ratings += ctx.backend.ask(RateImportances(
            persona=p.id, persona_name=p.name, persona_summary=p.summary(), items=tuple(part),
            seed=seed_for(ctx, p.id, "importance", "|".join(c for _, c in part)))).ratings
    return ratings


def remember_many(p: Persona, ctx: MindContext, items: list[dict[str, Any]]) -> list[MemoryRecord]:
    """Write several memories written together, their missing importances rated in one go.

    Args:
        p: the persona whose stream receives the memories.
        ctx: the mind's context.
        items: keyword arguments of :func:`remember` (kind, content, importance?, provenance).

    Returns:
        The new records, in order.
    """
    rate_unrated(p, ctx)
    todo = [i for i, item in enumerate(items) if item.get("importance") is None and item.get("fact") is None]
    ratings = rate(p, ctx, [(MemoryKind(items[i]["kind"]).value, items[i]["content"]) for i in todo])
    items = [dict(item) for item in items]
    for i, value in zip(todo, ratings):
        items[i]["importance"] = value
    return [remember(p, ctx, **item) for item in items]


def recall(p: Persona, ctx: MindContext, query: str, *, purpose: str, k: int | None = None,
           one_per_fact: bool = False, among=None, cited_only: bool = False) -> tuple[list[MemoryRecord], Note]:
    """Retrieve from the persona's stream with the run's k and weights; note the trace.

    ``one_per_fact`` and ``among`` are :meth:`MemoryStream.retrieve`'s (one record per fact;
    only the records ``among`` keeps). The unrated memories (:func:`remember_later`) are rated
    and written first, unless ``cited_only``: no question reads the records (an action only
    cites the retrieval), so it ranks the stream as it is and they wait.

    Returns:
        (records best first, the RETRIEVAL event) — decisions cite it.
    """
    if not cited_only:
        rate_unrated(p, ctx)  # nothing unrated is left out or scored
    cfg = ctx.config.retrieval
    records, trace = p.stream.retrieve(query, now=ctx.now, k=k or cfg.k, weights=tuple(cfg.weights),
                                       purpose=purpose, tick=ctx.tick, one_per_fact=one_per_fact,
                                       among=among)
    return records, ctx.out.note(EventKind.RETRIEVAL, p.id, trace.to_dict(vectors=True))
