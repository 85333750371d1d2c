"""What every question's answer checks share: the rejection, option matching, and own words.

A language model can return well-formed JSON naming a place that does not exist, citing a memory
it was never shown, or a plan block ending at 27:90. Those answers are *invalid* exactly like
unparsable ones: the caller retries and, after N failures, falls back to the scripted answer.

An answer check is a function ``check(question, answer, prompt) -> answer``: it raises
:class:`InvalidAnswer` naming the field and the bad value, or returns the answer, names resolved
to full options. Each question lists its checks (``Question.checks``) and runs them in order
(``Question.check``); a rejection carries the name of the check that made it
(``InvalidAnswer.check``, the function's name), so rejections can be counted per check.

A named place or object is accepted when it equals one of the question's options, ignoring case,
or is the unique option it ends with (``"cafe:counter"`` for
``"the_ville:Hobbs Cafe:cafe:counter"``); it is then replaced by the full option.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pydantic import BaseModel

from ...errors import ThinkingError

__all__ = ["InvalidAnswer", "AnswerCheck", "match_option", "own_words", "time_of_day", "ids_shown", "free_texts",
           "WORDS", "QUOTED", "word_runs"]

#: ``check(question, answer, prompt) -> answer``: raises :class:`InvalidAnswer`, or returns the
#: answer with its names resolved to full options. ``prompt`` is the rendered prompt ("" when
#: none was rendered, e.g. a cached answer).
AnswerCheck = Callable[[Any, Any, str], BaseModel]


class InvalidAnswer(ThinkingError):
    """A model's answer is unparsable (``unparsable=True``) or fails its schema or a check.

    ``check`` names the answer check that rejected it: "schema" for the answer model, "" when
    the reply was unparsable, too long or held text that may not enter the town.
    """

    def __init__(self, reason: str, *, unparsable: bool = False, check: str = ""):
        super().__init__(reason)
        self.unparsable = unparsable
        self.check = check


#: Words of a text, lower-cased: what "says nothing" and "copies" are counted in.
WORDS = re.compile(r"[a-z0-9']+")
#: Consecutive words of an instruction a text may not repeat: SmolLM2's reason "I want to talk
#: about how the line passes on news of a day" took "passes on news of a day" from the sentence
#: "When someone passes on news of a day, they name the date".
INSTRUCTION_WORDS = 6
#: Quoted speech ("Maria said \"...\""): what someone said, attributed, not the writer's own words.
QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
#: Text that is no content: ellipses, "<...>" placeholders, "TODO", punctuation alone, a JSON
#: literal written as text (a heard line's act "true").
_PLACEHOLDER = re.compile(r"^\W*$|^\s*(\.\.\.|…)|<[^<>]*>|^\s*(todo|tbd|n/?a|none|string|text|true|false|null)\s*$",
                          re.I)
#: Fields holding one of the question's options (checked against them, not as free text), and
#: those the program writes into an answer after its checks (a written exchange's ``cut`` and
#: ``dropped``: why a line or a kept item was left out, which quotes a time like "2023-02-14 17:00").
_OPTION_FIELDS = frozenset({"place", "object", "start", "end", "cut", "dropped"})


def match_option(value: str, options: Iterable[str]) -> str | None:
    """The option ``value`` names (exact, case-insensitive, or unique ``:``-suffix), else None."""
    options = list(dict.fromkeys(options))
    low = value.strip().lower()
    exact = [o for o in options if o.lower() == low]
    if exact:
        return exact[0]
    tail = [o for o in options if o.lower().endswith(":" + low)]
    return tail[0] if len(tail) == 1 else None


def time_of_day(hm: str, field: str) -> int:
    """Minutes since midnight of an "HH:MM" time, 00:00-24:00.

    Raises:
        InvalidAnswer: naming ``field`` when ``hm`` is no time of day (e.g. "27:90").
    """
    h, m = int(hm[:2]), int(hm[3:])
    if m >= 60 or h > 24 or (h == 24 and m):
        raise InvalidAnswer(f"{field}: {hm!r} is not a time of day 00:00-24:00")
    return h * 60 + m


def word_runs(text: str, n: int) -> list[tuple[str, ...]]:
    """Every run of ``n`` consecutive words of ``text`` (lower-case, :data:`WORDS`), in order."""
    words = WORDS.findall(text.lower())
    return [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]


def _strings(value: Any) -> Iterator[str]:
    """Every string in a nested structure of dicts, lists and tuples (a question's context)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _instruction_runs(question: Any, sentences: list[str]) -> set[tuple[str, ...]]:
    """The runs of :data:`INSTRUCTION_WORDS` words of the prompt's instruction ``sentences`` that
    are the template's own words: less every run of a value the question filled in (its
    ``context()``: the persona's file, actions, lines of talk), which an answer may repeat."""
    runs = {run for s in sentences for run in word_runs(s, INSTRUCTION_WORDS)}
    context = getattr(question, "context", None)
    if runs and callable(context):
        runs -= {run for text in _strings(context()) for run in word_runs(text, INSTRUCTION_WORDS)}
    return runs


def _instructions(prompt: str) -> list[str]:
    """The prompt's own sentences (not its lists of memories, places or lines), normalised."""
    out = []
    for line in prompt.splitlines():
        if not line.strip() or line.lstrip().startswith("-") or re.match(r"^\s*\d+\.", line):
            continue
        for sentence in re.split(r"(?<=[.?!])\s+", line):
            words = WORDS.findall(sentence.lower())
            if len(words) >= 5:
                out.append(" ".join(words))
    return out


def free_texts(value: Any, where: str = "", key: str = "") -> Iterator[tuple[str, str, str]]:
    """(where, field name, text) for every free-text string in an answer (a model dump)."""
    if isinstance(value, str):
        yield where, key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in _OPTION_FIELDS:
                yield from free_texts(v, f"{where}.{k}" if where else k, k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from free_texts(v, f"{where}[{i}]", key)


def _field_names(value: Any) -> set[str]:
    """Every key of a model dump, at any depth (lower-case)."""
    if isinstance(value, dict):
        return {k.lower() for k in value} | set().union(*(_field_names(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_field_names(v) for v in value))
    return set()


def own_words(question: Any, answer: BaseModel, prompt: str, fields: Iterable[str] = ()) -> BaseModel:
    """Text a model wrote must be its own (every question's first check).

    Rejects, field by field: placeholder or ellipsis text (``"..."``, ``"<one of the
    objects>"``), a field holding its own name or another field's (``"reason": "reason"``; a
    heard line's ``"act": "subject"``, which SmolLM2 wrote; ``fields``: names of fields left out
    of ``answer``), text without a word, a
    text of five or more words found inside one of the prompt's instruction sentences, a text
    repeating :data:`INSTRUCTION_WORDS` consecutive words of the template's own instructions
    (:func:`_instruction_runs`: not of what the question filled in), and a
    text that opens with the prompt's opening sentence ("You are Isabella Rodriguez."), which
    addresses the persona and is never its answer.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    sentences = _instructions(prompt)
    taught = _instruction_runs(question, sentences)
    first = re.split(r"(?<=[.?!])\s", prompt.strip().split("\n", 1)[0], maxsplit=1)[0]
    opening = " ".join(WORDS.findall(first.lower()))
    dump = answer.model_dump(mode="json")
    names = _field_names(dump) | {f.lower() for f in (*type(answer).model_fields, *fields)}
    for where, key, text in free_texts(dump):
        if _PLACEHOLDER.search(text) or text.strip(" .\"'").lower() in names:
            raise InvalidAnswer(f"{where}: {text[:60]!r} is placeholder text, not an answer")
        if not re.search(r"[A-Za-z]{2}", text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} holds no words")
        words = " ".join(WORDS.findall(text.lower()))
        if len(words.split()) >= 5 and any(words in s for s in sentences):
            raise InvalidAnswer(f"{where}: {text[:60]!r} copies the prompt's instructions")
        repeated = next((run for run in word_runs(words, INSTRUCTION_WORDS) if run in taught), None)
        if repeated is not None:
            raise InvalidAnswer(f"{where}: {text[:60]!r} repeats the prompt's instructions "
                                f"({' '.join(repeated)!r})")
        if len(opening.split()) >= 3 and (words + " ").startswith(opening + " "):
            raise InvalidAnswer(f"{where}: {text[:60]!r} copies the prompt's opening")
    return answer


def ids_shown(ids: Iterable[int], shown: Iterable[int], field: str) -> None:
    """Memory ids an answer cites must be among those the question showed.

    Raises:
        InvalidAnswer: naming ``field`` and the ids never shown.
    """
    unknown = set(ids) - set(shown)
    if unknown:
        raise InvalidAnswer(f"{field}: memory ids {sorted(unknown)} were not shown")
