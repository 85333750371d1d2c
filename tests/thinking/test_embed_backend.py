"""Embeddings from the model server (--embed-backend openai), and no silent mix of embedders."""

from __future__ import annotations

import numpy as np
from cli_helpers import run_cli
from fake_server import EMBED_DIM, FakeOpenAIServer, fake_embedding, model_answer
from ville_runs import run_ville, ville_config

from town.recording import RunReader


def test_memories_are_embedded_by_the_server_and_another_embedder_is_refused(prompt_book, api_key, tmp_path):
    """A run with embedder "openai" stores the server's vectors (normalised, dim 32); forking it
    with the 64-dim hashing embedder stops with one clear line instead of mixing them."""
    server = FakeOpenAIServer(lambda messages: model_answer(prompt_book[messages[-1]["content"]]))
    try:
        config = ville_config(server, api_key, cache=False)
        config = type(config).from_dict({**config.to_dict(), "embedder": "openai",
                                         "backend": {**config.to_dict()["backend"], "embed_model": "fake-embed"}})
        run = tmp_path / "embedded.sqlite"
        run_ville(config, run, hours=1.2)
        assert server.counts["embeddings"] > 0
    finally:
        server.close()
    with RunReader(run) as reader:
        assert reader.meta["embedder"] == "openai:fake-embed"
        memory = reader.memories("klaus_mueller", limit=1)[0]
        stream = reader.stream_as_of("klaus_mueller", 10**9)
    row = stream.embeddings[list(stream.ids).index(memory["id"])]
    expected = np.array(fake_embedding(memory["content"]), np.float32)
    assert row.shape == (EMBED_DIM,)
    assert np.allclose(row, expected / np.linalg.norm(expected), atol=1e-6)
    done = run_cli("fork", str(run), "--at", "2023-02-13 08:00", "--out", str(tmp_path / "mixed.sqlite"),
                   "--set", "embedder=hashing", "--set", "backend.name=scripted")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "openai:fake-embed" in done.stderr and "hashing" in done.stderr
    assert "never mixes" in done.stderr
    assert not (tmp_path / "mixed.sqlite").exists()
