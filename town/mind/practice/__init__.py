"""The mind's procedural memory: how a persona carries out a task, learns from it and forgets.

The store is ``town.procedures`` (what a procedure, a library, an episode is: no mind); this is
its use by the mind (docs/design, §2; Voyager, Wang et al. 2023):

Parts:
    follow: follow a retrieved procedure for a task, or track the task's own steps; each step
        checked by the world; the episode closed with feedback or learning.
    learn: a verified success generalised and saved (own library, and anonymised to the town's);
        the libraries pruned.
    events: a persona's procedural memory reached for use; the PROCEDURE event of each use,
        outcome, deviation, save and prune; a change to the town library made when applied.
"""

from .follow import (
    APPLIES_AT,
    begin,
    check_step,
    close,
    fit_minutes,
    follow,
    followed,
    goal_of,
    known_for,
    knows_closed,
    step_failed,
    step_started,
)
from .learn import learn, naming, prune

__all__ = ["APPLIES_AT", "follow", "begin", "check_step", "step_started", "step_failed", "close", "followed",
           "fit_minutes", "goal_of", "known_for", "knows_closed", "learn", "naming", "prune"]
