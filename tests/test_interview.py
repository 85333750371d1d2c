"""Interviews from a recorded run: answers follow what the persona had heard by then."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from datetime import datetime, timedelta

import pytest

from town.analysis.interview import interview, says_yes
from town.config import load_config
from town.embedding import HashingEmbedder
from town.errors import ConfigError, RecordingError
from town.recording import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation

QUESTION = "Do you know about a party?"


@pytest.fixture(scope="module")
def run_path(tmp_path_factory):
    """The Ville for 6 game hours, scripted, hashing embedder, recorded."""
    path = tmp_path_factory.mktemp("interview") / "ville.sqlite"
    config = load_config(None, {"embedder": "hashing"})
    sim = Simulation(load_scenario("the_ville"), config, embedder=HashingEmbedder(), run_path=path)
    sim.run(sim.clock.ticks_for(hours=6))
    sim.close()
    return path


def _checksum(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_party_answer_turns_yes_after_hearing_of_it(run_path):
    """The first persona told of the party in a conversation says no one tick before and yes after.

    Who and when come from the file by plain SQL (the first chat memory of someone other than the
    host that mentions the party); its game time is the town's start, 07:00, plus 10 s a tick.
    """
    with closing(sqlite3.connect(f"file:{run_path}?mode=ro", uri=True)) as db:
        heard = db.execute("SELECT persona, id, tick FROM memories WHERE kind = 'chat' AND persona != "
                           "'isabella_rodriguez' AND content LIKE '%party%' ORDER BY seq LIMIT 1").fetchone()
    assert heard, "nobody heard of the party in a conversation within 6 hours"
    persona, memory, tick = heard
    when = datetime(2023, 2, 13, 7, 0) + timedelta(seconds=10 * tick)
    with RunReader(run_path) as reader:
        before = interview(reader, persona, when - timedelta(seconds=10), QUESTION, embedder=HashingEmbedder())
        after = interview(reader, persona, when, QUESTION, embedder=HashingEmbedder())
    assert before.answer == "No, I don't know anything about that."
    assert not says_yes(before.answer)
    assert says_yes(after.answer)
    assert "party" in after.answer
    top = [c for c in after.candidates if c.in_top_k]
    assert len(top) == after.k == 10 and memory in [c.id for c in top]


def test_interview_leaves_the_run_file_unchanged(run_path):
    """The run file's bytes are the same after an interview (checksum)."""
    before = _checksum(run_path)
    with RunReader(run_path) as reader:
        interview(reader, "klaus_mueller", "2023-02-13 12:00", QUESTION, embedder=HashingEmbedder())
    assert _checksum(run_path) == before


def test_interview_trace_uses_the_runs_weights_and_k(run_path):
    """The trace reports the run's k and weights and ranks by falling total."""
    with RunReader(run_path) as reader:
        result = interview(
            reader,
            "maria_lopez",
            "2023-02-13 10:00",
            "What did you do this morning?",
            embedder=HashingEmbedder(),
        )
    # town/default.toml: k = 10, weights (1, 1, 1)
    assert result.k == 10 and result.weights == (1.0, 1.0, 1.0)
    totals = [c.total for c in result.candidates]
    assert totals == sorted(totals, reverse=True)
    assert result.to_dict()["at"] == "2023-02-13 10:00:00"


def test_interview_before_the_run_is_an_error(run_path):
    """A time before the run's start names --at."""
    with RunReader(run_path) as reader, pytest.raises(ConfigError, match="--at"):
        interview(reader, "maria_lopez", "2023-02-12 10:00", QUESTION, embedder=HashingEmbedder())


def _copy_with(run_path, target, sql):
    import shutil
    import sqlite3

    shutil.copy(run_path, target)
    with sqlite3.connect(target) as conn:
        conn.execute(sql)
    conn.close()
    return target


def test_bad_recorded_config_is_a_config_error_naming_the_run(run_path, tmp_path):
    """A meta config {"retrieval": 5} is a ConfigError naming the file and config.retrieval."""
    bad = _copy_with(run_path, tmp_path / "odd.sqlite",
                     """UPDATE meta SET value = '{"retrieval": 5}' WHERE key = 'config'""")
    with RunReader(bad) as reader, pytest.raises(ConfigError) as err:
        interview(reader, "maria_lopez", "2023-02-13 08:00", QUESTION, embedder=HashingEmbedder())
    assert str(bad) in str(err.value) and "config.retrieval" in str(err.value)


def test_interview_of_a_run_without_ticks_is_a_recording_error(run_path, tmp_path):
    """No frame recorded yet: RecordingError 'PATH has no recorded tick yet'."""
    empty = _copy_with(run_path, tmp_path / "empty.sqlite", "DELETE FROM frames")
    with RunReader(empty) as reader, pytest.raises(RecordingError, match="has no recorded tick yet"):
        interview(reader, "maria_lopez", "2023-02-13 08:00", QUESTION, embedder=HashingEmbedder())


def test_records_about_the_thing_asked_are_retrieved_beyond_the_top_k():
    """An interview's retrieval adds, beyond the top k, the records sharing the most topic words
    with the question in their fact's fields and words (names left out), not only the newest
    naming a person. Worked out by hand: "Tell me about Sam Moore running for mayor." has topic
    words {run, mayor}; record 1 (Sam's decision to run for mayor, oldest) holds both, record 2
    (a run in the park) one, the newer records 3-6 (Sam's party news, sightings) none; so 1 and 2
    come first, then the newest naming Sam (6, 5, 4)."""
    from types import SimpleNamespace

    import numpy as np

    from town.analysis.interview import _bearing, _Moment

    def record(i: int, content: str, fact: dict | None = None) -> dict:
        return {"id": i, "kind": "chat", "content": content, "created": f"2023-02-13 0{i}:00:00", "fact": fact,
                "tellers": [["Sam Moore", "2023-02-13"]] if "Sam" in content else []}

    records = {1: record(1, 'Sam Moore said to me: "I have decided to run for mayor."',
                         {"subject": "Sam Moore", "act": "decide to run for mayor of Smallville"}),
               2: record(2, "I went for a run in Johnson Park."),
               **{i: record(i, f"Sam Moore told me about the Valentine's Day party ({i}).") for i in (3, 4, 5, 6)}}
    moment = _Moment("ayesha_khan", 99, SimpleNamespace(ids=np.array(sorted(records))), None, records)
    got = _bearing("Tell me about Sam Moore running for mayor.", moment, "Ayesha Khan", ["Ayesha Khan", "Sam Moore"],
                   set())
    assert [r["id"] for r in got][:5] == [1, 2, 6, 5, 4]
