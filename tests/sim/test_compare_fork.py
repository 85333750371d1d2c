"""`compare` of a fork and its parent: the moments before the fork are measured with the parent's settings.

A fork keeps its parent's configuration (meta ``parent.config``), so an interview at a moment
before the fork retrieves with the weights those ticks were made with, not the fork's. The
parent: the_ville, 14 game hours (1 h snapshots). The fork: from 13:00 (the snapshot at the end
of tick 4679), relevance-only weights [0, 0, 1], one game hour more. Before the fork the two
runs hold the same memories, so the density samples at hour 0 and hour 12 agree, and an
interview at 12:00 shows the parent's weights [1, 1, 1] in both.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from town.cli.main import main
from town.recording import RunReader

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def parent_and_fork(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fork")
    parent, fork = folder / "parent.sqlite", folder / "fork.sqlite"
    assert main(["simulate", "--town", "the_ville", "--embedder", "hashing", "--hours", "14", "--out", str(parent),
                 "--quiet"]) == 0
    with RunReader(parent) as reader:
        start = datetime.fromisoformat(reader.meta["start"])
    assert main(["fork", str(parent), "--at", f"{start + timedelta(hours=13):%Y-%m-%d %H:%M}", "--out", str(fork),
                 "--set", "retrieval.weights=[0,0,1]", "--hours", "1", "--quiet"]) == 0
    return parent, fork, start


def test_densities_before_the_fork_agree(parent_and_fork, tmp_path):
    parent, fork, _ = parent_and_fork
    out = tmp_path / "compare.json"
    assert main(["compare", str(parent), str(fork), "--json", str(out)]) == 0
    density = json.loads(out.read_text())["density"]
    assert density["a"]["hours"][:2] == density["b"]["hours"][:2] == [0, 12]
    assert density["a"]["density"][:2] == density["b"]["density"][:2]
    assert density["a"]["edges"][:2] == density["b"]["edges"][:2]


def test_an_interview_before_the_fork_uses_the_parents_weights(parent_and_fork, capsys):
    parent, fork, start = parent_and_fork
    printed = {}
    for name, run, at in (("parent", parent, 12), ("fork", fork, 12), ("fork after", fork, 13.5)):
        capsys.readouterr()
        assert main(["interview", str(run), "--persona", "klaus_mueller", "--at",
                     f"{start + timedelta(hours=at):%Y-%m-%d %H:%M}", "Who did you see today?"]) == 0
        printed[name] = capsys.readouterr().out
    assert "weights=[1.0, 1.0, 1.0]" in printed["parent"]
    assert printed["fork"] == printed["parent"].replace(str(parent), str(fork))
    assert "weights=[0.0, 0.0, 1.0]" in printed["fork after"]
