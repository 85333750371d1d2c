"""Where a scripted persona stands: its intentions with their reasons, what it would do, what it
prefers, and what it thinks of a thing, from the typed fields of its own memories.

Each answer is built from a record's fields, never by pasting its text or a whole plan:

- an intention from a plan memory's ``decisions`` (whether it goes to an event, and the reason
  the day plan recorded: :func:`town.scripted.attend.decide`), or, asked of a time, the plan
  item then (``plan_items``) and why it is there (a decision, the persona's work, its habit);
- a hypothetical from the persona's traits, its work in today's plan, the person it hears from
  most (``tellers``) and a heard fact bearing on the question (``fact``);
- a preference from the places and activities of its plans' items, counted by minutes;
- an opinion of a thing from the heard fact that names it most (said by
  :func:`town.realise.heard`) and the decision about it, else the plan items at a place it names.

Each function takes an :class:`~town.thinking.questions.AnswerInterview` and returns
``(text, cited ids)``, or None when no memory bears on the question.
"""

from __future__ import annotations

import re
from datetime import datetime

from ..hearsay import pronoun_of
from ..inflection import first_singular, gerund, in_past
from ..memory.fact import Decided, Fact, PlanItem
from ..perspective import mine, own_voice
from ..reading import UNTIL, read_situation
from ..realise import act_phrase, definite, heard, place_name, sayable, statement
from ..textevent import stated_day, stated_times
from ..thinking.dayplan import MAKING, PLANNING
from ..thinking.questions import AnswerInterview
from ..thinking.views import MemoryView
from ..thinking.words import content_words, name_words, topic_words
from ..world.address import sector_name
from .attend import OWN_PLAN, RESERVED, SOCIABLE, obligation
from .reaction import HELPFUL, traits_of
from .recount import dated, recount, sentence

__all__ = ["intention", "hypothetical", "preference", "opinion", "view_of", "plans", "event_noun", "event_name", "told",
           "known_places", "struck_place", "would_go", "own_reason", "their_reason"]

#: Words of a question that ask rather than name what it is about.
_ASKING = frozenset("""going go come coming attend attending plan planning planned why will would today
tonight tomorrow think feel opinion take favourite favorite prefer like place eat spend time day all""".split())
#: Words of a plan item that make it a meal.
_MEAL = frozenset("breakfast lunch dinner eat eating meal snack coffee brunch supper food".split())


def _now(q: AnswerInterview) -> datetime | None:
    return datetime.fromisoformat(q.now) if q.now else None


def plans(q: AnswerInterview) -> list[MemoryView]:
    """The retrieved plan memories with their typed blocks, newest first."""
    return sorted((m for m in q.memories if m.kind == "plan" and m.plan_items),
                  key=lambda m: (m.created, m.id), reverse=True)


def _plan_of_day(q: AnswerInterview, day) -> MemoryView | None:
    return next((m for m in plans(q) if m.plan_items[0].start.date() == day), None)


def event_noun(fact: Fact) -> str:
    """The event ``fact`` states, named: "the Valentine's Day party" (its act without its verb,
    when the verb makes the event: :data:`MAKING`); another act by its doing ("deep-clean the
    kitchen": "the deep-cleaning of the kitchen"); a thing done for someone is named for them
    ("throw Klaus Mueller a surprise party": "the surprise party for Klaus Mueller"); "" for an
    act of one word."""
    if " " not in fact.act.strip():
        return ""
    verb, thing = fact.act.strip().split(" ", 1)
    if verb not in MAKING | PLANNING | {"be"}:  # "deep-clean the kitchen": the deep-cleaning of the kitchen
        done = gerund(verb)
        thing = (f"the {done} of {thing}" if re.match(r"(?:a|an|the|one's|some)\s", thing)
                 else f"the {done} {thing}")
    given = re.match(r"^((?:[A-Z][\w'-]*\s)+|(?:him|her|them)\s)(?:a|an|the|some)\s+(.+)$", thing)
    if given:  # "throw Klaus Mueller a surprise party": the surprise party for Klaus Mueller
        thing = f"the {given.group(2)} for {given.group(1).strip()}"
    thing = re.sub(r"^(?:a|an|some)\s+", "the ", definite(thing) if verb == "be" else thing)  # "be karaoke"
    return re.sub(r"\bone's\b", "the", thing)


