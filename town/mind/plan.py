"""Planning, day -> hour -> 5-15 minute actions (Park et al. 2023 §4.3).

The day plan starts from the persona's routine and is adjusted by what retrieval brings back:
a retrieved memory whose text states an event on that day (a place on the map, a day, a time)
can put the event into the plan; the backend answers with today's changes to the routine.
Each plan block is cut into hour chunks, and each chunk is decomposed into steps.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from ..events import EventKind
from ..memory import Decided, PlanItem
from ..persona import Persona, PlanBlock, Step
from ..textevent import place_names
from ..thinking.dayplan import block_evidence, events_on
from ..procedures import Episode
from ..thinking.questions import DecomposeTask, PlanDay, ProcedureAnswer
from ..thinking.views import routine_views
from ..world.objects import for_guests, workplaces, works_at
from . import practice
from .context import MindContext, memory_views, recall, remember_later, seed_for
from .effects import Note

__all__ = ["plan_day", "current_block", "chunk_minutes", "decompose_chunk", "steps_ready", "objects_at", "is_sleep",
           "workplaces_of"]


def _at(day: date, hm: str) -> datetime:
    if hm == "24:00":
        return datetime.combine(day + timedelta(days=1), time(0, 0))
    h, m = map(int, hm.split(":"))
    return datetime.combine(day, time(h, m))


def is_sleep(description: str) -> bool:
    """True for a sleeping activity ("sleeping", "go to sleep", "sleep")."""
    return "sleep" in description.lower()


def plan_day(p: Persona, ctx: MindContext) -> tuple[PlanBlock, ...]:
    """Make (or remake) today's plan: retrieve, then ask PlanDay; publish and remember it.

    The answer is today's changes to the routine (blocks added, moved or dropped), applied with
    ``DayPlanAnswer.day``. A model backend asks in the same request for the steps of the routine
    block at hand (:func:`_at_hand`); when the plan keeps that block, they wait in the job's
    ``ctx.steps_made`` for :func:`decompose_chunk`, which then asks nothing.

    The PLAN event carries ``retrieval`` (the seq of the retrieval the plan came from) and, on
    each block, ``evidence``: the ids of the retrieved memories whose text states an event at
    that block's place and time (``town.thinking.dayplan``), empty for routine blocks; and
    ``events`` when the backend decided on the events retrieval brought back: each one's place,
    times, go, reason, clash and evidence (``town.scripted.attend``).

    Returns:
        The new plan blocks (also stored on ``p.plan``); ``p.steps`` is cleared.
    """
    today = ctx.now.date()
    query = f"Plans, appointments and events on {today:%A, %B} {today.day}, {today.year}"
    records, seq = recall(p, ctx, query, purpose="plan_day", one_per_fact=True)
    known, events_seq = _events_known(p, ctx, query, today, records)
    records = records + known
    routine = routine_views(p.spec.routine)
    addresses = ctx.world.tilemap.addresses()
    first = _at_hand(p, ctx, routine) if ctx.config.backend.name.value != "scripted" else None
    answer = ctx.backend.ask(PlanDay(
        persona=p.id, persona_name=p.name, persona_summary=p.summary(),
        seed=seed_for(ctx, p.id, "plan_day"), date=today.isoformat(), routine=routine,
        memories=memory_views(records), places=ctx.world.tilemap.places(),
        attend_seed=seed_for(ctx, p.id, "attend", every_tick=False), first=first))
    p.adopt_plan([PlanBlock(start=_at(today, i.start), end=_at(today, i.end), description=i.description,
                            place=i.place, task=i.task) for i in answer.day(routine)], today.isoformat())
    if first is not None and answer.steps:
        block = current_block(p, ctx.now)
        key = (block.task or block.description, block.place, chunk_minutes(p, ctx, block, block.place))
        if key == (first.task, first.place, first.minutes):  # the plan kept the block at hand
            ctx.steps_made[key] = [Step(description=s.description, object=s.object, minutes=s.minutes,
                                        task=first.task) for s in answer.steps]
    stated = events_on(records, today, place_names(addresses), p.name)
    evidence = [block_evidence(b.place, b.start, b.end, stated) for b in p.plan]
    decided = [c.model_dump() for c in answer.events or ()]
    ctx.out.note(EventKind.PLAN, p.id, {"level": "day", "date": p.plan_date, "retrieval": seq,
                                        **({"events_retrieval": events_seq} if events_seq else {}),
                                        "items": [{**b.to_dict(), "evidence": e}
                                                  for b, e in zip(p.plan, evidence)],
                                        **({"events": decided} if decided else {})},
                 cites=("retrieval", "events_retrieval") if events_seq else ("retrieval",))
    awake = [b for b in p.plan if not is_sleep(b.description)]
    summary = "; ".join(f"{b.start:%H:%M} {b.description}" for b in awake[:12])
    remember_later(p, ctx, [dict(
        kind="plan", content=f"{p.name}'s plan for {today:%A %B} {today.day}: {summary}",
        evidence=tuple(dict.fromkeys(i for e in evidence for i in e)),
        plan_items=tuple(PlanItem(start=b.start, end=b.end, description=b.description, place=b.place)
                         for b in p.plan),
        decisions=tuple(Decided(place=c.place, start=datetime.fromisoformat(c.start),
                                end=datetime.fromisoformat(c.end), go=c.go, reason=c.reason,
                                evidence=tuple(c.evidence)) for c in answer.events or ()))])
    practice.prune(p, ctx)  # once a day: unused / long below threshold (docs/design, §2)
    return p.plan


def _at_hand(p: Persona, ctx: MindContext, routine) -> DecomposeTask | None:
    """The decomposition of the routine block covering ``ctx.now``, to ask with the day plan, or
    None when it would ask none: a sleep block (one action, nothing to decompose) or one whose
    place is closed (another place is chosen first). Its memories are left empty: the plan's are
    shown; its seed is the one :func:`decompose_chunk` would draw."""
    now = f"{ctx.now:%H:%M}"
    r = next((r for r in routine if r.start <= now < r.end), None)
    if r is None or is_sleep(r.description) or not ctx.world.is_open(r.place):
        return None
    today = ctx.now.date()
    block = PlanBlock(start=_at(today, r.start), end=_at(today, r.end), description=r.description,
                      place=r.place, task=r.task)
    return _decomposition(p, ctx, block, r.place, ())


def steps_ready(p: Persona, ctx: MindContext, block: PlanBlock) -> bool:
    """Whether this job's day plan already made the steps :func:`decompose_chunk` would ask for
    ``block`` at its own place (no question then reads a retrieval for them)."""
    task = block.task or block.description
    return (task, block.place, chunk_minutes(p, ctx, block, block.place)) in ctx.steps_made


def workplaces_of(p: Persona) -> tuple[str, ...]:
    """The sectors ``p`` works at, by its own routine (:func:`town.world.objects.workplaces`)."""
    return workplaces((r.place, r.task or r.activity) for r in p.spec.routine)


def on_day(record, day: date) -> bool:
    """Whether ``record``'s fact is an event (a place and a start) running on ``day``."""
    fact = record.fact
    if fact is None or fact.place is None or fact.start is None:
        return False
    return fact.start.date() <= day <= (fact.end or fact.start).date()


