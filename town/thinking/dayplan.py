"""Events that retrieved memories state, and a day plan with them put in (Park et al. 2023 §4.3).

The scripted day plan is the routine plus every event that a retrieved memory's text states for
that day (``town.textevent.find_event``); the mind uses the same function to name, for each
block of a plan from any backend, the memories that put it there (the PLAN event's evidence).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time, timedelta

from ..clock import clock_text
from ..memory.fact import Fact
from ..realise import act_phrase, definite
from ..textevent import DEFAULT_MINUTES, StatedEvent, find_event

__all__ = ["called_off", "told_since", "put_off", "moved_to", "events_on", "with_events", "block_evidence", "minutes_of", "fact_block", "fact_event", "meal_of"]

_MEALS = r"(breakfast|brunch|lunch|dinner|supper)"
#: A meal's name that is not the meal eaten ("for the lunch crowd", "the dinner menu").
_NOT_EATEN = r"(?!\s+(?:crowd|rush|menu|shift|service|customers)\b)"
_MEAL = re.compile(
    # eating it, or an event that is one: "eat lunch", "cook and eat dinner", "have a late breakfast",
    # "(Tom Moreno: host a community breakfast)"
    r"\b(?:eat|eats|eating|have|has|having|cook|cooks|cooking|grab|grabbing|enjoy|enjoying|host|hosts|hosting"
    r"|hold|holds|holding|throw|throws|throwing)\s+(?:(?:an?|the|some|my|our|their|his|her|one's|late|early|quick"
    rf"|light|big|potluck|community|family|\w+'s)\s+)*{_MEALS}\b{_NOT_EATEN}"
    # going for it: "go to Hobbs Cafe for breakfast", "go to Johnson Park for a potluck lunch"
    rf"|^go to\b.*\bfor\s+(?:an?\s+|the\s+)?(?:[\w'-]+\s+){{0,2}}?{_MEALS}\b{_NOT_EATEN}"
    # one's own event named by the meal: "a potluck lunch at Johnson Park"
    rf"|^(?:an?\s+|the\s+)?(?:[\w'-]+\s+){{0,2}}?{_MEALS}\s+at\b", re.I)


def meal_of(description: str) -> str | None:
    """The meal a plan block's persona eats in it ("breakfast", "brunch", "lunch", "dinner",
    "supper"), or None: "have a late breakfast at Hobbs Cafe" -> "breakfast", "go to Johnson Park
    for a potluck lunch" -> "lunch"; "cook soup for the lunch crowd", "open again after lunch" and
    "buy bread for breakfast" eat none."""
    found = _MEAL.search(description)
    return None if found is None else next(g for g in found.groups() if g).lower()


#: Verbs of getting an event ready: said of the event's own time, its block is the event
#: itself ("I am planning a Valentine's Day party ... from 5pm to 7pm": at 5pm the party is hosted).
PLANNING = frozenset({"plan", "organise", "organize", "arrange", "prepare"})


#: Acts whose object is the event made ("host a party", "put on a potluck") or performed ("play a
#: concert", "teach a class"): a guest goes to it, and does not play it.
MAKING = frozenset({"host", "hold", "throw", "give", "run", "have", "put", "play", "perform", "teach", "lead",
                    "present", "screen", "start", "launch"})
#: The determiner of a made event's noun, left off after the host's name ("Tom Moreno's bake sale").
_DETERMINER = re.compile(r"^(?:on\s+)?(?:a|an|the|their|one's|his|her)\s+(?=[\w'])", re.I)


def fact_block(fact: Fact, event: StatedEvent, me: str) -> str:
    """A plan block's words for an event read from its fact, never from the memory's words, in
    words a persona may say as they stand ("I'll be ...", "I need to ..."): "hold a bake sale at
    Johnson Park" (the persona's own: it is its subject or host); someone else's: "go to Tom
    Moreno's bake sale at Johnson Park" (an event made), "join Isabella Rodriguez at Hobbs Cafe to
    deep-clean the kitchen" (any other act), "go to Johnson Park for a circus" (a thing there is;
    its host's: "host a breakfast at Hobbs Cafe"); an event planned at its time (:data:`PLANNING`) is hosted then: "host a
    Valentine's Day party at Hobbs Cafe"."""
    where = event.place.rsplit(":", 1)[-1]
    where = f"the {where}" if where[:1].islower() else where  # "the common room", "Hobbs Cafe"
    who = fact.host or fact.subject
    act = act_phrase(fact, "")  # a plan is said of its persona, as a routine is: "their show"
    verb, _, thing = act.partition(" ")
    if verb in PLANNING and thing:  # "plan a party" at its time is holding it: the block is the party
        act, verb = f"host {thing}", "host"
    if fact.subject is None and verb == "be":  # "be a breakfast": the thing, hosted by its host
        return f"host {thing} at {where}" if who == me else f"go to {where} for {definite(thing)}"
    if who == me or fact.subject == me:
        return f"{act} at {where}"
    made = _DETERMINER.match(thing) if verb in MAKING else None
    if who and made:  # "host a Valentine's Day party": hers, and the guest goes to it
        return f"go to {who}'s {thing[made.end():]} at {where}"
    return f"join {who} at {where} to {act}" if who else f"go to {where} to {act}"


