"""What a scripted persona says in a conversation: greetings, news retold, reactions, goodbyes.

The lines of the scripted backend (:mod:`town.thinking.scripted`) come from the speaker's
retrieved memories alone: the best memory the listener has not heard from the speaker is passed
on (a heard one with who said it, relative days as the date they meant), news just heard gets a
reaction echoing it, and a goodbye names the speaker's next plan item when a retrieved plan says it.
"""

from __future__ import annotations

import random
import re
from datetime import datetime

from ..hearsay import HEARD, unwrap
from ..textevent import absolute_days

__all__ = [
    "NEWS_IMPORTANCE",
    "SHARE_PER_TALK",
    "PROMPTS",
    "first_name",
    "gist",
    "worth_telling",
    "small_talk",
    "reaction",
    "last_talk",
    "opening",
    "closing",
    "retell",
]

#: A memory worth passing on: this important or more (routine sights rate 1-3).
NEWS_IMPORTANCE = 5
#: Memories one speaker passes on in one conversation at most (then they react or say goodbye).
SHARE_PER_TALK = 2


def first_name(name: str) -> str:
    """The first word of ``name`` (how a persona addresses another)."""
    return name.split()[0] if name.strip() else name


def gist(text: str, limit: int = 120) -> str:
    """The innermost statement of a (possibly retold) memory, cut at ``limit`` characters."""
    text = re.sub(r"^I talked with [^:]+: ", "", text)
    text = unwrap(text)[1].strip().rstrip(".")
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def worth_telling(memories, listener_name: str = "", own_name: str = "") -> list:
    """Memories worth telling, best first.

    Important, not a plan, reflection or summary, not naming the listener (news about someone
    is not news to them), not what the speaker saw themselves doing; ranked by importance and
    retrieval order (the views arrive best-scored first).
    """
    n = len(memories)
    fresh = [(m.importance / 10 + (n - i) / max(n, 1), m) for i, m in enumerate(memories)
             if m.importance >= NEWS_IMPORTANCE and m.kind not in ("plan", "reflection")
             and not m.content.startswith("I talked with")
             and not (listener_name and listener_name in m.content)
             and not (own_name and m.content.startswith(own_name))]
    return [m for _, m in sorted(fresh, key=lambda s: (-s[0], s[1].id))]


_GREETINGS = ("Hi {first}!", "Hey {first}, good to see you.", "Oh, hello {first}!",
              "Got a minute, {first}?", "Morning, {first}.", "Hello there, {first}.")
#: Asking for news (``{first}``: the listener's first name, ``{since}``: see :func:`last_talk`).
PROMPTS = ("Good to see you too, {first}. What's new{since}?", "Hi {first}! Any news{since}?",
           "Oh hi {first}, what have you been up to{since}?", "Hey {first}. Anything new{since}?")
_REACTIONS = ("Really, {first}? ", "Oh, I had no idea: ", "Thanks for telling me, {first}: ",
              "Good to know: ", "Wow, {first}: ")
_CLOSINGS = ("Anyway, I should get going.", "I'd better get back to it.", "Take care, {first}.",
             "See you around, {first}.", "Let's catch up again soon.", "I have to run, bye {first}!")


def small_talk(line: str, first: str) -> bool:
    """Whether ``line`` (said to ``first``) is a greeting, a reaction or a goodbye, not news."""
    starts = tuple(t.format(first=first, since="").split(first)[0] or t.format(first=first, since="")
                   for t in _GREETINGS + PROMPTS + _REACTIONS + _CLOSINGS)
    return line.startswith(starts) and " told me: " not in line and "Did you hear?" not in line \
        and not line.startswith("I ")


def reaction(first: str, heard: str, rng: random.Random) -> str:
    """A reply to news just heard, echoing its first words."""
    said = gist(re.sub(r"^.*?(Did you hear\? )", "", heard), 60)
    return _REACTIONS[rng.randrange(len(_REACTIONS))].format(first=first) + f"“{said}”?"


def _about(name: str, memories) -> list:
    """Retrieved memories about ``name``, newest first: not plans, not the speaker's own feelings."""
    first = first_name(name)
    about = [m for m in memories if first in m.content and m.kind != "plan"
             and not m.content.startswith(("I ", "I'"))]
    return sorted(about, key=lambda m: (m.created, m.id), reverse=True)


def last_talk(name: str, memories) -> str:
    """" since we talked at 10:03" when a retrieved summary of a talk with ``name`` says when."""
    talks = [m for m in _about(name, memories) if m.content.startswith(f"I talked with {name}")]
    return f" since we talked at {talks[0].created[11:16]}" if talks and talks[0].created else ""


def opening(first: str, name: str, memories, rng: random.Random) -> str:
    """A greeting plus a remark drawn from the newest retrieved memory about the listener."""
    greeting = _GREETINGS[rng.randrange(len(_GREETINGS))].format(first=first)
    about = _about(name, memories)
    if not about:
        return f"{greeting} I don't think we've met properly yet."
    m = next((m for m in about if not gist(m.content).startswith(("I ", "I'"))), None)
    if m is None:
        return f"{greeting} How are you doing?"
    seen = re.match(rf"^{re.escape(name)} is (?P<doing>.+?)\.?$", m.content)
    if seen:
        doing = seen.group("doing")
        if doing.split(" ", 1)[0].endswith("ing"):
            return f"{greeting} Are you still {doing}?"
        if doing.startswith("my "):
            return f"{greeting} Always nice to run into {doing}."
    last = re.match(rf"^I talked with {re.escape(name)}(?:: (?P<topic>.+))?$", m.content, re.S)
    if last:
        topic = last.group("topic")
        when = m.created[11:16] if m.created else "last time"
        if topic and name not in topic and first not in topic:
            return f"{greeting} I keep thinking about what we said at {when}: {gist(topic, 80)}."
        return f"{greeting} We last talked at {when}, didn't we?"
    if m.kind == "reflection":
        return f"{greeting} I've been thinking about you lately."
    return f"{greeting} I remember that {_lower(gist(m.content, 90))}."


def _lower(text: str) -> str:
    return text if text[:2] in ("I ", "I'") else text[:1].lower() + text[1:]


def closing(first: str, memories, rng: random.Random) -> str:
    """A goodbye, with the speaker's next plan item when a retrieved plan names one.

    "Next" is after the newest retrieved memory's time (the latest moment the speaker recalls).
    """
    goodbye = _CLOSINGS[rng.randrange(len(_CLOSINGS))].format(first=first)
    plans = sorted((m for m in memories if m.kind == "plan" and m.created), key=lambda m: m.created)
    if plans:
        latest = max(m.created for m in memories if m.created)
        items = [i.strip() for i in plans[-1].content.partition(": ")[2].split(";") if i.strip()]
        later = [i for i in items if i[:5] > latest[11:16] and plans[-1].created[:10] == latest[:10]]
        if later:
            return f"{goodbye} Next on my list: {later[0]}."
    return goodbye


def retell(m) -> str:
    """Say a memory aloud.

    Own first-person memories as they are, heard ones with who said them, sights as news;
    relative days become the absolute date the memory meant.
    """
    text = absolute_days(m.content, datetime.fromisoformat(m.created)) if m.created else m.content
    if text.startswith(("I ", "I'")) or HEARD.match(text):
        return text
    return f"Did you hear? {text}"
