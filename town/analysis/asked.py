"""A battery of everyday questions of ten kinds asked of personas of a recorded run, each answer
checked against a fact derived from the run's own records (never from the talk's wording), so
the check stays true when the talk changes.

Each persona asked (:data:`PERSONAS` of Smallville that the run has, else every persona) is
asked every question at two set times: the first day's afternoon and the second day's morning.
A check passes when the answer states its fact AND cites memory ids that are all the persona's
own and include the record the fact came from, and pastes no memory's text (none of its
records' contents longer than 40 characters is in the answer). Kinds and what each check derives from the
records as of the time asked (a day's plan is its newest plan record, ``plan_items``):

- ``greeting``: opens with the greeting of the hour ("Good afternoon" at 15:00) and states the
  ``day`` fact;
- ``day``: names someone who told it something today (``tellers``) or talked with it (a talk's
  summary) and cites that record; when nobody did, names an act of today's plan already begun
  and cites the plan;
- ``news``: cites a heard fact (``tellers`` and a ``fact``) and says its subject's first name,
  its place or a word of its act; nothing heard: cites nothing;
- ``past``: names someone who told it something yesterday and cites that record, else an act of
  yesterday's plan and cites it; before a yesterday was recorded, cites nothing;
- ``trust``: names the person who told it most (first ``tellers``) and cites a record they told;
- ``feeling``: about the person who told it most (and the one named most otherwise): names them
  and cites a record told by them (else one naming them);
- ``opinion``: about the event asked of in ``intention`` (``fact``): cites a record holding that fact, says a word of its act or its place, and the
  decision's ``reason`` when there is one; about the place of most of its plans'
  minutes: names it and cites a plan with it;
- ``intention``: about the event of its newest recorded decision (a plan's ``decisions``):
  answers "Yes"/"No" as decided, says the recorded ``reason`` and cites the plan (no decision:
  of the event it heard of most, "not decided yet", or "Yes" for its own; citing the event's
  record); asked of a
  time: says an act of the plan item then and "because", cites the plan (an item of a decided
  event: says the decision's reason);
- ``hypothetical``: answers in the first person ("I'd ..."), never "I don't know", and says a
  word of today's plan, citing it (without a plan: the first name of someone who told it
  something, citing their record);
- ``preference``: the place of most meal minutes in its plans (eating), of most minutes away
  from home (a place; and of two places, that one over one it never goes to), an act of its
  plans (a pastime): names it and cites a plan holding it.

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

__all__ = ["QUESTIONS", "PERSONAS", "Check", "ask_kinds"]

#: kind -> the questions asked of it; slots are filled from the persona's records (module
#: docstring): ``{person}``, ``{other}``, ``{event}``, ``{place}``, ``{never}``, ``{at}``, ``{later}``.
QUESTIONS: dict[str, tuple[str, ...]] = {
    "greeting": ("Good morning! How are you?", "Hello, how is your day going?", "Hi there! How are things?",
                 "Hey, how have you been today?"),
    "day": ("How has your day been so far?", "What have you done today?", "How is your day going so far?",
            "What have you been up to today?"),
    "news": ("What news have you heard lately?", "Have you heard any news?", "What have you heard recently?",
             "Any gossip in town?"),
    "past": ("What did you do yesterday?", "Who did you see yesterday?", "What happened yesterday?",
             "How was your day yesterday?"),
    "trust": ("Whom do you trust most?", "Who do you rely on in town?", "Who are you closest to?",
              "Who can you count on?"),
    "feeling": ("How do you feel about {person}?", "What do you think of {person}?",
                "How do you get along with {person}?", "How do you feel about {other}?"),
    "opinion": ("What do you think about {event}?", "How do you feel about {event}?",
                "What's your opinion of {event}?", "What do you think of {place}?"),
    "intention": ("Are you going to {event}? Why?", "Will you go to {event}? Why or why not?",
                  "What are you doing at {at} today, and why?", "What will you be doing at {later} today, and why?"),
    "hypothetical": ("What would you do if the power went out?", "What would you do if it rained all day?",
                     "What would you do if you won the lottery?", "What would you do if you were the mayor?"),
    "preference": ("What's your favourite place to eat?", "Where do you like to spend your time?",
                   "Do you prefer {never} or {place}?", "What do you like doing most?"),
}

#: The Smallville personas asked (those the run has): a host, her regulars, a candidate, others.
PERSONAS = ("isabella_rodriguez", "tom_moreno", "maria_lopez", "klaus_mueller", "sam_moore", "carmen_ortiz")

_HELLO = {range(5, 12): "Good morning", range(12, 17): "Good afternoon", range(17, 24): "Good evening"}
_MEAL = frozenset("breakfast lunch dinner eat eating meal snack coffee brunch supper food".split())
_SMALL = frozenset("the and for with from into over about after before while their there this that some".split())


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


def _says(answer: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(_first(name))}\b", answer) is not None


def _words(text: str, n: int = 4) -> list[str]:
    """Words of ``text`` longer than ``n`` letters, not function words (lower case)."""
    return [w for w in re.findall(r"[a-z']+", text.lower()) if len(w) > n and w not in _SMALL]


def _sector(address: str | None) -> str:
    parts = (address or "").split(":")
    return parts[1] if len(parts) > 1 else ""


def _heard_fact(record: Mapping[str, Any]) -> bool:
    """A record holding a heard statement of someone or somewhere (not a question)."""
    fact = record.get("fact") or {}
    return bool(record.get("tellers")) and bool(fact) and not fact["question"] \
        and bool(fact.get("subject") or fact.get("place")) and len(str(fact["act"]).split()) > 1


def _day_plans(records) -> dict[str, Mapping[str, Any]]:
    """Day ("YYYY-MM-DD") -> its newest plan record (with ``plan_items``)."""
    out: dict[str, Mapping[str, Any]] = {}
    for r in sorted((r for r in records if r["kind"] == "plan" and r.get("plan_items")), key=lambda r: r["id"]):
        out[r["plan_items"][0]["start"][:10]] = r
    return out


def _awake(plan: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    return [i for i in (plan or {}).get("plan_items", ()) if "sleep" not in i["description"].lower()]


def _minutes(item: Mapping[str, Any]) -> float:
    return (datetime.fromisoformat(item["end"]) - datetime.fromisoformat(item["start"])).total_seconds() / 60


def _top(pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], key) -> tuple[str | None, set[int]]:
    """The key of most minutes over (plan, item) pairs (ties: alphabetical) and the plans holding it."""
    minutes: dict[str, float] = {}
    for _, i in pairs:
        if key(i):
            minutes[key(i)] = minutes.get(key(i), 0) + _minutes(i)
    best = max(sorted(minutes), key=lambda k: minutes[k], default=None)
    return best, {p["id"] for p, i in pairs if best is not None and key(i) == best}


def _told_most(records, me: str) -> tuple[list[str], dict[str, set[int]]]:
    """People who told the persona something, most records first, and each one's record ids."""
    by: dict[str, set[int]] = {}
    for r in records:
        for t in (r.get("tellers") or ())[:1]:
            if t[0] != me:
                by.setdefault(t[0], set()).add(r["id"])
    return sorted(by, key=lambda n: (-len(by[n]), n)), by


