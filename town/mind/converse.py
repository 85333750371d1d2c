"""Reacting to others and conversing (Park et al. 2023 §4.3.2).

A persona who sees another decides, after retrieving what it remembers of them, whether to
talk, and the one addressed decides, after its own retrieval, whether to accept. In a
conversation each line is preceded by the speaker's retrieval; a heard line leaves the listener
a chat memory of what it understood (its fact, with the teller) or of the words said, so news
spreads by retrieval and retelling. Provenance is kept for measurement only.

Two who talk whole (:func:`talks_whole`) ask neither decision first: one request decides whether
the one who saw the other starts the talk and, if so, writes the exchange (:func:`start_whole`),
whose lines are then said one per turn (:func:`say_written_line`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from ..config import Config, ConversationMode
from ..errors import MemoryStreamError
from ..events import EventKind
from ..hearsay import unwrap
from ..inflection import base_form
from ..memory import Fact, MemoryKind, MemoryRecord
from ..perspective import shared_run
from ..persona import Persona
from ..reading import read_fact
from ..realise import asked, heard, quoted, sayable, statement
from ..textevent import absolute_days, place_names
from ..thinking.questions import DecideToTalk, NextLine, Side, SummariseConversation, WriteConversation
from ..thinking.answers import HeardAnswer
from ..thinking.dayplan import called_off, put_off, told_since
from ..thinking.views import routine_views
from .context import MindContext, fact_weight, memory_views, recall, remember, seed_for
from .effects import Ended, Line, Note
from .perceive import Appearance
from .understand import fact_of, understand
from .weigh import NEWS

__all__ = ["Conversation", "want_to_talk", "accept_talk", "say_next_line", "say_line", "summarise",
           "conversation_over", "talks_whole", "Opening", "start_whole", "say_written_line", "end_written",
           "LINE_EVERY_TICKS", "MAX_LINES", "WHOLE_MEMORIES"]

#: A line is spoken every 2 ticks (20 game seconds at 10 s/tick).
LINE_EVERY_TICKS = 2
#: Lines at most in one conversation.
MAX_LINES = 8
#: Game hours before the same pair talks again (after a talk / after declining).
TALK_COOLDOWN_HOURS, DECLINE_COOLDOWN_HOURS = 3, 1


@dataclass
class Conversation:
    """An ongoing conversation between two personas (``a`` started it).

    A conversation written whole (:mod:`.exchange`) also keeps ``script``, its lines still to
    say (JSON-able dicts: speaker, line, shared, kept), ``written``, how it was written ("whole",
    or "cut: <check>" when a check cut it at its first rejected line), and ``retrievals``,
    persona id -> the seq of the retrieval its lines cite. ``ended_by`` is the player who ended
    it (a goodbye, walking off, leaving the town; ``town.simulation.players``), else "": a talk
    with a player is never in a snapshot, so it is not in the state.
    """

    id: int
    a: str
    b: str
    start_tick: int
    lines: list[tuple[str, str]] = field(default_factory=list)
    told: dict[str, list[int]] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)
    script: list[dict] = field(default_factory=list)
    written: str = ""
    retrievals: dict[str, int] = field(default_factory=dict)
    ended_by: str = ""

    def add_line(self, speaker: str, text: str, statements: tuple[str, ...],
                 shared: tuple[int, ...] | None) -> None:
        """Record a line: who said it, what it stated, the speaker's memories it passed on.

        Args:
            speaker: who said it.
            text: the line.
            statements: what it stated (nobody says them again in this conversation).
            shared: ids of the speaker's memories it passed on (``told``); None for words not
                chosen from memories (a player's).
        """
        self.lines.append((speaker, text))
        if shared is not None:
            self.told.setdefault(speaker, []).extend(shared)
        self.said.extend(statements)

    def renumber(self, seqs: Mapping[int, int]) -> None:
        """Give ``retrievals`` their events' seqs, where ``seqs`` maps the numbers they have (the
        run-ahead scheduler numbers events when their tick is recorded; a conversation written
        whole goes on citing them after that)."""
        self.retrievals = {pid: seqs.get(seq, seq) for pid, seq in self.retrievals.items()}

    @property
    def next_speaker(self) -> str:
        """Whose line is next: ``a`` (who started it) says the even lines, ``b`` the odd ones."""
        return self.a if len(self.lines) % 2 == 0 else self.b

    def get_state(self) -> dict:
        """JSON-able state."""
        state = {"id": self.id, "a": self.a, "b": self.b, "start_tick": self.start_tick,
                 "lines": [list(x) for x in self.lines], "told": self.told, "said": self.said}
        if self.written:  # written whole (a conversation line by line keeps the state it had)
            state.update(script=self.script, written=self.written, retrievals=self.retrievals)
        return state

    @classmethod
    def from_state(cls, s: dict) -> Conversation:
        """Inverse of :meth:`get_state`."""
        return cls(id=s["id"], a=s["a"], b=s["b"], start_tick=s["start_tick"],
                   lines=[tuple(x) for x in s["lines"]], told={k: list(v) for k, v in s["told"].items()},
                   said=list(s["said"]), script=list(s.get("script", ())), written=s.get("written", ""),
                   retrievals=dict(s.get("retrievals", {})))


def _relationship(p: Persona, other: str) -> str:
    for rel in p.spec.relationships:
        if rel.persona == other:
            return rel.description
    return ""


def _tellable(p: Persona, other_id: str, other_name: str, records) -> list:
    """Retrieved memories ``p`` has not yet told ``other`` and that ``other`` did not tell anyone.

    Who told a memory: its ``tellers`` (fields filled when it was heard) and, for a record written
    before facts were kept once, its words (``_chain``). What ``other`` knows from ``p`` (told it,
    or said it to ``p``) is left out, and so is one's own memory of the same thing in other words
    (six words in a row shared with a line ``other`` said: Maria's own sight of a sign, which
    Klaus had told her the day before, was not news to him).
    """
    old = set(p.told.get(other_id, ()))
    out = []
    for r in records:
        names = _chain(r)[0]
        said = _statement(r)
        known = said in old or any(shared_run(said, k) for k in old)
        if other_name not in names and not known and all(t != other_name for t, _ in r.tellers):
            out.append(r)
    return out


def _knows_name(p: Persona, name: str, records) -> bool:
    """Whether ``p`` knows someone called ``name``: one of its town's people (the roster it lives
    among), or named in one of ``records`` that is more than a sighting (a line they said, a talk
    with them, a whisper). A newcomer seen but never met is a stranger. A player (no procedural
    memory) reads every name on the viewer's map."""
    if p.procedures is None or any(n == name for n, _ in p.procedures.roster):
        return True
    return any(r.kind != MemoryKind.OBSERVATION and _names(r, name) for r in records)


