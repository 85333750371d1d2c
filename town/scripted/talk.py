"""What a scripted persona says in a conversation: one dialogue act per line, from retrieval.

A line is one act (Park et al. 2023 §4.3.2, the lines grounded in what the speaker retrieved):
greet (fitting the time of day and what the speaker recalls of the pair's last talk; someone
who says who they are is met by name), answer a question in the partner's line, react to news or an invitation
(:mod:`town.scripted.reply`), tell the best retrieved memory the listener has not
heard from the speaker (one level of hearsay, days said relative to now), invite to an event
the speaker plans, ask for news, or close naming a plan item still ahead (as
soon as the partner takes leave). Someone the speaker has never met (``stranger``) is greeted
without a name, the speaker giving its own. Every line is said
in the speaker's own words; none quotes the partner's line.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from collections.abc import Sequence
from datetime import datetime

from ..hearsay import NAME, unwrap
from ..mind.weigh import NEWS
from ..perspective import mine, shared_run
from ..player import takes_leave
from ..textevent import stated_day, stated_times
from ..world.objects import act_of
from ..thinking import answers
from ..thinking.dayplan import called_off, put_off, told_since
from ..thinking.questions.write_conversation import echoes
from ..thinking.questions.writing import mostly_english
from ..thinking.words import topic_words
from .recount import is_about
from .topics import own_life
from .voice import (CLOSINGS, GREETING_ANY_HOUR, GREETINGS_AGAIN, GREETINGS_AGAIN_TODAY, GREETINGS_KNOWN, GREETINGS_NEW,
                    LAST_GOODBYE, WARM_TRAITS, Voice, address_once, hello, part_of_day)
from .reply import (
    answer_question,
    first_name,
    is_question,
    plan_items,
    react,
    reply_to_invite,
    retell,
)

__all__ = ["NEWS_IMPORTANCE", "SHARE_PER_TALK", "first_name", "gist", "worth_telling", "sighting",
           "greeting", "CLOSINGS", "closing", "retell", "next_line", "plan_items"]

#: A memory worth passing on: this important or more (routine sights rate 1-3); a fact told to one
#: as news is rated this at least (:data:`town.mind.weigh.NEWS`), so it is passed on in turn.
NEWS_IMPORTANCE = NEWS
#: Memories one speaker passes on in one conversation at most (then they react or say goodbye).
SHARE_PER_TALK = 2

#: A routine sighting: someone at a place, or doing there what one does (the observation's words).
_SIGHTING = re.compile(NAME + r" is (?:(?:at|in|out)\b|\w+ing\b.* at the [\w ]+(?: of the| in) |"
                       r"(?:sleeping|eating|walking|resting|idle)\b)", re.S)


def gist(text: str, limit: int = 120) -> str:
    """The statement of a (possibly heard) memory, cut at ``limit`` characters."""
    text = re.sub(r"^I talked with [^:]+: ", "", text)
    text = unwrap(text)[1].strip().rstrip(".")
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def sighting(text: str) -> bool:
    """Whether a memory's statement is a routine sighting ("Maria Lopez is at the desk ...")."""
    return bool(_SIGHTING.match(unwrap(text)[1]))


def under_way(m, now: datetime | None) -> bool:
    """Whether a memory states an event that has begun by ``now``: its day (read on the memory's
    creation, :func:`town.textevent.stated_day`) and first clock time are not after ``now``, or
    the day it names is already past; its fact's start when it has one (a closure: its end, the
    day's end without one: "closed until Friday" is news while it lasts). False when it states no
    day, or ``now`` is unknown."""
    if now is None or not m.created:
        return False
    fact = getattr(m, "fact", None)
    if fact is not None and fact.closed and fact.start is not None:  # a closure is news until it is over
        return (fact.end or datetime.combine(fact.start.date(), datetime.max.time())) <= now
    if fact is not None and fact.start is not None:  # its meaning, where the memory keeps it
        return fact.start <= now
    day = stated_day(m.content, datetime.fromisoformat(m.created))
    if day is None:
        return False
    times = stated_times(m.content)
    return day < now.date() or (times is not None and datetime.combine(day, times[0]) <= now)


