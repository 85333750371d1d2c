"""Interview a persona of a recorded run, from its memory as of a game time (Park et al. 2023 §6.1).

The persona's memory stream is rebuilt as it was at that time from the run file
(:meth:`RunReader.stream_as_of`), the question is embedded with the run's embedder, the stream is
ranked with the run's retrieval weights and k through :func:`town.memory.scoring.rank` (the one
scoring function), and the retrieved memories go to an :class:`AnswerInterview` question (scripted
backend by default). The answer comes with the retrieval trace it used. Nothing is written to the
run file: the interview's retrieval does not move any record's ``last_accessed``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from .clock import parse_game_time
from .config import Config, load_config
from .embedding import Embedder, make_embedder
from .errors import ConfigError, RecordingError
from .memory.trace import CandidateScore
from .recording.lab import score_stream
from .thinking.questions import AnswerInterview, MemoryView

__all__ = ["InterviewResult", "interview", "load_embedder", "run_config", "says_yes", "tick_at"]



@dataclass(frozen=True, kw_only=True)
class InterviewResult:
    """An interview answer and the retrieval behind it.

    Attributes:
        persona: persona id.
        question: the interviewer's question.
        at: game time asked about; tick: the last tick at or before it; seq: the stream holds the
            memories of events with seq < this.
        answer: the persona's answer.
        weights: (recency, importance, relevance) used; k: records retrieved.
        n_scored: records in the stream as of then.
        candidates: the top k then the runners-up, best first (trace rows).
    """

    persona: str
    question: str
    at: datetime
    tick: int
    seq: int
    answer: str
    weights: tuple[float, float, float]
    k: int
    n_scored: int
    candidates: tuple[CandidateScore, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (``at`` as "YYYY-MM-DD HH:MM:SS")."""
        return {
            "persona": self.persona,
            "question": self.question,
            "at": self.at.isoformat(sep=" "),
            "tick": self.tick,
            "seq": self.seq,
            "answer": self.answer,
            "weights": list(self.weights),
            "k": self.k,
            "n_scored": self.n_scored,
            "candidates": [c.to_dict() for c in self.candidates],
        }


def run_config(reader) -> Config | None:
    """The run's configuration (meta ``config``) over the defaults, checked; None when absent.

    A run records its whole :meth:`Config.to_dict`; a partial one (an older or hand-built run)
    takes the defaults for what it leaves out.

    Raises:
        ConfigError: naming the run file and the dotted field (``config.retrieval``) of a value
            of the wrong type or out of range.
    """
    recorded = reader.meta.get("config")
    if recorded is None:
        return None
    if not isinstance(recorded, dict):
        raise ConfigError(f"must be a table of settings, got {recorded!r}", file=reader.path,
                          field="config")
    try:
        return Config.from_dict(_over(load_config().to_dict(), recorded), file=reader.path)
    except ConfigError as exc:
        raise ConfigError(exc.reason, file=reader.path, field=f"config.{exc.field}") from None


def _over(base: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
    """``recorded`` laid over ``base``, table by table (a non-table value replaces)."""
    out = dict(base)
    for key, value in recorded.items():
        both = isinstance(value, dict) and isinstance(base.get(key), dict)
        out[key] = _over(base[key], value) if both else value
    return out


def load_embedder(reader) -> Embedder:
    """The embedder the run was recorded with (its meta ``embedder`` name, e.g. "minilm").

    Raises:
        ConfigError: for an unknown embedder name, a missing model package or a bad meta
            ``config`` (see :func:`run_config`).
    """
    config = run_config(reader)
    return make_embedder(str(reader.meta.get("embedder", "minilm")),
                         backend=None if config is None else config.backend)


def says_yes(answer: str) -> bool:
    """True when an interview answer affirms ("Yes ...")."""
    return answer.strip().lower().startswith("yes")


def tick_at(reader, at: datetime | str) -> tuple[datetime, int]:
    """The game time ``at`` and the last recorded tick at or before it (the run's last tick after it).

    Raises:
        ConfigError: naming ``--at`` when the time is not "YYYY-MM-DD HH:MM" or precedes the run.
        RecordingError: "PATH has no recorded tick yet" before the run's first frame.
    """
    last = reader.last_tick
    if last is None:
        raise RecordingError(f"{reader.path} has no recorded tick yet")
    if isinstance(at, str):
        try:
            at = datetime.fromisoformat(at.strip())
        except ValueError:
            at = parse_game_time(at, field="--at")
    start = datetime.fromisoformat(reader.meta["start"])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    tick = int((at - start).total_seconds() // spt)
    if tick < 0:
        raise ConfigError(
            f"{at:%Y-%m-%d %H:%M} is before the run starts ({start:%Y-%m-%d %H:%M})", field="--at"
        )
    return at, min(tick, last)


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
        backend: a thinking backend (default: :class:`~town.thinking.scripted.ScriptedBackend`).
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
    at, tick = tick_at(reader, at)
    last = reader.events(until_tick=tick, newest_first=True, limit=1)
    seq = (last[0].seq if last else 0) + 1
    stream = reader.stream_as_of(persona, seq)
    config = run_config(reader) or load_config()
    weights, k = config.retrieval.weights, config.retrieval.k
    embedder = embedder or load_embedder(reader)
    query = np.asarray(embedder.embed([question])[0], dtype=np.float32)
    n = len(stream.ids)
    if n and stream.embeddings.shape[1] != query.shape[0]:
        raise RecordingError(
            f"{reader.path}: memories have {stream.embeddings.shape[1]}-dim embeddings but the "
            f"embedder {getattr(embedder, 'name', '?')!r} gives {query.shape[0]}; use the run's embedder"
        )
    ranking, scored = score_stream(stream, query, now=at, weights=weights, k=k)
    candidates = tuple(scored)
    details = {m["id"]: m for m in reader.memories(persona, as_of_seq=seq)}
    views = tuple(
        MemoryView(
            id=c.id,
            content=c.content,
            kind=details[c.id]["kind"],
            importance=c.importance,
            created=details[c.id]["created"],
        )
        for c in candidates[: ranking.n_top]
    )
    if backend is None:
        from .thinking.scripted import ScriptedBackend

        backend = ScriptedBackend()
    name = (
        ((reader.meta.get("personas") or {}).get(persona) or {}).get("name", persona)
        if isinstance(reader.meta.get("personas"), dict)
        else persona
    )
    answer = backend.ask(
        AnswerInterview(
            persona=persona,
            persona_name=name,
            seed=zlib.crc32(f"{persona}|{tick}|{question}".encode()),
            question=question,
            memories=views,
        )
    )
    return InterviewResult(
        persona=persona,
        question=question,
        at=at,
        tick=tick,
        seq=seq,
        answer=answer.answer,
        weights=weights,
        k=k,
        n_scored=n,
        candidates=candidates,
    )
