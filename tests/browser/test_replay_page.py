"""The replay page in headless chromium: the scrubbed tick's clock and positions come from the
run file, the weight lab shows the API's ranking, procedures and interviews as of the tick.
"""

from __future__ import annotations

import pytest
import requests

from town.recording import RunReader

pytestmark = pytest.mark.browser


def shown_tick(page) -> int:
    return int(page.get_attribute("#clock", "data-tick"))


def positions(page) -> dict[str, tuple[int, int]]:
    """Persona id -> (x, y) the page shows (the residents list carries them)."""
    return {k: tuple(v) for k, v in page.eval_on_selector_all(
        ".persona-item", "els => els.map(e => [e.dataset.persona, [Number(e.dataset.x), Number(e.dataset.y)]])")}


def scrub_to(page, tick: int) -> None:
    """Move the scrubber to ``tick`` as a drag does (value + input event) and wait for the clock."""
    page.eval_on_selector("#scrubber", f"e => {{ e.value = {tick}; e.dispatchEvent(new Event('input', {{bubbles: true}})); }}")
    page.wait_for_function(f"() => document.querySelector('#clock').dataset.tick === '{tick}'")


def test_scrubbing_shows_the_clock_and_positions_of_the_run_file(replay_server, saved_run, page, artifacts):
    """At each scrubbed tick (drag, click on the track, arrow keys) the clock and every persona's
    tile equal RunReader.frame(tick).
    """
    name = saved_run.stem
    page.goto(f"{replay_server.url}/replay/{name}#t=0")
    page.wait_for_function("() => document.querySelector('#clock').dataset.tick === '0'")
    with RunReader(saved_run) as reader:
        def check(tick: int) -> None:
            frame = reader.frame(tick)
            assert page.get_attribute("#clock", "data-time") == frame["time"]
            want = {pid: (p["x"], p["y"]) for pid, p in frame["personas"].items()}
            page.wait_for_function(f"() => document.querySelector('#persona-item-klaus_mueller').dataset.x === '{want['klaus_mueller'][0]}'")
            assert positions(page) == want
            assert page.text_content("#clock-time") == frame["time"][11:]

        for tick in (37, 250, 359, 0):
            scrub_to(page, tick)
            check(tick)
        box = page.locator("#scrubber").bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)
        page.wait_for_function("() => Number(document.querySelector('#clock').dataset.tick) > 150")
        clicked = shown_tick(page)
        check(clicked)
        page.focus("#scrubber")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => document.querySelector('#clock').dataset.tick === '{clicked + 1}'")
        check(clicked + 1)
        moving = {pid for pid in reader.frame(100)["personas"]
                  if reader.frame(100)["personas"][pid]["x"] != reader.frame(300)["personas"][pid]["x"]
                  or reader.frame(100)["personas"][pid]["y"] != reader.frame(300)["personas"][pid]["y"]}
        assert moving, "someone moves between 07:16 and 07:50, so the positions check can fail"
    page.fill("#jump-time-input", "2023-02-13 07:30")
    page.click("#jump-time button")
    page.wait_for_function("() => document.querySelector('#clock').dataset.tick === '180'")
    page.click("#persona-item-isabella_rodriguez")
    page.wait_for_selector("#persona-name")
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "replay.png"))
    assert page.errors == []


