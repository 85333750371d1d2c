"""A battery of everyday questions of ten kinds (40 in all), asked of six Smallville personas at
two set times, each answer checked against a fact derived from the run's own records
(town.analysis.asked): the answer must state its fact and cite memory ids that are the
persona's own and include the record the fact came from."""

from __future__ import annotations

from collections import Counter

from town.analysis.asked import PERSONAS, QUESTIONS, ask_kinds

KINDS = {"greeting", "day", "news", "past", "trust", "feeling", "opinion", "intention", "hypothetical", "preference"}


def test_every_kind_is_answered_from_memory_nine_times_in_ten(smallville_run):
    """6 personas x 2 times x 40 questions (4 of each of 10 kinds): at least 90% pass, and at
    least 4 in 5 of every kind; no answer is cut mid-sentence."""
    assert set(QUESTIONS) == KINDS and all(len(asked) >= 3 for asked in QUESTIONS.values())
    assert sum(len(asked) for asked in QUESTIONS.values()) >= 40
    checks = ask_kinds(str(smallville_run))
    assert len(checks) == len(PERSONAS) * 2 * sum(len(asked) for asked in QUESTIONS.values())
    failed = [f"{c.persona} {c.at} [{c.kind}] {c.question} => {c.answer} {c.evidence}" for c in checks if not c.passed]
    assert len(failed) <= 0.1 * len(checks), "\n".join(failed)
    for kind in QUESTIONS:
        mine = [c for c in checks if c.kind == kind]
        assert sum(c.passed for c in mine) >= 0.8 * len(mine), (kind, [f for f in failed if f"[{kind}]" in f])
    assert all(not c.answer.endswith("…") and c.answer.rstrip()[-1] in ".!?" for c in checks)
    # a decision was asked about: the run records at least one, and "Yes"/"No" answers come from it
    assert any(c.kind == "intention" and c.answer.startswith(("Yes, ", "No, ")) for c in checks)
    # hypotheticals differ by persona: at each time, no two personas give the same answer to one question
    for at in {c.at for c in checks}:
        for question in QUESTIONS["hypothetical"]:
            said = Counter(c.answer for c in checks if c.at == at and c.question == question)
            assert max(said.values()) == 1, said


def test_every_decision_a_day_plan_made_is_kept_in_its_plan_memory(smallville_run):
    """Each PLAN event's decisions about events (what the planner decided, logged beside the plan)
    are in the persona's plan memory written at that tick, with their go and reason: the
    intention answers read them from memory, so none may be lost on the way. The run holds some
    (day two's plans decide on the party heard of on day one)."""
    import json
    import sqlite3

    db = sqlite3.connect(smallville_run)
    plans = [(p, t, json.loads(d)) for p, t, d in db.execute(
        "select persona, tick, data from events where kind = 'plan' order by seq")]
    memories = [(p, t, json.loads(d)) for p, t, d in db.execute(
        "select persona, tick, data from events where kind = 'memory' order by seq")]
    db.close()
    decided = [(p, t, e) for p, t, d in plans if d.get("level") == "day" for e in d.get("events") or ()]
    assert len(decided) >= 3
    for persona, tick, e in decided:
        kept = [(x["place"], x["start"][:16], x["go"], x["reason"]) for q, s, m in memories
                if q == persona and s == tick and m["kind"] == "plan" for x in m.get("decisions") or ()]
        assert (e["place"], str(e["start"])[:16].replace("T", " "), e["go"], e["reason"]) in kept, (persona, tick, e)
