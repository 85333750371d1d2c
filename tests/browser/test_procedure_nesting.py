"""Headless Chromium: the procedures tab shows a composite procedure with its part nested in it."""

from __future__ import annotations

import pytest
import requests

from cli_helpers import run_cli

COMPOSITE = "open the cafe after lunch and serve customers"
PART = "open the cafe"


@pytest.fixture(scope="module")
def composite_run(tmp_path_factory):
    """the_ville from 07:00 to 14:30 on its first day (hashing embedder), made by the CLI:
    Isabella learns "open the cafe" at 08:00 and, at 14:00, the after-lunch task that repeats it."""
    out = tmp_path_factory.mktemp("composite") / "composite.sqlite"
    done = run_cli("simulate", "--hours", "7.5", "--embedder", "hashing", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def composite_server(composite_run):
    """A viewer serving the composite run's folder on a free loopback port."""
    from web import create_app
    from web.server import LiveServer

    server = LiveServer(create_app({"RUNS_DIR": str(composite_run.parent)}), "127.0.0.1", 0).start()
    yield server
    server.shutdown()


def test_procedures_tab_nests_the_called_procedure(composite_server, composite_run, page, artifacts):
    """The composite's card lists "open the cafe" as a procedure step; opening it shows that
    procedure's own steps, as the API gives them, inside the composite's card; drawn again (the
    replay moved a tick), the opened part stays open."""
    name, tick = composite_run.stem, 7 * 360 + 180 - 1
    api = f"{composite_server.url}/api/runs/{name}/procedures?tick={tick}"
    mine = {p["name"]: p for p in requests.get(api, timeout=10).json()["libraries"]["isabella_rodriguez"]}
    assert mine[COMPOSITE]["steps"][0] == {"procedure": PART}
    inner = [s["description"] for s in mine[PART]["steps"]]
    own = [s["description"] for s in mine[COMPOSITE]["steps"][1:]]
    page.goto(f"{composite_server.url}/replay/{name}#t={tick}&p=isabella_rodriguez")
    page.wait_for_selector("#persona-name")
    page.click("#tab-procedures")
    card = page.locator(f"#persona-procedures .procedure[data-name='{COMPOSITE}']")
    card.wait_for()
    nested = card.locator(".proc-steps > li.step-proc").first
    assert nested.locator("summary").inner_text().strip().endswith(PART)
    nested.locator("summary").click()
    shown = nested.locator("details > ol.proc-steps > li .step-text")
    shown.first.wait_for()
    assert shown.all_inner_texts() == inner
    top = card.locator(":scope > ol.proc-steps > li:not(.step-proc) .step-text").all_inner_texts()
    assert top == own
    page.screenshot(path=str(artifacts / "procedure_nesting.png"))
    # One tick back: the panel is drawn again, and the part the reader opened stays open.
    card.evaluate("node => { node.dataset.drawnBefore = '1'; }")
    page.eval_on_selector("#scrubber", f"s => {{ s.value = '{tick - 1}'; s.dispatchEvent(new Event('input', {{bubbles: true}}));"
                          " s.dispatchEvent(new Event('change', {bubbles: true})); }")
    page.wait_for_function(f"() => {{ const c = document.querySelector(\"#persona-procedures .procedure[data-name='{COMPOSITE}']\");"
                           " return c && !c.dataset.drawnBefore; }", timeout=30_000)
    assert nested.locator("details").get_attribute("open") is not None
    assert shown.all_inner_texts() == inner
    assert page.errors == []
