"""The compare page in headless chromium: a run and its fork with other retrieval weights.

Both diffusion curves of each probe and both density curves are drawn with the API's values, the first diverging tick
is the API's, and a retrieval link opens the inspector on that run's recorded trace.
"""

from __future__ import annotations

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


def test_compare_api_refuses_an_unknown_run(server):
    """An unknown name is a 404 with one JSON error."""
    response = requests.get(f"{server.url}/api/compare/base/nope", timeout=30)
    assert response.status_code == 404 and "error" in response.json()


def test_battery_page_shows_each_answer_with_its_grade(server, pair, page):
    """After `evaluate --battery`, the replay page links to the battery: one row per answer."""
    import json

    from cli_helpers import run_cli

    done = run_cli("evaluate", str(pair / "base.sqlite"), "--battery")
    assert done.returncode == 0, done.stderr
    result = json.loads((pair / "base.evaluation" / "battery.json").read_text())
    page.goto(f"{server.url}/replay/base")
    page.click("#battery-link")
    page.wait_for_selector("#battery-answers")
    rows = page.locator(".battery-row")
    assert rows.count() == len(result["answers"])
    verdicts = page.eval_on_selector_all(".battery-row", "els => els.map(e => e.dataset.verdict)")
    assert verdicts == [a["grade"]["verdict"] for a in result["answers"]]
    assert requests.get(f"{server.url}/api/runs/heavy/battery", timeout=30).status_code == 404
