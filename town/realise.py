"""English from a memory's fields: the one place a fact is put into words.

A record's :class:`~town.memory.fact.Fact` and tellers are rendered here for what a persona says,
what a prompt or an answer shows and what the viewer lists: the person (the holder's own acts
with "I", a teller's with the teller's pronoun), the tense (an event ahead "is holding", one
past "held"), names, places (an address as its name) and days, stored absolute ("on Tuesday,
February 14") and said relative to a moment of speaking ("tomorrow") only when ``now`` is given.
A heard line that states no fact is kept as it was said, quoted with who said it: no words are
shifted from the speaker's person to the listener's. Verb forms come from the inflection
library (:mod:`town.inflection`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from .hearsay import told
from .inflection import gerund, head_phrase, in_past, is_plural, lemmas, participles, simple_past, third_singular
from .memory.fact import Fact
from .perspective import relative_days
from .textevent import DEFAULT_MINUTES

__all__ = ["PART_SAID", "place_name", "definite", "act_phrase", "sayable", "statement", "heard", "quoted", "asked"]


def definite(thing: str) -> str:
    """A thing there is, with a determiner: "movie marathon" -> "the movie marathon"; one with
    a determiner of its own ("a jazz trio playing") stays."""
    if re.match(r"(?:the|a|an|some|one's|my|our|his|her|their|this)\s", thing, re.I):
        return thing
    return f"the {thing}"


def place_name(place: str) -> str:
    """A place as a persona says it: "the_ville:Johnson Park" -> "Johnson Park"; a room of it by
    the building's name where that names it too ("the_ville:Hobbs Cafe:cafe" -> "Hobbs Cafe"),
    by its own where it is a name ("Klaus Mueller's room"), else as part of the building
    ("the_ville:Oak Hill College:library" -> "the library of Oak Hill College", not "library")."""
    parts = place.split(":")
    if len(parts) < 3:
        return parts[-1]
    sector, area = parts[1], parts[-1]
    if area != area.lower() or area.lower() in sector.lower():
        return area if area != area.lower() else sector
    return f"the {area} of {sector}"


def _clock(t: datetime) -> str:
    """A clock time as said: "5pm", "7:30am", "noon", "midnight"."""
    if t.minute == 0 and t.hour in (0, 12):
        return "midnight" if t.hour == 0 else "noon"
    minutes = f":{t.minute:02d}" if t.minute else ""
    return f"{t.hour % 12 or 12}{minutes}{'am' if t.hour < 12 else 'pm'}"


#: How an event told by a part of the day (:attr:`Fact.part`) says it after its day.
PART_SAID = {"morning": " in the morning", "afternoon": " in the afternoon", "evening": " in the evening",
             "night": " at night", "day": ""}


def _when(fact: Fact) -> str:
    """" on Tuesday, February 14 from 7pm to 8pm" (or " at 7pm"; " in the morning" for one told
    by its part of the day, :data:`PART_SAID`); "" without a start."""
    if fact.start is None:
        return ""
    day = f" on {fact.start:%A, %B} {fact.start.day}"
    if fact.part is not None:
        return day + PART_SAID[fact.part]
    if fact.end is not None and fact.end > fact.start:
        return f"{day} from {_clock(fact.start)} to {_clock(fact.end)}"
    return f"{day} at {_clock(fact.start)}"


#: A subject pronoun -> its possessive and reflexive.
_OWN_FORMS = {"she": ("her", "herself"), "he": ("his", "himself"), "they": ("their", "themselves")}
_NEUTRAL = re.compile(r"\b(one's|oneself)\b")


def act_phrase(fact: Fact, holder: str, pronoun: str | None = None) -> str:
    """``fact.act`` with its subject's own possessives ("one's", :func:`town.reading.neutral_act`)
    said by ``holder``: "my" when the holder is the subject, else the subject's ``pronoun``'s
    ("his"; "their" when not known). "run a rehearsal of one's show" -> "run a rehearsal of my
    show" (held by its subject), "... of his show" (``pronoun="he"``)."""
    mine = fact.subject == holder
    own, self_ = ("my", "myself") if mine else _OWN_FORMS.get(pronoun or "they", _OWN_FORMS["they"])
    act = " ".join(fact.act.split())
    if holder and not mine and fact.subject is not None:  # "Klaus Mueller owes Isabella Rodriguez $20", held by her: "owes me"
        act = re.sub(rf"(?<=\s){re.escape(holder)}\b", "me", act)
    if mine:  # "Klaus quit his job", held by Klaus: "my job" (not "her" before no noun: "meet her at")
        act = re.sub(r"\b(?:his|her|their)\s+([A-Za-z][\w'’-]*)",
                     lambda m: f"my {m.group(1)}" if {"NOUN", "ADJ"} & set(lemmas(m.group(1))) else m.group(0), act)
    return _NEUTRAL.sub(lambda m: own if m.group(1) == "one's" else self_, act)


