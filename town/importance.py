"""The embedded importance rater: poignancy 1-10 of a memory from its text alone.

Park et al. 2023 §4.1 asks a language model to rate how poignant a memory is, from "brushing
teeth, making bed" (1) to "a break up, college acceptance" (10). Without a model, this module
rates a sentence by its likeness to anchor sentences written for this project, each with a
rating: the embedding similarities to all anchors are turned into softmax weights (temperature
``TEMPERATURE``) and the rating is the weighted mean of the anchors' ratings, rounded.

The rater is a pure function of the text and the memory's kind, deterministic and offline: it
always embeds with the default MiniLM model (never the run's embedder), and embeddings are cached
by text (:func:`town.embedding.shared_minilm`), so a memory the stream also embeds costs one
embedding.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from .embedding import shared_minilm
from .hearsay import NAME, unwrap

__all__ = ["ANCHORS", "TEMPERATURE", "rate"]

#: (sentence, rating) anchors across 1-10; everyday routine low, life events high.
ANCHORS: tuple[tuple[str, int], ...] = (
    ("I am brushing my teeth.", 1),
    ("Klaus is sleeping in his bed.", 1),
    ("The bed is being slept in.", 1),
    ("I am walking down the street.", 1),
    ("I made my bed and tidied the room.", 2),
    ("Maria is taking a shower.", 2),
    ("The sink is being used to wash dishes.", 2),
    ("I am reading articles at the library table.", 2),
    ("Isabella is brewing coffee at the counter.", 2),
    ("Sam is going for a jog around the park.", 2),
    ("Mei is eating breakfast at the dining table of the kitchen.", 1),
    ("I had a sandwich for lunch.", 3),
    ("The espresso machine needs cleaning this week.", 3),
    ("I bought milk at the market.", 3),
    ("The shop opens at 8am and closes at 8pm.", 3),
    ("I chatted with a neighbour about the weather.", 3),
    ("Tom is my co-worker at the shop.", 3),
    ("Jane is a friend who likes to paint in the park.", 3),
    ("About Sam: a neighbour who walks his dog every morning.", 3),
    ("I finished a chapter of my research paper.", 4),
    ("A friend told me about a book she is reading.", 4),
    ("The pharmacy will be closed for renovation tomorrow.", 5),
    ("I had a long talk with a friend about her worries.", 5),
    ("My professor praised my essay in class.", 5),
    ("I am organising a picnic in the park on Saturday and everyone is invited.", 6),
    ("A friend invited me to her birthday dinner on Friday at 7pm.", 6),
    ("There is a town meeting at the library tomorrow at 6pm.", 6),
    ("I am throwing a party at my place next week and want to invite everyone.", 7),
    ("I realised that I really like spending time with him.", 7),
    ("I am going to ask my crush out on a date.", 8),
    ("I got a job offer from the company I dreamed of.", 8),
    ("My paper was accepted for publication.", 8),
    ("I was accepted into my first-choice university.", 9),
    ("We got engaged last night.", 9),
    ("My partner broke up with me.", 9),
    ("My father died this morning.", 10),
    ("Our house burned down.", 10),
)

#: Softmax temperature over cosine similarities (lower = nearer anchors weigh more).
TEMPERATURE = 0.05


@cache
def _anchors() -> tuple[np.ndarray, np.ndarray]:
    vectors = shared_minilm().embed([s for s, _ in ANCHORS]).astype(np.float64)
    return vectors, np.array([r for _, r in ANCHORS], np.float64)


def _rated_text(content: str) -> str:
    """The text a rating embeds: what a memory states, without "X told me that", "Did you hear?"
    or "X asked me:" around it."""
    text = unwrap(content)[1]  # what was said matters, not who passed it on
    text = re.sub(r"^Did you hear\? ", "", text)
    return re.sub("^" + NAME + " asked me: ", "", text)


def prepare(contents: list[str]) -> None:
    """Embed the texts of memories about to be rated in one batch (filling the embedding cache).

    A batch of sentences runs the model once; rating them one by one afterwards reads the cache,
    so a tick's observations across all personas cost one model run (same ratings either way).
    """
    texts = sorted({_rated_text(c) for c in contents})
    if texts:
        shared_minilm().embed(texts)


def rate(content: str, kind: str) -> int:
    """Importance 1-10 of a memory with text ``content`` of kind ``kind``.

    A heard memory ('Klaus Mueller told me: "..."') rates as the statement quoted in it; a
    reflection rates at least 3 (an insight is never trivial).
    """
    vectors, ratings = _anchors()
    v = shared_minilm().embed([_rated_text(content)])[0].astype(np.float64)
    sims = vectors @ v
    w = np.exp((sims - sims.max()) / TEMPERATURE)
    score = int(np.clip(np.rint(float(w @ ratings / w.sum())), 1, 10))
    return max(score, 3) if kind == "reflection" else score
