"""Automatic grading of interview-battery answers against the run's own ground truth.

Where the run knows the answer (Park et al. 2023 §6's categories, graded without a judge):

- self-knowledge: the name, the occupation (the sector where the persona's routine's tasks
  outside its home take the most minutes, as the mind reads its workplace: "Hobbs Cafe", "Oak
  Hill College"; a block without a task is leisure) and the home (its home sector,
  or "my <apartment|house|...>") from the persona file;
- plans: what the persona was actually doing at the asked hour (the recorded ACTION in force
  then): the answer names its sector, or shares two words of its task (one if the task has one;
  words of four letters or more, compared by their first five letters, so "classes" is
  "class"). An answer listing a timetable ("08:00 brew coffee; 12:00 cook lunch") is read at
  the asked hour;
- memory: ``{other}``: the answer names ``{other}`` and shares two words of four letters or
  more with a memory the persona then held that names ``{other}``; news (the question of the
  town's first probe): the answer matches all the probe's facts (regexes) when the persona then
  knew it by provenance (``town.analysis.provenance.knowledge``); a denial is right when it did not;
- hallucination: any answer about ``{stranger}`` that is not a denial, and any answer naming
  the stranger, is a hallucination.

Verdicts: "correct", "wrong", "dont_know" (a denial: "I don't know", "never heard", "No, ..."),
or "ungraded" (reactions and reflections: a judge model's matter, :mod:`town.analysis.judge`). A denial
is correct when the truth is that the persona does not know (a stranger; news it never heard;
someone it holds no memory of).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..scripted import attend
from ..world.address import sector_name
from .battery import BATTERY, CATEGORIES
from .diffusion import recalls
from .interview import routine_of

__all__ = ["VERDICTS", "is_denial", "grade", "grade_answer", "workplace", "home_sector", "summarise"]

VERDICTS = ("correct", "wrong", "dont_know", "ungraded")

_DENIAL = re.compile(
    r"^\s*no\b|\b(don't|do not|doesn't|didn't|can't|cannot|couldn't) (know|remember|recall|say)\b|"
    r"\bnot sure\b|\bno idea\b|\bnever (heard|met)\b|\bhaven't (heard|met)\b|\bunfamiliar\b|"
    r"\bnot familiar\b|\bdoesn't ring a bell\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z']{3,}")
_COMMON = frozenset("""that this with from have will your about what when where then they them there into
some more most time doing going being been were also just very like would could should their which""".split())
_ITEM = re.compile(r"\b(\d{1,2}):(\d{2})\s+([^;:.]+)")


def is_denial(answer: str) -> bool:
    """True for an answer that says the persona does not know ("No, I don't know ...")."""
    return bool(_DENIAL.search(answer))


def _words(text: str) -> set[str]:
    return {w.removesuffix("'s") for w in _WORD.findall(text.lower())} - _COMMON


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _words(text)}


def workplace(spec) -> str:
    """The persona's workplace from its file: :func:`town.scripted.attend.workplace` of its routine
    (the sector where its tasks outside home take the most minutes; "" when it has none)."""
    return attend.workplace(routine_of(spec))


def home_sector(spec) -> str:
    """The persona's home sector ("Isabella Rodriguez's apartment")."""
    return spec.home_sector


def _mentions(answer: str, phrase: str) -> bool:
    return phrase.lower() in answer.lower()


def _self(answer: str, grader: str, spec) -> tuple[str, str]:
    if grader == "name":
        first, *rest = spec.name.split()
        ok = _mentions(answer, first) and all(_mentions(answer, w) for w in rest[-1:])
        return ("correct" if ok else "wrong"), spec.name
    if grader == "occupation":
        place = workplace(spec)
        if not place:
            return "ungraded", "no workplace in the routine"
        return ("correct" if _mentions(answer, place) else "wrong"), place
    home = home_sector(spec)
    kind = home.split()[-1].lower()
    ok = _mentions(answer, home) or bool(re.search(rf"\bmy {re.escape(kind)}\b", answer, re.IGNORECASE))
    return ("correct" if ok else "wrong"), home


def _at_hour(answer: str, when: datetime) -> str:
    """The timetable item of ``answer`` covering ``when`` (the whole answer if it has none)."""
    items = [(int(h) * 60 + int(m), text) for h, m, text in _ITEM.findall(answer)]
    if not items:
        return answer
    minute = when.hour * 60 + when.minute
    before = [text for start, text in items if start <= minute]
    return before[-1] if before else ""


def _plan(answer: str, truth: dict[str, Any] | None, when: datetime) -> tuple[str, str]:
    if truth is None:
        return "ungraded", "no recorded action then"
    said = _at_hour(answer, when)
    place = sector_name(truth["address"])
    doing = _stems(truth.get("task") or truth["description"])
    ok = _mentions(said, place) or (bool(doing) and len(_stems(said) & doing) >= min(2, len(doing)))
    return ("correct" if ok else "wrong"), f"{truth['description']} at {place}"


def _other(answer: str, other: str, held: list[str]) -> tuple[str, str]:
    first = other.split()[0]
    about = [m for m in held if first.lower() in m.lower()]
    if not about:
        return "wrong", f"holds no memory of {other}"
    names = _words(other)
    ok = _mentions(answer, first) and any(len((_words(answer) & _words(m)) - names) >= 2 for m in about)
    return ("correct" if ok else "wrong"), f"{len(about)} memories name {first}"


