"""Checks that a model's text is an answer in the town's language, not a label, a remark or filler.

A 135M model wrote plan steps "step1", "step2", "Your steps include", "Dream of a life filled
with love and light," and a German sentence; each passed the schema, was acted on, and two
became memories of importance 10 ("Maria Lopez is at the sink ...: step1."). Every question runs
these after its own checks (:meth:`.base.Question.check`), on every free-text field of its answer
(:func:`.checks.free_texts`); each names itself in its rejection, so ``town stats`` counts them.

- :func:`not_a_label`: a field that is a label and a number ("step1", "Step 2", "item 3"), or
  only label words ("The steps of the steps"), or
  text about the answer instead of the answer ("Your steps include", "Here is the JSON").
- :func:`in_english`: the scenarios are written in English; a text of four or more words of
  which fewer than half are English words (lemminflect's tables, the function words of
  :data:`town.thinking.words.STOPWORDS`), words of the prompt (names, places) aside, is in
  another language.
- :func:`not_filler`: a greeting-card phrase ("a life filled with love and light"), or a text
  broken off after a comma or a joining word.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from ...inflection import lemmas
from ..words import STOPWORDS, content_words
from .checks import InvalidAnswer, free_texts

__all__ = ["WRITING", "not_a_label", "in_english", "not_filler", "whole_sentences"]

#: The nouns an answer's parts are labelled with: a text of these alone (and numbers, function
#: words) is a label.
_LABEL_NOUNS = ("step", "item", "task", "action", "activity", "block", "line", "answer", "insight", "question",
                "point", "description", "entry", "option", "example")
#: Text about the answer rather than the answer: "Your steps include", "Here are the steps",
#: "The JSON object", "As an AI".
_META = re.compile(r"^\W*(?:your|my|the|these|following)\s+(?:steps|answer|response|reply|output|list|"
                   r"insights|questions|plan)\s+(?:include|includes|are|is|below|follow)\b|"
                   r"^\W*here\s+(?:is|are)\b|\bjson\b|\bas an ai\b|\blanguage model\b", re.I)
#: Greeting-card filler, and text broken off after a comma or a joining word.
_FILLER = re.compile(r"\b(?:love and light|filled with (?:love|joy|light|happiness|wonder)|dream of a life|"
                     r"embrace the (?:journey|moment)|live, laugh)\b|(?:[,;]|\b(?:and|or|but|with|to|of))\s*$",
                     re.I)
#: Words of a text in any alphabet (letters only, apostrophes inside).
_LETTERS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
#: Words a text needs before its language is judged.
LANGUAGE_WORDS = 4


def not_a_label(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text is a numbered label ("step1") or a remark about the answer ("Your steps include").

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        said = content_words(text)
        if said and all(w.removesuffix("s") in _LABEL_NOUNS for w in said):
            # "step1", "Step 2:", "item #3"; "The steps of the steps", "This is a step of it"
            raise InvalidAnswer(f"{where}: {text[:60]!r} is a label, not an answer")
        if _META.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} talks about the answer instead of giving it")
    return answer


def _english(word: str) -> bool:
    low = word.lower().replace("’", "'")
    return low in STOPWORDS or low.isascii() and bool(lemmas(low.split("'")[0]))


def in_english(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """Each free text of :data:`LANGUAGE_WORDS` or more words (those of the prompt aside) is mostly
    English words.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    shown = {w.lower() for w in _LETTERS.findall(prompt)}
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        words = [w for w in _LETTERS.findall(text) if w.lower() not in shown]
        if len(words) >= LANGUAGE_WORDS and 2 * sum(map(_english, words)) < len(words):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is not in English, the town's language")
    return answer


def not_filler(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text is greeting-card filler or broken off after a comma or a joining word.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        if _FILLER.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is filler or broken off, not an answer")
    return answer


#: A sentence and the space after it: up to ".", "!" or "?" (and closing quotes) before a space or the end.
_SENTENCE = re.compile(r".+?[.!?][\"'”’)\]]*(?:\s+|$)", re.S)


def whole_sentences(text: str, most: int) -> str:
    """The first ``most`` whole sentences of ``text``; a part cut off after the last whole
    sentence is left out ("... from 5pm to"). Text without a whole sentence is returned as it is
    (a check may reject it). For an answer a grammar stopped at its length bound, or one longer
    than its prompt asked."""
    found = _SENTENCE.findall(text.strip())
    return "".join(found[:most]).strip() if found else text


#: The checks every question runs after its own, in this order.
WRITING = (not_a_label, in_english, not_filler)