def _holding(records, fact: Mapping[str, Any]) -> set[int]:
    """Ids of the records holding ``fact`` (the same act, place and start)."""
    key = (fact["act"], fact.get("place"), fact.get("start"))
    return {r["id"] for r in records if r.get("fact") and (r["fact"]["act"], r["fact"].get("place"),
                                                             r["fact"].get("start")) == key}


def _event_phrase(act: str) -> str:
    """"hold a Valentine's Day party" -> "the Valentine's Day party" (the act without its verb)."""
    rest = act.split(" ", 1)[1] if " " in act else act
    return "the " + re.sub(r"^(?:a|an|the|some)\s+", "", rest.replace("one's ", ""))


@dataclass(frozen=True)
class _Facts:
    """What a persona's records say as of a time: the slots of the questions and the checks' facts."""

    records: Sequence[Mapping[str, Any]]
    at: datetime
    me: str
    people: Sequence[str]

    def today(self) -> str:
        return f"{self.at:%Y-%m-%d}"

    def plans(self) -> dict[str, Mapping[str, Any]]:
        return _day_plans(self.records)

    def pairs(self) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
        return [(p, i) for p in self.plans().values() for i in _awake(p)]

    def home(self) -> str:
        return next((_sector(i["place"]) for p in self.plans().values() for i in p["plan_items"]
                     if "sleep" in i["description"].lower() and i["place"]), "")

    def told_most(self) -> tuple[list[str], dict[str, set[int]]]:
        return _told_most(self.records, self.me)

    def person(self) -> str:
        names, _ = self.told_most()
        return names[0] if names else self.named_most()

    def named_most(self, but: str = "") -> str:
        counts = {n: sum(_first(n) in r["content"] for r in self.records) for n in self.people
                  if n not in (self.me, but)}
        return max(sorted(counts), key=lambda n: counts[n])

    def decision(self) -> tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any] | None] | None:
        """(the newest plan's newest-starting decision, its plan, the fact stating it) or None."""
        for plan in sorted((r for r in self.records if r.get("decisions")), key=lambda r: -r["id"]):
            d = plan["decisions"][-1]
            stating = [r for r in self.records if r["id"] in d.get("evidence", ()) and r.get("fact")]
            return d, plan, (stating[0]["fact"] if stating else None)
        return None

    def told_fact(self) -> Mapping[str, Any] | None:
        """The heard fact held in the record told by most people (ties: newest)."""
        heard = [r for r in self.records if _heard_fact(r)]
        return max(heard, key=lambda r: (len(r["tellers"]), r["id"]))["fact"] if heard else None

    def event_fact(self) -> Mapping[str, Any] | None:
        """The event asked about: its newest decision's, else the event (a fact with a start)
        told by most people, else one of its own."""
        d = self.decision()
        if d and d[2]:
            return d[2]
        events = [r for r in self.records if r.get("fact") and r["fact"].get("start") and not r["fact"]["question"]
                  and r["fact"].get("place")]
        return max(events, key=lambda r: (len(r.get("tellers") or ()), r["id"]))["fact"] if events else None

    def event(self) -> str:
        fact = self.event_fact()
        return _event_phrase(fact["act"]) if fact else "the weather"

    def place(self) -> tuple[str | None, set[int]]:
        return _top([(p, i) for p, i in self.pairs() if _sector(i["place"]) not in ("", self.home())],
                    lambda i: _sector(i["place"]))

    def never(self, places: Sequence[str]) -> str:
        mine = {_sector(i["place"]) for _, i in self.pairs()}
        return next(p for p in places if p not in mine)


