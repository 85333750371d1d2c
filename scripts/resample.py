"""Ask a model server the same questions many times: how often does each check reject each template's answer?

    python scripts/resample.py --base-url URL [--model smollm2] [--minutes 3] [--times 6]
        [--templates plan_day,decompose_task,rate_importances | all] [--per-template N]
        [--town the_ville] [--structured auto] [--fill-minutes 1500] [--log FILE]
    python scripts/resample.py --log FILE --read 40 [--seed 44]

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

Conversations are captured both ways: line by line (the scripted backend's way) and, in a second
capture, written whole (``write_conversation``, a model backend's default). A template asked fewer
than ``--per-template`` times in ``--minutes`` is topped up from a capture of ``--fill-minutes``
(the_ville's first hour asks ``plan_day`` 3 times, one per persona; the second day's planning
makes the fourth). ``--read N`` asks nothing: it prints N accepted answers of a ``--log`` file,
drawn at random (``--seed``), to be read by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from town.analysis.interview import Interviewer  # noqa: E402
from town.analysis.stats import ANSWERED, rejected  # noqa: E402
from town.cli import main as town_main  # noqa: E402
from town.config import load_config  # noqa: E402
from town.mind import converse  # noqa: E402
from town.simulation import phases  # noqa: E402
from town.recording import RunReader  # noqa: E402
from town.thinking.model import Attempt  # noqa: E402
from town.thinking.openai_backend import OpenAIBackend  # noqa: E402
from town.thinking.questions import Question  # noqa: E402
from town.thinking.questions.checks import free_texts  # noqa: E402
from town.scripted import ScriptedBackend  # noqa: E402

#: Attempts per question the run gives a model (``backend.max_retries`` + 1).
ATTEMPTS = load_config().backend.max_retries + 1


#: What the interviews of a capture ask each persona at its end (the paper's kinds: self-knowledge,
#: work, another persona, plans; Park et al. 2023 §6.1).
INTERVIEW = ("Give an introduction of yourself.", "What is your job?", "Who is Klaus Mueller?",
             "What are you doing today?")


def capture(town: str, minutes: float, whole: bool = False) -> list[Question]:
    """The questions a scripted run of ``town`` asks in its first ``minutes`` game minutes, in order,
    then those an interview of each persona at its end asks (:data:`INTERVIEW`): a run asks none.
    ``whole``: its conversations are written in one request (``write_conversation``), as a model
    backend's are by default; the scripted backend otherwise talks line by line."""
    asked: list[Question] = []
    ask = ScriptedBackend.ask

    def recording_ask(self, question):
        asked.append(question)
        return ask(self, question)

    def talks_whole(config, a, b):
        return a.procedures is not None and b.procedures is not None

    ScriptedBackend.ask = recording_ask  # type: ignore[method-assign]
    patched = [(m, m.talks_whole) for m in (converse, phases)] if whole else []
    for module, _ in patched:
        module.talks_whole = talks_whole  # type: ignore[attr-defined]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "capture.sqlite"
            code = town_main(["simulate", "--town", town, "--hours", str(minutes / 60), "--quiet",
                              "--embedder", "hashing", "--out", str(out)])
            if not code:
                with RunReader(out) as reader:
                    asker = Interviewer(reader)
                    at, tick, seq = asker.moment("9999-12-31 23:59")
                    for persona in reader.personas():
                        for question in INTERVIEW:
                            asker.ask(persona, question, at=at, tick=tick, seq=seq)
    finally:
        ScriptedBackend.ask = ask  # type: ignore[method-assign]
        for module, original in patched:
            module.talks_whole = original  # type: ignore[attr-defined]
    if code:
        raise SystemExit(f"the scripted run of {town} failed (exit {code})")
    unique: list[Question] = []
    for q in asked:  # a question asked twice is sampled once (questions may hold dicts: no hash)
        if q not in unique:
            unique.append(q)
    return unique


