"""The interview battery: five categories of five questions, asked of every persona of a run.

After Park et al. 2023 §6.1, whose agents were interviewed about self-knowledge, memory, plans,
reactions and reflections. The questions below are written for this project. Placeholders:
``{other}`` is a persona this one knows (the first relationship in its file that is in the
run, else the first other persona), ``{stranger}`` a full name that appears nowhere in the
run's memories or persona files, ``{time}`` an awake hour inside the recorded run after the
interview time (plan questions ask about what the run actually recorded), ``{news}`` the question
of the town's first evaluation probe (``probes.yaml``; "Is anything special happening in town
soon?" for a town without probes), graded against that probe's facts.

Each answer comes from the persona's memory as of the interview time
(:func:`town.analysis.interview.interview`, which never writes to the run) and is stored with its
retrieval trace. :func:`town.analysis.grading.grade` grades the answers against the run's own ground
truth; :mod:`town.analysis.battery_run` asks, grades and writes battery.json.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..errors import ConfigError

__all__ = ["CATEGORIES", "BATTERY", "STRANGERS", "Slot", "ask_battery", "battery_at", "stranger_for",
           "other_for", "plan_times"]

CATEGORIES = ("self_knowledge", "memory", "plans", "reactions", "reflections")

#: category -> five (question template, what grades it). Graders: name, occupation, home (the
#: persona file), other (memories about {other}), news (probe facts the persona holds), stranger
#: (any claim is a hallucination), plan (the recorded action at {time}), judge (a judge model only).
BATTERY: dict[str, tuple[tuple[str, str], ...]] = {
    "self_knowledge": (
        ("What is your name?", "name"),
        ("Please introduce yourself: who are you?", "name"),
        ("What is your occupation?", "occupation"),
        ("Where do you work or study during the day?", "occupation"),
        ("Where do you live?", "home"),
    ),
    "memory": (
        ("Who is {other}?", "other"),
        ("What do you remember about {other}?", "other"),
        ("{news}", "news"),
        ("Who is {stranger}?", "stranger"),
        ("What did {stranger} tell you last week?", "stranger"),
    ),
    "plans": (
        ("What will you be doing {time}?", "plan"),
        ("Where will you be {time}?", "plan"),
        ("What is on your schedule {time}?", "plan"),
        ("What are you planning to do {time}?", "plan"),
        ("What do you expect to be busy with {time}?", "plan"),
    ),
    "reactions": (
        ("Your breakfast is burning on the stove! What do you do?", "judge"),
        ("{other} looks upset today. What would you do?", "judge"),
        ("You run into {other} on the street. What would you say?", "judge"),
        ("The place you usually go to at this hour is closed. What would you do?", "judge"),
        ("A neighbour asks you to help organise an event. How do you respond?", "judge"),
    ),
    "reflections": (
        ("What do you value most in your life?", "judge"),
        ("How do you feel about {other}?", "judge"),
        ("What have you learned about yourself recently?", "judge"),
        ("If you could change one thing about this week, what would it be?", "judge"),
        ("Who in town would you most like to spend more time with, and why?", "judge"),
    ),
}

#: Candidate stranger names; the first whose first and last name occur nowhere in the run is used.
STRANGERS = ("Ayesha Kowalczyk", "Tobias Okonkwo", "Marguerite Villanueva", "Rasmus Achterberg")


@dataclass(frozen=True, kw_only=True)
class Slot:
    """One question put to one persona: its category, index (0-4), template and filled text."""

    persona: str
    category: str
    index: int
    template: str
    grader: str
    question: str
    time: str | None = None  # the {time} asked about ("YYYY-MM-DD HH:MM"), plan questions only
    probe: str | None = None  # the probe whose question {news} is


def stranger_for(texts) -> str:
    """The first of :data:`STRANGERS` none of whose name words occurs in ``texts`` (case-insensitive).

    Raises:
        ConfigError: when every candidate name occurs somewhere.
    """
    blob = "\n".join(texts).lower()
    for name in STRANGERS:
        if not any(w.lower() in blob for w in name.split()):
            return name
    raise ConfigError("every stranger name of the battery occurs in the run", field="stranger")


def other_for(spec, present: dict[str, str]) -> str:
    """Full name of a persona ``spec`` knows: its first relationship in the run, else the first other.

    Args:
        spec: the persona's :class:`town.scenario.PersonaSpec`.
        present: persona id -> full name, for the personas of the run.
    """
    for rel in spec.relationships:
        if rel.persona in present and rel.persona != spec.id:
            return present[rel.persona]
    others = [name for pid, name in sorted(present.items()) if pid != spec.id]
    return others[0] if others else spec.name


def _awake_at(reader, persona: str, tick: int) -> dict[str, Any] | None:
    """The ACTION event data in force for ``persona`` at ``tick`` (None before the first)."""
    last = reader.events(["action"], persona=persona, until_tick=tick, newest_first=True, limit=1)
    return last[0].data if last else None


def plan_times(reader, persona: str, at: datetime, n: int = 5) -> list[datetime]:
    """``n`` whole game hours after ``at`` inside the recorded run at which ``persona`` was awake.

    Hours are tried from ``at`` + 1 h onwards; when fewer than ``n`` awake hours follow ``at``
    (an interview at the run's end), earlier whole hours are used, latest first.
    """
    start = datetime.fromisoformat(reader.meta["start"])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    last = reader.last_tick or 0
    end = start + timedelta(seconds=last * spt)
    first_hour = at.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    ahead = int((end - first_hour).total_seconds() // 3600)
    behind = int((first_hour - start).total_seconds() // 3600)
    forward = [first_hour + timedelta(hours=i) for i in range(ahead + 1)]
    backward = [first_hour - timedelta(hours=i) for i in range(1, behind + 1)]
    out = []
    for t in forward + backward:
        action = _awake_at(reader, persona, int((t - start).total_seconds() // spt))
        if action is not None and action["kind"] != "sleep":
            out.append(t)
            if len(out) == n:
                break
    return out


def _when(t: datetime) -> str:
    return f"on {t:%A, %B} {t.day} at {t:%H:%M}"


def battery_at(reader, scenario, at: datetime) -> tuple[list[Slot], str]:
    """Every persona's 25 questions, placeholders filled (see the module docstring).

    Returns:
        (the slots, persona by persona and category by category; the stranger's name).
    """
    present = {pid: ((reader.meta.get("personas") or {}).get(pid) or {}).get("name", pid)
               for pid in reader.personas()}
    specs = {s.id: s for s in scenario.personas}
    texts = [m["content"] for pid in present for m in reader.memories(pid)]
    texts += [f"{s.name} {s.background} {s.lifestyle}" for s in scenario.personas]
    stranger = stranger_for(texts)
    probe = scenario.probes[0] if scenario.probes else None
    news = probe.question if probe else "Is anything special happening in town soon?"
    slots = []
    for pid in sorted(present):
        spec = specs.get(pid)
        if spec is None:
            raise ConfigError(f"persona {pid!r} of the run has no file in {scenario.folder}", field="persona")
        other = other_for(spec, present)
        times = plan_times(reader, pid, at)
        for category in CATEGORIES:
            for i, (template, grader) in enumerate(BATTERY[category]):
                when = None
                if "{time}" in template:
                    if i >= len(times):
                        continue  # the run holds fewer awake hours than questions
                    when = times[i]
                question = template.format(other=other, stranger=stranger, news=news,
                                           time=_when(when) if when else "")
                slots.append(Slot(persona=pid, category=category, index=i, template=template,
                                  grader=grader, question=question,
                                  time=None if when is None else f"{when:%Y-%m-%d %H:%M}",
                                  probe=probe.name if grader == "news" and probe else None))
    return slots, stranger


def ask_battery(reader, scenario, at: datetime, *, backend=None, embedder=None) -> dict[str, Any]:
    """Ask :func:`battery_at` of every persona from memory as of ``at``; answers with traces.

    One :class:`town.analysis.interview.Interviewer` asks everything: questions embedded in one batch,
    one stream rebuilt per persona. The run file is not changed.

    Args:
        reader: the run (only read).
        scenario: its :class:`town.scenario.Scenario` (persona files).
        at: the interview time (game time).
        backend: answers the questions (default: the scripted backend, :func:`town.analysis.recorded.run_backend`).
        embedder: embeds them (default: the run's).

    Returns:
        ``{"at", "backend", "stranger", "answers": [{persona, category, index, template, grader,
        question, time, probe, answer, evidence (memory ids the answer cites), tick, seq (memories before it),
        backend (whose answer it is), fallback (a model's answer fell back to it), retrieval: {weights, k,
        n_scored, retrieved: [candidate rows of the top k]}}]}``.
    """
    from .interview import Interviewer

    asker = Interviewer(reader, backend=backend, embedder=embedder, scenario=scenario)
    at, tick, seq = asker.moment(at)
    slots, stranger = battery_at(reader, scenario, at)
    asker.embed([s.question for s in slots])
    answers = []
    for s in slots:
        r = asker.ask(s.persona, s.question, at=at, tick=tick, seq=seq)
        top = [c.to_dict() for c in r.candidates if c.in_top_k]
        answers.append({"persona": s.persona, "category": s.category, "index": s.index,
                        "template": s.template, "grader": s.grader, "question": s.question, "time": s.time,
                        "probe": s.probe, "answer": r.answer, "evidence": list(r.evidence), "tick": r.tick, "seq": r.seq,
                        "backend": r.backend, "fallback": r.fallback,
                        "retrieval": {"weights": list(r.weights), "k": r.k, "n_scored": r.n_scored,
                                      "retrieved": top}})
    return {"at": f"{at:%Y-%m-%d %H:%M}", "backend": getattr(asker.backend, "name", "scripted"),
            "stranger": stranger, "answers": answers}