def _hour(at: datetime, ahead: int) -> str:
    return f"{min(at.hour + ahead, 22):02d}:00"


def _check_day(f: _Facts, day: str) -> Callable[[str, set[int]], bool]:
    """Names a teller of ``day`` and cites their record; else an act of that day's plan begun by then."""
    by: dict[str, set[int]] = {}
    for r in f.records:
        for t in r.get("tellers") or ():
            if t[1][:10] == day and t[0] != f.me:
                by.setdefault(t[0], set()).add(r["id"])
        talk = re.match(r"I talked with ([^:]+):", r["content"])
        if talk and r["created"][:10] == day:
            by.setdefault(talk.group(1), set()).add(r["id"])
    if by:
        return lambda a, ids: any(_says(a, n) and ids & rs for n, rs in by.items())
    plan = f.plans().get(day)
    if plan is None:
        return lambda a, ids: not ids
    until = f"{f.at:%H:%M}" if day == f.today() else "24:00"
    done = [w for i in _awake(plan) if i["start"][11:16] <= until for w in _words(i["description"], 3)]
    return lambda a, ids: plan["id"] in ids and any(w in a.lower() for w in done)


def _expect(kind: str, question: str, f: _Facts) -> Callable[[str, set[int]], bool]:
    """The check of one question of ``kind`` (module docstring), from the persona's records ``f``."""
    names, by = f.told_most()
    if kind == "greeting":
        hello = next(v for k, v in _HELLO.items() if f.at.hour in k)
        day = _check_day(f, f.today())
        return lambda a, ids: a.startswith(hello) and day(a, ids)
    if kind == "day":
        return _check_day(f, f.today())
    if kind == "past":
        yesterday = f"{f.at - timedelta(days=1):%Y-%m-%d}"
        if not any(r["created"][:10] <= yesterday for r in f.records if r["kind"] == "plan"):
            return lambda a, ids: not ids
        return _check_day(f, yesterday)
    if kind == "news":
        heard = {r["id"]: r["fact"] for r in f.records if _heard_fact(r)}
        if not heard:
            return lambda a, ids: not ids

        def states(a: str, ids: set[int]) -> bool:
            for i in ids & set(heard):
                fact = heard[i]
                said = [_first(fact["subject"])] if fact.get("subject") else []
                said += [_sector(fact["place"]) or fact["place"]] if fact.get("place") else []
                if any(s and s in a for s in said) or any(w in a.lower() for w in _words(fact["act"])):
                    return True
            return False
        return states
    if kind == "trust":
        if not names:
            return lambda a, ids: any(_says(a, n) for n in f.people if n != f.me)
        top = [n for n in names if len(by[n]) == len(by[names[0]])]
        return lambda a, ids: any(_says(a, n) and ids & by[n] for n in top)
    if kind == "feeling":
        who = f.person() if "{person}" in question else f.named_most(but=f.person())
        told = by.get(who, set())
        naming = {r["id"] for r in f.records if _says(r["content"], who) or who in (
            (r.get("fact") or {}).get("subject"), (r.get("fact") or {}).get("host"))}
        need = told or naming
        return lambda a, ids: _says(a, who) and (bool(ids & need) if need else not ids)
    if kind == "opinion" and "{place}" in question:
        where, plans = f.place()
        return lambda a, ids: where is not None and where in a and bool(ids & plans)
    if kind == "opinion":
        d = f.decision()
        fact = f.event_fact()
        if fact is None:
            return lambda a, ids: not ids
        holding = _holding(f.records, fact)
        words = _words(fact["act"]) + ([_sector(fact["place"])] if fact.get("place") else [])
        reason = d[0]["reason"].strip().rstrip(".") if d else ""  # decided: its reason too
        return lambda a, ids: bool(ids & holding) and any(w.lower() in a.lower() for w in words) and reason in a
    if kind == "intention" and "{event}" in question:
        d = f.decision()
        if d is None:  # nothing decided: its own event is a yes, another not decided yet; cites the event
            known = f.event_fact()
            if known is None:
                return lambda a, ids: not ids
            holding = _holding(f.records, known)
            if f.me in (known.get("subject"), known.get("host")):
                return lambda a, ids: a.startswith("Yes") and bool(ids & holding)
            return lambda a, ids: "decided" in a and not a.startswith(("Yes", "No")) and bool(ids & holding)
        decided, plan, _ = d
        yes = "Yes" if decided["go"] else "No"
        reason = decided["reason"].strip().rstrip(".")
        return lambda a, ids: a.startswith(yes) and reason in a and plan["id"] in ids
    if kind == "intention":
        today = f.plans().get(f.today())
        if today is None:
            return lambda a, ids: not ids
        hour = _hour(f.at, 3 if "{at}" in question else 5)
        under = [i for i in today["plan_items"] if i["start"][11:16] <= hour] or today["plan_items"][:1]
        item = under[-1]
        words = _words(item["description"], 3)
        reasons = [d["reason"].strip().rstrip(".") for d in today.get("decisions") or ()
                   if d["go"] and d["start"] == item["start"]]
        return lambda a, ids: (today["id"] in ids and "because" in a and any(w in a.lower() for w in words)
                               and all(r in a for r in reasons))
    if kind == "hypothetical":
        now = f.plans().get(f.today())
        done = [w for i in _awake(now) for w in _words(i["description"])] if now else []

        def first_person(a: str, ids: set[int]) -> bool:
            if not re.match(r"^(?:I'd|I would)\b", a) or "don't know" in a:
                return False
            if now is not None:  # what it would still do today
                return now["id"] in ids and any(w in a.lower() for w in done)
            return any(_says(a, n) and ids & by[n] for n in names)
        return first_person
    # preference
    low = question.lower()
    if "eat" in low:
        meals = [(p, i) for p, i in f.pairs() if set(_words(i["description"], 2)) & _MEAL]
        place, plans = _top(meals, lambda i: _sector(i["place"]))
        said = "at home" if place == f.home() else (place or "")
        return lambda a, ids: bool(said) and said in a and bool(ids & plans)
    if "prefer" in low or "where" in low:
        most, held = f.place()
        return lambda a, ids: most is not None and most in a and bool(ids & held)
    by_plan = {p["id"]: [w for i in _awake(p) for w in _words(i["description"], 3)] for p in f.plans().values()}
    return lambda a, ids: any(i in by_plan and any(w in a.lower() for w in by_plan[i]) for i in ids)


