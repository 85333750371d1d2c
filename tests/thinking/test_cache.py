"""The answer cache: a warm re-run makes no requests and gives the same run."""

from __future__ import annotations

from ville_runs import run_ville, ville_config

from town.events import EventKind
from town.recording import RunReader
from town.thinking.cache import AnswerCache, CachedAnswer, cache_key

CONTENT = [
    EventKind.FRAME,
    EventKind.MEMORY,
    EventKind.RETRIEVAL,
    EventKind.PLAN,
    EventKind.ACTION,
    EventKind.CHAT,
    EventKind.CONVERSATION,
    EventKind.REFLECTION,
]


SEQ_KEYS = ("decision", "retrieval")  # event seqs: they shift with the number of MODEL_CALL events


def _content(path):
    """Every content event as (kind, tick, persona, data); vectors as lists, no seq refs."""
    with RunReader(path) as reader:
        return [
            (
                e.kind,
                e.tick,
                e.persona,
                {k: v for k, v in e.to_dict(vectors=True)["data"].items() if k not in SEQ_KEYS},
            )
            for e in reader.events(kinds=CONTENT)
        ]


def test_warm_rerun_makes_no_requests_and_gives_the_same_run(fake_server, api_key, tmp_path):
    """A warm re-run with the same seed makes 0 requests and gives the same run.

    The cold run has faults, so some cached answers are fallbacks; compared: frames, memories,
    retrieval traces, plans, actions and chats.
    """
    server = fake_server(fault_rate=0.2, faults=("500", "malformed", "invalid"), seed=5)
    config = ville_config(server, api_key, cache=True, max_retries=1, max_consecutive_failures=1000)
    cache = tmp_path / "answers.sqlite"
    run_ville(config, tmp_path / "cold.sqlite", hours=1, cache_path=cache)
    cold_requests = server.counts["chat"]
    with RunReader(tmp_path / "cold.sqlite") as reader:
        cold_calls = reader.events(kinds=[EventKind.MODEL_CALL])
    assert cold_requests == sum(c.data["request"] for c in cold_calls) > 0
    assert any(c.data["outcome"] == "fallback" for c in cold_calls)

    run_ville(config, tmp_path / "warm.sqlite", hours=1, cache_path=cache)
    assert server.counts["chat"] == cold_requests  # no request in the warm run
    with RunReader(tmp_path / "warm.sqlite") as reader:
        warm_calls = reader.events(kinds=[EventKind.MODEL_CALL])
    assert warm_calls and all(c.data["cache_hit"] and not c.data["request"] for c in warm_calls)
    cold_fallbacks = sum(c.data["outcome"] == "fallback" for c in cold_calls)
    assert sum(c.data["outcome"] == "fallback" for c in warm_calls) == cold_fallbacks
    cold, warm = _content(tmp_path / "cold.sqlite"), _content(tmp_path / "warm.sqlite")
    assert len(cold) > 100
    assert warm == cold


def test_model_answers_reach_the_memories(fake_server, api_key, tmp_path):
    """Every rated memory carries the model's importance (scripted rule + 1), not the rule's."""
    from fake_server import MODEL_SHIFT

    from town.thinking.questions import RateImportance
    from town.scripted import ScriptedBackend

    server = fake_server()
    config = ville_config(server, api_key, cache=False)
    run_ville(config, tmp_path / "run.sqlite", hours=1)  # observations are rated when read: some after 07:30
    with RunReader(tmp_path / "run.sqlite") as reader:
        memories = [e.data for e in reader.events(kinds=[EventKind.MEMORY]) if e.tick > 0]
        names = {k: v["name"] for k, v in reader.meta["personas"].items()}
    assert memories
    rule = ScriptedBackend()
    for m in memories:
        if m["kind"] == "observation" and not m["probe"]:
            q = RateImportance(
                persona=m["persona"],
                persona_name=names[m["persona"]],
                content=m["content"],
                kind=m["kind"],
            )
            assert m["importance"] == min(10, rule.ask(q).importance + MODEL_SHIFT)


def test_cache_round_trip_and_key(tmp_path):
    """The key hashes every part (a change in any part is another entry); entries persist."""
    parts = ("openai", "m", "rate_importance", "prompt", {"temperature": 0.7})
    key = cache_key(*parts)
    others = [
        cache_key("local", *parts[1:]),
        cache_key(parts[0], "m2", *parts[2:]),
        cache_key(*parts[:2], "plan_day", *parts[3:]),
        cache_key(*parts[:3], "prompt!", parts[4]),
        cache_key(*parts[:4], {"temperature": 0.0}),
    ]
    assert len({key, *others}) == 6
    assert cache_key(*parts[:4], {"b": 1, "a": 2}) == cache_key(*parts[:4], {"a": 2, "b": 1})
    cache = AnswerCache(tmp_path / "c.sqlite")
    cache.put(key, parts, CachedAnswer(answer={"importance": 4}, fallback=False))
    cache.put(others[0], parts, CachedAnswer(answer=None, fallback=True))
    cache.close()
    again = AnswerCache(tmp_path / "c.sqlite")
    assert again.get(key) == CachedAnswer(answer={"importance": 4}, fallback=False)
    assert again.get(others[0]) == CachedAnswer(answer=None, fallback=True)
    assert again.get(others[1]) is None
    assert len(again) == 2