def event_name(fact: Fact | None, at: str) -> str:
    """An event at address ``at`` as named in an answer: :func:`event_noun` and its place ("the
    Valentine's Day party at Hobbs Cafe"); "the event at Hobbs Cafe" without a fact."""
    place = place_name(at)
    noun = event_noun(fact) if fact is not None else ""
    if not noun:
        return f"the event at {place}"
    return noun if place.lower() in noun.lower() else f"{noun} at {place}"


def _stating(q: AnswerInterview, d: Decided) -> list[MemoryView]:
    return [m for m in q.memories if m.id in d.evidence]


def _fact_of(q: AnswerInterview, d: Decided) -> Fact | None:
    return next((m.fact for m in _stating(q, d) if m.fact is not None), None)


def _decisions(q: AnswerInterview) -> list[tuple[Decided, MemoryView]]:
    """(decision, its plan memory), newest plan first, one per event (place and start)."""
    seen: set = set()
    out = []
    for m in plans(q) + [m for m in q.memories if m.kind == "plan" and not m.plan_items]:
        for d in m.decisions:
            if (d.place, d.start) not in seen:
                seen.add((d.place, d.start))
                out.append((d, m))
    return out


def _topic(question: str, people: tuple[str, ...] = ()) -> frozenset[str]:
    """The words of ``question`` naming what it is about (asking words and names left out)."""
    names = {w.lower() for p in people for w in p.split()}
    return content_words(question) - _ASKING - names


def told(m: MemoryView, q: AnswerInterview) -> str:
    """A heard memory said from its fields by the persona asked in ``q``: "Maria told me that S."
    (the realiser's :func:`town.realise.heard`); heard from the one who does it, the realiser's
    rule for a teller telling their own event: "Isabella told me that she is holding ..." (the
    pronoun the memory was written with, :func:`town.hearsay.pronoun_of`, else the teller's
    file's in ``q.pronouns``, else "they")."""
    assert m.fact is not None and m.tellers
    first = m.tellers[0].split()[0]
    now = _now(q)
    return heard(m.fact, [(first, now or datetime.fromisoformat(m.created))], q.persona_name, now=now,
                 pronoun=pronoun_of(m.content) or dict(q.pronouns).get(m.tellers[0]),
                 doer_pronoun=dict(q.pronouns).get(m.fact.subject or m.fact.host or ""))


def _at(description: str, place: str | None) -> str:
    """" at Hobbs Cafe" after a plan item's words, unless they name a place already."""
    sector = sector_name(place or "")
    if not sector or sector.lower() in description.lower() or re.search(r"\b(?:at|in|around|to|of) (?:the )?[A-Z]",
                                                                          description):
        return ""
    return f" at {sector}"


#: A question answered "Yes" or "No" ("Are you going ...?", "Will you go ...?").
#: A question asks about what was: "Did you go ...?", "Where were you ...?", "Had you ...?".
ASKED_PAST = re.compile(r"\b(?:did|didn't|were|weren't|was|wasn't|had)\b", re.I)
_YES_NO = re.compile(r"^\s*(?:are|will|do|does|did|is|would|can|could|should|were|have|has)\b", re.I)


def _said_reason(reason: str) -> str:
    return reason.strip().rstrip(".")