def test_weight_lab_slider_shows_the_apis_ranking(replay_server, saved_run, page, artifacts):
    """Moving the relevance slider to 0 re-ranks: the page shows the ids, totals and marks that
    GET .../lab?w=1,1,0&k=10 returns, and the ranking differs from the recorded one.
    """
    name = saved_run.stem
    base = f"{replay_server.url}/api/runs/{name}"
    page.goto(f"{replay_server.url}/replay/{name}#t=359&p=klaus_mueller")
    page.wait_for_selector("#retrieval-list .retrieval-link")
    page.click("#retrieval-list .retrieval-link >> nth=0")
    page.wait_for_selector("#lab-ranking .candidate")
    seq = page.get_attribute("#inspector", "data-seq")
    trace = requests.get(f"{base}/retrievals/{seq}", timeout=10).json()
    recorded = [c["id"] for c in trace["candidates"] if c["in_top_k"]]
    shown = lambda: [int(i) for i in page.eval_on_selector_all("#lab-ranking .candidate", "cs => cs.map(c => c.dataset.id)")]  # noqa: E731
    assert shown() == recorded
    page.focus("#lab-w-relevance")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#lab-result').dataset.weights === '1,1,0'")
    lab = requests.get(f"{base}/retrievals/{seq}/lab?w=1,1,0&k={trace['k']}", timeout=10).json()
    assert shown() == lab["top"] and lab["top"] != recorded
    totals = page.eval_on_selector_all("#lab-ranking .candidate", "cs => cs.map(c => Number(c.dataset.total))")
    assert totals == [c["total"] for c in lab["candidates"] if c["in_top_k"]]
    marked = [int(i) for i in page.eval_on_selector_all("#lab-ranking .candidate.entered", "cs => cs.map(c => c.dataset.id)")]
    assert marked == lab["entered"]
    left = [int(i) for i in page.eval_on_selector_all("#lab-left .candidate", "cs => cs.map(c => c.dataset.id)")]
    assert left == [i for i in lab["left"] if i in {c["id"] for c in lab["candidates"]}]
    page.focus("#lab-k")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('#lab-result').dataset.k === '{trace['k'] - 1}'")
    smaller = requests.get(f"{base}/retrievals/{seq}/lab?w=1,1,0&k={trace['k'] - 1}", timeout=10).json()
    assert shown() == smaller["top"]
    page.screenshot(path=str(artifacts / "weight_lab.png"), full_page=True)
    assert page.errors == []


def test_procedures_tab_lists_a_learned_procedure(replay_server, saved_run, page, artifacts):
    """The persona's procedures tab shows each learned procedure with the API's reliability and
    status, the 0.6 line on its bar; the town library likewise (empty in the first hour: a
    procedure is shared after its second success).
    """
    name = saved_run.stem
    libs = requests.get(f"{replay_server.url}/api/runs/{name}/procedures?tick=359", timeout=10).json()
    mine = libs["libraries"]["klaus_mueller"]
    assert mine, "Klaus learns a procedure in the first hour"
    page.goto(f"{replay_server.url}/replay/{name}#t=359&p=klaus_mueller")
    page.wait_for_selector("#persona-name")
    page.click("#tab-procedures")
    page.wait_for_selector("#persona-procedures .procedure")
    cards = page.eval_on_selector_all("#persona-procedures .procedure", """cs => cs.map(c => ({
        name: c.querySelector('.proc-name').textContent, status: c.querySelector('.proc-status').textContent,
        reliability: c.querySelector('.rel-value').textContent, data: Number(c.dataset.reliability),
        line: c.querySelector('.rel-threshold').style.left}))""")
    assert [c["name"] for c in cards] == [p["name"] for p in mine]
    for card, proc in zip(cards, mine, strict=True):
        assert card["status"] == proc["status"] and card["data"] == proc["reliability"]
        assert card["reliability"] == f"{proc['reliability']:.2f}" and card["line"] == "60%"
    page.screenshot(path=str(artifacts / "procedures.png"))
    page.click("#open-town-library")
    town = [p["name"] for p in libs["libraries"]["town"]]
    # a procedure is shared only after its second success for its owner: none in the first hour
    assert town == []
    page.wait_for_selector("#town-library")
    assert page.eval_on_selector_all("#town-library .proc-name", "es => es.map(e => e.textContent)") == town
    assert "the town has no shared procedures yet" in page.inner_text("#town-library")
    page.screenshot(path=str(artifacts / "town_library.png"))
    assert page.errors == []


def test_interview_in_replay_answers_as_of_the_scrubbed_time(replay_server, saved_run, page, artifacts):
    """The interview tab shows the answer the API gives for the scrubbed tick."""
    name = saved_run.stem
    page.goto(f"{replay_server.url}/replay/{name}#t=300&p=maria_lopez")
    page.wait_for_selector("#persona-name")
    page.click("#tab-interview")
    page.fill("#interview-question", "Do you know about a party?")
    page.click("#interview-ask")
    page.wait_for_selector("#interview-text")
    want = requests.get(f"{replay_server.url}/api/runs/{name}/personas/maria_lopez/interview",
                        params={"q": "Do you know about a party?", "tick": 300}, timeout=30).json()
    assert page.text_content("#interview-text") == want["answer"]
    page.screenshot(path=str(artifacts / "interview.png"))
    assert page.errors == []


