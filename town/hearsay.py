"""A heard line in memory: 'Klaus Mueller told me: "<line>"', and who passed it on.

A listener remembers what was said in words only (Park et al. 2023 §7.1.1, information
diffusion), so the chain of who said it stays in the text, one level per retelling:
'Klaus Mueller told me: "Isabella Rodriguez told me: "S""'. The mind writes these (:func:`told`);
the mind, the scripted backend and the importance rating read them back (:data:`HEARD`,
:func:`unwrap`). Imports nothing of ``town``, so any layer may use it.
"""

from __future__ import annotations

import re

__all__ = ["HEARD", "told", "unwrap"]

#: One level of a heard line: groups ``speaker`` and ``statement`` (which may be heard again).
HEARD = re.compile(r'^(?P<speaker>[^"]+?) told me: "(?P<statement>.*)"$', re.S)


def told(speaker: str, line: str) -> str:
    """What a listener remembers of ``line`` said by ``speaker``: '<speaker> told me: "<line>"'."""
    return f'{speaker} told me: "{line}"'


def unwrap(text: str) -> tuple[list[str], str]:
    """(who passed it on, outermost first; the innermost statement) of a memory's text.

    'Klaus Mueller told me: "Isabella Rodriguez told me: "S""' -> (["Klaus Mueller",
    "Isabella Rodriguez"], "S"); a text not heard from anyone -> ([], text).
    """
    speakers = []
    m = HEARD.match(text)
    while m is not None:
        speakers.append(m.group("speaker"))
        text = m.group("statement")
        m = HEARD.match(text)
    return speakers, text
