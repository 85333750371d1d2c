"""Two runs side by side: where they part, and how their outcomes differ.

For a run and its fork, or two independent runs of the same town: the first tick whose frame
or events differ (STATUS events, which say how a process ran rather than what happened, are
left out); each probe's diffusion curve (personas whose memory leads to the probe by
provenance, :func:`town.analysis.provenance.knowledge`, by game hour); the relationship network density at
the evaluation's sample moments (start, every 12 game hours, end: :func:`town.analysis.evaluate.evaluate`,
which asks every persona "Do you know <name>?" about every other, through the backend given
(default the scripted one), with the retrieval settings each moment was made with (a fork's
parent's before the fork), so it costs ``N(N-1)`` interviews per moment and run); attendance of each gathering; each
persona's day plans; for the retrievals made at the same tick by the same persona for the same
purpose, the overlap of the returned memories (Jaccard over their texts, so independent runs
compare too) and the first that differs; and model cost. Each run's span is reported, so two
runs of different lengths (a fork that ends earlier) are not read past their ends: a moment
after a run's last tick shows "ended" for it, and a gathering it did not see to the end says
so. Reads both runs; writes neither.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import datetime
from typing import Any

from ..clock import hours_text
from .recorded import run_span

__all__ = ["first_divergence", "diffusion_curves", "density_curve", "retrieval_overlap", "day_plans", "compare",
           "run_identity", "config_changes", "identity_text", "changes_text",
           "divergence_text", "span_text", "span_note", "retrieval_text", "over_time_rows"]

CHUNK = 360  # ticks read at a time while looking for the first difference


def _events_by_tick(reader, start: int, end: int) -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for e in reader.events(since_tick=start, until_tick=end):
        if e.kind.value != "status":
            out[e.tick].append((e.kind.value, e.persona, json.dumps(e.data, sort_keys=True, default=str)))
    return out


def first_divergence(a, b) -> dict[str, Any] | None:
    """The first tick whose frame or (non-STATUS) events differ between runs ``a`` and ``b``.

    Returns:
        ``{"tick", "time", "what": "frame" | "events" | "length"}`` ("length": one run ends
        there and the other goes on), or None when both hold the same ticks, frames and events.
    """
    last_a, last_b = a.last_tick, b.last_tick
    if last_a is None or last_b is None:
        return None if last_a == last_b else {"tick": 0, "time": None, "what": "length"}
    last = min(last_a, last_b)
    for start in range(0, last + 1, CHUNK):
        end = min(last, start + CHUNK - 1)
        fa = {f["tick"]: f for f in a.frames(start, end)}
        fb = {f["tick"]: f for f in b.frames(start, end)}
        ea, eb = _events_by_tick(a, start, end), _events_by_tick(b, start, end)
        for tick in range(start, end + 1):
            if ea.get(tick, []) != eb.get(tick, []):
                return {"tick": tick, "time": (fa.get(tick) or fb.get(tick) or {}).get("time"), "what": "events"}
            if fa.get(tick) != fb.get(tick):
                return {"tick": tick, "time": (fa.get(tick) or fb.get(tick) or {}).get("time"), "what": "frame"}
    if last_a != last_b:
        return {"tick": last + 1, "time": None, "what": "length"}
    return None


def diffusion_curves(reader, probes) -> dict[str, list[int]]:
    """Probe name -> personas knowing it (by provenance) at the end of each game hour, hour 0 first."""
    from .provenance import knowledge

    spt = int(reader.meta.get("seconds_per_tick", 10))
    per_hour = max(1, 3600 // spt)
    hours = ((reader.last_tick or 0) + 1) // per_hour
    out = {}
    for p in probes:
        onsets = knowledge(reader, p.name)
        out[p.name] = [sum(o.tick < h * per_hour or (h == 0 and o.tick == 0) for o in onsets.values())
                       for h in range(hours + 1)]
    return out


def density_curve(reader, scenario, *, backend=None, embedder=None) -> dict[str, list]:
    """Relationship network density by interview at the evaluation's sample moments.

    Args:
        reader: the run.
        scenario: its town (the network question).
        backend: answers (default: the scripted backend).
        embedder: embeds the questions (default: the run's own).

    Returns:
        ``{"hours": [game hours since start], "density": [2|E| / (N(N-1))], "edges": [|E|]}``, one
        entry per moment of :func:`town.analysis.moments.moments` (the start, every 12 game hours, the end).
    """
    from .evaluate import evaluate

    series = evaluate(reader, scenario=scenario, probes=(), backend=backend, embedder=embedder)["density"]["series"]
    return {"hours": [p["hour"] for p in series], "density": [p["share"] for p in series],
            "edges": [p["count"] for p in series]}


def day_plans(reader) -> dict[str, dict[str, list[str]]]:
    """Persona -> date -> the day plan's blocks as "HH:MM-HH:MM description @ place" (the last plan of the day)."""
    out: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for e in reader.events(["plan"]):
        if e.data.get("level") != "day":
            continue
        out[e.persona][e.data["date"]] = [f"{i['start'][11:16]}-{i['end'][11:16]} {i['description']} @ {i['place']}"
                                          for i in e.data["items"]]
    return dict(out)


def _retrievals(reader) -> dict[tuple, dict[str, Any]]:
    contents = {pid: {m["id"]: m["content"] for m in reader.memories(pid)} for pid in reader.personas()}
    seen: dict[tuple, int] = defaultdict(int)
    out = {}
    for e in reader.events(["retrieval"]):
        d = e.data
        base = (e.tick, e.persona, d["purpose"])
        key = (*base, seen[base])
        seen[base] += 1
        out[key] = {"seq": e.seq, "query": d["query"],
                    "returned": [contents[e.persona].get(i, f"#{i}") for i in d["returned"]]}
    return out


def retrieval_overlap(a, b) -> dict[str, Any]:
    """Overlap of the top k of retrievals at the same (tick, persona, purpose, n-th that tick).

    Returns:
        ``{"matched", "mean_jaccard", "identical", "first_differing": row | None, "differing":
        [row, ... up to 50]}``; a row is ``{"tick", "persona", "purpose", "a_seq", "b_seq",
        "jaccard", "only_a", "only_b", "differs"}`` (memory texts); ``differs`` is ``"order"``
        when both returned the same memory texts, ranked differently (Jaccard 1), else
        ``"memories"``.
    """
    ra, rb = _retrievals(a), _retrievals(b)
    rows, total, identical = [], 0.0, 0
    keys = sorted(set(ra) & set(rb))
    for key in keys:
        x, y = set(ra[key]["returned"]), set(rb[key]["returned"])
        jac = len(x & y) / len(x | y) if x | y else 1.0
        total += jac
        if ra[key]["returned"] == rb[key]["returned"]:
            identical += 1
            continue
        same = Counter(ra[key]["returned"]) == Counter(rb[key]["returned"])
        rows.append({"tick": key[0], "persona": key[1], "purpose": key[2], "a_seq": ra[key]["seq"],
                     "b_seq": rb[key]["seq"], "query": ra[key]["query"], "jaccard": round(jac, 4),
                     "only_a": sorted(x - y), "only_b": sorted(y - x), "differs": "order" if same else "memories"})
    return {"matched": len(keys), "mean_jaccard": total / len(keys) if keys else None, "identical": identical,
            "first_differing": rows[0] if rows else None, "differing": rows[:50]}


def run_identity(reader) -> dict[str, Any]:
    """What names a run beside another: its file, its condition, its seed, the run it was forked
    from, and its retrieval weights.

    Returns:
        ``{"name", "file", "ablate", "condition", "seed", "parent": {"run", "tick", "time"} | None,
        "weights"}``; ``condition`` is "full architecture" or "no reflection, no planning" (the
        parts switched off, as the study names its conditions).
    """
    s = reader.summary()
    ablate = s["ablate"] or ""
    parent = s["parent"] if isinstance(s["parent"], dict) else None
    return {"name": s["name"], "file": str(reader.path), "ablate": ablate,
            "condition": ", ".join(f"no {part}" for part in ablate.split(",") if part) or "full architecture",
            "seed": s["seed"], "parent": parent,
            "weights": (reader.meta.get("config") or {}).get("retrieval", {}).get("weights")}


def config_changes(a, b) -> list[dict[str, Any]]:
    """The configuration keys whose values differ between runs ``a`` and ``b`` (each run's stored
    configuration, flattened to dotted keys): ``[{"key", "a", "b"}]`` by key; a key one run lacks
    has None there."""
    from .recorded import flatten

    ca, cb = (flatten(r.meta.get("config") or {}) for r in (a, b))
    return [{"key": key, "a": ca.get(key), "b": cb.get(key)} for key in sorted(set(ca) | set(cb))
            if ca.get(key) != cb.get(key)]


def compare(a, b, *, scenario=None, backend=None, embedder=None) -> dict[str, Any]:
    """Everything :mod:`town.analysis.compare` measures, for readers ``a`` and ``b``.

    Args:
        a: a :class:`town.recording.RunReader`.
        b: another, of the same town.
        scenario: the town (default: loaded from run ``a``'s meta; none when that folder no
            longer loads, so no probes), for probes and gatherings.
        backend: answers the density interviews (default: the scripted backend).
        embedder: embeds their questions (default: each run's own).

    Returns:
        ``{"a", "b": run_identity(...), "changed": config_changes(a, b), "span": {"a", "b": run_span(...)},
        "first_divergence", "diffusion": {probe: {"a": [...], "b": [...]}}, "density": {"a",
        "b": density_curve(...)}, "attendance": {probe: {"a", "b": attendance(...) and
        "seen": "all" | "part" | "none", how much of the gathering the run covers}}, "plans":
        {persona: {date: {"a": [...], "b": [...]}}}, "retrievals", "cost": {"a", "b"}}``.
    """
    from .attendance import attendance
    from .evaluate import run_scenario
    from .stats import cost

    scenario = run_scenario(a, scenario)  # None when A's town folder is gone: no probes, as evaluate
    probes = tuple(scenario.probes) if scenario is not None else ()

    da, db = diffusion_curves(a, probes), diffusion_curves(b, probes)
    spans = {"a": run_span(a), "b": run_span(b)}
    gathering: dict[str, dict[str, Any]] = {}
    for p in probes:
        g = p.gathering
        if g is None:
            continue
        gathering[p.name] = {}
        for side, r in (("a", a), ("b", b)):
            end = datetime.fromisoformat(spans[side]["end"])
            seen = "all" if end >= g.end else "part" if end > g.start else "none"
            gathering[p.name][side] = {**attendance(r, p.name, place=g.place, start=g.start, end=g.end,
                                                    host=g.host), "seen": seen}
    pa, pb = day_plans(a), day_plans(b)
    plans = {pid: {d: {"a": pa.get(pid, {}).get(d, []), "b": pb.get(pid, {}).get(d, [])}
                   for d in sorted(set(pa.get(pid, {})) | set(pb.get(pid, {})))}
             for pid in sorted(set(pa) | set(pb))}
    ca, cb = cost(a), cost(b)
    return {"a": run_identity(a), "b": run_identity(b), "changed": config_changes(a, b),
            "start": a.meta["start"], "span": spans,
            "seconds_per_tick": int(a.meta.get("seconds_per_tick", 10)),
            "first_divergence": first_divergence(a, b),
            "diffusion": {n: {"a": da[n], "b": db[n]} for n in da},
            "density": {side: density_curve(r, scenario, backend=backend, embedder=embedder)
                        for side, r in (("a", a), ("b", b))},
            "attendance": gathering, "plans": plans, "retrievals": retrieval_overlap(a, b),
            "cost": {"a": ca["total"], "b": cb["total"]}}


def identity_text(who: dict[str, Any]) -> str:
    """A run in words: "full architecture, seed 0, fork of party after its tick 9359 (2023-02-14 08:59:50)"."""
    parent = who["parent"]
    fork = "" if parent is None else (f", fork of {parent.get('run')} after its tick {parent.get('tick')} "
                                      f"({str(parent.get('time', ''))[:19]})")
    return f"{who['condition']}, seed {who['seed']}{fork}"


def changes_text(report: dict[str, Any]) -> list[str]:
    """The configuration that differs, one line a key: "retrieval.weights: A [1.0, 1.0, 1.0], B [0.0, 0.0, 1.0]"."""
    return [f"{c['key']}: A {c['a']}, B {c['b']}" for c in report["changed"]]


def divergence_text(report: dict[str, Any]) -> str:
    """"tick N (YYYY-MM-DD HH:MM:SS, events)", or "never", for a report's first divergence."""
    d = report["first_divergence"]
    if d is None:
        return "never"
    return f"tick {d['tick']} ({d['time'] + ', ' if d['time'] else ''}{d['what']})"


def span_text(span: dict[str, Any]) -> str:
    """A run's span in words: "2023-02-13 07:00 -> 2023-02-13 15:00 (8 game hours)"."""
    return f"{span['start'][:16]} -> {span['end'][:16]} ({hours_text(span['hours'])})"


def span_note(report: dict[str, Any]) -> str | None:
    """When the runs cover different spans: which ends first, and how its later values show."""
    spans = report["span"]
    ha, hb = spans["a"]["hours"], spans["b"]["hours"]
    if ha == hb:
        return None
    short, long_ = ("a", "b") if ha < hb else ("b", "a")
    return (f"{short.upper()} ends {hours_text(abs(ha - hb))} before {long_.upper()}: its values after game hour "
            f"{round(spans[short]['hours'], 2):g} are shown as 'ended', and a gathering after its end was not seen")


def retrieval_text(row: dict[str, Any]) -> str:
    """What differs in a differing retrieval row, in words (the order, or which memories)."""
    where = (f"tick {row['tick']} {row['persona']} ({row['purpose']}), A seq {row['a_seq']} vs "
             f"B seq {row['b_seq']}")
    if row["differs"] == "order":
        return f"{where}: the same memories, ranked in another order"
    return (f"{where}: other memories (Jaccard {row['jaccard']:.2f} over their texts; "
            f"{len(row['only_a'])} only in A, {len(row['only_b'])} only in B)")


def over_time_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Density and diffusion at both runs' sample moments, A beside B, for printing.

    Returns:
        (column names, rows): game hour, density A, density B, then per probe the personas
        knowing it (by provenance) at that hour in A and B. A moment between whole hours takes
        the diffusion of the hour before it; a moment after a run's end shows "ended" for
        it, and a density moment of one run only shows "-" for the other.
    """
    names = list(report["diffusion"])
    header = ["game hour", "density A", "density B", *(f"{n}: A / B" for n in names)]
    dens, ends = report["density"], {s: report["span"][s]["hours"] for s in "ab"}
    rows = []
    for hour in sorted(set(dens["a"]["hours"]) | set(dens["b"]["hours"])):
        cells = [f"{hour:g}"]
        for s in "ab":
            d = dens[s]
            cells.append("ended" if hour > ends[s] else f"{d['density'][d['hours'].index(hour)]:.3f}"
                         if hour in d["hours"] else "-")
        for n in names:
            c = report["diffusion"][n]
            cells.append(" / ".join("ended" if hour > ends[s] else str(c[s][min(int(hour), len(c[s]) - 1)])
                                    if c[s] else "0" for s in "ab"))
        rows.append(cells)
    return header, rows