def worth_telling(memories, listener_name: str = "", own_name: str = "", now: datetime | None = None) -> list:
    """Memories worth telling, best first.

    Important, not a plan, reflection, summary, question (asked, or one's own fact a question) or
    quoted line (what someone said, no
    fact understood: it is not passed on), not a routine sighting (someone at their place,
    eating, walking: not news), not an event already under way at ``now`` (the
    party at 5pm is no news at 18:00), not naming the listener (news about someone is not
    news to them) nor heard from them, not what the speaker saw themselves doing (an observation
    of oneself; one's own event, however it was put, is news), not in another language than the
    town's (:func:`~town.thinking.questions.writing.mostly_english`: a Chinese whisper was retold as
    "Did you hear? 明天中午..."), not an event a held cancellation calls off, not told in
    confidence (:attr:`~town.memory.fact.Fact.secret`: "don't tell anyone"); ranked by
    importance and retrieval order (the views arrive best-scored first). An event for named guests
    alone ("invite only Klaus to a private dinner") is told to those guests only, naming them or not.
    """
    n = len(memories)
    off = called_off(memories, own_name)  # "the quiz is cancelled": the quiz is no news, its cancellation is
    fresh = [(m.importance / 10 + (n - i) / max(n, 1), m) for i, m in enumerate(memories)
             if m.importance >= NEWS_IMPORTANCE and m.kind not in ("plan", "reflection")
             and not m.content.startswith("I talked with") and " asked me: " not in m.content
             and " said to me: " not in m.content
             and not sighting(m.content) and not under_way(m, now)
             and not (listener_name and (listener_name in m.content or is_about(m.content, first_name(listener_name))
                                         or first_name(listener_name) in unwrap(m.content)[0])
                      and not (m.fact is not None and listener_name in m.fact.invited))  # one's guest is asked
             and not (m.fact is not None and m.fact.invited and not m.fact.open_invitation
                      and listener_name not in m.fact.invited)  # for its named guests alone
             and not (own_name and m.kind == "observation" and m.content.startswith(own_name))
             and mostly_english(unwrap(m.content)[1])
             and not (m.fact is not None and (m.fact.question or m.fact.secret or put_off(m.fact, off, own_name)
                                              or told_since(m, m.fact, memories) is not None))]  # a thought whispered
    # in another language is not retold; a question one wondered is no news ("is the party on Friday? I heard it was")
    return [m for _, m in sorted(fresh, key=lambda s: (-s[0], s[1].id))]


def _now(q) -> datetime | None:
    return datetime.fromisoformat(q.now) if q.now else None


def _talks(name: str, memories) -> list:
    """Retrieved summaries of talks with ``name``, newest first."""
    return sorted((m for m in memories if m.content.startswith(f"I talked with {name}") and m.created),
                  key=lambda m: (m.created, m.id), reverse=True)


def _knows(name: str, memories) -> bool:
    return any(name in m.content or first_name(name) in unwrap(m.content)[0] for m in memories)


def _part_of_day(now: datetime | None) -> str:
    return part_of_day(now.hour if now else 12)


def _hello(now: datetime | None) -> str:
    return hello(now.hour if now else 12)


def greeting(first: str, name: str, memories, now: datetime | None, rng: random.Random) -> str:
    """A greeting that fits the hour and what the speaker recalls of the pair.

    "Good morning" from 05:00, "Good afternoon" from 12:00, "Good evening" from 17:00, "Hi" in
    the small hours; "again" only after a recalled talk (today: "Hello again"); when nothing of
    the listener is recalled, no claim about the pair's history at all (retrieval may miss a
    talk long ago).
    """
    part = _part_of_day(now)
    hi = _hello(now)
    talks = _talks(name, memories)
    if talks:
        last = datetime.fromisoformat(talks[0].created)
        if now and last.date() == now.date():
            return rng.choice(GREETINGS_AGAIN_TODAY).format(first=first)
        since = "yesterday" if now and (now.date() - last.date()).days == 1 else f"{last:%A}"
        return rng.choice(GREETINGS_AGAIN).format(hello=hi, first=first, since=since)
    # no claim about the pair's history for one not recalled
    options: tuple[str, ...] = GREETINGS_KNOWN if _knows(name, memories) else GREETINGS_NEW
    if not part:
        options = tuple(GREETING_ANY_HOUR if "{part}" in g else g for g in options)
    return rng.choice(options).format(hello=hi, first=first, part=part)


