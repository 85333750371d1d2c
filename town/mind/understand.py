"""What a listener understands a heard line to state, asked of its own backend once.

The rating a heard line gets anyway (Park et al. 2023 §4.1) is asked as
:class:`~town.thinking.questions.HearLine`, whose answer also holds the statement's fields: a
model reads the line itself; the scripted backend answers from the speaker's dialogue act (the
facts of the memories it passed on, or a player's line read at its edge), which no prompt shows.
The answer becomes the :class:`~town.memory.fact.Fact` of the listener's memory, in the
listener's understanding; no memory's words are read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..memory.fact import Fact
from ..persona import Persona
from ..reading import neutral_act
from ..thinking.answers import HeardAnswer
from ..thinking.questions import HearLine
from ..thinking.views import FactView
from .context import MindContext, seed_for

__all__ = ["fact_view", "fact_of", "understand"]

_STAMP = "%Y-%m-%d %H:%M"


def fact_view(fact: Fact) -> FactView:
    """A fact as the strings a question carries (a place as its name, times "YYYY-MM-DD HH:MM")."""
    return FactView(act=fact.act, subject=fact.subject or "", place=(fact.place or "").rsplit(":", 1)[-1],
                    start=f"{fact.start:{_STAMP}}" if fact.start else "",
                    end=f"{fact.end:{_STAMP}}" if fact.end else "", host=fact.host or "",
                    invited=fact.invited, question=fact.question, part=fact.part or "",
                    cancelled=fact.cancelled, closed=fact.closed, moved=fact.moved, price=fact.price or "",
                    done=fact.done, secret=fact.secret)


def fact_of(answer: HeardAnswer, places: dict[str, str], listener: str, speaker: str = "") -> Fact | None:
    """The listener's fact from its answer (None when the line states no act); ``places``: lower-case
    place name -> address; an act the speaker stated of themselves keeps its possessives neutral
    (:func:`town.reading.neutral_act`)."""
    if not answer.act.strip():
        return None
    start = datetime.strptime(answer.start, _STAMP) if answer.start else None
    end = datetime.strptime(answer.end, _STAMP) if answer.end else None
    if start is not None and end is not None and end < start:
        end = None
    invited = ("everyone",) if answer.everyone else (listener,) if answer.invites_me else ()
    act = neutral_act(answer.act.strip()) if speaker and answer.subject == speaker else answer.act.strip()
    place = places.get(answer.place.lower()) if answer.place else None
    return Fact(subject=answer.subject or None, act=act, place=place, start=start, end=end,
                host=answer.host or None, invited=invited, question=answer.question,
                part=answer.part or None if start is not None else None, cancelled=answer.cancelled,
                closed=answer.closed and start is not None and place is not None,
                moved=answer.moved and not (answer.cancelled or answer.closed) and (start or place) is not None,
                price=answer.price.strip()[:40] or None, done=answer.done and answer.subject != "",
                secret=answer.secret)


def understand(listener: Persona, ctx: MindContext, *, speaker: str, line: str, content: str,
               places: dict[str, str], names: Sequence[str],
               meant: Sequence[Fact] = ()) -> tuple[int, Fact | None]:
    """``(importance, fact)`` of the memory ``line`` makes in ``listener``: one request.

    Args:
        listener: who heard it.
        ctx: the job's context.
        speaker: the speaker's full name.
        line: the words said.
        content: the sentence the memory keeps (what the scripted rule rates).
        places: lower-case place name -> address (:func:`town.textevent.place_names`).
        names: full names of the town's people the listener may name.
        meant: the speaker's dialogue act (a scripted speaker's passed-on facts, a player's line
            read at its edge); shown to no model.
    """
    offered = tuple(sorted({a.rsplit(":", 1)[-1] for a in places.values()}))
    answer = ctx.backend.ask(HearLine(
        persona=listener.id, persona_name=listener.name, persona_summary=listener.summary(),
        seed=seed_for(ctx, listener.id, "importance", content), speaker_name=speaker, line=line,
        content=content, now=ctx.now.isoformat(sep=" "), names=tuple(names), places=offered,
        meant=tuple(fact_view(f) for f in meant)))
    return answer.importance, fact_of(answer, places, listener.name, speaker)
