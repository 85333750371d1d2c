"""What the scripted mind calls an event that a memory without a fact states.

A memory made with its meaning names its event in its fact's act (``town.thinking.dayplan.fact_block``);
these read the words of a memory made without one (an older kind of record), for the scripted
mind alone: the engine and the checks on model answers never call them.
"""

from __future__ import annotations

import re

from ..textevent import StatedEvent

__all__ = ["event_noun", "event_block"]

#: The nouns an event is commonly called by, with the capitalised words before one
#: ("Valentine's Day party").
_EVENT = re.compile(r"\b((?:[A-Z][\w']*\s)*(?:(?!(?:a|an|the|my|our|his|her)\s)[a-z-]+\s)?(?:party|night|dinner|concert|meeting|festival|fair|"
                    r"market|show|game|games|reading|lecture|talk|club|match|picnic|celebration|"
                    r"exhibition|quiz|session|workshop|tournament|walk|gathering))\b")


def event_noun(text: str) -> str | None:
    """The event a sentence names, with the capitalised words before it ("Valentine's Day party")."""
    found = _EVENT.search(text)
    return found.group(1).strip() if found else None


def event_block(event: StatedEvent, statement: str) -> str:
    """A plan block's words for going to ``event``: "go to Hobbs Cafe for the Valentine's Day party".

    Only the event's place and what the statement calls it; never the statement's own words.
    """
    noun = event_noun(statement)
    where = event.place.rsplit(":", 1)[-1]
    return f"go to {where} for the {noun}" if noun else f"go to {where}"
