"""Acting: choose the next step of the plan, walk there along a path, and use the object.

Every action decision is preceded by a retrieval (purpose "act") whose event seq the action
carries, so a recorded run shows why each action was chosen (Park et al. 2023 §4.3).
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import WorldError
from ..events import EventKind
from ..persona import Action, Persona, PlanBlock, Step
from ..procedures import StepFailure
from ..thinking.questions import ChoosePlace, NextAction, PlanItemView
from ..world.address import sector_name
from ..world.objects import act_of, use_of
from . import practice
from .context import MindContext, deferring, memory_views, observe, rate, recall, seed_for
from .effects import Cite, Start
from .plan import chunk_minutes, current_block, decompose_chunk, is_sleep, objects_at, steps_ready, workplaces_of

__all__ = ["decide_action", "place_label", "doing_sentence", "MAX_WALK_TICKS"]

#: A walk longer than this is split into several "walking" actions (13 game minutes at 10 s/tick).
MAX_WALK_TICKS = 80
#: Game minutes a persona waits where it is when nowhere is open, before it plans anew.
STAY_MINUTES = 15
#: Without a plan (``ablate = "planning"``) an awake action lasts at most this many game minutes.
UNPLANNED_MINUTES = 15


def place_label(address: str) -> str:
    """"the_ville:Hobbs Cafe:cafe:counter" -> "the counter of the cafe in Hobbs Cafe"; the world
    alone ("the_ville") -> "" (the world's name is no place)."""
    parts = address.split(":")
    if len(parts) >= 4:
        return f"the {parts[3]} of the {parts[2]} in {parts[1]}"
    if len(parts) == 3:
        return f"the {parts[2]} in {parts[1]}"
    if len(parts) == 2:
        return parts[1]
    return ""  # the world itself is no place


def doing_sentence(name: str, activity: str, address: str) -> str:
    """The observation of someone doing ``activity`` at ``address``.

    A step the object vocabulary (:mod:`town.world.objects`) wrote reads as English: "Isabella
    Rodriguez is brewing coffee (open the cafe) at the coffee machine of the cafe in Hobbs Cafe".
    Any other text (a persona file's routine, a model's answer, in any language) is shown as
    written in a neutral template, never conjugated: "Maria Lopez is at the sink of the bathroom
    in Dorm: wash up and get dressed".

    Args:
        name: who is doing it.
        activity: the action's description.
        address: where (``world:sector:arena:object``).
    """
    activity = act_of(activity)
    use = use_of(address.rsplit(":", 1)[-1])
    where = place_label(address)
    verb = next((v for v in (use.verb, use.guest) if v and (activity == v or activity.startswith(f"{v} ("))), None)
    if verb is not None:  # the staff's use of the object or the guest's
        said = f"{use.doing_of(verb)}{activity[len(verb):]}"
        return f"{name} is {said} at {where}." if where else f"{name} is {said}."
    return f"{name} is at {where}: {activity}." if where else f"{name} is out: {activity}."



def _open_alternative(p: Persona, ctx: MindContext, task: str, place: str) -> str | None:
    """Ask where else to do ``task`` when ``place`` is closed; remember the closure.

    Returns:
        The sector to go to, or None when no other place is open (see :func:`_stay`).
    """
    if not practice.knows_closed(p, ctx, place):
        observe(p, ctx, f"{sector_name(place)} is closed.")
    world = ctx.world
    candidates = sorted({":".join(a.split(":")[:2]) for a in world.tilemap.addresses()
                         if a.count(":") >= 1 and world.is_open(a)} - {":".join(place.split(":")[:2])})
    if not candidates:
        return None
    answer = ctx.backend.ask(ChoosePlace(
        persona=p.id, persona_name=p.name, seed=seed_for(ctx, p.id, "choose_place", task),
        task=task, usual_place=place, reason="closed", candidates=tuple(candidates)))
    return answer.place


def _seen(p: Persona, step: Step) -> str:
    """The observation a persona writes when it starts ``step``."""
    return doing_sentence(p.name, step.description, step.object)


def _plan_steps(p: Persona, ctx: MindContext, block, records) -> list[Step]:
    """The next steps of ``block`` (see :func:`_steps_for`), their observations rated in one go.

    A step's observation is written when it starts; rating the chunk's observations together
    when the steps are made costs one importance request per chunk instead of one per step.
    When :func:`~town.mind.context.deferring`, they are left unrated: each is rated with the
    persona's other new memories when its stream is next read.
    """
    steps = _steps_for(p, ctx, block, records)
    if deferring(ctx):
        return steps
    ratings = rate(p, ctx, [("observation", _seen(p, s)) for s in steps])
    return [replace(s, importance=r) for s, r in zip(steps, ratings)]


def _steps_for(p: Persona, ctx: MindContext, block: PlanBlock, records) -> list[Step]:
    """Steps for the block's current chunk: follow a procedure for its task, or decompose it.

    The previous task attempt is verified and closed first (feedback or learning, docs/design, §2).
    With a model backend, a decomposed task that succeeded is named in the request that
    decomposes the next one (a task other than it: the same task is learned first, so that it
    may be followed); it is learned on its own when no decomposition is asked.
    """
    task = block.task or block.description
    finished = practice.close(p, ctx, name_later=ctx.config.backend.name.value != "scripted")
    if finished is not None and (finished.task == task or is_sleep(block.description)):
        practice.learn(p, ctx, finished)
        finished = None
    if is_sleep(block.description):
        # Sleep is one action at the bed until the block ends: nothing to decompose or learn.
        minutes = max(1, int((block.end - ctx.now).total_seconds() // 60))
        return [Step(description=block.description, object=objects_at(ctx.world, block.place)[0],
                     minutes=minutes, task=task)]
    steps = practice.follow(p, ctx, task=task, place=block.place,
                            minutes=chunk_minutes(p, ctx, block, block.place))
    if steps is not None:
        if finished is not None:
            practice.learn(p, ctx, finished)
        ctx.out.note(EventKind.PLAN, p.id, {
            "level": "hour", "date": p.plan_date, "task": task, "place": block.place,
            "procedure": practice.followed(p),
            "items": [{"description": s.description, "object": s.object, "minutes": s.minutes}
                      for s in steps]})
        return steps
    place: str | None = block.place
    if not ctx.world.is_open(block.place):
        place = _open_alternative(p, ctx, task, block.place)
    if place is None:
        if finished is not None:
            practice.learn(p, ctx, finished)
        return []  # nowhere is open: decide_action makes the persona stay
    steps = decompose_chunk(p, ctx, block, place, records, finished=finished)
    practice.begin(p, ctx, task=task, place=block.place, steps=steps)
    return steps


def _fail(p: Persona, ctx: MindContext, step: Step, reason: StepFailure, decision: Cite) -> None:
    """The world refused ``step``: record it, drop the chunk's steps and rethink next tick.

    A busy object is waited for 5 game minutes before the persona plans anew.
    """
    if reason is StepFailure.CLOSED and not practice.knows_closed(p, ctx, step.object):
        observe(p, ctx, f"{sector_name(step.object)} is closed.")
    practice.step_failed(p, ctx, step, reason)
    p.set_steps(())
    tick = ctx.tick
    wait = 5 * 60 // ctx.seconds_per_tick if reason is StepFailure.BUSY else 1
    ctx.out.add(Start(p.id, Action(
        description=f"rethinking: {place_label(step.object)} is {reason.value}",
        address=ctx.world.tilemap.address_at(p.x, p.y) or p.spec.home, emoji="🤔",
        start_tick=tick, end_tick=tick + max(1, wait), kind="do", task=step.task), decision))


def _start(p: Persona, ctx: MindContext, step: Step, decision: Cite, path: tuple[tuple[int, int], ...]) -> None:
    """Start ``step``: walk ``path`` first if there is one, else check it with the world and do it.

    Hands back a :class:`~town.mind.effects.Start`; a step the world refuses goes to :func:`_fail`.
    """
    tick = ctx.tick
    if path:
        n = min(len(path), MAX_WALK_TICKS)
        # "walking to <building>" only while outside it (frames show the tile after this tick's
        # move): the walk is cut where it enters, and inside it walks "to the <object>"
        sector, address_at = sector_name(step.object), ctx.world.tilemap.address_at
        entered = next((i for i, xy in enumerate(path) if sector_name(address_at(*xy) or "") == sector), n)
        outside = entered > 0
        n = min(n, entered) if outside else n
        where = sector if outside else f"the {step.object.rsplit(':', 1)[-1]}"
        ctx.out.add(Start(p.id, Action(description=f"walking to {where}", address=step.object, emoji="🚶",
                                       start_tick=tick, end_tick=tick + n, kind="walk", task=step.task),
                          decision, path=path, pending=step))
        return
    failure = practice.check_step(p, ctx, step.object)
    if failure is not None:
        _fail(p, ctx, step, failure, decision)
        return
    practice.step_started(p, step)
    sleep = is_sleep(step.description)
    emoji = "😴" if sleep else use_of(step.object.rsplit(":", 1)[-1]).emoji
    ticks = max(1, step.minutes * 60 // ctx.seconds_per_tick)
    action = Action(description=step.description, address=step.object, emoji=emoji, start_tick=tick,
                    end_tick=tick + ticks, kind="sleep" if sleep else "do", task=step.task)
    seen = _seen(p, step)
    if p.observed.get(p.id) != seen:  # the same sentence twice in a row adds nothing
        p.note_seen(p.id, seen)
        observe(p, ctx, seen, importance=step.importance)
    ctx.out.add(Start(p.id, action, decision))


def decide_action(p: Persona, ctx: MindContext, seen=()) -> None:
    """If the current action is over, retrieve and choose the next one (or continue a walk).

    Args:
        p: the persona.
        ctx: the mind's context.
        seen: the ``Appearance``s the persona perceives this tick (used without a plan).
    """
    a = p.action
    behind = "planning" not in ctx.config.ablated and _left_behind(p, ctx)
    if behind:  # a block elsewhere has begun: what was being done is left for it
        ctx.out.note(EventKind.PLAN, p.id, {"level": "block", "date": p.plan_date, "left": behind,
                                            **current_block(p, ctx.now).to_dict()})
    elif a is not None and ctx.tick < a.end_tick and not (a.kind == "walk" and not p.path):
        return
    elif a is not None and a.kind == "walk" and p.pending is not None:
        # Still on the way (or just arrived): the same decision continues.
        _start(p, ctx, p.pending, a.decision, p.path)
        return
    if p.pending is not None and not behind:  # interrupted (e.g. by a conversation): walk there again
        step = p.pending
        _, seq = recall(p, ctx, step.description, purpose="act", cited_only=True)
        _walk_and_start(p, ctx, step, seq)
        return
    if "planning" in ctx.config.ablated:
        _decide_unplanned(p, ctx, seen)
        return
    block = current_block(p, ctx.now)
    # a description naming its building is not told the building again ("... at Hobbs Cafe at
    # the counter of the cafe in Hobbs Cafe" -> "... at Hobbs Cafe at the counter of the cafe")
    sector, label = sector_name(block.place), place_label(block.place)
    if sector.lower() in block.description.lower():
        label = label.removesuffix(f" in {sector}").removesuffix(sector)
    query = f"{block.description} at {label}" if label else block.description
    new_steps = not p.steps or p.steps[0].task != (block.task or block.description)
    # read only to make steps, unless the day plan's request made them
    records, seq = recall(p, ctx, query, purpose="act", cited_only=not new_steps or steps_ready(p, ctx, block))
    if new_steps:
        p.set_steps(_plan_steps(p, ctx, block, records))
    if not p.steps:
        _stay(p, ctx, block.task or block.description, seq)
        return
    step = p.next_step()
    following = practice.followed(p) is not None
    # A followed procedure is checked by the world on arrival (docs/design, §2: it fails there).
    if (not following and ctx.world.tilemap.has_address(step.object)
            and not ctx.world.is_open(step.object)):
        place = _open_alternative(p, ctx, step.task or step.description, step.object)
        if place is None:
            _stay(p, ctx, step.task or step.description, seq)
            return
        step = Step(description=step.description, object=objects_at(ctx.world, place)[0],
                    minutes=step.minutes, task=step.task)
    _walk_and_start(p, ctx, step, seq)


def _left_behind(p: Persona, ctx: MindContext) -> str | None:
    """The task of an earlier block that the persona is still doing or walking to, when the
    block covering now is at another place (another sector); else None.

    The act phase follows the plan: a block at another place takes the persona there at its
    start, whatever action of the block before is running. A persona with no plan yet, sleeping
    through its own sleep block, or already doing this block's task (or at its place) is not
    behind. Staying is only ever recorded: nowhere open (:func:`_stay`), or a conversation.
    """
    a = p.action
    if a is None or not p.plan:
        return None
    block = current_block(p, ctx.now)
    if not block.start <= ctx.now < block.end:
        return None  # the plan ends before now: no block to follow
    task = block.task or block.description
    doing = p.pending.task if p.pending is not None else a.task
    if doing is None or doing == task or sector_name(a.address) == sector_name(block.place):
        return None
    if p.pending is not None and sector_name(p.pending.object) == sector_name(block.place):
        return None
    return doing


def _habit(p: Persona, ctx: MindContext) -> PlanItemView:
    """The persona file's routine entry for now, with its end as "HH:MM" ("24:00" = midnight)."""
    now = ctx.now
    item = p.spec.routine_at(now.hour * 60 + now.minute)
    end = "24:00" if item.end_minutes >= 1440 else f"{item.end_minutes // 60:02d}:{item.end_minutes % 60:02d}"
    return PlanItemView(start=f"{item.start_minutes // 60:02d}:{item.start_minutes % 60:02d}", end=end,
                        description=item.activity, place=item.place, task=item.task)


def _decide_unplanned(p: Persona, ctx: MindContext, seen) -> None:
    """Choose the next action without a plan (Park et al. 2023 §6.2's planning ablation).

    Retrieves for "what should I do now?" and asks NextAction with what the persona perceives
    and its habit for this hour; an awake action lasts at most :data:`UNPLANNED_MINUTES`, sleep
    until the habit ends. No PLAN event, no procedure.
    """
    records, seq = recall(p, ctx, "what should I do now?", purpose="act")
    habit = _habit(p, ctx)
    now = ctx.now
    h, m = map(int, habit.end.split(":"))
    left = max(1, h * 60 + m - (now.hour * 60 + now.minute))
    arena = ":".join(habit.place.split(":")[:3])
    home = ":".join(p.spec.home.split(":")[:3])
    objects = tuple(dict.fromkeys([*objects_at(ctx.world, arena), *objects_at(ctx.world, home)]))
    answer = ctx.backend.ask(NextAction(
        persona=p.id, persona_name=p.name, persona_summary=p.summary(),
        seed=seed_for(ctx, p.id, "next_action"), now=f"{now:%H:%M}", habit=habit,
        seen=tuple(doing_sentence(v.name, v.action, v.address) for v in seen),
        objects=objects, max_minutes=left if is_sleep(habit.description) else min(UNPLANNED_MINUTES, left),
        memories=memory_views(records), workplaces=workplaces_of(p)))
    task = habit.task or habit.description
    step = Step(description=answer.description, object=answer.object, minutes=answer.minutes, task=task)
    if ctx.world.tilemap.has_address(step.object) and not ctx.world.is_open(step.object):
        place = _open_alternative(p, ctx, task, step.object)
        if place is None:
            _stay(p, ctx, task, seq)
            return
        step = Step(description=step.description, object=objects_at(ctx.world, place)[0],
                    minutes=step.minutes, task=step.task)
    _walk_and_start(p, ctx, step, seq)


def _stay(p: Persona, ctx: MindContext, task: str, decision: Cite) -> None:
    """Nowhere else is open: wait where the persona is for 15 game minutes, and say so.

    The world is not asked (the place itself may be closed); the persona plans anew after.
    """
    p.set_steps(())
    seen = f"{p.name} is waiting: nowhere is open for {task}."
    if p.observed.get(p.id) != seen:
        p.note_seen(p.id, seen)
        observe(p, ctx, seen)
    tick = ctx.tick
    ctx.out.add(Start(p.id, Action(
        description=f"waiting here: nowhere is open for {task}",
        address=ctx.world.tilemap.address_at(p.x, p.y) or p.spec.home, emoji="⏳", start_tick=tick,
        end_tick=tick + max(1, STAY_MINUTES * 60 // ctx.seconds_per_tick), kind="do", task=task), decision))


def _walk_and_start(p: Persona, ctx: MindContext, step: Step, decision: Cite) -> None:
    """Path to the step's object and start it; a missing or unreachable object fails the step."""
    world = ctx.world
    if not world.tilemap.has_address(step.object):
        _fail(p, ctx, step, StepFailure.MISSING, decision)
        return
    try:
        path = tuple(world.path((p.x, p.y), world.tile_for(step.object, near=(p.x, p.y)))[1:])
    except WorldError:
        _fail(p, ctx, step, StepFailure.UNREACHABLE, decision)
        return
    _start(p, ctx, step, decision, path)