def intention(q: AnswerInterview, at: datetime | None = None) -> tuple[str, list[int]] | None:
    """Whether and why the persona goes to an event the question names (by its words or its
    time): the recorded decision and its reason; asked of a time (a clock time in the question,
    else ``at``: "this evening" read by the caller) with no event then, the plan item then and
    why it is there. None when neither a decision nor a plan bears on it."""
    words = _topic(q.question, q.people)
    times = stated_times(q.question)
    scored = []
    for d, plan in _decisions(q):
        fact = _fact_of(q, d)
        about = content_words(f"{fact.act if fact else ''} {place_name(d.place)}")
        bonus = 2 if times and times[0] == d.start.time() else 0
        if len(words & about) + bonus:
            scored.append((len(words & about) + bonus, d.start, d, plan, fact))
    now = _now(q)
    day = stated_day(q.question, now) if now is not None else None
    if scored:
        _, _, d, plan, fact = max(scored, key=lambda s: s[:2])
        name = event_name(fact, d.place)
        when = f"{d.start:%A, %B} {d.start.day}"
        if day is not None and day != d.start.date():  # asked of another day than the event's
            going = (f"I'm going, because {_said_reason(d.reason)}" if d.go and _hosting(q, d) is None
                     else f"It's mine, because {_hosting(q, d)[1]}" if d.go  # type: ignore[index]
                     else f"I'm not going, because {_said_reason(d.reason)}")
            return (f"{name[:1].upper()}{name[1:]} is on {when}, not on {day:%A}; {going}.",
                    [plan.id, *(m.id for m in _stating(q, d))][:3])
        own = _hosting(q, d)
        if own is not None:  # one's own event: hosted, and why (asked why: its own thought, in its words)
            said = f"I'm {gerund(own[0])} on {when}, because {own[1]}."
            thought = next((m for m in _stating(q, d) if m.kind == "whisper" and not m.tellers), None)
            if thought is not None and q.question.lstrip().lower().startswith("why"):
                said = f"{said} {sentence(recount(dated(thought), q.persona_name))}"
            return (f"Yes, {said}" if _YES_NO.match(q.question) else said), [plan.id, *(m.id for m in _stating(q, d))][:3]
        past = now is not None and d.start < now and ASKED_PAST.search(q.question)
        if past:  # "Did you go to the circus?" after it began: what was decided, in the past
            said = (f"I went to {name} on {when}, because {in_past(_said_reason(d.reason))}." if d.go
                    else f"I didn't go to {name} on {when}, because {in_past(_said_reason(d.reason))}.")
        else:
            said = (f"I'm going to {name} on {when}, because {_said_reason(d.reason)}." if d.go
                    else f"I'm not going to {name} on {when}, because {_said_reason(d.reason)}.")
        if _YES_NO.match(q.question):  # a yes/no question is answered yes or no
            said = f"Yes, {said}" if d.go else f"No, {said}"
        return said, [plan.id, *(m.id for m in _stating(q, d))][:3]
    held_words = topic_words(" ".join(words))  # in their base forms: "the flower giveaway" holds "free flowers"
    known = [m for m in q.memories if m.fact is not None and not m.fact.question and m.fact.start is not None
             and held_words & topic_words(f"{m.fact.act} {place_name(m.fact.place or '')}")]
    if known and times is None and (at is None or any(m.fact is not None and m.fact.start is not None
                                                      and m.fact.start.date() == at.date() for m in known)):
        # one's own event, or heard of and not decided yet (a day plan decides); "on Thursday": its day
        m = known[0]
        assert m.fact is not None
        said = told(m, q) if m.tellers else statement(m.fact, q.persona_name, now=now) + "."
        said = said[:1].upper() + said[1:]
        if q.persona_name in (m.fact.subject, m.fact.host):
            invited = "everyone" if "everyone" in m.fact.invited else "people"
            opening = "Because" if q.question.lstrip().lower().startswith("why") else "Yes, of course, because"
            return f"{opening} it is my own plan, and I've invited {invited} to it. {said}", [m.id]
        return f"I haven't decided yet; I'll see when I plan that day. {said}", [m.id]
    if (times is None and at is None) or now is None:
        return None
    asked_at = datetime.combine(day or now.date(), times[0]) if times is not None else at or now
    today = _plan_of_day(q, asked_at.date())  # the plan of the day asked of, not of today
    if today is None:
        return None
    under = [i for i in today.plan_items if i.start <= asked_at] or list(today.plan_items[:1])
    item = under[-1]
    why = _why(q, item, today)
    own = next((h for d in today.decisions if d.start == item.start and (h := _hosting(q, d)) is not None), None)
    doing, where = (own[0], "") if own is not None else (item.description, _at(item.description, item.place))
    return f"At {asked_at:%H:%M} I'll be {mine(gerund(doing))}{where}, because {why}.", [today.id]


def _hosting(q: AnswerInterview, d: Decided) -> tuple[str, str] | None:
    """(what the persona does at its own event, why) for a decision about an event it hosts (its
    fact's host or subject, or the recorded reason :data:`~town.scripted.attend.OWN_PLAN`): at
    that hour it is hosting the event, not planning it, and the recorded reason says whom it
    invited. None for another's event."""
    fact = _fact_of(q, d)
    if not (d.go and (d.reason == OWN_PLAN or (fact is not None and q.persona_name in (fact.host, fact.subject)))):
        return None
    invited = "everyone" if fact is not None and "everyone" in fact.invited else "people"
    verb = fact.act.split()[0] if fact is not None else "host"
    doing = (f"host {event_name(fact, d.place)}" if verb in MAKING | PLANNING | {"be"} or fact is None
             else f"{mine(act_phrase(fact, q.persona_name))} at {place_name(d.place)}")  # "deep-clean the kitchen"
    return doing, f"{_said_reason(d.reason)}, and I've invited {invited} to it"


