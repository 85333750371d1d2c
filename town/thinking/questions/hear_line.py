"""A listener rates a line it just heard and says what it understood the line to state.

The question a listener is asked anyway when a line becomes its memory (the importance rating of
Park et al. 2023 §4.1) gains the fields of the statement, so that every backend fills a heard
memory's meaning without an extra request: a model reads the line in its own words; the scripted
backend answers from the speaker's dialogue act (``meant``), which no prompt shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.json_schema import SkipJsonSchema

from ...inflection import is_verb
from ...textevent import PART_STARTS
from ..schema import enum_at
from ..views import FactView
from .base import Question
from .checks import InvalidAnswer, own_words

__all__ = ["HeardAnswer", "HearLine", "HEARD_PATTERNS", "shape_heard", "act_is_a_verb"]

#: "YYYY-MM-DD HH:MM", or empty.
_STAMP = re.compile(r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2})?$")
#: A date without its clock time, "YYYY-MM-DD".
_DATE_ALONE = re.compile(r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$")
#: What a heard line's act and times may hold in a request's schema: an act in words (no digits),
#: a time in digits, " ", ":" and "-" (the portable patterns have no "either empty or a time"):
#: SmolLM2 wrote the act ",0.5," and the starts ",", "Hobbs Cafe" and "2023-12-06T09:48".
#: ``stated_times_valid`` still checks a time's form.
HEARD_PATTERNS = {"act": "^[A-Za-z ,'-]{0,60}$", "start": "^[0-9 :-]{0,16}$", "end": "^[0-9 :-]{0,16}$"}


def shape_heard(properties: dict[str, Any]) -> None:
    """Give a heard line's fields in a schema (``properties``, in place) :data:`HEARD_PATTERNS`."""
    for field, pattern in HEARD_PATTERNS.items():
        properties[field]["pattern"] = pattern


class HeardAnswer(BaseModel):
    """The line's poignancy 1-10 and what it states (empty strings where it does not say).

    ``act`` is a base-form verb phrase ("hold a vigil"), empty for a line that states nothing
    (a greeting); ``subject`` and ``host`` are full names of the town's people; ``place`` one of
    its places; ``start``/``end`` "YYYY-MM-DD HH:MM"; ``everyone``: an open invitation;
    ``invites_me``: the listener is invited; ``question``: the line asks it of the listener.
    ``part`` is not asked of a model (left out of the schema): the part of the day the speaker's
    dialogue act told the event by (:attr:`town.memory.fact.Fact.part`), which the scripted
    backend passes on; anything but a key of :data:`town.textevent.PART_STARTS` is "".
    ``cancelled``, ``closed``, ``moved`` and ``price``, not asked of a model either: the dialogue
    act told the event called off, the place closed, the event moved, or what it costs; ``done``,
    not asked either: it told the act as done (:attr:`town.memory.fact.Fact.done`); ``secret``, not
    asked: it was told in confidence (:attr:`town.memory.fact.Fact.secret`).
    """

    importance: int = Field(ge=1, le=10)
    act: str = Field(default="", max_length=120)
    subject: str = ""
    place: str = ""
    start: str = Field(default="", max_length=16)
    end: str = Field(default="", max_length=16)
    host: str = ""
    everyone: bool = False
    invites_me: bool = False
    question: bool = False
    part: SkipJsonSchema[str] = ""
    cancelled: SkipJsonSchema[bool] = False
    closed: SkipJsonSchema[bool] = False
    moved: SkipJsonSchema[bool] = False
    price: SkipJsonSchema[str] = ""
    done: SkipJsonSchema[bool] = False
    secret: SkipJsonSchema[bool] = False

    @field_validator("part")
    @classmethod
    def _a_part_of_the_day(cls, value: str) -> str:
        return value if value in PART_STARTS else ""

    @field_validator("start", "end")
    @classmethod
    def _no_clock_time_no_time(cls, value: str) -> str:
        """A date without its clock time ("2023-02-24") is read as "the line gives no clock time",
        the prompt's own rule for "" (SmolLM2 wrote a date alone in 9 of 16 answers, most of them
        dates no line had said): a time is kept only with its clock time."""
        return "" if _DATE_ALONE.match(value) else value


