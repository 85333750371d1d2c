"""Questions of everyday kinds asked of every persona of a recorded run, each answer checked against
a fact derived from the run's own records (never from the talk's wording), so the check stays
true when the talk changes.

Each persona of the run is asked every question at two set times (the first day's afternoon and
the second day's morning, both inside the run). A check passes when the answer states its fact and
cites only the persona's own memory ids. Kinds and what each check derives from the records:

- ``greeting``: a greeting fitting the hour ("Good afternoon" at 15:00), answered in kind;
- ``day``: names someone the persona heard from today (a record of today with ``tellers``), or,
  when nobody told it anything today, a plan item already past (its plan record's ``plan_items``);
- ``past``: cites a record made yesterday, or the plan of yesterday;
- ``news``: cites a record holding a heard fact (``tellers`` and ``fact``), when it holds one;
- ``trust``: names someone who told it something (``tellers``), or, when nobody has, someone;
- ``feeling``: about the person named in most of its records: names them and cites such a record;
- ``intention``: names an act of the plan item under way at the asked time (``plan_items``);
- ``hypothetical``: answers in the first person ("I'd ...", "I would ...", "I'll ..."), not
  "I don't know".

Usage: ``python -m town.analysis.asked RUN.sqlite`` prints the pass rate per kind as JSON
(``--failed``: and the failed checks); ``--sample 5 --seed 1`` prints five answers drawn with
``random.Random(1)`` instead, good and bad alike.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

__all__ = ["QUESTIONS", "Check", "ask_kinds"]

#: kind -> the questions asked of it (``{who}`` is filled with the ``feeling`` check's person,
#: ``{at}`` with the hour asked about); at least three of each kind.
QUESTIONS: dict[str, tuple[str, ...]] = {
    "greeting": ("Good morning, how are you?", "Hello! How is your day going?", "Hi there, how are you doing today?"),
    "day": ("How has your day been so far?", "What have you done today?", "How is your day going so far?"),
    "past": ("What did you do yesterday?", "Who did you see yesterday?", "What happened yesterday?"),
    "news": ("What news have you heard lately?", "Have you heard any news?", "What have you heard recently?"),
    "trust": ("Whom do you trust most?", "Who do you rely on in town?", "Who are you closest to?"),
    "feeling": ("How do you feel about {who}?", "What do you think of {who}?", "What do you know about {who}?"),
    "intention": ("What will you be doing today at {at}?", "What are you planning to do at {at} today?",
                  "What will you be doing at {at} today?"),
    "hypothetical": ("What would you do if the power went out?", "What would you do if it rained all day?",
                     "What would you do if a friend asked you for help?"),
}

_HELLO = {range(5, 12): "Good morning", range(12, 17): "Good afternoon", range(17, 24): "Good evening"}


@dataclass(frozen=True)
class Check:
    """One asked question: who, when, the kind, the answer, its cited ids, and whether it passed."""

    persona: str
    at: str
    kind: str
    question: str
    answer: str
    evidence: tuple[int, ...]
    passed: bool


def _first(name: str) -> str:
    return name.split()[0]


def _named(record: Mapping[str, Any], name: str) -> bool:
    fact = record.get("fact") or {}
    return (any(t[0] == name for t in record.get("tellers") or ()) or name in (fact.get("subject"), fact.get("host"))
            or re.search(rf"\b{re.escape(_first(name))}\b", record["content"]) is not None)


def _statement(fact: Mapping[str, Any] | None) -> bool:
    """A fact that states something of someone or somewhere (not a question, not a stray word)."""
    if not fact:
        return False
    return not fact["question"] and bool(fact.get("subject") or fact.get("place")) and len(str(fact["act"]).split()) > 1


def _plan_of(records, day: str) -> Mapping[str, Any] | None:
    plans = [r for r in records if r["kind"] == "plan" and r.get("plan_items")
             and r["plan_items"][0]["start"][:10] == day]
    return max(plans, key=lambda r: r["id"]) if plans else None


def _expect(kind: str, records: Sequence[Mapping[str, Any]], at: datetime, names: Mapping[str, str],
            me: str) -> Callable[[str, tuple[int, ...]], bool]:
    """The check of ``kind`` for a persona whose records (as of ``at``) are ``records``."""
    today, yesterday = f"{at:%Y-%m-%d}", f"{at - timedelta(days=1):%Y-%m-%d}"
    told_today = {t[0] for r in records if r["created"][:10] == today for t in r.get("tellers") or ()}
    tellers = {t[0] for r in records for t in r.get("tellers") or ()} - {me}
    heard = {r["id"] for r in records if r.get("tellers") and _statement(r.get("fact"))}
    if kind == "greeting":
        hello = next(v for k, v in _HELLO.items() if at.hour in k)
        return lambda a, ids: a.startswith(hello)
    if kind == "day":
        if told_today:
            return lambda a, ids: any(_first(n) in a for n in told_today)
        plan = _plan_of(records, today)
        done = [i["description"] for i in (plan or {}).get("plan_items", ()) if i["start"][11:16] <= f"{at:%H:%M}"]
        return lambda a, ids: any(w in a for d in done for w in d.split() if len(w) > 4)
    if kind == "past":
        then = {r["id"] for r in records if r["created"][:10] == yesterday}
        plan = _plan_of(records, yesterday)
        held = then | ({plan["id"]} if plan else set())
        return lambda a, ids: bool(set(ids) & held) if held else not ids  # nothing held: claims nothing
    if kind == "news":
        return lambda a, ids: bool(set(ids) & heard) if heard else True
    if kind == "trust":
        return lambda a, ids: any(_first(n) in a for n in (tellers or set(names.values()) - {me}))
    if kind == "feeling":
        who = _most_named(records, names, me)
        return lambda a, ids: _first(who) in a and any(_named(r, who) for r in records if r["id"] in ids)
    if kind == "intention":
        plan = _plan_of(records, today)
        hour = f"{_asked_hour(at):02d}:00"
        under = [i["description"] for i in (plan or {}).get("plan_items", ()) if i["start"][11:16] <= hour]
        words = [w for w in (under[-1].split() if under else ()) if len(w) > 3]
        return lambda a, ids: any(w.lower() in a.lower() for w in words)
    return lambda a, ids: bool(re.match(r"^(?:I'd|I would|I'll|I will|I)\b", a)) and "don't know" not in a


def _most_named(records, names: Mapping[str, str], me: str) -> str:
    counts = {n: sum(_named(r, n) for r in records) for n in names.values() if n != me}
    return max(sorted(counts), key=lambda n: counts[n])


def _asked_hour(at: datetime) -> int:
    """The hour an intention question asks about: three hours after ``at``, within the day."""
    return min(at.hour + 3, 22)


def ask_kinds(path: str, times: tuple[str, ...] = ()) -> list[Check]:
    """Ask every persona of the run at ``path`` every question of :data:`QUESTIONS` at each of
    ``times`` ("YYYY-MM-DD HH:MM"; default: 15:00 of the run's first day and 10:00 of its second),
    with the scripted backend; check each answer (module docstring).

    Raises:
        ConfigError, RecordingError: as :func:`town.analysis.interview.interview`.
    """
    from ..backends import default_backend
    from ..recording import RunReader
    from .interview import Interviewer

    reader = RunReader(path)
    asker = Interviewer(reader, backend=default_backend())
    names = dict(asker.names)
    if not times:
        first = datetime.fromisoformat(str(reader.meta.get("start", "2023-02-13 00:00")))
        times = (f"{first:%Y-%m-%d} 15:00", f"{first + timedelta(days=1):%Y-%m-%d} 10:00")
    out: list[Check] = []
    for at_text in times:
        at, tick, seq = asker.moment(at_text)
        for persona in reader.personas():
            records = list(reader.memories(persona, as_of_seq=seq))
            mine = {r["id"] for r in records}
            for kind, asked in QUESTIONS.items():
                check = _expect(kind, records, at, names, names[persona])
                who = _most_named(records, names, names[persona])
                for question in asked:
                    q = question.format(who=who, at=f"{_asked_hour(at):02d}:00")
                    res = asker.ask(persona, q, at=at, tick=tick, seq=seq)
                    ids = tuple(res.evidence)
                    out.append(Check(persona, at_text, kind, q, res.answer, ids,
                                     check(res.answer, ids) and set(ids) <= mine))
    return out


if __name__ == "__main__":  # pragma: no cover - a measuring aid
    cli = argparse.ArgumentParser(prog="python -m town.analysis.asked", description=__doc__.split("\n")[0])
    cli.add_argument("run", help="a run file (.sqlite)")
    cli.add_argument("--failed", action="store_true", help="print the failed checks too")
    cli.add_argument("--sample", type=int, default=0, help="print this many answers drawn with --seed instead")
    cli.add_argument("--seed", type=int, default=1, help="the sample's seed")
    args = cli.parse_args()
    checks = ask_kinds(args.run)
    if args.sample:
        for c in sorted(random.Random(args.seed).sample(checks, min(args.sample, len(checks))),
                        key=lambda c: (c.at, c.persona)):
            print(f"{c.at}  {c.persona} [{c.kind}] {c.question} => {c.answer} {list(c.evidence)}"
                  f"{'' if c.passed else '  (fails its check)'}")
        raise SystemExit(0)
    by_kind = {k: [c.passed for c in checks if c.kind == k] for k in QUESTIONS}
    print(json.dumps({"passed": round(sum(c.passed for c in checks) / len(checks), 3), "asked": len(checks),
                      **{k: f"{sum(v)}/{len(v)}" for k, v in by_kind.items()}}, indent=1))
    if args.failed:
        for c in checks:
            if not c.passed:
                print(f"{c.at} {c.persona} [{c.kind}] {c.question} => {c.answer[:200]} {list(c.evidence)}")
