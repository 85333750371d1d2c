"""Events in general: does news of any event, told in any words, reach people and draw them?

Run: ``.venv/bin/python benchmarks/events.py [--quick] [--workers 2] [--out DIR]``
or ``.venv/bin/python benchmarks/events.py --memory-stats RUN.sqlite [RUN2.sqlite ...]``

The events are data: ``benchmarks/events.yaml`` (the first set, 40 events of 10 kinds) and
``benchmarks/events_second.yaml`` (15 more, written after the first; its own row). Each event has
a host (a Smallville persona), a place, a day and a time, and three phrasings: the host's own
announcement, a report of it, and an invitation put as a question.

A batch is one group of a set (events that share no time and no host) in one phrasing: a copy
of the Smallville folder whose ``events.yaml`` also whispers each event's sentence to its host
at the set's ``whisper_at``, with the event's name as the whisper's ``probe`` key (and a probe of
that name with its gathering, so the key is valid). Probes never reach a mind. The batch runs
``python run.py simulate --town COPY --hours 34 --quiet`` (scripted backend), batches in
parallel processes (``--workers``). A sample of events (one of each kind, phrasings in turn) is
also run in a town of 100 (``run.py generate --personas 100 --seed 1``), each event given a
resident as host and a place of the same kind. The seeded Valentine's party is the reference row:
measured in a plain Smallville run of 36 game hours (the party is 17:00-19:00 of the second day,
after a 34-hour batch ends), which is also the run of ``--memory-stats``.

What is measured: ``benchmarks/event_measures.py``. Output: a Markdown table by set, kind and
phrasing (stdout and ``OUT/events.md``) and every event's measures (``OUT/events.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from event_measures import Gathering, aggregate, at, day_plans, measure_event, memory_stats  # noqa: E402

SETS = {"first": HERE / "events.yaml", "second": HERE / "events_second.yaml"}
PHRASINGS = ("first", "third", "question")
FIELDS = {"name", "kind", "host", "place", "start", "end", "working_hours", "group", "texts"}


def load_set(path: Path) -> dict:
    """An event set file, checked: raises ValueError naming the file and field that is wrong."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    names = set()
    for i, ev in enumerate(doc.get("events") or ()):
        where = f"{path.name}: events[{i}]"
        if set(ev) != FIELDS:
            raise ValueError(f"{where}: fields {sorted(set(ev) ^ FIELDS)} missing or unknown")
        if not re.fullmatch(r"[a-z0-9_]+", ev["name"]) or ev["name"] in names:
            raise ValueError(f"{where}.name: not [a-z0-9_]+ or not unique: {ev['name']!r}")
        if set(ev["texts"]) != set(PHRASINGS):
            raise ValueError(f"{where}.texts: needs exactly {', '.join(PHRASINGS)}")
        if at(ev["end"]) <= at(ev["start"]):
            raise ValueError(f"{where}.end: not after start")
        names.add(ev["name"])
    return doc


def batches(doc: dict, phrasings=PHRASINGS, groups=None) -> list[dict]:
    """One batch per (group, phrasing): ``{"id", "set", "whisper_at", "hours", "events"}``."""
    out = []
    for g in sorted({e["group"] for e in doc["events"]}):
        if groups and g not in groups:
            continue
        for ph in phrasings:
            evs = [e for e in doc["events"] if e["group"] == g]
            out.append({"id": f"{doc['set']}-g{g}-{ph}", "set": doc["set"], "whisper_at": doc["whisper_at"],
                        "hours": doc["hours"], "town": str(ROOT / "personas" / doc["town"]),
                        "events": [{**e, "phrasing": ph, "text": e["texts"][ph], "set": doc["set"]} for e in evs]})
    return out


def write_town(batch: dict, folder: Path) -> None:
    """A copy of the batch's town whose events and probes add each event's whisper and probe."""
    shutil.copytree(batch["town"], folder)
    events = yaml.safe_load((folder / "events.yaml").read_text()) if (folder / "events.yaml").exists() else {}
    probes = yaml.safe_load((folder / "probes.yaml").read_text()) if (folder / "probes.yaml").exists() else {}
    events.setdefault("events", [])
    probes.setdefault("probes", [])
    for e in batch["events"]:
        events["events"].append({"at": batch["whisper_at"], "type": "whisper", "persona": e["host"],
                                 "text": e["text"], "probe": e["name"]})
        probes["probes"].append({"name": e["name"], "question": f"Did you hear about a {e['kind']}?",
                                 "facts": [re.escape(e["kind"])],
                                 "gathering": {"place": e["place"], "start": e["start"], "end": e["end"],
                                               "host": e["host"]}})
    (folder / "events.yaml").write_text(yaml.safe_dump(events, sort_keys=False, allow_unicode=True))
    (folder / "probes.yaml").write_text(yaml.safe_dump(probes, sort_keys=False, allow_unicode=True))