class _Given(BaseModel):
    """The fields of an answer that were given (not empty), for :func:`own_words`."""

    model_config = ConfigDict(extra="allow")


def own_words_where_given(q: HearLine, a: HeardAnswer, prompt: str) -> HeardAnswer:
    """:func:`own_words` on the fields given: an empty field says "the line does not say"."""
    own_words(q, _Given(**{k: v for k, v in a.model_dump().items() if v != ""}), prompt, fields=type(a).model_fields)
    return a


def stated_times_valid(q: HearLine, a: HeardAnswer, prompt: str) -> HeardAnswer:
    """Times are "YYYY-MM-DD HH:MM" or empty, and a time goes with a stated act."""
    for field in ("start", "end"):
        if not _STAMP.match(getattr(a, field)):
            raise InvalidAnswer(f"{field}: {getattr(a, field)!r} is not a time like '2023-02-14 17:00'")
    if (a.start or a.place) and not a.act.strip():
        raise InvalidAnswer("act: a time or place is given for no act")
    return a


def act_is_a_verb(q: HearLine, a: HeardAnswer, prompt: str) -> HeardAnswer:
    """The act, when given, is a verb phrase: its first word is a verb ("hold a vigil", "meet
    Klaus"). SmolLM2 wrote the acts "YES", "essential", "important" and "adulterine", which a
    heard memory would then have held as what was done.

    Raises:
        InvalidAnswer: naming the act.
    """
    words = re.findall(r"[A-Za-z']+", a.act)
    if words and words[0].lower() == "to":
        words = words[1:]
    if a.act.strip() and not (words and is_verb(words[0].lower())):
        raise InvalidAnswer(f"act: {a.act[:60]!r} is not a verb phrase (what is done)")
    return a


def names_known(q: HearLine, a: HeardAnswer, prompt: str) -> HeardAnswer:
    """Subject and host are among the town's people, the place among its places (or empty)."""
    for field, options in (("subject", q.names), ("host", q.names), ("place", q.places)):
        value = getattr(a, field)
        if value and value not in options:
            raise InvalidAnswer(f"{field}: {value!r} is not one of the {len(options)} offered")
    return a


@dataclass(frozen=True, kw_only=True)
class HearLine(Question[HeardAnswer]):
    """Rate a heard line 1-10 and say what it states (§4.1's rating, with the statement's fields).

    ``speaker_name`` said ``line`` at ``now`` ("YYYY-MM-DD HH:MM:SS"); ``content`` is the memory
    the line makes (what the scripted rule rates); ``names`` are the town's people the listener
    knows, ``places`` its place names; ``meant`` is the speaker's dialogue act, the content it
    put into words (a scripted speaker's; empty for a model's or a player's line), read by the
    scripted backend only.
    """

    template: ClassVar[str] = "hear_line"
    answer_model = HeardAnswer
    purpose: ClassVar[str] = "importance"
    checks = (own_words_where_given, stated_times_valid, act_is_a_verb, names_known)
    speaker_name: str
    line: str
    content: str
    now: str
    names: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    meant: tuple[FactView, ...] = ()

    def narrow(self, schema: dict[str, Any]) -> None:
        """Importance 1-10; subject and host among the names, place among the places, or empty;
        the act in words and the times in digits (:data:`HEARD_PATTERNS`)."""
        schema["properties"]["importance"] = {"type": "integer", "enum": list(range(1, 11))}
        shape_heard(schema["properties"])
        for field, options in (("subject", self.names), ("host", self.names), ("place", self.places)):
            enum_at(schema, (field,), ["", *options])