def gather(town: str, minutes: float, wanted: set[str] | None, per_template: int,
           fill_minutes: float) -> tuple[list[Question], Counter]:
    """The questions to sample: those of :func:`capture` over ``minutes`` (per-line, then the
    ``write_conversation`` questions of a whole-mode capture) of the ``wanted`` templates (None:
    all), at most ``per_template`` of each (0: all); a template asked fewer than ``per_template``
    times is filled from a capture over ``fill_minutes`` (its later questions, in order). Returns
    the questions and, per template, how many came from the fill."""
    def both(m: float) -> list[Question]:
        return capture(town, m) + [q for q in capture(town, m, whole=True) if q.template == "write_conversation"]

    seen: Counter = Counter()
    filled: Counter = Counter()
    questions: list[Question] = []
    for q in both(minutes):
        if (wanted is None or q.template in wanted) and not (per_template and seen[q.template] >= per_template):
            questions.append(q)
            seen[q.template] += 1
    if per_template and fill_minutes > minutes and any(n < per_template for n in seen.values()):
        for q in both(fill_minutes):
            if q.template in seen and seen[q.template] < per_template and q not in questions:
                questions.append(q)
                seen[q.template] += 1
                filled[q.template] += 1
    return questions, filled


def rejected_by(a: Attempt) -> str | None:
    """What failed an attempt: the check its rejection names (as ``town stats`` counts it), or "no
    answer" (the request failed); None: valid."""
    if a.outcome.value not in ANSWERED:
        return "no answer"
    return rejected({"outcome": a.outcome.value, "check": a.check})


#: A rejection's field and the start of its text, as the checks write it ("steps[0].description: 'wash ...'").
_REJECTED = re.compile(r"^([\w.\[\]]+): (['\"])(.+?)\2")


def from_the_prompt(error: str, prompt: str) -> bool:
    """Whether a rejection is the prompt's own: the rejected text (as the check quotes it, up to 60
    characters) stands in one of the prompt's listed items (a "- " or "N. " line other than a
    memory), which the answer was to use; e.g. a known procedure's step shown with its address."""
    found = _REJECTED.match(error)
    if not found or len(found.group(3)) < 8:
        return False
    listed = [line for line in prompt.splitlines()
              if re.match(r"^(- |\d+\. )", line) and not re.match(r"^- \d+( \(|:)", line)]
    return any(found.group(3) in line for line in listed)


def report(tally: Counter, failures: Counter) -> None:
    """Per template: attempts, each check's share of the answers, the fallback rate they make."""
    print(f"\n{'template':<24}{'attempts':>9}{'valid':>7}  rejected by (share of the template's answers); "
          f"fallback rate at {ATTEMPTS} attempts")
    for template in sorted(tally):
        n, answered = tally[template], tally[template] - failures[(template, "no answer")]
        valid = n - sum(k for (t, c), k in failures.items() if t == template and c != "from the prompt")
        shares = ", ".join(f"{check} {k / max(1, answered):.0%}" for (t, check), k in failures.most_common()
                           if t == template and check not in ("no answer", "from the prompt"))
        shares += f" ({failures[(template, 'from the prompt')]} from the prompt)" if failures[
            (template, "from the prompt")] else ""
        lost = failures[(template, "no answer")]
        fallback = (1 - valid / n) ** ATTEMPTS
        print(f"{template:<24}{n:>9}{valid:>7}  {shares or '-'}{f'; {lost} without an answer' if lost else ''}; "
              f"{fallback:.1%}")


