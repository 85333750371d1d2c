"""Say the next line of a conversation, grounded in retrieved memories (Park et al. 2023 §4.3.2)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..schema import ids_among
from ..views import MemoryView, PlanItemView
from .base import Question
from .character import speaks_as_itself
from .checks import WORDS, InvalidAnswer, ids_shown, own_words
from .sense import LINE_PATTERN, not_copied

__all__ = ["LineAnswer", "NextLine", "shared_ids_shown", "speaks", "shares_in_words"]

#: A chat line opening with a memory id ("7: ...", "7. ...", "[7] ...").
_RECITED = re.compile(r"^\s*\[?\d+\]?\s*[:.)-]\s")


class LineAnswer(BaseModel):
    """The next utterance; ``shared`` cites the memory ids whose content it passes on."""

    line: str = Field(min_length=1, max_length=1000, json_schema_extra={"sentences": 2})  # "one or two sentences"
    shared: list[int] = Field(default_factory=list)
    end: bool = False


def shared_ids_shown(q: NextLine, a: LineAnswer, prompt: str) -> LineAnswer:
    """The ids ``shared`` are among the memories shown (``memories`` or ``topics``)."""
    ids_shown(a.shared, (m.id for m in (*q.memories, *q.topics)), "shared")
    return a


def speaks(q: NextLine, a: LineAnswer, prompt: str) -> LineAnswer:
    """The line speaks: it does not recite a memory id ("7: Klaus Mueller is ...")."""
    if _RECITED.match(a.line):
        raise InvalidAnswer(f"line: {a.line[:60]!r} recites a memory id instead of speaking")
    return a


def shares_in_words(q: NextLine, a: LineAnswer, prompt: str) -> LineAnswer:
    """A line that shares memories says something (three words or more)."""
    if a.shared and len(WORDS.findall(a.line.lower())) < 3:
        raise InvalidAnswer(f"shared: ids {a.shared} on a line that says nothing ({a.line!r})")
    return a


@dataclass(frozen=True, kw_only=True)
class NextLine(Question[LineAnswer]):
    """Say the next line of a conversation, grounded in retrieved memories (§4.3.2).

    ``told`` lists memory ids already passed on to this listener (never repeat them); ``now``
    is the game time of the line ("YYYY-MM-DD HH:MM:SS", the clock a person reads). ``recalled``
    is the whole retrieval for the partner's last line (memories told before or heard from the
    partner included: "what's my name?" is answered from what they said, and news the speaker
    holds already is met as known, not as news).
    ``routine`` is the speaker's own file's routine and ``places`` the map's addresses (as
    :class:`~.plan_day.PlanDay` carries them, with its ``attend_seed``): an invitation is decided
    as the day plan decides it. ``stranger``: the speaker does not know the listener's name (not
    one of the town's people, and no memory but a sighting names them): it is not said.
    ``topics``: the speaker's own life as retrieved for this partner, place and hour (what it
    did, saw, plans and thinks; not yet told to this listener), for lines past the greeting.
    ``said_today``: the lines this speaker already said to this listener today (none is said again).
    ``ties``: the speaker's file's relationships, (full name, description: "my wife, a painter");
    ``pronouns``: the town's people's pronouns, (full name, "she"): news of them is said with
    them, as an interview's answer is.
    """

    template: ClassVar[str] = "next_line"
    answer_model = LineAnswer
    purpose: ClassVar[str] = "chat"
    checks = (own_words, shared_ids_shown, speaks, speaks_as_itself, shares_in_words, not_copied)
    listener: str
    listener_name: str
    history: tuple[tuple[str, str], ...] = ()
    memories: tuple[MemoryView, ...] = ()
    told: tuple[int, ...] = ()
    max_lines: int = 8
    now: str = ""
    recalled: tuple[MemoryView, ...] = ()
    routine: tuple[PlanItemView, ...] = ()
    places: tuple[str, ...] = ()
    attend_seed: int = 0
    stranger: bool = False
    topics: tuple[MemoryView, ...] = ()
    said_today: tuple[str, ...] = ()
    ties: tuple[tuple[str, str], ...] = ()
    pronouns: tuple[tuple[str, str], ...] = ()

    def narrow(self, schema: dict[str, Any]) -> None:
        """``shared`` cites shown memories not yet told to this listener; the line is words, one
        or two sentences (:data:`.sense.LINE_PATTERN`)."""
        ids_among(schema["properties"]["shared"], [m.id for m in self.memories if m.id not in self.told])
        schema["properties"]["line"]["pattern"] = LINE_PATTERN
