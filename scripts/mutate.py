"""Cut each link from memory text to behaviour on purpose and check that a test fails.

Each mutation replaces one exact piece of source (it must occur once), runs the tests that
should catch it, and restores the file whatever happens. The script prints one line per
mutation (caught by which test, or MISSED) and exits 1 if any mutation was missed. The list
and what caught each is in docs/testing.md.

Usage::

    .venv/bin/python scripts/mutate.py            # every mutation
    .venv/bin/python scripts/mutate.py planner    # only those whose name contains "planner"
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutation:
    """One cut link: in ``file`` replace ``old`` (occurring once) by ``new``; ``tests`` should fail."""

    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTATIONS = (
    Mutation("the planner ignores memories", "town/thinking/scripted.py",
             "found = events_on(q.memories, day,", "found = events_on((), day,",
             ("tests/mind/test_plan.py",)),
    Mutation("sharing from the whole stream", "town/mind/converse.py",
             "_tellable(speaker, listener.id, listener.name, records)",
             "_tellable(speaker, listener.id, listener.name, speaker.stream.records())",
             ("tests/mind/test_converse.py",)),
    Mutation("constant importance", "town/importance.py",
             "score = int(np.clip(np.rint(float(w @ ratings / w.sum())), 1, 10))",
             "score = 5",
             ("tests/mind/test_importance.py",)),
    Mutation("a talk decision that ignores memories", "town/mind/converse.py",
             "memories=views(_tellable(p, other_id, other_name, records))", "memories=()",
             ("tests/mind/test_converse.py",)),
    Mutation("the listener stores the line without who said it", "town/mind/converse.py",
             "content=told(speaker.name, line),",
             "content=line,",
             ("tests/mind/test_converse.py",)),
    Mutation("ignores its own plan", "town/thinking/attend.py",
             'clash = clash_with(routine, f"{event.start:%H:%M}", end, event.place)', "clash = None",
             ("tests/mind/test_attend.py",)),
    Mutation("insight drawn from one memory", "town/thinking/scripted_insight.py",
             "MIN_SUPPORT = 2", "MIN_SUPPORT = 1",
             ("tests/mind/test_insights.py",)),
    Mutation("insight listing words", "town/thinking/scripted_insight.py",
             'f"I see {who.split()[0]} at {where} most {_part_of_day([_created(m) for m in ms])}."',
             '", ".join([who, where, _part_of_day([_created(m) for m in ms])])',
             ("tests/mind/test_insights.py",)),
)


def run(m: Mutation) -> tuple[bool, list[str]]:
    """Apply ``m``, run its tests, restore; returns (caught, failing test ids)."""
    path = REPO / m.file
    original = path.read_text()
    if original.count(m.old) != 1:
        raise SystemExit(f"{m.file}: the text to mutate for {m.name!r} occurs "
                         f"{original.count(m.old)} times, not once; update scripts/mutate.py")
    try:
        path.write_text(original.replace(m.old, m.new))
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-o", "addopts=", *m.tests], cwd=REPO, capture_output=True, text=True)
    finally:
        path.write_text(original)
    failed = re.findall(r"^FAILED (.+?)(?: - .*)?$", done.stdout, re.M)
    return done.returncode != 0, failed


def main(argv: list[str]) -> int:
    """Run the selected mutations; print what caught each; 1 if any was missed."""
    chosen = [m for m in MUTATIONS if not argv or any(a in m.name for a in argv)]
    missed = 0
    for m in chosen:
        caught, failed = run(m)
        missed += not caught
        print(f"{'caught' if caught else 'MISSED'}: {m.name}: " + (", ".join(failed) or "-"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
