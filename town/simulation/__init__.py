"""The simulation: clock + world + personas + event bus, advanced one tick at a time.

Parts:
    core: :class:`Simulation` and its tick loop.
    decisions: what each persona decides on the tick's snapshot.
    conversations: which wishes to talk start a conversation, opening one, its lines.
    jobs: a tick's independent jobs at once, events in job order; lines started ahead.
    timed_events: a town file's timed events (closures, whispers, news) fired at their time.
    seeding: a new run's seeded memories and relationships.
    state: the run file's meta, snapshots of the state, restoring one, continuing a run.
"""

from .core import Simulation
from .seeding import RELATIONSHIP_IMPORTANCE

__all__ = ["Simulation", "RELATIONSHIP_IMPORTANCE"]
