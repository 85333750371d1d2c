"""Importance calibration: a model's ratings measured against memories rated by hand at start,
and blended with (or replaced by) the embedded rater's when they are bimodal or off.

The arithmetic is worked by hand; then a run on the fake server whose model rates every memory
1 or 10 (1 where the embedded rater says 1-4, 10 where it says 5-10: ordered, but bimodal) gets
its ratings blended, and ``stats`` says so.
"""

from __future__ import annotations

import json

import pytest

from town.analysis.stats import compute_stats, print_stats
from town.cli import main
from town.events import EventKind
from town.recording import RunReader
from town.thinking.answers import ImportancesAnswer
from town.thinking.backend import ThinkingBackend
from town.thinking.calibration import (BLEND, Calibration, Fit, blend, decide, fit, rank_correlation,
                                       rated_memories, shuffled)
from town.thinking.questions import RateImportance, RateImportances
from town.scripted import ScriptedBackend
from town.thinking.wrappers import CalibratedBackend


def test_the_hand_rated_set_spans_the_scale_with_a_check_set_across_it():
    """At least 60 memories, every rating 1-10 used, five kinds; a check set of ten from 1 to 10."""
    rated = rated_memories()
    assert len(rated) >= 60 and {m.rating for m in rated} == set(range(1, 11))
    assert {m.kind for m in rated} == {"observation", "chat", "plan", "reflection", "whisper"}
    assert sorted(m.rating for m in rated if m.check_set) == [1, 2, 2, 3, 5, 6, 7, 8, 9, 10]


def test_a_model_that_counts_up_the_list_is_not_calibrated():
    """Listed in the file's order the check set's hand ratings rise (1, 2, 3, 2, 5, ..., 10), and a
    model writing 1, 2, ..., 10 down the list (SmolLM2-135M did) is off by 0.2: kept. Shuffled by
    their text's hash, the order is 6, 8, 1, 9, 2, 3, 7, 2, 5, 10: counting up is then off by
    (5+6+2+5+3+3+0+6+4+0) / 10 = 3.4 with rank correlation 0.11, and replaced."""
    check_set = [m for m in rated_memories() if m.check_set]
    counted = list(range(1, 11))
    assert decide(fit(counted, [m.rating for m in check_set])).weight == 1.0
    order = [m.rating for m in shuffled(check_set)]
    assert order == [6, 8, 1, 9, 2, 3, 7, 2, 5, 10]
    assert decide(fit(counted, order)).weight == 0.0


def test_rank_correlation_and_fit_by_hand():
    """[1, 2, 3] against [1, 2, 3]: 1; reversed: -1; [1, 1, 10, 10] against [1, 2, 3, 4]: ranks
    [1.5, 1.5, 3.5, 3.5] and [1, 2, 3, 4], r = 4 / sqrt(4 * 5) = 0.894; a constant list: 0.
    Its fit: |0| + |1| + |7| + |6| over 4 = 3.5 off, all four at 1 or 10."""
    assert rank_correlation([1, 2, 3], [1, 2, 3]) == pytest.approx(1.0)
    assert rank_correlation([3, 2, 1], [1, 2, 3]) == pytest.approx(-1.0)
    assert rank_correlation([1, 1, 10, 10], [1, 2, 3, 4]) == pytest.approx(4 / 20 ** 0.5)
    assert rank_correlation([5, 5, 5], [1, 2, 3]) == 0.0
    assert fit([1, 1, 10, 10], [1, 2, 3, 4]) == Fit(mae=3.5, rank=pytest.approx(4 / 20 ** 0.5), extremes=1.0, n=4)


def test_the_decision_keeps_blends_or_replaces_by_the_fit():
    """Off by 1.2, rank 0.8, 20% at the ends: kept. The same 60% at 1 or 10 (bimodal): blended,
    and so off by 2.5 with rank 0.8. Rank 0.1: replaced. No answer: kept, nothing measured."""
    assert decide(Fit(mae=1.2, rank=0.8, extremes=0.2, n=10)).weight == 1.0
    bimodal = decide(Fit(mae=1.2, rank=0.8, extremes=0.6, n=10))
    assert bimodal.weight == BLEND == 0.5 and "they are bimodal" in bimodal.reason
    assert decide(Fit(mae=2.5, rank=0.8, extremes=0.2, n=10)).weight == 0.5
    assert decide(Fit(mae=1.0, rank=0.1, extremes=0.2, n=10)).weight == 0.0
    assert decide(None).weight == 1.0


def test_a_blend_is_the_weighted_mean_halves_rounded_up_by_hand():
    """Half of 10 and 3 is 6.5: 7; half of 1 and 4 is 2.5: 3; a quarter of 10 and three quarters
    of 2 is 4; weight 1 is the model's, 0 the embedded rater's."""
    assert (blend(0.5, 10, 3), blend(0.5, 1, 4), blend(0.25, 10, 2)) == (7, 3, 4)
    assert (blend(1.0, 9, 2), blend(0.0, 9, 2)) == (9, 2)


