"""The live page in headless chromium: clock, pause/step, persona panel, retrieval bars, XSS."""

from __future__ import annotations

from datetime import datetime

import pytest
import requests
import yaml

pytestmark = pytest.mark.browser


def clock(page) -> tuple[int, datetime]:
    """The page's clock: (tick, game time) from #clock's data attributes."""
    tick, time = page.eval_on_selector("#clock", "e => [e.dataset.tick, e.dataset.time]")
    return int(tick), datetime.fromisoformat(time)


def test_clock_runs_pauses_and_steps_ten_seconds(live_town, page, artifacts):
    """At x8 the clock advances; Pause stops it; Step moves it by exactly one tick = 10 s."""
    town = live_town(speed=8)
    page.goto(town.url)
    page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) >= 3")
    first, _ = clock(page)
    page.wait_for_function(f"() => Number(document.querySelector('#clock').dataset.tick) > {first}")
    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    last_frame = town.runner.status()["tick"] - 1  # the frame of tick t is published before t+1
    page.wait_for_function(
        f"() => Number(document.querySelector('#clock').dataset.tick) === {last_frame}")
    page.wait_for_timeout(1000)
    paused_tick, paused_time = clock(page)
    assert paused_tick == last_frame == town.runner.status()["tick"] - 1
    page.click("#btn-step")
    page.wait_for_function(
        f"() => Number(document.querySelector('#clock').dataset.tick) === {paused_tick + 1}")
    tick, time = clock(page)
    assert (time - paused_time).total_seconds() == 10
    page.wait_for_timeout(500)
    assert clock(page)[0] == paused_tick + 1
    page.screenshot(path=str(artifacts / "live.png"))
    assert page.errors == []


def test_persona_panel_and_retrieval_bars_match_the_api(live_town, page, artifacts):
    """Click a persona, open a retrieval: each bar's three weighted parts equal the API's."""
    town = live_town(speed=64)
    page.goto(town.url)
    page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) >= 30")
    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    page.click("#persona-item-klaus_mueller")
    page.wait_for_selector("#persona-name")
    assert page.text_content("#persona-name") == "Klaus Mueller"
    assert page.text_content("#persona-address").startswith("at ")
    page.click(".retrieval-link")
    page.wait_for_selector("#candidates-top .candidate")
    seq = page.get_attribute("#inspector", "data-seq")
    trace = requests.get(f"{town.url}/api/retrievals/{seq}", timeout=10).json()
    top = [c for c in trace["candidates"] if c["in_top_k"]]
    shown = page.eval_on_selector_all(
        "#candidates-top .candidate", """cards => cards.map(c => ({
            id: Number(c.dataset.id),
            recency: Number(c.querySelector('.seg-recency').dataset.recency),
            importance: Number(c.querySelector('.seg-importance').dataset.importance),
            relevance: Number(c.querySelector('.seg-relevance').dataset.relevance)}))""")
    assert [s["id"] for s in shown] == [c["id"] for c in top]
    for s, c in zip(shown, top, strict=True):
        assert (s["recency"], s["importance"], s["relevance"]) == (
            c["recency_score"], c["importance_score"], c["relevance_score"])
    runners_up = page.eval_on_selector_all("#candidates-runners-up .candidate", "cs => cs.length")
    assert runners_up == len(trace["candidates"]) - len(top)
    assert page.text_content("#inspector-query") == f"“{trace['query']}”"
    page.screenshot(path=str(artifacts / "inspector.png"))
    assert page.errors == []


def test_persona_text_is_shown_as_text_never_run(live_town, town_copy, page, artifacts):
    """Names, routines and memories with <img onerror> and <script> payloads appear literally."""
    folder = town_copy()
    path = folder / "klaus_mueller.yaml"
    klaus = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = "Klaus <img src=x onerror=window.__xss=1> <script>window.__xss=2</script>"
    klaus["name"] = name
    klaus["routine"][0]["activity"] = "sleeping <img src=x onerror=window.__xss=3>"
    klaus["memories"].append({"content": "<script>window.__xss=4</script> quiz <img src=x "
                                         "onerror=window.__xss=5>", "importance": 9})
    path.write_text(yaml.safe_dump(klaus, allow_unicode=True), encoding="utf-8")
    town = live_town(folder, speed=16)
    page.goto(town.url)
    page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) >= 5")
    page.click("#persona-item-klaus_mueller")
    page.wait_for_selector("#persona-memories")
    assert page.text_content("#persona-name") == name
    assert name in page.text_content("#persona-list")
    memories = page.text_content("#persona-memories")
    assert "<script>window.__xss=4</script> quiz <img src=x onerror=window.__xss=5>" in memories
    assert "sleeping <img src=x onerror=window.__xss=3>" in page.text_content("#persona-plan")
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__xss") is None
    assert page.eval_on_selector_all("img[src=x], #persona-panel script", "els => els.length") == 0
    page.screenshot(path=str(artifacts / "xss.png"))
    assert page.errors == []