def _names(record: MemoryRecord, name: str) -> bool:
    """Whether ``record`` names ``name``: a teller, its fact's subject or host (the fields), or,
    for a record without a fact, the whole name in its words ("Bo" is not "Bob Brown")."""
    fact = record.fact
    if any(t == name for t, _ in record.tellers) or (fact is not None and name in (fact.subject, fact.host)):
        return True
    return fact is None and re.search(rf"(?<![\w'-]){re.escape(name)}(?![\w-])", record.content) is not None


def want_to_talk(p: Persona, ctx: MindContext, seen: list[Appearance],
                 whole: Callable[[str], bool] = lambda other: False) -> tuple[str, Note | None] | None:
    """React to the first visible, free persona not on cooldown: retrieve, then DecideToTalk.

    The question shows the retrieved memories not yet told to that persona. When the two would
    talk whole (``whole(other id)``: :func:`talks_whole`), nothing is asked here: the exchange's
    own request decides (:func:`start_whole`), so ``p`` names that persona with no retrieval.

    Returns:
        (the other persona's id, the retrieval behind the decision, None when the exchange
        decides) if ``p`` wants to start a conversation or have it decided, else None.
    """
    if p.asleep or p.conversation is not None:
        return None
    for other in seen:
        if other.conversation is not None or ctx.tick < p.cooldown.get(other.id, 0):
            continue
        if whole(other.id):
            return other.id, None
        own = p.action.description if p.action else "idle"
        talk, seq = _decide_to_talk(p, ctx, other.id, other.name, other.action, own, invited=False)
        return (other.id, seq) if talk else None
    return None


