"""What a run shows while it runs: its pace, and what the model is asked while a tick waits.

The pace is game minutes per wall minute (game seconds simulated per wall second): 0.17 for a
run of 10-second ticks at one tick a wall minute, 600 for a scripted run at 60 ticks a second;
never "0 ticks/s" for a slow run. A tick that waits for a model longer than :data:`QUIET_S` wall
seconds gets a line saying what the model is asked (:func:`doing`: "planning the day: 2 of 3
personas"), then one every :data:`EVERY_S`, from :class:`Watch`'s thread, which reads the
recorder's live count (``CallRecorder.live``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["DOING", "QUIET_S", "EVERY_S", "now", "pace", "pace_text", "doing", "Watch"]

#: Wall seconds a tick may wait before its first line saying what the model is asked.
QUIET_S = 10.0
#: Wall seconds between such lines while the tick still waits.
EVERY_S = 20.0
#: The wall clock (seconds; tests put a fake one in its place).
now: Callable[[], float] = time.perf_counter

#: What a template's question is about, as a progress line says it.
DOING = {
    "plan_day": "planning the day",
    "decompose_task": "breaking plans into steps",
    "next_action": "choosing what to do next",
    "choose_place": "choosing where to go",
    "decide_to_talk": "deciding whether to talk",
    "next_line": "talking",
    "summarise_conversation": "summing up a conversation",
    "rate_importance": "rating new memories",
    "rate_importances": "rating new memories",
    "focal_points": "reflecting",
    "insights": "reflecting",
    "generalise_procedure": "learning how a task is done",
    "answer_interview": "answering an interview",
}


def pace(ticks: int, seconds_per_tick: int, wall_s: float) -> float:
    """Game minutes per wall minute after ``ticks`` ticks of ``seconds_per_tick`` game seconds in
    ``wall_s`` wall seconds."""
    return ticks * seconds_per_tick / max(1e-9, wall_s)


def pace_text(rate: float) -> str:
    """A pace as text: three significant figures below 100 ("0.167"), whole above ("1,250")."""
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"


def doing(live: list[tuple[str, int, int]]) -> str | None:
    """What the model is asked, from ``CallRecorder.live``'s (template, answered, asked): the
    latest template some persona still waits on (else the latest), as "planning the day: 2 of 3
    personas"; None when nothing was asked."""
    if not live:
        return None
    waiting = [row for row in live if row[1] < row[2]]
    template, answered, asked = (waiting or live)[-1]
    return f"{DOING.get(template, template)}: {answered} of {asked} persona{'' if asked == 1 else 's'}"


class Watch:
    """A thread that, while a tick waits longer than :data:`QUIET_S`, calls ``say(text)`` every
    :data:`EVERY_S` with what the model is asked (``live()``), until :meth:`stop`.

    Args:
        live: ``CallRecorder.live`` (or a function giving the same rows).
        say: called from the thread with the line's text.
    """

    def __init__(self, live: Callable[[], list[tuple[str, int, int]]], say: Callable[[str], None]):
        self._live, self._say = live, say
        self._started = now()
        self._due = QUIET_S
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="town-progress", daemon=True)
        self._thread.start()

    def tick_started(self) -> None:
        """A new tick: its wait is counted from now."""
        with self._lock:
            self._started, self._due = now(), QUIET_S

    def _run(self) -> None:
        while not self._stopped.wait(min(1.0, QUIET_S / 4)):
            with self._lock:
                waited = now() - self._started
                due = waited >= self._due
                if due:
                    self._due = waited + EVERY_S
            text = doing(self._live()) if due else None
            if text is not None:
                self._say(f"{text} (this tick has waited {waited:.0f} s)")

    def stop(self) -> None:
        """End the thread."""
        self._stopped.set()
        self._thread.join(timeout=5)