def _why(q: AnswerInterview, item: PlanItem, plan: MemoryView) -> str:
    """Why a plan item is there: its event's decision, the persona's work, or its habit."""
    for d in plan.decisions:
        if d.go and d.start == item.start:
            own = _hosting(q, d)
            return own[1] if own is not None else _said_reason(d.reason)
    routine = next((r for r in q.routine if r.description == item.description), None)
    if routine is None:
        return "it is what I planned for today"
    if obligation(routine, q.routine):
        return "it is part of my work"
    return "it is what I usually do at that hour"


def _most_told(q: AnswerInterview) -> str | None:
    counts: dict[str, int] = {}
    for m in q.memories:
        for t in m.tellers[:1]:
            if t != q.persona_name:
                counts[t] = counts.get(t, 0) + 1
    return max(sorted(counts), key=lambda p: counts[p]) if counts else None


def _work_item(q: AnswerInterview) -> tuple[MemoryView | None, PlanItem | None, bool]:
    """(today's plan memory, its first item that is the persona's work, True) or, with no work
    in it, (the plan, its longest waking item, False); (None, None, False) without a plan."""
    now = _now(q)
    plan = _plan_of_day(q, now.date()) if now else None
    plan = plan or next(iter(plans(q)), None)
    if plan is None:
        return None, None, False
    for item in plan.plan_items:
        routine = next((r for r in q.routine if r.description == item.description), None)
        if routine is not None and obligation(routine, q.routine):
            return plan, item, True
    awake = [i for i in plan.plan_items if "sleep" not in i.description.lower()]
    return plan, max(awake, key=_minutes, default=None), False


def _leisure(q: AnswerInterview) -> str | None:
    """The persona's own pastime: its file's first block that is neither a task, a meal nor sleep."""
    return next((r.description for r in q.routine if not r.task and "sleep" not in r.description.lower()
                 and not content_words(r.description) & _MEAL), None)


def _plan_then(q: AnswerInterview) -> tuple[MemoryView, PlanItem] | None:
    """(today's plan, its item at the question's time), or None without one."""
    now = _now(q)
    plan = _plan_of_day(q, now.date()) if now else None
    if plan is None or now is None:
        return None
    under = [i for i in plan.plan_items if i.start <= now and "sleep" not in i.description.lower()]
    return (plan, under[-1]) if under else None


def hypothetical(q: AnswerInterview) -> tuple[str, list[int]]:
    """What the persona would do if ...: the situation read from the question's words
    (:func:`town.reading.read_situation`: what it touches, good or bad news, a place or person it
    names), then said from what it touches in the persona's life: a first step its traits choose
    (sharing good news with the person it hears from most, when sociable), its work in today's
    plan or its plan at that hour (kept, or put off until the trouble ends), its pastime for
    money or time gained, a place named in its plans, and a heard fact the question's words bear
    on. Always an answer: the traits alone when no memory bears on it."""
    traits = set(traits_of(q.persona_summary))
    situation = read_situation(q.question, known_places(q), q.people, q.persona_name)
    friend = _most_told(q)
    cited: list[int] = []
    struck = struck_place(q)
    if struck is not None:  # a place named: the persona's tie to it says what it would do
        first, ids = _tie_to_place(q, struck, situation.good, traits)
        cited += ids
    elif situation.good and traits & (SOCIABLE | HELPFUL) and friend:
        first = f"I'd tell {friend.split()[0]} first, and we'd celebrate"
        cited += [m.id for m in q.memories if m.tellers[:1] == (friend,)][:1]
    elif situation.good:
        first = (f"I'd keep it to myself and take my time; I'm {sorted(traits & RESERVED)[0]} that way"
                 if traits & RESERVED else "I'd be glad, and I'd think it over before changing much")
    elif traits & (SOCIABLE | HELPFUL) and friend:
        first = f"I'd get together with {friend.split()[0]} and make the best of it"
        cited += [m.id for m in q.memories if m.tellers[:1] == (friend,)][:1]
    elif traits & RESERVED:
        first = f"I'd keep to myself and wait it out quietly; I'm {sorted(traits & RESERVED)[0]} that way"
    elif traits:
        first = f"I'd stay calm and make do; I'm {sorted(traits)[0]}, so I'd manage"
    else:
        first = "I'd stay calm and make do"
    parts = [first + "."]
    plan, work, needed = _work_item(q)
    then = _plan_then(q)
    leisure = _leisure(q)
    touched = next((a for a in situation.affects if a in UNTIL), None)
    if situation.good and leisure and {"money", "time"} & set(situation.affects):
        spend = "With the money, I'd make more time for" if "money" in situation.affects else "I'd spend the time"
        parts.append(f"{spend} {mine(gerund(leisure))}.")
    if situation.good is False and then is not None and touched:  # it puts off what the plan holds then
        held, item = then
        later = (f"people count on me there, so I'd get back to it as soon as {UNTIL[touched]}"
                 if needed and item == work else f"so I'd put that off until {UNTIL[touched]}")
        parts.append(f"I'd be {mine(gerund(item.description))}{_at(item.description, item.place)} then; {later}.")
        cited.append(held.id)
    elif plan is not None and work is not None and (struck is None or sector_name(work.place or "") != struck):
        why = "since people count on me there" if needed else "as I'd planned"
        parts.append(f"I'd still {'go and ' if situation.good else 'try to '}{mine(work.description)}"
                     f"{_at(work.description, work.place)}, {why}.")
        cited.append(plan.id)
    words = _topic(q.question, q.people)
    facts = [m for m in q.memories if m.fact is not None and not m.fact.question and m.tellers and sayable(m.fact)
             and words & content_words(f"{m.fact.act} {place_name(m.fact.place or '')}")]
    if struck is not None:  # what is to happen there is what the trouble touches
        facts = [m for m in facts if m.fact is not None and sector_name(m.fact.place or "") == struck]
    if facts:
        m = facts[0]
        assert m.fact is not None
        parts.append(f"And {told(m, q)[:-1]}; that would have to move." if struck
                     else f"And I'd keep in mind what I've heard. {told(m, q)}")
        cited.append(m.id)
    return " ".join(parts), list(dict.fromkeys(cited))


