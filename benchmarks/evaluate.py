"""Wall time of ``evaluate`` on a recorded run, and how the interviews share their work.

``evaluate`` interviews every persona at every sample moment (each probe's question) and about
every other persona its memory could show it knows (the density's pairs; the rest are screened
out unasked). It rebuilds one recorded stream per persona and moment and embeds every distinct
question once, in one batch. This prints the total wall time,
the number of interviews and of streams rebuilt, and the time of one interview done alone
(:func:`town.analysis.interview.interview`, which rebuilds the stream and embeds the question) times the
number of interviews, for comparison, in the same run.

Usage::

    .venv/bin/python run.py simulate --town smallville --hours 48 --out runs/smallville.sqlite
    .venv/bin/python benchmarks/evaluate.py runs/smallville.sqlite
"""

from __future__ import annotations

import argparse
import time

from town.analysis.evaluate import evaluate
from town.analysis.interview import interview
from town.analysis.recorded import load_embedder
from town.recording import RunReader


def main() -> None:
    """Time evaluate() on the run file given on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="run file")
    args = parser.parse_args()
    with RunReader(args.run) as reader:
        embedder = load_embedder(reader)
        embedder.embed(["warm up the model"])
        t0 = time.perf_counter()
        report = evaluate(reader, embedder=embedder)
        total = time.perf_counter() - t0
        t1 = time.perf_counter()
        interview(reader, reader.personas()[0], reader.frame(reader.last_tick)["time"],
                  "Do you know anyone here?", embedder=embedder)
        alone = time.perf_counter() - t1
    n, moments, probes = report["personas"], len(report["moments"]), len(report["diffusion"])
    den = report["density"]
    asked = moments * n * probes + den["asked"]
    print(f"{args.run}: {n} personas, {report['hours']:.1f} game hours, {moments} moments, {probes} probes")
    print(f"evaluate: {total:.1f} s wall for {asked} interviews ({moments * n} streams rebuilt; "
          f"{den['asked']} density pairs asked, {den['screened']} screened out)")
    print(f"one interview alone at the end: {alone * 1000:.0f} ms "
          f"(x {asked} = {alone * asked:.0f} s if each rebuilt its stream)")


if __name__ == "__main__":
    main()
