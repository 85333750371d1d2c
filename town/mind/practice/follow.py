"""Carrying out a task with procedural memory: follow a procedure, or track the task's own steps.

When a persona starts a task (a plan block's ``task``), :func:`follow` retrieves procedures (own
library first, then the town library): reliability >= threshold, top 2 by similarity of ``when``
to the task. The first that applies (similarity >= :data:`APPLIES_AT`, parameters fillable, no
step at a place the persona knows is closed) is followed and no decomposition is asked. Skipping
a retrieved procedure because the persona knows it cannot work is a *deviation*: recorded, not
counted. Otherwise the mind decomposes and calls :func:`begin`. The world checks each step
(:func:`check_step`); :func:`close` checks the goal, gives feedback to a followed procedure, or has
:mod:`~town.mind.practice.learn` generalise and save a verified success (docs/design, §2; Voyager, Wang
et al. 2023). Every use, outcome and deviation is a PROCEDURE event (:mod:`~town.mind.practice.events`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...persona import Persona, Step
from ...procedures import Episode, Goal, Outcome, ProcedureError, ProcedureStep, StepFailure, persona_values
from ...world.address import sector_address
from ..context import MindContext
from ..effects import Outbox
from .events import memory_of, note_procedure, on_library
from .learn import learn, prune, share

__all__ = [
    "APPLIES_AT",
    "follow",
    "begin",
    "check_step",
    "step_started",
    "step_failed",
    "close",
    "followed",
    "fit_minutes",
    "goal_of",
    "known_for",
    "knows_closed",
]

#: Least cosine similarity of a procedure's ``when`` to the task for it to apply.
APPLIES_AT = 0.85


def knows_closed(p: Persona, ctx: MindContext, address: str) -> bool:
    """True if ``address`` is closed and the persona remembers seeing it closed."""
    if not ctx.world.tilemap.has_address(address) or ctx.world.is_open(address):
        return False
    sentence = f"{sector_address(address).split(':')[-1]} is closed."
    return (any(m["content"] == sentence for m in p.unrated)  # seen, not yet rated
            or any(r.content == sentence for r in p.stream.records()))


def fit_minutes(steps: list[ProcedureStep], minutes: int) -> list[ProcedureStep]:
    """Fit the steps to ``minutes`` in total, keeping each step's own duration.

    The steps are taken in order, repeated from the first when time is left and the last one
    cut short, so a procedure learned for a 30-minute chunk serves a 60- or 20-minute one while
    every step stays within the 5-15 minutes of a decomposition (Park et al. 2023 §4.3).
    """
    out: list[ProcedureStep] = []
    left = max(1, minutes)
    while left > 0:
        for s in steps:
            m = min(s.minutes, left)
            out.append(ProcedureStep(description=s.description, object=s.object, minutes=m))
            left -= m
            if left == 0:
                break
    return out


def goal_of(p: Persona, task: str) -> Goal | None:
    """The goal condition the persona's own file gives ``task`` (its routine), or None."""
    return next((r.goal for r in p.spec.routine if r.task == task and r.goal is not None), None)


def known_for(p: Persona, *, task: str, place: str, minutes: int) -> tuple[dict[str, Any], ...]:
    """The persona's own reliable procedures retrieved for ``task`` that may be a part of it.

    Those that apply to the task as a whole (similarity >= :data:`APPLIES_AT`) are left out (the
    task would have followed them), as are those whose parameters this task cannot fill and
    those longer than ``minutes``.

    Returns:
        ``{"name", "steps": [{"description", "object", "minutes"}]}`` each, steps filled in for
        ``place``: what :class:`~town.thinking.questions.DecomposeTask` offers as building blocks.
    """
    if p.procedures is None:
        return ()
    lib = p.procedures.own
    values = persona_values(name=p.name, home_address=p.spec.home, place=place)
    out = []
    for match in lib.retrieve(task):
        if match.similarity >= APPLIES_AT:
            continue
        try:
            steps = lib.expand(match.procedure.name, values)
        except ProcedureError:
            continue
        if sum(s.minutes for s in steps) <= minutes:
            out.append({"name": match.procedure.name, "steps": [s.to_dict() for s in steps]})
    return tuple(out)


