"""Whether to go to an event a retrieved memory states: a decision from the plan, the people, the traits.

The scripted day plan (``PlanDay``) asks this for every event that retrieval brought back
(:func:`town.thinking.dayplan.events_on`). It weighs, from the question's inputs only:

- a clash with the persona's own routine then (:func:`clash_with`): an obligation (a task at
  its workplace, or one naming a session, a class, a shift) at another place than the event and
  than home. Leisure (a walk, shopping, a block without a task) and chores at home do not clash;
- how the persona knows the host or the one who told it (read from the memory's fact and
  tellers; from its words only for a memory made without a fact): a retrieved memory of its
  own naming them with a word of closeness (friend, wife, neighbour, ...);
- its traits: sociable ones make going likelier, reserved ones less.

Seeded by the question's seed and the event, so the same question decides the same way. A
decline over a clash gives :func:`decline_reason` ("I have to serve customers at Hobbs Cafe
until 20:00"), the words a spoken decline says too (:func:`town.scripted.reply.reply_to_invite`
asks this at the invitation).
"""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..hearsay import unwrap
from ..inflection import gerund
from ..perspective import mine, relative_days
from ..textevent import StatedEvent
from ..world.address import sector_name
from .recount import told_by
from ..thinking.dayplan import called_off
from ..thinking.views import PlanItemView

__all__ = ["Decision", "COMMITMENT", "workplace", "obligation", "clash_with", "decide", "decline_reason", "SOCIABLE", "RESERVED", "RATHER_NOT", "NOT_UP_FOR_IT", "CLOSE", "HOUSEHOLD", "household",
           "OWN_PLAN"]

#: Traits that make going to an event likelier.
SOCIABLE = frozenset("friendly outgoing sociable hospitable cheerful warm curious energetic social chatty".split())
#: The reason recorded for going to one's own event.
OWN_PLAN = "it is my own plan"
#: Traits that make it less likely, each with how one who has it says no (the first in
#: alphabetical order speaks for a persona with several).
RATHER_NOT = {"introverted": "I need a bit of time to myself", "private": "I like to keep to myself, really",
              "quiet": "I'd rather keep things quiet for now", "reserved": "I'm not one for crowds, to be honest",
              "shy": "big gatherings make me a little nervous", "solitary": "I'm happier on my own, to be honest",
              "withdrawn": "I don't feel up to company just now"}
RESERVED = frozenset(RATHER_NOT)
#: No to an event one is free for, with no reserved trait.
NOT_UP_FOR_IT = "I'm not really up for it, to be honest"
#: Words that name one's kin ("my husband, who runs ...").
FAMILY = frozenset("""wife husband partner mother father son daughter sister brother cousin aunt uncle niece nephew
grandmother grandfather grandson granddaughter""".split())
#: Words of a tie that make someone one's household: kin, or one living under the same roof.
HOUSEHOLD = FAMILY | frozenset("housemate housemates roommate roommates".split())
#: Words of a memory that say the persona is close to someone it names.
CLOSE = HOUSEHOLD | frozenset("""friend friends best neighbour neighbor girlfriend boyfriend crush
mentor""".split())


def household(ties) -> frozenset[str]:
    """The names of ``ties`` ((full name, the file's description: "my son, who studies music"))
    whose description holds a word of :data:`HOUSEHOLD`."""
    return frozenset(name for name, said in ties if set(re.findall(r"[a-z]+", said.lower())) & HOUSEHOLD)

#: Chance to go: free then / free but reserved / a clash / a clash but close to the host or teller.
P_FREE, P_FREE_RESERVED, P_CLASH, P_CLASH_CLOSE = 1.0, 0.5, 0.1, 0.6
#: Added to the chance for a sociable trait (at most 1).
SOCIABLE_BONUS = 0.1


@dataclass(frozen=True)
class Decision:
    """Whether to go (``go``), why (one sentence), the routine block it clashes with (or None)."""

    go: bool
    reason: str
    clash: PlanItemView | None = None


