"""Shared fixtures: a game start time and tiny deterministic embedders."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np
import pytest

from town.embedding import HashingEmbedder

from cli_helpers import run_cli


class TableEmbedder:
    """Embeds each text as the vector given for it in a table (rows L2-normalised)."""

    name = "table"

    def __init__(self, table: dict[str, Sequence[float]]):
        self.dim = len(next(iter(table.values())))
        self.table = {
            text: np.asarray(v, np.float64) / np.linalg.norm(v) for text, v in table.items()
        }

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim) float32`` rows looked up in the table."""
        rows = [self.table[t] for t in texts]
        return np.array(rows, dtype=np.float32).reshape(len(texts), -1)


@pytest.fixture
def t0() -> datetime:
    """Game time of tick 0 in the default town: 2023-02-13 07:00."""
    return datetime(2023, 2, 13, 7, 0)


@pytest.fixture
def hashing_embedder() -> HashingEmbedder:
    """A 64-dim hashing embedder (deterministic, no model)."""
    return HashingEmbedder(dim=64)


@pytest.fixture
def table_embedder():
    """Factory: ``table_embedder({text: vector})`` -> an embedder returning those vectors."""
    return TableEmbedder



@pytest.fixture(scope="session")
def party_run(tmp_path_factory):
    """The party run, made by the CLI as a user runs it: the_ville, 36 game hours,
    default (MiniLM) embedder and scripted backend. Returns the run file's path."""
    out = tmp_path_factory.mktemp("party") / "party.sqlite"
    done = run_cli("simulate", "--town", "the_ville", "--hours", "36", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def smallville_run(tmp_path_factory):
    """The demo's town as a user runs it: Smallville, 36 game hours (past 10:00 of its second day,
    the battery's last time asked), made by the CLI with the default (MiniLM) embedder and
    scripted backend. Returns the run file's path."""
    out = tmp_path_factory.mktemp("smallville") / "smallville.sqlite"
    done = run_cli("simulate", "--town", "smallville", "--hours", "36", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out
