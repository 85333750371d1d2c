"""Learning a procedure from a verified success, and pruning the libraries (docs/design, §2).

A task attempt whose goal the world verified is generalised (its verified steps with their
concrete values as ``{parameters}``, named by the backend's
:class:`~town.thinking.questions.GeneraliseProcedure`), composed from the persona's reliable
procedures where they cover a run of its steps, and saved to the persona's library (Voyager,
Wang et al. 2023). Once it has succeeded for its owner ``procedures.share_after`` times (2: more
than once), under a name and
condition that pass :data:`~town.thinking.questions.generalise_procedure.SENSE`, it is shared,
anonymised and flat, to the town library: a model's name for one lucky success ("Living Room
Setup" for a shower) never reaches the others. Every save, share and prune is a PROCEDURE event.
"""

from __future__ import annotations

from dataclasses import replace

from ...persona import Persona
from ...procedures import (
    Episode,
    Procedure,
    ProcedureError,
    ProcedureLibrary,
    ProcedureStep,
    anonymise,
    generalise_steps,
    generalise_text,
    parameters_of,
)
from ...procedures.generalise import compose
from ...thinking.questions import GeneraliseProcedure, InvalidAnswer, ProcedureAnswer
from ...thinking.questions.generalise_procedure import SENSE
from ..context import MindContext, seed_for
from ..effects import Outbox
from .events import memory_of, note_procedure, on_library

__all__ = ["learn", "naming", "share", "prune"]


def naming(p: Persona, ctx: MindContext, ep: Episode) -> GeneraliseProcedure:
    """The question that names a procedure made of ``ep``'s verified steps."""
    return GeneraliseProcedure(
        persona=p.id,
        persona_name=p.name,
        persona_summary=p.summary(),
        seed=seed_for(ctx, p.id, "generalise", ep.task),
        task=ep.task,
        place=ep.place,
        steps=ep.planned,
        parameters=tuple(sorted(ep.values.items())),
    )


def _generalise(p: Persona, ctx: MindContext, ep: Episode, named: ProcedureAnswer | None) -> Procedure:
    """The verified steps generalised by substitution, named by GeneraliseProcedure's answer
    (``named``, when another request gave it: :func:`learn`).

    The steps are never the model's: only what the world verified is saved (Voyager, Wang et
    al. 2023, keeps only programs that passed their check). A name or "when" naming a parameter
    this task has no value for is replaced by the generalised task.
    """
    values = ep.values
    answer = named or ctx.backend.ask(naming(p, ctx, ep))
    steps = generalise_steps((ProcedureStep(**c) for c in ep.planned), values)
    known = set(values)
    name, when = (generalise_text(t, values) for t in (answer.name, answer.when))
    if not (parameters_of(name) | parameters_of(when)) <= known:
        name = when = generalise_text(ep.task, values)
    flat = Procedure(
        name=name,
        when=when,
        steps=steps,
        successes=1,
        failures=0,
        created=ctx.now,
        last_used=ctx.now,
    )
    return _compose(memory_of(p).own, flat, ep)


def _compose(lib: ProcedureLibrary, flat: Procedure, ep: Episode) -> Procedure:
    """``flat`` with each run of steps that a reliable procedure of ``lib`` covers as a call to it.

    Candidates are the kept procedures at or above the threshold whose steps fill with this
    task's values, other than the one ``flat`` would update on saving (the same task); a
    composite the library would refuse (a cycle through a candidate) is saved flat.
    """
    same = lib.duplicate_of(flat)
    known = {}
    for proc in lib.procedures():
        if proc.pruned is not None or not lib.is_reliable(proc) or proc is same:
            continue
        try:
            known[proc.name] = [s.to_dict() for s in lib.expand(proc.name, ep.values)]
        except ProcedureError:
            continue  # a parameter this task has no value for
    steps = compose(flat.steps, ep.planned, known)
    if steps == flat.steps:
        return flat
    composite = replace(flat, steps=steps)
    try:
        # saving updates ``same`` when there is one: check the steps under that name
        lib.check_composition(composite if same is None else replace(composite, name=same.name))
    except ProcedureError:
        return flat
    return composite


def learn(p: Persona, ctx: MindContext, ep: Episode, named: ProcedureAnswer | None = None) -> None:
    """Save a verified success to the persona's library; :func:`share` it once it has earned it.

    ``named``: its name and "when", checked, as a decomposition asked with :func:`naming`'s
    question gave them; None asks that question on its own.
    """
    mem = memory_of(p)
    proc = _generalise(p, ctx, ep, named)
    stored, merged = mem.own.save(proc, now=ctx.now)
    note_procedure(ctx.out, p, "save", "persona", mem.own, stored.name, task=ep.task, place=ep.place,
                   merged=merged)
    share(p, ctx, ep, stored.name)


def share(p: Persona, ctx: MindContext, ep: Episode, name: str) -> None:
    """Share the persona's procedure ``name``, just verified again by ``ep``, to the town library,
    anonymised and flat (the parts a composite calls are the persona's own), when it has
    succeeded ``procedures.share_after`` times or more and its name and ``when`` pass
    :class:`~town.thinking.questions.GeneraliseProcedure`'s checks for this task; else nothing.
    Each share counts one success in the town library, as a save does."""
    mem = memory_of(p)
    proc = mem.own.get(name)
    if mem.town is None or proc.successes < ctx.config.procedures.share_after:
        return
    try:
        naming(p, ctx, ep).check(ProcedureAnswer(name=proc.name, when=proc.when), rules=SENSE)
    except InvalidAnswer:
        return
    flat = replace(proc, steps=tuple(mem.own.expand(name)), successes=1, failures=0, created=ctx.now,
                   last_used=ctx.now, below_since=None)
    others = [r for r in mem.roster if r[0] != p.name]
    town = mem.town

    def shared(out: Outbox) -> None:
        kept, merged = town.save(anonymise(flat, owner=(p.name, p.spec.home), others=others), now=ctx.now)
        note_procedure(out, p, "save", "town", town, kept.name, task=ep.task, place=ep.place, merged=merged)

    on_library(ctx, "town", shared)


def prune(p: Persona, ctx: MindContext) -> None:
    """Apply the pruning rules to the persona's and the town library; a PROCEDURE event each."""
    mem = memory_of(p)
    for which in ("persona", "town"):
        if which == "town" and mem.town is None:
            continue

        def pruned(out: Outbox, lib: ProcedureLibrary = mem.library(which), which: str = which) -> None:
            for proc, rule in lib.prune(ctx.now):
                note_procedure(out, p, "prune", which, lib, proc.name, rule=rule.value)

        on_library(ctx, which, pruned)