def read_sample(log: str, n: int, seed: int) -> None:
    """Print ``n`` accepted answers of a ``--log`` file to read by hand, drawn with
    ``random.Random(seed).sample`` from those with free text (ratings aside), in the drawn order:
    each with its template, persona and every free text with its field."""
    with open(log, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    texts = [(r, [(where, text) for where, _, text in free_texts(r["answer"]) if text.strip()])
             for r in rows if r["check"] is None and r["answer"] is not None]
    texts = [(r, t) for r, t in texts if t]
    print(f"{len(texts)} accepted answers with text in {log}; {min(n, len(texts))} drawn (seed {seed})")
    for i, (r, t) in enumerate(random.Random(seed).sample(texts, min(n, len(texts))), 1):
        print(f"\n{i}. {r['template']} ({r['persona']})")
        for where, text in t:
            print(f"   {where}: {text}")


def main() -> None:
    """Capture, resample and print the tallies (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-url")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--town", default="the_ville")
    ap.add_argument("--minutes", type=float, default=3.0, help="game minutes of the scripted run")
    ap.add_argument("--times", type=int, default=6, help="attempts per question")
    ap.add_argument("--templates", default="plan_day,decompose_task,rate_importances",
                    help="comma-separated templates, or all")
    ap.add_argument("--per-template", type=int, default=0, help="questions of each template at most (0: all)")
    ap.add_argument("--fill-minutes", type=float, default=0.0,
                    help="game minutes of a longer scripted run that tops up a template asked fewer than "
                         "--per-template times in --minutes (0: none)")
    ap.add_argument("--structured", default="auto")
    ap.add_argument("--timeout", default="auto", help="seconds per request, or auto (from the measured speed)")
    ap.add_argument("--max-prompt-tokens", type=int, default=1200)
    ap.add_argument("--log", help="a JSON line per attempt: template, persona, outcome, check, error, "
                                  "answer, from_prompt (a rejection of the prompt's own listed text)")
    ap.add_argument("--read", type=int, default=0,
                    help="ask nothing: print this many accepted answers of --log, drawn at random, to read by hand")
    ap.add_argument("--seed", type=int, default=44, help="the draw's seed (--read)")
    args = ap.parse_args()
    if args.read:
        if not args.log:
            raise SystemExit("--read needs --log FILE, the log of an earlier run")
        return read_sample(args.log, args.read, args.seed)
    if not args.base_url:
        raise SystemExit("--base-url is needed to ask a server")
    wanted = None if args.templates == "all" else set(args.templates.split(","))
    questions, filled = gather(args.town, args.minutes, wanted, args.per_template, args.fill_minutes)
    if filled:
        print("filled from the first " + f"{args.fill_minutes:g} game minutes: "
              + ", ".join(f"{t} {n}" for t, n in sorted(filled.items())), flush=True)
    # round robin over the templates (each one's first question, then each one's second, ...), so
    # a run stopped early has sampled every template alike
    first: dict[str, int] = {}
    turn: Counter = Counter()
    order = []
    for i, q in enumerate(questions):
        order.append((turn[q.template], first.setdefault(q.template, i), q))
        turn[q.template] += 1
    questions = [q for *_, q in sorted(order, key=lambda t: (t[0], t[1]))]
    backend = OpenAIBackend(model=args.model, base_url=args.base_url, structured=args.structured,
                            timeout_s=args.timeout, max_prompt_tokens=args.max_prompt_tokens,
                            measure_speed=args.timeout == "auto")  # a fixed timeout needs no speed
    settled = backend.check()
    print(f"{len(questions)} questions x {args.times} attempts; dialect {settled.dialect.value}, "
          f"timeout {backend.timeout_s:g} s", flush=True)
    tally: Counter = Counter()
    failures: Counter = Counter()
    reasons: Counter = Counter()
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    for q in questions:
        prompt = backend.fitted(q)[1]
        for _ in range(args.times):
            a = backend.attempt(q)
            tally[q.template] += 1
            check = rejected_by(a)
            own = check is not None and from_the_prompt(a.error, prompt)
            if check is not None:
                failures[(q.template, check)] += 1
                reasons[(q.template, check, a.error[:160])] += 1
                failures[(q.template, "from the prompt")] += own
            print(f"{q.template:<24}{q.persona:<22}{a.outcome.value:<8}{a.error[:100]}", flush=True)
            if log:
                log.write(json.dumps({"template": q.template, "persona": q.persona, "outcome": a.outcome.value,
                                      "check": check, "error": a.error, "from_prompt": own,
                                      "answer": a.answer.model_dump(mode="json") if a.answer else None}) + "\n")
                log.flush()
    if log:
        log.close()
    backend.close()
    report(tally, failures)
    for (template, check, why), n in reasons.most_common():
        print(f"  {n} x {template} {check}: {why}")


if __name__ == "__main__":
    main()