def _events_known(p: Persona, ctx: MindContext, query: str, day: date, retrieved) -> tuple[list, Note | None]:
    """The events of ``day`` the persona knows of that the plan's retrieval left out.

    Plans hold every event of the day the persona knows of, its own commitments too: a second
    retrieval (purpose "plan_events", the same query) among the records whose fact is an event
    on ``day`` (:func:`on_day`), one record per fact, is noted when any such record exists.

    Returns:
        (the records, best first, of a fact the first retrieval did not return; the second
        retrieval's note, or None when it was not made).
    """
    if not any(on_day(r, day) for r in p.stream.records()):
        return [], None
    found, seq = recall(p, ctx, query, purpose="plan_events", one_per_fact=True,
                        among=lambda r: on_day(r, day))
    held = {r.fact.key() for r in retrieved if r.fact is not None}
    return [r for r in found if r.fact is not None and r.fact.key() not in held], seq


def current_block(p: Persona, now: datetime) -> PlanBlock:
    """The plan block covering ``now`` (the last block if the plan ends early)."""
    for block in p.plan:
        if block.start <= now < block.end:
            return block
    return p.plan[-1]


def objects_at(world, place: str) -> list[str]:
    """Object addresses (4 parts) at or under ``place``; ``[place]`` if it is one or has none."""
    if place.count(":") >= 3:
        return [place]
    return list(world.tilemap.objects_under(place)) or [place]


