"""A fact heard again is one record whose change a RETOLD event records: the reader gives the
record as last retold (tellers, importance) with its access at the retelling, so a resumed or
forked stream is the one an uninterrupted run holds."""

from __future__ import annotations

from town.events import EventKind
from town.recording import RunReader


def test_the_reader_gives_a_record_as_last_retold(synthetic):
    """ana's record 0 (importance 5, one teller) is retold at tick 2 by Bo with importance 8:
    the records before that event are as written; after it, tellers [Cy, Bo], importance 8 and
    last_accessed the retelling's time (no retrieval returned it since); record 1 is untouched."""
    run = synthetic()
    run.memory("ana", "Cy told me of a vigil.", 5)
    run.records["ana"][0]["tellers"] = [["Cy", "2023-02-13 07:00:00"]]
    run.end_tick()
    run.memory("ana", "The park is green.", 2)
    run.end_tick()
    retold = {**run.records["ana"][0], "importance": 8, "last_accessed": "2023-02-13 07:00:20",
              "tellers": [["Cy", "2023-02-13 07:00:00"], ["Bo", "2023-02-13 07:00:20"]]}
    event = run.publish(EventKind.RETOLD, "ana", retold)
    run.end_tick()
    run.writer.close()
    with RunReader(run.writer.path) as reader:
        before = reader.stream_records("ana", event.seq)
        after = reader.stream_records("ana", event.seq + 1)
        scored = reader.stream_as_of("ana", event.seq + 1)
    assert [(r["importance"], r["last_accessed"]) for r in before] == [(5, "2023-02-13 07:00:00"),
                                                                       (2, "2023-02-13 07:00:10")]
    assert (after[0]["importance"], after[0]["last_accessed"]) == (8, "2023-02-13 07:00:20")
    assert after[0]["tellers"] == [["Cy", "2023-02-13 07:00:00"], ["Bo", "2023-02-13 07:00:20"]]
    assert after[1] == before[1] and scored.importance.tolist() == [8, 2]
