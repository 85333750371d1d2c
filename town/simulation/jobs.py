"""A tick's independent jobs run at once, their events published as if they had run in order.

With a model backend, the personas' decisions, the invitations and the conversation lines of a
tick each run in a thread pool, so their requests overlap (docs/design, §3). Each job's events
are held back (:meth:`~town.mind.MindContext.buffered`) and published in job order, so the run
file is the same whatever order the requests finish in.

A job may also be started *ahead*, as soon as the jobs it depends on have finished, while the
rest of their step still runs: a conversation already under way says its line once both of its
speakers have decided, without waiting for everyone else's decisions (:func:`run_with_followers`).
Its events are held until the caller publishes them at the line's usual place in the tick.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..mind import MindContext

__all__ = ["in_order", "run_with_followers"]

#: A job's result and its held-back events, as :meth:`MindContext.buffered` returns them.
Held = tuple[Any, list]


def in_order(pool: ThreadPoolExecutor | None, ctx: MindContext, jobs: Sequence[Callable[..., Any]]) -> list:
    """Run ``jobs`` (at once in ``pool``, else one by one); publish their events in job order.

    Returns:
        The jobs' results, in job order.

    Raises:
        Whatever a job raised (the first in job order).
    """
    if pool is None:
        return [job() for job in jobs]
    return _published([pool.submit(ctx.buffered, job) for job in jobs], ctx)


def _published(futures: Sequence[Future[Held]], ctx: MindContext) -> list:
    """Wait for each job in order, publish its held events; the jobs' results in order."""
    results = []
    for future in futures:
        result, events = future.result()
        ctx.flush(events)
        results.append(result)
    return results


def run_with_followers(
    pool: ThreadPoolExecutor,
    ctx: MindContext,
    jobs: Mapping[Any, Callable[..., Any]],
    followers: Mapping[Any, tuple[Sequence[Any], Callable[..., Any]]],
) -> tuple[list, dict[Any, Future[Held]]]:
    """Run ``jobs`` at once and start each follower as soon as the jobs it names have finished.

    Args:
        pool: the thread pool.
        ctx: the mind's context (holds events back, publishes them).
        jobs: key -> job; their events are published in this order before returning.
        followers: key -> (keys of the jobs it waits for, job). A follower must not depend on
            any job it does not name, nor any job on it.

    Returns:
        (the jobs' results in order, key -> future of each follower's (result, held events));
        the caller publishes a follower's events with ``ctx.flush``.

    Raises:
        Whatever a job raised (the first in order); followers already started are left to end.
    """
    futures = {key: pool.submit(ctx.buffered, job) for key, job in jobs.items()}
    # submitted after every job, so a follower waits only on jobs already taken by a thread
    # (the pool's queue is first in, first out): waiting cannot starve them of threads
    ahead = {key: pool.submit(_after, [futures[w] for w in waits], ctx, job)
             for key, (waits, job) in followers.items()}
    return _published(list(futures.values()), ctx), ahead


def _after(waits: list[Future], ctx: MindContext, job: Callable[..., Any]) -> Held:
    """``job``'s (result, held events) once every future in ``waits`` is done.

    Raises:
        The error of a failed wait, instead of running the job.
    """
    for wait in waits:
        wait.result()
    return ctx.buffered(job)
