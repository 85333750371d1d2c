"""Ask a model server the same questions many times: how often does each template's answer fail?

    python scripts/resample.py --base-url URL [--model smollm2] [--minutes 3] [--times 6]
        [--templates plan_day,decompose_task,rate_importances] [--town the_ville]

A model samples (temperature 0.7, a fresh seed per request), so one run of the real-model test
is one draw: a question that fails one attempt in two falls back after three attempts one time
in eight. This script captures the questions a scripted run of ``--town`` asks in its first
``--minutes`` game minutes (the same questions, with the same retrieved memories, a model run asks
first), then sends each one ``--times`` times to the server as single attempts, in the dialect
``--structured`` (default ``json_object_schema``, llama-cpp-python's), and prints each attempt's
outcome and, per template, the attempts that failed and why (the validator's one-line reason).
Without a retry wrapper, every attempt counts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from town.cli import main as town_main  # noqa: E402
from town.thinking.openai_backend import OpenAIBackend  # noqa: E402
from town.thinking.questions import Question  # noqa: E402
from town.thinking.scripted import ScriptedBackend  # noqa: E402


def capture(town: str, minutes: float) -> list[Question]:
    """The questions a scripted run of ``town`` asks in its first ``minutes`` game minutes, in order."""
    asked: list[Question] = []
    ask = ScriptedBackend.ask

    def recording_ask(self, question):
        asked.append(question)
        return ask(self, question)

    ScriptedBackend.ask = recording_ask  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            code = town_main(["simulate", "--town", town, "--hours", str(minutes / 60), "--quiet",
                              "--embedder", "hashing", "--out", str(Path(tmp) / "capture.sqlite")])
    finally:
        ScriptedBackend.ask = ask  # type: ignore[method-assign]
    if code:
        raise SystemExit(f"the scripted run of {town} failed (exit {code})")
    unique: list[Question] = []
    for q in asked:  # a question asked twice is sampled once (questions may hold dicts: no hash)
        if q not in unique:
            unique.append(q)
    return unique


def main() -> None:
    """Capture, resample and print the tallies (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--town", default="the_ville")
    ap.add_argument("--minutes", type=float, default=3.0, help="game minutes of the scripted run")
    ap.add_argument("--times", type=int, default=6, help="attempts per question")
    ap.add_argument("--templates", default="plan_day,decompose_task,rate_importances")
    ap.add_argument("--structured", default="json_object_schema")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per request")
    ap.add_argument("--max-prompt-tokens", type=int, default=700)
    args = ap.parse_args()
    wanted = set(args.templates.split(","))
    questions = [q for q in capture(args.town, args.minutes) if q.template in wanted]
    print(f"{len(questions)} questions x {args.times} attempts", flush=True)
    backend = OpenAIBackend(model=args.model, base_url=args.base_url, structured=args.structured,
                            timeout_s=args.timeout, max_prompt_tokens=args.max_prompt_tokens)
    tally: Counter = Counter()
    reasons: Counter = Counter()
    for q in questions:
        for _ in range(args.times):
            a = backend.attempt(q)
            tally[(q.template, a.outcome.value)] += 1
            if a.error:
                reasons[(q.template, q.persona, a.error[:160])] += 1
            print(f"{q.template:<18}{q.persona:<22}{a.outcome.value:<8}{a.error[:100]}", flush=True)
    backend.close()
    print()
    for template in sorted({t for t, _ in tally}):
        total = sum(n for (t, _), n in tally.items() if t == template)
        print(f"{template}: {tally[(template, 'ok')]} of {total} attempts valid")
    for (template, persona, why), n in reasons.most_common():
        print(f"  {n} x {template} {persona}: {why}")


if __name__ == "__main__":
    main()