def accept_talk(p: Persona, ctx: MindContext, other_id: str, other_name: str) -> tuple[bool, Note]:
    """The addressed side's decision: retrieve what it knows of the other, then DecideToTalk.

    Returns:
        (whether ``p`` accepts, the retrieval behind the decision).
    """
    own = p.action.description if p.action else "idle"
    return _decide_to_talk(p, ctx, other_id, other_name, "coming over to talk to you", own,
                           invited=True)


def _decide_to_talk(p: Persona, ctx: MindContext, other_id: str, other_name: str, other_action: str,
                    own: str, *, invited: bool) -> tuple[bool, Note]:
    hour_ticks = 3600 // ctx.seconds_per_tick
    query = (f"{other_name} wants to talk to me. What do I know about {other_name}?" if invited
             else f"What do I know about {other_name}? What should I tell them?")
    records, seq = recall(p, ctx, query, purpose="react")
    answer = ctx.backend.ask(DecideToTalk(
        persona=p.id, persona_name=p.name, persona_summary=p.summary(),
        seed=seed_for(ctx, p.id, "accept" if invited else "talk", other_id), other=other_id,
        other_name=other_name, other_action=other_action, own_action=own,
        relationship=_relationship(p, other_id), invited=invited, now=ctx.now.isoformat(sep=" "),
        memories=memory_views(_tellable(p, other_id, other_name, records))))
    hours = TALK_COOLDOWN_HOURS if answer.talk else DECLINE_COOLDOWN_HOURS
    p.cool_down(other_id, ctx.tick + hours * hour_ticks)
    return answer.talk, seq


#: Plans added to a question's retrieval (intentions, the day, preferences are answered from them).
PLANS_BEARING = 3


def _plans_bearing(p: Persona, records: list[MemoryRecord]) -> list[MemoryRecord]:
    """The persona's newest :data:`PLANS_BEARING` plans (``plan_items``, ``decisions``) and the
    records stating the events they decided, that retrieval for a question left out."""
    held = {r.id for r in records}
    plans = [r for r in reversed(p.stream.last_records(400)) if r.kind is MemoryKind.PLAN and r.plan_items]
    plans = plans[:PLANS_BEARING]
    stating = {i for r in plans for d in r.decisions for i in d.evidence}
    found = list(plans)
    for i in sorted(stating):
        try:
            found.append(p.stream.get(i))
        except MemoryStreamError:  # pruned since the plan was made
            continue
    return [r for r in {r.id: r for r in found}.values() if r.id not in held]


