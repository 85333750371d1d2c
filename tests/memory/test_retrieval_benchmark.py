"""benchmarks/retrieval.py at small sizes: its reference scan and the project's stream agree with
values worked out here, by hand and by a plain Python loop (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import math
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "retrieval.py"


@pytest.fixture(scope="module")
def bench():
    """The benchmark script as a module."""
    spec = importlib.util.spec_from_file_location("retrieval_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reference_scores_match_a_hand_worked_example(bench):
    """Three records created 2 h, 1 h and 0 h before now, importance 1, 10, 4, relevance .5, -.5, 0.

    recency 0.995^2, 0.995, 1 -> min-max 0, 0.004975 / 0.009975, 1; importance -> 0, 1, 3/9;
    relevance -> 1, 0, 0.5. Totals 1, 1.4987..., 1.8333...; ranked 2, 1, 0.
    """
    minutes = np.array([0, 60, 120])
    score = bench.numpy_scores(np.array([0.5, -0.5, 0.0]), minutes, np.array([1, 10, 4]), 120)
    np.testing.assert_allclose(score, [1.0, 1 + 0.004975 / 0.009975, 1 + 1 / 3 + 0.5], rtol=1e-12)
    assert bench.top_k(score, minutes) == [2, 1, 0]


def _python_top_k(vectors, importance, minutes, query, now_minutes, k=10):
    """Park et al. 2023 §4.1 by a loop over records: min-max parts, equal weights, ties to newer."""
    recency = [0.995 ** ((now_minutes - int(m)) / 60) for m in minutes]
    imp = [float(i) for i in importance]
    rel = [math.fsum(float(a) * float(b) for a, b in zip(row, query)) for row in vectors]

    def norm(xs):
        low, high = min(xs), max(xs)
        return [(x - low) / (high - low) if high > low else 0.5 for x in xs]

    totals = [a + b + c for a, b, c in zip(norm(recency), norm(imp), norm(rel))]
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], -int(minutes[i]), -i))
    return order[:k], totals


def test_stream_and_reference_scan_equal_a_python_loop_at_n_300(bench):
    """On the benchmark's own data (N = 300) both return the loop's top 10 (or differ only among
    records whose totals tie within 1e-6)."""
    from town.memory import MemoryStream

    n = 300
    vectors, importance, minutes, query = bench.make_data(n, np.random.default_rng(7))
    now_minutes = 10 * 24 * 60
    want, totals = _python_top_k(vectors, importance, minutes, query, now_minutes)
    stream = MemoryStream("bench", bench.FixedEmbedder())
    stream.add_many([{"kind": "observation", "content": f"memory {i}", "importance": int(imp),
                      "created": bench.T0 + timedelta(minutes=int(m))}
                     for i, (imp, m) in enumerate(zip(importance, minutes))], embeddings=vectors)
    records, _ = stream.retrieve("q", now=bench.T0 + timedelta(minutes=now_minutes), k=10,
                                 weights=(1.0, 1.0, 1.0), purpose="bench", query_embedding=query)
    reference = bench.top_k(bench.numpy_scores(vectors @ query, minutes, importance, now_minutes), minutes)
    kth = totals[want[-1]]
    for got in ([r.id for r in records], reference):
        assert len(got) == 10
        assert all(abs(totals[i] - kth) <= 1e-6 for i in set(got) ^ set(want)), (got, want)


def test_benchmark_script_runs_and_exits_0(bench, capsys):
    """The script itself runs at N = 50 and prints the load line, a header and one row."""
    assert bench.main(["--sizes", "50", "--repeats", "2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3