def simulate(town: str, hours: float, run: Path) -> tuple[float, float]:
    """``run.py simulate`` in a fresh process; returns its (wall, CPU) seconds (exits on failure).

    CPU is user + system of that process alone (``os.wait4``): on a shared machine it is close to
    what the wall time would be on a quiet one (the simulation runs on about one core)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, str(ROOT / "run.py"), "simulate", "--town", town, "--hours",
                                 str(hours), "--out", str(run), "--quiet"], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"events benchmark: simulating {town} failed:\n{err.read()[-2000:]}")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def measure_run(run: Path, evs: list[dict]) -> list[dict]:
    """Every event's measures in one run file."""
    from town.recording import RunReader
    from town.analysis.provenance import load_memories
    with RunReader(run) as reader:
        memories, plans = load_memories(reader), day_plans(reader)
        return [measure_event(reader, Gathering({**e, "start": at(e["start"]), "end": at(e["end"])}),
                              memories=memories, plans=plans) for e in evs]


def run_batch(batch: dict, work: Path) -> dict:
    """Build, simulate and measure one batch: ``{"id", "wall_s", "rows"}``, kept in ``WORK/<id>.json``
    (a batch whose file is there is not run again: an interrupted benchmark goes on where it was)."""
    kept = work / f"{batch['id']}.json"
    if kept.exists():
        return json.loads(kept.read_text())
    folder = work / batch["id"]
    write_town(batch, folder)
    wall, cpu = simulate(str(folder), batch["hours"], work / f"{batch['id']}.sqlite")
    rows = measure_run(work / f"{batch['id']}.sqlite", batch["events"])
    for r, e in zip(rows, batch["events"]):
        r["working_hours"] = e["working_hours"]
    print(f"  {batch['id']}: {len(rows)} events, {wall:.0f} s ({cpu:.0f} s of CPU)", file=sys.stderr, flush=True)
    done = {"id": batch["id"], "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "load": round(os.getloadavg()[0], 1), "rows": rows}
    kept.write_text(json.dumps(done, default=str))
    shutil.rmtree(folder)
    return done


def reference(run: Path | None, work: Path) -> tuple[list[dict], dict, float]:
    """The party's measures (and the run's memory stats) in a plain Smallville run of 36 h."""
    from town.recording import RunReader
    wall = 0.0
    if run is None:
        run = work / "smallville-36h.sqlite"
        wall = simulate("smallville", 36, run)[0]
    probe = next(p for p in yaml.safe_load((ROOT / "personas/smallville/probes.yaml").read_text())["probes"]
                 if p["name"] == "party")
    g = probe["gathering"]
    ev = {"name": "party", "kind": "party", "host": g["host"], "place": g["place"], "start": g["start"],
          "end": g["end"], "phrasing": "seeded", "set": "reference"}
    rows = measure_run(run, [ev])
    with RunReader(run) as reader:
        return rows, memory_stats(reader), wall


def table(rows: list[dict], ref: list[dict]) -> str:
    """The Markdown table: all, by set, kind, phrasing and working hours, then the reference."""
    head = ("| rows | events | host planned (for it) | host there | heard by ≥3 | planned and came ≥1 "
            "| heard by (mean) | planned by | attended by | declined with a reason |\n" + "|---" * 10 + "|")

    def line(label: str, rs: list[dict]) -> str:
        a = aggregate(rs)
        return (f"| {label} | {a['events']} | {a['host_planned']:.0%} ({a['host_planned_for_it']:.0%}) "
                f"| {a['host_attended']:.0%} | {a['heard3']:.0%} "
                f"| {a['came1']:.0%} | {a['heard']:.1f} | {a['planned']:.1f} | {a['attended']:.1f} "
                f"| {a['declined']:.1f} |")

    out = [head]
    for s in dict.fromkeys(r["set"] for r in rows):
        out.append(line(f"**set {s}**", [r for r in rows if r["set"] == s]))
    for key in ("kind", "phrasing"):
        for v in sorted({r[key] for r in rows if r["set"] == "first"}):
            out.append(line(f"{key}: {v}", [r for r in rows if r["set"] == "first" and r[key] == v]))
    for flag, label in ((True, "in the host's working hours"), (False, "outside them")):
        out.append(line(label, [r for r in rows if r["set"] == "first" and r.get("working_hours") is flag]))
    out += [line("reference: the seeded party (36 h)", ref)] if ref else []
    return "\n".join(out)


#: The kind of generated sector standing in for each Smallville sector ("home": the host's home).
SECTOR_KIND = {"Johnson Park": "park", "Oak Hill College": "school", "Dorm for Oak Hill College": "school",
               "Town Hall": "work", "Artist's co-living space": "home"}


def generated_batches(doc: dict, n: int, work: Path, personas: int = 100) -> list[dict]:
    """A sample of ``n`` events of ``doc`` (one of each kind in turn, phrasings in turn) moved to
    a town of ``personas`` generated with seed 1: each gets a resident as host (every k-th by id)
    and a sector of the same kind as its Smallville place; its words name them instead. Events
    are packed into batches with no time and no host shared."""
    town = work / f"gen{personas}"
    if not town.exists():
        subprocess.run([sys.executable, str(ROOT / "run.py"), "generate", "--personas", str(personas), "--seed", "1",
                        "--out", str(town)], check=True, capture_output=True)
    world = yaml.safe_load((town / "map.yaml").read_text())
    sectors: dict[str, list[str]] = {}
    for s in world["sectors"]:
        sectors.setdefault(s.get("kind", "shop"), []).append(s["name"])
    files = sorted(p for p in town.glob("*.yaml") if p.stem not in ("map", "town", "events", "probes"))
    people = {p.stem: yaml.safe_load(p.read_text()) for p in files}
    ids = sorted(people)
    kinds = list(dict.fromkeys(e["kind"] for e in doc["events"]))
    by_kind = {k: [e for e in doc["events"] if e["kind"] == k] for k in kinds}
    sample = [by_kind[kinds[i % len(kinds)]][i // len(kinds)] for i in range(n)]
    out: list[dict] = []
    old_names = {p.stem: yaml.safe_load(p.read_text())["name"] for p in (ROOT / "personas" / doc["town"]).glob("*.yaml")
                 if p.stem not in ("map", "town", "events", "probes")}
    for i, e in enumerate(sample):
        host = ids[(i * len(ids)) // n]
        old_place = e["place"].split(":")[1]
        kind = SECTOR_KIND.get(old_place, "shop")
        home = people[host]["home"].split(":")[1]
        place = home if kind == "home" else sectors[kind][i % len(sectors[kind])]
        ph = PHRASINGS[i % len(PHRASINGS)]
        text = e["texts"][ph].replace(old_names[e["host"]], people[host]["name"]).replace(old_place, place)
        ev = {**e, "name": f"gen_{e['name']}", "host": host, "place": f"{world['world']}:{place}", "phrasing": ph,
              "text": text, "working_hours": None}
        slot = next((b for b in out if all(x["start"] != ev["start"] and x["host"] != host for x in b["events"])), None)
        if slot is None:
            slot = {"id": f"generated{personas}-b{len(out) + 1}", "set": f"generated {personas}",
                    "whisper_at": doc["whisper_at"], "hours": doc["hours"], "town": str(town), "events": []}
            out.append(slot)
        slot["events"].append({**ev, "set": slot["set"]})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="group 1 of the first set, all phrasings (3 batches at once)")
    ap.add_argument("--sets", default="first,second", help="event sets to run (first, second)")
    ap.add_argument("--groups", help="only these groups, e.g. 1,2")
    ap.add_argument("--phrasings", default=",".join(PHRASINGS))
    ap.add_argument("--workers", type=int, default=2, help="batches run at once (default 2)")
    ap.add_argument("--generated", type=int, default=10, metavar="N",
                    help="events also run in a generated town of 100 (default 10; 0: none)")
    ap.add_argument("--reference", metavar="RUN", help="a Smallville run of 36 h or more for the party row "
                    "(default: simulate one)")
    ap.add_argument("--no-reference", action="store_true", help="no party row")
    ap.add_argument("--out", help="folder for events.md, events.json and the runs (default: a temporary one)")
    ap.add_argument("--done-only", action="store_true", help="only the batches already measured in --out "
                    "(a table of what a longer benchmark got through)")
    ap.add_argument("--memory-stats", nargs="+", metavar="RUN", help="only print memory stats of these run files")
    args = ap.parse_args(argv)
    if args.memory_stats:
        return print_memory_stats(args.memory_stats)
    unknown = set(args.sets.split(",")) - set(SETS)
    if unknown:
        print(f"events benchmark: --sets: unknown {', '.join(sorted(unknown))}; known: {', '.join(SETS)}",
              file=sys.stderr)
        return 2
    try:
        docs = [load_set(SETS[s]) for s in args.sets.split(",")]
    except (ValueError, yaml.YAMLError) as exc:
        print(f"events benchmark: {exc}", file=sys.stderr)
        return 2
    groups = {int(g) for g in args.groups.split(",")} if args.groups else None
    if args.quick:
        docs, groups, args.generated, args.no_reference = docs[:1], {1}, 0, True
        args.workers = max(args.workers, 3)  # its three batches at once: one round
    work = Path(args.out or tempfile.mkdtemp(prefix="events-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    todo = [b for d in docs for b in batches(d, args.phrasings.split(","), groups)]
    if args.generated:
        todo = generated_batches(load_set(SETS["first"]), args.generated, work) + todo  # longest first
    if args.done_only:
        todo = [b for b in todo if (work / f"{b['id']}.json").exists()]
    t0 = time.perf_counter()
    print(f"{len(todo)} batches of up to {max(len(b['events']) for b in todo)} events, {args.workers} at once",
          file=sys.stderr)
    with ThreadPoolExecutor(args.workers) as pool:
        pending = None if args.no_reference else pool.submit(
            reference, Path(args.reference) if args.reference else None, work)
        done = list(pool.map(lambda b: run_batch(b, work), todo))
        ref, mem, ref_wall = ([], {}, 0.0) if pending is None else pending.result()
    wall = time.perf_counter() - t0
    rows = [r for b in done for r in b["rows"]]
    md = table(rows, ref)
    walls = [b["wall_s"] for b in done if b.get("wall_s")]
    cpus = [b["cpu_s"] for b in done if b.get("cpu_s")]
    md += (f"\n\n{len(todo)} batches ({sum(len(b['events']) for b in todo)} event runs), {args.workers} at once: "
           f"{wall / 60:.1f} min wall" + (f"; batch wall {min(walls):.0f}-{max(walls):.0f} s" if walls else "")
           + (f", CPU {min(cpus):.0f}-{max(cpus):.0f} s" if cpus else "")
           + f"; load average at the end {os.getloadavg()[0]:.1f}.")
    print(md)
    (work / "events.md").write_text(md + "\n")
    kept = [{k: b.get(k) for k in ("id", "wall_s", "cpu_s", "load")} for b in done]
    (work / "events.json").write_text(json.dumps({"batches": kept,
                                                  "rows": rows, "reference": ref, "memory_stats": mem,
                                                  "reference_wall_s": round(ref_wall, 1), "wall_s": round(wall, 1)},
                                                 indent=1))
    print(f"written: {work / 'events.md'}, {work / 'events.json'}", file=sys.stderr)
    return 0


def print_memory_stats(runs: list[str]) -> int:
    """Print :func:`memory_stats` of each run file as a Markdown table (one line and 2 on a bad file)."""
    from town.errors import RecordingError
    from town.recording import RunReader
    stats = {}
    for run in runs:
        try:
            with RunReader(run) as reader:
                stats[run] = memory_stats(reader)
        except RecordingError as exc:
            print(f"events benchmark: {exc}", file=sys.stderr)
            return 2
    print("| run | personas | game hours | new memories | per persona per game day | repeat a held fact |")
    print("|---|---|---|---|---|---|")
    for run, s in stats.items():
        print(f"| {Path(run).name} | {s['personas']} | {s['game_hours']} | {s['new']} | {s['per_persona_day']} "
              f"| {s['repeat_share']:.1%} ({s['repeats']}) |")
        kinds = ", ".join(f"{k} {v['repeat_share']:.0%} of {v['new']}" for k, v in s["by_kind"].items())
        print(f"|  | by kind: {kinds} | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
