"""Everyday interview questions of eight kinds, asked of every persona of the party run at two set
times, each answer checked against a fact the run's own records give (town.analysis.asked)."""

from __future__ import annotations

from town.analysis.asked import QUESTIONS, ask_kinds


def test_every_kind_is_answered_from_memory_nine_times_in_ten(party_run):
    """3 personas x 2 times x 24 questions (3 or more of each of 8 kinds): at least 90% state
    their fact and cite only the persona's own memory ids; no answer is cut mid-sentence."""
    assert len(QUESTIONS) == 8 and all(len(asked) >= 3 for asked in QUESTIONS.values())
    checks = ask_kinds(str(party_run))
    assert len(checks) == 3 * 2 * sum(len(asked) for asked in QUESTIONS.values())
    failed = [f"{c.persona} {c.at} [{c.kind}] {c.question} => {c.answer}" for c in checks if not c.passed]
    assert len(failed) <= 0.1 * len(checks), "\n".join(failed)
    assert all(not c.answer.endswith("…") and c.answer.rstrip()[-1] in ".!?" for c in checks)
    for kind in QUESTIONS:  # no kind fails more than a third of its questions
        mine = [c for c in checks if c.kind == kind]
        assert sum(c.passed for c in mine) >= 2 * len(mine) / 3, kind