def _minutes(hm: str) -> int:
    return int(hm[:2]) * 60 + int(hm[3:])


def _home(routine) -> str:
    return next((sector_name(r.place) for r in routine if "sleep" in r.description.lower()), "")


#: Words of a routine block that make it an obligation wherever it is (a session, a class, a shift).
COMMITMENT = frozenset("""session class classes seminar lecture lectures meeting shift appointment council
lesson lessons rehearsal exam work serve open close teach tutor office""".split())


def workplace(routine) -> str:
    """The sector where ``routine``'s tasks outside home take the most minutes ("" if none).

    ``routine``: a persona file's blocks (:class:`PlanItemView`, "HH:MM" times, ``task`` None for
    leisure); home is the sector of its sleeping block. A tie goes to the sector first in
    alphabetical order. The interview grader reads a persona's occupation here too
    (:func:`town.analysis.grading.workplace`).
    """
    home, minutes = _home(routine), {}  # type: ignore[var-annotated]
    for r in routine:
        sector = sector_name(r.place)
        if r.task and sector != home:
            minutes[sector] = minutes.get(sector, 0) + _minutes(r.end) - _minutes(r.start)
    return max(sorted(minutes), key=lambda s: minutes[s]) if minutes else ""


def obligation(r: PlanItemView, routine) -> bool:
    """Whether block ``r`` is an obligation: a task at the workplace, or one naming a commitment."""
    words = set(re.findall(r"[a-z]+", f"{r.description} {r.task or ''}".lower()))
    return bool(r.task) and (sector_name(r.place) == workplace(routine) or bool(words & COMMITMENT))


def clash_with(routine, start: str, end: str, place: str) -> PlanItemView | None:
    """The first block of ``routine`` that is an obligation elsewhere while an event runs.

    Args:
        routine: the persona file's blocks (:class:`PlanItemView`, "HH:MM" times, ``task`` None
            for leisure).
        start, end: the event's "HH:MM" times on that day ("24:00" allowed).
        place: the event's address.

    Returns:
        The overlapping :func:`obligation` (a task at the workplace, the sector where the
        routine's tasks outside home take longest, or one naming a session, a class, a shift ...)
        at a sector other than the event's and the home's; None when free, at leisure (a walk,
        shopping), or doing chores at home.
    """
    s, e = _minutes(start), _minutes(end)
    there, home = sector_name(place), _home(routine)
    for r in routine:
        if (_minutes(r.start) < e and s < _minutes(r.end) and sector_name(r.place) not in (there, home)
                and obligation(r, routine)):
            return r
    return None


def _where(description: str, place: str) -> str:
    """``description`` with its place's sector ("... at Town Hall"), unless it names it already."""
    sector = sector_name(place)
    return description if sector in description else f"{description} at {sector}"


def decline_reason(clash: PlanItemView, day: str = "") -> str:
    """The clash said in the first person: "I have to write my paper in the library at Oak Hill
    College until 18:00"; ``day``, the event's day said from the invitation's ("tomorrow", "on
    Friday"), ends it: "... until 17:00 tomorrow" (no block then reads as one of today's)."""
    until = "midnight" if clash.end == "24:00" else clash.end
    return f"I have to {_where(mine(clash.description), clash.place)} until {until}" + (f" {day}" if day else "")


def _traits(summary: str) -> set[str]:
    found = re.search(r"Traits: ([^.]*)\.", summary)
    return {t.strip().lower() for t in found.group(1).split(",")} if found else set()


def _close(memories, name: str) -> str | None:
    """A retrieved memory (not heard from others) naming ``name`` with a word of closeness."""
    first = name.split()[0]
    for m in memories:
        heard = m.tellers if getattr(m, "fact", None) is not None else unwrap(m.content)[0]
        if first in m.content and not heard and CLOSE & set(re.findall(r"[a-z]+", m.content.lower())):
            return m.content.strip().rstrip(".")
    return None


