"""The live page shows what went wrong: a stalled model server while the tick waits, and a
tick that failed (the page stays, its status pill says failed and why)."""

from __future__ import annotations

import pytest

from fault_checks import assert_sound

import town.simulation.decide
from town.events import EventKind
from town.mind import act

pytestmark = pytest.mark.browser


def test_a_model_stall_shows_on_the_page_while_the_tick_waits(live_town, page):
    """A model STATUS "stalled" announced on another thread (as a waiting call does) shows at once."""
    town = live_town(paused=True)
    page.goto(town.url)
    page.wait_for_selector("#status[data-state='paused']")
    town.runner.resume()
    sim = town.simulation
    sim.announce(EventKind.STATUS, None, {"state": "stalled", "reason": "5 consecutive failed model calls",
                                             "source": "model"})
    page.wait_for_selector("#status[data-state='stalled']", timeout=2000)
    assert page.text_content("#status") == "stalled: 5 consecutive failed model calls"
    sim.announce(EventKind.STATUS, None, {"state": "running", "reason": "answers again", "source": "model"})
    page.wait_for_selector("#status[data-state='running']", timeout=2000)
    assert page.errors == []
    _closed_and_sound(town)


def test_a_failed_tick_shows_failed_and_why(live_town, page, monkeypatch):
    """A bug inside tick 5: the pill says 'failed: RuntimeError: ...' and the page stays."""
    decide = act.decide_action

    def crashing(p, ctx, *rest):
        if ctx.tick >= 5:
            raise RuntimeError("injected bug")
        return decide(p, ctx, *rest)

    monkeypatch.setattr(town.simulation.decide, "decide_action", crashing)
    session = live_town(paused=True)
    page.goto(session.url)
    page.wait_for_selector("#status[data-state='paused']")
    session.runner.resume()
    page.wait_for_selector("#status[data-state='failed']", timeout=10000)
    assert page.text_content("#status") == "failed: RuntimeError: injected bug"
    assert page.errors == []
    assert _closed_and_sound(session) == 4


def _closed_and_sound(session) -> int | None:
    """Stop the session and close its run; the run file is sound and replays; its last tick."""
    session.close()
    session.simulation.close(finished=False)
    return assert_sound(session.simulation.run_path)
