"""The scripted answer to a whole conversation in one request: the per-line rules, turn by turn.

Asked to decide (``WriteConversation.decide``), the one who starts it first decides as its
DecideToTalk rule says (:func:`initiative`; a decline has no lines). When the one addressed was
not asked first, it accepts or declines as its DecideToTalk rule says (a decline: the opening
line, then "Sorry, ..., I can't talk right now.").

Each side says what :func:`.talk.next_line` would have it say with its own memories (the other
side's are never read for its lines), until a line ends the talk or the time's lines are said;
the hearer of each line that passed on memories keeps it, with the dialogue act's fact (the first
memory's, as a heard line's rating answers, :class:`~town.thinking.questions.HearLine`) and the
line's importance from the embedded rater. A side that kept nothing keeps the other's longest
line as said (as a talk's summary would: acquaintance, Park et al. 2023 §6.1).
"""

from __future__ import annotations

import re
import zlib

from ..importance import rate
from ..realise import asked, quoted
from ..thinking import answers
from ..thinking.questions import DecideToTalk, NextLine, WriteConversation
from .talk import first_name, next_line

__all__ = ["write_conversation", "acceptance", "initiative"]

_STAMP = "%Y-%m-%d %H:%M"


def write_conversation(q: WriteConversation, accepted: bool = True) -> answers.ExchangeAnswer:
    """The exchange the per-line rules write for ``q``'s two sides, each from its own memories;
    ``accepted``: the one addressed accepts the talk (:func:`acceptance`'s answer)."""
    sides = (q.me, q.other)
    if not accepted:  # the one addressed declines
        opening = next_line_of(q, q.me, q.other, [], [], "", 0)
        return answers.ExchangeAnswer(lines=[
            answers.ExchangeLine(speaker=q.me.name, line=opening.line),
            answers.ExchangeLine(speaker=q.other.name, line=f"Sorry, {first_name(q.me.name)}, I can't talk right now.")])
    history: list[tuple[str, str]] = []
    told: dict[str, list[int]] = {q.me.id: [], q.other.id: []}
    lines, kept = [], []
    for turn in range(q.max_lines):
        me, them = sides[turn % 2], sides[1 - turn % 2]
        last = history[-1][1] if history else ""
        answer = next_line_of(q, me, them, history, told[me.id], last, turn)
        shared = [i for i in answer.shared if i not in told[me.id]]
        told[me.id] += shared
        lines.append(answers.ExchangeLine(speaker=me.name, line=answer.line, shared=shared))
        history.append((me.name, answer.line))
        if not shared:  # a line that passes on no memory leaves none (as a line said alone)
            if answer.end:
                break
            continue
        stated = [x for x in re.split(r"(?<=[.!?])\s+", answer.line.strip()) if x and not x.endswith("?")]
        content = quoted(me.name, answer.line) if stated else asked(me.name, answer.line)
        meant = next((m.fact for m in me.memories if m.id in shared and m.fact is not None), None)
        fields = {} if meant is None else {
            "act": meant.act, "subject": meant.subject or "", "place": (meant.place or "").rsplit(":", 1)[-1],
            "start": f"{meant.start:{_STAMP}}" if meant.start else "", "end": f"{meant.end:{_STAMP}}" if meant.end else "",
            "host": meant.host or "", "everyone": meant.open_invitation, "invites_me": them.name in meant.invited,
            "question": meant.question, "part": meant.part or "", "cancelled": meant.cancelled,
            "closed": meant.closed, "moved": meant.moved, "price": meant.price or ""}
        kept.append(answers.KeptItem(hearer=them.name, line=turn, importance=rate(content, "chat"), **fields))
        if answer.end:
            break
    for hearer in (q.me, q.other):  # a talk that left a side nothing: the other's longest line, as said
        theirs = [(len(x.line), i) for i, x in enumerate(lines) if x.speaker != hearer.name]
        if theirs and not any(k.hearer == hearer.name for k in kept):
            i = max(theirs)[1]
            kept.append(answers.KeptItem(hearer=hearer.name, line=i,
                                         importance=rate(quoted(lines[i].speaker, lines[i].line), "chat")))
    return answers.ExchangeAnswer(lines=lines, kept=sorted(kept, key=lambda k: k.line))


def acceptance(q: WriteConversation) -> DecideToTalk:
    """The question asked of the one addressed when the talk is line by line: whether it accepts
    (with its own memories and seed); its scripted rule decides a talk written whole too."""
    return DecideToTalk(
        persona=q.other.id, persona_name=q.other.name, persona_summary=q.other.summary, seed=q.other.accept_seed,
        other=q.me.id, other_name=q.me.name, other_action="coming over to talk to you",
        own_action=q.other.action or "idle", relationship=q.other.relationship, memories=q.other.memories,
        invited=True, now=q.now)


def initiative(q: WriteConversation) -> DecideToTalk:
    """The question asked of the one who starts it when the talk is line by line: whether it
    starts one with the other it sees (with its own memories and seed); its scripted rule
    decides a talk written whole with ``decide`` too."""
    return DecideToTalk(
        persona=q.me.id, persona_name=q.me.name, persona_summary=q.me.summary, seed=q.me.talk_seed,
        other=q.other.id, other_name=q.other.name, other_action=q.other.action, own_action=q.me.action or "idle",
        relationship=q.relationship, memories=q.me.memories, now=q.now)


def next_line_of(q: WriteConversation, me, them, history, told, last: str, turn: int) -> answers.LineAnswer:
    """``me``'s next line as :class:`NextLine`'s scripted rule says it, shown only ``me``'s memories."""
    return next_line(NextLine(
        persona=me.id, persona_name=me.name, persona_summary=me.summary,
        seed=zlib.crc32(f"{q.seed}|{turn}".encode()) & 0x7FFFFFFF, listener=them.id, listener_name=them.name,
        history=tuple(history), memories=me.memories, told=tuple(told), max_lines=q.max_lines, now=q.now,
        recalled=me.memories if "?" in last else (), routine=me.routine, places=q.addresses,
        attend_seed=me.attend_seed, stranger=me.stranger))
