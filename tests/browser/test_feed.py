"""'Around town' says what happened: a lesson saved to a persona's library and shared with the
town's is one line naming both libraries."""

from __future__ import annotations

import pytest

from town.events import EventKind

pytestmark = pytest.mark.browser


def test_a_saved_and_shared_procedure_is_one_feed_line(live_town, page):
    town = live_town(speed=8, paused=True)
    sim = town.simulation
    received = []  # the socket's frames: the page's first status comes with the page, not the socket
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(str(frame))))
    page.goto(town.url)
    page.wait_for_selector("#status[data-state='paused']")
    for _ in range(300):  # connected once the server's hello came
        if any('"hello"' in frame for frame in received):
            break
        page.wait_for_timeout(100)

    def learn():
        for library, name in (("klaus_mueller", "get ready"), ("town", "get ready at home")):
            sim.announce(EventKind.PROCEDURE, "klaus_mueller", {
                "op": "save", "library": library, "name": name, "procedure": {}, "merged": False})

    town.runner.call(learn)
    town.runner.step(1)
    page.wait_for_selector("#activity .act-procedure")
    lines = page.eval_on_selector_all("#activity .act-procedure .content", "xs => xs.map(x => x.textContent)")
    assert lines == ["Klaus Mueller learned “get ready”; shared with the town as “get ready at home”"]
    assert page.errors == []
