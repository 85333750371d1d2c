"""scripts/mutate.py stays in step with the code it cuts: a moved or reworded line must fail here,
not only when someone next runs the (slow) mutation script."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("mutate", REPO / "scripts" / "mutate.py")
mutate = importlib.util.module_from_spec(_spec)
sys.modules["mutate"] = mutate  # dataclasses look their module up by name
_spec.loader.exec_module(mutate)


@pytest.mark.parametrize("m", mutate.MUTATIONS, ids=lambda m: m.name)
def test_each_mutation_finds_its_text_once_and_its_tests_exist(m):
    source = (REPO / m.file).read_text()
    assert source.count(m.old) == 1, f"{m.file}: {m.old!r} occurs {source.count(m.old)} times"
    assert m.new not in source or m.new in m.old
    for test in m.tests:
        path, *names = test.split("::")
        assert (REPO / path).is_file(), test
        if names:  # the test function (or class) is defined there: a renamed test would never run
            name = names[-1].split("[")[0]
            assert re.search(rf"^\s*(?:def|class) {re.escape(name)}\b", (REPO / path).read_text(), re.M), test