#: Minutes ahead a plan item may start and still be the reason given for leaving now.
LEAVE_FOR_MINUTES = 120


def closing(first: str, memories, now: datetime | None, rng: random.Random, said: Sequence[str] = ()) -> str:
    """A goodbye naming the speaker's next plan item when a retrieved plan for today has one
    starting within :data:`LEAVE_FOR_MINUTES` that no line ``said`` in the conversation so far
    holds all the words of, either side's (no echo; else the item after it); lunch at noon is no
    reason to leave at 08:11."""
    goodbye = CLOSINGS[rng.randrange(len(CLOSINGS))].format(first=first)
    clock = now.hour * 60 + now.minute if now else 0
    ahead = [(t, what) for t, what in plan_items(memories, now)
             if now and 0 < int(t[:2]) * 60 + int(t[3:5]) - clock <= LEAVE_FOR_MINUTES
             and not re.search(rf"\b{re.escape(first)}\b", what)]  # not "a surprise party for Klaus" to Klaus
    for t, item in ahead:
        what = mine(act_of(item))  # a routine's words, one's own voice: "play my piano piece", not "their"
        if not any(topic_words(what) <= topic_words(line) for line in said):
            return f"{goodbye} I need to {what} at {t}."
    return goodbye


def _invite(m, me: str = "", listener: str = "") -> str:
    """An invitation added to telling one's own plan for an event ("Would you like to come?"): the
    memory's fact has ``me`` as its subject and a start, and is open to ``listener`` (not private,
    or they are its guest), or (no fact) its words announce it."""
    fact = getattr(m, "fact", None)
    if fact is not None:
        own = fact.subject == me or (fact.subject is None and fact.host == me)
        return " Would you like to come?" if m.kind != "plan" and own and fact.start and not fact.done \
            and (not fact.private or listener in fact.invited) else ""
    if m.kind != "plan" and re.match(r"^I(?:'m| am) (?:planning|throwing|hosting|organi[sz]ing)\b", m.content):
        return " Would you like to come?"
    return ""


#: "I am Ada", "I'm Ada", "my name is Ada": someone saying who they are (the name is checked apart).
_INTRODUCES = re.compile(r"\b(?:I am|I'm|my name is|call me)\s+([A-Z][\w'-]*)")


def met(last: str, first: str) -> str:
    """"Nice to meet you, Ada! " when ``last`` is the listener, ``first``, saying who they are, else ""."""
    found = _INTRODUCES.search(last)
    return f"Nice to meet you, {first}! " if found and found.group(1) == first else ""


#: Lines of a talk (after the greeting) on which a speaker with no news tells of its own life;
#: later ones close (each line costs a retrieval: talks of eight lines made a game day 1.6 times as long).
OWN_LIFE_TURNS = 2

#: Draws of a line's choices before a line said to this listener today is given up on.
_TRIES = 6


