"""Running a study's runs on this machine: in this process, or in N worker processes.

``--workers 1`` runs each :class:`~town.studies.task.RunTask` here, one after another. ``--workers
N`` starts N worker processes (``spawn``: nothing of this process's threads or open files is
inherited), each running one run after another, so the libraries and the embedder load once per
process; a worker that dies takes only its own run down and is replaced. A run whose worker died
(killed, out of memory: it ends without an answer) is given out once more, as Ray's
``max_retries=1`` does for ``--workers ray``; a run that fails
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


def _serve(conn) -> None:
    """A worker process: perform each task received, answering ``("ok", None)`` (the result is in
    its file) or ``("error", line)`` (a few hundred bytes at most); ``None`` ends it."""
    try:
        while (task := conn.recv()) is not None:
            try:
                perform(task)
            except Exception as exc:
                if not isinstance(exc, TownError):
                    traceback.print_exc()
                conn.send(("error", error_line(exc)[:500]))
            else:
                conn.send(("ok", None))
    except KeyboardInterrupt:  # Ctrl-C reached the worker too; the driver reports it
        raise SystemExit(130) from None
    except EOFError:  # the driver went away
        pass


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"killed by {signal.Signals(-exitcode).name}"
    return f"exit code {exitcode}"


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: RunTask | None = None
    attempt: int = 0


def _start(ctx) -> _Worker:
    mine, theirs = ctx.Pipe()
    process = ctx.Process(target=_serve, args=(theirs,), name="town study worker")
    process.start()
    theirs.close()
    return _Worker(process, mine)


def _answer(worker: _Worker) -> tuple[str, str | None] | None:
    """The worker's answer if it sent one, else None (it died: its pipe is closed)."""
    try:
        return worker.conn.recv() if worker.conn.poll() else None
    except (EOFError, OSError):
        return None


def _stop(pool: list[_Worker], *, now: bool) -> None:
    """End every worker: ask them to stop, or (``now``) SIGTERM; SIGKILL after 5 s."""
    for w in pool:
        try:
            w.conn.send(None) if not now else w.process.terminate()
        except OSError:
            pass
    for w in pool:
        w.process.join(5)
        if w.process.is_alive():
            w.process.kill()
            w.process.join()
        w.conn.close()


def run_in_processes(tasks: list[RunTask], workers: int, on_done: Callable[[Outcome], None]) -> None:
    """Run ``tasks`` in ``workers`` worker processes, calling ``on_done`` as each run ends.

    A worker runs one task after another (it loads the libraries and the embedder once); one that
    dies, while running a task or while waiting for one, is replaced by a new process, and the
    task it held is given out again once.

    Raises:
        KeyboardInterrupt: after stopping every worker (finished runs are kept).
    """
    ctx = multiprocessing.get_context("spawn")
    todo: deque[tuple[RunTask, int]] = deque((t, 1) for t in tasks)
    pool = [_start(ctx) for _ in range(min(workers, len(todo)))]

    def replace(i: int, task: RunTask, attempt: int) -> None:
        """Worker ``i`` died holding ``task``: start another; give the task out again or report it."""
        w = pool[i]
        w.process.join(5)
        log.warning("the worker running %s died (%s)", task.name, _death(w.process.exitcode))
        if attempt < ATTEMPTS:
            todo.append((task, attempt + 1))
        else:
            on_done(Outcome(task, None, f"its worker died {attempt} times (last: "
                                        f"{_death(w.process.exitcode)})", attempt))
        w.conn.close()
        pool[i] = _start(ctx)

    try:
        while todo or any(w.task for w in pool):
            for i, w in enumerate(pool):
                if w.task is None and todo:
                    task, attempt = todo.popleft()
                    try:
                        w.conn.send(task)
                    except OSError:  # it died while waiting for work
                        replace(i, task, attempt)
                    else:
                        w.task, w.attempt = task, attempt
            busy = [w for w in pool if w.task is not None]
            if not busy:  # the tasks given out met dead workers: give them out again
                continue
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for i, w in enumerate(pool):
                if w.task is None or not ready & {w.conn, w.process.sentinel}:
                    continue
                task, attempt, answer = w.task, w.attempt, _answer(w)
                w.task = None
                if answer is not None:
                    kind, error = answer
                    on_done(Outcome(task, read_result(task) if kind == "ok" else None, error, attempt))
                else:
                    replace(i, task, attempt)
    except BaseException:
        _stop(pool, now=True)
        raise
    _stop(pool, now=False)
