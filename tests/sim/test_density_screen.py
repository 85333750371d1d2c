"""The density of a simulated generated town: asking only the pairs a memory could make acquainted
gives the edges that asking every pair gives (the brute-force reference), at every moment.

A 12-persona generated town (seed 5), 6 game hours with the hashing embedder and the scripted
backend, sampled every 2 game hours (the start, hours 2, 4 and 6).
"""

from __future__ import annotations

import pytest
from cli_helpers import run_cli

from town.analysis.evaluate import evaluate
from town.analysis.interview import Interviewer
from town.analysis.moments import moments, start_seq
from town.analysis.provenance import load_memories
from town.analysis.relationships import acquainted, holders
from town.generator import generate_town
from town.recording import RunReader


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """The run, open for reading."""
    folder = tmp_path_factory.mktemp("screen")
    generate_town(12, 5, folder / "twelve")
    out = folder / "twelve.sqlite"
    done = run_cli("simulate", "--town", str(folder / "twelve"), "--hours", "6", "--embedder", "hashing",
                   "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    with RunReader(out) as r:
        yield r


def test_screened_density_equals_asking_every_pair(reader):
    """Every ordered pair is asked "Do you know <name>?" at every moment (132 a moment) and judged
    with the same rule: the edges and the one-sided pairs at the end equal the report's, where
    only some pairs were asked; every pair that knows was among those asked. Some pairs left
    unasked answer "yes" when asked (a shared family name is enough for the scripted answerer),
    and still count as not acquainted: no memory they could be given is about the other."""
    report = evaluate(reader, every_hours=2)
    series = report["density"]["series"]
    asker = Interviewer(reader)
    names, seeded = asker.names, start_seq(reader)
    held = holders(load_memories(reader).values(), names, seeded)
    pairs = [(a, b) for a in names for b in names if a != b]
    yes_unasked = 0
    for i, m in enumerate(moments(reader, 2)):
        asked = {(a, b) for a, b in pairs if held.get((a, b), m.seq) < m.seq}
        knows = set()
        for a, b in pairs:
            answer = asker.ask(a, f"Do you know {names[b]}?", at=m.time, tick=m.tick, seq=m.seq)
            if acquainted(answer, b, names[b], seeded):
                knows.add((a, b))
            yes_unasked += answer.answer.startswith("Yes") and (a, b) not in asked
        assert knows <= asked
        assert series[i]["edges"] == sorted([a, b] for a, b in knows if a < b and (b, a) in knows)
        assert (series[i]["asked"], series[i]["screened"]) == (len(asked), len(pairs) - len(asked))
        assert series[i]["screened"] > 0
    assert report["density"]["one_sided_end"] == sorted([a, b] for a, b in knows if (b, a) not in knows)
    assert len(series) == 4 and series[-1]["count"] > series[0]["count"] > 0
    assert yes_unasked > 0