def say_next_line(conv: Conversation, personas: Mapping[str, Persona], ctx: MindContext) -> tuple[Line, bool]:
    """The next speaker retrieves and says a line; returns it and whether the conversation is over.

    The line is a :class:`~town.mind.effects.Line`, added to ``conv`` when applied. The listener
    remembers what was said in words only: 'Isabella Rodriguez told me that S'. Hearing a line
    that states an event for today (``town.textevent``) makes the listener replan. When it is
    over, each side summarises it (:func:`summarise`), then :func:`conversation_over`.
    """
    speaker_id = conv.next_speaker
    listener_id = conv.b if speaker_id == conv.a else conv.a
    speaker, listener = personas[speaker_id], personas[listener_id]
    last = conv.lines[-1][1] if conv.lines else ""
    # the first line recalls the pair's history (when they last talked); later ones, the line heard
    query = f"{listener.name}. {last}".strip() if last else f"When did I last talk with {listener.name}?"
    records, seq = recall(speaker, ctx, query, purpose="chat")
    told = conv.told.get(speaker_id, [])
    # Never tell the listener what they said themselves (no echo back along provenance), nor
    # repeat a statement already made in this conversation or told them before.
    said = set(conv.said)
    off = called_off(records, speaker.name)  # an event called off is no news, even once its cancellation is told
    tellable = [r for r in _tellable(speaker, listener.id, listener.name, records)
                if _statement(r) not in said and not (r.fact is not None and (put_off(r.fact, off, speaker.name)
                                                                              or told_since(r, r.fact, records)))]
    topics: list[MemoryRecord] = []
    if 1 <= len(conv.lines) <= _TOPIC_LINES:  # past the greeting: one's own life, for this partner, place, hour
        found, _ = recall(speaker, ctx, _topic_query(speaker, ctx), purpose="chat")
        seen = {r.id for r in tellable}
        off += called_off(found, speaker.name)
        topics = [r for r in _tellable(speaker, listener.id, listener.name, found)
                  if r.id not in seen and _statement(r) not in said
                  and not (r.fact is not None and put_off(r.fact, off, speaker.name))]
    day = f"{ctx.now:%Y-%m-%d}"
    answer = ctx.backend.ask(NextLine(
        persona=speaker.id, persona_name=speaker.name, persona_summary=speaker.summary(),
        seed=seed_for(ctx, speaker.id, "line", conv.start_tick), listener=listener.id,
        listener_name=listener.name, history=tuple((personas[w].name, t) for w, t in conv.lines),
        memories=memory_views(tellable), told=tuple(told), max_lines=MAX_LINES,
        now=ctx.now.isoformat(sep=" "),
        recalled=memory_views(records + _plans_bearing(speaker, records)),
        routine=routine_views(speaker.spec.routine), places=ctx.world.tilemap.places(),
        attend_seed=seed_for(ctx, speaker.id, "attend", every_tick=False),
        stranger=not _knows_name(speaker, listener.name, records), topics=memory_views(topics),
        said_today=speaker.said_today(listener.id, day),
        ties=tuple((personas[r.persona].name, r.description) for r in speaker.spec.relationships if r.persona in personas),
        pronouns=tuple((x.name, x.spec.pronoun) for x in personas.values() if x.spec.pronoun)))
    speaker.says_to(listener.id, day, answer.line)
    known = {r.id: r for r in (*tellable, *topics)}
    shared = tuple(i for i in answer.shared if i in known and i not in told)
    statements = tuple(_statement(known[rid]) for rid in shared)
    line = Line(conv.id, speaker.id, listener.id, answer.line, shared, statements, retrieval=seq)
    ctx.out.add(line)
    for statement in statements:
        speaker.knows_told(listener.id, statement)
    if shared:
        meant = [known[rid].fact for rid in shared if known[rid].fact is not None]  # the dialogue act
        _hear(listener, speaker, answer.line, conv, ctx, source=(speaker.id, shared[0]), meant=meant,
              names=[p.name for p in personas.values()], acted=bool(meant))
    return line, answer.end or len(conv.lines) + 1 >= MAX_LINES


#: Lines of a conversation (after the greeting) for which the speaker also recalls its own life.
_TOPIC_LINES = 2


def _topic_query(p: Persona, ctx: MindContext) -> str:
    """What a speaker recalls of its own life to talk about: its doings, plans and thoughts at the
    place it is and in this part of the day. The words name no partner, so the query's embedding
    is cached across the speaker's talks there that morning (the partner is in what may be told:
    nothing told to them already, nothing heard from them)."""
    where = p.action.address.split(":")[1] if p.action and ":" in p.action.address else ""
    part = "morning" if ctx.now.hour < 12 else "afternoon" if ctx.now.hour < 17 else "evening"
    return f"What have I been doing, seeing, planning and thinking this {ctx.now:%A} {part}{' at ' + where if where else ''}?"


