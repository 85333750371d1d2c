"""Memories every persona is about to write are embedded in one run, with each text's own vector."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from town.config import load_config
from town.embedding import CachedEmbedder, HashingEmbedder
from town.scenario import load_scenario
from town.simulation import Simulation

SMALLVILLE = Path(__file__).resolve().parents[2] / "personas" / "smallville"


class RecordingEmbedder(HashingEmbedder):
    """A hashing embedder that keeps the list of texts of each call it gets."""

    def __init__(self):
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts):
        """Record the call, then embed as the hashing embedder does."""
        self.calls.append(list(texts))
        return super().embed(texts)


def test_seeded_memories_of_all_personas_are_embedded_in_one_run():
    """Seeding Smallville runs the embedder once, over every persona's seeded texts.

    Each stored vector is what its text gets from a fresh embedder on its own.
    """
    inner = RecordingEmbedder()
    sim = Simulation(load_scenario(SMALLVILLE), load_config(None, {"embedder": "hashing"}),
                     embedder=CachedEmbedder(inner, maxsize=10))
    assert sim.embedder.maxsize == 128 * 25  # sized to the town's 25 personas (TEXTS_PER_PERSONA)
    records = [(p.stream, r) for p in sim.personas.values() for r in p.stream.records()]
    # the persona files of Smallville seed 20 memories, in the streams of several personas
    assert len(records) == 20 and len({r.persona for _, r in records}) > 5
    assert len(inner.calls) == 1
    assert set(inner.calls[0]) == {r.content for _, r in records}
    fresh = HashingEmbedder()
    for stream, r in records:
        np.testing.assert_array_equal(stream.vector(r.id), fresh.embed([r.content])[0])
