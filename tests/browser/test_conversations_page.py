"""Conversations in the live page (headless chromium): a transcript shows the run's chat events
line for line, each line's retrieval one click away; a persona's panel and a speech bubble open
it; a page opened mid-run shows the last game hour of the feed, talk apart from retrievals."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PageTimeout

from town.events import EventKind
from town.recording.reader import RunReader

pytestmark = pytest.mark.browser


def _step(town, ticks: int) -> None:
    """Step the paused town ``ticks`` ticks and wait until they are done."""
    target = town.runner.status()["tick"] + ticks
    town.runner.step(ticks)
    while town.runner.status()["tick"] < target:
        time.sleep(0.05)


def _ended_talk(town, lines: int = 3) -> tuple[int, list]:
    """Step the paused town until a conversation of at least ``lines`` lines has ended; its id and
    CHAT events, read from the run file."""
    for _ in range(20):
        _step(town, 100)
        with RunReader(town.simulation.run_path) as reader:
            ended = {e.data["conversation"] for e in reader.events(["conversation"])}
            chats = reader.events(["chat"])
        for cid in sorted(ended):
            said = [e for e in chats if e.data["conversation"] == cid]
            if len(said) >= lines:
                return cid, said
    raise AssertionError("no conversation ended in 2,000 ticks")


def test_a_transcript_is_the_runs_chat_events_and_its_lines_open_their_retrievals(live_town, page):
    town = live_town(speed=None, paused=True)
    cid, said = _ended_talk(town)
    names = {p.id: p.name for p in town.simulation.personas.values()}
    page.goto(town.url)
    page.click("#tab-conversations")
    page.click(f"#conversations-past .conversation-link[data-conversation='{cid}']")
    page.wait_for_selector("#transcript .transcript-line")
    shown = page.eval_on_selector_all("#transcript .transcript-line", """ls => ls.map(l => [Number(l.dataset.seq),
        l.querySelector('.content').textContent, Number(l.querySelector('.recall-link').dataset.seq)])""")
    assert shown == [[e.seq, f"{names[e.data['speaker']]}: {e.data['line']}", e.data["retrieval"]] for e in said]
    page.click("#transcript .transcript-line >> nth=1 >> .recall-link")
    page.wait_for_selector("#inspector:not([hidden]) #inspector-query")
    assert page.get_attribute("#inspector", "data-seq") == str(said[1].data["retrieval"])
    page.click("#inspector-close")

    # the persona panel lists the speaker's conversations; the link opens the same transcript
    page.click("#conversation-close")
    speaker = said[0].data["speaker"]
    page.click(f"#persona-item-{speaker}")
    page.click(f"#persona-conversations .conversation-link[data-conversation='{cid}']")
    page.wait_for_function(f"() => document.querySelector('#conversation-panel').dataset.conversation === '{cid}' "
                           f"&& !document.querySelector('#conversation-panel').hidden")
    # the transcript arrives after the panel opens: wait for its lines, then count them
    page.wait_for_function("() => document.querySelectorAll('#transcript .transcript-line').length > 0")
    assert page.locator("#transcript .transcript-line").count() == len(said)

    assert page.errors == []


def test_a_page_opened_mid_run_shows_the_last_hour_talk_apart_from_retrievals(live_town, page):
    """At 08:56:40 (tick 700) the feed holds the chat lines of the last hour (and none before);
    retrievals are listed but hidden until their box is ticked."""
    town = live_town(speed=None, paused=True)
    _step(town, 700)  # the_ville talks at ticks 189-203 and 434-446 (hashing embedder)
    with RunReader(town.simulation.run_path) as reader:
        talk = [e.seq for e in reader.events(["chat"], since_tick=700 - 360)]
        early = [e.seq for e in reader.events(["chat"], until_tick=700 - 361)]
    assert talk and early
    page.goto(town.url)
    page.wait_for_selector(f"#activity li[data-seq='{talk[-1]}']", state="attached")
    shown = page.eval_on_selector_all("#activity li.act-chat", "ls => ls.map(l => Number(l.dataset.seq))")
    assert sorted(shown) == talk and not set(early) & set(shown)
    recalls = page.locator("#activity li.grp-recall")
    assert recalls.count() > 0 and not recalls.first.is_visible()
    page.check("#feed-recall")
    assert recalls.first.is_visible()
    page.uncheck("#feed-talk")
    assert not page.locator("#activity li.act-chat").first.is_visible()
    assert page.errors == []


def test_a_speech_bubble_of_a_real_conversation_opens_it(live_town, page):
    """The town (the_ville, hashing embedder) is stepped tick by tick, paused, with the page open,
    until someone speaks in a conversation; the speech bubble the page draws for that line, from
    the frames the town sent (nothing made up, so nothing a resync could drop), is clicked, and
    the conversation panel opens on that conversation, its transcript the lines said so far (the
    run file's CHAT events of it). A bubble shows for 3.5 wall seconds after its frame: each
    attempt waits for the page to hold the tick's frame and draw the bubble, and when the click
    missed (a bubble gone on a loaded machine) the next tick's frame brings it back."""
    town = live_town(speed=None, paused=True)
    sim = town.simulation
    frames: list[int] = []
    sim.bus.subscribe(lambda e: frames.append(e.tick) if e.kind is EventKind.FRAME else None)
    _step(town, 150)  # the first talk is at ticks 189-203
    page.goto(town.url)
    page.wait_for_function(f"() => window.townMap && window.townFrames.tick >= {frames[-1]}")
    opened = None
    for _ in range(300):
        _step(town, 1)
        page.wait_for_function(f"() => window.townFrames.tick >= {frames[-1]}")
        talking = sorted(p.id for p in sim.personas.values() if p.speech and p.conversation is not None)
        if not talking:
            continue
        speaker, cid = talking[0], sim.personas[talking[0]].conversation
        found = f"() => window.townMap.drawnLabels.find(b => b.kind === 'speech' && b.id === '{speaker}')"
        try:
            bubble = page.wait_for_function(found, timeout=3000).json_value()
            box = page.eval_on_selector("#map", "c => { const r = c.getBoundingClientRect(); return [r.left, r.top]; }")
            page.mouse.click(box[0] + bubble["x"] + bubble["w"] / 2, box[1] + bubble["y"] + bubble["h"] / 2)
            page.wait_for_function(f"() => document.querySelector('#conversation-panel').dataset.conversation === '{cid}' "
                                   "&& !document.querySelector('#conversation-panel').hidden", timeout=5000)
        except PageTimeout:
            continue
        opened = cid
        break
    assert opened is not None, "no speech bubble of a conversation was clicked open"
    with RunReader(sim.run_path) as reader:
        said = [e for e in reader.events(["chat"]) if e.data["conversation"] == opened]
    names = {p.id: p.name for p in sim.personas.values()}
    page.wait_for_function(f"() => document.querySelectorAll('#transcript .transcript-line').length >= {len(said)}")
    shown = page.eval_on_selector_all("#transcript .transcript-line", "ls => ls.map(l => Number(l.dataset.seq))")
    assert said and shown == [e.seq for e in said], (shown, [(e.seq, names[e.data["speaker"]]) for e in said])
    assert page.errors == []
