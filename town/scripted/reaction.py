"""A scripted reaction to a situation an interviewer describes ("Your breakfast is burning!").

The answer proposes an act that fits the situation, at objects and places the persona knows:
those of its own routine (its file) and those the retrieved memories name. A situation about a
person ("Klaus looks upset") uses what the persona remembers of them; a request for help is
weighed by the persona's traits and the obligations of its routine.
"""

from __future__ import annotations

import re
from ..world.address import sector_name
from ..thinking.questions import AnswerInterview
from .recount import is_about, recount
from ..thinking.words import content_words

__all__ = ["REACTION", "react", "traits_of", "HELPFUL"]

#: A question describing a situation and asking what the persona does or says.
REACTION = re.compile(r"\bwhat (do|would|will) you (do|say)\b|\bhow (do|would) you (respond|react)\b", re.I)

#: Traits that make a persona say yes to a request or an invitation.
HELPFUL = frozenset("""friendly outgoing hospitable helpful kind warm generous sociable caring curious
cheerful energetic enthusiastic supportive easygoing chatty talkative open social""".split())

_FIRE = re.compile(r"\b(burn\w*|fire|smoke|smoking)\b", re.I)
_UPSET = re.compile(r"\b(upset|sad|crying|worried|angry|lonely|down)\b", re.I)
_MEET = re.compile(r"\b(run into|bump into|meet|see)\b", re.I)
_CLOSED = re.compile(r"\bclosed\b", re.I)
_HELP = re.compile(r"\b(help|organi[sz]e|volunteer|invites?)\b", re.I)


def traits_of(summary: str) -> list[str]:
    """The traits a persona's summary lists ("Traits: friendly, outgoing." -> ["friendly", "outgoing"])."""
    found = re.search(r"Traits: ([^.]*)\.", summary)
    return [t.strip().lower() for t in found.group(1).split(",")] if found else []


def _home(q: AnswerInterview) -> str:
    sleeping = [r.place for r in q.routine if "sleep" in r.description.lower()]
    return sector_name(sleeping[0]) if sleeping else ""


def _objects(q: AnswerInterview) -> dict[str, str]:
    """Object name -> the sector it is in, for the objects of the persona's routine."""
    out: dict[str, str] = {}
    for r in q.routine:
        parts = r.place.split(":")
        if len(parts) >= 4:
            out.setdefault(parts[-1].lower(), parts[1])
    return out


def _where(sector: str, home: str) -> str:
    return "at home" if sector == home else f"at {sector}"


def _about(q: AnswerInterview, first: str) -> list:
    return sorted((m for m in q.memories if is_about(m.content, first)),
                  key=lambda m: (m.kind != "reflection", m.kind != "observation", -m.importance))


def _person(q: AnswerInterview) -> str | None:
    return next((p for p in q.people if p != q.persona_name and p.split()[0] in q.question), None)


def _fire(q: AnswerInterview) -> tuple[str, list[int]]:
    objects, home = _objects(q), _home(q)
    named = [o for o in objects if o in q.question.lower()] or [o for o in ("stove", "oven", "kitchen") if o in objects]
    if named:
        where = _where(objects[named[0]], home)
        return (f"I'd turn off the {named[0]} {where} straight away, take the pan off the heat and open a "
                f"window; then I'd start breakfast again.", [])
    return "I'd turn off the heat straight away, take the pan off and open a window.", []


def _upset(q: AnswerInterview, who: str) -> tuple[str, list[int]]:
    first = who.split()[0]
    about = _about(q, first)[:1]
    known = f" {recount(about[0].content, q.persona_name)}" if about else ""
    return f"I'd go over to {first}, ask what's wrong and listen.{known}", [m.id for m in about]


def _meet(q: AnswerInterview, who: str) -> tuple[str, list[int]]:
    first = who.split()[0]
    news = [m for m in q.memories if m.importance >= 5 and first not in m.content and m.kind != "plan"]
    said = f'I\'d say "Hi {first}, good to see you! How are you doing?"'
    if news:
        return f"{said} and tell {first} what I've heard: {recount(news[0].content, q.persona_name)}", [news[0].id]
    about = _about(q, first)[:1]
    if about:
        return f"{said} and ask how things are going. {recount(about[0].content, q.persona_name)}", [about[0].id]
    return f"{said} and ask how things are going.", []


def _closed(q: AnswerInterview) -> tuple[str, list[int]]:
    home, now = _home(q), q.now[11:16] if q.now else ""
    ahead = [sector_name(r.place) for r in q.routine if r.end > now and sector_name(r.place) != home]
    usual = next((sector_name(r.place) for r in q.routine if r.start <= now < r.end and sector_name(r.place) != home),
                 ahead[0] if ahead else "")
    closed = [usual] + [sector_name(r.place) for r in q.routine if sector_name(r.place) in q.question]
    usual = closed[-1]  # the place the question says is closed, else the usual one now
    others = [sector_name(r.place) for r in q.routine if sector_name(r.place) not in (home, *closed)]
    if others:
        return f"I'd go to {others[0]} instead and come back to {usual or 'the usual place'} later.", []
    return "I'd go home and find something else to do until it opens again.", []


def _obligations(q: AnswerInterview) -> list:
    home = _home(q)
    return [r for r in q.routine if r.task and sector_name(r.place) != home]


def _help(q: AnswerInterview) -> tuple[str, list[int]]:
    keen = bool(HELPFUL & set(traits_of(q.persona_summary)))
    work = _obligations(q)
    free = f" I'm free after {work[-1].end}, once I'm done at {sector_name(work[-1].place)}." if work else ""
    related = [m for m in q.memories if content_words(m.content) & {"event", "party", "organise", "organize",
                                                                    "plan", "planning", "help"}][:1]
    lead = "I'd gladly help and ask what needs doing." if keen else "I'd say I can help a little, if it is not much work."
    seen = f" {recount(related[0].content, q.persona_name)}" if related else ""
    return lead + free + seen, [m.id for m in related]


def react(q: AnswerInterview) -> tuple[str, list[int]] | None:
    """(what the persona would do, the ids of the memories it used) for the situation in ``q``;
    None for a situation none of these rules knows (:func:`town.scripted.stance.hypothetical`)."""
    who = _person(q)
    if _FIRE.search(q.question):
        return _fire(q)
    if who and _UPSET.search(q.question):
        return _upset(q, who)
    if who and _MEET.search(q.question):
        return _meet(q, who)
    if _CLOSED.search(q.question):
        return _closed(q)
    if _HELP.search(q.question):
        return _help(q)
    if who:
        return _upset(q, who)
    return None
