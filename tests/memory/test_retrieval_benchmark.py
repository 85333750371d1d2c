"""Smoke test of benchmarks/retrieval.py at small sizes (exactness only, no timing)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "retrieval.py"


def test_benchmark_runs_and_finds_all_methods_exact(capsys):
    """At N = 50 and 300 the three methods agree on the top k and the script exits 0."""
    spec = importlib.util.spec_from_file_location("retrieval_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--sizes", "50", "300", "--repeats", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all(line.split()[-1] == "True" for line in lines[1:])
