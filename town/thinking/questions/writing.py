"""Checks that a model's text is an answer in the town's language, not a label, a remark or filler.

A 135M model wrote plan steps "step1", "step2", "Your steps include", "Dream of a life filled
with love and light," and a German sentence; each passed the schema, was acted on, and two
became memories of importance 10 ("Maria Lopez is at the sink ...: step1."). Every question runs
these after its own checks (:meth:`.base.Question.check`), on every free-text field of its answer
(:func:`.checks.free_texts`); each names itself in its rejection, so ``town stats`` counts them.

- :func:`not_a_label`: a field that is a label and a number ("step1", "Step 2", "item 3"), or
  only label words ("The steps of the steps"), or
  text about the answer instead of the answer ("Your steps include", "Here is the JSON"), a date
  left blank ("on Feb   ."), or a numbered list left empty ("1. 2.  3.").
- :func:`in_english`: the scenarios are written in English; a text of four or more words of
  which fewer than half are English words (lemminflect's tables, the function words of
  :data:`town.thinking.words.STOPWORDS`, a capitalised name inside a sentence), words of the
  prompt (names, places) aside, is in another language.
- :func:`not_filler`: a greeting-card phrase ("a life filled with love and light"), a text
  broken off after a comma or a joining word, or a word left blank before a sentence's end
  ("I'm actually interested in .").
- :func:`no_reply_syntax`: the reply's own JSON written into a text (", end: true }" and what
  followed it, as SmolLM2 wrote a conversation line).
- :func:`more_than_a_date`: a text that is only a date ("on Tuesday, February 14" as a line,
  "Monday" as a plan block's description), or holds a record's date stamp ("2023-12-27").
- :func:`gives_a_reason`: a ``reason`` field that gives none: a name alone ("Maria Lopez"), "no",
  "yes", or a remark that the reason is not known ("reasons are not known.").
"""

from __future__ import annotations

import calendar
import re
from typing import Any

from pydantic import BaseModel

from ...inflection import is_verb, lemmas
from ..words import PLACE_WORDS, STOPWORDS, content_words, name_words
from .checks import InvalidAnswer, free_texts

__all__ = ["WRITING", "PARAMETER", "not_a_label", "in_english", "mostly_english", "not_filler", "no_reply_syntax", "gives_a_reason",
           "more_than_a_date", "whole_sentences"]

#: The nouns an answer's parts are labelled with: a text of these alone (and numbers, function
#: words) is a label.
_LABEL_NOUNS = ("step", "item", "task", "action", "activity", "block", "line", "answer", "insight", "question",
                "point", "description", "entry", "option", "example")
#: Text about the answer rather than the answer: "Your steps include", "Here are the steps",
#: "The JSON object", "As an AI", "split into steps", "step-specific task with details"; a line
#: about the conversation's lines ("... a point where the next line will continue", "This
#: conversation has just finished", "The conversation has ended, and ...", "This is the line
#: where I've passed on a story", "What you say, in the conversation so far.", "Your next line
#: is...", "You have the line that you're going to end this conversation with today."); a date's format
#: written out ("TOMORROWYYYYY-MMM DAY").
_META = re.compile(r"^\W*(?:your|my|the|these|following)\s+(?:steps|answer|response|reply|output|list|"
                   r"insights|questions|plan)\s+(?:include|includes|are|is|below|follow)\b|"
                   r"^\W*here\s+(?:is|are)\b|\bjson\b|\bas an ai\b|\blanguage model\b|"
                   r"\b(?:split|divided?|broken|break)\s+(?:it\s+|them\s+)?into\s+(?:\w+\s+)?(?:steps|parts|tasks)\b|"
                   r"\bstep-specific\b|"
                   r"\b(?:the|this|a)\s+(?:next|last|previous|following)\s+line\s+(?:will|is|of|in|to)\b|"
                   r"\bthis\s+conversation\s+(?:has|had|is)\s+(?:just\s+|now\s+)?(?:finished|ended|over)\b|"
                   r"^\W*(?:the|this)\s+conversation\s+(?:so\s+far|has|had|will|ended|is\s+over)\b|"
                   r"\bthe\s+conversation\s+so\s+far\b|\bthis\s+is\s+the\s+line\b|\bthe\s+line\s+where\b|"
                   r"(?-i:YYYY|\bMM-DD\b|\bHH:MM\b)|"
                   r"\byour\s+line\b|\ba\s+line\s+from\b|\bline\s+of\s+the\s+conversation\b|"
                   r"\bend\s+of\s+(?:the|this|our)\s+conversation\b|"
                   r"\bnext\s+line\b|\bthe\s+line\s+(?:that|you)\b|\bsaid\s+the\s+line\b", re.I)
#: A description speaking of steps ("use the steps", "A step in order"); "step into the shower"
#: and "take the steps down to the cellar" are steps. (A task in brackets, "look through the
#: shelves (buy supplies)", is the town's own way of writing a step.)
_NOTED = re.compile(r"\b(?:a|the|these|each|every)\s+steps?\b(?!\s+(?:into|onto|out|outside|down|up|inside|on)\b)",
                    re.I)
