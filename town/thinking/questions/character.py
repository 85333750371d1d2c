"""Checks that an answer speaks as the persona it was asked of: in the first person, keeping to
what its file and memories say of it.

Answers a 0.5B model wrote and the checks let through: an interview answered in the third
person; Isabella Rodriguez, who owns Hobbs Cafe, "a student at Hobbs Cafe"; Maria Lopez, who has
a crush on Klaus Mueller, declining his invitation with "I am not interested in Klaus Mueller. I
am Maria Lopez and do not seek to talk to people." (it cancelled the hour's only conversation).

What the persona is, is read from the question: its summary (traits, background, lifestyle),
its relationship to the other, its routine and the memories shown (:func:`own_text`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from ..words import PLACE_WORDS
from .checks import QUOTED, InvalidAnswer, free_texts

__all__ = ["own_text", "in_first_person", "keeps_to_the_persona", "declines_in_character", "tells_as_itself",
           "names_itself", "i_as_another", "speaks_as_itself", "as_itself"]

#: Words of a speaker talking about itself.
_FIRST_PERSON = frozenset("i i'm i've i'd i'll me my mine myself we we're us our ours".split())
#: "I am a student at Hobbs Cafe", "I'm the owner and manager of The Willows Market": the role (the
#: word before "at" or "of") and the capitalised place.
_ROLE_AT = re.compile(r"\b(?:[Ii] am|I'm|I work as|I was)\s+(?:[A-Z][\w']*\s+){0,2}?(?:[A-Z][\w']*,\s+)?"
                      r"(?:a|an|the)\s+(?:[a-z-]+\s+){0,3}?([a-z]+)\s+"
                      r"(?:at|of|in|for)\s+(?:the\s+)?([A-Z][\w']*(?:\s+[A-Z][\w']*)*)")
#: A refusal that denies a liking or a wish to talk, rather than giving a reason of the moment.
#: ("I don't want to talk now" is a reason of the moment, and passes.)
_DENIES = re.compile(r"\b(?:not|never|no)\s+(?:\w+\s+)?(?:interested|interest|like|seek|care)\b|"
                     r"\b(?:don't|do not|doesn't)\s+(?:\w+\s+)?(?:like|seek|talk to people|care)\b",
                     re.I)
#: What a persona's file or memories say when it likes someone, or likes company.
_FOND = re.compile(r"\b(?:crush|fond|love|loves|like to know|friend|friends|admire|admires|warm|friendly|"
                   r"outgoing|sociable|chatty)\b", re.I)


def own_text(q: Any) -> str:
    """What the question says of its persona: summary, relationship, routine, memories shown."""
    parts = [getattr(q, "persona_summary", ""), getattr(q, "relationship", "")]
    parts += [f"{r.description} at {r.place.replace(':', ' ')}." for r in getattr(q, "routine", ())]
    parts += [m.content for m in getattr(q, "memories", ())]
    return "\n".join(p for p in parts if p)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower().replace("’", "'"))


def _third_person(text: str, name: str) -> bool:
    """Whether ``text`` speaks of the persona ``name`` in the third person: no first-person word,
    and it names the persona or opens with "he", "she" or "they"."""
    words = _words(text)
    own = set(_words(name))
    return bool(words) and not _FIRST_PERSON & set(words) and (bool(own & set(words)) or words[0] in ("he", "she", "they"))


def in_first_person(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """An interview answer speaks as "I": one with no first-person word that names the persona
    itself or opens with "he", "she" or "they" is in the wrong person.

    Raises:
        InvalidAnswer: naming the answer.
    """
    text = str(getattr(a, "answer", ""))
    if _third_person(text, q.persona_name):
        raise InvalidAnswer(f"answer: {text[:60]!r} speaks of {q.persona_name} in the third person, not as I")
    return a


#: Words that speak to someone ("Your research paper ... has been accepted").
_YOU = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd)\b", re.I)


def tells_as_itself(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """A persona's summary of its conversation tells it as "I", to no one: it does not speak to
    the other ("you", "your" outside quotes (:data:`.checks.QUOTED`); opening with the other's name and a comma: "Maria,
    happy to meet you"), name the persona beside "me" or "I" as if another ("Me and Isabella
    are celebrating ..." by Isabella), or speak of the persona in the third person.

    Raises:
        InvalidAnswer: naming the summary and what is wrong.
    """
    text = str(getattr(a, "summary", ""))
    plain = QUOTED.sub(" ", text).replace("’", "'")
    own, other = q.persona_name.split()[0], q.other_name.split()[0]
    greeted = re.match(rf"^\W*(?:(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\W+)?{re.escape(other)}\s*[,!]",
                       plain, re.I)
    if _YOU.search(plain) or greeted:
        raise InvalidAnswer(f"summary: {text[:60]!r} speaks to {q.other_name}; tell what was said, as I")
    if re.search(rf"\b(?:me|I) and {re.escape(own)}\b|\b{re.escape(own)}(?: \w+)? and (?:I|me)\b", plain, re.I):
        raise InvalidAnswer(f"summary: {text[:60]!r} names {q.persona_name} as someone else; say I")
    if _third_person(text, q.persona_name):
        raise InvalidAnswer(f"summary: {text[:60]!r} speaks of {q.persona_name} in the third person, not as I")
    return a


#: Words that introduce the speaker's own name ("I'm Maria Lopez", "my name is", "this is", "call me",
#: "I, Isabella Rodriguez, ...").
_INTRODUCES = re.compile(r"(?:\bI'?m|\bI am|\bname is|\bname's|\bthis is|\bit'?s|\bcall me|\bI,)\W*$", re.I)

#: A sentence told as I that sets the speaker's name beside it at its end: "I'm a local baker and
#: coffee shop owner, Isabella Rodriguez." (SmolLM2's interview answer: the name in apposition).
_APPOSED = re.compile(r"(?:^|[.!?]\s+)I(?:'m| am)\b[^.!?]*,\s*$")


#: "I" with a verb of another ("I, Isabella Rodriguez, a college student in Spain, is writing a
#: paper", SmolLM2's interview answer): the persona told of as someone else under its "I".
_I_AS_ANOTHER = re.compile(r"\bI(?:,[^.!?]{1,120}?,)?\s+(?:is|has|does)\b")


def i_as_another(text: str) -> bool:
    """Whether ``text`` (outside quotation marks) gives "I" the verb of another (:data:`_I_AS_ANOTHER`)."""
    return bool(_I_AS_ANOTHER.search(QUOTED.sub(" ", text)))


def names_itself(line: str, name: str, *, first: bool = False) -> bool:
    """Whether ``line``, said by ``name``, names its own speaker by full name (outside quotation
    marks, :data:`.checks.QUOTED`) other than to introduce itself ("I'm Maria Lopez", "I, Maria
    Lopez, ...") or in a place's name ("Maria Lopez's room"): SmolLM2 wrote Maria Lopez's
    line "This morning, Maria Lopez was thrilled to share a news with Klaus Mueller. She went
    home ..." as a narrator would. ``first``: its first name alone counts too ("... between Maria
    and Klaus" in Maria's summary), for a text no one else is named in by it."""
    plain = QUOTED.sub(" ", line).replace("’", "'")
    given, _, rest = name.partition(" ")
    named = rf"\b{re.escape(given)}(?:\s+{re.escape(rest)})?\b" if first and rest else rf"\b{re.escape(name)}\b"
    return any(not _INTRODUCES.search(plain[:m.start()]) and not _a_place(plain[m.end():])
               and not (_APPOSED.search(plain[:m.start()]) and re.match(r"\s*(?:[.!?,]|$)", plain[m.end():]))
               for m in re.finditer(named, plain, re.I))


def _a_place(after: str) -> bool:
    """Whether a name followed by ``after`` is a place's name: "'s apartment", "'s room"
    (:data:`.words.PLACE_WORDS`), the persona's home as the town calls it."""
    found = re.match(r"'s\s+([a-z]+)", after, re.I)
    return found is not None and found.group(1).lower() in PLACE_WORDS


def speaks_as_itself(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """A conversation line is said by its persona, not told of it by a narrator
    (:func:`names_itself`), by its full name or its first ("I think Maria is going to the library
    tomorrow" by Maria), unless the one it talks to shares that first name, and gives "I" no verb
    of another (:func:`i_as_another`).

    Raises:
        InvalidAnswer: naming the line.
    """
    line = str(getattr(a, "line", ""))
    listener = str(getattr(q, "listener_name", "") or "")
    alone = listener.split()[:1] != q.persona_name.split()[:1]  # the first name is the speaker's alone
    if names_itself(line, q.persona_name, first=alone):
        raise InvalidAnswer(f"line: {line[:60]!r} tells of {q.persona_name} by name; say it as I")
    if i_as_another(line):
        raise InvalidAnswer(f"line: {line[:60]!r} says I with another's verb (I ... is); say it as I")
    return a


def keeps_to_the_persona(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """An interview answer gives the persona no role at a place that its file and memories give it
    another one at: "I am a student at Hobbs Cafe" from the persona that owns it. The role
    must share its first three letters with a word of what is said of the persona at that place
    ("owner": "owns"; "student": "studies"); a place it says nothing of is not judged.

    Raises:
        InvalidAnswer: naming the role, the place and what the persona's memories say there.
    """
    text = str(getattr(a, "answer", ""))
    units = [u for u in re.split(r"(?<=[.!?;])\s+|\n", own_text(q)) if u.strip()]
    for role, place in _ROLE_AT.findall(text):
        there = [u for u in units if place.lower() in u.lower()]
        said = {w[:3] for u in there for w in _words(u)}
        if there and role[:3] not in said:
            raise InvalidAnswer(f"answer: {role!r} at {place} contradicts what {q.persona_name} is there "
                                f"({there[0][:60]!r})")
    return a


def declines_in_character(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """A decline to talk does not deny a liking the persona's file or memories state: "I am not
    interested in Klaus Mueller" from the persona with a crush on him. A reason that denies
    interest in the other or in company is refused when what is said of the persona (its
    relationship to the other, the memories naming them, its traits) is fond.

    Raises:
        InvalidAnswer: naming the reason.
    """
    if getattr(a, "talk", True):
        return a
    reason = str(getattr(a, "reason", ""))
    other = q.other_name.split()[0].lower()
    about = [q.relationship, q.persona_summary, *(m.content for m in q.memories if other in m.content.lower())]
    if _DENIES.search(reason) and any(_FOND.search(t) for t in about if t):
        raise InvalidAnswer(f"reason: {reason[:60]!r} denies what {q.persona_name}'s file and memories say "
                            f"of {q.other_name}")
    return a


#: The fields a persona writes in its own voice besides a line (whose speaker each question knows):
#: a summary, a reason to talk, an interview answer.
_OWN_VOICE = ("summary", "reason", "answer")
#: A full name introduced as the speaker's own ("I am Klaus Mueller", "my name is ...").
_INTRODUCED = re.compile(r"(?:\bI'?m|\bI am|\bmy name is|\bcall me)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+)")


def as_itself(q: Any, a: BaseModel, prompt: str) -> BaseModel:
    """A summary, a reason to talk or an interview answer is the persona's own: it names the
    persona by full name (a summary or a reason by its first name too, unless another it knows
    shares it) only to introduce itself (:func:`names_itself`: SmolLM2's "I want to talk to Maria
    Lopez", "... is a great inspiration to Maria Lopez" and "... the relationship between Maria
    and Klaus Mueller's research" by Maria, "I work for The Willows Market, a cafe owned by
    Isabella Rodriguez" by Isabella), introduces no other of the people it knows as itself ("I am
    Klaus Mueller, the headmaster ..." by Isabella), and gives "I" no verb of another
    (:func:`i_as_another`). ("I want to talk to you" stands: the other
    is "you" to one deciding to talk to them; 10 of 32 reasons in a resample said so.)

    Raises:
        InvalidAnswer: naming the field, its text and whom it names.
    """
    name = q.persona_name
    people = {*getattr(q, "people", ()), *getattr(q, "names", ()), getattr(q, "other_name", "")} - {"", name}
    namesake = any(p.split()[0].lower() == name.split()[0].lower() for p in people)
    for where, key, text in free_texts(a.model_dump(mode="json")):
        if key not in _OWN_VOICE:
            continue
        if names_itself(text, name, first=key != "answer" and not namesake):
            raise InvalidAnswer(f"{where}: {text[:60]!r} tells of {name} by name; say it as I")
        if i_as_another(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} says I with another's verb (I ... is); say it as I")
        for m in _INTRODUCED.finditer(QUOTED.sub(" ", text)):
            if any(m.group(1).startswith(p) for p in people):
                raise InvalidAnswer(f"{where}: {text[:60]!r} introduces {name} as {m.group(1)}")
    return a
