"""Write a whole conversation in one request: its lines, who says each, and what each side keeps.

After the paper's code's ``agent_chat`` (joonspk-research/generative_agents, "optimized for
speed via batch generation"): each side retrieves, then one request writes the exchange. It is
the one question that sees two minds: each side's retrieved memories, labelled with whose they
are (ARCHITECTURE.md, "A decision sees only what the persona could know", its stated
exception). Its checks hold each side to its own: a line tells nothing only the other side
holds, a kept item is grounded in a line the other side said, no line echoes another, and the
exchange fits its time and ends as a sentence ends.

A check that rejects a line (:class:`BadLine`) cuts the exchange there when two lines or more
come before it (``ExchangeAnswer.cut`` names the check): a small model's exchange keeps the
lines up to its first rejected one. Earlier rejections reject the answer (retried, then the
scripted answer). A kept item at fault is left out, the lines kept (``ExchangeAnswer.dropped``
names its check): SmolLM2's items (a side keeping its own line, one citing a line not written,
an act ",") rejected every attempt of two of four exchanges in one-hour runs.

Asked with ``decide``, the same request is the decision to talk as well (§4.3.2's, merged with
the exchange): the one who saw the other first says whether it starts a conversation now
(``talk``) and why (``reason``), and writes the exchange only if it does; a decline has no lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any, ClassVar, cast

from pydantic import BaseModel, Field

from ..schema import enum_at, ids_among
from ..views import MemoryView, PlanItemView
from ..words import content_words, name_words
from .base import Question
from .character import as_itself, declines_in_character, i_as_another, names_itself
from .checks import AnswerCheck, InvalidAnswer, ids_shown, own_words
from .hear_line import HeardAnswer, _Given, act_is_a_verb, names_known, shape_heard, stated_times_valid
from .hear_line import own_words_where_given as heard_in_own_words
from .sense import REASON_PATTERN, SENTENCE_PATTERN
from .writing import WRITING

__all__ = ["ExchangeLine", "KeptItem", "ExchangeAnswer", "Side", "WriteConversation", "BadLine",
           "own_words_where_given", "decided", "declines_as_itself", "takes_turns", "lines_as_themselves",
           "fits_the_time", "tells_only_its_own", "no_echo", "kept_from_lines"]

#: The end of a sentence: ".", "!" or "?", perhaps inside quotes or brackets.
_ENDED = re.compile(r"[.!?][\"'”’)\]]*\s*$")
#: Letters of a word compared, a plural's "s" left off (so "throwing" is "throw"'s word, "games" "game"'s).
_STEM = 5
#: Share of a line's topic words another line holding them makes it an echo.
ECHO_SHARE = 0.7
#: Lines a request asks for at most (fewer when the time allows fewer), one sentence each, and
#: one kept item a side: SmolLM2's exchanges of up to 8 two-sentence lines, with an item for
#: each line, ran past the 400-token output budget and were cut into broken JSON.
WRITTEN_LINES = 4


class ExchangeLine(BaseModel):
    """One line: who says it (a full name), the words, the speaker's memory ids it passes on.

    A model is not asked ``speaker`` (left out of the schema): the sides take turns, the one who
    starts first, and :meth:`WriteConversation.check` fills it in by turn. SmolLM2, asked for it,
    gave the first line to the wrong side in 3 of 6 attempts."""

    speaker: str = ""
    line: str = Field(min_length=1, max_length=1000, json_schema_extra={"sentences": 2})
    shared: list[int] = Field(default_factory=list)


class KeptItem(HeardAnswer):
    """What ``hearer`` keeps of line ``line`` (0-based) the other side said: its importance 1-10
    and what it states (:class:`~.hear_line.HeardAnswer`'s fields, the fields of a heard memory)."""

    hearer: str
    line: int = Field(ge=0)


class ExchangeAnswer(BaseModel):
    """Whether the one who starts it talks now and why (asked only with ``decide``), the
    exchange's lines in order (the last one ends it; none when ``talk`` is false) and what each
    side keeps.

    ``cut`` and ``dropped`` are not asked of a model (left out of the schema): the check that
    cut the exchange at its first rejected line, "" when it was kept whole; the checks that left
    kept items out, one per item left out.
    """

    talk: bool = True
    reason: str = ""
    lines: list[ExchangeLine] = Field(default_factory=list, max_length=16)
    kept: list[KeptItem] = Field(default_factory=list)
    cut: str = ""
    dropped: list[str] = Field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Side:
    """One side of the conversation as the request shows it.

    Attributes:
        id, name, summary: the persona's id, full name and identity paragraph.
        action: what it was doing when the conversation began.
        memories: its retrieval (on the topic and on the other side), not yet told to the other.
        routine: its own file's routine; ``attend_seed``: the seed of its choices of events
            (both read by the scripted rule only, as :class:`~.next_line.NextLine` carries them).
        stranger: it does not know the other's name.
        relationship: what it thinks of the other, from its own file; ``accept_seed``: the seed
            of its choice to accept the talk, ``talk_seed`` of its choice to start one (the
            scripted rule's, as :class:`~.decide_to_talk.DecideToTalk` carries them).
    """

    id: str
    name: str
    summary: str = ""
    action: str = ""
    memories: tuple[MemoryView, ...] = ()
    routine: tuple[PlanItemView, ...] = ()
    attend_seed: int = 0
    stranger: bool = False
    relationship: str = ""
    accept_seed: int = 0
    talk_seed: int = 0


class BadLine(InvalidAnswer):
    """A check rejects line ``line`` (0-based) of an exchange: the lines before it may stand."""

    def __init__(self, reason: str, line: int):
        super().__init__(reason)
        self.line = line


def _stems(text: str, drop: set[str] | frozenset[str] = frozenset()) -> set[str]:
    return {w.removesuffix("s")[:_STEM] for w in content_words(text) if w not in drop}


def own_words_where_given(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """:func:`.checks.own_words` on the lines and the reason given (an empty ``reason``: whether to
    talk was not asked); each kept item is judged alone (:func:`kept_from_lines`)."""
    dump = a.model_dump(exclude={"cut", "dropped", "kept"} if a.reason else {"cut", "dropped", "kept", "reason"})
    own_words(q, _Given(**dump), prompt)
    return a


def decided(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """A talk has lines; a decline (only when ``decide`` asked whether to talk) has a reason."""
    if not a.talk and not q.decide:
        raise InvalidAnswer("talk: false, but whether to talk was not asked")
    if a.talk and not a.lines:
        raise InvalidAnswer("lines: none, but talk is true")
    if not a.talk and not a.reason.strip():
        raise InvalidAnswer("reason: empty, but talk is false")
    return a


def declines_as_itself(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """A decline's reason does not deny a liking the starter's file or memories state
    (:func:`.character.declines_in_character`, on the starter's side)."""
    starter = SimpleNamespace(persona_name=q.persona_name, persona_summary=q.persona_summary, other_name=q.other.name,
                              relationship=q.relationship, memories=q.me.memories)
    declines_in_character(starter, a, prompt)
    return a


def takes_turns(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """Lines alternate between the two sides, the one who started it first."""
    for i, line in enumerate(a.lines):
        want = (q.persona_name, q.other.name)[i % 2]
        if line.speaker != want:
            raise BadLine(f"lines[{i}].speaker: {line.speaker!r}, but it is {want!r}'s turn", i)
    return a


def lines_as_themselves(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """Each side speaks as itself: no line tells of its own speaker by full name, as a narrator
    would (:func:`.character.names_itself`), or gives "I" another's verb
    (:func:`.character.i_as_another`); the lines before such a line may stand."""
    for i, line in enumerate(a.lines):
        if names_itself(line.line, line.speaker):
            raise BadLine(f"lines[{i}]: {line.line[:60]!r} tells of {line.speaker} by name; say it as I", i)
        if i_as_another(line.line):
            raise BadLine(f"lines[{i}]: {line.line[:60]!r} says I with another's verb (I ... is); say it as I", i)
    return a


def fits_the_time(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """At most ``max_lines`` lines (what the time before either side must go allows), and, when
    kept whole, the last line ends as a sentence ends (not cut off)."""
    if len(a.lines) > q.max_lines:
        raise BadLine(f"lines: {len(a.lines)} lines, more than the {q.max_lines} the time allows", q.max_lines)
    if a.lines and not a.cut and not _ENDED.search(a.lines[-1].line):
        raise InvalidAnswer(f"lines[{len(a.lines) - 1}]: {a.lines[-1].line[-60:]!r} is cut off: it does not "
                            "end a sentence")
    return a


def tells_only_its_own(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """A side passes on only its own memories (``shared`` among its ids), and no line tells a
    memory only the other side holds (not by its fact, nor by its words) before the other side
    said it: most of what is particular to that memory (its fact's act and place, else its topic
    words, less both names and the speaker's own memories' words) found in the line."""
    names = name_words((q.persona_name, q.other.name))
    sides = {q.persona_name: q.me, q.other.name: q.other}
    for i, line in enumerate(a.lines):
        me = sides.get(line.speaker)
        if me is None:
            raise BadLine(f"lines[{i}].speaker: {line.speaker!r} is neither side", i)
        them = q.other if me is q.me else q.me
        try:
            ids_shown(line.shared, (m.id for m in me.memories), f"lines[{i}].shared")
        except InvalidAnswer as exc:
            raise BadLine(f"{exc} to {me.name}", i) from None
        keys = {m.fact.key() for m in me.memories if m.fact is not None}
        mine = {m.content for m in me.memories}
        own_words_ = set().union(*(_stems(m.content) for m in me.memories)) if me.memories else set()
        heard = set().union(*(_stems(x.line) for x in a.lines[:i] if x.speaker == them.name)) if i else set()
        said = _stems(line.line)
        for m in them.memories:
            if m.content in mine or (m.fact is not None and m.fact.key() in keys):
                continue
            gist = f"{m.fact.act} {(m.fact.place or '').rsplit(':', 1)[-1]}" if m.fact is not None else m.content
            particular = _stems(gist, names) - own_words_
            told = particular & said
            if len(told) >= 3 and len(told) * 2 >= len(particular) and not told <= heard:
                raise BadLine(f"lines[{i}]: {line.line[:60]!r} tells {them.name}'s memory {m.id}, which "
                              f"{me.name} does not hold", i)
    return a


def echoes(line: str, before: str) -> bool:
    """Whether ``line`` repeats ``before``: the same words, or :data:`ECHO_SHARE` of its topic
    words (three or more) found in it."""
    words = _stems(line)
    return " ".join(line.lower().split()) == " ".join(before.lower().split()) or (
        len(words) >= 3 and len(words & _stems(before)) >= ECHO_SHARE * len(words))


def no_echo(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """No line repeats an earlier one (:func:`echoes`)."""
    for i, line in enumerate(a.lines):
        for j in range(i):
            if echoes(line.line, a.lines[j].line):
                raise BadLine(f"lines[{i}]: {line.line[:60]!r} echoes lines[{j}]", i)
    return a


def _kept_fault(q: WriteConversation, a: ExchangeAnswer, k: int, item: KeptItem, prompt: str) -> InvalidAnswer | None:
    """Why kept item ``k`` cannot be kept, or None: it cites a line the other side said, what it
    states is in that line (half or more of its act's topic words, at least one), and its fields
    are those a heard line's may be (:func:`.hear_line.own_words_where_given`, ``act_is_a_verb``,
    ``names_known``, ``stated_times_valid``) in the town's writing (:data:`.writing.WRITING`)."""
    if item.hearer not in (q.persona_name, q.other.name):
        return InvalidAnswer(f"kept[{k}].hearer: {item.hearer!r} is neither side")
    if item.line >= len(a.lines):
        return InvalidAnswer(f"kept[{k}].line: {item.line} is no line of the {len(a.lines)}")
    said = a.lines[item.line]
    if said.speaker == item.hearer:
        return InvalidAnswer(f"kept[{k}]: {item.hearer} keeps line {item.line}, which they said themselves")
    act = _stems(item.act, name_words((q.persona_name, q.other.name)))
    if act and len(act & _stems(said.line)) * 2 < len(act):
        return InvalidAnswer(f"kept[{k}].act: {item.act[:60]!r} is not what line {item.line} says "
                             f"({said.line[:60]!r})")
    heard = cast(Any, q)  # the rules read a heard line's fields and options
    try:
        for rule in (heard_in_own_words, stated_times_valid, act_is_a_verb, names_known, *WRITING):
            item = cast(KeptItem, rule(heard, item, prompt))
    except InvalidAnswer as exc:
        return InvalidAnswer(f"kept[{k}].{exc}")
    return None


def kept_from_lines(q: WriteConversation, a: ExchangeAnswer, prompt: str) -> ExchangeAnswer:
    """The kept items that may be kept (:func:`_kept_fault`); each one at fault is left out, the
    lines kept, and ``dropped`` names why (SmolLM2 kept its own side's line, cited a line not
    written, wrote the act ","). An item is what its hearer remembers of the talk: one left out
    leaves that side only its own lines' memories."""
    kept, dropped = [], list(a.dropped)
    for k, item in enumerate(a.kept):
        fault = _kept_fault(q, a, k, item, prompt)
        if fault is None:
            kept.append(item)
        else:
            dropped.append(str(fault))
    return a if not dropped else a.model_copy(update={"kept": kept, "dropped": dropped})


@dataclass(frozen=True, kw_only=True)
class WriteConversation(Question[ExchangeAnswer]):
    """Write a whole conversation between ``persona`` (who starts it) and ``other`` (§4.3.2).

    ``me`` is the starting side (its ``id``/``name`` the question's ``persona``/``persona_name``),
    ``other`` the one addressed; each carries its own retrieval, and the prompt labels whose
    memory each is. ``now`` is the game time ("YYYY-MM-DD HH:MM:SS"), ``max_lines`` the lines the
    time allows; ``names`` the people and ``places`` the place names a kept item may name (those
    the two sides and their memories name, ``town.mind.converse.start_whole``)
    (``addresses``: the map's, read by the scripted rule only, as :class:`~.next_line.NextLine`'s ``places``);
    ``relationship``: what ``me`` thinks of ``other``, from its own file. ``may_decline``: the
    other was not asked whether it accepts: its first line may decline, ending the talk.
    ``decide``: ``me`` has not decided to talk yet (it sees ``other``, who is ``other.action``):
    the answer's ``talk`` and ``reason`` are its decision, and a decline has no lines.
    """

    template: ClassVar[str] = "write_conversation"
    answer_model = ExchangeAnswer
    purpose: ClassVar[str] = "chat"
    checks = (own_words_where_given, decided, declines_as_itself, as_itself, takes_turns, lines_as_themselves, fits_the_time,
              tells_only_its_own, no_echo, kept_from_lines)
    me: Side
    other: Side
    now: str = ""
    max_lines: int = 8
    relationship: str = ""
    may_decline: bool = False
    decide: bool = False
    names: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    addresses: tuple[str, ...] = ()

    def fewer_memories(self) -> WriteConversation | None:
        """The question with the lowest-scored memory of the side showing more left out (the
        other side's on a tie), or None when neither shows any."""
        if len(self.me.memories) > len(self.other.memories):
            return replace(self, me=replace(self.me, memories=self.me.memories[:-1]))
        if self.other.memories:
            return replace(self, other=replace(self.other, memories=self.other.memories[:-1]))
        return None

    @property
    def lines_asked(self) -> int:
        """Lines the request asks for at most: ``max_lines``, at most :data:`WRITTEN_LINES`."""
        return min(self.max_lines, WRITTEN_LINES)

    def context(self) -> dict:
        """The fields and :attr:`lines_asked`, for the template."""
        return {**super().context(), "lines_asked": self.lines_asked}

    def narrow(self, schema: dict[str, Any]) -> None:
        """Hearers are the two sides (a line's speaker is not asked: by turn); importance 1-10; names and places among those
        offered; ``cut`` is not asked, nor ``talk`` and ``reason`` (a few words,
        :data:`.sense.REASON_PATTERN`) unless ``decide``; the lines always (the decision first
        when asked); 2 to :attr:`lines_asked` lines of one sentence (:data:`.sense.SENTENCE_PATTERN`;
        SmolLM2 answered "talk": true with none), each sharing ids of the memories shown, and one
        kept item a side, citing a line asked for, its act and times shaped (:func:`.hear_line.shape_heard`)."""
        required = schema.setdefault("required", [])
        said = schema["properties"]["lines"]["items"]
        said["properties"].pop("speaker")
        said["required"].remove("speaker")
        for name in ("cut", "dropped") if self.decide else ("cut", "dropped", "talk", "reason"):
            schema["properties"].pop(name, None)
            if name in required:
                required.remove(name)
        for name in ("talk", "reason", "lines", "kept") if self.decide else ("lines",):
            if name not in required:
                required.append(name)
        lines = schema["properties"]["lines"]
        lines["minItems"], lines["maxItems"] = 2, self.lines_asked  # a talk takes turns (a decline's are left out)
        line = lines["items"]["properties"]["line"]
        line["maxLength"], line["pattern"] = 160, SENTENCE_PATTERN
        ids_among(lines["items"]["properties"]["shared"], [m.id for m in (*self.me.memories, *self.other.memories)])
        schema["properties"]["kept"]["maxItems"] = 2
        if self.decide:
            schema["properties"]["reason"]["pattern"] = REASON_PATTERN
        enum_at(schema, ("kept", "[]", "hearer"), [self.persona_name, self.other.name])
        kept = schema["properties"]["kept"]["items"]["properties"]
        kept["importance"] = {"type": "integer", "enum": list(range(1, 11))}
        kept["line"] = {"type": "integer", "enum": list(range(self.lines_asked))}
        shape_heard(kept)
        for field, options in (("subject", self.names), ("host", self.names), ("place", self.places)):
            enum_at(schema, ("kept", "[]", field), ["", *options])

    def _own_ids(self, answer: ExchangeAnswer) -> ExchangeAnswer:
        """Each line's ``shared`` without the ids of memories only the other side holds: one list of
        ids serves both sides' lines in the schema (a line's turn cannot narrow it), and SmolLM2
        cited the other side's memory on lines that did not tell it in 5 of 16 exchanges, each
        rejected. Whether the words tell it stays :func:`tells_only_its_own`'s to judge; an id shown
        to neither side is left for it to reject."""
        held = {self.persona_name: {m.id for m in self.me.memories}, self.other.name: {m.id for m in self.other.memories}}
        theirs = {self.persona_name: held[self.other.name] - held[self.persona_name],
                  self.other.name: held[self.persona_name] - held[self.other.name]}
        if not any(set(line.shared) & theirs.get(line.speaker, set()) for line in answer.lines):
            return answer
        return answer.model_copy(update={"lines": [
            line.model_copy(update={"shared": [i for i in line.shared if i not in theirs.get(line.speaker, set())]})
            for line in answer.lines]})

    def check(self, answer: ExchangeAnswer, prompt: str = "",
              rules: tuple[AnswerCheck, ...] | None = None) -> ExchangeAnswer:
        """The checks in order; a rejected line with two lines or more before it cuts the exchange
        there (its kept items with it) and the rest is checked again. A decline's lines and kept
        items, if any were written, are left out first (it has none); a line without a speaker
        (not asked) is given the side whose turn it is, and a line's ``shared`` loses the other
        side's ids (:meth:`_own_ids`).

        Raises:
            InvalidAnswer: from the first check that rejects the answer (a line before the third
                included), its ``check`` the check's name.
        """
        if not answer.talk and (answer.lines or answer.kept):
            answer = answer.model_copy(update={"lines": [], "kept": []})
        if any(not line.speaker for line in answer.lines):  # not asked: the sides take turns
            sides = (self.persona_name, self.other.name)
            answer = answer.model_copy(update={"lines": [
                line if line.speaker else line.model_copy(update={"speaker": sides[i % 2]})
                for i, line in enumerate(answer.lines)]})
        answer = self._own_ids(answer)
        while True:
            try:
                return super().check(answer, prompt, rules)
            except BadLine as exc:
                if exc.line < 2:
                    raise
                answer = answer.model_copy(update={
                    "lines": answer.lines[:exc.line], "kept": [k for k in answer.kept if k.line < exc.line],
                    "cut": answer.cut or exc.check})