def sayable(fact: Fact) -> bool:
    """Whether :func:`statement` can say ``fact`` as a clause: it has a subject or a host, its
    act is "be ..." ("there is ..."), or it is a closure ("Hobbs Cafe is closed all day"). A subjectless other act was read from words whose subject
    is no person ("A poster at Town Hall says ..." -> act "say the election ... is") and has
    nobody to say it of."""
    return bool(fact.subject or fact.host or fact.act.split()[0] == "be" or fact.closed)


def statement(fact: Fact, holder: str, *, now: datetime | None = None, pronoun: str | None = None,
              subject_as: str | None = None) -> str:
    """The clause ``fact`` states, in the words of the persona named ``holder`` (no full stop).

    ``Fact(subject="Isabella Rodriguez", act="hold a candlelight vigil", place="v:Johnson Park",
    start=14 Feb 19:00, end=20:00)`` -> "Isabella Rodriguez is holding a candlelight vigil at
    Johnson Park on Tuesday, February 14 from 7pm to 8pm"; held by Isabella herself it opens
    "I am holding". A fact with no time is in the present ("Klaus Mueller studies ..."); no
    subject keeps the act as heard ("be a jazz night": "there is a jazz night"). With ``now``, days are said relative to it ("tomorrow") and
    an event wholly past is in the past tense (:func:`town.perspective.relative_days`; one over
    earlier the same day too: its end, else its start and :data:`~town.textevent.DEFAULT_MINUTES`).
    ``pronoun``: the subject's ("she", "he"), for its possessives (:func:`act_phrase`);
    ``subject_as``: a pronoun the subject is said with ("they are holding ...").
    """
    act = act_phrase(fact, holder, pronoun)
    verb, _, rest = act.partition(" ")
    if fact.cancelled:  # "the karaoke night at the pub this evening is cancelled"
        return _called_off(fact, holder, act, now)
    if fact.moved and not (now is not None and fact.start is not None and now.date() >= fact.start.date()):
        # "the quiz has been moved to Thursday at 8pm": news until its new day, then the event as it is
        return _moved(fact, holder, act, now, subject_as)
    if fact.closed and fact.place is not None:  # "Hobbs Cafe is closed all day tomorrow"
        if fact.start is not None and fact.end is not None and fact.end.date() > fact.start.date() \
                and fact.end.time() == datetime.min.time():  # "closed until Friday": to that day's start
            clause = f"{place_name(fact.place)} is closed until {fact.end:%A, %B} {fact.end.day}"
            return clause if now is None else relative_days(in_past(clause) if fact.end <= now else clause, now)
        late = fact.start is not None and fact.end is not None and fact.part is None \
            and fact.start.time() == datetime.min.time()  # closed from the day's start: it opens late
        clause = (f"{place_name(fact.place)} opens late on {fact.start:%A, %B} {fact.start.day}, at {_clock(fact.end)}"
                  if late and fact.start is not None and fact.end is not None else
                  f"I am closing {place_name(fact.place)}{' all day' if fact.part == 'day' else ''}"  # one's own doing
                  f"{'' if fact.end is not None or fact.part == 'day' else ' early'}{_when(fact)}"
                  if fact.host == holder else
                  f"{place_name(fact.place)} is closed all day{_when(fact)}" if fact.part == "day" else
                  f"{place_name(fact.place)} is closed{_when(fact)}" if fact.end is not None or fact.part else
                  f"{place_name(fact.place)} closes early{_when(fact)}")
        if now is None:
            return clause
        shut = fact.start is not None and (fact.end or fact.start + timedelta(days=1)) <= now
        return relative_days(in_past(clause) if shut else clause, now)
    if fact.subject is None:  # "be a jazz night" -> "there is a jazz night"
        if verb == "be" and fact.host == holder:  # one's own: "I am hosting a breakfast"
            clause = f"I am hosting {rest}"
        elif verb == "be" and fact.host and subject_as:  # its host told it: "she is hosting ..."
            clause = f"{subject_as} {'are' if subject_as == 'they' else 'is'} hosting {rest}"
        else:
            doer = _doer(rest)
            doing = rest[len(doer):].strip() if verb == "be" and doer.lower().startswith("the ") else ""
            be = "are" if is_plural(head_phrase(doer)) else "is"
            hosted = f", hosted by {fact.host}," if fact.host else ""
            if doing:  # "the art club meeting at ...": the art club is meeting there
                clause = f"{doer} {be} {doing}{hosted}"
            elif verb == "be" and rest.lower().startswith("the ") and (fact.place or fact.start):
                clause = f"{rest}{hosted} {be}"  # "the pub quiz is at the pub ...", not "there is the pub quiz"
            else:
                clause = (f"there {be} {rest}" if verb == "be" else act) + hosted
    elif fact.subject == holder:
        clause = f"I {_done(verb, rest, 'was')}" if fact.done else f"I am {gerund(act)}" if fact.start is not None \
            else f"I am {rest}" if verb == "be" else f"I {_timeless(verb, rest, 'have')}"  # not "I be"
    elif subject_as == "they":
        clause = f"they {_done(verb, rest, 'were')}" if fact.done else f"they are {gerund(act)}" \
            if fact.start is not None else f"they are {rest}" if verb == "be" else f"they {_timeless(verb, rest, 'have')}"
    else:
        who = subject_as or fact.subject
        # an arranged event: the progressive
        clause = f"{who} {_done(verb, rest, 'was')}" if fact.done else f"{who} is {gerund(act)}" \
            if fact.start is not None else f"{who} {_timeless(verb, rest, 'has')}"
    clause += _where(fact, holder, act, subject_as or pronoun) + _when(fact)
    invited = ("everyone is welcome" if fact.open_invitation else
               "I am invited" if holder in fact.invited and fact.subject != holder else "")
    if fact.price:  # "..., it costs $3, and everyone is welcome"; "..., and it's free"
        costs = "it's free" if fact.price == "free" else f"it costs {fact.price}"
        clause += f", {costs}" if invited else f", and {costs}"
    if invited:
        clause += f", and {invited}"
    if now is None:
        return clause
    over = fact.start is not None and (fact.end or fact.start + timedelta(minutes=DEFAULT_MINUTES)) <= now
    return relative_days(in_past(clause) if over else clause, now)  # over earlier today: "there was ... today"


