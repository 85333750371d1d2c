"""Model-call accounting of a recorded run (`python run.py stats RUN`).

Reads the run's MODEL_CALL events (one per HTTP attempt, per fallback and per cache hit; see
:class:`town.thinking.wrappers.CallRecorder`) and counts requests and tokens per persona per game
hour and per template, with the retry and fallback rates.

Definitions: a *question* is resolved once, by a first attempt (``attempt == 1``) or by a cache
hit; the *retry rate* is the share of requests that were retries (``attempt > 1``); the
*fallback rate* is the share of questions answered by the scripted fallback. An *answer* is a
request the server replied to; the share each answer check rejects (:func:`rejected`) is of a
template's answers, by the check each rejected one names. :func:`cost` is the evaluation's cost
measure (Park et al. 2023 §7), counted the same way per persona per game hour.

A tick's events are written with the tick, so a run stopped inside its first tick holds no
model call: :func:`print_stats` then says so, with the model's STATUS events the run kept (a
stall, the stop and why) and the server's speed measured at start (meta ``model_server``).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..events import EventKind

__all__ = ["blank_row", "tally", "rejected", "compute_stats", "print_stats", "cost"]

#: An answer's outcomes: the server replied (the answer passed its checks, or one rejected it).
ANSWERED = ("ok", "invalid", "bad_json")


def blank_row() -> dict[str, float]:
    """A row of zero counts (the keys :func:`tally` adds to)."""
    return {
        "questions": 0,
        "requests": 0,
        "failed": 0,
        "retries": 0,
        "fallbacks": 0,
        "cache_hits": 0,
        "tokens_in": 0,
        "tokens_out": 0,
        "latency_ms": 0.0,
        "estimated": 0,
        "estimated_in": 0,
        "estimated_out": 0,
    }


def tally(row: dict[str, float], d: dict[str, Any]) -> None:
    """Add one MODEL_CALL event's data ``d`` to ``row`` (a :func:`blank_row`).

    Only an HTTP attempt (``request`` true) is a request and carries tokens and latency; a
    fallback or cache-hit marker event counts as a fallback or a cache hit, never a request.
    """
    if d.get("request"):
        row["requests"] += 1
        row["failed"] += d["outcome"] != "ok"
        row["retries"] += int(d.get("attempt", 1)) > 1
        row["questions"] += int(d.get("attempt", 1)) == 1
        row["tokens_in"] += int(d.get("tokens_in", 0))
        row["tokens_out"] += int(d.get("tokens_out", 0))
        row["latency_ms"] += float(d.get("latency_ms", 0.0))
        if d.get("estimated"):  # their tokens are estimates, not the server's count
            row["estimated"] += 1
            row["estimated_in"] += int(d.get("tokens_in", 0))
            row["estimated_out"] += int(d.get("tokens_out", 0))
    if d.get("cache_hit"):
        row["cache_hits"] += 1
        row["questions"] += 1
    row["fallbacks"] += d["outcome"] == "fallback"


def rejected(d: dict[str, Any]) -> str | None:
    """The check a MODEL_CALL event's answer was rejected by, or None (no answer, or accepted).

    ``check`` is the answer check's name ("schema": the answer model); an unparsable reply is
    "unparsable"; an answer rejected for its size or text, "reply"; a run recorded before
    rejections named their check, "(not recorded)".
    """
    if d["outcome"] == "bad_json":
        return "unparsable"
    if d["outcome"] != "invalid":
        return None
    return d.get("check") or ("reply" if "check" in d else "(not recorded)")


def compute_stats(run: str | Path) -> dict[str, Any]:
    """Accounting of a run's model calls.

    Returns:
        ``{"ablate": the parts switched off ("" = none), "by_persona_hour": {(persona,
        "YYYY-MM-DD HH:00"): row}, "by_template": {template: row},
        "by_day_template": {(game day, template): row}, "procedures_by_day": {(game day, op):
        count}, "conversations": {how written: conversations ended so: "whole", "cut: <check>" (a
        whole one cut at its first rejected line) or "line by line"}, "total": row, "retry_rate": float, "fallback_rate": float, "importance":
        {"backend": name (and schema dialect), "counts": {1..10: memories so rated}, "calibration":
        meta ``importance_calibration`` (what the run did with a model's ratings) or None},
        "rejections": {template: {"answers": n, "checks": {check: answers it rejected}}},
        "backend": the run's backend name, "model": {"name", "base_url"} (a model backend's),
        "model_server": meta ``model_server`` (speeds measured at start) or None, "last_tick":
        int or None, "status": [(game time, state, reason)] of the run's STATUS events}`` where a
        row counts questions, requests, failed (requests), retries, fallbacks, cache_hits,
        tokens_in, tokens_out, latency_ms (sum over requests, wall milliseconds), estimated
        (requests whose tokens are an estimate: the server did not count them, e.g. a timeout)
        and estimated_in, estimated_out (the part of tokens_in, tokens_out that is estimated).

    Raises:
        RecordingError: when the run file is missing or damaged.
    """
    from ..recording import RunReader

    by_hour: dict[tuple[str, str], dict] = defaultdict(blank_row)
    by_template: dict[str, dict] = defaultdict(blank_row)
    by_day: dict[tuple[str, str], dict] = defaultdict(blank_row)
    procedures: dict[tuple[str, str], int] = defaultdict(int)
    ratings = dict.fromkeys(range(1, 11), 0)
    rejections: dict[str, dict[str, Any]] = defaultdict(lambda: {"answers": 0, "checks": defaultdict(int)})
    total = blank_row()
    with RunReader(run) as reader:
        name = backend = str(reader.meta.get("backend", "?"))
        recorded = (reader.meta.get("config") or {}).get("backend", {})
        structured = recorded.get("structured")
        if backend != "scripted" and structured:
            backend = f"{backend} ({structured})"
        status = [(e.time, e.data.get("state"), e.data.get("reason", ""))
                  for e in reader.events(kinds=[EventKind.STATUS])]
        last_tick = reader.last_tick
        measured = reader.meta.get("model_server")
        calibration = reader.meta.get("importance_calibration")
        for e in reader.events(kinds=[EventKind.MEMORY]):
            ratings[int(e.data["importance"])] += 1
        for e in reader.events(kinds=[EventKind.MODEL_CALL]):
            hour = e.time.strftime("%Y-%m-%d %H:00")
            day = e.time.strftime("%Y-%m-%d")
            for row in (by_hour[(e.persona or "-", hour)], by_template[e.data["template"]],
                        by_day[(day, e.data["template"])], total):
                tally(row, e.data)
            if e.data.get("request") and e.data["outcome"] in ANSWERED:
                counts = rejections[e.data["template"]]
                counts["answers"] += 1
                check = rejected(e.data)
                if check is not None:
                    counts["checks"][check] += 1
        for e in reader.events(kinds=[EventKind.PROCEDURE]):
            procedures[(e.time.strftime("%Y-%m-%d"), e.data["op"])] += 1
        talks: dict[str, int] = defaultdict(int)
        for e in reader.events(kinds=[EventKind.CONVERSATION]):
            talks[e.data.get("written", "line by line")] += 1
        ablate = reader.summary()["ablate"]
    return {
        "ablate": ablate,
        "by_persona_hour": dict(sorted(by_hour.items())),
        "by_template": dict(sorted(by_template.items())),
        "by_day_template": dict(sorted(by_day.items())),
        "procedures_by_day": dict(sorted(procedures.items())),
        "conversations": dict(sorted(talks.items())),
        "total": total,
        "retry_rate": total["retries"] / total["requests"] if total["requests"] else 0.0,
        "fallback_rate": total["fallbacks"] / total["questions"] if total["questions"] else 0.0,
        "importance": {"backend": backend, "counts": ratings, "calibration": calibration},
        "rejections": {t: {"answers": r["answers"], "checks": dict(sorted(r["checks"].items()))}
                       for t, r in sorted(rejections.items())},
        "backend": name,
        "model": {"name": recorded.get("model"), "base_url": recorded.get("base_url")},
        "model_server": measured,
        "last_tick": last_tick,
        "status": status,
    }


def print_stats(run: str | Path) -> None:
    """Print :func:`compute_stats` as tables (rich)."""
    from rich.console import Console
    from rich.table import Table

    s = compute_stats(run)
    console = Console(width=None if sys.stdout.isatty() else 140)
    if s["ablate"]:
        console.print(f"{run}: ablated (switched off): {s['ablate']}")
    if s["model_server"]:
        from ..thinking.speed import describe

        console.print(f"{run}: at its start, {describe(s['model_server'])}", highlight=False)
    if s["importance"]["calibration"]:
        from ..thinking.calibration import Calibration

        console.print(f"{run}: {Calibration.from_meta(s['importance']['calibration']).line()}", highlight=False)
    if not s["total"]["questions"]:
        if s["backend"] == "scripted":
            console.print(f"{run}: no model calls: this run's thinking backend (the scripted "
                          "default) answers without a language model")
        else:
            _print_no_calls(console, run, s)
        return
    cols = (
        "questions",
        "requests",
        "failed",
        "retries",
        "fallbacks",
        "cache_hits",
        "tokens_in",
        "tokens_out",
    )

    def table(title: str, first: tuple[str, ...], rows) -> Table:
        t = Table(title=title, title_justify="left")
        for c in first + cols + ("ms/request",):
            t.add_column(c, justify="left" if c in first else "right")
        for key, row in rows:
            key = key if isinstance(key, tuple) else (key,)
            ms = row["latency_ms"] / row["requests"] if row["requests"] else 0.0
            t.add_row(*key, *(_count(row, c) for c in cols), f"{ms:.0f}")
        return t

    console.print(
        table(
            f"{run}: model calls per persona per game hour",
            ("persona", "game hour"),
            s["by_persona_hour"].items(),
        )
    )
    console.print(table("per template", ("template",), s["by_template"].items()))
    console.print(table("per game day and template (decompose_task falls as procedures are reused)",
                        ("game day", "template"), s["by_day_template"].items()))
    if s["procedures_by_day"]:
        t = Table(title="procedure events per game day", title_justify="left")
        for c in ("game day", "op", "events"):
            t.add_column(c)
        for (day, op), n in s["procedures_by_day"].items():
            t.add_row(day, op, str(n))
        console.print(t)
    console.print(table("total", ("",), [("all", s["total"])]))
    if any(r["checks"] for r in s["rejections"].values()):
        t = Table(title="answers rejected, per template and check (share of the template's answers)",
                  title_justify="left")
        for c in ("template", "answers", "check", "rejected", "share"):
            t.add_column(c, justify="left" if c in ("template", "check") else "right")
        for template, r in s["rejections"].items():
            for check, n in r["checks"].items():
                t.add_row(template, str(r["answers"]), check, str(n), f"{n / r['answers']:.0%}")
        console.print(t)
    if s["conversations"]:
        whole = s["by_template"].get("write_conversation")
        fell = f"; {whole['fallbacks'] / whole['questions']:.0%} of the whole exchanges asked (declined " \
            "sightings included) fell back to the scripted one" \
            if whole and whole["questions"] else ""
        console.print("conversations: " + ", ".join(f"{n} {how}" for how, n in s["conversations"].items()) + fell)
    console.print(
        f"retry rate {s['retry_rate']:.1%} of requests; "
        f"fallback rate {s['fallback_rate']:.1%} of questions"
    )
    total = s["total"]
    if total["estimated"]:
        console.print(f"{int(total['estimated'])} requests got no token count from the server "
                      "(timeouts, dropped connections): their tokens, shown as ~N, are estimates "
                      f"(~{int(total['estimated_in'])} in, ~{int(total['estimated_out'])} out: characters / 4, "
                      "or the output budget); the rest are the server's own counts (usage)")
    else:
        console.print("tokens: the server's own counts (usage) for every request")
    counts = s["importance"]["counts"]
    n = sum(counts.values())
    if n:
        mean = sum(k * v for k, v in counts.items()) / n
        t = Table(title=f"importance ratings of the run's memories, backend {s['importance']['backend']} "
                        f"(mean {mean:.1f})", title_justify="left")
        for k in counts:
            t.add_column(str(k), justify="right")
        t.add_row(*(str(v) for v in counts.values()))
        console.print(t)


def _print_no_calls(console, run: str | Path, s: dict[str, Any]) -> None:
    """What a model run without a recorded model call holds: why, and what the model did."""
    model = s["model"]
    at = f" at {model['base_url']}" if model.get("base_url") else ""
    who = f"backend {s['backend']} (model {model.get('name')}{at})"
    if s["last_tick"] is None:
        console.print(f"{run}: {who}, but no tick was recorded: the run stopped inside its first tick, and "
                      "a tick's model calls are written with the tick", highlight=False)
    else:
        console.print(f"{run}: {who}: no model calls in ticks 0..{s['last_tick']}", highlight=False)
    seen = [(time, state, reason) for time, state, reason in s["status"] if state not in ("running", "finished")]
    if not seen:
        console.print("the run recorded no failure of the model server", highlight=False)
    for time, state, reason in seen:
        console.print(f"  {time:%Y-%m-%d %H:%M:%S} {state}: {reason}", highlight=False)


def _count(row: dict[str, float], column: str) -> str:
    """A table cell: the count, and for tokens the estimated part of it as "(~N)"."""
    cell = str(int(row[column]))
    part = row.get(column.replace("tokens", "estimated"), 0) if column.startswith("tokens") else 0
    return f"{cell} (~{int(part)})" if part else cell


def cost(reader) -> dict[str, Any]:
    """Model requests and tokens per persona, in total and per game hour (from MODEL_CALL events).

    Counted as ``town stats`` counts them (:func:`tally`): only an HTTP attempt is a request and
    carries tokens; a fallback or cache-hit marker event is not a request. A scripted
    run has no MODEL_CALL events, so every figure is zero. Calls without a persona are counted
    under ``"(town)"``.

    Returns:
        ``{"hours": game hours recorded, "personas": {pid: row}, "total": row}`` where a row is a
        :func:`blank_row` (questions, requests, failed, retries, fallbacks,
        cache_hits, tokens_in, tokens_out, latency_ms) plus ``requests_per_hour`` and
        ``tokens_per_hour``.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    last = reader.last_tick
    hours = 0.0 if last is None else (last + 1) * spt / 3600
    rows: dict[str, dict[str, float]] = {p: blank_row() for p in reader.personas()}
    total = blank_row()
    for e in reader.events(kinds=[EventKind.MODEL_CALL]):
        tally(rows.setdefault(e.persona or "(town)", blank_row()), e.data)
        tally(total, e.data)

    def rates(row: dict[str, float]) -> dict[str, float]:
        tokens = row["tokens_in"] + row["tokens_out"]
        return {**row, "requests_per_hour": row["requests"] / hours if hours else 0.0,
                "tokens_per_hour": tokens / hours if hours else 0.0}

    return {"hours": hours, "personas": {p: rates(r) for p, r in rows.items()}, "total": rates(total)}
