"""Fixtures for the browser tests: a live town served on a free port, and headless chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation
from web.server import LiveSession

ROOT = Path(__file__).resolve().parents[2]
THE_VILLE = ROOT / "personas" / "the_ville"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture
def live_town(tmp_path):
    """Factory: ``live_town(folder=THE_VILLE, speed=8, paused=False, **app_config)`` -> a started
    LiveSession of a real Simulation (hashing embedder) on a free loopback port; closed after the test."""
    sessions = []

    def start(folder: Path = THE_VILLE, *, speed: float | None = 8.0, paused: bool = False, **config):
        sim = Simulation(load_scenario(folder), load_config(None, {"embedder": "hashing"}),
                         run_path=tmp_path / f"live{len(sessions)}.sqlite")
        session = LiveSession(sim, port=0, speed=speed, paused=paused, config=config).start()
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        session.close()
        session.simulation.close()


@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium through Playwright (never `playwright install`)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} missing: run scripts/setup.sh --test (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page (1440x900) that records page errors in ``page.errors``."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    context.close()


@pytest.fixture
def artifacts() -> Path:
    """The folder for screenshots (test-artifacts/, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def town_copy(tmp_path):
    """Factory: a copy of the_ville in tmp_path to edit (returns its folder)."""

    def make() -> Path:
        folder = tmp_path / "town"
        shutil.copytree(THE_VILLE, folder)
        return folder

    return make


@pytest.fixture(scope="session")
def saved_run(tmp_path_factory):
    """A saved one-hour run of the_ville made by the CLI as a user would (hashing embedder),
    alone in its runs folder. Returns the run file's path."""
    from cli_helpers import run_cli

    out = tmp_path_factory.mktemp("saved") / "hour.sqlite"
    done = run_cli("simulate", "--hours", "1", "--embedder", "hashing", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def replay_server(saved_run):
    """A viewer (no live run) serving ``saved_run``'s folder on a free loopback port."""
    from web import create_app
    from web.server import LiveServer

    server = LiveServer(create_app({"RUNS_DIR": str(saved_run.parent)}), "127.0.0.1", 0).start()
    yield server
    server.shutdown()
