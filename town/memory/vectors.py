"""The FAISS index holding one persona's memory embeddings, and exact relevance over it.

Vectors live only here, in an ``IndexIDMap2(IndexFlatIP(d))`` (ids stay stable across
removals). :meth:`VectorIndex.relevance` runs FAISS's own inner-product kernel
(``faiss.fvec_inner_products_ny``) over the flat index's storage (``IndexFlat.get_xb()``) in
place: every similarity, unsorted, with no copy of the vectors. Measured on 2 cores (d=384):
0.26 ms at 1e4 records and 5.3 ms at 1e5, against 0.12 ms and 6-18 ms for a numpy
matrix-vector product (two BLAS threads), 0.29 / 5.8 ms for ``range_search`` with radius -2,
and 6-16 / 35-70 ms for ``index.search`` with k=N, which sorts everything (benchmarks/retrieval.py).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any, cast

import faiss
import numpy as np

from town.errors import MemoryStreamError

__all__ = ["VectorIndex"]


class VectorIndex:
    """Unit vectors of dimension ``dim`` keyed by record id, in FAISS.

    Args:
        dim: vector dimension d.
        index: an existing ``IndexIDMap2`` of that dim (from :meth:`from_base64`), else a new one.
    """

    def __init__(self, dim: int, index: faiss.IndexIDMap2 | None = None):
        self.dim = int(dim)
        self._index = index if index is not None else faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))
        self._flat = cast(faiss.IndexFlat, faiss.downcast_index(self._index.index))  # owned by self._index
        # the flat index's storage pointer (a SWIG float*, though the stubs say an array) and its
        # row count (a SWIG property read costs about a microsecond), until the next add or remove
        self._storage: Any = None
        self._rows = 0

    def __len__(self) -> int:
        return self._index.ntotal

    def check(self, vectors: np.ndarray, n: int, what: str) -> np.ndarray:
        """Return ``vectors`` as contiguous ``(n, dim) float32``.

        Raises:
            MemoryStreamError: naming both dims when the shape is not ``(n, dim)``.
        """
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != n or vectors.shape[1] != self.dim:
            got = vectors.shape[-1] if vectors.ndim else "?"
            raise MemoryStreamError(
                f"embedding: {what} gives vectors of shape {vectors.shape} (dim {got}) but this "
                f"stream holds dim {self.dim} vectors; use an embedder of dim {self.dim}"
            )
        return vectors

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        """Index ``(n, dim) float32`` unit rows under ``(n,) int64`` ids (appended in order)."""
        self._index.add_with_ids(vectors, np.ascontiguousarray(ids, dtype=np.int64))
        self._storage = None  # adding may move the storage

    def remove(self, ids: Sequence[int] | np.ndarray) -> None:
        """Drop the vectors of ``ids``; the other rows keep their order."""
        # faiss's stubs list only an IDSelector; its wrapper takes an int64 array (as a batch selector)
        self._index.remove_ids(np.array(ids, dtype=np.int64))  # type: ignore[arg-type]
        self._storage = None

    def vector(self, record_id: int) -> np.ndarray:
        """The ``(dim,) float32`` vector stored for ``record_id``."""
        return self._index.reconstruct(int(record_id))

    def ids(self) -> np.ndarray:
        """``(n,) int64`` ids in storage order (a copy of ``id_map``)."""
        return faiss.vector_to_array(self._index.id_map).astype(np.int64)

    def relevance(self, query: np.ndarray) -> np.ndarray:
        """Inner product (cosine, for unit vectors) of ``query`` with every stored vector.

        Args:
            query: ``(dim,) float32`` unit vector.

        Returns:
            ``(n,) float32`` in storage order (:meth:`ids`), computed by FAISS.

        Raises:
            MemoryStreamError: when the query is not of dimension ``dim``.
        """
        if not (type(query) is np.ndarray and query.dtype == np.float32
                and query.shape == (self.dim,) and query.flags.c_contiguous):  # else convert
            query = self.check(np.reshape(query, (1, -1)), 1, "the query")
        if self._storage is None:
            self._storage, self._rows = self._flat.get_xb(), self._flat.ntotal
        n = self._rows
        out = np.empty(n, np.float32)
        if n:
            faiss.fvec_inner_products_ny(  # type: ignore[attr-defined]  # in the SWIG module, not its stubs
                faiss.swig_ptr(out), faiss.swig_ptr(query), self._storage, self.dim, n
            )
        return out

    def to_base64(self) -> str:
        """The index serialised by ``faiss.serialize_index``, base64 (JSON-able)."""
        return base64.b64encode(faiss.serialize_index(self._index).tobytes()).decode("ascii")

    @classmethod
    def from_base64(cls, text: str, dim: int) -> VectorIndex:
        """Inverse of :meth:`to_base64`.

        Raises:
            MemoryStreamError: when the data is not an ``IndexIDMap2`` of dimension ``dim``.
        """
        try:
            blob = np.frombuffer(base64.b64decode(text), dtype=np.uint8)
            index = faiss.deserialize_index(blob)  # keep this owning object (no downcast copy)
        except (ValueError, RuntimeError) as exc:
            raise MemoryStreamError(f"index: cannot read the saved FAISS index ({exc})") from None
        if not isinstance(index, faiss.IndexIDMap2):
            raise MemoryStreamError(
                f"index: the saved index is a {type(index).__name__}, not an IndexIDMap2"
            )
        if index.d != int(dim):
            raise MemoryStreamError(
                f"index: the saved index holds dim {index.d} vectors, not dim {dim}"
            )
        return cls(dim, index)
