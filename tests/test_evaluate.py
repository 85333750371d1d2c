"""The evaluate report on the hand-built run: numbers, JSON and PNG files, the CLI table.

The run's news item is seeded under a probe name no town uses ("bake_sale"), with its own
paper figures: evaluate knows no scenario's names and takes the figures from the probe.
"""

from __future__ import annotations

import json

import pytest
from handbuilt_run import PARTY, build_run
from thinking.fake_server import FakeOpenAIServer

from town.analysis.evaluate import diffusion_rows, evaluate, format_summary, write_report
from town.analysis.recorded import NamedModel, run_backend
from town.cli import main
from town.recording import RunReader
from town.scenario import Gathering, NetworkProbe, Probe

PAPER = {"citation": "A. Author 2020 §1", "diffusion": {"start": 0.1, "end": 0.2},
         "attendance": {"invited": 3, "came": 1}}


class _Scenario:
    """The part of a Scenario that evaluate reads: the probes."""

    probes = (
        Probe(name="bake_sale", question="Did you hear about a party?", facts=("party", "cafe"),
              gathering=Gathering(host="a", **PARTY), paper=PAPER),
    )
    network = NetworkProbe(paper={"citation": "A. Author 2020 §2", "density": {"start": 0.5, "end": 0.6}})


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Path of the hand-built run, its news seeded as probe "bake_sale"."""
    return build_run(tmp_path_factory.mktemp("evaluate") / "hand.sqlite", probe="bake_sale")


@pytest.fixture(scope="module")
def report(run):
    """evaluate() of the hand-built run, sampled every game hour."""
    with RunReader(run) as reader:
        return evaluate(reader, scenario=_Scenario(), every_hours=1)


def test_diffusion_is_recall_when_asked_beside_the_upper_bound(report):
    """Recalled 1, 2, 3, 3 of 4; held 1, 3, 4, 4: c holds a memory that leads to the seed but
    cannot recall the news when asked, so it counts in the upper bound only."""
    d = report["diffusion"]["bake_sale"]
    assert [p["count"] for p in d["series"]] == [1, 2, 3, 3]
    assert [p["bound_count"] for p in d["series"]] == [1, 3, 4, 4]
    assert [p["recalled"] for p in d["series"]][1:] == [["a", "b"], ["a", "b", "d"], ["a", "b", "d"]]
    assert (d["start"], d["end"]) == (0.25, 0.75)
    assert (d["bound"]["start"], d["bound"]["end"]) == (0.25, 1.0)
    assert d["answers"]["c"] in ("Yes. Someone said there is a party.", "Yes. There may be a party.")
    assert d["paper"] == PAPER


def test_density_by_interview_ignores_sightings(report):
    """1 edge (a-b) of 6 pairs at every hourly moment: d's sighting of c makes no edge, and a
    never holds a memory of c or d, so c's knowing a (from tick 4) stays one-sided."""
    den = report["density"]
    assert [p["hour"] for p in den["series"]] == [0, 1, 2, 3]
    assert [p["count"] for p in den["series"]] == [1, 1, 1, 1]
    assert (den["edges_start"], den["edges_end"]) == (1, 1)
    assert den["start"] == den["end"] == pytest.approx(1 / 6)
    assert den["edges"] == [["a", "b"]]
    assert den["one_sided_end"] == [["c", "a"], ["c", "d"]]
    assert den["paper"]["density"] == {"start": 0.5, "end": 0.6}


def test_density_asks_only_pairs_a_memory_could_make_acquainted(report):
    """Of the 12 ordered pairs per moment, asked: at the start the 3 seeded relationships (a->b,
    b->a, c->d); from hour 1 (ticks up to 5) also c->a (c#3, a conversation at tick 4). d's
    sighting of c (d#2, tick 9) can never count, so d is never asked about c: 4 asked at hours
    1-3, 15 in all, 33 screened."""
    den = report["density"]
    assert [p["asked"] for p in den["series"]] == [3, 4, 4, 4]
    assert [p["screened"] for p in den["series"]] == [9, 8, 8, 8]
    assert (den["asked"], den["screened"]) == (15, 33)


