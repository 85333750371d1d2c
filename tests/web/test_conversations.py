"""Conversations read from a run's events: the list (open and past, as of a tick, by persona),
each transcript line for line, and the live feed's last game hour. Every expected value is worked
out from the events the simulation published while the run was made (the ``recorded`` fixture),
not from the run file the API reads."""

from __future__ import annotations

import time
from collections import defaultdict

from town.events import EventKind


def _by_hand(events):
    """Conversation id -> (its chat events in order, its CONVERSATION event or None)."""
    lines, ends = defaultdict(list), {}
    for e in events:
        if e.kind is EventKind.CHAT:
            lines[e.data["conversation"]].append(e)
        elif e.kind is EventKind.CONVERSATION:
            ends[e.data["conversation"]] = e
    return lines, ends


def test_every_transcript_is_the_runs_chat_events_line_for_line(recorded, replay_client):
    runs, name, events = recorded
    lines, ends = _by_hand(events)
    assert len(lines) >= 2
    listing = replay_client.get(f"/api/runs/{name}/conversations?limit=500").get_json()
    listed = {c["id"]: c for c in listing["open"] + listing["past"]}
    assert set(listed) == set(lines) | set(ends)
    for cid, said in lines.items():
        got = replay_client.get(f"/api/runs/{name}/conversations/{cid}").get_json()
        assert [(x["seq"], x["speaker"], x["listener"], x["line"], x["retrieval"]) for x in got["lines"]] == [
            (e.seq, e.data["speaker"], e.data["listener"], e.data["line"], e.data["retrieval"]) for e in said]
        assert got["start_tick"] == said[0].tick and listed[cid]["lines"] == len(said)
        end = ends.get(cid)
        assert got["end_tick"] == (end.tick if end else None)
        assert got["summary"] == (end.data["summary"] if end else {})
    # newest first; an ended conversation is past, one still under way at the end is open
    assert [c["start_tick"] for c in listing["past"]] == sorted((c["start_tick"] for c in listing["past"]), reverse=True)
    assert {c["id"] for c in listing["open"]} == set(lines) - set(ends)


def test_a_conversation_as_of_a_tick_in_its_middle(recorded, replay_client):
    """At the tick of its second line a conversation is open with two lines; before it began it is unknown."""
    runs, name, events = recorded
    lines, ends = _by_hand(events)
    cid, said = next((cid, said) for cid, said in sorted(lines.items()) if len(said) >= 3 and cid in ends)
    tick = said[1].tick
    got = replay_client.get(f"/api/runs/{name}/conversations/{cid}?tick={tick}").get_json()
    assert [x["line"] for x in got["lines"]] == [e.data["line"] for e in said if e.tick <= tick]
    assert got["end_tick"] is None and got["summary"] == {}
    listing = replay_client.get(f"/api/runs/{name}/conversations?tick={tick}").get_json()
    assert cid in [c["id"] for c in listing["open"]]
    assert all(c["start_tick"] <= tick for c in listing["open"] + listing["past"])
    early = replay_client.get(f"/api/runs/{name}/conversations/{cid}?tick={said[0].tick - 1}")
    assert early.status_code == 404 and "by then" in early.get_json()["error"]
    bad = replay_client.get(f"/api/runs/{name}/conversations?tick=x")
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("tick: must be an integer")


def test_a_personas_conversations(recorded, replay_client):
    runs, name, events = recorded
    lines, ends = _by_hand(events)
    mine = {cid for cid, said in lines.items() if "klaus_mueller" in (said[0].data["speaker"], said[0].data["listener"])}
    got = replay_client.get(f"/api/runs/{name}/conversations?persona=klaus_mueller&limit=500").get_json()
    assert {c["id"] for c in got["open"] + got["past"]} == mine
    assert replay_client.get(f"/api/runs/{name}/conversations?persona=nobody").get_json() == {"open": [], "past": []}
    assert replay_client.get(f"/api/runs/{name}/conversations/999999").status_code == 404


def test_the_live_feed_holds_the_last_game_hour(make_app, simulation, runner, published):
    """After 1.5 game hours, /api/feed gives the talk of the last hour (360 ticks) and no earlier."""
    runner.step(540)
    client = make_app().test_client()
    while runner.status()["tick"] < 540:
        time.sleep(0.05)
    items = client.get("/api/feed").get_json()["items"]
    last = 539
    chats = [e.seq for e in published if e.kind is EventKind.CHAT and e.tick > last - 360]
    assert chats and [i["seq"] for i in items if i["kind"] == "chat"] == chats
    assert all(i["tick"] > last - 360 for i in items)
    assert [i["seq"] for i in items] == sorted(i["seq"] for i in items)
    assert all(i["purpose"] != "act" for i in items if i["kind"] == "retrieval")
    live = client.get("/api/conversations").get_json()
    assert {c["id"] for c in live["open"] + live["past"]} == {e.data["conversation"] for e in published
                                                               if e.kind is EventKind.CHAT}
