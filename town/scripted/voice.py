"""A scripted persona's voice: a few phrasing rules with alternatives, one chosen per line.

Each rule (a lead-in, a way to pass on what someone told, a question back, an acceptance, a
decline, a reaction) has alternatives; which one a line takes is drawn from the line's seeded
generator (the question's ``seed``), so a run stays deterministic. The speaker's traits weigh the
draw (a warm persona exclaims and opens with the partner's name; a reserved one keeps it plain)
and the pair's history adds what only friends say ("You'll like this: ..."). No rule is a
template for one situation: the situation fills the rule's slots (who told, what, when).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..inflection import past_of

__all__ = ["Voice", "voice_of", "address_once", "passed_on", "part_of_day", "hello", "opens_small_talk", "WARM_TRAITS",
           "HEARD_FRAMES", "IN_PERSON_FRAMES", "GREETINGS_AGAIN_TODAY", "GREETINGS_AGAIN", "GREETINGS_KNOWN",
           "GREETINGS_NEW", "GREETING_ANY_HOUR", "CLOSINGS", "LAST_GOODBYE", "WELL", "AGREED", "BACK_AGAIN", "NOTHING_NEW", "KNOWN_FROM",
           "KNOWN"]

#: How a speaker passes on what someone told it, one level ("{t}": the teller's first name, "{s}":
#: the statement).
HEARD_FRAMES = ("{t} told me that {s}", "I heard from {t} that {s}", "{t} mentioned that {s}", "According to {t}, {s}",
                "{t} was saying that {s}")
#: The same, told by the one who does it.
IN_PERSON_FRAMES = ("I heard it from {t} in person: {s}", "{t} told me in person: {s}", "Straight from {t}: {s}",
                    "{t} was telling me about it: {s}")
#: A line passing on what another told: the opening of one of the frames, or "Did you hear?".
_PASSED_ON = re.compile("|".join(re.escape(f.split("{s}")[0]).replace(re.escape("{t}"), r"[A-Z][\w'-]*")
                                 for f in HEARD_FRAMES + IN_PERSON_FRAMES) + r"|\bdid you hear\?", re.I)


def passed_on(line: str) -> bool:
    """Whether ``line`` passes on what someone else told the speaker (:data:`HEARD_FRAMES`,
    :data:`IN_PERSON_FRAMES`, "Did you hear?"): the event it names is not the speaker's, so the
    speaker invites no one to it."""
    return bool(_PASSED_ON.search(line))

#: "Good morning" from 05:00, "Good afternoon" from 12:00, "Good evening" from 17:00; "Hi" before.
HELLOS = ("Good morning", "Good afternoon", "Good evening", "Hi")


def part_of_day(hour: int) -> str:
    """"morning" from 05:00, "afternoon" from 12:00, "evening" from 17:00, "" in the small hours
    (``hour``: 0-23)."""
    return "morning" if 5 <= hour < 12 else "afternoon" if 12 <= hour < 17 else "evening" if hour >= 17 else ""


def hello(hour: int) -> str:
    """The greeting of ``hour`` (0-23): one of :data:`HELLOS`."""
    part = part_of_day(hour)
    return f"Good {part}" if part else "Hi"


# Phrases of small talk ("{first}": the listener's first name; "{hello}": :func:`hello`; "{part}":
# :func:`part_of_day`; "{since}": "yesterday" or a weekday; "{name}": ", Ada" or ""; "{teller}": who told).
#: Greetings after a talk earlier today.
GREETINGS_AGAIN_TODAY = ("Hello again, {first}!", "Oh, {first}, hi again.", "{first}! Back again?",
                         "Hi again, {first}. Twice in one day!")
#: Greetings after a talk on an earlier day.
GREETINGS_AGAIN = ("{hello}, {first}! Good to see you again.", "{hello}, {first}. We haven't talked since {since}.")
#: Greetings to someone the speaker knows of (in the small hours, "Hi {first}!" for one naming the
#: part of the day: :data:`GREETING_ANY_HOUR`).
GREETINGS_KNOWN = ("{hello}, {first}!", "Hi {first}, good {part}.", "{hello}, {first}. How are you?")
#: Greetings making no claim about the pair's history (the same in the small hours).
GREETINGS_NEW = ("{hello}, {first}.", "Hello there, {first}.", "Hi {first}, good to see you.", "Hey {first}!",
                 "Oh hi, {first}.", "There you are, {first}!", "{hello}, {first}. How's everything?",
                 "Hi {first}! Nice {part}, isn't it?")
GREETING_ANY_HOUR = "Hi {first}!"
#: Goodbyes.
CLOSINGS = ("Anyway, I should get going, {first}.", "Take care, {first}.", "See you around, {first}.",
            "Let's catch up again soon, {first}.", "I have to run, bye {first}!", "Well, I'd better be off, {first}.",
            "Nice talking with you, {first}.", "Catch you later, {first}!", "Good to see you, {first}. Bye for now!")
#: The goodbye when every other would repeat a line said today.
LAST_GOODBYE = "Well, I'll let you go, {first}. Bye for now."
#: Asked how one is.
WELL = ("I'm well, thanks.", "Pretty good, thanks.", "Can't complain.", "Good, thank you.")
#: Small talk ("isn't it?") agreed with.
AGREED = ("It is!", "It really is.", "Lovely, yes.")
#: "Back again?" answered.
BACK_AGAIN = ("Yes, here I am again!", "Back again, yes.", "Twice in one day!")
#: Asked what is new, with nothing to tell.
NOTHING_NEW = "Not much, just the usual."
#: News already heard from ``{teller}``.
KNOWN_FROM = ("I know, {teller} told me about it{name}.", "I know{name}, {teller} mentioned it.")
#: News already heard, the teller not recalled.
KNOWN = ("Yes, I heard about that too{name}.", "Yes, I heard{name}. Word gets around.",
         "I know{name}, everyone's talking about it.")
#: Reactions to news by kind (:meth:`Voice.react`); "plain" is "good" news told to a reserved listener,
#: and news neither glad nor bad ("Klaus owes me 20 dollars").
REACTIONS = {
    "luck": ("Good luck with it{name}!", "I hope it goes well{name}.", "Fingers crossed{name}!", "You'll do great{name}.",
             "Best of luck{name}!"),
    "trouble": ("Oh no, that's a nuisance{name}.", "Oh no, thanks for warning me{name}.", "That's a shame{name}.",
                "What a pity{name}.", "Oh dear, good to know{name}."),
    "good": ("How lovely{name}!", "That's great to hear{name}!", "Oh, that's wonderful{name}!", "What good news{name}!",
             "Oh, how nice{name}!", "That sounds fun{name}!", "Lovely, thanks for telling me{name}!"),
    "plan": ("Sounds like a plan{name}.", "Enjoy it{name}!", "Have a good one{name}.", "Nice{name}, enjoy."),
    "confided": ("Oh, really{name}? Your secret's safe with me.", "Aw, that's sweet{name}.",
                 "I won't tell a soul{name}."),
    "rumour": ("Oh, that's not right{name}: it's still on!", "No, no{name}, it's still on!",
               "Not at all{name}, it's still happening!"),
    "plain": ("Interesting, thanks for telling me{name}.", "I see{name}. Thanks.", "Good to know{name}.",
              "Huh, I didn't know that{name}.", "I know now, thanks{name}.", "Interesting{name}. I'll keep that in mind.",
              "Thanks for the news{name}."),
}
#: Yes to one's own invitation ("{thing}": "to the party " or ""; "{when}": "today"), then maybe thanks.
ACCEPTS = ("I'd love to come {thing}{when}", "Count me in {when}", "I'll be there {when}",
           "Sounds wonderful, I'll come {thing}{when}", "Of course I'll come {when}")
ACCEPT_THANKS = (" Thanks for telling me.", " Thanks for asking me.", " I'm glad you told me.", "", " I wouldn't miss it.")
#: Saying one holds an event already, before meaning to go to it.
ALREADY_KNOWN = ("I know about it", "Yes, I'd heard", "I know")
#: Meaning to go to another's event passed on by the listener, then maybe thanks.
RELAYED_ACCEPTS = ("I think I'll go {when}", "I'd like to go {thing}{when}", "I might go along {when}",
                   "Sounds lovely, I'll try to go {when}")
RELAYED_THANKS = (" Thanks for telling me.", " Good to know.", "", " I am glad you told me.")
#: No to an invitation, before the reason: for a clash, and for no wish to go.
DECLINES_CLASH = ("I'd love to, but", "I wish I could, but", "Sadly", "That sounds lovely, but", "I'm sorry, but")
DECLINES = ("Thanks, but", "Maybe not this time:", "I'll pass, I think:")
#: Lead-ins to a statement (:meth:`Voice.lead`; "{first}, " aside): plain, warm, and between friends.
LEADS_PLAIN = ("", "", "Well, ", "So, ")
LEADS_WARM = ("Hey, ", "You know, ", "Guess what: ")
LEADS_CLOSE = ("Just so you know, ", "You'll like this: ")  # not "Between us": that asks for a secret
_BY_THE_WAY = "By the way, "


def _openings(phrase: str) -> list[str]:
    """What each sentence of ``phrase`` starts with when said: up to its first slot, else the
    whole sentence with its mark ("Oh no, that's a nuisance{name}." -> "Oh no, that's a
    nuisance"; "Hi again, {first}. Twice in one day!" -> "Hi again", "Twice in one day!")."""
    sentences = re.split(r"(?<=[.!?])\s+", phrase.strip())
    return [x.split("{", 1)[0].strip().rstrip(",") for x in sentences]


_LEAD_WORDS = {x.strip().rstrip(",") for x in LEADS_PLAIN + LEADS_WARM + LEADS_CLOSE + (_BY_THE_WAY,)}
_SMALL_TALK_PHRASES = (HELLOS + GREETINGS_AGAIN_TODAY + GREETINGS_AGAIN + GREETINGS_KNOWN + GREETINGS_NEW + (GREETING_ANY_HOUR,) + CLOSINGS
                       + (LAST_GOODBYE, NOTHING_NEW) + WELL + AGREED + BACK_AGAIN + KNOWN_FROM + KNOWN
                       + sum(REACTIONS.values(), ()) + ACCEPTS + ACCEPT_THANKS + RELAYED_ACCEPTS + RELAYED_THANKS
                       + DECLINES_CLASH + DECLINES)
#: A line opening as a sentence of one of the phrases above does (a lead-in alone, "Hey" or "Well", is no such
#: opening: a statement follows it).
_SMALL_TALK = re.compile("|".join(sorted({re.escape(o) + (r"\b" if o[-1].isalnum() else "")
                                          for p in _SMALL_TALK_PHRASES for o in _openings(p) if o and o not in _LEAD_WORDS},
                                         key=len, reverse=True)))


def opens_small_talk(line: str) -> bool:
    """Whether ``line`` opens as a greeting, a goodbye, a reaction, an answer to an invitation or
    to "how are you" does in this voice (the phrases above): what follows it tells no news."""
    return bool(_SMALL_TALK.match(line.strip()))


#: Traits that make a persona's lines warm (exclamations, the partner's name, lead-ins).
WARM_TRAITS = re.compile(r"\b(?:friendly|outgoing|cheerful|warm|kind|hospitable|sociable|enthusiastic|"
                         r"passionate|energetic|talkative|caring|generous)\b", re.I)


#: Sentence-opening words that are not names: lower-cased after a lead-in ("Well, there is ...").
_COMMON_OPENERS = frozenset("There The A An It Work Things Later At This That What Did According Something Straight "
                            "So Some Everyone People".split())


@dataclass(frozen=True)
class Voice:
    """How one speaker talks to one listener in one line.

    Attributes:
        rng: the line's seeded generator (every choice draws from it, in order).
        warm: the speaker's traits are warm (:data:`WARM_TRAITS`).
        close: the pair has talked before (a recalled talk) or the files relate them.
        first: the listener's first name ("" for someone whose name is not known).
    """

    rng: random.Random
    warm: bool
    close: bool
    first: str

    def pick(self, *options: str) -> str:
        """One of ``options``, drawn from :attr:`rng`."""
        return options[self.rng.randrange(len(options))]

    def name(self) -> str:
        """", Ada" to address the listener (a warm speaker more often), or ""."""
        if not self.first:
            return ""
        return f", {self.first}" if self.rng.random() < (0.7 if self.warm else 0.5) else ""

    def lead(self) -> str:
        """A lead-in to a statement: "", "Hey, ", "You know, ", "Ada, " (capitalised; the
        statement after it keeps its own first word)."""
        warm = (*LEADS_WARM, f"{self.first}, " if self.first else _BY_THE_WAY)
        friends = LEADS_CLOSE if self.close else ()
        return self.pick(*LEADS_PLAIN, *warm, *friends) if self.warm else self.pick(*LEADS_PLAIN, _BY_THE_WAY, *friends)

    def say(self, clause: str) -> str:
        """``clause`` (a sentence without its full stop) said with a lead-in and, maybe, the name."""
        lead = self.lead()
        clause, own_mark = (clause[:-1], clause[-1]) if clause[-1:] in "!?" and clause else (clause, "")
        if lead.endswith(": ") and (clause.startswith("Did you hear?") or ":" in clause):
            lead = ""  # not "Guess what: did you hear? ...", nor "Guess what: I want ...: red paper hearts"
        first_word = clause.split(" ", 1)[0]
        common = first_word in _COMMON_OPENERS or bool(past_of(first_word))  # "Cancelled the party ..."
        body = clause[:1].lower() + clause[1:] if lead and common else clause
        mark = own_mark or ("!" if self.warm and self.rng.random() < 0.5 else ".")
        name = "" if self.first and self.first in lead else self.name()  # the name once
        return f"{lead}{body}{name}{mark}"

    def heard(self, teller: str, clause: str) -> str:
        """What ``teller`` (a first name) told, passed on one level: "Maria told me that S.",
        "I heard from Maria that S.", "Maria mentioned that S.", "According to Maria, S."."""
        frame = self.pick(*HEARD_FRAMES)
        return self.say(frame.format(t=teller, s=clause))

    def ask(self, part: str) -> str:
        """A question back about the listener's day (``part``: "morning", "afternoon", ...)."""
        name = f", {self.first}" if self.first else ""
        part = part or "day"
        return self.pick(f"What's new with you{name}?", f"How's your {part} going{name}?",
                         f"What have you been up to this {part}{name}?", f"Anything new at your end{name}?",
                         f"And how are things with you{name}?", f"What are you busy with these days{name}?",
                         f"How about you{name}?", f"And you{name}, what's keeping you busy?",
                         f"Tell me, how have you been{name}?")

    def accept(self, when: str, what: str, relayed: bool = False, known: bool = False) -> str:
        """Yes to an invitation to ``what`` ("the party"; "" when not named) ``when`` ("today");
        ``relayed``: the listener passed on news of another's event (:func:`passed_on`), so it
        is no invitation of theirs to accept: one means to go, and thanks them for the news;
        ``known``: the one told holds the event already, so it says so and gives no thanks."""
        thing = f"to {what} " if what else ""
        name = f", {self.first}" if self.first else ""  # said to the one who invited, or told
        if known:
            body = self.pick(*(RELAYED_ACCEPTS if relayed else ACCEPTS)).format(thing=thing, when=when)
            return f"{self.pick(*ALREADY_KNOWN)}{name}. {body}."
        if relayed:
            body = self.pick(*RELAYED_ACCEPTS).format(thing=thing, when=when)
            return f"{body}{name}.{self.pick(*RELAYED_THANKS)}"
        body = self.pick(*ACCEPTS).format(thing=thing, when=when)
        return f"{body}{name}!{self.pick(*ACCEPT_THANKS)}"

    def decline(self, reason: str, clash: bool) -> str:
        """No to an invitation, giving ``reason`` ("I have to serve customers ... until 20:00")."""
        lead = self.pick(*DECLINES_CLASH) if clash else self.pick(*DECLINES)
        name = f", {self.first}" if self.first else ""  # said to the one who invited, at the end
        return f"{lead} {reason}{name}."

    def react(self, kind: str) -> str:
        """A short reaction to news of ``kind``: "luck" (a task ahead), "trouble", "good", "plan"
        (the speaker's own plan ahead), "confided" (a feeling of theirs), "rumour" (one's own event
        told as called off) (the listener named when known: a short line is said to one person)."""
        name = f", {self.first}" if self.first else ""
        if kind == "good" and not self.warm:
            kind = "plain"
        return self.pick(*REACTIONS[kind]).format(name=name)


def address_once(line: str, first: str) -> str:
    """``line`` with the listener ``first`` addressed once: every ", Ada" after the first is
    dropped ("..., Ayesha. How's your evening going, Ayesha?" -> "..., Ayesha. How's your
    evening going?"), a line being said to one person. ``first`` "" leaves it as it is."""
    if not first:
        return line
    seen = [False]

    def keep_first(m: re.Match) -> str:
        if seen[0]:
            return ""
        seen[0] = True
        return m.group(0)
    return re.sub(rf"(?:^|(?<=[.!?] )){re.escape(first)}, |, {re.escape(first)}(?=[.!?,])", keep_first, line)


def voice_of(seed: int, summary: str, first: str, close: bool) -> Voice:
    """The voice of a speaker whose file's summary is ``summary`` to ``first``, for a line seeded ``seed``."""
    return Voice(rng=random.Random(seed), warm=bool(WARM_TRAITS.search(summary)), close=close, first=first)
