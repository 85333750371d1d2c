"""Verb forms: a verb in another person, its base form, its gerund (lemminflect's word tables).

"want" -> "wants" (:func:`third_singular`), "owns" -> "own" (:func:`first_singular`), "sleeping"
-> "sleep" (:func:`base_form`), "brew coffee" -> "brewing coffee" (:func:`gerund`). Used by
:mod:`town.perspective` to move a sentence between speakers and by the scripted mind to say a
plan item. The library's cost: docs/performance.md.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection, getLemma

__all__ = ["MODALS", "BE_HAVE", "lemmas", "is_verb", "third_singular", "first_singular", "base_form", "gerund"]

#: Modal verbs: the same in every person ("I can" / "she can").
MODALS = frozenset("can could will would shall should may might must".split())
#: A subject-verb pair moved between persons: (first person, third person).
BE_HAVE = {"am": "is", "'m": "is", "’m": "is", "was": "was", "have": "has", "'ve": "has", "’ve": "has",
           "do": "does", "don't": "doesn't", "'d": "would", "’d": "would", "'ll": "will", "’ll": "will",
           "haven't": "hasn't", "wasn't": "wasn't"}


@lru_cache(maxsize=4096)
def lemmas(word: str) -> dict:
    """lemminflect's lemmas of ``word`` (lower-cased) by part of speech: {"VERB": ("own",), ...}."""
    return getAllLemmas(word.lower())


def third_singular(word: str) -> str:
    """The third-person singular present of a first-person verb form ("want" -> "wants")."""
    low = word.lower()
    if low in BE_HAVE:
        return BE_HAVE[low]
    if low in MODALS or low.endswith("n't"):
        return word
    verb = lemmas(low).get("VERB") or lemmas(low).get("AUX")
    if verb and verb[0] == low:
        forms = getInflection(low, tag="VBZ")
        return forms[0] if forms else word
    return word  # past tense, or not a verb: the same in every person


def first_singular(word: str) -> str:
    """The first-person present of a third-person singular verb ("owns" -> "own", "is" -> "am");
    "are" (after "They") -> "am" too."""
    low = word.lower()
    back = {"is": "am", "are": "am", "has": "have", "does": "do", "doesn't": "don't", "hasn't": "haven't"}
    if low in back:
        return back[low]
    verb = lemmas(low).get("VERB")
    if verb and verb[0] != low and getInflection(verb[0], tag="VBZ") == (low,):
        return verb[0]
    return word


def is_verb(word: str) -> bool:
    """Whether the dictionary knows ``word`` as a verb or an auxiliary (any form)."""
    return bool(lemmas(word).get("VERB") or lemmas(word).get("AUX"))


@lru_cache(maxsize=4096)
def base_form(verb: str) -> str:
    """The base form of ``verb`` ("sleeping" -> "sleep", "owns" -> "own"); itself if unknown."""
    low = verb.lower()
    if low in ("is", "am", "are", "'s"):
        return "be"
    found = getLemma(low, upos="VERB")
    return found[0] if found else low


#: "and <verb> <determiner or preposition>": a second verb of a plan item ("... and serve the customers").
_AND_VERB = re.compile(r"\band ([a-z]+) (the|a|an|with|to|his|her|their|my|some|up|out|over|around)\b")


def gerund(phrase: str) -> str:
    """A plan item's words as the persona says them after "I'll be": "brew coffee and serve the
    customers" -> "brewing coffee and serving the customers"; "sleeping" stays."""
    verb, _, rest = phrase.partition(" ")
    if verb.endswith("ing") or not verb.isalpha():
        return phrase
    forms = getInflection(base_form(verb), tag="VBG")
    rest = _AND_VERB.sub(lambda m: f"and {_ing(m.group(1))} {m.group(2)}", rest)
    return f"{forms[0] if forms else verb} {rest}".strip()


def _ing(word: str) -> str:
    """``word`` as a gerund when the dictionary knows it as a verb; itself otherwise."""
    if not lemmas(word).get("VERB"):
        return word
    forms = getInflection(word, tag="VBG")
    return forms[0] if forms else word
