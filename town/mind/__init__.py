"""One persona's cognition per tick (Park et al. 2023 §4).

A mind step runs as a job on the tick's snapshot: it changes only the minds it thinks for and
hands everything else back as typed effects (``effects``), which the simulation applies in order.

Parts:
    effects: what a mind step hands back (events, actions, lines, conversations over, changes
        to the town library).
    context: MindContext (the services, the tick, the outbox), ``remember`` and ``recall``.
    perceive: what a persona sees of the others; observations.
    plan: day plan from routine + retrieved memories; hour chunks; decomposition into steps.
    act: choose the next step (after a retrieval), walk, use objects.
    practice: procedural memory in use: follow a procedure or track a task's steps, learn from
        a verified success, prune; the PROCEDURE events (its store is ``town.procedures``).
    converse: react (decide to talk), say lines that pass on retrieved memories, summarise.
    reflect: focal points, retrieval, insights with evidence.
"""

from .act import decide_action
from .context import MindContext, Services, observe, recall, remember, remember_many
from .converse import Conversation, accept_talk, say_next_line, want_to_talk
from .perceive import Appearance, perceive
from .plan import plan_day
from .reflect import maybe_reflect

__all__ = ["MindContext", "Services", "recall", "remember", "remember_many", "observe", "perceive", "Appearance",
           "plan_day", "decide_action", "want_to_talk", "accept_talk", "say_next_line", "Conversation",
           "maybe_reflect"]