def say_line(conv: Conversation, speaker_id: str, line: str, personas: Mapping[str, Persona],
             ctx: MindContext) -> None:
    """``speaker_id`` says ``line``, chosen outside the mind (a player's words from the viewer).

    The line is a :class:`~town.mind.effects.Line` like any (nothing ``shared``, no retrieval)
    and the listener remembers it in words, as a heard line: 'Ada told me that S'; retold later,
    it spreads.
    """
    listener_id = conv.b if speaker_id == conv.a else conv.a
    speaker, listener = personas[speaker_id], personas[listener_id]
    ctx.out.add(Line(conv.id, speaker.id, listener.id, line, statements=(line,)))
    names = [p.name for p in personas.values()]
    typed = read_fact(line, ctx.now, place_names(ctx.world.tilemap.addresses()), names, speaker.name)
    _hear(listener, speaker, line, conv, ctx, source=None, meant=[typed] if typed else [], names=names,
          acted=False)


def _hear(listener: Persona, speaker: Persona, line: str, conv: Conversation, ctx: MindContext, *,
          source: tuple[str, int] | None, meant: Sequence[Fact], names: Sequence[str], acted: bool) -> None:
    """The listener remembers ``line``: what it understood, in words the realiser writes.

    Its ``fact`` is what the listener understood (:func:`.understand.understand`: the speaker's
    dialogue act ``meant`` or the listener's own model). The words are the fact's, with the
    speaker as teller (:func:`town.realise.heard`, days as dates), when the fact is an event
    (place and start) and the line put it into words (``acted``: it passed on its memories'
    facts) or states nothing besides; else the line as said, quoted ('Ada said to me:
    "..."'), or 'Ada asked me: Q' when it only asks. Nothing is shifted from the speaker's person.
    A held fact gains the speaker as a teller instead of a copy; ``predicate`` and ``object`` are
    the fact's verb and place. It is not told back to the speaker; an event today makes it
    replan. ``source``: the speaker's record passed on (None: its own words), for measurement.
    """
    places = place_names(ctx.world.tilemap.addresses())
    said, stated = said_as(speaker, line)
    importance, fact = understand(listener, ctx, speaker=speaker.name, line=line, content=said,
                                  places=places, names=names, meant=meant)
    keep(listener, speaker, line, conv, ctx, source=source, fact=fact, importance=importance,
         acted=acted)


def said_as(speaker: Persona, line: str) -> tuple[str, list[str]]:
    """(the memory a heard ``line`` makes, kept as said: 'Ada said to me: "..."', or 'Ada asked
    me: Q' when it only asks; the sentences it states)."""
    stated = [x for x in re.split(r"(?<=[.!?])\s+", line.strip()) if x and not x.endswith("?")]
    return (quoted(speaker.name, line) if stated else asked(speaker.name, line)), stated


def keep(listener: Persona, speaker: Persona, line: str, conv: Conversation, ctx: MindContext, *,
         source: tuple[str, int] | None, fact: Fact | None, importance: int, acted: bool) -> MemoryRecord:
    """The listener remembers ``line`` as it understood it (``fact``, rated ``importance``): the
    memory :func:`_hear` describes, written; returns its record."""
    said, stated = said_as(speaker, line)
    # an event (rated from its meaning, town.mind.weigh) is written from its fact when the line
    # put it into words or states nothing else; so is any statement the line passed on as news
    # (``acted``), rated as news at least: the hearer tells it on. Other lines are kept as said.
    event_fact = fact is not None and not fact.question and fact.place is not None and fact.start is not None
    news = acted and fact is not None and not fact.question and sayable(fact)
    content = said
    if fact is not None and (news or (event_fact and len(stated) <= 1)):
        content = heard(fact, [(speaker.name, ctx.now)], listener.name, pronoun=speaker.spec.pronoun)
    if event_fact and fact is not None:
        importance = fact_weight(listener, ctx, fact)
    if news:
        importance = max(importance, NEWS)
    record = remember(listener, ctx, kind="chat", content=content, conversation=conv.id,
                      importance=importance, source=source, subject=speaker.id,
                      fact=fact, teller=speaker.name,
                      predicate=fact and base_form(fact.act.split()[0]), object=fact and fact.place)
    # The listener now knows the speaker knows this: it will not tell it back to them.
    listener.knows_told(speaker.id, _statement(record))
    if (fact is not None and fact.start is not None and fact.start.date() == ctx.now.date()
            and (fact.end or fact.start) > ctx.now):
        listener.must_replan()
    return record