def known_places(q: AnswerInterview) -> list[str]:
    """The names of the places the persona knows: its routine's, its plans' and the heard facts'
    (sector names, first seen first)."""
    found = [r.place for r in q.routine] + [i.place or "" for _, i in _items(q)]
    found += [m.fact.place for m in q.memories if m.fact is not None and m.fact.place]
    return list(dict.fromkeys(sector_name(p) for p in found if sector_name(p)))


#: "Would you go to ... if ...?": whether one would come to a person's doing.
_GO_IF = re.compile(r"\bwould you (?:go|come|attend|join)\b.*\bif\b", re.I)


def would_go(q: AnswerInterview) -> tuple[str, list[int]] | None:
    """Whether the persona would go to what a person the question names does, if asked, and why:
    its file's tie to them, its talks with them, else its traits (reserved: not). None when it
    asks no such thing or names nobody."""
    who = next((p for p in q.people if p != q.persona_name and p.split()[0] in q.question), None)
    if who is None or not _GO_IF.search(q.question):
        return None
    first = who.split()[0]
    tie, talks = _acquaintance(who, q)
    reserved = sorted(set(traits_of(q.persona_summary)) & RESERVED)
    if tie is not None:
        return f"Yes, I would go: {first} is {tie}.", []
    if talks:
        return f"Yes, I would go: {_often(talks)}, and I'd like to support {first}.", talks[:2]
    if reserved:
        return f"Probably not: I'm {reserved[0]}, and I don't know {first} well.", []
    return f"Yes, I'd go and see; I'd like to get to know {first} better.", []


#: A sentence of a persona's file saying what it cares about.
#: An interest asked about ("Why are you interested in gentrification?", "Why do you care about ...?").
_INTERESTED = re.compile(r"\b(?:interested|interest|into|care about|curious|passionate|fascinated)\b", re.I)
_CARES = re.compile(r"\b(?:cares?|wants?|loves?|values?|hopes?|believes?)\b", re.I)


def their_reason(q: AnswerInterview, person: str) -> str | None:
    """What the persona's file says ``person`` cares about, as a reason for what they do: its
    relationship's "who cares about ..." clause (:data:`_CARES`), said of them with their
    pronoun ("he cares about the town"); None when the file says none."""
    tie = next((d for n, d in q.ties if n == person), "")
    found = re.search(rf"\bwho\s+((?:{_CARES.pattern})[^,;.]*)", tie, re.I)
    pronoun = dict(q.pronouns).get(person) or "they"
    if found is None:
        return None
    verb, _, rest = found.group(1).strip().partition(" ")
    return f"{pronoun} {first_singular(verb) if pronoun == 'they' else verb} {rest}".strip()


