"""Verb forms: a verb in another person, its base form, its gerund, a sentence in the past
(lemminflect's word tables).

"want" -> "wants" (:func:`third_singular`), "owns" -> "own" (:func:`first_singular`), "sleeping"
-> "sleep" (:func:`base_form`), "brew coffee" -> "brewing coffee" (:func:`gerund`), "Bob is
hosting" -> "Bob was hosting" (:func:`in_past`). Used by :mod:`town.perspective` to move a
sentence between speakers and days, and by the scripted mind to say a plan item. The library's
cost: docs/performance.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection, getLemma

from .hearsay import NOT_NAMES

__all__ = ["MODALS", "BE_HAVE", "lemmas", "head_phrase", "is_plural", "is_verb", "participles", "third_singular", "first_singular", "base_form", "gerund",
           "in_past", "and_verbs", "simple_past", "past_of"]

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


def head_phrase(phrase: str) -> str:
    """A noun phrase up to its first preposition: "a sale on garden tools" -> "a sale", "a town
    hall meeting about the bike lanes" -> "a town hall meeting" (its head noun ends it)."""
    return re.split(r"\s+(?:about|for|of|with|on|to|at|in)\s", phrase, maxsplit=1)[0]


def is_plural(phrase: str) -> bool:
    """Whether a noun phrase's last word is a plural noun: "free flu shots" (its lemma "shot"
    differs), not "a bake sale", "the news" or "trivia"."""
    last = phrase.split()[-1].lower() if phrase.split() else ""
    nouns = lemmas(last).get("NOUN") or ()
    return bool(nouns) and last not in nouns


def participles(verb: str) -> tuple[str, ...]:
    """The past participles of the lemma ``verb`` ("set" -> ("set",), "go" -> ("gone",))."""
    return tuple(getInflection(verb, tag="VBN") or ())


def _compound(word: str, inflect: Callable[[str], str]) -> str | None:
    """A hyphenated verb inflected in its last part ("deep-clean" -> "deep-cleaning"), or None
    when ``word`` is none."""
    head, dash, tail = word.rpartition("-")
    if not dash or not head or not tail.isalpha() or not is_verb(tail):
        return None
    return f"{head}-{inflect(tail)}"


def third_singular(word: str) -> str:
    """The third-person singular present of a first-person verb form ("want" -> "wants",
    "deep-clean" -> "deep-cleans")."""
    compound = _compound(word, third_singular)
    if compound is not None:
        return compound
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


def simple_past(verb: str) -> str:
    """The simple past of a verb form ("hosts" -> "hosted", "hold" -> "held", "re-paint" ->
    "re-painted"); itself if unknown."""
    compound = _compound(verb, simple_past)
    if compound is not None:
        return compound
    forms = getInflection(base_form(verb), tag="VBD")
    return forms[0] if forms and is_verb(verb) else verb


def past_of(word: str) -> tuple[str, ...]:
    """The verbs (lemmas) ``word`` is the simple past of: "sold" -> ("sell",), "put" -> ("put",),
    "sell" -> ()."""
    low = word.lower()
    return tuple(v for v in lemmas(low).get("VERB", ()) if low in (getInflection(v, tag="VBD") or ()))


_BE_PAST = {"am": "was", "is": "was", "are": "were", "isn't": "wasn't", "aren't": "weren't"}
_PLURAL = frozenset("they we you".split())


#: Words after "I" that keep their form in the past ("I can", "I must") or are no verb of its own.
_MODAL_WORDS = frozenset("can could may might must shall should will would ought".split())


def in_past(text: str) -> str:
    """``text`` with its present and future verbs in the past: "is organising" -> "was organising",
    "are" -> "were", "will host" -> "hosted", "will be" -> "was" ("were" after they, we, you),
    "won't come" -> "didn't come", "have to" -> "had to", a verb after I, we, you or they ("I want"
    -> "I wanted") and a verb in the third person after a name or he/she/it ("Josefine hosts" ->
    "Josefine hosted"). Past verbs ("told") stay as they are.
    """
    words = re.split(r"(\s+)", text)
    out: list[str] = []
    i = 0
    while i < len(words):
        w, low = words[i], words[i].lower()
        prev = out[-2] if len(out) >= 2 else ""
        after = words[i + 2] if i + 2 < len(words) else ""
        if low in _BE_PAST:
            out.append(_like(w, _BE_PAST[low]))
        elif low in ("have", "has") and after.lower() == "to":  # "I have to work" -> "I had to work"
            out.append(_like(w, "had"))
        elif low in ("will", "won't") and after.replace("-", "").isalpha() and is_verb(after.rpartition("-")[2]):
            past = ("were" if prev.lower() in _PLURAL else "was") if after == "be" else simple_past(after)
            out.append(_like(w, past if low == "will" else f"didn't {after}"))
            i += 2
        elif (prev in ("I", "we", "you", "they") and w.isalpha() and w.islower() and w not in _MODAL_WORDS
              and w in (lemmas(w).get("VERB") or ())):  # "but I want to be there" -> "but I wanted to be there"
            out.append(simple_past(w))
        elif (w.isalpha() and w.islower() and w.endswith("s") and lemmas(w).get("VERB")
              and (prev.lower() in ("he", "she", "it") or (prev[:1].isupper() and prev.isalpha()
                                                           and prev not in NOT_NAMES))):
            out.append(simple_past(w))
        else:
            out.append(w)
        i += 1
    return "".join(out)