def test_runs_page_links_to_the_replay(replay_server, saved_run, page, artifacts):
    """/runs lists the saved run; its link opens the replay page."""
    page.goto(f"{replay_server.url}/runs")
    page.click(f"tr[data-run='{saved_run.stem}'] a")
    page.wait_for_selector("#scrubber")
    page.goto(f"{replay_server.url}/runs")
    page.screenshot(path=str(artifacts / "runs.png"))
    assert page.errors == []


def test_evaluation_charts_draw_recall_beside_the_upper_bound(replay_server, saved_run, page):
    """The evaluation card draws, per probe, the recall line and a dashed upper-bound line with as
    many points as the report's sample moments, and quotes both counts."""
    name = saved_run.stem
    report = requests.get(f"{replay_server.url}/api/runs/{name}/evaluation", timeout=120).json()
    page.goto(f"{replay_server.url}/replay/{name}")
    # "attached": a flat line at 0% has no height, so it never counts as visible.
    page.wait_for_selector("#chart-diffusion path.series", state="attached", timeout=60_000)
    paths = page.eval_on_selector_all(
        "#chart-diffusion path.series",
        "els => els.map(e => [e.dataset.label, e.getAttribute('d').split(/[ML]/).filter(Boolean).length,"
        " e.getAttribute('stroke-dasharray')])")
    probes = list(report["diffusion"])
    points = len(report["moments"])
    want = []
    for p in probes:
        label = p.replace("_", " ")
        want += [[label, points, None], [f"{label} (holds, upper bound)", points, "4 3"]]
    assert paths == want
    first = report["diffusion"][probes[0]]
    facts = page.text_content(".eval-facts li")
    assert f"{first['start_count']} → {first['end_count']} of {first['personas']} recall it" in facts
    assert f"({first['bound']['start_count']} → {first['bound']['end_count']} hold a memory of it)" in facts
    assert page.errors == []


def test_the_replay_opens_on_a_retrieval_without_pressing_play(replay_server, saved_run, page, artifacts):
    """Opened with no tick in its address, at 1280x800: the clock shows the tick ending the
    liveliest ten game minutes (worked out from the run's lines by brute force), the persona
    panel the speaker of the newest line by then, and the Retrievals card, above the fold,
    marks the retrieval that line was decided on; Play was never pressed.

    Before, the page opened at 07:00 with "no retrievals in this window" and the card below the fold.
    """
    with RunReader(saved_run) as reader:
        lines = [(e.tick, e.seq, e.data["conversation"], e.data["speaker"], e.data["retrieval"])
                 for e in reader.events(["chat"])]
    talking = {t: len({c for tick, _, c, _, _ in lines if t - 60 < tick <= t}) for t, *_ in lines}
    lively = min(talking, key=lambda t: (-talking[t], t))
    _, _, _, speaker, retrieval = max((line for line in lines if line[0] <= lively), key=lambda line: line[1])
    page.set_viewport_size({"width": 1280, "height": 800})
    fetched = []
    page.on("request", lambda r: fetched.append(r.url) if "/retrievals?" in r.url else None)
    page.goto(f"{replay_server.url}/replay/{saved_run.stem}")
    page.wait_for_selector("#retrieval-list .retrieval-link.selected")
    assert shown_tick(page) == lively
    assert page.get_attribute("#retrieval-list .retrieval-link.selected", "data-seq") == str(retrieval)
    assert page.text_content("#persona-name").strip() == speaker.replace("_", " ").title()
    # measured in the page, in one go: a list drawn again between a lookup and a measure is no miss
    boxes = page.evaluate("""sels => sels.map((s) => {
        const r = document.querySelector(s)?.getBoundingClientRect();
        return r ? [r.top, r.bottom, r.height] : null; })""",
                          ["#retrieval-card", "#retrieval-list .retrieval-link.selected"])
    for box in boxes:
        assert box is not None and box[2] > 0 and box[0] >= 0 and box[1] <= 800, boxes
    assert page.text_content("#btn-play").strip() == "Play"
    page.wait_for_timeout(1500)  # past the settle after a seek, which asks for the same list
    assert len(fetched) == 1, fetched  # the list on screen is not fetched and drawn again
    page.screenshot(path=str(artifacts / "replay-opening.png"))
    assert page.errors == []
