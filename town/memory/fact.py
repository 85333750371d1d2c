"""What a memory states, as its persona understood it when the memory was made.

A :class:`Fact` is filled once, where the memory is made, from what was perceived: a scripted
speaker's dialogue act, the listener's own model's reading of a model-written line, or typed text
read at its edge (a whisper, a player's line, a persona file). Nothing reads a stored memory's
English back to find these: the record keeps them. :class:`PlanItem` is one block of a plan,
:class:`Decided` a plan's decision whether to go to an event, with its reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from town.errors import MemoryStreamError
from town.memory.times import format_time, parse_time
from town.textevent import DEFAULT_MINUTES, PART_STARTS

__all__ = ["Fact", "PlanItem", "Decided", "FactKey", "tellers_to_list", "tellers_from_list"]

#: ``(subject, act, place, start)``: two facts with equal keys are "the same fact".
FactKey = tuple[str | None, str, str | None, datetime | None]


def _optional_time(value: object, field: str) -> datetime | None:
    return None if value is None else parse_time(str(value), field=field)


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)


#: Words of an act, and the articles a cancellation's thing is matched without.
_THING_WORDS = re.compile(r"[a-z0-9][a-z0-9'’-]*")
_ARTICLES = frozenset(("a", "an", "the", "this", "that", "tonight's", "today's", "tomorrow's", "one's"))


def _bare(word: str) -> str:
    """A word without its possessive or plural ending, as typed either way: "valentines",
    "valentine's" -> "valentine"; "isabellas" -> "isabella"."""
    word = re.sub(r"['’]s$|['’]$", "", word)
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@dataclass(frozen=True, kw_only=True)
class Fact:
    """A statement's meaning, in the understanding of the persona holding the memory.

    Attributes:
        subject: who does it: a full name from the roster, or the persona's own (None: nobody
            in particular, e.g. "the cafe closes early").
        act: base-form verb phrase, e.g. "throw a Valentine's Day party" (non-empty).
        place: a map address, e.g. "the_ville:Hobbs Cafe", or a place's name as heard.
        start, end: game datetimes, absolute (never "tomorrow").
        host: the host or organiser's full name.
        invited: names, or ``("everyone",)`` for an open invitation.
        question: asked (a question put to the persona), not stated.
        part: the part of the day an event was told by, with no clock time ("on Saturday
            morning": "morning"; "day" for a day named alone), a key of
            :data:`town.textevent.PART_STARTS`; ``start`` is then that part's usual start, and
            the event is said by its part, never by that clock time. None: its times were said.
        cancelled: the event told is called off ("the karaoke night at the pub tonight is
            cancelled"): what it names, its place and day where said, is not on
            (:meth:`calls_off`).
        closed: the place is closed (act "close"): from ``start`` to ``end`` (else the day's
            end), all that day when ``part`` is "day" ("Hobbs Cafe will be closed all day
            tomorrow", "The Willows Market is closing early on Tuesday at 3pm"); no one works,
            shops or meets there then (:meth:`closes`).
        moved: the event told is moved to ``start`` (or to ``place``; "the quiz moved from
            Tuesday to Thursday at 8pm", "Isabella has moved her party to Wednesday"): a held
            event its act names at another time or building is off (:meth:`calls_off`), and
            held where this says instead (:meth:`moved_event`).
        price: what it costs, as said ("$5", "ten dollars", "$2 each", "free"), else None.
        done: the act is told as done before it was told ("Klaus sold his bike", "I've
            finished my paper", "I just adopted a kitten"): said in the past tense
            (:func:`town.realise.statement`), not as what its subject does.
        secret: told in confidence ("don't tell anyone", "Secret - ...", "between us"): its
            holder does not pass it on (:func:`town.scripted.talk.worth_telling`).

    Raises:
        MemoryStreamError: naming ``fact.act`` when it is empty, ``fact.end`` when it is
            before ``start``, or ``fact.part`` when it is no part of the day or has no start.
    """

    subject: str | None = None
    act: str
    place: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    host: str | None = None
    invited: tuple[str, ...] = ()
    question: bool = False
    part: str | None = None
    cancelled: bool = False
    closed: bool = False
    moved: bool = False
    price: str | None = None
    done: bool = False
    secret: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.act, str) or not self.act.strip():
            raise MemoryStreamError(f"fact.act: must be a non-empty verb phrase, got {self.act!r}")
        if self.start is not None and self.end is not None and self.end < self.start:
            raise MemoryStreamError(f"fact.end: {self.end} is before its start {self.start}")
        if self.part is not None and (self.part not in PART_STARTS or self.start is None):
            raise MemoryStreamError(f"fact.part: must be one of {', '.join(PART_STARTS)} with a start, got {self.part!r}")
        for name in ("cancelled", "closed", "moved", "done", "secret"):
            if not isinstance(getattr(self, name), bool):
                raise MemoryStreamError(f"fact.{name}: must be true or false, got {getattr(self, name)!r}")
        if self.closed and (self.place is None or self.start is None):
            raise MemoryStreamError("fact.closed: a closure needs its place and its start")
        if self.price is not None and not (0 < len(self.price) <= 40 and self.price.strip() == self.price):
            raise MemoryStreamError(f"fact.price: must be 1-40 characters as said, got {self.price!r}")
        if self.moved and (self.cancelled or self.closed or self.start is None and self.place is None):
            raise MemoryStreamError("fact.moved: a move needs a start or a place, and is no cancellation or closure")
        object.__setattr__(self, "invited", tuple(self.invited))

    def key(self) -> FactKey:
        """``(subject, act, place, start)``: what makes two memories one fact (the act compared
        without case or surrounding spaces)."""
        return (self.subject, " ".join(self.act.lower().split()), self.place, self.start)

    def event_key(self) -> tuple:
        """What makes two facts one event: ``(place, start)`` when both are known (however its
        doer and act were worded: "Isabella hosts a party" and "there is a Valentine's Day party",
        both at Hobbs Cafe at 5pm), else :meth:`key`."""
        return (self.place, self.start) if self.place is not None and self.start is not None else self.key()

    def calls_off(self, other: Fact) -> bool:
        """Whether this fact, a cancellation or a move, calls off the event ``other`` states:
        ``other`` is neither, and this one's thing (its act's words after "be", or its act's)
        are all words of ``other``'s act ("the quiz" calls off "there is a pub quiz", "the
        Valentine's Day party" Isabella's "host a Valentine's Day party"). A cancellation calls
        it off at its place's building and on its day where it says them; a move, where ``other``
        is at another time or building than it is moved to (:meth:`moved_event`)."""
        if not (self.cancelled or self.moved) or other.cancelled or other.moved or other.start is None:
            return False
        building = self.place is not None and other.place is not None \
            and self.place.split(":")[:2] != other.place.split(":")[:2]
        if self.moved:
            at = self.start is None or (self.start.date() == other.start.date() if self.part == "day"
                                        else self.start == other.start)  # "moved to Wednesday": that day
            if not building and at:
                return False  # where and when it already is
        elif building or self.start is not None and self.start.date() != other.start.date():
            return False
        thing = [_bare(w) for w in _THING_WORDS.findall(self.act.lower().removeprefix("be ")) if w not in _ARTICLES]
        doers = " ".join(n.split()[0] for n in (other.host, other.subject) if n)  # "isabella's party"
        named = {_bare(w) for w in _THING_WORDS.findall(f"{other.act} {doers}".lower())}
        return bool(thing) and all(w in named for w in thing)

    def moved_event(self, other: Fact) -> Fact:
        """The event ``other`` states where this move puts it (:meth:`calls_off` true): its
        doer, act and host, at this one's start (its own length kept, else this one's end; at
        its own hour when this says a day alone, "moved to Wednesday") and place where this
        says them, else its own."""
        if self.start is None:
            return replace(other, place=self.place or other.place)
        length = other.end - other.start if other.end is not None and other.start is not None else None
        if self.part == "day" and other.start is not None:  # "moved to Wednesday": at its own hour
            start, part = datetime.combine(self.start.date(), other.start.time()), other.part
        else:
            start, part = self.start, self.part
        return replace(other, place=self.place or other.place, start=start, part=part,
                       end=start + length if length is not None else self.end if part is None else None)

    def placed(self, held: Sequence[Fact]) -> Fact:
        """This move as its holder understands it from the events it holds (``held``, oldest
        first), by the newest held event it moves: its host (its doer) where the move names none;
        where it names no place or no time, or a day alone ("I've moved my party to Wednesday",
        "the party is moving to Johnson Park"), that event's place and hours where this says
        none (:meth:`moved_event`). Else as it is."""
        target = next((f for f in reversed(held) if self.calls_off(f)), None) if self.moved else None
        if target is None:
            return self
        host = self.host or target.host or target.subject
        if self.start is not None and self.place is not None and self.part != "day":
            return replace(self, host=host)
        event = self.moved_event(target)
        return replace(self, place=event.place, start=event.start, end=event.end, part=event.part, host=host)

    def closes(self, place: str, start: datetime, end: datetime) -> bool:
        """Whether this fact, a closure, closes ``place`` (an address at or under its own: the
        library closed, not the rest of the college) for any of ``start``-``end``: the whole
        of its day when told by the day ("closed all day tomorrow") or by its morning ("will
        close tomorrow morning": before the morning's usual 10:00 too), else from its start to
        its end or that day's end ("closing early at 3pm")."""
        if not self.closed or self.place is None or self.start is None:
            return False
        shut_place = self.place.split(":")
        if place.split(":")[:len(shut_place)] != shut_place:
            return False
        day = datetime.combine(self.start.date(), datetime.min.time())
        shut = day if self.part in ("day", "morning") else self.start  # "closed tomorrow morning": from its start
        reopens = self.end if self.end is not None and self.part != "day" else day + timedelta(days=1)
        return start < reopens and shut < end

    def frees(self, description: str, place: str, start: datetime, end: datetime) -> bool:
        """Whether this fact leaves a routine block (``description`` at the address ``place``,
        ``start`` to ``end``) with nothing to do: a closure of its place then (:meth:`closes`), or
        a cancellation of what the block does (:meth:`calls_off`: "the town council session on
        Tuesday is cancelled" frees Tuesday's "attend the town council session")."""
        if self.closed:
            return self.closes(place, start, end)
        return self.cancelled and self.calls_off(Fact(act=description, place=place, start=start, end=end))

    def undoes(self, other: Fact) -> bool:
        """Whether this fact puts off the event ``other`` states: a cancellation calling it off
        (:meth:`calls_off`), or a closure of its place while it is on (:meth:`closes`; its end,
        else :data:`~town.textevent.DEFAULT_MINUTES` after its start)."""
        if self.calls_off(other):
            return True
        if not self.closed or other.closed or other.cancelled or other.place is None or other.start is None:
            return False
        return self.closes(other.place, other.start, other.end or other.start + timedelta(minutes=DEFAULT_MINUTES))

    @property
    def open_invitation(self) -> bool:
        """Everyone is invited."""
        return "everyone" in self.invited

    @property
    def private(self) -> bool:
        """An appointment of its doer with their own someone ("meet with one's thesis advisor"), or
        an event for its named guests alone ("invite only Klaus to a private dinner"): open to no
        one else, not an event others are asked to, told of or go to."""
        return bool(self.invited) and not self.open_invitation or not self.invited and " with one's " in f" {self.act} "

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (datetimes as ``"YYYY-MM-DD HH:MM:SS"``)."""
        return {
            "subject": self.subject,
            "act": self.act,
            "place": self.place,
            "start": None if self.start is None else format_time(self.start),
            "end": None if self.end is None else format_time(self.end),
            "host": self.host,
            "invited": list(self.invited),
            "question": self.question,
            "part": self.part,
            "cancelled": self.cancelled,
            "closed": self.closed,
            "moved": self.moved,
            "price": self.price,
            "done": self.done,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Fact:
        """Inverse of :meth:`to_dict`.

        Raises:
            MemoryStreamError: naming the ``fact.`` field that is missing or malformed.
        """
        if not isinstance(d, Mapping) or "act" not in d:
            raise MemoryStreamError(f"fact: must be a mapping with an 'act', got {d!r}")
        invited = d.get("invited") or ()
        if isinstance(invited, str) or not isinstance(invited, Sequence):
            raise MemoryStreamError(f"fact.invited: must be a list of names, got {invited!r}")
        return cls(
            subject=_optional_text(d.get("subject")),
            act=str(d["act"]),
            place=_optional_text(d.get("place")),
            start=_optional_time(d.get("start"), "fact.start"),
            end=_optional_time(d.get("end"), "fact.end"),
            host=_optional_text(d.get("host")),
            invited=tuple(str(n) for n in invited),
            question=bool(d.get("question", False)),
            part=_optional_text(d.get("part")),
            cancelled=d.get("cancelled", False),  # checked in __post_init__
            closed=d.get("closed", False),
            moved=d.get("moved", False),
            price=_optional_text(d.get("price")),
            done=d.get("done", False),
            secret=d.get("secret", False),
        )


@dataclass(frozen=True, kw_only=True)
class PlanItem:
    """One block of a plan memory.

    Attributes:
        start, end: game datetimes of the block.
        description: what the persona does then, e.g. "go to Hobbs Cafe for the party".
        place: the block's map address, if it has one.
    """

    start: datetime
    end: datetime
    description: str
    place: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"start": format_time(self.start), "end": format_time(self.end),
                "description": self.description, "place": self.place}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlanItem:
        """Inverse of :meth:`to_dict`.

        Raises:
            MemoryStreamError: naming the ``plan_items`` field that is missing or malformed.
        """
        try:
            return cls(start=parse_time(d["start"], field="plan_items.start"),
                       end=parse_time(d["end"], field="plan_items.end"),
                       description=str(d["description"]), place=_optional_text(d.get("place")))
        except (KeyError, TypeError) as exc:
            raise MemoryStreamError(f"plan_items: malformed item {d!r} ({exc})") from None


@dataclass(frozen=True, kw_only=True)
class Decided:
    """A day plan's decision about an event retrieval brought back (``town.scripted.attend``).

    Attributes:
        place: the event's map address. start, end: its game datetimes.
        go: whether the persona goes. reason: why, one first-person clause ("I am free then",
            "I have to serve customers at Hobbs Cafe until 20:00").
        evidence: ids of the persona's memories stating the event.
    """

    place: str
    start: datetime
    end: datetime
    go: bool
    reason: str
    evidence: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {"place": self.place, "start": format_time(self.start), "end": format_time(self.end),
                "go": self.go, "reason": self.reason, "evidence": list(self.evidence)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decided:
        """Inverse of :meth:`to_dict`.

        Raises:
            MemoryStreamError: naming the ``decisions`` field that is missing or malformed.
        """
        try:
            return cls(place=str(d["place"]), start=parse_time(d["start"], field="decisions.start"),
                       end=parse_time(d["end"], field="decisions.end"), go=bool(d["go"]),
                       reason=str(d["reason"]), evidence=tuple(int(i) for i in d.get("evidence") or ()))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, MemoryStreamError):
                raise
            raise MemoryStreamError(f"decisions: malformed item {d!r} ({exc})") from None


def tellers_to_list(tellers: Sequence[tuple[str, datetime]]) -> list[list[str]]:
    """``((name, when), ...)`` -> ``[[name, "YYYY-MM-DD HH:MM:SS"], ...]``."""
    return [[name, format_time(when)] for name, when in tellers]


def tellers_from_list(items: Sequence[Sequence[Any]]) -> tuple[tuple[str, datetime], ...]:
    """Inverse of :func:`tellers_to_list`.

    Raises:
        MemoryStreamError: naming ``tellers`` for an item that is not ``[name, time]``.
    """
    out = []
    for item in items:
        if isinstance(item, str) or len(item) != 2:
            raise MemoryStreamError(f"tellers: each must be [name, time], got {item!r}")
        out.append((str(item[0]), parse_time(item[1], field="tellers")))
    return tuple(out)
