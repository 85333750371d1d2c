"""Running a study's runs as Ray tasks (``--workers ray`` or ``--workers ray://HOST:PORT``).

Ray is an optional extra (``pip install 'town[ray]'``) and is imported only here, only when a
study asks for it. ``--workers ray`` with no cluster running starts a local one on loopback. Each run is one task (:func:`town.studies.task.perform`, one CPU) that writes
its run file and result into the study's folder, so that folder must be the same path on every
machine of the cluster (a shared folder, given with ``--out``); the task also returns its result
to the driver. Ray runs a task whose worker died once more (``max_retries=1``, the local workers'
one retry); a task that raised is not retried (``retry_exceptions=False``). Ctrl-C cancels the
tasks not yet finished (``ray.cancel(force=True)``) and keeps the finished runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..errors import ConfigError
from .pool import ATTEMPTS, Outcome, error_line
from .task import RunTask, perform

__all__ = ["is_ray", "run_on_ray"]


def is_ray(workers: str) -> bool:
    """Whether ``--workers`` names a Ray cluster: ``ray`` or ``ray://HOST:PORT``."""
    return workers == "ray" or workers.startswith("ray://")


def _connect(workers: str):
    """The ``ray`` module, connected to the cluster ``workers`` names; whether we connected.

    ``ray`` joins the cluster this machine belongs to (``RAY_ADDRESS``, or the one ``ray start``
    started here); when none is running (and ``RAY_ADDRESS`` is unset) it starts a local one, as
    ``ray.init()`` does, every server of it on loopback only (127.0.0.1), ended with the study.
    ``ray://HOST:PORT`` goes through the Ray Client port of a head node. A process already
    connected (e.g. one that called ``ray.init``) keeps its connection.

    Raises:
        ConfigError: naming ``--workers`` when Ray is not installed or no cluster answers.
    """
    try:
        import ray
    except ImportError:
        raise ConfigError("Ray is not installed: pip install 'town[ray]'", field="--workers") from None
    if ray.is_initialized():
        return ray, False
    try:
        ray.init(address="auto" if workers == "ray" else workers, log_to_driver=True)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        if workers != "ray" or os.environ.get("RAY_ADDRESS"):
            raise ConfigError(f"no Ray cluster answers at {workers!r} ({' '.join(str(exc).split())[:300]}); "
                              "start one with `ray start --head`, or give ray://HOST:PORT", field="--workers") from None
        _start_on_loopback(ray)
    return ray, True


def _start_on_loopback(ray) -> None:
    """Start a local Ray cluster whose servers listen on 127.0.0.1 only, and say so on stderr.

    Ray takes a LAN address for its node unless clusters are off for this machine
    (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, read into ``ray_constants`` when Ray is imported,
    so both are set: the constant for this process, the variable for the processes it starts).
    """
    from ray._private import ray_constants

    os.environ[ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    ray.init(include_dashboard=False, log_to_driver=True)
    nodes = ",".join(sorted({n["NodeManagerAddress"] for n in ray.nodes()}))
    print(f"town: no Ray cluster was running; started a local one on {nodes} "
          f"({int(ray.cluster_resources().get('CPU', 0))} CPUs), stopped when the study ends",
          file=sys.stderr, flush=True)


def _error(ray, exc: Exception) -> tuple[str, int]:
    """The error line of a failed task and the attempts it took."""
    if isinstance(exc, ray.exceptions.RayTaskError):  # the run raised: not retried
        cause = getattr(exc, "cause", None)
        lines = [line for line in str(exc).splitlines() if line.strip()]
        return (error_line(cause) if cause is not None else lines[-1] if lines else repr(exc)), 1
    return f"its worker died {ATTEMPTS} times ({type(exc).__name__})", ATTEMPTS


def run_on_ray(tasks: list[RunTask], workers: str, on_done: Callable[[Outcome], None]) -> None:
    """Submit every task to the cluster and call ``on_done`` as each ends, in the order they end.

    ``Outcome.attempts`` is 1 for a finished run: Ray does not tell how often it ran a task
    (its result's ``restarted`` says whether an unfinished run of it was found and run again).

    Raises:
        ConfigError: see :func:`_connect`.
        KeyboardInterrupt: after cancelling the unfinished tasks.
    """
    ray, connected = _connect(workers)
    remote = ray.remote(num_cpus=1, max_retries=ATTEMPTS - 1, retry_exceptions=False)(perform)
    refs = {remote.remote(task): task for task in tasks}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    error, attempts = _error(ray, exc)
                    on_done(Outcome(refs[ref], None, error, attempts))
                else:
                    on_done(Outcome(refs[ref], result, None, 1))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if connected:
            ray.shutdown()
