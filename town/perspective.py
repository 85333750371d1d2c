"""Whose words: a sentence moved from one speaker's point of view to another's.

A whisper is the persona's inner voice: "You want to throw a board-game night" is remembered as
"I want to throw a board-game night" (:func:`inner_voice`). A heard line is never shifted here:
its memory is written from the fact the listener understood (:mod:`town.realise`) or quoted as
said. Going back, a persona's file says "Isabella
Rodriguez owns and runs Hobbs Cafe" and she says "I own and run Hobbs Cafe" (:func:`own_voice`).

Only the person of the subject and the verb after it change; every other word is kept as typed.
Verb forms come from :mod:`town.inflection`. Days are absolute in
storage ("on Tuesday, February 14", :func:`town.textevent.absolute_days`) and said relative to
the moment of speaking ("tomorrow", :func:`relative_days`).

Imports nothing of ``town`` but :mod:`town.hearsay`, :mod:`town.inflection` and
:mod:`town.textevent`, so any layer may use it.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from .hearsay import unwrap
from .inflection import (BE_HAVE, MODALS, and_verbs, first_singular, in_past, is_verb, lemmas, participles, simple_past,
                         third_singular)
from .textevent import MONTHS, SPAN_WORD_BEFORE, place_in

__all__ = ["PRONOUNS", "inner_voice", "third_person", "own_voice", "mine", "relative_days",
           "lower_words", "shared_run", "person_of", "verb_of", "meaning"]

#: Adverbs between a subject and its verb, passed over ("I still need more sources": "need").
_ADVERBS = frozenset("also just really still often never always already usually sometimes even "
                     "only soon actually finally probably definitely".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


_TOKENS = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|[^A-Za-z]+")


def _tokens(text: str) -> list[str]:
    return _TOKENS.findall(text)


def _split_contraction(token: str) -> tuple[str, str]:
    m = re.match(r"^(I|you|You)(['’](?:m|ve|d|ll|re))$", token)
    return (m.group(1), m.group(2)) if m else (token, "")


#: A persona's pronouns (its file's ``pronouns``): subject, object, possessive, its own, reflexive.
PRONOUNS = {"she": ("she", "her", "her", "hers", "herself"), "he": ("he", "him", "his", "his", "himself"),
            "they": ("they", "them", "their", "theirs", "themselves")}
#: "I" + these become "they" + the plural forms ("I am" -> "they are"); other verbs keep the first person's.
_PLURAL = {"am": "are", "'m": "are", "’m": "are", "was": "were", "wasn't": "weren't", "'ve": "have",
           "’ve": "have", "'d": "would", "’d": "would", "'ll": "will", "’ll": "will"}


def third_person(text: str, name: str, pronoun: str | None = None) -> str:
    """``text`` said by ``name`` in the first person, retold in the third ("I am" -> "Name is").

    The first "I" becomes ``name``. Later ones become ``pronoun`` ("she", "he" or "they", from the
    persona's file; :data:`PRONOUNS`), or the first name when the file gives none; "my", "me",
    "mine" and "myself" follow ("her", "his", "their" ...; else "Name's", the first name). "they"
    takes the plural verb ("they are", "they want"), and so does a second verb of the sentence
    ("I have an exam and need to study" -> "Maria has an exam and needs to study"). Other words
    are kept.
    """
    first = name.split()[0] if name.strip() else name
    forms = PRONOUNS.get(pronoun or "")
    out: list[str] = []
    said = [False]

    def who() -> str:
        if said[0]:
            if not forms:
                return first
            before = "".join(out).rstrip()
            return forms[0].capitalize() if not before or before[-1] in ".!?" else forms[0]
        said[0] = True
        return name

    toks = _tokens(text)
    pending_verb = False
    plural = False
    for tok in toks:
        if not tok[0].isalpha():
            out.append(tok)
            continue
        word, clitic = _split_contraction(tok)
        if word == "I":
            out.append(who())
            plural = out[-1].lower() == "they"
            if clitic:
                out.append(" " + (_PLURAL if plural else BE_HAVE).get(clitic, clitic))
            else:
                pending_verb = True
            continue
        if pending_verb:
            if tok.lower() in _ADVERBS:
                out.append(tok)
                continue
            out.append(_PLURAL.get(tok, tok) if plural else third_singular(tok))
            pending_verb = False
            continue
        low = tok.lower()
        if low == "my":
            out.append(f"{who()}'s" if not said[0] else (forms[2] if forms else f"{first}'s"))
        elif low == "me":
            out.append(forms[1] if forms and said[0] else first)
        elif low == "myself":
            out.append(forms[4] if forms and said[0] else first)
        elif low == "mine":
            out.append(forms[3] if forms and said[0] else f"{first}'s")
        else:
            out.append(tok)
    said_of = "".join(out)  # "I ... and need to" -> "Name ... and needs to" (the same subject)
    return _capital(and_verbs(said_of, third_singular, strict=True) if said[0] and not plural else said_of)


def _past_form(word: str) -> bool:
    """Whether ``word`` is a verb's simple past and no noun ("passed", "got", "went"; not "carry"):
    after "you" it makes "you" a subject ("you passed" -> "I passed")."""
    found = lemmas(word)
    return "NOUN" not in found and any(word == simple_past(v) for v in found.get("VERB", ()))


def inner_voice(text: str) -> str:
    """A second-person sentence ("You want to ...") as the persona's own thought ("I want to ...").

    "you are/were" -> "I am/was", "your" -> "my", "yourself" -> "myself"; "you" after a verb or
    a preposition -> "me", but after an auxiliary that asks ("can you believe it", "did you
    hear") -> "I". A sentence with no "you" is returned as it is.
    """
    toks = _tokens(text)
    out: list[str] = []
    prev = ""
    pending = False
    for i, tok in enumerate(toks):
        if not tok[0].isalpha():
            out.append(tok)
            if any(c in tok for c in ".!?;:,"):
                prev = "."
            continue
        word, clitic = _split_contraction(tok)
        low = word.lower()
        if low == "you":
            after = next((t.lower() for t in toks[i + 1:] if t[0].isalpha()), "")
            subject = not prev or prev in ("that", "if", "when", "and", "but", "because", "so", "as",
                                           "then", "while", "until", "before", "after", ".") \
                or _past_form(after) or after in MODALS or after in ("have", "had", "are", "were") \
                or prev in MODALS or prev in ("did", "do", "does", "have", "has", "had")  # "can you believe it"
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
    own first person ("I own and run ...").

    Only a sentence that begins with the name, its first word, "She", "He" or "They" and then a
    verb (adverbs like "still" skipped) changes: the verb takes the first person ("owns" -> "own",
    "is" -> "am"; "was", "can", "studied" stay), and so does each verb joined to it by "and",
    "or", "but" or a comma before any clause of its own ("where", "which", ...: "where the town
    buys its tools, seeds" stays). "his"/"her"/"their" and the persona's "Name's" become "my"
    (:func:`mine`). Any other sentence is returned stripped, as it is ("Abigail Chen, 25.").
    """
    text = text.strip()
    first = name.split()[0] if name.strip() else name
    m = re.match(rf"^(?:{re.escape(name)}|{re.escape(first)}|She|He|They)\s+(.*)$", text, re.S)
    if m is None:
        return text
    words = m.group(1).split(" ")
    at = next((i for i, w in enumerate(words) if w.lower() not in _ADVERBS), None)
    if at is None or not is_verb(words[at]):
        return text
    words[at] = first_singular(words[at])
    rest = " ".join(words)
    clause = _CLAUSE.search(rest)
    head, tail = (rest[:clause.start()], rest[clause.start():]) if clause else (rest, "")
    head = _JOINED.sub(lambda w: f"{w.group(1)} {first_singular(w.group(2))}", head)
    rest = re.sub(rf"\b(?:{re.escape(name)}|{re.escape(first)})['’]s\b", "my", mine(head + tail))
    return f"I {rest}"


#: Where a sentence's own clause ends: a verb after it is not the subject's.
_CLAUSE = re.compile(r"\b(?:where|whose|which|because|while|when)\b")
#: A verb joined to the one before: "..., works", "and goes", "or reads".
_JOINED = re.compile(r"(\band|\bor|\bbut|,) ([a-z]+s)\b")


def mine(text: str) -> str:
    """A persona file's words about the persona, said by it: "his"/"her"/"their" -> "my"."""
    return re.sub(r"\b(his|her|their)\b", "my", text)


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


#: A pronoun's contracted auxiliary, spelled out for :func:`verb_of` ("I've" -> "I have").
_CONTRACTED = {"m": "am", "re": "are", "s": "is", "ve": "have", "ll": "will", "d": "would"}
_CONTRACTION = re.compile(r"\b(I|you|we|they|he|she|it)['’](m|re|s|ve|ll|d)\b", re.I)


_CLOCK = re.compile(r"\d[\d:.]*\s*(?:[ap]\.?m\.?)(?![a-z])", re.I)
#: Words after which an inflected form names a thing, not an act: "the other candidates".
DETERMINERS = frozenset("the a an my your his her its our their other some these those every each".split())


def verb_of(text: str) -> str | None:
    """The lemma of the main verb of ``text``'s first clause, or None.

    "Isabella is planning a party" -> "plan"; "Klaus wants ..." -> "want"; "I buy milk" -> "buy";
    "The weather is fine" -> "be". Read from the word forms: an inflected verb, a verb after
    "I"/"you"/"we"/"they", or the verb after an auxiliary.
    """
    aux = None
    prev = ""
    text = _CONTRACTION.sub(lambda m: f"{m.group(1)} {_CONTRACTED[m.group(2).lower()]}", text)
    text = _CLOCK.sub(" ", text)  # "10:30am" holds no verb "am"
    for word in _WORD.findall(text)[:12]:
        low = word.lower()
        if low in _ADVERBS:
            continue
        if low in _AUX or low in MODALS:
            aux = aux or _AUX.get(low, low)
            prev = low
            continue
        verb = (lemmas(low).get("VERB") or (None,))[0] if not word[0].isupper() or low == "i" else None
        if verb and prev in DETERMINERS:  # "the other candidates", "my friends": a noun
            verb = None
        if verb:
            if aux in MODALS or (aux and verb != low):  # "will go", "is planning", "has gone"
                return verb
            if aux == "have" and low in participles(verb):  # "have set up", "has put"
                return verb
            if not aux and (verb != low or prev in ("i", "you", "we", "they")):
                return verb
        if aux:
            return None if aux in MODALS else aux
        prev = low
    return aux if aux not in MODALS else None


def meaning(text: str, places: dict[str, str]) -> dict[str, Any]:
    """What can be read reliably of a statement: its verb (``predicate``, a lemma) and the place it
    names (``object``, a map address), as keyword arguments of a memory record; None where the
    text does not say. A heard memory is read on its statement, not on "X told me that".
    """
    statement = unwrap(text)[1]
    return {"predicate": verb_of(statement), "object": place_in(statement, places)}


_DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_DATE = re.compile(r"(?P<on>\b[Oo]n )?(?:(?P<wd>" + "|".join(_DAYS) + r"),? )?(?P<month>"
                   + "|".join(MONTHS) + r") (?P<day>\d{1,2})(?:st|nd|rd|th)?(?P<year>,? \d{4}(?:,(?= ))?)?"
                   r"(?P<part> in the (?:morning|afternoon|evening)| at night)?")


def relative_days(text: str, now: datetime) -> str:
    """``text`` with each stated date said relative to ``now``: "today", "tomorrow", "yesterday",
    "on Tuesday" (within the week ahead), else "on February 20" (no year, no weekday). A sentence
    whose every date is past is put in the past tense (:func:`in_past`): news of a quiz night
    "on February 14" asked about on the 15th "was" yesterday.
    """
    def delta(m: re.Match) -> int | None:
        year = int(m.group("year").strip(", ")) if m.group("year") else now.year
        try:
            return (date(year, MONTHS.index(m.group("month")) + 1, int(m.group("day"))) - now.date()).days
        except ValueError:
            return None

    def say(m: re.Match) -> str:
        days = delta(m)
        if days is None:
            return m.group(0)
        part = (m.group("part") or "").split()[-1:]  # "in the morning": "this morning", "on Saturday morning"
        words = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days)
        if part and days in (0, 1, -1):
            return {(0, "night"): "tonight", (-1, "night"): "last night"}.get(
                (days, part[0]), f"{'this' if days == 0 else words} {part[0]}")
        on = "" if not m.group("on") and SPAN_WORD_BEFORE.search(m.string[:m.start()]) else "on "  # "to Thursday"
        if words is None and 1 < days < 7:
            return f"{on}{_DAYS[(now.weekday() + days) % 7]}{' ' + part[0] if part else ''}"
        if words is None:
            words = f"{on}{m.group('month')} {m.group('day').lstrip('0')}{m.group('part') or ''}"
        return words[:1].upper() + words[1:] if (m.group("on") or "").startswith("O") else words  # "On Sunday, ..."

    def past(part: str) -> bool | None:  # True: every date past; None: no date
        days = [d for d in map(delta, _DATE.finditer(part)) if d is not None]
        return max(days) < 0 if days else None

    def said(part: str) -> str:
        every_past = past(part)
        if every_past is None:
            return part
        if every_past:
            return _DATE.sub(say, in_past(part))
        clauses = re.split(r"(,? (?:and|but) |; )", part)  # some days past: clause by clause
        return "".join(_DATE.sub(say, in_past(c) if past(c) else c) for c in clauses)
    return "".join(said(part) for part in re.split(r"(?<=[.!?])(\s+)", text))


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
