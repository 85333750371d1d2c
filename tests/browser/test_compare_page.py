"""The compare page in headless chromium: a run and its fork with other retrieval weights.

Both diffusion curves of each probe and both density curves are drawn with the API's values, the first diverging tick
is the API's, and a retrieval link opens the inspector on that run's recorded trace.
"""

from __future__ import annotations

import json
import shutil

import pytest
import requests

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """A 3-hour the_ville run and a fork at 09:00 with retrieval weights 1,1,3, in one folder."""
    from cli_helpers import run_cli

    folder = tmp_path_factory.mktemp("pair")
    done = run_cli("simulate", "--hours", "3", "--embedder", "hashing", "--out", str(folder / "base.sqlite"), "--quiet")
    assert done.returncode == 0, done.stderr
    done = run_cli("fork", str(folder / "base.sqlite"), "--at", "2023-02-13 09:00", "--out",
                   str(folder / "heavy.sqlite"), "--set", "retrieval.weights=1,1,3", "--hours", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
def server(pair):
    """A viewer serving the pair's folder."""
    from web import create_app
    from web.server import LiveServer

    s = LiveServer(create_app({"RUNS_DIR": str(pair)}), "127.0.0.1", 0).start()
    yield s
    s.shutdown()


def test_compare_page_draws_both_curves_and_opens_the_inspector(server, page):
    """Curves carry the API's series; the first link opens the inspector on run A's trace."""
    api = requests.get(f"{server.url}/api/compare/base/heavy", timeout=30).json()
    page.goto(f"{server.url}/compare/base/heavy")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30000)
    for name, series in api["diffusion"].items():
        for side in ("a", "b"):
            values = page.get_attribute(f"#diffusion-{name} polyline.curve-{side}", "data-values")
            assert values == ",".join(str(v) for v in series[side])
            points = page.get_attribute(f"#diffusion-{name} polyline.curve-{side}", "points")
            assert len(points.split()) == len(series[side]) >= 2
    # density: one point per moment (start and end: the base ends at 10:00, 3 h; the fork at
    # 10:00 too, 2 h copied + 1 h), the API's values; the fork copies the start, so both curves
    # begin at the same density
    den = api["density"]
    assert den["a"]["hours"] == den["b"]["hours"] == [0, 3]
    assert den["a"]["density"][0] == den["b"]["density"][0]
    for side in ("a", "b"):
        values = page.get_attribute(f"#density-chart polyline.curve-{side}", "data-values")
        assert [float(v) for v in values.split(",")] == den[side]["density"]
        assert len(page.get_attribute(f"#density-chart polyline.curve-{side}", "points").split()) == 2
    assert page.get_attribute("#divergence", "data-tick") == str(api["first_divergence"]["tick"])
    # both runs cover 3 game hours (no note); the party (14 Feb 17:00) is after both ends
    assert page.locator("#span-note").count() == 0
    assert "07:00 → 2023-02-13 10:00 (3 game hours)" in page.text_content("#runs-info")
    cells = page.eval_on_selector_all("#attendance-rows tbody td", "els => els.map(e => e.textContent)")
    assert cells[0] == "party" and cells[1].endswith("(ended before it)") and cells[2].endswith("(ended before it)")
    differs = page.eval_on_selector_all("#retrieval-rows tbody tr td:nth-child(4)", "els => els.map(e => e.textContent)")
    assert differs == ["order only (same memories)" if x["differs"] == "order" else "memories"
                       for x in api["retrievals"]["differing"]]
    assert api["first_divergence"]["tick"] >= 2 * 360  # the fork starts at 09:00, tick 720
    first = api["retrievals"]["differing"][0]
    page.click(f".retrieval-link[data-side='a'][data-seq='{first['a_seq']}']")
    page.wait_for_selector("#inspector:not([hidden]) #inspector-query")
    trace = requests.get(f"{server.url}/api/runs/base/retrievals/{first['a_seq']}", timeout=30).json()
    assert page.text_content("#inspector-query") == f"“{trace['query']}”"
    page.click("#inspector-close")
    page.click(f".retrieval-link[data-side='b'][data-seq='{first['b_seq']}']")
    page.wait_for_function(f"() => document.querySelector('#inspector').dataset.seq === '{first['b_seq']}'")
    page.wait_for_selector("#inspector:not([hidden]) #inspector-query")
    other = requests.get(f"{server.url}/api/runs/heavy/retrievals/{first['b_seq']}", timeout=30).json()
    assert other["weights"] == [1.0, 1.0, 3.0]