def talks_whole(config: Config, a: Persona, b: Persona) -> bool:
    """Whether ``a`` and ``b`` talk in one request: ``[conversation] mode = "whole"`` on a model
    backend, neither a player (a player talks line by line). Then neither is asked first whether
    it talks: the exchange decides (:func:`start_whole`: ``a`` may not start it, ``b``'s first
    line may decline)."""
    return (config.conversation.mode is ConversationMode.WHOLE and config.backend.name.value != "scripted"
            and a.procedures is not None and b.procedures is not None)


#: Memories of each side a conversation written whole shows (its retrieval's best; the decision
#: to talk, asked in the same request, reads the starter's).
WHOLE_MEMORIES = 4


@dataclass(frozen=True)
class Opening:
    """A conversation written whole before it opens (:func:`start_whole`).

    Attributes:
        script: its lines to say, JSON-able dicts (speaker, line, shared, kept).
        written: how it was written: "whole", or "cut: <check>".
        retrievals: (persona id, its retrieval) of each side, the starter's first: the starter's
            is the decision to talk, the other's the acceptance, and their lines cite them.
    """

    script: list[dict]
    written: str
    retrievals: tuple[tuple[str, Note], tuple[str, Note]]


def whole_side(p: Persona, other: Persona, ctx: MindContext) -> tuple[Side, Note]:
    """``p``'s side of a conversation written whole: it retrieves on ``other`` and what to tell
    them, and shows its best :data:`WHOLE_MEMORIES` not yet told them. Returns (the side, its
    retrieval). Thinks for ``p`` alone: the two sides may be made at once."""
    records, note = recall(p, ctx, f"What do I know about {other.name}? What should I tell them?", purpose="chat")
    return Side(id=p.id, name=p.name, summary=p.summary(), action=p.action.description if p.action else "",
                memories=memory_views(_tellable(p, other.id, other.name, records)[:WHOLE_MEMORIES]),
                routine=routine_views(p.spec.routine), attend_seed=seed_for(ctx, p.id, "attend", every_tick=False),
                stranger=not _knows_name(p, other.name, records), relationship=_relationship(p, other.id),
                accept_seed=seed_for(ctx, p.id, "accept", other.id),
                talk_seed=seed_for(ctx, p.id, "talk", other.id)), note


