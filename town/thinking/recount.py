"""A memory said back in the persona's own voice: heard words retold, a file's text made first person.

Used by the scripted interview answers (:mod:`town.thinking.scripted_interview`). A heard memory
is read through :func:`town.hearsay.unwrap` and said one level deep, whatever the chain: heard from
Isabella through Maria, "I am planning a party" is recounted "Maria Lopez told me that Isabella is
planning a party" (the first person of whoever said it first becomes their name). A persona file speaks of the persona
in the third person ("Isabella owns Hobbs Cafe. She knows ..."); :func:`first_person` turns a
sentence of it into "I own Hobbs Cafe", "I know ...". Verb forms come from lemminflect.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lemminflect import getAllLemmas, getInflection, getLemma

from ..hearsay import unwrap

__all__ = ["mine", "is_about", "told_by", "third_person", "first_person", "recount", "base_form", "gerund", "sentence"]

#: Words after "I" that keep their form in the third person (modal verbs, past tense).
_KEEP = frozenset("will would can could should might must may shall did was had".split())
_SAME = {"am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "was": "was"}


@lru_cache(maxsize=4096)
def _vbz(verb: str) -> str:
    """The third-person singular of ``verb`` ("study" -> "studies"); the word itself if unknown."""
    if verb in _SAME:
        return _SAME[verb]
    if verb in _KEEP or not verb.isalpha():
        return verb
    forms = getInflection(verb, tag="VBZ")
    return forms[0] if forms else verb


@lru_cache(maxsize=4096)
def base_form(verb: str) -> str:
    """The base form of ``verb`` ("sleeping" -> "sleep", "owns" -> "own"); itself if unknown."""
    low = verb.lower()
    if low in ("is", "am", "are", "'s"):
        return "be"
    lemmas = getLemma(low, upos="VERB")
    return lemmas[0] if lemmas else low


def _unthird(word: str) -> str:
    """``word`` in the first person when it is a verb's third-person singular ("loves" -> "love")."""
    if not getAllLemmas(word, upos="VERB"):
        return word
    lemma = base_form(word)
    return lemma if lemma != word and _vbz(lemma) == word else word


#: "and <verb> <determiner or preposition>": a second verb of a plan item ("... and serve the customers").
_AND_VERB = re.compile(r"\band ([a-z]+) (the|a|an|with|to|his|her|their|my|some|up|out|over|around)\b")


def gerund(phrase: str) -> str:
    """A plan item's words after "I'll be": "brew coffee and serve the customers" -> "brewing
    coffee and serving the customers"; "sleeping" stays."""
    verb, _, rest = phrase.partition(" ")
    if verb.endswith("ing") or not verb.isalpha():
        return phrase
    forms = getInflection(base_form(verb), tag="VBG")
    rest = _AND_VERB.sub(lambda m: f"and {_ing(m.group(1))} {m.group(2)}", rest)
    return f"{forms[0] if forms else verb} {rest}".strip()


def _ing(word: str) -> str:
    """``word`` as a gerund when the dictionary knows it as a verb; itself otherwise."""
    if not getAllLemmas(word, upos="VERB"):
        return word
    forms = getInflection(word, tag="VBG")
    return forms[0] if forms else word


def mine(text: str) -> str:
    """A persona file's words about the persona, said by it: "his"/"her"/"their" -> "my"."""
    return re.sub(r"\b(his|her|their)\b", "my", text)


def third_person(statement: str, name: str) -> str:
    """``statement`` said by ``name`` in the first person, retold about them.

    "I am planning a party at my cafe" by Isabella Rodriguez -> "Isabella is planning a party at
    Isabella's cafe"; "... and I want to invite everyone I meet" -> "... and Isabella wants to
    invite everyone Isabella meets". "I", "I'm", "my" and "me" change; other text stays.
    """
    first = name.split()[0] if name else "they"
    text = statement.strip()
    m = re.match(r"^I(?:'m|\s+(\S+))\b(.*)$", text, re.S)
    if m is not None:
        verb = "'m" if m.group(1) is None else m.group(1)
        rest = m.group(2)
        text = f"{first} {_vbz(verb.lower())}{rest}" if verb != "'m" else f"{first} is{rest}"
    text = re.sub(r"(?<=[\s,;])I (\w+)\b", lambda v: f"{first} {_vbz(v.group(1).lower())}", text)
    text = re.sub(r"\bmy\b", f"{first}'s", text)
    return re.sub(r"\bme\b", first, text)


