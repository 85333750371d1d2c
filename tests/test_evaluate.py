"""The evaluate report on the hand-built run: numbers, JSON and PNG files, the CLI table."""

from __future__ import annotations

import json

import pytest
from handbuilt_run import PARTY, build_run

from town.cli import main
from town.embedding import HashingEmbedder
from town.evaluate import evaluate, format_summary, interview_question, write_report
from town.recording import RunReader
from town.scenario import Gathering, Probe


class _Scenario:
    """The part of a Scenario that evaluate reads: the probes."""

    probes = (
        Probe(name="party", question="Did you hear about a party?", facts=("party",),
              gathering=Gathering(host="a", **PARTY)),
    )


@pytest.fixture
def run(tmp_path):
    """Path of the hand-built run."""
    return build_run(tmp_path / "hand.sqlite")


def test_report_holds_the_hand_worked_values(run):
    """Diffusion 1/4 -> 3/4, density 1/6 -> 2/6, invited b, d; b and c came; no model calls."""
    with RunReader(run) as reader:
        report = evaluate(reader, scenario=_Scenario())
    assert report["personas"] == 4 and report["hours"] == pytest.approx(3.0)
    party = report["diffusion"]["party"]
    assert (party["start"], party["end"]) == (0.25, 0.75)
    assert report["density"]["start"] == pytest.approx(1 / 6)
    assert report["density"]["end"] == pytest.approx(1 / 3)
    att = report["attendance"]["party"]
    assert (att["invited"], att["attended"], att["invited_attended"]) == (
        ["b", "d"],
        ["b", "c"],
        ["b"],
    )
    assert format_summary(report)[0] == ("diffusion: party", "25% (1/4)", "75% (3/4)")


def test_write_report_writes_json_and_pngs(run, tmp_path):
    """report.json round-trips the report; the plots are PNG files."""
    with RunReader(run) as reader:
        report = evaluate(reader, scenario=_Scenario())
    paths = write_report(report, tmp_path / "out")
    assert json.loads(paths["json"].read_text())["density"]["edges_end"] == 2
    for key in ("diffusion", "density"):
        assert paths[key].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_interview_option_lists_answers_beside_provenance(run):
    """With interview=True each persona answers the fixed question; a, b, d hold party memories."""
    with RunReader(run) as reader:
        report = evaluate(
            reader, scenario=_Scenario(), interview=True, embedder=HashingEmbedder(dim=8)
        )
    rows = {r["persona"]: r for r in report["interviews"]["party"]}
    assert rows["a"]["question"] == interview_question("party") == "Do you know about the party?"
    assert [p for p, r in sorted(rows.items()) if r["knows"]] == ["a", "b", "d"]
    assert rows["a"]["says_knows"] and rows["b"]["says_knows"] and rows["d"]["says_knows"]
    # c's forged-tag memory mentions a party too: the answer says yes where provenance says no.
    assert rows["c"]["says_knows"] and not rows["c"]["knows"]


def test_cli_evaluate_prints_the_table(run, tmp_path, capsys):
    """`town evaluate RUN --out DIR` prints density and writes the files (no scenario: no news)."""
    assert main(["evaluate", str(run), "--out", str(tmp_path / "ev")]) == 0
    out = capsys.readouterr().out
    assert "network density" in out and "0.167" in out and "0.333" in out
    assert (tmp_path / "ev" / "report.json").is_file()