def _where(fact: Fact, holder: str, act: str, pronoun: str | None = None) -> str:
    """" at Hobbs Cafe" (" at my room" for the holder's own; " at her apartment" for the doer's
    own, said of them with ``pronoun``), "" without a place or when ``act`` names it."""
    if not fact.place or place_name(fact.place).lower() in act.lower():
        return ""
    where = place_name(fact.place)
    doer = fact.subject or fact.host
    if doer and doer != holder and pronoun in _OWN_FORMS and where.startswith(doer + "'s "):
        return f" at {_OWN_FORMS[pronoun][0]} {where[len(doer) + 3:]}"  # "she is hosting ... at her apartment"
    return f" at {'my ' + where[len(holder) + 3:] if where.startswith(holder + chr(39) + 's ') else where}"


def _called_off(fact: Fact, holder: str, act: str, now: datetime | None) -> str:
    """A cancellation (:attr:`Fact.cancelled`) said by ``holder``: "I have called off the
    Valentine's Day party" (its host), else "the karaoke night at The Rose and Crown Pub this
    evening is cancelled", days relative to ``now``."""
    thing = re.sub(r"^(?:a|an)\s+", "the ", act.removeprefix("be "))
    said = thing + _where(fact, holder, act) + _when(fact)
    clause = f"I have called off {said}" if fact.host == holder else \
        f"{said} {'are' if is_plural(head_phrase(thing)) else 'is'} cancelled"
    return clause if now is None else relative_days(clause, now)