def _like(model: str, word: str) -> str:
    """``word`` capitalised as ``model`` is."""
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


#: "and <verb> <determiner or preposition>": a second verb of a plan item ("... and serve the customers").
_OBJECT = "the|a|an|to|his|her|their|my|some"  # what may follow a verb (and not a noun: "bread and butter")
_AND_VERB = re.compile(rf"\band ([a-z]+) ({_OBJECT}|with|up|out|over|around)\b")
_AND_VERB_STRICT = re.compile(rf"\band ([a-z]+) ({_OBJECT})\b")


def gerund(phrase: str) -> str:
    """A plan item's words as the persona says them after "I'll be": "brew coffee and serve the
    customers" -> "brewing coffee and serving the customers", "count the till, clean the machine
    and lock up" -> "counting the till, cleaning the machine and locking up"; "sleeping" stays;
    "deep-clean the kitchen" -> "deep-cleaning the kitchen"."""
    verb, _, rest = phrase.partition(" ")
    compound = _compound(verb, gerund)
    if not verb.isalpha() and compound is None:
        return phrase
    rest = _AND_ONLY_VERB.sub(lambda m: f"and {_ing(m.group(1))}" if _coordinated(m) else m.group(0),
                              and_verbs(rest, _ing))  # each coordinated verb: "cook and eat dinner"
    rest = _COMMA_VERB.sub(lambda m: f", {_ing(m.group(1))}" if (lemmas(m.group(1)).get("VERB") or ("",))[0] == m.group(1)
                           else m.group(0), rest)  # "count the till, clean the machine and lock up"
    if compound is not None:
        return f"{compound} {rest}".strip()
    if verb.endswith("ing") and base_form(verb) != verb.lower():  # "sleeping"; not "bring", "sing"
        return f"{verb} {rest}".strip()
    forms = getInflection(base_form(verb), tag="VBG")
    return f"{forms[0] if forms else verb} {rest}".strip()


#: ", <word>" before an article or a particle: a verb of a list of acts when it is a verb's base
#: form ("count the till, clean the machine and lock up"; not "milk, beans and pastries").
_COMMA_VERB = re.compile(r",\s+([a-z]+)(?=\s+(?:the|a|an|my|his|her|their|our|some|up|out|down|off)\b)")
#: "and <word> [<next word>]": a coordinated verb of a plan item when the word is a verb there
#: (:func:`_coordinated`).
_AND_ONLY_VERB = re.compile(r"\band ([a-z]+)\b(?=(?: ([a-z]+))?)")


def _coordinated(found: re.Match[str]) -> bool:
    """Whether the word after "and" in ``found`` (a match in the plan item after its first verb)
    is a second verb: only a verb ("and eat dinner"); a verb's base form straight
    after the first verb ("read and take notes": "and" joins the verbs); or a verb's base form
    before a plural noun ("... and answer emails"). "have bread and butter" keeps its noun."""
    word, after = found.group(1), found.group(2) or ""
    base = (lemmas(word).get("VERB") or ("",))[0] == word
    plural = after.endswith("s") and (lemmas(after).get("NOUN") or (after,))[0] != after
    return _only_verb(word) or (base and (found.start() == 0 or plural))


def _only_verb(word: str) -> bool:
    """Whether the dictionary knows ``word`` as a verb's base form and as nothing else ("eat",
    not "butter" nor "eating")."""
    found = lemmas(word)
    return set(found) == {"VERB"} and found["VERB"][0] == word


def and_verbs(text: str, form: Callable[[str], str], *, strict: bool = False) -> str:
    """``text`` with each second verb of a clause ("and <verb>" before a determiner or a
    preposition) put in ``form``: "and need to study" -> "and needs to study" with
    :func:`third_singular`. ``strict``: only before a determiner or "to" (in a sentence that
    is not a plan item, "bread and butter with tea" has no second verb)."""
    pattern = _AND_VERB_STRICT if strict else _AND_VERB
    return pattern.sub(lambda m: f"and {form(m.group(1))} {m.group(2)}", text)


def _ing(word: str) -> str:
    """``word`` as a gerund when the dictionary knows it as a verb; itself otherwise."""
    if not lemmas(word).get("VERB"):
        return word
    forms = getInflection(word, tag="VBG")
    return forms[0] if forms else word
