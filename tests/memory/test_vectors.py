"""Tests of town.memory.vectors: FAISS relevance over the index's own storage."""

from __future__ import annotations

import numpy as np
import pytest

from town.errors import MemoryStreamError
from town.memory.vectors import VectorIndex


def test_relevance_equals_numpy_and_range_search_after_removals():
    """Every cosine, in storage order, equals numpy's and FAISS range_search's (radius -2)."""
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((50, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(16)
    index.add(vectors, np.arange(100, 150))
    index.remove([103, 120, 149])
    kept = [i for i in range(50) if i + 100 not in (103, 120, 149)]
    assert index.ids().tolist() == [i + 100 for i in kept]
    query = vectors[5]
    got = index.relevance(query)
    np.testing.assert_allclose(got, vectors[kept] @ query, atol=1e-6)
    lims, dist, labels = index._index.range_search(query[None, :], -2.0)
    by_faiss = dict(zip(labels.tolist(), dist.tolist()))
    np.testing.assert_allclose(got, [by_faiss[i] for i in index.ids().tolist()], atol=1e-6)


def test_round_trip_and_dim_checks():
    """base64 state keeps ids and vectors; a wrong dim is refused naming both dims."""
    index = VectorIndex(4)
    index.add(np.eye(4, dtype=np.float32)[:3], np.array([0, 5, 9]))
    again = VectorIndex.from_base64(index.to_base64(), 4)
    assert again.ids().tolist() == [0, 5, 9]
    np.testing.assert_array_equal(again.vector(5), [0, 1, 0, 0])
    with pytest.raises(MemoryStreamError, match="dim 4 vectors, not dim 8"):
        VectorIndex.from_base64(index.to_base64(), 8)
    with pytest.raises(MemoryStreamError, match=r"dim 3\).*dim 4"):
        index.relevance(np.ones(3, np.float32))
    assert VectorIndex(4).relevance(np.ones(4, np.float32)).shape == (0,)
