"""Running a study's runs on this machine: in this process, or in N worker processes.

``--workers 1`` runs each :class:`~town.studies.task.RunTask` here, one after another. ``--workers
N`` keeps N worker processes busy, each run in a fresh process (``spawn``: nothing of this
process's threads or open files is inherited), so a worker that dies takes only its own run
down. A run whose worker dies (killed, out of memory: it ends without an answer) is given to a
new process once more, as Ray's ``max_retries=1`` does for ``--workers ray``; a run that fails
with an error (a bad town, a model server that cannot be reached) is not retried, and is
reported with its error while the others go on. Ctrl-C stops every worker and keeps the runs
that finished.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from ..errors import TownError
from .task import RunTask, perform, read_result

__all__ = ["ATTEMPTS", "Outcome", "error_line", "run_here", "run_in_processes"]

log = logging.getLogger(__name__)

#: Attempts per run when its worker dies: the first and one retry.
ATTEMPTS = 2


@dataclass(frozen=True)
class Outcome:
    """How one run ended: its result, or the error that stopped it; attempts made (1 or 2)."""

    task: RunTask
    result: dict[str, Any] | None
    error: str | None
    attempts: int


def error_line(exc: BaseException) -> str:
    """One line for a run's error: a town error as it reads, anything else with its type."""
    text = str(exc) if isinstance(exc, TownError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())


def run_here(tasks: list[RunTask], on_done: Callable[[Outcome], None]) -> None:
    """Run ``tasks`` one after another in this process, calling ``on_done`` after each."""
    for task in tasks:
        try:
            result = perform(task)
        except Exception as exc:  # one run's failure is reported; the others go on
            log.debug("run %s failed", task.name, exc_info=True)
            on_done(Outcome(task, None, error_line(exc), 1))
        else:
            on_done(Outcome(task, result, None, 1))


def _work(task: RunTask, conn) -> None:
    """A worker process: perform ``task``; send ``("ok", None)`` (the result is in its file) or
    ``("error", line)``, a few hundred bytes at most, so the pipe never fills."""
    try:
        perform(task)
        conn.send(("ok", None))
    except KeyboardInterrupt:  # Ctrl-C reached the worker too; the driver reports it
        raise SystemExit(130) from None
    except Exception as exc:
        if not isinstance(exc, TownError):
            traceback.print_exc()
        conn.send(("error", error_line(exc)[:500]))
    finally:
        conn.close()


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit code {exitcode}"


def _stop(running: dict) -> None:
    """Stop every worker still running (SIGTERM, then SIGKILL after 5 s)."""
    for process, *_ in running.values():
        process.terminate()
    for process, *_ in running.values():
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()


def run_in_processes(tasks: list[RunTask], workers: int, on_done: Callable[[Outcome], None]) -> None:
    """Run ``tasks`` in up to ``workers`` worker processes at once, calling ``on_done`` as each ends.

    Raises:
        KeyboardInterrupt: after stopping every worker still running (finished runs are kept).
    """
    ctx = multiprocessing.get_context("spawn")
    todo: deque[tuple[RunTask, int]] = deque((t, 1) for t in tasks)
    running: dict[Any, tuple] = {}  # process sentinel -> (process, receiving end, task, attempt)
    try:
        while todo or running:
            while todo and len(running) < workers:
                task, attempt = todo.popleft()
                receive, send = ctx.Pipe(duplex=False)
                process = ctx.Process(target=_work, args=(task, send), name=f"town study {task.name}")
                process.start()
                send.close()
                running[process.sentinel] = (process, receive, task, attempt)
            for sentinel in wait(list(running)):
                process, receive, task, attempt = running.pop(sentinel)
                try:
                    message = receive.recv() if receive.poll() else None
                except EOFError:
                    message = None
                receive.close()
                process.join()
                if message is not None:
                    kind, error = message
                    on_done(Outcome(task, read_result(task) if kind == "ok" else None, error, attempt))
                elif attempt < ATTEMPTS:
                    log.warning("the worker of %s died (%s); running it again", task.name, _death(process.exitcode))
                    todo.append((task, attempt + 1))
                else:
                    on_done(Outcome(task, None, f"its worker died {attempt} times (last: "
                                                f"{_death(process.exitcode)})", attempt))
    except BaseException:
        _stop(running)
        raise