@pytest.mark.parametrize("width", [1280, 1920])
def test_compare_page_names_each_run_and_what_b_changed_and_fits(server, page, width):
    """Each run by its file, condition and fork (never "[object Object]"), the one key B changed
    with both values, and no horizontal scrolling at 1280 and 1920 px."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{server.url}/compare/base/heavy")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30000)
    assert "[object Object]" not in page.text_content("body")
    assert page.text_content("#run-a") == "A: base — full architecture, seed 0; 2023-02-13 07:00 → 2023-02-13 10:00 (3 game hours)"
    assert page.text_content("#run-b") == ("B: heavy — full architecture, seed 0, fork of base after its tick 719 "
                                           "(2023-02-13 08:59:50); 2023-02-13 07:00 → 2023-02-13 10:00 (3 game hours)")
    rows = page.eval_on_selector_all("#changed-rows tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert rows == [["retrieval.weights", "[1,1,1]", "[1,1,3]"]]
    assert page.evaluate("() => document.documentElement.scrollWidth") == width
    assert page.errors == []


def test_compare_page_says_which_run_ends_first(server, pair, page):
    """A fork at 09:00 for half an hour ends at 09:30, 2.5 game hours after 07:00: the page says
    that B ends 0.5 game hours before the 3-hour base, and its density curve stops at its end."""
    from cli_helpers import run_cli

    done = run_cli("fork", str(pair / "base.sqlite"), "--at", "2023-02-13 09:00", "--out", str(pair / "short.sqlite"),
                   "--hours", "0.5", "--quiet")
    assert done.returncode == 0, done.stderr
    page.goto(f"{server.url}/compare/base/short")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=30000)
    assert page.text_content("#span-note") == ("B ends 0.5 game hours before A: its curves stop at its end, and a "
                                               "gathering after its end was not seen.")
    assert "07:00 → 2023-02-13 09:30 (2.5 game hours)" in page.text_content("#runs-info")
    api = requests.get(f"{server.url}/api/compare/base/short", timeout=30).json()
    assert api["density"]["b"]["hours"] == [0, 2.5]


def test_compare_api_refuses_an_unknown_run(server):
    """An unknown name is a 404 with one JSON error."""
    response = requests.get(f"{server.url}/api/compare/base/nope", timeout=30)
    assert response.status_code == 404 and "error" in response.json()


@pytest.fixture(scope="module")
def battery(pair):
    """`evaluate --battery` of the base run: its battery.json."""
    from cli_helpers import run_cli

    done = run_cli("evaluate", str(pair / "base.sqlite"), "--battery")
    assert done.returncode == 0, done.stderr
    return json.loads((pair / "base.evaluation" / "battery.json").read_text())


def test_battery_page_shows_each_answer_with_its_grade(server, pair, battery, page):
    """After `evaluate --battery`, the replay page links to the battery: one row per answer."""
    result = battery
    page.goto(f"{server.url}/replay/base")
    page.click("#battery-link")
    page.wait_for_selector("#battery-answers")
    rows = page.locator(".battery-row")
    assert rows.count() == len(result["answers"])
    verdicts = page.eval_on_selector_all(".battery-row", "els => els.map(e => e.dataset.verdict)")
    assert verdicts == [a["grade"]["verdict"] for a in result["answers"]]
    none = requests.get(f"{server.url}/api/runs/heavy/battery", timeout=30)
    assert none.status_code == 200
    assert none.json() == {"battery": None, "ask": f"python run.py evaluate {pair / 'heavy.sqlite'} --battery"}


def test_replay_page_of_a_run_without_a_battery_logs_no_error(server, pair, page):
    """No battery is no HTTP error: no response >= 400, no console error; the panel names the
    command with the run's own file (the runs folder is outside the working directory)."""
    bad, console = [], []
    page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(f"{server.url}/replay/heavy")
    page.wait_for_selector("#battery-panel #no-battery", state="attached")
    assert page.text_content("#no-battery") == (f"No battery yet. Ask it with python run.py evaluate "
                                                f"{pair / 'heavy.sqlite'} --battery.")
    page.wait_for_load_state("networkidle")
    assert bad == [] and console == [] and page.errors == []


HOSTILE = '<img src=x id="pwn" onerror="window.pwned = 1">'


def test_replay_page_shows_the_battery_in_its_layout(server, pair, battery, page):
    """The replay page's battery panel: grades per category as in battery.json, one persona's
    answers per category tab with their grades, each answer's retrieved memories; persona and
    model text is shown as text (a copy of the run whose battery carries markup)."""
    shutil.copy(pair / "base.sqlite", pair / "hostile.sqlite")
    tampered = json.loads(json.dumps(battery))
    first = tampered["answers"][0]
    first["answer"] = f"I am {HOSTILE}"
    first["retrieval"]["retrieved"][0]["content"] = "<b id='bold'>memory</b>"
    (pair / "hostile.evaluation").mkdir(exist_ok=True)
    (pair / "hostile.evaluation" / "battery.json").write_text(json.dumps(tampered))
    page.goto(f"{server.url}/replay/hostile")
    page.wait_for_selector("#battery-grades")
    cells = page.eval_on_selector_all("#battery-grades tbody tr",
                                      "rows => rows.map(r => [...r.children].slice(1, 5).map(td => td.textContent))")
    assert cells == [[str(c[k]) for k in ("correct", "wrong", "dont_know", "ungraded")]
                     for c in battery["summary"]["categories"].values()]

    def shown():
        return page.eval_on_selector_all(".battery-answer", "els => els.map(e => [e.dataset.index, e.dataset.verdict])")

    def expected(persona, category):
        return [[str(a["index"]), a["grade"]["verdict"]] for a in battery["answers"]
                if a["persona"] == persona and a["category"] == category]

    persona = first["persona"]  # the first persona (sorted ids), self-knowledge first
    assert page.input_value("#battery-persona") == persona
    assert shown() == expected(persona, "self_knowledge") and len(shown()) == 5
    assert page.text_content(".battery-answer .battery-a") == f"I am {HOSTILE}"
    page.click(".battery-answer details summary")
    contents = page.eval_on_selector_all(".battery-answer:first-child .battery-memory .content",
                                         "els => els.map(e => e.textContent)")
    retrieved = [m["content"] for m in first["retrieval"]["retrieved"]]
    assert contents == ["<b id='bold'>memory</b>", *retrieved[1:]]
    assert page.locator("#pwn").count() == 0 and page.locator("#bold").count() == 0
    assert page.evaluate("() => window.pwned") is None
    other = sorted({a["persona"] for a in battery["answers"]})[1]
    page.select_option("#battery-persona", other)
    page.click("#battery-tabs .tab[data-category='memory']")
    assert shown() == expected(other, "memory") and len(shown()) == 5
    assert page.errors == []