def _news(answer: str, known: list) -> tuple[str, str]:
    if not known:
        return "wrong", "knows no news item"
    ok = any(recalls(answer, p.facts) for p in known)
    return ("correct" if ok else "wrong"), ", ".join(p.name for p in known)


def grade_answer(row: dict[str, Any], *, spec, stranger: str, other: str | None = None,
                 held: Sequence[str] = (), known: Sequence = (), truth: dict[str, Any] | None = None) -> dict[str, Any]:
    """Grade one battery answer.

    Args:
        row: a battery answer (``grader``, ``answer``, ``time``).
        spec: the persona's :class:`town.scenario.PersonaSpec`.
        stranger: the stranger's full name.
        other: the ``{other}`` full name (memory questions).
        held: contents of the memories the persona held then (memory questions).
        known: the :class:`town.scenario.Probe` s the persona knew then (news question).
        truth: the ACTION data in force at ``row["time"]`` (plan questions).

    Returns:
        ``{"verdict", "hallucination": bool, "truth": str}``.
    """
    answer, grader = row["answer"], row["grader"]
    denial = is_denial(answer)
    surname = stranger.split()[-1].lower()
    hallucination = (grader == "stranger" and not denial) or (
        surname in answer.lower() and grader != "stranger" and surname not in row["question"].lower())
    if grader == "stranger":
        return {"verdict": "correct" if denial else "wrong", "hallucination": hallucination,
                "truth": f"{stranger} does not exist"}
    if grader == "judge":
        return {"verdict": "dont_know" if denial else "ungraded", "hallucination": hallucination, "truth": ""}
    if grader in ("name", "occupation", "home"):
        verdict, said = _self(answer, grader, spec)
    elif grader == "plan":
        verdict, said = _plan(answer, truth, datetime.fromisoformat(row["time"]))
    elif grader == "other":
        verdict, said = _other(answer, other or "", list(held))
        if denial and said.startswith("holds no memory"):
            verdict = "correct"
    else:  # news
        verdict, said = _news(answer, list(known))
        if denial and not known:
            verdict = "correct"
    if denial and verdict == "wrong":
        verdict = "dont_know"
    return {"verdict": verdict, "hallucination": hallucination, "truth": said}


def grade(battery: dict[str, Any], reader, scenario) -> dict[str, Any]:
    """Grade every answer of :func:`town.analysis.battery.ask_battery` output in place; return the summary.

    Ground truth is read from the run (memories as of each answer's ``seq``, actions, probe
    provenance via :func:`town.analysis.provenance.knowledge`) and the persona files.

    Returns:
        :func:`summarise` of the graded answers.
    """
    from .provenance import knowledge

    specs = {s.id: s for s in scenario.personas}
    names = {pid: ((reader.meta.get("personas") or {}).get(pid) or {}).get("name", pid) for pid in reader.personas()}
    asked = {row.get("probe") for row in battery["answers"]}
    onsets = {p.name: knowledge(reader, p.name) for p in scenario.probes if p.name in asked}
    start = datetime.fromisoformat(reader.meta["start"])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    held_cache: dict[tuple[str, int], list[str]] = {}
    for row in battery["answers"]:
        pid, seq = row["persona"], row["seq"]
        kw: dict[str, Any] = {}
        if row["grader"] == "other":
            if (pid, seq) not in held_cache:
                held_cache[(pid, seq)] = [m["content"] for m in reader.memories(pid, as_of_seq=seq)]
            kw["held"] = held_cache[(pid, seq)]
            kw["other"] = next(n for n in names.values() if n in row["question"])
        elif row["grader"] == "news":
            kw["known"] = [p for p in scenario.probes if p.name == row.get("probe")
                           and pid in onsets[p.name] and onsets[p.name][pid].seq < seq]
        elif row["grader"] == "plan":
            tick = int((datetime.fromisoformat(row["time"]) - start).total_seconds() // spt)
            last = reader.events(["action"], persona=pid, until_tick=tick, newest_first=True, limit=1)
            kw["truth"] = last[0].data if last else None
        row["grade"] = grade_answer(row, spec=specs[pid], stranger=battery["stranger"], **kw)
    return summarise(battery["answers"])


def summarise(answers: list[dict[str, Any]]) -> dict[str, Any]:
    """Per category: counts of each verdict and accuracy (correct / graded); hallucinations.

    Returns:
        ``{"categories": {category: {"correct", "wrong", "dont_know", "ungraded", "n",
        "accuracy": float | None}}, "hallucinations": int, "answers": int, "stranger_answers": int}``;
        accuracy is None for a category only a judge grades (reactions, reflections) or with
        nothing graded.
    """
    cats: dict[str, dict[str, Any]] = {c: dict.fromkeys(VERDICTS, 0) | {"n": 0} for c in CATEGORIES}
    for row in answers:
        c = cats[row["category"]]
        c[row["grade"]["verdict"]] += 1
        c["n"] += 1
    for name, c in cats.items():
        graded = c["correct"] + c["wrong"] + c["dont_know"]
        judged = all(g == "judge" for _, g in BATTERY[name])
        c["accuracy"] = c["correct"] / graded if graded and not judged else None
    return {"categories": cats,
            "hallucinations": sum(r["grade"]["hallucination"] for r in answers),
            "answers": len(answers),
            "stranger_answers": sum(r["grader"] == "stranger" for r in answers)}