def _moved(fact: Fact, holder: str, act: str, now: datetime | None, subject_as: str | None = None) -> str:
    """A move (:attr:`Fact.moved`) said by ``holder``, with where and when the event now is: "I
    have moved the Valentine's Day party: it is now at Johnson Park on Tuesday, February 14 from
    5pm to 7pm" (its host), else "the quiz has been moved: it is now at The Rose and Crown Pub on
    Thursday, February 16 at 8pm", days relative to ``now`` ("tomorrow at 6pm"). ``subject_as``:
    the host's pronoun when the host told it ("her Valentine's Day party")."""
    thing = re.sub(r"^(?:a|an)\s+", "the ", act.removeprefix("be "))
    if fact.host and fact.host != holder and thing.startswith("the "):  # "Maria Lopez's study group"
        whose = _OWN_FORMS[subject_as][0] if subject_as in ("she", "he") else f"{fact.host}'s"
        thing = f"{whose} {thing[4:]}"
    plural = is_plural(head_phrase(thing))
    clause = f"I have moved {thing}" if fact.host == holder else f"{thing} {'have' if plural else 'has'} been moved"
    now_at = _where(fact, holder, act) + _when(fact)
    if now_at:
        clause += f": {'they are' if plural else 'it is'} now{now_at}"
    if fact.price:  # what it costs goes with it: a listener holds only what is said
        clause += ", and it's free" if fact.price == "free" else f", and it costs {fact.price}"
    return clause if now is None else relative_days(clause, now)


#: Verbs of a decision taken: stated without a time, in the perfect ("Sam Moore has decided to run
#: for mayor", not "decides").
_PERFECT = frozenset({"decide", "agree", "choose", "promise"})


def _done(verb: str, rest: str, was: str) -> str:
    """An act told as done (:attr:`Fact.done`), after its subject: the simple past ("adopted a
    kitten", "got promoted"); ``was`` ("was" or "were") for "be"."""
    return f"{was if verb == 'be' else simple_past(verb)} {rest}".rstrip()


def _timeless(verb: str, rest: str, have: str) -> str:
    """An act stated without a time, after its subject: the present ("studies music"), or for a
    decision (:data:`_PERFECT`) the perfect with ``have`` ("has decided to run ..."). ``verb``
    is the act's first word in the base form; with ``have`` "have", the present is that form."""
    if verb in _PERFECT and participles(verb):
        return f"{have} {participles(verb)[0]} {rest}".rstrip()
    return f"{verb if have == 'have' else third_singular(verb)} {rest}".rstrip()


def heard(fact: Fact, tellers: Sequence[tuple[str, datetime]], holder: str, *, pronoun: str | None = None,
          now: datetime | None = None, doer_pronoun: str | None = None) -> str:
    """A heard fact as its holder remembers or passes it on: "Isabella Rodriguez told me that she
    is holding ...", the first teller named (one level: who told the teller is not said); the
    teller's own acts with ``pronoun`` ("she", "he"; else "they"), another's possessives with
    ``doer_pronoun`` (the doer's, when the holder knows it: "Maria told me that Sam Moore
    announces his run"). No tellers: the bare :func:`statement`. A cancellation or a move of the
    holder's own, heard from another, is said as news of it, not as the holder's doing."""
    teller = tellers[0][0] if tellers else ""
    if teller and teller != holder and fact.host == holder and (fact.cancelled or fact.moved):
        fact = replace(fact, host=None)  # another's word of one's own: "Maria told me that the party is cancelled"
    doer = fact.subject or fact.host  # who does it: the subject, or the host of a thing there is
    own = doer is not None and doer != holder and teller in (doer, doer.split()[0])
    said = statement(fact, holder, now=now, pronoun=pronoun if own else doer_pronoun,
                     subject_as=(pronoun if pronoun in ("she", "he") else "they") if own else None)
    return told(tellers[0][0], said, pronoun) + "." if tellers else said[:1].upper() + said[1:] + "."


def quoted(speaker: str, line: str) -> str:
    """A heard line that states no fact, kept as it was said: 'Klaus Mueller said to me: "..."'."""
    return f'{speaker} said to me: "{line.strip()}"'


def asked(speaker: str, line: str) -> str:
    """A heard line that only asks, as it was asked: "Klaus Mueller asked me: Are you coming?"."""
    return f"{speaker} asked me: {line.strip()}"


def _doer(thing: str) -> str:
    """The noun phrase of a thing there is before what it is doing: "the bakery selling hot cross
    buns" -> "the bakery", "the choir of Oak Hill singing" -> "the choir of Oak Hill" (the number
    of its head phrase is the clause's), "a sale on garden tools" -> "a sale", "a travelling
    circus" as it is."""
    words = thing.split()
    for i, word in enumerate(words[1:], 1):
        if word.endswith("ing") and "VERB" in lemmas(word) and "NOUN" in lemmas(words[i - 1].lower()):
            return " ".join(words[:i])  # "the choir of Oak Hill singing": "the choir of Oak Hill"
    return head_phrase(thing)  # "a sale on tools": "a sale"
