"""Reacting to others and conversing (Park et al. 2023 §4.3.2).

A persona who sees another decides, after retrieving what it remembers of them, whether to
talk. In a conversation each line is preceded by the speaker's retrieval; lines that pass on a
memory leave the listener a chat memory that keeps its provenance (conversation, and the
speaker's original record), so news spreads by retrieval, as in the paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..events import EventKind
from ..persona import Persona
from ..thinking.questions import DecideToTalk, NextLine, SummariseConversation
from .context import MindContext, SeqRef, recall, remember, seed_for, views
from .perceive import View

__all__ = ["Conversation", "want_to_talk", "say_next_line", "LINE_EVERY_TICKS", "MAX_LINES"]

#: A line is spoken every 2 ticks (20 game seconds at 10 s/tick).
LINE_EVERY_TICKS = 2
#: Lines at most in one conversation.
MAX_LINES = 8
#: Game hours before the same pair talks again (after a talk / after declining).
TALK_COOLDOWN_HOURS, DECLINE_COOLDOWN_HOURS = 3, 1


@dataclass
class Conversation:
    """An ongoing conversation between two personas (``a`` started it)."""

    id: int
    a: str
    b: str
    start_tick: int
    lines: list[tuple[str, str]] = field(default_factory=list)
    told: dict[str, list[int]] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)

    def get_state(self) -> dict:
        """JSON-able state."""
        return {"id": self.id, "a": self.a, "b": self.b, "start_tick": self.start_tick,
                "lines": [list(x) for x in self.lines], "told": self.told, "said": self.said}

    @classmethod
    def from_state(cls, s: dict) -> Conversation:
        """Inverse of :meth:`get_state`."""
        return cls(id=s["id"], a=s["a"], b=s["b"], start_tick=s["start_tick"],
                   lines=[tuple(x) for x in s["lines"]], told={k: list(v) for k, v in s["told"].items()},
                   said=list(s["said"]))


def _relationship(p: Persona, other: str) -> str:
    for rel in getattr(p.spec, "relationships", ()) or ():
        if rel.persona == other:
            return rel.description
    return ""


def want_to_talk(p: Persona, ctx: MindContext, seen: list[View]) -> tuple[str, int | SeqRef] | None:
    """React to the first visible, free persona not on cooldown: retrieve, then DecideToTalk.

    Returns:
        (the other persona's id, seq of the retrieval behind the decision) if ``p`` wants to
        start a conversation, else None.
    """
    if p.asleep or p.conversation is not None:
        return None
    hour_ticks = 3600 // ctx.clock.seconds_per_tick
    for other in seen:
        if other.conversation is not None or ctx.tick < p.cooldown.get(other.id, 0):
            continue
        records, seq = recall(p, ctx, f"What do I know about {other.name}? What should I tell them?",
                              purpose="react")
        own = p.action.description if p.action else "idle"
        answer = ctx.backend.ask(DecideToTalk(
            persona=p.id, persona_name=p.name, persona_summary=p.summary(),
            seed=seed_for(ctx, p.id, "talk", other.id), other=other.id, other_name=other.name,
            other_action=other.action, own_action=own, relationship=_relationship(p, other.id),
            memories=views(records)))
        hours = TALK_COOLDOWN_HOURS if answer.talk else DECLINE_COOLDOWN_HOURS
        p.cooldown[other.id] = ctx.tick + hours * hour_ticks
        return (other.id, seq) if answer.talk else None
    return None


def say_next_line(conv: Conversation, personas: dict[str, Persona], ctx: MindContext) -> bool:
    """The next speaker retrieves and says a line; returns True when the conversation ended."""
    speaker_id = conv.a if len(conv.lines) % 2 == 0 else conv.b
    listener_id = conv.b if speaker_id == conv.a else conv.a
    speaker, listener = personas[speaker_id], personas[listener_id]
    last = conv.lines[-1][1] if conv.lines else ""
    query = f"{listener.name}. {last}".strip()
    records, seq = recall(speaker, ctx, query, purpose="chat")
    told = conv.told.setdefault(speaker_id, [])
    # Never tell the listener what they said themselves (no echo back along provenance).
    # nor repeat a statement already made in this conversation or told them before.
    old = set(conv.said) | set(speaker.told.get(listener.id, ()))
    tellable = [r for r in records if not (r.source and r.source[0] == listener.id)
                and _root(r, speaker)[0] != listener.name and _root(r, speaker)[1] not in old]
    answer = ctx.backend.ask(NextLine(
        persona=speaker.id, persona_name=speaker.name, persona_summary=speaker.summary(),
        seed=seed_for(ctx, speaker.id, "line", conv.id), listener=listener.id,
        listener_name=listener.name, history=tuple((personas[w].name, t) for w, t in conv.lines),
        memories=views(tellable), told=tuple(told), max_lines=MAX_LINES))
    known = {r.id: r for r in tellable}
    shared = [i for i in answer.shared if i in known and i not in told]
    conv.lines.append((speaker_id, answer.line))
    speaker.speech = answer.line
    ctx.publish(EventKind.CHAT, speaker.id, {
        "conversation": conv.id, "speaker": speaker.id, "listener": listener.id,
        "line": answer.line, "shared": shared, "retrieval": seq})
    for rid in shared:
        told.append(rid)
        original = known[rid]
        author, statement = _root(original, speaker)
        conv.said.append(statement)
        speaker.told.setdefault(listener.id, []).append(statement)
        heard = (f'{speaker.name} told me: "{statement}"' if author == speaker.name
                 else f'{speaker.name} told me that {author} said: "{statement}"')
        remember(listener, ctx, kind="chat", content=heard,
                 conversation=conv.id, source=(speaker.id, rid), subject=speaker.id)
    if answer.end or len(conv.lines) >= MAX_LINES:
        _finish(conv, personas, ctx)
        return True
    return False


_HEARD = re.compile(r'^(?P<speaker>.+?) told me(?: that (?P<author>.+?) said)?: "(?P<statement>.*)"$', re.S)


def _root(record, owner: Persona) -> tuple[str, str]:
    """(author name, original statement) of a memory: heard memories keep their first author."""
    m = _HEARD.match(record.content) if record.kind.value == "chat" and record.source else None
    if m is None:
        return owner.name, record.content
    return m.group("author") or m.group("speaker"), m.group("statement")


def _finish(conv: Conversation, personas: dict[str, Persona], ctx: MindContext) -> None:
    hour_ticks = 3600 // ctx.clock.seconds_per_tick
    history = tuple((personas[w].name, t) for w, t in conv.lines)
    summaries = {}
    for pid, other in ((conv.a, conv.b), (conv.b, conv.a)):
        p = personas[pid]
        answer = ctx.backend.ask(SummariseConversation(
            persona=p.id, persona_name=p.name, seed=seed_for(ctx, p.id, "summary", conv.id),
            other_name=personas[other].name, history=history))
        record = remember(p, ctx, kind="chat", content=answer.summary, conversation=conv.id,
                          subject=other)
        summaries[pid] = record.content
        p.conversation = None
        p.action = None
        p.cooldown[other] = ctx.tick + TALK_COOLDOWN_HOURS * hour_ticks
    ctx.publish(EventKind.CONVERSATION, None, {
        "conversation": conv.id, "participants": [conv.a, conv.b], "start_tick": conv.start_tick,
        "end_tick": ctx.tick, "lines": [list(x) for x in conv.lines], "summary": summaries})
