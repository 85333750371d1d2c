"""Interview a persona of a recorded run, from its memory as of a game time (Park et al. 2023 §6.1).

The persona's memory stream is rebuilt as it was at that time from the run file
(:meth:`RunReader.stream_as_of`), the question is embedded with the run's embedder, the stream is
ranked with the run's retrieval weights and k through :func:`town.memory.scoring.rank` (the one
scoring function), and the retrieved memories go to an :class:`AnswerInterview` question,
answered by the backend given (by default the scripted one: a run file's stored backend is shown,
never contacted; ``town interview --backend openai --base-url URL`` names a model,
:func:`town.analysis.recorded.run_backend`), with the retrieval settings the moment was made with
(a fork's parent's before the fork); each answer says which backend gave it, and whether a model's answer fell back to the
scripted one. The question carries the persona's own description
(:func:`identity`, from its persona file), as every decision does, so questions about the persona
itself can be answered from it. The answer comes with the retrieval trace and the
retrieved records it was given (question in; answer text and memories out). :class:`Interviewer`
asks many questions, reusing one stream per persona and moment (with its records' ages at the
time asked) and embedding questions in batches. Nothing is written to the run file: an
interview's retrieval does not move any record's ``last_accessed``.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..embedding import Embedder
from ..errors import ConfigError, RecordingError
from ..memory.fact import Decided, Fact, PlanItem
from ..memory.trace import CandidateScore
from ..memory.vectors import VectorIndex
from ..recording.lab import score_stream, stream_ages
from ..backends import ThinkingParts
from ..thinking.questions import AnswerInterview, MemoryView, PlanItemView
from ..thinking.views import routine_views
from ..thinking.words import name_words, topic_words
from .recorded import config_at, load_embedder, run_backend, run_config, seq_after, tick_at

__all__ = ["InterviewResult", "Interviewer", "identity", "interview", "routine_of", "says_yes"]


@dataclass(frozen=True, kw_only=True)
class InterviewResult:
    """An interview answer and the retrieval behind it.

    Attributes:
        persona: persona id.
        question: the interviewer's question.
        at: game time asked about; tick: the last tick at or before it; seq: the stream holds the
            memories of events with seq < this.
        answer: the persona's answer; evidence: the ids of the memories it says it used (empty
            when the backend cites none).
        weights: (recency, importance, relevance) used; k: records retrieved.
        n_scored: records in the stream as of then.
        candidates: the top k then the runners-up, best first (trace rows).
        backend: the backend whose answer this is ("openai", "local" or "scripted"; "scripted"
            when a model's answer fell back); fallback: a model was asked and its answer fell back
            to the scripted one; requests: HTTP requests the answer took (0: no model, or the
            answer cache).
        retrieved: the records the answer was given (the top k), best first, each the recorded
            memory (``MemoryRecord.to_dict()`` fields, provenance included: ``kind``,
            ``subject``, ``source``, ``evidence``, ``probe``) plus ``seq`` and ``tick`` of its
            event. Measurement only: the backend saw text, kind, importance and creation time.
    """

    persona: str
    question: str
    at: datetime
    tick: int
    seq: int
    answer: str
    evidence: tuple[int, ...] = ()
    weights: tuple[float, ...]  # recency, importance, relevance (as the config holds them)
    k: int
    n_scored: int
    candidates: tuple[CandidateScore, ...]
    retrieved: tuple[dict[str, Any], ...] = ()
    backend: str = "scripted"
    fallback: bool = False
    requests: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (``at`` as "YYYY-MM-DD HH:MM:SS")."""
        return {
            "persona": self.persona,
            "question": self.question,
            "at": self.at.isoformat(sep=" "),
            "tick": self.tick,
            "seq": self.seq,
            "answer": self.answer,
            "evidence": list(self.evidence),
            "weights": list(self.weights),
            "k": self.k,
            "n_scored": self.n_scored,
            "candidates": [c.to_dict() for c in self.candidates],
            "retrieved": [dict(m) for m in self.retrieved],
            "backend": self.backend,
            "fallback": self.fallback,
            "requests": self.requests,
        }


def identity(spec) -> str:
    """What an interviewed persona knows of itself: its file's summary and where it lives.

    :meth:`town.scenario.PersonaSpec.summary` (as every decision sees it) followed by "<first
    name> lives in <home sector>." (the file's ``home``), e.g. "... Klaus lives in Dorm for Oak
    Hill College."
    """
    return f"{spec.summary()} {spec.name.split()[0]} lives in {spec.home_sector}."


def routine_of(spec) -> tuple[PlanItemView, ...]:
    """The routine of a persona's file as the interview question carries it ("HH:MM" blocks)."""
    return routine_views(spec.routine)


def _specs(reader, scenario) -> dict[str, Any]:
    """Persona id -> its file (:class:`town.scenario.PersonaSpec`), from ``scenario`` or the run's town folder.

    Empty when the folder is missing or no longer loads, or ``scenario`` has no persona files
    (the interview then goes without).
    """
    if scenario is None:
        from ..scenario import load_scenario

        try:
            scenario = load_scenario(reader.meta["scenario"])
        except (KeyError, ConfigError):
            return {}
    return {s.id: s for s in getattr(scenario, "personas", ())}


def says_yes(answer: str) -> bool:
    """True when an interview answer affirms ("Yes ...")."""
    return answer.strip().lower().startswith("yes")


@dataclass
class _Moment:
    """One persona's stream just before ``seq``: index, records by id, ages by the time asked at.

    ``ages``: :func:`~town.recording.lab.stream_ages` of the stream, by game time.
    """

    persona: str
    seq: int
    stream: Any
    index: VectorIndex | None
    records: Mapping[int, dict[str, Any]]
    ages: dict[datetime, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)


class Interviewer:
    """Asks questions of a recorded run's personas, from their memory as of a moment.

    Many interviews share work: the questions are embedded in batches and remembered, and the
    stream of the persona and moment asked last is kept, so asking everyone many questions at a
    few moments rebuilds one stream per persona and moment. Nothing is written to the run file.

    Args:
        reader: a :class:`town.recording.RunReader` (only read).
        backend: a thinking backend, or the :class:`~town.backends.ThinkingParts` of one
            (whose recorder tells which answers fell back); default: the scripted backend
            (:func:`run_backend` with no model named: a run file's backend is never contacted).
        embedder: embeds the questions (default: the run's, :func:`load_embedder`).
        scenario: the run's :class:`town.scenario.Scenario`, for each persona's :func:`identity`
            (default: loaded from the folder the run's meta names).

    Raises:
        ConfigError: for an unknown embedder or a bad meta ``config`` (naming the run file).
    """

    def __init__(self, reader, *, backend=None, embedder: Embedder | None = None, scenario=None):
        self.reader = reader
        specs = _specs(reader, scenario)
        self.identities = {pid: identity(spec) for pid, spec in specs.items()}
        self.routines = {pid: routine_of(spec) for pid, spec in specs.items()}
        self.ties = {pid: tuple((specs[r.persona].name if r.persona in specs else r.persona, r.description)
                                for r in spec.relationships) for pid, spec in specs.items()}
        self.pronouns = tuple((spec.name, spec.pronoun) for spec in specs.values() if spec.pronoun)
        run_config(reader)  # a bad meta config is refused here, not at the first question
        self.embedder = embedder or load_embedder(reader)
        parts = run_backend(reader) if backend is None else backend if isinstance(backend, ThinkingParts) \
            else ThinkingParts(backend=backend)
        self.backend = parts.backend
        self._calls: list[dict[str, Any]] = []  # the MODEL_CALL events of the question being asked
        if parts.recorder is not None:
            parts.recorder.bind(lambda kind, persona, data: self._calls.append(data))
        listed = reader.meta.get("personas")
        self.names = {pid: ((listed.get(pid) or {}).get("name", pid) if isinstance(listed, dict) else pid)
                      for pid in reader.personas()}
        self._vectors: dict[str, np.ndarray] = {}
        self._moment: _Moment | None = None
        self._retrieval: dict[int, tuple[tuple[float, ...], int]] = {}

    def embed(self, questions) -> None:
        """Embed, in one batch, those of ``questions`` not embedded yet."""
        new = list(dict.fromkeys(q for q in questions if q not in self._vectors))
        if new:
            for q, row in zip(new, self.embedder.embed(new)):
                self._vectors[q] = np.asarray(row, dtype=np.float32)

    def moment(self, at: datetime | str) -> tuple[datetime, int, int]:
        """``(at, tick, seq)`` of game time ``at``: the last tick at or before it, and its seq.

        The seq is :func:`seq_after` the tick: the stream as of then holds events with seq < it.

        Raises:
            ConfigError, RecordingError: as :func:`tick_at`.
        """
        at, tick = tick_at(self.reader, at)
        return at, tick, seq_after(self.reader, tick)

    def _at(self, persona: str, seq: int) -> _Moment:
        m = self._moment
        if m is None or (m.persona, m.seq) != (persona, seq):
            stream = self.reader.stream_as_of(persona, seq)
            index = None
            if len(stream.ids):
                index = VectorIndex(stream.embeddings.shape[1])
                index.add(stream.embeddings, stream.ids)
            records = self.reader.records_as_of(persona, seq)
            m = self._moment = _Moment(persona, seq, stream, index, records)
        return m

    def ask(self, persona: str, question: str, *, at: datetime, tick: int, seq: int) -> InterviewResult:
        """Answer ``question`` as ``persona`` from the memories written before event ``seq``.

        Args:
            persona: persona id.
            question: the interviewer's question.
            at: game time of the interview (recency is measured to it).
            tick: the tick it belongs to (seeds the backend; reported).
            seq: the stream holds the memories of events with seq < this (:meth:`moment`).

        Raises:
            ConfigError: for an unknown persona.
            RecordingError: when the embedder's dimension differs from the recorded vectors.
        """
        if persona not in self.names:
            raise ConfigError(
                f"unknown persona {persona!r}; this run has {', '.join(self.names)}",
                field="--persona",
            )
        self.embed([question])
        query = self._vectors[question]
        m = self._at(persona, seq)
        n = len(m.stream.ids)
        if n and m.stream.embeddings.shape[1] != query.shape[0]:
            raise RecordingError(
                f"{self.reader.path}: memories have {m.stream.embeddings.shape[1]}-dim embeddings but "
                f"the embedder {getattr(self.embedder, 'name', '?')!r} gives {query.shape[0]}; use "
                "the run's embedder"
            )
        if at not in m.ages:
            m.ages[at] = stream_ages(m.stream, at)
        if tick not in self._retrieval:  # a fork's parent's settings before the fork
            retrieval = config_at(self.reader, tick).retrieval
            self._retrieval[tick] = (retrieval.weights, retrieval.k)
        weights, k = self._retrieval[tick]
        ranking, scored = score_stream(m.stream, query, now=at, weights=weights, k=k,
                                       index=m.index, ages=m.ages[at])
        candidates = tuple(scored)
        top = [m.records[c.id] for c in candidates[: ranking.n_top]]
        top += _bearing(question, m, self.names[persona], list(self.names.values()), {r["id"] for r in top}, at)
        views = tuple(
            MemoryView(id=r["id"], content=r["content"], kind=r["kind"], importance=int(r["importance"]),
                       created=r["created"], fact=Fact.from_dict(r["fact"]) if r.get("fact") else None,
                       tellers=tuple(t[0] for t in r.get("tellers") or ()),  # the fields, as the mind shows them
                       plan_items=tuple(PlanItem.from_dict(i) for i in r.get("plan_items") or ()),
                       decisions=tuple(Decided.from_dict(i) for i in r.get("decisions") or ()))
            for r in top
        )
        self._calls.clear()
        answer = self.backend.ask(
            AnswerInterview(
                persona=persona,
                persona_name=self.names[persona],
                persona_summary=self.identities.get(persona, ""),
                seed=zlib.crc32(f"{persona}|{tick}|{question}".encode()),
                question=question,
                memories=views,
                now=f"{at:%Y-%m-%d %H:%M:%S}",
                routine=self.routines.get(persona, ()),
                people=tuple(self.names.values()),
                ties=self.ties.get(persona, ()),
                pronouns=self.pronouns,
            )
        )
        fallback = any(c["outcome"] == "fallback" for c in self._calls)
        return InterviewResult(
            persona=persona, question=question, at=at, tick=tick, seq=seq, answer=answer.answer,
            evidence=tuple(answer.evidence or ()), weights=weights, k=k, n_scored=n, candidates=candidates,
            retrieved=tuple({k: v for k, v in r.items() if k != "embedding"} for r in top),
            backend="scripted" if fallback else self.backend.name, fallback=fallback,
            requests=sum(1 for c in self._calls if c.get("request")),
        )


#: Records added to an interview's top k for each person it names, and of news heard.
BEARING = 3


def _bearing(question: str, m: _Moment, me: str, people: list[str], taken: set[int],
             at: datetime | None = None) -> list[dict[str, Any]]:
    """The records, beyond the top k, that bear on what ``question`` asks: up to :data:`BEARING`
    sharing the most of its topic words (:func:`town.thinking.words.topic_words`, names left out)
    with their fact's fields and words, newest first among equals; then the newest: up to
    :data:`BEARING` naming each person it names (full or first name: a teller, the fact's subject
    or host, or the words), up to :data:`BEARING` heard facts (``tellers`` and ``fact``), up to
    :data:`BEARING` plans (``plan_items``) and the records stating the events they decided, and
    up to :data:`BEARING` talks of the day of ``at`` (its summaries, "I talked with ..."). An
    interview about a person or the news answers from them even when recency ranks the persona's
    own sightings first."""
    words = set(question.replace("?", " ").replace(",", " ").split())
    named = [p for p in people if p != me and (p in question or p.split()[0] in words)]
    ids = sorted(m.stream.ids, reverse=True)
    out: list[dict[str, Any]] = []

    def add(keep) -> None:
        found = 0
        for i in ids:
            if found == BEARING:
                return
            r = m.records[int(i)]
            if int(i) not in taken and keep(r):
                taken.add(int(i))
                out.append(r)
                found += 1

    # what the question asks about, by its topic words (names left out) in the record's fact's
    # fields and words: the most shared first, then the newest
    topic = topic_words(question) - name_words(people)
    if topic:
        def shared(r: dict[str, Any]) -> int:
            fact = r.get("fact") or {}
            fields = " ".join(str(fact.get(k) or "") for k in ("subject", "act", "place", "host"))
            return len(topic & topic_words(f"{fields} {r['content']}"))
        counts = {int(i): shared(m.records[int(i)]) for i in ids if int(i) not in taken}
        ids_by_topic = sorted((i for i, n in counts.items() if n), key=lambda i: (-counts[i], -i))
        for i in ids_by_topic[:BEARING]:
            taken.add(i)
            out.append(m.records[i])
    for person in named:
        add(lambda r, p=person: any(t[0] == p for t in r.get("tellers") or ())
            or p in ((r.get("fact") or {}).get("subject"), (r.get("fact") or {}).get("host")) or p in r["content"])
    add(lambda r: bool(r.get("tellers")) and bool(r.get("fact")) and not r["fact"].get("question"))
    # intentions, the day, preferences: the newest plans (their items and decisions), and the
    # memories stating the events decided
    add(lambda r: r["kind"] == "plan" and bool(r.get("plan_items")))
    stating = {i for r in out if r["kind"] == "plan" for d in r.get("decisions") or () for i in d.get("evidence") or ()}
    add(lambda r: int(r["id"]) in stating)
    if at is not None:
        add(lambda r: r["created"][:10] == f"{at:%Y-%m-%d}" and r["content"].startswith("I talked with "))
    return out


def interview(
    reader,
    persona: str,
    at: datetime | str,
    question: str,
    *,
    backend=None,
    embedder: Embedder | None = None,
) -> InterviewResult:
    """Answer ``question`` as ``persona`` from its memory as of game time ``at``.

    Args:
        reader: a :class:`town.recording.RunReader` (only read).
        persona: persona id.
        at: game time (datetime or "YYYY-MM-DD HH:MM"); the stream holds what was written by the
            end of the last tick at or before it.
        question: the interviewer's question.
        backend: a thinking backend or its parts (default:
            :class:`~town.scripted.ScriptedBackend`, which needs no model server, as the
            viewer's interview tab asks; :func:`run_backend` gives the run's own, as
            ``town interview`` asks).
        embedder: embeds the question (default: the run's, :func:`load_embedder`).

    Returns:
        The :class:`InterviewResult`.

    Raises:
        ConfigError: for an unknown persona, a bad ``at`` or a bad meta ``config`` (naming the
            run file).
        RecordingError: when the run has no tick yet or the embedder's dimension differs from
            the recorded vectors.
    """
    if persona not in reader.personas():
        raise ConfigError(
            f"unknown persona {persona!r}; this run has {', '.join(reader.personas())}",
            field="--persona",
        )
    if backend is None:
        from ..backends import default_backend

        backend = default_backend()
    asker = Interviewer(reader, backend=backend, embedder=embedder)
    at, tick, seq = asker.moment(at)
    return asker.ask(persona, question, at=at, tick=tick, seq=seq)
