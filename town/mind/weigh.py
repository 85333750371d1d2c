"""Importance (poignancy 1-10) of a memory from what it means: its fact's fields, never its words.

Park et al. 2023 §4.1 rates a memory's poignancy. A memory the persona understood as a statement
(a :class:`~town.memory.fact.Fact`) is rated here from that meaning, for an event of any kind:
no list of event words, and the words around it ("X told me that ...", "Did you hear?") play no
part. Memories without a fact are rated by the backend as before (:func:`town.mind.context.rate`).

The rule, each step worked out by hand in tests/mind/test_weigh.py:

- a statement: :data:`STATEMENT` (3); an event (a place and a start): :data:`EVENT` (4);
- the persona's own event (it is the subject or the host): :data:`OWN` (8), an obligation;
- an invitation that includes it (open to everyone, or naming it), or an event no one of the
  town holds ("there is a jazz night at the pub": a public one, open to all): + :data:`INVITED` (2);
- the host (or subject) is someone it has a tie with (its file's relationships): + 1;
- an event still ahead that starts within :data:`SOON_HOURS` game hours: + 1;
- a cancellation or a move (:attr:`~town.memory.fact.Fact.cancelled`,
  :attr:`~town.memory.fact.Fact.moved`, its place and day said or not): its own event's weight,
  :data:`OWN` + 1 (9) for its host, else :data:`EVENT` + :data:`INVITED` (6) and + 1 for a tie:
  a plan undone weighs more than the plan, so the two are recalled together.

A fact someone passed on as news (their line told it from their memories) weighs at least
:data:`NEWS` to its hearer, whatever the rule gives: what one was told as news is news, and it
is what a persona passes on in turn (``town.mind.converse.keep``), so heard news travels on
from those who heard it (Park et al. 2023 §7.1.1: the candidacy and the party spread second-hand).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..memory.fact import Fact

__all__ = ["STATEMENT", "EVENT", "OWN", "INVITED", "SOON_HOURS", "NEWS", "fact_importance"]

STATEMENT, EVENT, OWN, INVITED = 3, 4, 8, 2
#: An event starting within this many game hours is soon.
SOON_HOURS = 36
#: The least importance of news: a memory this important is worth passing on, and a fact told
#: to one as news is rated this at least.
NEWS = 5


def fact_importance(fact: Fact, *, me: str, ties: frozenset[str], now: datetime) -> int:
    """Poignancy 1-10 of a memory stating ``fact``.

    Args:
        fact: what the memory states, as the persona understood it.
        me: the persona's full name.
        ties: full names of those it has a tie with (its file's relationships).
        now: the game time the memory is made.
    """
    who = fact.host or fact.subject
    if fact.cancelled or fact.moved:
        return OWN + 1 if me in (fact.host, fact.subject) else EVENT + INVITED + (who is not None and who in ties)
    event = fact.place is not None and fact.start is not None
    if me in (fact.host, fact.subject):
        score = OWN if event else STATEMENT + 1
    else:
        score = EVENT if event else STATEMENT
        if event and (fact.open_invitation or me in fact.invited or who is None):  # no one's: a public one
            score += INVITED
        if who is not None and who in ties:
            score += 1
    if event and fact.start is not None and now <= fact.start <= now + timedelta(hours=SOON_HOURS):
        score += 1
    return max(1, min(10, score))