def own_reason(q: AnswerInterview) -> tuple[str, list[int]] | None:
    """Why the persona does a thing of its own the question names ("Why are you running for
    mayor?"): its own fact whose act holds the question's topic words, and what its file says it
    cares about (the first such sentence, in its own voice); asked of an interest and the file
    saying nothing it cares about, "Because" that fact. None when no own fact bears on it."""
    topic = topic_words(q.question) - name_words(q.people) - _ASKING
    own = next((m for m in q.memories if m.fact is not None and m.fact.subject == q.persona_name
                and not m.fact.question and topic & topic_words(m.fact.act)), None)
    cares = next((x for x in re.split(r"(?<=[.!?])\s+", q.persona_summary) if _CARES.search(x)), None)
    if own is None or own.fact is None:
        return None
    if cares is None and _INTERESTED.search(q.question):  # "Why are you interested in gentrification?": what
        return f"Because {statement(own.fact, q.persona_name, now=_now(q))}.", [own.id]  # one does about it
    if cares is None:
        return None
    why = own_voice(cares.rstrip("."), q.persona_name)
    why = why if why.startswith(("I ", "I'")) else why[:1].lower() + why[1:]
    return f"{statement(own.fact, q.persona_name, now=_now(q))}, because {why}.", [own.id]


def struck_place(q: AnswerInterview) -> str | None:
    """The place a hypothetical names (of :func:`known_places`) when it is not the persona's home:
    the situation is about that place and the persona's tie to it; else None."""
    place = read_situation(q.question, known_places(q), ()).place
    return place if place is not None and place != _home(q) else None


def _tie_to_place(q: AnswerInterview, place: str, good: bool | None, traits: set[str]) -> tuple[str, list[int]]:
    """What the persona would do when something befalls ``place``, from its tie to it: its work
    there (an obligation of its routine), what it does there most (its plans' items), else none.
    (first sentence without its full stop, cited plan ids)."""
    work = next((r for r in q.routine if sector_name(r.place) == place and obligation(r, q.routine)), None)
    if work is not None:
        if good:
            return f"{place} is where I work, so I'd be glad for all of us there", []
        return (f"{place} is my work, so I'd be heartbroken; I'd make sure everyone there was safe, then start "
                f"putting it back together"), []
    there = [(m, i) for m, i in _items(q) if sector_name(i.place or "") == place]
    if there:
        what, ids = _tally(there, lambda i: _bare(i.description, place))
        if good:
            return f"I'd go and see: I {mine(what or 'go')} at {place} most days", ids[:1]
        return f"I'd miss it: I {mine(what or 'go')} at {place} most days, so I'd have to find somewhere else", ids[:1]
    if traits & HELPFUL:
        return f"I hardly ever go to {place}, but I'd go and see if the people there needed a hand", []
    return f"I hardly ever go to {place}, but I'd be sorry for the people there", []


def _items(q: AnswerInterview) -> list[tuple[MemoryView, PlanItem]]:
    """(plan memory, item) of every retrieved plan, sleep left out."""
    return [(m, i) for m in plans(q) for i in m.plan_items if "sleep" not in i.description.lower()]


def _minutes(item: PlanItem) -> float:
    return (item.end - item.start).total_seconds() / 60


def _tally(pairs, key) -> tuple[str | None, list[int]]:
    """The key with the most minutes over ``pairs`` (ties: alphabetical) and the plan ids holding it."""
    minutes: dict[str, float] = {}
    ids: dict[str, list[int]] = {}
    for m, i in pairs:
        k = key(i)
        if k:
            minutes[k] = minutes.get(k, 0) + _minutes(i)
            ids.setdefault(k, [])
            if m.id not in ids[k]:
                ids[k].append(m.id)
    best = max(sorted(minutes), key=lambda k: minutes[k], default=None)
    return best, ids.get(best or "", [])


def _bare(description: str, place: str) -> str:
    """A plan item's words without a place ("have lunch at Hobbs Cafe" -> "have lunch")."""
    bare = re.sub(r"\s*\([^)]*\)", "", description)  # "go to Hobbs Cafe (Isabella: a party)": its note
    bare = re.sub(rf"\s+(?:at|in|to)\s+(?:the\s+)?{re.escape(place)}\b", "", bare, flags=re.I)
    return re.sub(r"\s+(?:at|in|to)\s+(?:the\s+)?[A-Z][\w']*(?:\s+[A-Z][\w']*)*\s*$", "", bare).strip()


def _home(q: AnswerInterview) -> str:
    return next((sector_name(r.place) for r in q.routine if "sleep" in r.description.lower()), "")


