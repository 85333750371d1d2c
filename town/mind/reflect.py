"""Reflection (Park et al. 2023 §4.2).

When the summed importance of memories since the last reflection reaches the threshold (150),
the persona picks focal points from its 100 most recent memories, retrieves for each, and
writes insights that cite their evidence: at least two of the memory ids that retrieval returned.
An insight already among those 100 memories or what the focal point's retrieval returned, word
for word, is not written again.
"""

from __future__ import annotations

from ..events import EventKind
from ..persona import Persona
from ..textevent import absolute_days
from ..thinking.questions import FocalPoints, Insights
from .context import MindContext, memory_views, rate_unrated, recall, remember_many, seed_for, unrated_bound

__all__ = ["maybe_reflect", "MIN_EVIDENCE"]

#: An insight rests on at least this many retrieved memories; one with fewer is not written.
MIN_EVIDENCE = 2


def maybe_reflect(p: Persona, ctx: MindContext) -> bool:
    """Reflect if ``p.importance_acc`` >= the configured threshold; returns whether it did.

    Unrated memories (``Persona.unrated``) are rated first only when they could bring the sum to
    the threshold (each counted at most :data:`~town.mind.context.MAX_IMPORTANCE`).

    Never reflects when ``ablate`` contains "reflection" (Park et al. 2023 §6.2).
    """
    if "reflection" in ctx.config.ablated:
        return False
    threshold = ctx.config.reflection.threshold
    if p.asleep:
        return False
    if p.importance_acc + unrated_bound(p) >= threshold:  # else the unrated cannot reach it
        rate_unrated(p, ctx)
    if p.importance_acc < threshold:
        return False
    recent = p.stream.last_records(100)
    focal = ctx.backend.ask(FocalPoints(
        persona=p.id, persona_name=p.name, persona_summary=p.summary(), seed=seed_for(ctx, p.id, "focal"),
        memories=memory_views(recent), people=tuple(ctx.names.values())))
    insights, written = [], set()
    seen = {r.content for r in recent}
    for point in focal.questions:
        records, seq = recall(p, ctx, point, purpose="reflect")
        known = {r.id for r in records}
        held = seen | {r.content for r in records}  # insights seen or recalled are held already
        answer = ctx.backend.ask(Insights(persona=p.id, persona_name=p.name, persona_summary=p.summary(),
                                          seed=seed_for(ctx, p.id, "insight", point),
                                          focal_point=point, memories=memory_views(records),
                                          people=tuple(ctx.names.values()), places=ctx.world.tilemap.places(),
                                          now=f"{ctx.now:%Y-%m-%d %H:%M:%S}",
                                          ties=tuple((ctx.names[r.persona], r.description)
                                                     for r in p.spec.relationships if r.persona in ctx.names),
                                          home=p.spec.home_sector))
        fresh = []
        for item in answer.insights:
            evidence = tuple(dict.fromkeys(i for i in item.evidence if i in known))
            text = absolute_days(item.text, ctx.now)  # "the party today" read on a later day names its date
            if len(evidence) < MIN_EVIDENCE or text in written or text in held:
                continue
            written.add(text)
            fresh.append(dict(kind="reflection", content=text, evidence=evidence))
        for record in remember_many(p, ctx, fresh):  # a focal point's insights rated together
            insights.append({"memory": record.id, "content": record.content,
                             "evidence": list(record.evidence), "focal_point": point, "retrieval": seq})
    p.reflected()
    ctx.out.note(EventKind.REFLECTION, p.id, {"focal_points": list(focal.questions), "insights": insights},
                 cites=tuple(("insights", i, "retrieval") for i in range(len(insights))))
    return True
