"""A memory said back in the persona's own voice: heard words retold one level deep.

Used by the scripted interview answers and reactions (:mod:`town.scripted.interview`,
:mod:`town.scripted.reaction`). A heard memory is read through :func:`town.hearsay.unwrap`
and said one level deep, whatever the chain: heard from Isabella through Maria, "I am planning a
party" is recounted "Maria Lopez told me that Isabella is planning a party" (the first person of
whoever said it first becomes their first name, :func:`town.perspective.third_person`). Saying a
persona file's sentences in the first person is :func:`town.perspective.own_voice`.
"""

from __future__ import annotations

import re
from datetime import datetime

from ..hearsay import unwrap
from ..perspective import third_person
from ..textevent import absolute_days

__all__ = ["is_about", "told_by", "recount", "sentence", "dated", "main_words", "WORK_WORDS"]

#: Words of a sentence (a persona file's, a relationship's) that say what someone does for work.
WORK_WORDS = frozenset("work works worked job owns own runs run manages study studies student teach teaches "
                       "retired".split())


def main_words(text: str) -> set[str]:
    """The lower-case words of a sentence's main clause: those before its first relative pronoun
    ("He cares about the shops and the people who run them" -> no "run": the running is
    others')."""
    return set(re.findall(r"[a-z]+", re.split(r"\b(?:who|whom|whose|which|that)\b", text.lower())[0]))


def dated(m) -> str:
    """A memory view's text with its relative days ("tomorrow") as the dates they meant when it
    was made (:func:`town.textevent.absolute_days` on its ``created``)."""
    return absolute_days(m.content, datetime.fromisoformat(m.created)) if m.created else m.content


def sentence(text: str) -> str:
    """``text`` stripped, its first letter upper-case, ending with a full stop if it has none."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def told_by(content: str) -> list[str]:
    """Who passed a memory on, outermost first: a heard line's chain (:func:`town.hearsay.unwrap`),
    or the partner of a talk summary ("I talked with Maria Lopez: ..." -> ["Maria Lopez"]); [] if neither."""
    talked = re.match(r"^I talked with ([^:]+):", content)
    return [talked.group(1)] if talked else unwrap(content)[0]


def is_about(content: str, first: str) -> bool:
    """Whether a memory tells something of the person called ``first``: it names them in what was
    said or seen, or is a talk with them. Being only in the chain of who passed news on is not."""
    talked = re.match(r"^I talked with ([^:]+):", content)
    if talked:
        return talked.group(1).split()[0] == first or first in content[talked.end():]
    chain, said = unwrap(content)
    if chain and chain[-1].split()[0] == first and re.match(r"^I\b", said):
        return True  # what they said of themselves
    return bool(re.search(rf"\b{re.escape(first)}\b", said))


def recount(content: str, me: str = "") -> str:
    """A memory's text as the persona ``me`` says it: hearsay one level deep, the rest as remembered.

    The persona's own plan ("Ann Able's plan for ...") is "My plan for ...".

    'Maria Lopez told me: "Isabella Rodriguez told me: "I am planning a party""' -> "Maria Lopez
    told me that Isabella is planning a party."; heard from the one who said it, it stays quoted:
    'Isabella Rodriguez told me: "I am planning a party."'. A memory already kept in the
    listener's words ('Maria Lopez told me that Isabella is planning a party', :func:`town.hearsay.told`)
    is said as kept: quoting it would put the listener's third person in the speaker's mouth.
    """
    talked = re.match(r"^I talked with ([^:]+): (I\b.*)$", content, re.S)
    if talked:  # a talk summary in the partner's words: theirs, quoted once
        return f'I talked with {talked.group(1)}, who told me: "{sentence(talked.group(2))}"'
    speakers, said = unwrap(content)
    if not speakers:
        if me and content.startswith(f"{me}'s plan for "):
            content = "My" + content[len(me) + 2:]
        return sentence(content)
    if content.startswith(f"{speakers[0]} told me that "):  # stored in my words already
        return sentence(content)
    said = said.strip().rstrip(".")
    if len(speakers) == 1:
        return f'{speakers[0]} told me: "{sentence(said)}"'
    return sentence(f"{speakers[0]} told me that {third_person(said, speakers[-1].split()[0])}")
