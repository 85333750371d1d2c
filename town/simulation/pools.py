"""The tick's thread pools, whose model waits end on any stop, error or interpreter exit.

With a model backend a tick's jobs run in a pool of threads named ``mind_N`` (a job's own side
requests in ``mind-side_N``). They are not daemon threads: interpreter exit joins them, so one
left waiting for a model server that never answers (a stall, a request) would keep the process
alive for ever, as a test run that hit its timeout once did for an hour. So a tick that raises
cancels its backend's waits (its stall guard, ``Simulation.step``), and at interpreter exit,
before the pools are joined, the stall guard of every backend that still has pools is cancelled.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from concurrent.futures import Executor, ThreadPoolExecutor

from ..thinking.backend import ThinkingBackend
from ..thinking.wrappers import StallGuard

__all__ = ["thread_pools", "end_waits"]

_LIVE: weakref.WeakSet[StallGuard] = weakref.WeakSet()


def thread_pools(backend: ThinkingBackend, size: int, stall: StallGuard | None) -> tuple[
        ThreadPoolExecutor | None, ThreadPoolExecutor | None]:
    """The tick's pool and the side pool for ``backend``, ``size`` threads each; ``stall`` (the
    backend's stall guard, if any) is cancelled at interpreter exit.

    Returns:
        (None, None) for the scripted backend or ``size`` <= 1: the jobs then run one by one.
    """
    if backend.name == "scripted" or size <= 1:
        return None, None
    if stall is not None:
        _LIVE.add(stall)
    return (ThreadPoolExecutor(max_workers=size, thread_name_prefix="mind"),
            ThreadPoolExecutor(max_workers=size, thread_name_prefix="mind-side"))


def end_waits(stall: StallGuard | None, *pools: Executor | None) -> None:
    """End the model waits (``stall``, the backend's stall guard, if any), and let the pools'
    threads end once their jobs have.

    For a tick that raised: the simulation will not step again, so its pools take no more work.
    """
    if stall is not None:
        stall.cancel()
    for pool in pools:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


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