_EITHER = re.compile(r"\b(?P<how>prefer|rather)\s+(?P<a>.+?)\s+or\s+(?P<b>[^?]+)", re.I)
#: An option said with its place: "spend an evening at home" -> ("spend an evening", "home").
_AT_PLACE = re.compile(r"^(?P<doing>.*?)\s*\b(?:at|in)\s+(?:the\s+)?(?P<place>[A-Z][\w' ]*|home)$")


#: "your favourite drink", "favorite kind of music": the thing a favourite is asked of.
_FAVOURITE = re.compile(r"\bfavou?rite\s+(?:kind of |sort of |type of )?(?P<thing>[a-z]+)", re.I)
#: What names any pastime ("your favourite thing to do"): the persona's own habit answers it.
_ANY_PASTIME = frozenset("thing things pastime pastimes hobby hobbies activity activities way part time".split())


def preference(q: AnswerInterview) -> tuple[str, list[int]] | None:
    """A favourite place to eat or to be, a favourite pastime, a favourite thing of a kind ("your
    favourite drink": the plan item doing it most, "drink a latte at Hobbs Cafe"; none: "I don't
    really have a favourite drink", never another thing's), or one of two things ("Do you
    prefer A or B?", "Would you rather spend an evening at home or at Hobbs Cafe?"): from the
    minutes its plans' items give each place or activity. None without a retrieved plan."""
    pairs = _items(q)
    if not pairs:
        return None
    either = _EITHER.search(q.question)
    if either:
        options = [either["a"].strip(" ,."), either["b"].strip(" ,.")]
        placed = [_AT_PLACE.match(o) for o in options]
        doing = next((m["doing"] for m in placed if m and m["doing"]), "")
        home = _home(q)
        scores = []
        for o, at in zip(options, placed):  # a place by its whole name ("home": its own), else an act by all its words
            place = (home if at["place"].lower() == "home" else at["place"]) if at else o
            words = content_words(o) if at is None else frozenset()
            held = [(m, i) for m, i in pairs if sector_name(i.place or "").lower() == place.lower()
                    or (words and words <= content_words(i.description))]
            scores.append((sum(_minutes(i) for _, i in held), list(dict.fromkeys(m.id for m, _ in held))))
        if not any(s for s, _ in scores):  # neither is part of its days
            return "I don't mind either way; neither is part of my usual days.", []
        k = 0 if scores[0][0] >= scores[1][0] else 1
        chosen = placed[k]
        if either["how"].lower() == "rather" and chosen is not None:
            where = "at home" if chosen["place"].lower() == "home" else f"at {chosen['place']}"
            return (f"I'd rather {doing or 'be'} {where}: it's part of most of my days, and I hardly ever do the "
                    f"other.", scores[k][1][:3])
        return (f"I prefer {options[k]}: it's part of most of my days, and I hardly ever do the other.",
                scores[k][1][:3])
    low = q.question.lower()
    home = _home(q)
    if re.search(r"\b(eat|food|meal|lunch|dinner|breakfast|coffee)\b", low):
        meals = [(m, i) for m, i in pairs if content_words(i.description) & _MEAL]
        place, ids = _tally(meals, lambda i: sector_name(i.place) if i.place else "")
        if place is None:
            return None
        what = next(i.description for _, i in meals if i.place and sector_name(i.place) == place)
        there = "at home" if place == home else f"at {place}"
        return f"I like eating {there} best: I {mine(_bare(what, place))} there most days.", ids[:3]
    if re.search(r"\b(place|where)\b", low):
        place, ids = _tally([(m, i) for m, i in pairs if i.place and sector_name(i.place) != home],
                            lambda i: sector_name(i.place))
        if place is None:
            return None
        return f"{place} is my favourite place: I spend more of my days there than anywhere else.", ids[:3]
    named = _FAVOURITE.search(q.question)
    thing = named["thing"].lower() if named else ""
    if thing and thing not in _ANY_PASTIME:  # "your favourite drink": the plan items doing that thing
        held = [(m, i) for m, i in pairs if topic_words(thing) & topic_words(i.description)]
        doing, ids = _tally(held, lambda i: i.description)
        if doing is None:
            return f"I don't really have a favourite {thing}.", []
        return f"I like {mine(gerund(doing))} best; I do it most days.", ids[:3]
    habits = {r.description for r in q.routine if not r.task}
    leisure = [(m, i) for m, i in pairs if i.description in habits] or pairs
    doing, ids = _tally(leisure, lambda i: i.description)
    if doing is None:
        return None
    return f"I like {mine(gerund(doing))} best; I make time for it most days.", ids[:3]