def first_person(text: str, name: str) -> str:
    """A sentence of the persona's file about ``name`` in the first person.

    "Isabella Rodriguez owns Hobbs Cafe" / "She knows her regulars" -> "I own Hobbs Cafe" / "I
    know my regulars". A sentence not opening with the name or a pronoun only has its "her"/"his"
    after a verb left alone; it is returned as it is.
    """
    first = name.split()[0]
    m = re.match(rf"^(?:{re.escape(name)}|{re.escape(first)}|She|He|They)\s+(\S+)(.*)$", text.strip(), re.S)
    if m is None:
        return text.strip()
    verb, rest = m.group(1), m.group(2)
    lemma = base_form(verb)
    said = {"be": "am", "have": "have"}.get(lemma, lemma if verb.lower() != lemma else verb)
    rest = re.sub(r"(\band|\bor|\bbut|,) (\w+s)\b", lambda w: f"{w.group(1)} {_unthird(w.group(2))}", rest)
    rest = re.sub(r"\b(her|his|their)\b", "my", rest)
    rest = re.sub(rf"\b(?:{re.escape(name)}|{re.escape(first)})'s\b", "my", rest)
    return f"I {said}{rest}"


def sentence(text: str) -> str:
    """``text`` stripped, its first letter upper-case, ending with a full stop if it has none."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def told_by(content: str) -> list[str]:
    """Who passed a memory on, outermost first: a heard line's chain (:func:`town.hearsay.unwrap`),
    or the partner of a talk summary ("I talked with Maria Lopez: ..." -> ["Maria Lopez"]); [] if neither."""
    talked = re.match(r"^I talked with ([^:]+):", content)
    return [talked.group(1)] if talked else unwrap(content)[0]


def is_about(content: str, first: str) -> bool:
    """Whether a memory tells something of the person called ``first``: it names them in what was
    said or seen, or is a talk with them. Being only in the chain of who passed news on is not."""
    talked = re.match(r"^I talked with ([^:]+):", content)
    if talked:
        return talked.group(1).split()[0] == first or first in content[talked.end():]
    chain, said = unwrap(content)
    if chain and chain[-1].split()[0] == first and re.match(r"^I\b", said):
        return True  # what they said of themselves
    return bool(re.search(rf"\b{re.escape(first)}\b", said))


def recount(content: str, me: str = "") -> str:
    """A memory's text as the persona ``me`` says it: hearsay one level deep, the rest as remembered.

    The persona's own plan ("Ann Able's plan for ...") is "My plan for ...".

    'Maria Lopez told me: "Isabella Rodriguez told me: "I am planning a party""' -> "Maria Lopez
    told me that Isabella is planning a party."; heard from the one who said it, it stays quoted:
    'Isabella Rodriguez told me: "I am planning a party."'.
    """
    talked = re.match(r"^I talked with ([^:]+): (I\b.*)$", content, re.S)
    if talked:  # a talk summary in the partner's words: theirs, quoted once
        return f'I talked with {talked.group(1)}, who told me: "{sentence(talked.group(2))}"'
    speakers, said = unwrap(content)
    if not speakers:
        if me and content.startswith(f"{me}'s plan for "):
            content = "My" + content[len(me) + 2:]
        return sentence(content)
    said = said.strip().rstrip(".")
    if len(speakers) == 1:
        return f'{speakers[0]} told me: "{sentence(said)}"'
    return sentence(f"{speakers[0]} told me that {third_person(said, speakers[-1])}")