class _Bimodal(ThinkingBackend):
    """A model rating every memory 10 (and counting what it was asked)."""

    name = "bimodal"

    def __init__(self):
        self.asked = 0

    def ask(self, question):
        self.asked += 1
        if isinstance(question, RateImportances):
            return ImportancesAnswer(ratings=[10] * len(question.items))
        raise AssertionError("only importance is asked here")


def test_the_calibrated_backend_blends_or_replaces_each_rating():
    """Two memories the embedded rater rates e1, e2, a model saying 10: blended by half, the
    ratings are ceil-half (10 + e) / 2; replaced, they are e1, e2 and the model is not asked."""
    items = (("observation", "I am brushing my teeth at the bathroom sink."),
             ("observation", "My mother died this morning."))
    q = RateImportances(persona="p", persona_name="P", persona_summary="", items=items)
    e1, e2 = ScriptedBackend().ask(q).ratings
    model = _Bimodal()
    half = CalibratedBackend(model, Calibration(weight=0.5, reason="r"), ScriptedBackend()).ask(q).ratings
    assert half == [int((10 + e1) / 2 + 0.5), int((10 + e2) / 2 + 0.5)] and model.asked == 1
    assert CalibratedBackend(model, Calibration(weight=0.0, reason="r"), ScriptedBackend()).ask(q).ratings == [e1, e2]
    assert model.asked == 1
    single = RateImportance(persona="p", persona_name="P", content=items[0][1], kind="observation")
    assert CalibratedBackend(model, Calibration(weight=0.0, reason="r"), ScriptedBackend()).ask(single).importance == e1


@pytest.fixture
def bimodal_server(fake_server, prompt_book):
    """A fake server whose model rates 1 (the embedded rater: 1-4) or 10 (5-10), else answers as
    the usual fake model."""
    from fake_server import model_answer

    server = fake_server()
    scripted = ScriptedBackend()

    def responder(messages):
        question = prompt_book[messages[-1]["content"]]
        if isinstance(question, RateImportances):
            return json.dumps({"ratings": [1 if r <= 4 else 10 for r in scripted.ask(question).ratings]})
        return model_answer(question)

    server.responder = server.rating_responder = responder
    return server


def test_a_model_rating_only_1s_and_10s_is_blended_and_stats_says_so(bimodal_server, api_key, tmp_path,
                                                                      monkeypatch, capsys, prompt_book):
    """The check set's ten memories (in the file's order, hand ratings 1, 2, 3, 2, 5, 6, 7, 8, 9, 10;
    the embedded rater's 1, 3, 4, 3, 2, 7, 6, 8, 9, 10) get 1, 1, 1, 1, 1, 10, 10, 10, 10, 10: all at the ends (the
    hand ratings: 20%), off by (0+1+2+1+4+4+3+2+1+0) / 10 = 1.8, ordered: bimodal, so the run blends
    (weight 0.5), records why in its meta, and ``stats`` prints the line. A memory's rating is
    then never 10 unless the embedded rater says so too. Resumed when the model rates well, the
    run keeps its decision (a resumed run rates as the uninterrupted one)."""
    monkeypatch.setenv("TOWN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "bimodal.sqlite"
    code = main(["simulate", "--town", "the_ville", "--hours", "0.05", "--backend", "openai", "--base-url",
                 bimodal_server.base_url, "--model", bimodal_server.model, "--api-key-env", api_key,
                 "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    with RunReader(out) as reader:
        kept = reader.meta["importance_calibration"]
        ratings = [e.data["importance"] for e in reader.events(kinds=[EventKind.MEMORY])]
    assert kept["weight"] == 0.5 and "bimodal" in kept["reason"] and kept["fit"]["extremes"] >= 0.8
    assert "importance: model ratings blended with the embedded rater's (50% model) because they are" in err
    assert compute_stats(out)["importance"]["calibration"] == kept
    print_stats(out)
    printed = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert ("importance: model ratings blended with the embedded rater's (50% model) because they are "
            "bimodal (on 10 memories rated by hand they were off by 1.8 on average") in printed
    assert ratings and 10 not in ratings  # a 10 needs the embedded rater's 10: no such memory in this hour
    # the model now rates as the usual fake (one above the embedded rater: a check would keep
    # it); a resumed run keeps the run's decision all the same
    from fake_server import model_answer

    bimodal_server.responder = bimodal_server.rating_responder = lambda messages: model_answer(
        prompt_book[messages[-1]["content"]])
    assert main(["resume", str(out), "--hours", "0.01", "--quiet", "--backend", "openai", "--base-url",
                 bimodal_server.base_url, "--api-key-env", api_key]) == 0
    with RunReader(out) as reader:
        assert reader.meta["importance_calibration"] == kept
