"""What a scripted persona talks about when it has no news: its own life, from retrieval.

The conversation retrieves the speaker's own life for this partner, this place and this hour
(``NextLine.topics``: what it did, saw, plans and thinks). From those memories (and the ones
retrieved for the partner's line) a line takes one topic, in this order of preference:

- an event under way where the speaker is (a retrieved fact whose start has passed and whose
  end has not): the event and its host;
- an insight (a reflection) not about the listener;
- the next item still ahead in today's plan;
- the speaker's work, from its file.

A topic already said to this listener today is skipped (``NextLine.said_today``), and one that
shares six words in a row with the partner's last line (an echo); an insight
said is cited (``shared``), so it is never told to the same person twice.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ..inflection import gerund
from ..perspective import PRONOUNS, mine, shared_run
from ..realise import place_name
from ..thinking import answers
from .reply import _WORK_WORDS, _self_line, first_name, plan_items
from .stance import event_noun
from .voice import Voice

__all__ = ["own_life", "event_now"]

#: An event with no stated end is taken to last this long.
_EVENT_HOURS = 2


def event_now(memories, now: datetime | None):
    """The first memory whose fact is an event under way at ``now`` (start passed, end not), or
    None; a closure or a cancellation is no event to be at."""
    if now is None:
        return None
    for m in memories:
        f = m.fact
        if f is not None and f.start is not None and f.place and not f.question and not f.closed and not f.cancelled \
                and f.start <= now < (f.end or f.start + timedelta(hours=_EVENT_HOURS)):
            return m
    return None


def _at_event(m, me: str, voice: Voice, listener: str = "", pronouns=()) -> str:
    """A line at an event under way (memory ``m``'s fact): its host thanks the guest; a guest
    praises it or its host, the host by their pronoun (``pronouns``: (full name, "she")), or as
    "you" when the host is the ``listener`` (a full name)."""
    f = m.fact
    noun = event_noun(f) or "the event"  # "this Valentine's Day party", "this deep-cleaning of the kitchen"
    what = f"this {noun.removeprefix('the ')}"
    host = f.host or f.subject
    by = first_name(host) if host and host != me else ""
    here = place_name(f.place)
    own = host == me
    options = ([f"I'm so glad you came to {what}", f"Thanks for coming to {what}",
                f"It means a lot that you're here at {here}"] if own else
               [f"Isn't {what} lovely", f"I'm glad I came to {what}",
                (f"You really outdid yourself with {what}" if host == listener else
                 f"{by} really outdid {PRONOUNS[dict(pronouns).get(host, 'they')][4]} with {what}")
                if by else f"What a turnout at {here}",
                f"So many people came to {here} tonight" if f.start and f.start.hour >= 17
                else f"So many people came to {here}"])
    line = voice.pick(*options)
    return voice.say(line) if not line.startswith("Isn't") else f"{line}{voice.name()}?"


def own_life(q, now: datetime | None, voice: Voice) -> answers.LineAnswer | None:
    """A line about the speaker's own life (see the module docstring), or None when nothing is
    left that was not said to this listener today."""
    said = set(q.said_today)
    told = set(q.told)
    pool = [m for m in (*q.topics, *q.memories) if m.id not in told]
    listener = first_name(q.listener_name)
    candidates: list[tuple[str, list[int]]] = []
    event = event_now(pool, now)
    if event is not None:
        candidates.append((_at_event(event, q.persona_name, voice, q.listener_name, q.pronouns), []))
    for m in pool:
        if m.kind == "reflection" and listener not in m.content:
            insight = m.content.rstrip(".")
            lead = voice.pick("I've been thinking: ", "Something I've noticed: ", "Here's what I realised: ",
                              "It struck me lately: ")
            candidates.append((f"{lead}{insight[:1].upper()}{insight[1:]}.", [m.id]))
            break
    ahead = [(t, what) for t, what in plan_items(pool, now)
             if now and t > f"{now:%H:%M}" and not re.search(rf"\b{re.escape(listener)}\b", what)  # not to whom it is for
             and not what.startswith("stay home instead of ")]  # no "I still have to stay home instead of ..."
    for t, what in ahead[:2]:
        act = mine(what)
        candidates.append((voice.pick(voice.say(f"Later I'm going to {act} at {t}"),
                                      voice.say(f"I still have to {act} at {t}"),
                                      voice.say(f"At {t} I'll be {gerund(act)}")), []))
    work = _self_line(q, _WORK_WORDS, "", without=listener)  # not "... across the hall from Klaus Mueller" to Klaus
    if work:
        body = work.rstrip(".")
        candidates.append((voice.pick(voice.say(f"Work keeps me busy: {body}"),
                                      voice.say(f"Things are busy as usual. {body}")), []))
    last = q.history[-1][1] if q.history else ""
    for line, ids in candidates:
        if line not in said and not shared_run(line, last):  # no echo of the partner's line
            return answers.LineAnswer(line=line[:1000], shared=ids)
    return None
