"""The embedded importance rater on sentences that are not among its anchors (Park et al. 2023
§4.1: brushing teeth rates low, a break-up or college acceptance high)."""

from __future__ import annotations

import pytest

from town.importance import ANCHORS, rate

MUNDANE = ("Klaus Mueller is washing the dishes at the sink.", "I put the kettle on for tea.",
           "I swept the floor of the cafe.")
LIFE_EVENTS = ("My grandmother passed away last night.", "I just got married to the love of my life.",
               "I was fired from my job today.")
PARTY = ("I am planning a Valentine's Day party at Hobbs Cafe on February 14, 2023, from 5pm to "
         "7pm, and I want to invite everyone.")


def test_test_sentences_are_not_anchors():
    anchors = {s for s, _ in ANCHORS}
    assert not anchors & set(MUNDANE + LIFE_EVENTS + (PARTY,))


@pytest.mark.parametrize("text", MUNDANE)
def test_mundane_rates_at_most_3(text):
    assert rate(text, "observation") <= 3


@pytest.mark.parametrize("text", LIFE_EVENTS)
def test_life_event_rates_at_least_7(text):
    assert rate(text, "whisper") >= 7


def test_the_party_invitation_rates_at_least_6():
    assert rate(PARTY, "observation") >= 6
    assert rate(f'Isabella Rodriguez told me: "{PARTY}"', "chat") >= 6


def test_rating_is_a_pure_function_of_text_and_kind():
    assert [rate(PARTY, "chat") for _ in range(3)] == [rate(PARTY, "chat")] * 3
    assert rate("I tied my shoelaces.", "reflection") >= 3  # an insight is never trivial


def test_the_scripted_backend_rates_with_the_embedded_rater():
    """What a persona's memories get: the same bar through the backend's RateImportance."""
    from town.thinking.questions import RateImportance
    from town.scripted import ScriptedBackend

    def ask(text, kind):
        q = RateImportance(persona="ann", persona_name="Ann Able", content=text, kind=kind)
        return ScriptedBackend().ask(q).importance

    assert ask(MUNDANE[0], "observation") <= 3
    assert ask(LIFE_EVENTS[0], "whisper") >= 7
    assert ask(PARTY, "observation") >= 6


def test_scripted_batch_rating_runs_the_model_once_and_rates_as_single_requests(monkeypatch):
    """RateImportances on the scripted backend embeds its texts in one model run.

    The reference: each text rated alone (one model run each) through a separate, fresh cache.
    """
    import town.importance as importance
    from town.embedding import CachedEmbedder, MiniLMEmbedder
    from town.thinking.questions import RateImportances
    from town.scripted import ScriptedBackend

    items = (("observation", "Klaus Mueller is washing the dishes at the sink."),
             ("chat", 'Maria Lopez told me: "I was fired from my job today."'),
             ("whisper", "My grandmother passed away last night."))
    alone = CachedEmbedder(MiniLMEmbedder())
    monkeypatch.setattr(importance, "shared_minilm", lambda: alone)
    reference = [rate(content, kind) for kind, content in items]

    runs = []
    model = MiniLMEmbedder()
    real = model.embed
    monkeypatch.setattr(model, "embed", lambda texts: runs.append(list(texts)) or real(texts))
    batched = CachedEmbedder(model)
    monkeypatch.setattr(importance, "shared_minilm", lambda: batched)
    answer = ScriptedBackend().ask(RateImportances(persona="maria_lopez", persona_name="Maria Lopez",
                                                   persona_summary="", items=items))
    assert list(answer.ratings) == reference
    # the heard memory is rated by what was said (its quoted statement), all in one run
    assert runs == [sorted(["Klaus Mueller is washing the dishes at the sink.",
                            "I was fired from my job today.", "My grandmother passed away last night."])]


def test_a_crowds_observations_are_rated_in_parts_the_answer_allows():
    """60 new observations at once (a persona in a crowd) are asked as two RateImportances of 40
    and 20 (an answer rates at most 40), and each gets the rating it gets alone."""
    from datetime import datetime
    from types import SimpleNamespace

    from town.config import load_config
    from town.mind.context import MindContext, Services
    from town.mind.context import rate as rate_new
    from town.scripted import ScriptedBackend

    asked = []
    scripted = ScriptedBackend()
    backend = SimpleNamespace(ask=lambda q: asked.append(len(q.items)) or scripted.ask(q))
    ctx = MindContext(Services(world=None, backend=backend, config=load_config(), names={}, seconds_per_tick=10),
                      0, datetime(2023, 2, 13, 12))
    me = SimpleNamespace(id="ann", name="Ann Able", summary=lambda: "")
    items = [("observation", f"Person {i} is {'reading' if i % 2 else 'arguing loudly'} at the pub.")
             for i in range(60)]
    assert rate_new(me, ctx, items) == [rate(content, kind) for kind, content in items]
    assert asked == [40, 20]