def fact_event(fact: Fact | None, places: dict[str, str]) -> StatedEvent | None:
    """The event a memory's fact states: its place (an address, or a place name of ``places``)
    and times (the end ``DEFAULT_MINUTES`` after the start when none is known); None when the
    fact has no place on the map or no start."""
    if fact is None or fact.place is None or fact.start is None:
        return None
    place = fact.place if ":" in fact.place else places.get(fact.place.lower())
    if place is None:
        return None
    end = fact.end if fact.end is not None and fact.end > fact.start else fact.start + timedelta(minutes=DEFAULT_MINUTES)
    return StatedEvent(place=place, start=fact.start, end=end)


def _created(value: str | datetime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def events_on(memories, day: date, places: dict[str, str], me: str = "") -> list[tuple[StatedEvent, tuple[int, ...]]]:
    """The events that ``memories`` state for ``day``, each with the ids of the memories stating it.

    Args:
        memories: records or views with ``id``, ``content``, ``created`` (datetime or ISO text)
            and ``fact``, in retrieval order.
        day: the plan's date.
        places: lower-case place name -> address (``town.textevent.place_names``).
        me: the persona's full name (whose own events another's word does not put off).

    Returns:
        (event, memory ids) in order of first mention; one entry per distinct place and time;
        none of an event a memory's cancellation, closure or move puts off (:meth:`Fact.undoes`),
        nor the cancellation or closure itself; a move states the event it moves where it
        now is (:func:`moved_to`).
    """
    found: dict[StatedEvent, list[int]] = {}
    off = called_off(memories, me)
    for m in memories:
        fact = getattr(m, "fact", None)
        if fact is not None and fact.moved:  # the event it moves, where it now is
            fact = moved_to(fact, memories, off, me)
        if fact is not None and (fact.cancelled or fact.closed or fact.moved or fact.done or put_off(fact, off, me)):
            continue
        # a memory made with its meaning is read from its fact; the words are read only for a
        # memory made without one (none, once every edge fills the fields)
        event = fact_event(fact, places) if fact is not None else find_event(m.content, _created(m.created), places)
        if event is not None and event.start.date() == day:
            found.setdefault(event, []).append(m.id)
    return [(e, tuple(ids)) for e, ids in found.items()]


def called_off(memories, me: str) -> list[Fact]:
    """The cancellations, closures and moves among ``memories``' facts (:attr:`Fact.cancelled`,
    :attr:`Fact.closed`, :attr:`Fact.moved`) that the persona named ``me`` believes: what puts
    events off (:meth:`Fact.undoes`, :func:`put_off`). One heard from another (a line, kind
    "chat", and its ``tellers``) is kept with its host set to who told it when it names none or
    names ``me`` ("Klaus told me that you called off your party": a rumour to its host), so that
    it never puts off ``me``'s own; a whispered thought or a sight told back is still first-hand.
    A cancellation or a move is not believed once the event's own host told it after
    (:func:`_told_since`)."""
    out = []
    for m in memories:
        f = getattr(m, "fact", None)
        if f is None or not (f.cancelled or f.closed or f.moved) or told_since(m, f, memories) is not None:
            continue
        kind = getattr(m, "kind", "chat")
        tellers = _teller_names(m) if getattr(kind, "value", kind) == "chat" else ()  # a thought of
        # one's own, told back by others, is still one's own
        out.append(replace(f, host=tellers[0]) if tellers and f.host in (None, me) else f)
    return out


def told_since(m, off: Fact, memories):
    """The memory of the event ``off`` (a cancellation or a move, memory ``m``) calls off that its
    own host (or doer) told after ``m`` was made, else None: Maria, told by Klaus that Isabella's
    party was cancelled, then invited to it by Isabella herself, believes Isabella."""
    if not (off.cancelled or off.moved):
        return None
    made = _created(m.created)
    for o in memories:
        f = getattr(o, "fact", None)
        if f is None or not off.calls_off(f) or _created(o.created) <= made:
            continue
        doer = f.host or f.subject
        if doer is not None and doer in _teller_names(o):
            return o
    return None


def _teller_names(m) -> list[str]:
    """Who told memory ``m`` (a record's ``(name, time)`` pairs, or a view's names), oldest first."""
    return [t if isinstance(t, str) else t[0] for t in getattr(m, "tellers", ())]


def put_off(fact: Fact, off: list[Fact], me: str) -> bool:
    """Whether ``fact``, an event, is put off for ``me`` by one of ``off`` (:func:`called_off`):
    another's word never puts off an event of ``me``'s own (its host or subject): the host knows
    ("Isabella called off her party", heard by Isabella, is a rumour to her)."""
    own = me in (fact.host, fact.subject)
    return any(c.undoes(fact) and (not own or c.host in (None, me)) for c in off)


def moved_to(move: Fact, memories, off: list[Fact], me: str) -> Fact | None:
    """The event a move (:attr:`Fact.moved`) among ``memories`` states: the first held event it
    moves (:meth:`Fact.moved_event`) that ``off`` (:func:`called_off`) puts off for ``me``, where
    it now is; the move itself when it names its place and start and moves no held event; else
    None (a move of an event not known, with no place: nothing to go to)."""
    believed = next((c for c in off if c.moved and c.act == move.act and c.start == move.start
                     and c.place == move.place), move)  # with its teller as its host
    for m in memories:
        f = getattr(m, "fact", None)
        if f is not None and believed.calls_off(f) and put_off(f, [believed], me):
            return believed.moved_event(f)
    return replace(move, moved=False) if move.place is not None and move.start is not None else None


def minutes_of(hm: str) -> int:
    """"HH:MM" (game time, "24:00" allowed) -> minutes since midnight."""
    h, m = hm.split(":")
    return int(h) * 60 + int(m)


def _span(event: StatedEvent, day: date) -> tuple[int, int]:
    """(start, end) of the event on ``day`` in minutes after midnight, each within 0-1440."""
    midnight = datetime.combine(day, time(0))
    start = int((event.start - midnight) / timedelta(minutes=1))
    end = int((min(event.end, midnight + timedelta(days=1)) - midnight) / timedelta(minutes=1))
    return min(max(start, 0), 24 * 60), min(max(end, 0), 24 * 60)


def with_events(blocks: list[dict], events: list[tuple[StatedEvent, str]], day: date) -> list[dict]:
    """``blocks`` (dicts with "start"/"end" "HH:MM", description, place, task) with each event cut in.

    Args:
        blocks: the day's blocks in time order.
        events: (event, description) pairs; later events win where they overlap earlier ones.
        day: the plan's date.

    Returns:
        New blocks in time order: the parts of ``blocks`` outside each event, and one block per
        event at its place (task None).
    """
    for event, description in events:
        e0, e1 = _span(event, day)
        merged = []
        for b in blocks:
            b0, b1 = minutes_of(b["start"]), minutes_of(b["end"])
            if b1 <= e0 or b0 >= e1:
                merged.append(b)
                continue
            if b0 < e0:
                merged.append({**b, "end": clock_text(e0)})
            if b1 > e1:
                merged.append({**b, "start": clock_text(e1)})
        merged.append(dict(start=clock_text(e0), end=clock_text(e1), description=description[:200],
                           place=event.place, task=None))
        blocks = sorted(merged, key=lambda b: minutes_of(b["start"]))
    return blocks


def block_evidence(block_place: str, start: datetime, end: datetime,
                   events: list[tuple[StatedEvent, tuple[int, ...]]]) -> list[int]:
    """Ids of the memories stating an event at (or under) ``block_place`` overlapping the block."""
    ids: list[int] = []
    for event, memory_ids in events:
        same_place = block_place == event.place or block_place.startswith(event.place + ":")
        if same_place and event.start < end and start < event.end:
            ids += [i for i in memory_ids if i not in ids]
    return ids
