"""Whose words: a sentence moved from one speaker's point of view to another's.

A whisper is the persona's inner voice: "You want to throw a board-game night" is remembered as
"I want to throw a board-game night" (:func:`inner_voice`). A line heard from Isabella, "I am
planning a party", is remembered as "Isabella Rodriguez is planning a party", and "you" in it
means the listener (:func:`heard_statement`). Going back, a persona's file says "Isabella
Rodriguez owns and runs Hobbs Cafe" and she says "I own and run Hobbs Cafe" (:func:`own_voice`).

Only the person of the subject and the verb after it change; every other word is kept as typed.
Verbs are inflected with ``lemminflect`` (its cost: docs/performance.md). Days are absolute in
storage ("on Tuesday, February 14", :func:`town.textevent.absolute_days`) and said relative to
the moment of speaking ("tomorrow", :func:`relative_days`).

Imports nothing of ``town`` but :mod:`town.hearsay`, so any layer may use it.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from lemminflect import getAllLemmas, getInflection

from .hearsay import unwrap
from .textevent import place_in

__all__ = ["inner_voice", "third_person", "own_voice", "heard_statement", "relative_days",
           "lower_words", "shared_run", "person_of", "verb_of", "meaning"]

_MODALS = frozenset("can could will would shall should may might must".split())
_ADVERBS = frozenset("also just really still often never always already usually sometimes even "
                     "only soon actually finally probably definitely".split())
#: A subject-verb pair moved between persons: (first person, third person).
_BE_HAVE = {"am": "is", "'m": "is", "’m": "is", "was": "was", "have": "has", "'ve": "has", "’ve": "has",
            "do": "does", "don't": "doesn't", "'d": "would", "’d": "would", "'ll": "will", "’ll": "will",
            "haven't": "hasn't", "wasn't": "wasn't"}
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


@lru_cache(maxsize=4096)
def _lemmas(word: str) -> dict:
    return getAllLemmas(word.lower())


def _third_verb(word: str) -> str:
    """The third-person singular present of a first-person verb form ("want" -> "wants")."""
    low = word.lower()
    if low in _BE_HAVE:
        return _BE_HAVE[low]
    if low in _MODALS or low.endswith("n't"):
        return word
    verb = _lemmas(low).get("VERB") or _lemmas(low).get("AUX")
    if verb and verb[0] == low:
        forms = getInflection(low, tag="VBZ")
        return forms[0] if forms else word
    return word  # past tense, or not a verb: the same in every person


def _first_verb(word: str) -> str:
    """The first-person present of a third-person singular verb ("owns" -> "own", "is" -> "am")."""
    low = word.lower()
    back = {"is": "am", "has": "have", "does": "do", "doesn't": "don't", "hasn't": "haven't"}
    if low in back:
        return back[low]
    verb = _lemmas(low).get("VERB")
    if verb and verb[0] != low and getInflection(verb[0], tag="VBZ") == (low,):
        return verb[0]
    return word


def _verb_index(words: list[str], at: int) -> int | None:
    """Index of the verb after the subject at ``at`` (adverbs like "really" skipped), or None."""
    i = at + 1
    while i < len(words) and words[i].lower() in _ADVERBS:
        i += 1
    return i if i < len(words) else None


_TOKENS = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|[^A-Za-z]+")


def _tokens(text: str) -> list[str]:
    return _TOKENS.findall(text)


def _split_contraction(token: str) -> tuple[str, str]:
    m = re.match(r"^(I|you|You)(['’](?:m|ve|d|ll|re))$", token)
    return (m.group(1), m.group(2)) if m else (token, "")


def third_person(text: str, name: str) -> str:
    """``text`` said by ``name`` in the first person, retold in the third ("I am" -> "Name is").

    The first "I" becomes ``name``, later ones its first word; "my" -> "Name's", "me" -> the
    first name. Other words are kept.
    """
    first = name.split()[0] if name.strip() else name
    out: list[str] = []
    said = [False]

    def who() -> str:
        if said[0]:
            return first
        said[0] = True
        return name

    toks = _tokens(text)
    pending_verb = False
    for tok in toks:
        if not tok[0].isalpha():
            out.append(tok)
            continue
        word, clitic = _split_contraction(tok)
        if word == "I":
            out.append(who())
            if clitic:
                out.append(" " + _BE_HAVE.get(clitic, clitic))
            else:
                pending_verb = True
            continue
        if pending_verb:
            if tok.lower() in _ADVERBS:
                out.append(tok)
                continue
            out.append(_third_verb(tok))
            pending_verb = False
            continue
        low = tok.lower()
        if low == "my":
            out.append(f"{who()}'s" if not said[0] else f"{first}'s")
        elif low in ("me", "myself"):
            out.append(first)
        elif low == "mine":
            out.append(f"{first}'s")
        else:
            out.append(tok)
    return _capital("".join(out))


def inner_voice(text: str) -> str:
    """A second-person sentence ("You want to ...") as the persona's own thought ("I want to ...").

    "you are/were" -> "I am/was", "your" -> "my", "yourself" -> "myself"; "you" after a verb or
    a preposition -> "me". A sentence with no "you" is returned as it is.
    """
    toks = _tokens(text)
    out: list[str] = []
    prev = ""
    pending = False
    for tok in toks:
        if not tok[0].isalpha():
            out.append(tok)
            if any(c in tok for c in ".!?;:,"):
                prev = "."
            continue
        word, clitic = _split_contraction(tok)
        low = word.lower()
        if low == "you":
            subject = not prev or prev in ("that", "if", "when", "and", "but", "because", "so", "as",
                                           "then", "while", "until", "before", "after", ".")
            if subject or clitic:
                out.append("I")
                if clitic in ("'re", "’re"):
                    out.append("'m")
                elif clitic:
                    out.append(clitic)
                else:
                    pending = True
            else:
                out.append("me")
        elif pending:
            pending = False
            out.append({"are": "am", "were": "was", "aren't": "am not", "weren't": "wasn't"}.get(low, tok))
        elif low in ("your", "yours", "yourself"):
            out.append({"your": "my", "yours": "mine", "yourself": "myself"}[low])
        else:
            out.append(tok)
        prev = low
    return _capital("".join(out))


def own_voice(text: str, name: str) -> str:
    """A sentence about ``name`` (a persona file's "Isabella Rodriguez owns and runs ...") in their
    own first person ("I own and run ..."). Only a sentence that begins with the name or its
    first word changes; a verb joined by "and" follows the first.
    """
    first = name.split()[0] if name.strip() else name
    for lead in (name, first, "She", "He"):
        if text.startswith(lead + " "):
            rest = text[len(lead) + 1:].split(" ")
            if rest and rest[0] in ("is", "has", "does", "was") or _first_verb(rest[0]) != rest[0]:
                rest[0] = _first_verb(rest[0]) if rest[0] != "was" else "was"
                for i in range(1, len(rest) - 1):
                    if rest[i] == "and" and _first_verb(rest[i + 1].rstrip(",.")) != rest[i + 1].rstrip(",."):
                        tail = rest[i + 1][len(rest[i + 1].rstrip(",.")):]
                        rest[i + 1] = _first_verb(rest[i + 1].rstrip(",.")) + tail
                        break
                return " ".join(["I", *rest]).replace(" her ", " my ").replace(" his ", " my ")
    return text


def person_of(text: str) -> int | None:
    """The grammatical person of the sentence's subject: 1, 2, 3, or None when it cannot tell."""
    m = _WORD.match(text.lstrip())
    if m is None:
        return None
    word = _split_contraction(m.group(0))[0].lower()
    if word in ("i", "we", "my"):
        return 1
    if word in ("you", "your"):
        return 2
    return 3 if m.group(0)[0].isupper() or word in ("he", "she", "they", "it") else None


_AUX = {"is": "be", "am": "be", "are": "be", "was": "be", "were": "be", "be": "be", "been": "be",
        "has": "have", "have": "have", "had": "have"}


def verb_of(text: str) -> str | None:
    """The lemma of the main verb of ``text``'s first clause, or None.

    "Isabella is planning a party" -> "plan"; "Klaus wants ..." -> "want"; "I buy milk" -> "buy";
    "The weather is fine" -> "be". Read from the word forms: an inflected verb, a verb after
    "I"/"you"/"we"/"they", or the verb after an auxiliary.
    """
    aux = None
    prev = ""
    for word in _WORD.findall(text)[:12]:
        low = word.lower()
        if low in _AUX or low in _MODALS:
            aux = aux or _AUX.get(low, low)
            prev = low
            continue
        verb = (_lemmas(low).get("VERB") or (None,))[0] if not word[0].isupper() or low == "i" else None
        if verb:
            if aux in _MODALS or (aux and verb != low):  # "will go", "is planning", "has gone"
                return verb
            if not aux and (verb != low or prev in ("i", "you", "we", "they")):
                return verb
        if aux:
            return None if aux in _MODALS else aux
        prev = low
    return aux if aux not in _MODALS else None


def meaning(text: str, places: dict[str, str]) -> dict[str, Any]:
    """What can be read reliably of a statement: its verb (``predicate``, a lemma) and the place it
    names (``object``, a map address), as keyword arguments of a memory record; None where the
    text does not say. A heard memory is read on its statement, not on "X told me that".
    """
    statement = unwrap(text)[1]
    return {"predicate": verb_of(statement), "object": place_in(statement, places)}


_PLEASANTRY = re.compile(r"^(?:I'm (?:well|fine|good)|Good|Fine|Yes|Oh)\b[^.!?]*\bthanks?\b[^.!?]*[.!]$", re.I)
_HELLO = re.compile(r"^(?:Hi|Hello|Hey|Good (?:morning|afternoon|evening))(?: [A-Z][\w'-]*)?[,!.]\s*")
_OPENERS = re.compile(r"^(?:Did you hear\?|Guess what[:!]?|By the way,?)\s+", re.I)


def heard_statement(line: str, teller: str) -> str:
    """What a listener keeps of ``line`` said by ``teller``: the statement, in its own perspective.

    "Did you hear? ..." loses its opener; "I'm well, thanks.", a short reaction before it ("Good
    luck with it!") and a closing question ("Would you like to come?") are not part of it; "Maria told me that S" keeps S only (hearsay is one
    level in words; who told whom stays in the record's ``source``); the teller's "I" becomes
    their name and the listener's "you" becomes "I".
    """
    sentences = re.split(r"(?<=[.!?])\s+", line.strip())
    kept = [x for i, x in enumerate(sentences) if not x.endswith("?") and not _PLEASANTRY.match(x)
            and not (i == 0 and len(sentences) > 1 and len(x.split()) <= 5)] or sentences
    text = _OPENERS.sub("", _HELLO.sub("", " ".join(kept)))
    names, statement = unwrap(text)
    if names:
        lead = re.match(r"^(?:he|she) (?=[a-z])", statement, re.I)
        if lead:  # "Klaus told me that he is writing": "he" is the one who told
            statement = names[0] + " " + statement[lead.end():]
        return _capital(inner_voice(statement))
    return inner_voice(third_person(text, teller))


_MONTHS = ("January February March April May June July August September October November "
           "December").split()
_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_DATE = re.compile(r"(?P<on>\bon )?(?:(?P<wd>" + "|".join(_DAYS) + r"),? )?(?P<month>"
                   + "|".join(_MONTHS) + r") (?P<day>\d{1,2})(?:st|nd|rd|th)?(?P<year>,? \d{4})?(?P<comma>,(?= ))?")


def relative_days(text: str, now: datetime) -> str:
    """``text`` with each stated date said relative to ``now``: "today", "tomorrow", "yesterday",
    "on Tuesday" (within the week ahead), else "on February 20" (no year, no weekday).
    """
    def say(m: re.Match) -> str:
        year = int(m.group("year").strip(", ")) if m.group("year") else now.year
        try:
            day = date(year, _MONTHS.index(m.group("month")) + 1, int(m.group("day")))
        except ValueError:
            return m.group(0)
        delta = (day - now.date()).days
        words = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(delta)
        if words is None:
            words = f"on {_DAYS[day.weekday()]}" if 1 < delta < 7 else f"on {m.group('month')} {day.day}"
        return words
    return _DATE.sub(say, text)


def lower_words(text: str) -> list[str]:
    """The lower-case words of ``text`` in order (names, places and events, capitalised, left out)."""
    return [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'’]*", text) if not w[0].isupper()]


def shared_run(a: str, b: str, n: int = 6) -> bool:
    """Whether ``a`` and ``b`` share ``n`` or more consecutive lower-case words (:func:`lower_words`)."""
    wa, wb = lower_words(a), lower_words(b)
    grams = {tuple(wa[i:i + n]) for i in range(len(wa) - n + 1)}
    return any(tuple(wb[i:i + n]) in grams for i in range(len(wb) - n + 1))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