def start_whole(a: Persona, b: Persona, sides: tuple[tuple[Side, Note], tuple[Side, Note]],
                personas: Mapping[str, Persona], ctx: MindContext) -> Opening | None:
    """``a``, who saw ``b``, decides whether to talk and, if so, the two talk, in ONE request.

    ``sides`` are ``a``'s and ``b``'s :func:`whole_side` (each retrieved on the other). The
    request is :class:`~town.thinking.questions.WriteConversation` with ``decide``: ``a``'s
    decision (``talk``, ``reason``: recorded with the request) and, when it talks, the exchange,
    each side's retrieval labelled (the stated exception to the one-mind rule); ``b``'s first
    line may decline. ``a`` cools down toward ``b`` as after DecideToTalk's answer.

    Returns:
        The exchange to open (:class:`Opening`), or None when ``a`` does not start it.
    """
    (me, a_note), (them, b_note) = sides
    places = sorted({x.rsplit(":", 1)[-1] for x in place_names(ctx.world.tilemap.addresses()).values()})
    shown = [m for side in (me, them) for m in side.memories]
    texts = [x for side in (me, them) for x in (side.summary, side.action, side.relationship)]
    texts += [m.content for m in shown]
    facts = [m.fact for m in shown if m.fact is not None]
    answer = ctx.backend.ask(WriteConversation(
        persona=a.id, persona_name=a.name, persona_summary=a.summary(), seed=seed_for(ctx, a.id, "exchange", ctx.tick),
        me=me, other=them, now=ctx.now.isoformat(sep=" "), max_lines=MAX_LINES, relationship=_relationship(a, b.id),
        may_decline=True, decide=True,
        names=_named_in((p.name for p in personas.values()), texts,
                        {a.name, b.name, *(t for m in shown for t in m.tellers),
                         *(n for f in facts for n in (f.subject, f.host) if n)}),
        places=_named_in(places, texts, {f.place.rsplit(":", 1)[-1] for f in facts if f.place}),
        addresses=ctx.world.tilemap.places()))
    hours = TALK_COOLDOWN_HOURS if answer.talk else DECLINE_COOLDOWN_HOURS
    a.cool_down(b.id, ctx.tick + hours * (3600 // ctx.seconds_per_tick))
    if not answer.talk:
        return None
    ids = {a.name: a.id, b.name: b.id}
    script = [{"speaker": ids[x.speaker], "line": x.line, "shared": list(x.shared),
               "kept": [k.model_dump(exclude={"hearer", "line"}) for k in answer.kept if k.line == i]}
              for i, x in enumerate(answer.lines)]
    written = f"cut: {answer.cut}" if answer.cut else "whole"
    if answer.dropped:  # kept items left out, the lines kept
        written += f", {len(answer.dropped)} kept item(s) left out"
    return Opening(script, written, ((a.id, a_note), (b.id, b_note)))


def _named_in(options: Iterable[str], texts: Sequence[str], given: set[str]) -> tuple[str, ...]:
    """Those of ``options`` (people's or places' names) in ``given`` or named in one of ``texts``
    (as whole words, in any case), in ``options``' order: what a conversation written whole
    offers its kept items, the names its two sides and their shown memories hold, not the
    town's every one (Smallville's 25 people and 52 place names are about 330 prompt tokens)."""
    text = "\n".join(texts).lower()
    return tuple(o for o in options if o in given
                 or re.search(rf"(?<![\w'-]){re.escape(o.lower())}(?![\w-])", text) is not None)


def say_written_line(conv: Conversation, personas: Mapping[str, Persona], ctx: MindContext) -> tuple[Line, bool]:
    """The next line of a conversation written whole (:func:`start_whole`): said as written, one
    per turn like any line; the listener keeps what the exchange says it kept of it (its fact and
    importance, no request). Returns the line and whether it was the last."""
    turn = len(conv.lines)
    entry = conv.script[turn]
    speaker, listener = personas[entry["speaker"]], personas[conv.b if entry["speaker"] == conv.a else conv.a]
    told = set(conv.told.get(speaker.id, []))
    shared = tuple(i for i in entry["shared"] if i not in told)
    statements = tuple(_statement(speaker.stream.get(i)) for i in shared)
    line = Line(conv.id, speaker.id, listener.id, entry["line"], shared, statements,
                retrieval=conv.retrievals.get(speaker.id))
    ctx.out.add(line)
    for said in statements:
        speaker.knows_told(listener.id, said)
    places = place_names(ctx.world.tilemap.addresses())
    for item in entry["kept"]:
        kept = HeardAnswer.model_validate(item)
        keep(listener, speaker, entry["line"], conv, ctx, source=(speaker.id, shared[0]) if shared else None,
             fact=fact_of(kept, places, listener.name, speaker.name), importance=kept.importance, acted=bool(shared))
    return line, turn + 1 >= len(conv.script)


def end_written(lines: list[tuple[str, str]], conv: Conversation, personas: Mapping[str, Persona],
                ctx: MindContext) -> None:
    """A conversation written whole is over: no summaries (what each side kept is its memory of
    it); both cool down toward each other, then :func:`conversation_over`."""
    hour_ticks = 3600 // ctx.seconds_per_tick
    for pid, other in ((conv.a, conv.b), (conv.b, conv.a)):
        personas[pid].cool_down(other, ctx.tick + TALK_COOLDOWN_HOURS * hour_ticks)
    conversation_over(lines, conv, {conv.a: "", conv.b: ""}, ctx)


_NEWS = re.compile(r"^Did you hear\? ", re.S)


def _chain(record) -> tuple[list[str], str]:
    """(who told it, the statement) of a memory, read from its words.

    'Klaus Mueller told me that S' -> (["Klaus Mueller"], "S"); a memory not heard from anyone
    has no names.
    """
    names, text = unwrap(record.content)
    return names, _NEWS.sub("", text)


def _statement(record: MemoryRecord) -> str:
    """What a memory states, the same for every holder: its fact's words, else its statement."""
    if record.fact is not None:
        return statement(record.fact, "")
    return _chain(record)[1]


def summarise(lines: list[tuple[str, str]], conv: Conversation, p: Persona, other: Persona,
              ctx: MindContext) -> str:
    """``p``'s summary of a finished conversation, remembered (a chat memory) when it says what
    was talked about that ``p`` holds no fact of (:func:`_talked_about`); returns its text.

    Each side summarises and rates its own memory: the two sides do not depend on each other.

    Args:
        lines: the conversation's lines, its last included.
        conv: the conversation.
        p: the side summarising.
        other: the other side.
        ctx: the job's context.
    """
    hour_ticks = 3600 // ctx.seconds_per_tick
    # a newcomer whose name was never heard is remembered as such (someone not of the town: what
    # its memory holds of them is retrieved first, so this costs the town's own talks nothing)
    known = _knows_name(p, other.name, ()) or _knows_name(
        p, other.name, recall(p, ctx, f"What do I know about {other.name}?", purpose="chat")[0])
    other_name = other.name if known else "someone new in town"
    names = {p.id: p.name, other.id: other_name}
    answer = ctx.backend.ask(SummariseConversation(
        persona=p.id, persona_name=p.name, seed=seed_for(ctx, p.id, "summary", conv.start_tick),
        other_name=other_name, history=tuple((names[w], t) for w, t in lines)))
    p.cool_down(other.id, ctx.tick + TALK_COOLDOWN_HOURS * hour_ticks)
    content = absolute_days(answer.summary, ctx.now)  # dates, not "tomorrow"
    if _talked_about(p, conv, ctx) and content.rstrip(". ") != f"I talked with {other_name}":
        remember(p, ctx, kind="chat", content=content, conversation=conv.id, subject=other.id)
    return content


def _talked_about(p: Persona, conv: Conversation, ctx: MindContext) -> bool:
    """Whether ``p``'s summary of ``conv`` would hold something its memory does not: a line
    stated something, and a line ``p`` heard left a memory without a fact (a fact is held once
    already), or the talk left ``p`` no memory (the talk is then what it keeps: acquaintance, §6.1)."""
    if not conv.said:
        return False
    start = ctx.now - timedelta(seconds=(ctx.tick - conv.start_tick) * ctx.seconds_per_tick)
    left = [r for r in p.stream.since(start) if r.conversation == conv.id]
    return not left or any(r.fact is None for r in left)


def conversation_over(lines: list[tuple[str, str]], conv: Conversation, summaries: dict[str, str],
                      ctx: MindContext) -> None:
    """Both sides leave ``conv`` (:class:`~town.mind.effects.Ended`); the CONVERSATION event.

    Args:
        lines: the conversation's lines, its last included.
        conv: the conversation.
        summaries: persona id -> its summary (:func:`summarise`), ``conv.a``'s first.
        ctx: the job's context.
    """
    ctx.out.add(Ended(conv.id, (conv.a, conv.b)))
    data = {"conversation": conv.id, "participants": [conv.a, conv.b], "start_tick": conv.start_tick,
            "end_tick": ctx.tick, "lines": [list(x) for x in lines], "summary": summaries}
    if conv.written:  # how it was written: "whole", or cut at its first rejected line
        data["written"] = conv.written
    if conv.ended_by:  # a player ended it: the player's talk bar says so
        data["ended_by"] = conv.ended_by
    ctx.out.note(EventKind.CONVERSATION, None, data)
