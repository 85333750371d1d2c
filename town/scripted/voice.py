"""A scripted persona's voice: a few phrasing rules with alternatives, one chosen per line.

Each rule (a lead-in, a way to pass on what someone told, a question back, an acceptance, a
decline, a reaction) has alternatives; which one a line takes is drawn from the line's seeded
generator (the question's ``seed``), so a run stays deterministic. The speaker's traits weigh the
draw (a warm persona exclaims and opens with the partner's name; a reserved one keeps it plain)
and the pair's history adds what only friends say ("Between us, ..."). No rule is a
template for one situation: the situation fills the rule's slots (who told, what, when).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

__all__ = ["Voice", "voice_of", "address_once", "passed_on", "WARM_TRAITS", "HEARD_FRAMES", "IN_PERSON_FRAMES"]

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
        plain = ("", "", "Well, ", "So, ")
        warm = ("Hey, ", "You know, ", "Guess what: ", f"{self.first}, " if self.first else "By the way, ")
        friends = ("Between us, ", "You'll like this: ") if self.close else ()
        return self.pick(*plain, *warm, *friends) if self.warm else self.pick(*plain, "By the way, ", *friends)

    def say(self, clause: str) -> str:
        """``clause`` (a sentence without its full stop) said with a lead-in and, maybe, the name."""
        lead = self.lead()
        if lead.endswith(": ") and (clause.startswith("Did you hear?") or ":" in clause):
            lead = ""  # not "Guess what: did you hear? ...", nor "Guess what: I want ...: red paper hearts"
        first_word = clause.split(" ", 1)[0]
        body = clause[:1].lower() + clause[1:] if lead and first_word in _COMMON_OPENERS else clause
        mark = "!" if self.warm and self.rng.random() < 0.5 else "."
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

    def accept(self, when: str, what: str, relayed: bool = False) -> str:
        """Yes to an invitation to ``what`` ("the party"; "" when not named) ``when`` ("today");
        ``relayed``: the listener passed on news of another's event (:func:`passed_on`), so it
        is no invitation of theirs to accept: one means to go, and thanks them for the news."""
        thing = f"to {what} " if what else ""
        name = f", {self.first}" if self.first else ""  # said to the one who invited, or told
        if relayed:
            body = self.pick(f"I think I'll go {when}", f"I'd like to go {thing}{when}", f"I might go along {when}",
                             f"Sounds lovely, I'll try to go {when}")
            return f"{body}{name}.{self.pick(' Thanks for telling me.', ' Good to know.', '', ' I am glad you told me.')}"
        body = self.pick(f"I'd love to come {thing}{when}", f"Count me in {when}", f"I'll be there {when}",
                         f"Sounds wonderful, I'll come {thing}{when}", f"Of course I'll come {when}")
        thanks = self.pick(" Thanks for telling me.", " Thanks for asking me.", " I'm glad you told me.",
                           "", " I wouldn't miss it.")
        return f"{body}{name}!{thanks}"

    def decline(self, reason: str, clash: bool) -> str:
        """No to an invitation, giving ``reason`` ("I have to serve customers ... until 20:00")."""
        lead = self.pick("I'd love to, but", "I wish I could, but", "Sadly", "That sounds lovely, but",
                         "I'm sorry, but") if clash else self.pick("Thanks, but", "Maybe not this time:",
                                                                    "I'll pass, I think:")
        name = f", {self.first}" if self.first else ""  # said to the one who invited, at the end
        return f"{lead} {reason}{name}."

    def react(self, kind: str) -> str:
        """A short reaction to news of ``kind``: "luck" (a task ahead), "trouble", "good" (the
        listener named when known: a short line is said to one person)."""
        name = f", {self.first}" if self.first else ""
        if kind == "luck":
            return self.pick(f"Good luck with it{name}!", f"I hope it goes well{name}.", f"Fingers crossed{name}!",
                             f"You'll do great{name}.", f"Best of luck{name}!")
        if kind == "trouble":
            return self.pick(f"Oh no, that's a nuisance{name}.", f"Oh no, thanks for warning me{name}.",
                             f"That's a shame{name}.", f"What a pity{name}.", f"Oh dear, good to know{name}.")
        if self.warm:
            return self.pick(f"How lovely{name}!", f"That's great to hear{name}!", f"Oh, that's wonderful{name}!",
                             f"What good news{name}!", f"Oh, how nice{name}!", f"That sounds fun{name}!",
                             f"Lovely, thanks for telling me{name}!")
        return self.pick(f"Interesting, thanks for telling me{name}.", f"I see{name}. Thanks.",
                         f"Good to know{name}.", f"Huh, I didn't know that{name}.", f"I know now, thanks{name}.",
                         f"Interesting{name}. I'll keep that in mind.", f"Thanks for the news{name}.")


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
