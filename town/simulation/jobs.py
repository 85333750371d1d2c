"""A tick's jobs: mind steps run to their effects, one by one or at once in a thread pool.

A job is one mind step on the tick's snapshot: a persona's decision, the answer to an
invitation, a conversation's line, one side's summary. :func:`think` runs it with a fresh
:class:`~town.mind.MindContext` and returns what it decided with the effects it handed back
(:class:`Thought`); nothing is published while it runs. So running jobs at once is a map:
:class:`Pool` runs a list of jobs and returns their thoughts in job order, and the simulation
applies them in that order, the same whatever order the requests finished in (docs/design, §3).

A job may also start *ahead*, as soon as the jobs it depends on have finished, while the rest
of their step still runs: a conversation under way says its line once both of its speakers have
decided (:meth:`Pool.map_ahead`).

The model calls a job makes are MODEL_CALL events of that job (the backend's recorder notes them
with :func:`note_call`), so they keep their place among its other events. The pools' threads are
not daemons: a tick that raises, or interpreter exit, first ends their model waits
(:meth:`Pool.end_waits`), so a thread waiting for a server that never answers cannot hold the
process.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from ..events import EventKind
from ..mind import MindContext, Services
from ..mind.effects import Effect, Outbox
from ..thinking.wrappers import StallGuard

__all__ = ["Thought", "think", "note_call", "Pool"]

T = TypeVar("T")

#: The outbox of the job running in this thread (None: no job runs).
_RUNNING: ContextVar[Outbox | None] = ContextVar("town_job_outbox", default=None)


@dataclass(frozen=True)
class Thought(Generic[T]):
    """A job's outcome: what it returned, and its effects in order."""

    result: T
    effects: list[Effect]


def think(services: Services, tick: int, now: datetime, work: Callable[[MindContext], T]) -> Thought[T]:
    """Run ``work(ctx)`` as a job thinking in ``tick`` (game time ``now``); its outcome.

    Raises:
        Whatever ``work`` raised.
    """
    ctx = MindContext(services, tick, now)
    running = _RUNNING.set(ctx.out)
    try:
        result = work(ctx)
    finally:
        _RUNNING.reset(running)
    return Thought(result, ctx.out.effects)


def note_call(kind: EventKind, persona: str | None, data: dict, publish: Callable[..., Any]) -> None:
    """Note a model call's event in the running job's outbox, or ``publish`` it when none runs."""
    out = _RUNNING.get()
    if out is None:
        publish(kind, persona, data)
    else:
        out.note(kind, persona, data)


_LIVE: weakref.WeakSet[StallGuard] = weakref.WeakSet()


class Pool:
    """The tick's threads (``mind_N``) and the side threads for a job's own parts (``mind-side_N``).

    Args:
        threads: threads per pool; 0 or 1: none, the jobs run one after another.
        stall: the backend's stall guard, if any: :meth:`end_waits` and interpreter exit cancel
            it, which ends every model wait.
    """

    def __init__(self, threads: int, stall: StallGuard | None = None):
        self._stall = stall
        self._main = self._side = None
        if threads > 1 and stall is not None:
            _LIVE.add(stall)
        if threads > 1:
            self._main = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="mind")
            self._side = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="mind-side")

    @property
    def threaded(self) -> bool:
        """Whether jobs run at once."""
        return self._main is not None

    def map(self, jobs: Sequence[Callable[[], T]]) -> list[T]:
        """Run ``jobs`` (at once, or one by one); their results in job order.

        Raises:
            Whatever a job raised (the first in job order).
        """
        return _run(self._main, jobs)

    def map_side(self, jobs: Sequence[Callable[[], T]]) -> list[T]:
        """:meth:`map` for one job's own independent parts (on the side threads, never nested)."""
        return _run(self._side, jobs)

    def map_ahead(self, jobs: Mapping[Any, Callable[[], T]],
                  followers: Mapping[Any, tuple[Sequence[Any], Callable[[], Any]]]) -> tuple[list[T], dict[Any, Future]]:
        """Run ``jobs`` at once and start each follower as soon as the jobs it names have finished.

        Args:
            jobs: key -> job.
            followers: key -> (keys of the jobs it waits for, job). A follower must not depend on
                any job it does not name, nor any job on it.

        Returns:
            (the jobs' results in order, key -> future of each follower's result).

        Raises:
            RuntimeError: without threads (a sequential run has nothing to start ahead).
            Whatever a job raised (the first in order); followers already started are left to end.
        """
        if self._main is None:
            raise RuntimeError("jobs start ahead only on a thread pool")
        futures = {key: self._main.submit(job) for key, job in jobs.items()}
        # submitted after every job, so a follower waits only on jobs already taken by a thread
        # (the pool's queue is first in, first out): waiting cannot starve them of threads
        ahead = {key: self._main.submit(_after, [futures[w] for w in waits], job)
                 for key, (waits, job) in followers.items()}
        return [future.result() for future in futures.values()], ahead

    def end_waits(self) -> None:
        """End the backend's model waits, and let the threads end once their jobs have.

        For a tick that raised: the simulation will not step again, so its pools take no more work.
        """
        if self._stall is not None:
            self._stall.cancel()
        self.close(wait=False)

    def close(self, *, wait: bool) -> None:
        """Shut the threads down (``wait=False``: a thread stuck in a model request is abandoned)."""
        for pool in (self._main, self._side):
            if pool is not None:
                pool.shutdown(wait=wait, cancel_futures=True)


def _run(pool: ThreadPoolExecutor | None, jobs: Sequence[Callable[[], T]]) -> list[T]:
    if pool is None:
        return [job() for job in jobs]
    return [future.result() for future in [pool.submit(job) for job in jobs]]


def _after(waits: list[Future], job: Callable[[], T]) -> T:
    """``job()`` once every future in ``waits`` is done.

    Raises:
        The error of a failed wait, instead of running the job.
    """
    for wait in waits:
        wait.result()
    return job()


def _cancel_all() -> None:
    """End the model waits of every backend with pools (at interpreter exit)."""
    for stall in list(_LIVE):
        try:
            stall.cancel()
        except Exception:  # noqa: BLE001 - exit goes on whatever one backend does
            pass


# Interpreter exit joins the pools' threads in threading's own exit hooks, which run before
# atexit's; this hook, registered after concurrent.futures' own, runs before it joins them.
getattr(threading, "_register_atexit", atexit.register)(_cancel_all)
