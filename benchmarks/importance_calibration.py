"""Importance ratings against memories rated by hand: a model's, the embedded rater's, a blend.

Run: ``.venv/bin/python benchmarks/importance_calibration.py`` (the embedded rater only), or
with ``--base-url URL --model NAME`` (an OpenAI-compatible server; ``--prompts DIR`` to try
other rating prompts, e.g. a folder holding an older ``_scale.j2``).

The set is ``town/thinking/data/rated_memories.yaml`` (65 memories rated by hand, 1-10, by Park
et al. 2023's definition of poignancy). The model rates them as a run does
(:class:`~town.thinking.questions.RateImportances`, ``--batch`` memories a request, in an
order unrelated to their ratings, :func:`~town.thinking.calibration.shuffled`; a request that fails is asked again up to 3 times, then its memories are left
out and counted; ``--check-set`` rates only the ten of the check set). It prints, for each source of ratings:

- MAE: mean absolute error against the hand ratings (points of the 1-10 scale);
- rank: Spearman's rank correlation with them (:func:`town.thinking.calibration.rank_correlation`);
- at 1 / at 10: the share rated 1 and 10 (the hand ratings: 9% and 5%);
- the ratings' counts 1..10.

With a model it also runs the start-up check (:func:`town.thinking.calibration.calibrate`) and shows
what a run would keep: the model's ratings, the embedded rater's, or their blend. Figures only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from town.thinking.calibration import blend, calibrate, fit, rated_memories, shuffled  # noqa: E402
from town.thinking.questions import RateImportances  # noqa: E402
from town.scripted import ScriptedBackend  # noqa: E402
from town.thinking.server_check import CHECK_MARK  # noqa: E402

_PERSONA = dict(persona="bench", persona_name="Alex Moore",
                persona_summary="Alex Moore is a resident of the town: works at the library, has friends and "
                                "family nearby, and cares about the people around her.")


def rate_all(ask, items, batch: int, say: bool = False) -> list[int | None]:
    """Ratings of ``items`` (Rated) by ``ask(question) -> ratings or None``, ``batch`` at a time
    (``say``: each batch's ratings on stderr as they come)."""
    out: list[int | None] = []
    for start in range(0, len(items), batch):
        part = items[start:start + batch]
        got = ask(RateImportances(items=tuple((m.kind, m.content) for m in part), **_PERSONA))
        out += got if got is not None else [None] * len(part)
        if say:
            print(f"# rated {len(out)} of {len(items)}: {got}", file=sys.stderr, flush=True)
    return out


def row(name: str, ratings: list[int | None], hand: list[int]) -> str:
    """One line of the table: the fit over the memories rated, and the counts 1..10."""
    pairs = [(r, h) for r, h in zip(ratings, hand) if r is not None]
    if not pairs:
        return f"{name:<34} no ratings"
    got = fit([r for r, _ in pairs], [h for _, h in pairs])
    values = np.asarray([r for r, _ in pairs])
    counts = " ".join(f"{int((values == k).sum()):>2}" for k in range(1, 11))
    return (f"{name:<34}{got.n:>4}{got.mae:>6.2f}{got.rank:>7.2f}{(values == 1).mean():>7.0%}"
            f"{(values == 10).mean():>7.0%}   {counts}")


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", help="an OpenAI-compatible server (without: the embedded rater only)")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--structured", default="auto")
    ap.add_argument("--timeout", default="auto")
    ap.add_argument("--prompts", type=Path, help="a folder of prompt templates overriding the packaged ones")
    ap.add_argument("--batch", type=int, default=5, help="memories per request (a tick's observations: 1-8)")
    ap.add_argument("--check-set", action="store_true", help="only the ten memories of the check set")
    args = ap.parse_args(argv)
    items = shuffled([m for m in rated_memories() if m.check_set or not args.check_set])  # not low to high
    hand = [m.rating for m in items]
    scripted = ScriptedBackend()
    embedded = rate_all(lambda q: list(scripted.ask(q).ratings), items, args.batch)
    print(f"{'ratings':<34}{'n':>4}{'MAE':>6}{'rank':>7}{'at 1':>7}{'at 10':>7}   counts 1..10")
    print(row("by hand", list(hand), hand))
    print(row("embedded rater (town/importance.py)", embedded, hand))
    if not args.base_url:
        return 0
    from town.thinking.openai_backend import OpenAIBackend
    from town.thinking.prompting import PromptSet

    backend = OpenAIBackend(base_url=args.base_url, model=args.model, structured=args.structured,
                            timeout_s=args.timeout, prompts=PromptSet(args.prompts))
    try:
        settled = backend.check()
        print(f"# {args.model} at {args.base_url}: dialect {settled.dialect.value}, timeout {backend.timeout_s:g} s",
              file=sys.stderr, flush=True)

        def ask(q):
            for _ in range(4):
                a = backend.attempt(q)
                if a.answer is not None:
                    return list(a.answer.ratings)
            return None

        model = rate_all(ask, items, args.batch, say=True)
        decision = calibrate(backend, CHECK_MARK)
    finally:
        backend.close()
    print(row(f"model {args.model}", model, hand))
    half = [None if m is None else blend(0.5, m, e) for m, e in zip(model, embedded)]
    print(row("blend, half each", half, hand))
    kept = [None if m is None else blend(decision.weight, m, e) for m, e in zip(model, embedded)]
    print(row(f"what a run keeps (weight {decision.weight:g})", kept, hand))
    print(f"missing (no valid answer after 4 attempts): {sum(m is None for m in model)}")
    print(decision.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
