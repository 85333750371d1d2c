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

__all__ = ["CAPITAL", "NAME", "HEARD", "NOT_NAMES", "told", "unwrap", "pronoun_of", "depth"]



def _capitals() -> str:
    """A character class of every upper- and title-case letter of the Basic Multilingual Plane
    (``re`` has no ``\\p{Lu}``): names begin with "Í", "Ł" or "Ö" as well as "I"."""
    codes = [c for c in range(0x10000) if chr(c).isupper() or chr(c).istitle()]
    runs: list[list[int]] = []
    for c in codes:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "[" + "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in runs) + "]"


#: A capital letter, in any script that has case.
CAPITAL = _capitals()
#: A person's name in a memory's text: up to four capitalised words, with the lower-case particles
#: of Dutch, German, French, Spanish, Italian and Portuguese surnames ("Loes de Hoog", "Fedde van
#: de Plas", "Rafał die Bont", "Ísis Brown").
NAME = (CAPITAL + r"[\w.'’-]*(?: (?:(?:van|von|de|da|di|do|du|der|den|das|dos|del|die|la|le|het|ten|ter|zu|y) ){0,2}"
        + CAPITAL + r"[\w.'’-]*){0,3}")
#: One level of a heard statement: groups ``speaker`` and ``statement``.
HEARD = re.compile(r'^(?P<speaker>' + NAME + r') told me(?: that |: "(?=.*"$)|: | (?=(?:he|she|they|it|I|we)\b))'
                   r'(?P<statement>.*?)"?$', re.S)


def told(speaker: str, statement: str, pronoun: str | None = None) -> str:
    """What a listener remembers of ``statement`` heard from ``speaker``: '<speaker> told me that S'.

    ``statement`` is already in the listener's words (:func:`town.realise.statement`);
    its own first letter is lower-cased unless it starts a name or "I". A statement that opens with
    the teller's own name says it once: with ``pronoun`` "she" or "he" (the persona file's),
    'Isabella told me that she is planning a party', not '... that Isabella Rodriguez is planning'
    (:func:`unwrap` reads the name back). "they" would change the verb, so otherwise the first name
    stands: 'Sam Moore told me that Sam has decided to run'.
    """
    s = statement.strip()
    own = _opens_with(speaker, s)
    if own:
        s = f"{pronoun if pronoun in ('she', 'he') else speaker.split()[0]} {s[own:]}"
    first = s.split(" ", 1)[0]
    if s and not (first == "I" or first.startswith("I'") or (first[:1].isupper() and first[1:2].islower()
                                                             and first not in NOT_NAMES)):
        s = s[:1].lower() + s[1:]
    return f"{speaker} told me that {s}"


#: Capitalised words that are not names: sentence openers (lower-cased after "told me that").
NOT_NAMES = frozenset("The A An There It Its This That These Those Some Every Each Everyone Everybody Nobody "
                      "We They He She His Her My Your Our Their".split())


def unwrap(text: str) -> tuple[list[str], str]:
    """(who passed it on, outermost first; the innermost statement) of a memory's text.

    'Klaus Mueller told me that S' -> (["Klaus Mueller"], "S"); an older run's nested
    'A told me: "B told me: "S""' -> (["A", "B"], "S"); a text not heard from anyone -> ([], text).
    The statement stands alone: 'Klaus Mueller told me that he is writing' -> (["Klaus Mueller"],
    "Klaus Mueller is writing"), since "he" is the one who told it.
    """
    speakers = []
    m = HEARD.match(text)
    while m is not None:
        speakers.append(m.group("speaker"))
        text = m.group("statement")
        m = HEARD.match(text)
    lead = _LEAD.match(text) if speakers else None
    if lead:
        text = f"{speakers[-1]} {text[lead.end():]}"
    return speakers, text


def pronoun_of(text: str) -> str | None:
    """The pronoun a heard memory's text uses for its teller ("she", "he"), or None.

    'Isabella Rodriguez told me that she is planning a party' -> "she", so a retelling says the
    teller once too (:func:`told`).
    """
    m = HEARD.match(text)
    lead = _LEAD.match(m.group("statement")) if m else None
    return lead.group(1).lower() if lead else None


#: A statement's opening "he" or "she" (then a lower-case word): the one who told it.
_LEAD = re.compile(r"^(he|she) (?=[a-z])", re.I)


def _opens_with(speaker: str, statement: str) -> int:
    """The length of the speaker's name (full, or first name and more capitalised words) that
    ``statement`` opens with, before its lower-case verb; 0 if it does not ("Isabella
    Rodriguez's party" does not: that is not her as the subject)."""
    first = re.escape(speaker.split()[0]) if speaker.split() else None
    m = re.match(rf"^{first}(?: [A-Z][a-z-]*)* (?=[a-z])", statement) if first else None
    return m.end() if m else 0


def depth(text: str) -> int:
    """Levels of hearsay ``text`` reports in words: 0 (not heard), 1 ('X told me that S'), 2 ..."""
    return len(unwrap(text)[0]) + len(re.findall(r"\b[A-Z][a-z]+ told (?:me|him|her|them)\b", unwrap(text)[1]))
