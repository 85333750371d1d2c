"""Ask a model server the same questions many times: how often does each check reject each template's answer?

    python scripts/resample.py --base-url URL [--model smollm2] [--minutes 3] [--times 6]
        [--templates plan_day,decompose_task,rate_importances | all] [--per-template N]
        [--town the_ville] [--structured auto]

A model samples (temperature 0.7, a fresh seed per request), so one run of the real-model test
is one draw: a question that fails one attempt in two falls back after four attempts one time
in sixteen. This script captures the questions a scripted run of ``--town`` asks in its first
``--minutes`` game minutes (the same questions, with the same retrieved memories, a model run asks
first; at most ``--per-template`` of each template), then sends each one ``--times`` times to the
server as single attempts, in the dialect ``--structured`` (default ``auto``: the start-up check
settles it), and prints each attempt's outcome and, per template: the attempts, the share of the
answers each check rejected (the check an answer's rejection names: ``schema`` for the answer
model, a question's own checks such as ``not_copied``; ``unparsable``; ``no answer`` when the
request failed), and the fallback rate those failures make when each question has
``backend.max_retries`` + 1 = 4 independent attempts. Without a retry wrapper, every attempt counts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from town.analysis.stats import ANSWERED, rejected  # noqa: E402
from town.cli import main as town_main  # noqa: E402
from town.config import load_config  # noqa: E402
from town.thinking.model import Attempt  # noqa: E402
from town.thinking.openai_backend import OpenAIBackend  # noqa: E402
from town.thinking.questions import Question  # noqa: E402
from town.scripted import ScriptedBackend  # noqa: E402

#: Attempts per question the run gives a model (``backend.max_retries`` + 1).
ATTEMPTS = load_config().backend.max_retries + 1


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


def rejected_by(a: Attempt) -> str | None:
    """What failed an attempt: the check its rejection names (as ``town stats`` counts it), or "no
    answer" (the request failed); None: valid."""
    if a.outcome.value not in ANSWERED:
        return "no answer"
    return rejected({"outcome": a.outcome.value, "check": a.check})


def report(tally: Counter, failures: Counter) -> None:
    """Per template: attempts, each check's share of the answers, the fallback rate they make."""
    print(f"\n{'template':<24}{'attempts':>9}{'valid':>7}  rejected by (share of the template's answers); "
          f"fallback rate at {ATTEMPTS} attempts")
    for template in sorted(tally):
        n, answered = tally[template], tally[template] - failures[(template, "no answer")]
        valid = n - sum(k for (t, _), k in failures.items() if t == template)
        shares = ", ".join(f"{check} {k / max(1, answered):.0%}" for (t, check), k in failures.most_common()
                           if t == template and check != "no answer")
        lost = failures[(template, "no answer")]
        fallback = (1 - valid / n) ** ATTEMPTS
        print(f"{template:<24}{n:>9}{valid:>7}  {shares or '-'}{f'; {lost} without an answer' if lost else ''}; "
              f"{fallback:.1%}")


def main() -> None:
    """Capture, resample and print the tallies (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--town", default="the_ville")
    ap.add_argument("--minutes", type=float, default=3.0, help="game minutes of the scripted run")
    ap.add_argument("--times", type=int, default=6, help="attempts per question")
    ap.add_argument("--templates", default="plan_day,decompose_task,rate_importances",
                    help="comma-separated templates, or all")
    ap.add_argument("--per-template", type=int, default=0, help="questions of each template at most (0: all)")
    ap.add_argument("--structured", default="auto")
    ap.add_argument("--timeout", default="auto", help="seconds per request, or auto (from the measured speed)")
    ap.add_argument("--max-prompt-tokens", type=int, default=1200)
    args = ap.parse_args()
    wanted = set(args.templates.split(","))
    questions, seen = [], Counter()
    for q in capture(args.town, args.minutes):
        if (args.templates == "all" or q.template in wanted) and not (
                args.per_template and seen[q.template] >= args.per_template):
            questions.append(q)
            seen[q.template] += 1
    backend = OpenAIBackend(model=args.model, base_url=args.base_url, structured=args.structured,
                            timeout_s=args.timeout, max_prompt_tokens=args.max_prompt_tokens)
    settled = backend.check()
    print(f"{len(questions)} questions x {args.times} attempts; dialect {settled.dialect.value}, "
          f"timeout {backend.timeout_s:g} s", flush=True)
    tally: Counter = Counter()
    failures: Counter = Counter()
    reasons: Counter = Counter()
    for q in questions:
        for _ in range(args.times):
            a = backend.attempt(q)
            tally[q.template] += 1
            check = rejected_by(a)
            if check is not None:
                failures[(q.template, check)] += 1
                reasons[(q.template, check, a.error[:160])] += 1
            print(f"{q.template:<24}{q.persona:<22}{a.outcome.value:<8}{a.error[:100]}", flush=True)
    backend.close()
    report(tally, failures)
    for (template, check, why), n in reasons.most_common():
        print(f"  {n} x {template} {check}: {why}")


if __name__ == "__main__":
    main()