def decide(event: StatedEvent, evidence, *, routine, memories, summary: str, seed: int, me: str = "",
           now: datetime | None = None) -> Decision:
    """Go to ``event`` or not, and why.

    Args:
        event: the stated event (its place and game datetimes).
        evidence: the retrieved views stating it (``content``), first the one that put it in. The
            host is the first speaker of the longest chain of who told whom; the teller the one
            who passed on the first; a talk summary ("I talked with X: ...") was told by X.
        routine: the persona's routine blocks that day.
        memories: every view the day plan's retrieval returned.
        summary: the persona's own description ("Traits: ..." read from it).
        seed: the persona's ``attend_seed`` (the same for its day plans and its spoken replies).
        me: the persona's full name. A view with a ``fact`` is read from its fields: its own
            when the persona is the fact's host or subject, else the host is the fact's host (or
            subject) and the teller its first teller (none for an event it knows firsthand: a
            whisper of a circus in the park is no plan of its own, but a public event).
        now: when the decision is said (an invitation in a talk): a clash on another day names it.
            An event told by its day alone (``part`` "day") has no hours to clash with; a
            routine block at a place ``memories`` hold closed then, or doing what they hold
            cancelled, is no clash (no shift at a shut pub, no council session called off).

    Returns:
        The :class:`Decision`; its reason names the clash, the tie or the trait that decided.
    """
    understood = [m for m in evidence if getattr(m, "fact", None) is not None]
    teller: str | None
    if understood:  # read from the fields: who hosts it, who told it, whether it is its own
        fact = understood[0].fact
        told = [m.tellers[0] for m in understood if m.tellers]
        if me in (fact.host, fact.subject):
            return Decision(True, OWN_PLAN)
        teller = told[0] if told else None  # none: known firsthand (its file, a whisper, "there is a circus ...")
        host = fact.host or fact.subject or teller
        if fact.private and me not in fact.invited and host:  # another's meeting with their own someone
            return Decision(False, f"that is {host.split()[0]}'s own appointment")
    else:  # a memory made without its fact: who told it is read from its words
        chains = [told_by(m.content) for m in evidence]
        if not all(chains):  # a memory of its own states it (its own plan, a whisper, its file)
            return Decision(True, OWN_PLAN)
        longest = max(chains, key=len)
        host, teller = longest[-1], chains[0][0]
    end = "24:00" if event.end.date() > event.start.date() else f"{event.end:%H:%M}"
    midnight = datetime.combine(event.start.date(), datetime.min.time())
    shut = [f for f in called_off(memories, me) if f.closed or f.cancelled]  # no shift at a place closed then
    working = [r for r in routine if not any(f.frees(r.description, r.place, midnight + timedelta(minutes=_minutes(r.start)),
                                                     midnight + timedelta(minutes=_minutes(r.end))) for f in shut)]
    clash = None if event.part == "day" else clash_with(working, f"{event.start:%H:%M}", end, event.place)
    traits = _traits(summary)
    tie = (_close(memories, host) if host else None) or (_close(memories, teller) if teller else None)
    if clash is None:
        p = P_FREE_RESERVED if traits & RESERVED and not tie else P_FREE
    else:
        p = P_CLASH_CLOSE if tie else P_CLASH
    if traits & SOCIABLE:
        p = min(1.0, p + SOCIABLE_BONUS)
    go = random.Random(seed ^ zlib.crc32(f"{event.place}|{event.start}".encode())).random() < p
    if clash is None:
        shy = sorted(traits & RESERVED)
        reason = "I am free then" if go else RATHER_NOT[shy[0]] if shy else NOT_UP_FOR_IT
    elif not go:
        day = relative_days(f"on {event.start:%B} {event.start.day}", now) if now is not None else "today"
        reason = decline_reason(clash, "" if day == "today" else day)
    else:
        why = f"{tie}" if tie else "I want to be there"
        reason = f"it clashes with {_where(mine(gerund(clash.description)), clash.place)}, but {why}"
    return Decision(go, reason, clash)
