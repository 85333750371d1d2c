"""Wall-clock pacing of a Simulation in its own thread (docs/design, §5).

Parts:
    pacing: the speeds (ticks per wall second) and when the next tick is due.
    calls: inputs queued from other threads (applied by the simulation between ticks) and
        callables run on the runner's thread between ticks.
    runner: :class:`Runner`, the thread that steps the simulation, and its status.
"""

from .pacing import MAX_LAG_SECONDS, MAX_SPEED, MIN_SPEED, SPEEDS, check_speed
from .runner import STOP_GRACE_S, Runner, RunnerState, Steppable

__all__ = ["Runner", "RunnerState", "Steppable", "SPEEDS", "MIN_SPEED", "MAX_SPEED", "MAX_LAG_SECONDS",
           "STOP_GRACE_S", "check_speed"]
