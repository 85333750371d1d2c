"""A heard statement in memory: 'Maria Lopez told me that S', one level of hearsay in words.

A listener remembers what was said in words (Park et al. 2023 §7.1.1, information diffusion),
but only who told it them: 'Klaus Mueller told me that Isabella Rodriguez is planning a party'.
Who told the teller stays in the record's structured ``source`` (the speaker's record, which has
its own ``source``), never in nested quotes. The mind writes these (:func:`told`); the mind, the
scripted backend and the importance rating read them back (:data:`HEARD`, :func:`unwrap`). A
persona file's "Klaus Mueller told me he is writing a paper" reads the same way. Older runs
wrote 'X told me: "S"', which :func:`unwrap` still reads. Imports nothing of ``town``.
"""

from __future__ import annotations

import re

__all__ = ["NAME", "HEARD", "told", "unwrap", "depth"]

#: A person's name in a memory's text: up to four capitalised words, with the lower-case particles
#: of Dutch, German, French, Spanish, Italian and Portuguese surnames ("Loes de Hoog", "Fedde van
#: de Plas", "Rafał die Bont").
NAME = (r"[A-Z][\w.'’-]*(?: (?:(?:van|von|de|da|di|do|du|der|den|das|dos|del|die|la|le|het|ten|ter|zu|y) ){0,2}"
        r"[A-Z][\w.'’-]*){0,3}")
#: One level of a heard statement: groups ``speaker`` and ``statement``.
HEARD = re.compile(r'^(?P<speaker>' + NAME + r') told me(?: that |: "(?=.*"$)|: | (?=(?:he|she|they|it|I|we)\b))'
                   r'(?P<statement>.*?)"?$', re.S)


def told(speaker: str, statement: str) -> str:
    """What a listener remembers of ``statement`` heard from ``speaker``: '<speaker> told me that S'.

    ``statement`` is already in the listener's perspective (:func:`town.perspective.heard_statement`);
    its own first letter is lower-cased unless it starts a name or "I".
    """
    s = statement.strip()
    first = s.split(" ", 1)[0]
    if s and not (first == "I" or first.startswith("I'") or (first[:1].isupper() and first[1:2].islower()
                                                             and first not in _COMMON)):
        s = s[:1].lower() + s[1:]
    return f"{speaker} told me that {s}"


#: Sentence openers that are not names (lower-cased after "told me that").
_COMMON = frozenset("The A An There It This That These Those Some Everyone Everybody Nobody We They "
                    "He She His Her My Your Our Their".split())


def unwrap(text: str) -> tuple[list[str], str]:
    """(who passed it on, outermost first; the innermost statement) of a memory's text.

    'Klaus Mueller told me that S' -> (["Klaus Mueller"], "S"); an older run's nested
    'A told me: "B told me: "S""' -> (["A", "B"], "S"); a text not heard from anyone -> ([], text).
    """
    speakers = []
    m = HEARD.match(text)
    while m is not None:
        speakers.append(m.group("speaker"))
        text = m.group("statement")
        m = HEARD.match(text)
    return speakers, text


def depth(text: str) -> int:
    """Levels of hearsay ``text`` reports in words: 0 (not heard), 1 ('X told me that S'), 2 ..."""
    return len(unwrap(text)[0]) + len(re.findall(r"\b[A-Z][a-z]+ told (?:me|him|her|them)\b", unwrap(text)[1]))