def next_line(q) -> answers.LineAnswer:
    """The scripted answer to a NextLine question (see the module's docstring for the acts).

    A line already said to this listener today (``q.said_today``), sharing six words in a row
    with the partner's last line (one frame of hearsay answering another), or echoing a line of the
    conversation (:func:`~town.thinking.questions.write_conversation.echoes`, the whole exchange's
    own check) is drawn again with the next seeds; when every draw repeats, the conversation ends
    with a goodbye not said today. An answer to a question may repeat a line: it was asked for.
    """
    last = q.history[-1][1] if q.history else ""
    asks = is_question(last)  # an answer may say again what was said: it was asked for
    lead = met(last, first_name(q.listener_name)) if q.history else ""
    said = set(q.said_today)
    for k in range(_TRIES):
        answer = _next_line(q, q.seed + 7919 * k)
        line = address_once((lead + answer.line)[:1000], "" if q.stranger else first_name(q.listener_name))
        if line not in said and not shared_run(line, last) \
                and (asks or not any(echoes(line, before) for _, before in q.history)):  # nor an echo of a line
            return answer.model_copy(update={"line": line})
    rng = random.Random(q.seed)
    first = first_name(q.listener_name)
    goodbyes = [g for g in (closing(first, q.memories, _now(q), rng) for _ in range(_TRIES)) if g not in said]
    return answers.LineAnswer(line=goodbyes[0] if goodbyes else LAST_GOODBYE.format(first=first),
                              end=True)


def _voice(q, rng: random.Random) -> Voice:
    """The speaker's voice to this listener: its traits, and whether the pair has talked before."""
    return Voice(rng=rng, warm=bool(WARM_TRAITS.search(q.persona_summary)),
                 close=bool(_talks(q.listener_name, q.memories)), first="" if q.stranger else first_name(q.listener_name))


def _next_line(q, seed: int) -> answers.LineAnswer:
    rng = random.Random(seed)
    voice = _voice(q, rng)
    now = _now(q)
    first = first_name(q.listener_name)
    told = set(q.told)
    turn = len(q.history)
    lines = [line for _, line in q.history]
    last = lines[-1] if lines else ""
    news = [m for m in worth_telling(q.memories, q.listener_name, q.persona_name, now)
            if m.id not in told and not shared_run(retell(m, now, q.persona_name), last)]
    if len(told) >= SHARE_PER_TALK:
        news = []
    if turn == 0 and q.stranger:  # a newcomer: no name to greet by, so one's own
        return answers.LineAnswer(line=f"{_hello(now)}! I don't think we've met. I'm {first_name(q.persona_name)}.")
    if turn == 0:
        return answers.LineAnswer(line=greeting(first, q.listener_name, q.memories, now, rng)[:1000])
    ending = turn + 1 >= q.max_lines
    reply = reply_to_invite(last, q, now, voice)
    if reply is None and is_question(last):
        reply = answer_question(last, q, now, news, voice, own=lambda: own_life(q, now, voice))
    if reply is not None:
        return reply.model_copy(update={"end": ending})
    if takes_leave(last):  # the partner takes leave (a player: a persona's goodbye ends the talk)
        return answers.LineAnswer(line=closing(first, q.memories, now, rng, lines)[:1000], end=True)
    if not ending:
        reaction = react(last, q, now, voice)
        if reaction is not None and news and len(reaction.line.split()) <= 6:  # react, then tell
            unnamed = replace(voice, first="")  # the reaction named the listener already
            said = (f"{reaction.line} {retell(news[0], now, q.persona_name, unnamed, ties=q.ties, pronouns=q.pronouns)}"
                    f"{_invite(news[0], q.persona_name, q.listener_name)}")
            return answers.LineAnswer(line=said[:1000], shared=[news[0].id])
        if reaction is not None:
            return reaction
        if news:
            return answers.LineAnswer(line=(retell(news[0], now, q.persona_name, voice, ties=q.ties, pronouns=q.pronouns)
                                            + _invite(news[0], q.persona_name, q.listener_name))[:1000],
                                      shared=[news[0].id])
        mine = own_life(q, now, voice) if turn <= OWN_LIFE_TURNS else None
        if mine is not None:  # no news: one's own life, asking back on the first turn
            if turn <= 2:
                return mine.model_copy(update={"line": f"{mine.line} {voice.ask(_part_of_day(now))}"[:1000]})
            return mine
        if turn == 1:
            return answers.LineAnswer(line=voice.ask(_part_of_day(now)))
    return answers.LineAnswer(line=closing(first, q.memories, now, rng, lines)[:1000], end=True)
