"""The live persona panel in headless chromium: a whisper shows up in the persona's memory
stream; the procedures tab lists a learned procedure with its reliability and status.
"""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.browser


def test_whisper_appears_in_the_memory_stream(live_town, page, artifacts):
    """Type a whisper in Klaus's panel: it is recorded and listed as a whisper memory."""
    town = live_town(speed=8)
    page.goto(town.url)
    page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) >= 3")
    page.click("#persona-item-klaus_mueller")
    page.wait_for_selector("#whisper-text")
    text = "You want to throw a Valentine's Day party at Hobbs Cafe on Feb 14, 5-7 pm."
    page.fill("#whisper-text", text)
    page.click("#whisper-send")
    page.wait_for_selector("#whisper-status:has-text('remembered as memory')")
    memory = int(page.text_content("#whisper-status").rsplit("#", 1)[1])
    page.wait_for_selector(f"#persona-memories .memory[data-id='{memory}'][data-kind='whisper']", timeout=10000)
    text = "I want to throw a Valentine's Day party at Hobbs Cafe on Feb 14, 5-7 pm."  # the inner voice
    assert page.text_content(f"#persona-memories .memory[data-id='{memory}'] .content") == text
    api = requests.get(f"{town.url}/api/personas/klaus_mueller/memories?kind=whisper", timeout=10).json()
    assert [(m["id"], m["content"]) for m in api["memories"]] == [(memory, text)]
    page.screenshot(path=str(artifacts / "whisper.png"))
    assert page.errors == []


def test_live_procedures_tab_lists_a_learned_procedure(live_town, page, artifacts):
    """Once Klaus has learned a procedure, his tab shows its Laplace reliability and its status."""
    town = live_town(speed=None)
    page.goto(town.url)
    page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) >= 400", timeout=60000)
    page.click("#btn-pause")
    page.wait_for_selector("#status[data-state='paused']")
    libs = requests.get(f"{town.url}/api/procedures", timeout=10).json()["libraries"]["klaus_mueller"]
    assert libs
    page.click("#persona-item-klaus_mueller")
    page.wait_for_selector("#tab-procedures")
    page.click("#tab-procedures")
    page.wait_for_selector("#persona-procedures .procedure")
    first = libs[0]
    card = page.locator(f"#persona-procedures .procedure[data-name='{first['name']}']")
    # Laplace reliability (s + 1) / (s + f + 2) and the default retrieval threshold 0.6
    wins, losses = first["successes"], first["failures"]
    reliability = (wins + 1) / (wins + losses + 2)
    assert wins >= 1 and card.locator(".rel-value").text_content() == f"{reliability:.2f}"
    status = "pruned" if first.get("pruned") else "active" if reliability >= 0.6 else "below threshold"
    assert card.locator(".proc-status").text_content() == status
    page.screenshot(path=str(artifacts / "live_procedures.png"))
    assert page.errors == []