def test_attendance_and_cost_in_the_report(report):
    """Invited b, c, d; b and c came; 3 requests over 3 game hours (markers are no requests)."""
    att = report["attendance"]["bake_sale"]
    assert (att["invited"], att["attended"], att["invited_attended"]) == (["b", "c", "d"], ["b", "c"], ["b", "c"])
    assert att["paper"] == {"invited": 3, "came": 1}
    assert report["cost"]["total"]["requests"] == 3
    assert report["answered_by"] == "scripted"


def test_summary_rows_and_files(report, tmp_path):
    """The printed rows quote the hand-worked values and the probe's paper figures; report.json
    round-trips; the plots are PNG files."""
    rows = format_summary(report)
    assert rows[0] == ("diffusion: bake_sale (recalled when asked)", "25% (1/4)", "75% (3/4)", "10% -> 20%")
    assert rows[1][1:3] == ("25% (1/4)", "100% (4/4)")
    assert rows[2][1:] == ("0.167 (1 edges)", "0.167 (1 edges)", "0.500 -> 0.600")
    assert rows[3][1:] == ("3 invited", "2 came (2 guests in all)", "3 invited, 1 came")
    header, cells = diffusion_rows(report)
    assert cells[1] == ["1", "2023-02-14 17:00", "50% (2) [75% (3)]"]
    paths = write_report(report, tmp_path / "out")
    assert json.loads(paths["json"].read_text())["density"]["edges_end"] == 1
    for key in ("diffusion", "density"):
        assert paths[key].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_evaluate_prints_the_table(run, tmp_path, capsys):
    """`town evaluate RUN --out DIR` prints density and writes the files (no scenario: no news)."""
    assert main(["evaluate", str(run), "--out", str(tmp_path / "ev")]) == 0
    out = capsys.readouterr().out
    assert "network density" in out and "0.167" in out
    assert (tmp_path / "ev" / "report.json").is_file()


def test_answers_come_through_the_named_backend(tmp_path, monkeypatch):
    """A run recorded with a model backend is interviewed through the model named for the
    evaluation (never the file's own by default, :mod:`tests.web.test_shared_run_file`): a fake model that
    says "Yes, the party is at the cafe." to everything makes all 4 recall the news at every
    moment, and every persona answer yes about every other; the density still needs a retrieved
    memory that is more than a sighting, so it stays at the hand-worked 1 edge. The model is asked
    4 probe questions at each of the 2 moments and "Do you know ...?" only where a memory could
    count: 3 pairs at the start, 4 at the end (c->a added; d's sighting of c is never asked)."""
    monkeypatch.setenv("TOWN_TEST_KEY", "test-key")
    server = FakeOpenAIServer(lambda messages: json.dumps({"answer": "Yes, the party is at the cafe."}))
    try:
        run = build_run(tmp_path / "model.sqlite", probe="bake_sale", backend={
            "name": "openai", "base_url": server.base_url, "model": "fake-model",
            "api_key_env": "TOWN_TEST_KEY", "cache": False, "max_retries": 0})
        with RunReader(run) as reader:
            parts = run_backend(reader, NamedModel(base_url=server.base_url, api_key_env="TOWN_TEST_KEY"))
            report = evaluate(reader, scenario=_Scenario(), backend=parts)
    finally:
        server.close()
    assert report["answered_by"] != "scripted"
    assert [p["count"] for p in report["diffusion"]["bake_sale"]["series"]] == [4, 4]
    assert report["density"]["edges"] == [["a", "b"]]
    assert report["cost"]["total"]["requests"] == 3  # the interviews are not part of the run
    assert server.counts["chat"] == 2 * 4 + 3 + 4