def chunk_minutes(p: Persona, ctx: MindContext, block: PlanBlock, place: str) -> int:
    """Game minutes for the steps of the block's current hour, less the walk to ``place``.

    The walk is the path length in ticks from the persona's tile to ``place`` (when the place is
    on the map and reachable), so the steps end with the chunk instead of spilling past it.
    """
    now = ctx.now
    next_hour = now.replace(minute=0, second=0) + timedelta(hours=1)
    end = min(block.end, next_hour) if not is_sleep(block.description) else block.end
    minutes = max(1, int((end - now).total_seconds() // 60))
    world = ctx.world
    if world.tilemap.has_address(place):
        goal = world.tile_for(place, near=(p.x, p.y))
        if world.reachable((p.x, p.y), goal):
            walk = (len(world.path((p.x, p.y), goal)) - 1) * ctx.seconds_per_tick // 60
            minutes = max(min(minutes, 5), minutes - walk)
    return minutes


def _decomposition(p: Persona, ctx: MindContext, block: PlanBlock, place: str, records,
                   finished: Episode | None = None) -> DecomposeTask:
    """The DecomposeTask of the block's current hour at ``place`` (:func:`chunk_minutes` long),
    naming the procedure of ``finished`` when given."""
    minutes = chunk_minutes(p, ctx, block, place)
    task = block.task or block.description
    objects, works = objects_at(ctx.world, place), workplaces_of(p)
    if not works_at(works, place) and not works_at((":".join(p.spec.home.split(":")[:2]),), place):
        objects = for_guests(objects)  # a guest at a party in a cafe does not cook at its stove
    return DecomposeTask(
        persona=p.id, persona_name=p.name, persona_summary=p.summary(),
        seed=seed_for(ctx, p.id, "decompose", task), task=task, place=place, start=f"{ctx.now:%H:%M}",
        minutes=minutes, objects=tuple(objects), memories=memory_views(records),
        procedures=practice.known_for(p, task=task, place=place, minutes=minutes), workplaces=works,
        finished=None if finished is None else practice.naming(p, ctx, finished))


def decompose_chunk(p: Persona, ctx: MindContext, block: PlanBlock, place: str, records,
                    finished: Episode | None = None) -> list[Step]:
    """Decompose the rest of the block's current hour into 5-15 minute steps (DecomposeTask).

    Args:
        p: the persona.
        ctx: the mind's context.
        block: the plan block being carried out.
        place: where (the block's place, or an alternative if it is closed).
        records: the memories retrieved for this decision.
        finished: a task just finished that succeeded, to learn (``practice.learn``): its
            procedure is named in the same request, or on its own when the day plan's request
            made the steps.

    Returns:
        Steps in order (those the day plan's request made, when it made them for this chunk:
        ``ctx.steps_made``); the hour-level plan is published as a PLAN event.
    """
    question = _decomposition(p, ctx, block, place, records, finished)
    task = question.task
    steps = ctx.steps_made.pop((task, place, question.minutes), None)
    if steps is not None and finished is not None:
        practice.learn(p, ctx, finished)
    elif steps is None:
        answer = ctx.backend.ask(question)
        steps = [Step(description=s.description, object=s.object, minutes=s.minutes, task=task)
                 for s in answer.steps]
        if finished is not None:
            practice.learn(p, ctx, finished, ProcedureAnswer(name=answer.name or task, when=answer.when or task))
    ctx.out.note(EventKind.PLAN, p.id, {
        "level": "hour", "date": p.plan_date, "task": task, "place": place,
        "items": [{"description": s.description, "object": s.object, "minutes": s.minutes} for s in steps]})
    return steps
