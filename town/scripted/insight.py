"""Scripted reflection: insights drawn from what two or more retrieved memories share (Park et al. 2023 §4.2).

An insight is one sentence about a person, a place, an activity or an event, resting on at least
:data:`MIN_SUPPORT` retrieved memories that support it, and citing them:

- a person seen at one place in two or more sightings: "I see Carmen at Hobbs Cafe most
  mornings: 3 times so far, first at 08:10" (what one observer saw: its count and first time; a
  habit only from sightings on two days or more, else "I see Carmen at Hobbs Cafe today: ...");
- a place where two or more people were each seen on two occasions or more (sightings over
  :data:`_ONE_VISIT_MINUTES` apart), none of them one's household (:func:`.attend.household`
  of the file's ties), nor at one's home: "Hobbs Cafe is where I keep running into Maria and Klaus";
- an event heard of in two or more memories: "Isabella's party tomorrow is what everyone is
  talking about: Klaus and Maria told me" (two or more tellers), "Maria keeps telling me about Isabella's party" (one);
- talk with a person (talks had, or their words about themselves) in two or more memories
  from two talks or more (memories minutes apart are of one talk) sharing a topic word told in
  two talks: "Maria and I keep ending up talking about the paper" (the two words most shared:
  "about the paper and the library"). A topic word is a noun (lemminflect) standing after a
  determiner in a statement that tells something ("a Valentine's Day party"), no word of a
  person's or a many-word place's name; small talk ("Sounds lovely, I'll come"), questions and
  contractions tell none;
- the persona's own activity in two or more memories: "I have been reading a lot lately";
- the guests seen at one's own event once it has begun (its fact's place, from its start to its
  end): "Maria and Klaus came to my Valentine's Day party" (the event's memory and a sighting).

Nothing is an insight that rests on one memory, or that lists words. The text reads only the
memories' content and creation times, the names of the town's people and places (as the mind
knows them), and the clock; a heard memory is read through :func:`town.hearsay.unwrap`.
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from datetime import datetime, timedelta

from ..hearsay import unwrap
from ..inflection import base_form, gerund
from ..inflection import lemmas
from ..textevent import DEFAULT_MINUTES, find_event, place_names
from .attend import household
from .naming import event_noun
from .stance import event_noun as fact_noun
from .recount import told_by
from .voice import opens_small_talk
from ..thinking.words import content_words, name_words

__all__ = ["MIN_SUPPORT", "HABIT_DAYS", "insights_from"]

#: The fewest memories an insight rests on.
MIN_SUPPORT = 2

#: Words that are no topic of talk: talking itself, the calendar, the clock.
_NO_TOPIC = frozenset("""talked told said did hear want like really just also everyone welcome day today tomorrow tonight
morning afternoon evening week time close open opens closes every january february march april may june
july august september october november december monday tuesday wednesday thursday friday saturday sunday
2023 2024 5pm 7pm way lot bit thing things""".split())
_DAY_WORDS = re.compile(r" (today|tomorrow|on [A-Z]\w+day)\b")
_TALKED = re.compile(r"^I talked with (?P<who>[^:]+?)(?::|$)")
#: A talk's summary quoting its partner's line: 'I talked with Ann Lee: Ann said "..."'.
_QUOTED = re.compile(r'^I talked with [^:]+: (?:\w+ said ")?(?P<said>.*?)"?$')
#: What a noun stands after, at most two words before it ("a Valentine's Day party", "his paper").
_DETERMINER = r"\b(?:the|a|an|my|your|his|her|their|our|its|this|that|these|those|some)\s+(?:[\w']+\s+){0,2}?"


def _part_of_day(times: list[datetime]) -> str:
    hours = sorted(t.hour for t in times)
    h = hours[len(hours) // 2]
    return "mornings" if h < 12 else "afternoons" if h < 17 else "evenings"


def _when(day: datetime, now: datetime) -> str:
    delta = (day.date() - now.date()).days
    return "today" if delta == 0 else "tomorrow" if delta == 1 else f"on {day:%A}"


def _sectors(places: tuple[str, ...]) -> list[str]:
    return sorted({a.split(":")[1] for a in places if a.count(":") == 1}, key=lambda s: (-len(s), s))


def _sightings(memories, people, me, sectors):
    """(person, sector, memory) of each memory whose text opens with a person seen at a sector."""
    out = []
    for m in memories:
        if unwrap(m.content)[0] or m.kind != "observation":
            continue
        who = next((p for p in people if m.content.startswith(p + " ") and p != me), None)
        where = next((s for s in sectors if s in m.content), None)
        if who and where:
            out.append((who, where, m))
    return out


#: Days on which someone is seen somewhere before a habit is claimed ("most mornings").
HABIT_DAYS = 2


def _person_at_place(sightings, now: datetime) -> list[tuple[str, list]]:
    """"I see Carmen at Hobbs Cafe most mornings: 3 times so far, first at 08:10" when the
    sightings fall on :data:`HABIT_DAYS` days or more; sightings of one day claim no habit, they
    say the day: "I see Carmen at Hobbs Cafe today: 2 times so far, first at 08:10" ("on Monday"
    for a day before ``now``'s)."""
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for who, where, m in sightings:
        groups[(who, where)].append(m)
    out = []
    for (who, where), ms in groups.items():
        times = [_created(m) for m in ms]
        times_seen = _occasions(ms, _ONE_VISIT_MINUTES)  # sightings of one visit are one time
        if times_seen < MIN_SUPPORT:
            continue
        habit = len({t.date() for t in times}) >= HABIT_DAYS
        day = max(times)
        when = f"most {_part_of_day(times)}" if habit else "today" if day.date() == now.date() else f"on {day:%A}"
        seen = f"I see {who.split()[0]} at {where} {when}"
        out.append((f"{seen}: {times_seen} times so far, first at {min(times):%H:%M}.", ms))
    return out


#: Sightings of one person at one place within this many game minutes of the one before are of
#: one visit (perception notes someone again as their action changes).
_ONE_VISIT_MINUTES = 60


def _place(sightings) -> list[tuple[str, list]]:
    """"Hobbs Cafe is where I keep running into Maria and Klaus": two people or more, each seen
    there on :data:`MIN_SUPPORT` occasions or more (:data:`_ONE_VISIT_MINUTES` apart)."""
    groups: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for who, where, m in sightings:
        groups[where][who].append(m)
    out = []
    for where, by_whom in groups.items():
        seen = {who: ms for who, ms in by_whom.items() if _occasions(ms, _ONE_VISIT_MINUTES) >= MIN_SUPPORT}
        if len(seen) >= MIN_SUPPORT:
            firsts = [w.split()[0] for w in list(seen)[:3]]
            said = " and ".join([", ".join(firsts[:-1]), firsts[-1]]) if len(firsts) > 1 else firsts[0]
            out.append((f"{where} is where I keep running into {said}.", [m for ms in seen.values() for m in ms]))
    return out


def _events(memories, now: datetime, places: dict[str, str]) -> list[tuple[str, list]]:
    """One insight per event (what it is called, where, when) that two or more memories state."""
    groups: dict[tuple[str, str, datetime], list] = defaultdict(list)
    hosts: dict[tuple[str, str, datetime], str] = {}
    for m in memories:
        said = re.sub(r"^I talked with [^:]+: ", "", unwrap(m.content)[1])
        noun = event_noun(said)
        found = find_event(said, _created(m), places) if noun else None
        if noun is None or found is None or found.start < now:
            continue
        key = (noun, found.place, found.start)
        heard = unwrap(m.content)[0]  # the host: who said it first, in the first person
        if heard and re.match(r"^I\b", said):
            hosts.setdefault(key, heard[-1].split()[0])
        groups[key].append((m, told_by(m.content)[:1]))
    out = []
    for key, items in groups.items():
        if len(items) < MIN_SUPPORT:
            continue
        noun, _, start = key
        what = f"{hosts[key]}'s {noun} {_when(start, now)}" if key in hosts else f"the {noun} {_when(start, now)}"
        tellers = {s[0] for _, s in items if s}
        ms = [m for m, _ in items]
        if len(tellers) >= 2:  # who told it: the same event is a different insight for each listener
            firsts = sorted(t.split()[0] for t in tellers)
            who = f"{', '.join(firsts[:-1])} and {firsts[-1]}"
            out.append((f"{what[0].upper() + what[1:]} is what everyone is talking about: {who} told me.", ms))
        elif tellers:
            out.append((f"{next(iter(tellers)).split()[0]} keeps telling me about {what}.", ms))
        else:
            out.append((f"{what[0].upper() + what[1:]} keeps coming back to me.", ms))
    return out


def _guests(memories, sightings, me: str, now: datetime) -> list[tuple[str, list]]:
    """"Maria and Klaus came to my Valentine's Day party": those seen at the place of an event of
    one's own (its fact's host or subject) between its start (passed) and its end."""
    out = []
    for m in memories:
        f = m.fact
        if f is None or f.start is None or f.place is None or me not in (f.host, f.subject) \
                or f.cancelled or f.closed or f.start > now or ":" not in f.place:
            continue
        end = f.end or f.start + timedelta(minutes=DEFAULT_MINUTES)
        sector = f.place.split(":")[1]
        seen = [(who, s) for who, where, s in sightings if where == sector and f.start <= _created(s) <= end]
        firsts = list(dict.fromkeys(who.split()[0] for who, _ in seen))[:3]
        noun = fact_noun(f).removeprefix("the ")
        if not firsts or not noun:
            continue
        said = " and ".join([", ".join(firsts[:-1]), firsts[-1]]) if len(firsts) > 1 else firsts[0]
        came = "came" if end <= now else "have come" if len(firsts) > 1 else "has come"
        out.append((f"{said} {came} to my {noun}.", [m, *(s for _, s in seen)]))
    return out


def _one_phrase(words: list[str], texts: list[str]) -> str:
    """The phrase of at most four words in which two topic words stand together in one of
    ``texts`` ("valentine", "party" in "... a Valentine's Day party at ..." -> "Valentine's Day
    party"), as written; "" when they never do (two topics) or there is one word."""
    if len(words) < 2:
        return ""
    a, b = (re.escape(w) for w in words)
    for text in texts:
        found = re.search(rf"\b(?:{a}[\w']*(?:\s+[\w']+){{0,2}}?\s+{b}\w*|{b}[\w']*(?:\s+[\w']+){{0,2}}?\s+{a}\w*)\b",
                          text, re.I)
        if found:
            return found.group(0)
    return ""


def _told(content: str) -> str:
    """The statements of a talk's memory that tell something: its quoted or heard words
    (:data:`_QUOTED`, :func:`unwrap`) less the sentences that ask or open as small talk."""
    talked = _QUOTED.match(content)
    said = talked.group("said") if talked else unwrap(content)[1]
    sentences = re.split(r"(?<=[.!?])\s+", said.strip())
    return " ".join(x for x in sentences if not x.rstrip('"').endswith("?") and not opens_small_talk(x))


def is_topic(word: str, texts: list[str]) -> bool:
    """Whether ``word`` is a noun (lemminflect) standing as one, after a determiner, in one of ``texts``."""
    return "NOUN" in lemmas(word) and any(re.search(rf"{_DETERMINER}{re.escape(word)}\b", t, re.I) for t in texts)


def _talks(memories, people, me, places) -> list[tuple[str, list]]:
    groups: dict[str, list] = defaultdict(list)
    for m in memories:
        talked = _TALKED.match(m.content)
        tellers = unwrap(m.content)[0]  # heard: only what they said of themselves, not a retelling
        who = talked.group("who") if talked else (tellers[0] if len(tellers) == 1 else None)
        if who is not None and who in people and who != me:
            groups[who].append(m)
    out = []
    # no word of a name: "the Crown Pub" is a piece of "The Rose and Crown Pub"
    skip = name_words(people) | _NO_TOPIC | {w for n in place_names(places) if " " in n for w in content_words(n)}
    for who, ms in groups.items():
        if _talks_had(ms) < MIN_SUPPORT:  # "keep ending up": two talks, not two memories of one
            continue
        told = {m.id: _told(m.content) for m in ms}
        counts: dict[str, list] = defaultdict(list)
        for m in ms:
            for w in content_words(told[m.id]) - skip:
                counts[w].append(m)
        shared = sorted((w for w, xs in counts.items() if _talks_had(xs) >= MIN_SUPPORT
                         and is_topic(w, [told[m.id] for m in xs])), key=lambda w: (-len(counts[w]), w))
        if shared:
            topics = [w if w.endswith("ing") else f"the {w}" for w in shared[:2]]  # "streaming": no article
            phrase = _one_phrase(shared[:2], list(told.values()))
            if phrase:  # "the party and the valentine" are one thing: "the Valentine's Day party"
                topics = [f"the {phrase}"]
            cited = list(dict.fromkeys(counts[shared[0]] + (counts[shared[1]] if len(shared) > 1 else [])))
            wording = _TALK_WORDINGS[zlib.crc32(f"{me}|{who}".encode()) % len(_TALK_WORDINGS)]  # each pair its own
            out.append((wording.format(who=who.split()[0], topics=" and ".join(topics)), cited))
    return out


#: How an insight of talks had is worded, one wording per pair of people (by a checksum of both
#: names, so a run reads the same each time): a town of 25 would otherwise say one sentence over.
_TALK_WORDINGS = ("{who} and I keep ending up talking about {topics}.",
                  "Whenever {who} and I talk, we end up on {topics}.",
                  "{who} and I always seem to get onto {topics}.")


#: Memories made within this many game minutes of each other are of one talk (a talk of eight
#: lines lasts under three).
_ONE_TALK_MINUTES = 10


def _talks_had(ms) -> int:
    """How many talks the memories ``ms`` come from: those made within :data:`_ONE_TALK_MINUTES`
    of the one before are of the same talk (the line heard and the talk's summary)."""
    return _occasions(ms, _ONE_TALK_MINUTES)


def _occasions(ms, minutes: int) -> int:
    """How many occasions the memories ``ms`` come from: one made within ``minutes`` game minutes
    of the one before is of the same occasion."""
    times = sorted(_created(m) for m in ms)
    return sum(1 for i, t in enumerate(times) if i == 0 or (t - times[i - 1]).total_seconds() > 60 * minutes)


def _activities(memories, me) -> list[tuple[str, list]]:
    groups: dict[str, list] = defaultdict(list)
    for m in memories:
        found = re.match(r"^I (\w+)\b", m.content) or re.match(rf"^{re.escape(me)} is [^:]*: (\w+)\b", m.content)
        if found and m.kind in ("observation", "chat") and not unwrap(m.content)[0]:
            verb = base_form(found.group(1))
            if verb not in ("be", "have", "talk", "want", "think", "know", "see", "hear"):
                groups[verb].append(m)
    return [(f"I have been {gerund(verb)} a lot lately.", ms) for verb, ms in groups.items() if len(ms) >= MIN_SUPPORT]


def _created(m) -> datetime:
    return m.created if isinstance(m.created, datetime) else datetime.fromisoformat(m.created)


def _claim(text: str) -> frozenset[str]:
    """The topic words of what an insight claims: its words before ": " (what follows is its
    support: "3 times so far, first at 08:10", who told it), days left out."""
    return content_words(_DAY_WORDS.sub("", text.split(": ", 1)[0]))


def insights_from(memories, *, me: str, people: tuple[str, ...], places: tuple[str, ...], now: datetime,
                  subject: str = "", ties=(), home: str = "") -> list[tuple[str, list[int]]]:
    """Every insight the memories support, as (sentence, evidence ids), best first.

    Args:
        memories: retrieved views (``id``, ``content``, ``kind``, ``importance``, ``created``).
        me: the persona's full name; people: the town's people it knows of; places: map addresses.
        now: the game time of the reflection (days are said relative to it).
        subject: the focal point; insights naming one of its words come first.
        ties: the persona file's relationships, (full name, description: "my son, who ..."); its
            household (kin, housemates) is never someone one keeps running into.
        home: the sector of one's home: who is seen there lives there or visits, met by no chance.

    Returns:
        Insights, those mentioning ``subject``'s words first, then by support and importance;
        none that a retrieved reflection already says, in any words (:func:`thought`).
    """
    people = tuple(p for p in people if p)
    kin = household(ties)
    sightings = [s for s in _sightings(memories, people, me, _sectors(places)) if s[0] not in kin and s[1] != home]
    found = (_events(memories, now, place_names(places)) + _person_at_place(sightings, now) + _talks(memories, people, me, places)
             + _place(sightings) + _activities(memories, me) + _guests(memories, sightings, me, now))
    held = [_claim(m.content) for m in memories if m.kind == "reflection"]

    def thought(text: str) -> bool:
        """Held already, in other words: four in five of the shorter claim's topic words are shared
        ("... most mornings" held, "... most afternoons: 3 times" is not new; nor "... today: 2 times")."""
        words = _claim(text)
        return any(len(words & h) >= 0.8 * max(1, min(len(words), len(h))) for h in held)
    topic = content_words(subject) | {w.lower() for w in re.findall(r"[A-Z]\w+", subject)}

    def rank(item):
        text, ms = item
        return (not topic & content_words(text), -len(ms), -sum(m.importance for m in ms))

    out, seen = [], set()
    for text, ms in sorted(found, key=rank):
        if not thought(text) and text not in seen:
            seen.add(text)
            out.append((text, [m.id for m in ms]))
    return out
