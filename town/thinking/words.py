"""Topic words of a text: what the scripted rules compare memories and questions by.

A text's topic words are its lower-case words of three letters or more, without function words,
asking verbs or a possessive "'s" (:func:`content_words`). Interviews, reflection and task
decomposition read the same memories again and again, so recent texts are remembered.
"""

from __future__ import annotations

import re
from functools import lru_cache

from town.inflection import lemmas

__all__ = ["STOPWORDS", "PLACE_WORDS", "content_words", "name_words"]

#: Words naming a kind of place rather than a task or a person ("{persona}'s room", "Isabella
#: Rodriguez's apartment").
PLACE_WORDS = frozenset("room rooms home house apartment flat place area spot kitchen bedroom bathroom office "
                        "cafe shop store dorm".split())

#: Words that carry no topic (function words and asking verbs).
STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with about from into over under up out as so than
is are was were be been being am do does did done have has had i me my mine you your yours he him
his she her hers it its we us our they them their what which who whom whose when where why how
that this these those there here any anything anyone some something someone know knew known
heard hear tell told think thought can could would should will shall may might must not no yes
please going get got
""".split())


@lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    """Lower-case topic words of ``text``: no stopwords, no possessive "'s", at least 3 letters."""
    words = (w.removesuffix("'s").strip("'") for w in re.findall(r"[a-z']+", text.lower()))
    return frozenset(w for w in words if len(w) >= 3 and w not in STOPWORDS)


def name_words(names) -> set[str]:
    """The lower-case words of ``names`` (full names of people)."""
    return {w.lower() for n in names for w in n.split()}


@lru_cache(maxsize=65536)
def topic_words(text: str) -> frozenset[str]:
    """:func:`content_words` of ``text`` in their dictionary form (lemminflect: a verb's lemma,
    else a noun's), so that a question and a memory wording one thing two ways meet: "Sam
    running for mayor" and "decided to run for mayor" share {"run", "mayor"}."""
    out = set()
    for word in content_words(text):
        found = lemmas(word)
        out.add((found.get("VERB") or found.get("NOUN") or (word,))[0])
    return frozenset(out)


def any_phrase(*alternatives: str) -> re.Pattern[str]:
    """A case-blind pattern matching any of ``alternatives`` (regular-expression fragments) as
    whole words: ``any_phrase("news", "what's new")`` finds "Any news?" and "So what's new?"."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.I)
