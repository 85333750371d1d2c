"""The simulation: clock + world + personas + event bus, advanced one tick at a time.

A tick: snapshot -> decide -> apply -> record.

Parts:
    core: :class:`Simulation`, which composes the owners below, and its tick loop.
    snapshot: how every persona appears at the tick's start, and what each one sees.
    decide: what each persona decides on the snapshot; the answer to an invitation.
    jobs: a mind step run as a job to its effects; the tick's thread pool, a map over jobs.
    apply: the tick's effects applied in order, every event numbered.
    conversations: the conversations' owner; which wishes to talk start one; a conversation's turn.
    timeline: the town file's timed events (closures, whispers, news) and whispers.
    seeding: a new run's seeded memories and relationships.
    state: the run file's meta, snapshots of the state, restoring one, continuing a run.
"""

from .core import Simulation
from .seeding import RELATIONSHIP_IMPORTANCE

__all__ = ["Simulation", "RELATIONSHIP_IMPORTANCE"]