#: A date left blank: a day or "on" before a month, written out or short, with no day after it
#: ("my plans for Monday February .", "on February  (depart)", "... party at Hobbs Cafe on Feb   .";
#: "on Feb. 14" names its day).
_BLANK_DATE = re.compile(r"\b(?:on|" + "|".join(d for d in calendar.day_name) + r"),?\s+(?:"
                         + "|".join(m for m in (*calendar.month_name, *calendar.month_abbr) if m)
                         + r")\b(?!\.?,?\s*\d)")
#: A numbered list left empty: three numbers in a row with nothing between them ("I, you (and
#: another day)  1. 2.  3.  4.  5.").
_EMPTY_LIST = re.compile(r"(?:\b\d+\.\s*){3,}")
#: A description about a labelled part instead of the part: "The steps of the steps to buy
#: supplies", "A step that involves buying supplies", "this is a step of it".
_ABOUT_A_PART = re.compile(r"^\W*(?:(?:this|it)\s+is\s+)?(?:the|a|an|this|these|each|every|one)\s+(?:\w+\s+)?"
                           rf"(?:{'|'.join(_LABEL_NOUNS)})s?\s+(?:of|that|to|for|which|involves?|includes?)\b", re.I)
#: A label noun opening a text before a number, a quote or a mark: "step 'get ready'", "Line
#: 2023-13-24 27.58, ...", "Step 3: wash" ("step into the shower" is a step).
_LABELLED = re.compile(rf"^\W*(?:{'|'.join(_LABEL_NOUNS)})s?\s*(?:\d|['\"“‘(:#])", re.I)
#: Greeting-card filler, and text broken off after a comma or a joining word.
_FILLER = re.compile(r"\b(?:love and light|filled with (?:love|joy|light|happiness|wonder)|dream of a life|"
                     r"embrace the (?:journey|moment)|live, laugh)\b|(?:[,;]|\b(?:and|or|but|with|to|of))\s*$",
                     re.I)
#: A word left blank: an article, a preposition, a possessive or "is" right before a sentence's
#: end mark ("I'm actually interested in .", "... that I'm not sure is a .").
_LEFT_BLANK = re.compile(r"\b(?:a|an|the|in|on|at|of|for|to|with|about|from|by|is|are|was|were|my|your|his|her|"
                         r"their|our|its)\s+[.!?]", re.I)
#: Words of a text in any alphabet (letters only, apostrophes inside).
_LETTERS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
#: Words a text needs before its language is judged.
LANGUAGE_WORDS = 4
#: English words of talk that lemminflect's tables do not hold.
_SPOKEN = frozenset("hi hey hello bye goodbye oh ok okay yeah wow".split())
#: A number's ending: "14th", "5pm", "7 a.m.".
_NUMBERED = re.compile(r"\d+\s*(?:st|nd|rd|th|am|pm|a\.m\.|p\.m\.)", re.I)
#: The reply's JSON written into a text: braces, a code fence, a text opening with a comma or a
#: closing mark (", description is just a string of text"), or a key after a comma set to true,
#: false or null (", end: true }"). A procedure's parameter ("{place}", :data:`PARAMETER`) is no brace.
#: A ``{parameter}`` written in a procedure's title or condition.
PARAMETER = re.compile(r"\{[^{}]*\}")
_SYNTAX = re.compile(r'[{}]|```|^\s*[,;:)\]]|(?:^|[,{])\s*"?[a-z_]+"?\s*:\s*(?:true|false|null)\b', re.I | re.M)
#: A reason said to someone ("You are a kind, thoughtful student in your dorm ..."), not why
#: ("You are welcome" is a phrase, not a persona addressed).
_TO_SOMEONE = re.compile(r"^\W*you\s*(?:are|'re)\s+(?:a|an|the|at|in|on)\b", re.I)
#: Words that answer yes or no, not why.
_BARE = frozenset("yes no yeah nope okay sure maybe true false reason reasons".split())
#: A remark that the reason is not known ("reasons are not known.", "no reason").
_NOT_KNOWN = re.compile(r"\b(?:reasons?\s+(?:is|are)\s+(?:not\s+known|unknown)|no\s+reason|unknown\s+reasons?|"
                        r"(?:don't|do not|doesn't)\s+know\s+why|no\s+idea\s+why)\b", re.I)


def not_a_label(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text is a numbered label ("step1", "step 'get ready'") or a remark about the answer
    ("Your steps include"), and no description is about a labelled part ("The steps of the steps
    to buy supplies") or only a kind of place without a verb ("bathroom", :data:`.words.PLACE_WORDS`; "go home" is
    what is done).

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, key, text in free_texts(answer.model_dump(mode="json")):
        said = content_words(text)
        if said and all(w.removesuffix("s") in _LABEL_NOUNS for w in said) or _LABELLED.match(text):
            # "step1", "Step 2:", "item #3"; "The steps of the steps", "This is a step of it"; "step 'get ready'"
            raise InvalidAnswer(f"{where}: {text[:60]!r} is a label, not an answer")
        if key == "description" and said and said <= PLACE_WORDS and not is_verb(text.split()[0].lower()):
            raise InvalidAnswer(f"{where}: {text[:60]!r} names a place, not what is done")
        if _META.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} talks about the answer instead of giving it")
        if key == "description" and _ABOUT_A_PART.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} speaks of a step, not what is done in it")
        if key == "description" and _NOTED.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} speaks of steps, not what is done")
        if _BLANK_DATE.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} leaves its date blank")
        if _EMPTY_LIST.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is a numbered list left empty")
    return answer