def follow(p: Persona, ctx: MindContext, *, task: str, place: str, minutes: int) -> list[Step] | None:
    """Retrieve procedures for ``task`` and follow the first that applies.

    Args:
        p: the persona (``p.procedures`` a ``ProceduralMemory``).
        ctx: the ``MindContext``.
        task: the plan block's task.
        place: the plan block's place (the ``{place}`` parameter).
        minutes: game minutes available for the steps.

    Returns:
        The concrete steps (and a new episode on ``p.procedures``), or None when no procedure
        applies and the task must be decomposed.
    """
    mem = memory_of(p)
    values = persona_values(name=p.name, home_address=p.spec.home, place=place)
    for which in ("persona", "town"):
        if which == "town" and mem.town is None:
            continue
        lib = mem.library(which)
        for match in lib.retrieve(task):
            if match.similarity < APPLIES_AT:
                continue
            name = match.procedure.name
            try:
                steps = lib.expand(name, values)
            except ProcedureError:
                continue  # a parameter this persona cannot fill ({other}): it does not apply
            closed = next((s.object for s in steps if knows_closed(p, ctx, s.object)), None)
            if closed is not None:
                reason = f"{sector_address(closed)} is known to be closed"
                on_library(ctx, which, partial(note_procedure, p=p, op="deviation", which=which, lib=lib, name=name,
                                               task=task, place=place, reason=reason, counted=False))
                continue
            steps = fit_minutes(steps, minutes)
            planned = tuple(s.to_dict() for s in steps)
            # a composite's parts that made it into the fitted steps are used too (both levels)
            calls = tuple(
                (sub, lo, min(hi, len(planned))) for sub, lo, hi in lib.calls(name) if lo < len(planned)
            )

            def used(out: Outbox, lib=lib, which=which, name=name, match=match, planned=planned,
                     calls=calls) -> None:
                lib.record_use(name, now=ctx.now)
                note_procedure(out, p, "use", which, lib, name, task=task, place=place,
                               similarity=round(match.similarity, 6), values=values, steps=list(planned),
                               calls=[list(c) for c in calls])
                for sub in dict.fromkeys(c[0] for c in calls):
                    lib.record_use(sub, now=ctx.now)
                    note_procedure(out, p, "use", which, lib, sub, task=task, place=place, via=name)

            on_library(ctx, which, used)
            mem.episode = Episode(
                task=task,
                place=place,
                values=values,
                planned=planned,
                procedure=name,
                library=which,
                start_tick=ctx.tick,
                goal=goal_of(p, task),
                calls=calls,
            )
            return [
                Step(description=s.description, object=s.object, minutes=s.minutes, task=task)
                for s in steps
            ]
    return None


def begin(p: Persona, ctx: MindContext, *, task: str, place: str, steps: list[Step]) -> None:
    """Start tracking a task the backend decomposed (so a verified success can be learned)."""
    memory_of(p).episode = Episode(
        task=task,
        place=place,
        values=persona_values(name=p.name, home_address=p.spec.home, place=place),
        planned=tuple(
            {"description": s.description, "object": s.object, "minutes": s.minutes} for s in steps
        ),
        start_tick=ctx.tick,
        goal=goal_of(p, task),
    )


def followed(p: Persona) -> str | None:
    """The name of the procedure the task under way follows, or None (decomposed, or no task)."""
    ep = None if p.procedures is None else p.procedures.episode
    return None if ep is None else ep.procedure


def check_step(p: Persona, ctx: MindContext, obj: str) -> StepFailure | None:
    """The world's check of a step on arrival: the object exists, its place is open, it is free.

    Read-only (personas decide concurrently on one snapshot of the world): an object is busy
    when others use it up to its capacity.
    """
    world = ctx.world
    if not world.tilemap.has_address(obj):
        return StepFailure.MISSING
    if not world.is_open(obj):
        return StepFailure.CLOSED
    if world.tilemap.is_object(obj) and world.busy(obj) and p.id not in world.occupants(obj):
        return StepFailure.BUSY
    return None


def step_started(p: Persona, step: Step) -> None:
    """Count a step carried out at its place towards the episode."""
    mem = memory_of(p)
    if mem.episode is not None:
        mem.episode = mem.episode.step_done(step.description, step.object)


def step_failed(p: Persona, ctx: MindContext, step: Step, reason: StepFailure) -> None:
    """Record a refused step and close the episode now (a followed procedure fails on arrival)."""
    mem = memory_of(p)
    if mem.episode is not None:
        mem.episode = mem.episode.failed(step.description, step.object, reason)
        close(p, ctx)


def close(p: Persona, ctx: MindContext, *, name_later: bool = False) -> Episode | None:
    """End the episode under way: verify the goal, then feedback or learning, with events.

    With ``name_later``, a decomposed task that succeeded is not learned here: it is returned,
    and the caller learns it (:func:`~.learn.learn`), its name asked with the next decomposition
    or on its own. Returns None otherwise.
    """
    mem = memory_of(p)
    ep, mem.episode = mem.episode, None
    if ep is None:
        return None
    outcome, why = ep.verify()
    if ep.procedure is not None and ep.library is not None:  # a followed procedure (both are set)
        lib = mem.library(ep.library)
        counted = outcome is not Outcome.UNVERIFIED

        def feedback(out: Outbox, lib=lib, ep=ep) -> None:  # ep as narrowed here (procedure and library set)
            if counted:
                lib.record_outcome(ep.procedure, success=outcome is Outcome.SUCCESS, now=ctx.now)
            note_procedure(out, p, "outcome", ep.library, lib, ep.procedure, task=ep.task, place=ep.place,
                           result=outcome.value, reason=why, counted=counted)
            for sub, result in ep.call_outcomes():
                lib.record_outcome(sub, success=result is Outcome.SUCCESS, now=ctx.now)
                note_procedure(out, p, "outcome", ep.library, lib, sub, task=ep.task, place=ep.place,
                               result=result.value, reason=f"part of {ep.procedure!r}: {why}", counted=True,
                               via=ep.procedure)

        on_library(ctx, ep.library, feedback)
        if outcome is Outcome.SUCCESS and ep.library == "town":
            learn(p, ctx, ep)  # a town procedure that worked becomes the persona's own
        elif outcome is Outcome.SUCCESS:
            share(p, ctx, ep, ep.procedure)  # its owner's second success may earn it the town library
        prune(p, ctx)
    elif outcome is Outcome.SUCCESS:
        if name_later:
            return ep
        learn(p, ctx, ep)
    return None
