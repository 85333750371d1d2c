"""``town.memory.trace.PURPOSES`` (what `inspect --purpose` takes) is every purpose the mind
records: a purpose added to a ``recall`` call and not to the list would be refused by `inspect`."""

from __future__ import annotations

import re
from pathlib import Path

from town.memory.trace import PURPOSES

TOWN = Path(__file__).resolve().parents[2] / "town"


def test_purposes_are_those_the_mind_recalls_with():
    used = {m for f in TOWN.rglob("*.py") for m in re.findall(r'\bpurpose="(\w+)"', f.read_text(encoding="utf-8"))}
    assert used == set(PURPOSES)