def _english(word: str) -> bool:
    low = word.lower().replace("’", "'")
    return low in STOPWORDS or low in _SPOKEN or low.isascii() and bool(lemmas(low.split("'")[0]))


def _english_words(text: str, shown: set[str]) -> list[bool]:
    """For each word of ``text`` not among the prompt's (``shown``, lower-case): whether it is an
    English word. A capitalised word inside a sentence is a name, a day or a month ("Klaus",
    "Tuesday", "February", which lemminflect's tables lack) and counts as English; a number's
    ending ("14th", "5pm") is no word."""
    text = _NUMBERED.sub(" ", text)
    out = []
    for m in _LETTERS.finditer(text):
        w = m.group()
        if w.lower() in shown:
            continue
        before = text[:m.start()].rstrip()
        name = w[0].isupper() and w[1:].islower() and bool(before) and before[-1] not in ".!?"
        out.append(name or _english(w))
    return out


def mostly_english(text: str) -> bool:
    """Whether ``text`` is mostly English words (:func:`_english_words`; a run of another script's
    letters, "明天中午我在...", is one word and no English one); a text of no words is."""
    english = _english_words(text, set())
    return 2 * sum(english) >= len(english)


def in_english(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """Each free text of :data:`LANGUAGE_WORDS` or more words (those of the prompt aside) is mostly
    English words (:func:`_english_words`).

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    shown = {w.lower() for w in _LETTERS.findall(prompt)}
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        english = _english_words(text, shown)
        if len(english) >= LANGUAGE_WORDS and 2 * sum(english) < len(english):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is not in English, the town's language")
    return answer


def not_filler(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text is greeting-card filler, broken off after a comma or a joining word, or ends a
    sentence where a word was left blank (:data:`_LEFT_BLANK`).

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        if _FILLER.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is filler or broken off, not an answer")
        if _LEFT_BLANK.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} leaves a word blank before its end")
    return answer


def no_reply_syntax(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text holds the reply's JSON syntax: braces, a code fence, ``key: true``.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        if _SYNTAX.search(PARAMETER.sub(" ", text)):
            raise InvalidAnswer(f"{where}: {text[:60]!r} holds the reply's JSON, not an answer")
    return answer


def gives_a_reason(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """A ``reason`` field says why: a topic word besides the names of the persona and the one it
    meets, and yes or no ("Maria Lopez", "no" are no reason), no remark that the reason is not
    known ("reasons are not known."), and it is said to no one ("You are a kind ...").

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    names = name_words(getattr(question, f, "") for f in ("persona_name", "other_name", "listener_name"))
    for where, key, text in free_texts(answer.model_dump(mode="json")):
        if key != "reason" or not text.strip():  # a reason left out is no claim (own_words judges empty text)
            continue
        if not content_words(text) - names - _BARE or _NOT_KNOWN.search(text) or _TO_SOMEONE.match(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} gives no reason")
    return answer


#: The words of a date: weekdays and months (the standard library's English names), "on", "the",
#: "of", "next", "this".
_DATE_WORDS = {w.lower() for w in (*calendar.day_name, *calendar.month_name) if w} | {"on", "the", "of", "next",
                                                                                      "this"}
#: A number, an ordinal ("14th") or a clock time.
_NUMBER = re.compile(r"^\d+(?:st|nd|rd|th)?$|^\d{1,2}:\d{2}$")
#: A record's date stamp, as the prompts show memories' times ("2023-12-27", "20-23-2023"): no
#: one says a date so, and a text holding one copies the stamp's shape.
_STAMP = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}-\d{1,2}-\d{4}\b")


def more_than_a_date(question: Any, answer: BaseModel, prompt: str) -> BaseModel:
    """No free text is only a date: SmolLM2 answered "on Tuesday, February 14", the next-line
    prompt's former example of naming a date, as its whole line, and described a plan block
    "Monday" (at a bed, for six hours). Nor does it hold a record's date stamp (:data:`_STAMP`):
    SmolLM2 ran one into words as a line, "January, 2023-12-27 14.58 (Klaus Mueller's Day) at
    Hobbs Cafe and drink a latte.". A time's own fields (``start``, ``end``) are no free text.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    for where, _, text in free_texts(answer.model_dump(mode="json")):
        words = re.findall(r"[\w:]+", text.lower())
        if words and all(w in _DATE_WORDS or _NUMBER.match(w) for w in words):
            raise InvalidAnswer(f"{where}: {text[:60]!r} is only a date, not an answer")
        if _STAMP.search(text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} holds a record's date stamp, not words")
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
WRITING = (not_a_label, no_reply_syntax, gives_a_reason, more_than_a_date, in_english, not_filler)