def opinion(q: AnswerInterview) -> tuple[str, list[int]] | None:
    """What the persona thinks of a thing the question names: the heard fact naming it most,
    with the decision about it (going or not, and why); else a place of its plans. None when no
    memory names it."""
    words = _topic(q.question, ())
    if not words:
        return None
    places = [(m, i) for m, i in _items(q) if i.place and content_words(sector_name(i.place)) & words]
    if places and any(content_words(sector_name(i.place or "")) == words for _, i in places):
        return _place(places)  # a place named whole: what the persona does there
    topic = topic_words(q.question) - name_words(q.people) - _ASKING
    scored = []
    for i, m in enumerate(q.memories):
        if m.fact is None or m.fact.question or m.kind == "reflection" or not sayable(m.fact):
            continue
        about = topic_words(f"{m.fact.act} {m.fact.subject or ''} {place_name(m.fact.place or '')} {m.content}")
        if topic & about:
            scored.append((len(topic & about), bool(m.tellers), -i, m))
    if scored:
        m = max(scored, key=lambda s: s[:3])[3]
        assert m.fact is not None
        now = _now(q)
        said = told(m, q) if m.tellers else statement(m.fact, q.persona_name, now=now) + "."
        said = said[:1].upper() + said[1:]
        decided = next(((d, p) for d, p in _decisions(q) if m.id in d.evidence
                        or (m.fact.place == d.place and m.fact.start == d.start)), None)
        if decided is not None:
            d, plan = decided
            if now is not None and d.end <= now:  # over: what one did, in the past
                stance = (f"I went, because {in_past(_said_reason(d.reason))}." if d.go
                          else f"I didn't go, because {in_past(_said_reason(d.reason))}.")
            else:
                stance = (f"I'm looking forward to it: I'm going, because {_said_reason(d.reason)}." if d.go
                          else f"It sounds nice, but I'm not going, because {_said_reason(d.reason)}.")
            return f"{said} {stance}", [m.id, plan.id]
        view, ids = view_of(m.fact.subject or m.fact.host, q)
        return f"{view} {said}", [m.id, *ids]
    return _place(places) if places else None


def _acquaintance(who: str, q: AnswerInterview) -> tuple[str | None, list[int]]:
    """(the tie the persona's file records with ``who``: "my neighbour", or None; the ids of its
    talks with them: told by them or a talk's summary)."""
    tie = next((re.split(r",|\bwho\b", said)[0].strip() for name, said in q.ties if name == who), None)
    return tie, [m.id for m in q.memories if who in m.tellers or m.content.startswith(f"I talked with {who}")]


def _often(talks: list[int]) -> str:
    return "we've talked" + (f" {len(talks)} times" if len(talks) > 1 else " once") + " lately"


def view_of(who: str | None, q: AnswerInterview) -> tuple[str, list[int]]:
    """Where the persona stands on what person ``who`` (full name; None: nobody) does, and why:
    its own doing; the tie its file records with them; the talks they have had (``tellers``,
    talk summaries); else its traits. (sentence, cited ids)."""
    traits = set(traits_of(q.persona_summary))
    if who is None:
        return ("I think it's great news." if traits & (SOCIABLE | HELPFUL) else "I haven't made up my mind about "
                "it yet." if traits & RESERVED else "I think it's a good thing for the town."), []
    first = who.split()[0]
    if who == q.persona_name:
        return "It's my own doing, and I stand by it.", []
    them = dict(q.pronouns).get(who, "they")
    tie, talks = _acquaintance(who, q)
    if tie is not None:
        return f"I'm behind {first} all the way: {first} is {tie}.", []
    if talks:
        often = _often(talks)
        return (f"I'd back {first}: {often}, and I like what {them} {'say' if them == 'they' else 'says'}."
                if not traits & RESERVED else
                f"I'd like to hear more before I decide, though {often} and {first} seems sincere."), talks[:2]
    if traits & (SOCIABLE | HELPFUL):
        return f"Good for {first}; I'd like to hear more from {them} about it.", []
    return f"I don't know {first} well enough to say yet.", []


def _place(places: list[tuple[MemoryView, PlanItem]]) -> tuple[str, list[int]]:
    """What the persona thinks of the place of most minutes among ``places``: what it does there."""
    place, ids = _tally(places, lambda i: sector_name(i.place or ""))
    what, _ = _tally([(m, i) for m, i in places if sector_name(i.place or "") == place],
                     lambda i: _bare(i.description, place or "") if " " in _bare(i.description, place or "") else "")
    return f"I like {place}: I {mine(what or 'go')} there most days.", ids[:3]