def ask_kinds(path: str, times: tuple[str, ...] = (), personas: Sequence[str] = ()) -> list[Check]:
    """Ask ``personas`` (default: :data:`PERSONAS` the run has, else all) of the run at ``path``
    every question of :data:`QUESTIONS` at each of ``times`` ("YYYY-MM-DD HH:MM"; default: 15:00
    of the run's first day and 10:00 of its second), with the scripted backend; check each
    answer (module docstring).

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
    asked = list(personas) or [p for p in PERSONAS if p in names] or list(reader.personas())
    out: list[Check] = []
    for at_text in times:
        at, tick, seq = asker.moment(at_text)
        held = {p: list(reader.memories(p, as_of_seq=seq)) for p in reader.personas()}
        places = sorted({_sector(i["place"]) for rs in held.values() for p in _day_plans(rs).values()
                         for i in _awake(p)} - {""})
        for persona in asked:
            records = held[persona]
            mine = {r["id"] for r in records}
            f = _Facts(records, at, names[persona], list(names.values()))
            slots = dict(person=f.person(), other=f.named_most(but=f.person()), event=f.event(),
                         place=f.place()[0] or "home", never=f.never(places), at=_hour(at, 3), later=_hour(at, 5))
            for kind, questions in QUESTIONS.items():
                for question in questions:
                    check = _expect(kind, question, f)
                    q = question.format(**slots)
                    res = asker.ask(persona, q, at=at, tick=tick, seq=seq)
                    ids = tuple(res.evidence)
                    pasted = any(len(r["content"]) > 40 and r["content"].rstrip(".") in res.answer for r in records)
                    out.append(Check(persona, at_text, kind, q, res.answer, ids,
                                     bool(check(res.answer, set(ids))) and set(ids) <= mine and not pasted))
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
                print(f"{c.at} {c.persona} [{c.kind}] {c.question} => {c.answer[:300]} {list(c.evidence)}")
