"""FrameRelay: every frame to a viewer that keeps up, only the latest to one that is behind."""

from __future__ import annotations

from datetime import datetime, timedelta

from town.events import Event, EventKind
from web.relay import FrameRelay, frame_delta

T0 = datetime(2023, 2, 13, 7, 0)


class RecordingSocketIO:
    """Stands in for the SocketIO server: records emits and keeps their ack callbacks."""

    def __init__(self):
        self.sent: list[tuple[str, dict, str | None]] = []
        self.callbacks: dict[str, list] = {}

    def emit(self, event, data, to=None, namespace=None, callback=None):
        """Record one emit."""
        self.sent.append((event, data, to))
        if callback is not None:
            self.callbacks.setdefault(to, []).append(callback)

    def ack_all(self, sid):
        """The viewer acknowledges everything it was sent."""
        for callback in self.callbacks.pop(sid, []):
            callback()

    def ticks(self, sid):
        """Ticks of the frames sent to ``sid``, in order."""
        return [d["tick"] for e, d, to in self.sent if e == "frame" and to == sid]


def frame(tick):
    """A FRAME event of ``tick``."""
    return Event(kind=EventKind.FRAME, tick=tick, time=T0 + timedelta(seconds=10 * tick),
                 data={"personas": {"a": {"x": tick, "y": 0}}})


def make(max_inflight=4, max_pending=8):
    """A relay on a recording SocketIO."""
    sio = RecordingSocketIO()
    relay = FrameRelay(sio, lambda: {"state": "running"}, max_inflight=max_inflight,
                       max_pending=max_pending)
    return sio, relay


def test_viewer_that_keeps_up_gets_every_frame_in_order():
    """Acknowledging after each send: ticks 0..19 arrive exactly once each, in order."""
    sio, relay = make()
    relay.add_viewer("v")
    for tick in range(20):
        relay.handle(frame(tick))
        if tick % 3 == 2:  # several frames can pile up between sends
            relay.flush()
            sio.ack_all("v")
    relay.flush()
    assert sio.ticks("v") == list(range(20))


def test_viewer_that_is_behind_gets_only_the_latest():
    """With 4 frames unacknowledged nothing more is sent; after the acks only the newest comes."""
    sio, relay = make(max_inflight=4, max_pending=8)
    relay.add_viewer("slow")
    for tick in range(4):
        relay.handle(frame(tick))
    relay.flush()
    for tick in range(4, 30):
        relay.handle(frame(tick))
        relay.flush()
    assert sio.ticks("slow") == [0, 1, 2, 3]
    sio.ack_all("slow")
    relay.flush()
    assert sio.ticks("slow") == [0, 1, 2, 3, 29]
    assert len(relay._frames) == 8  # the buffer is bounded, whatever the viewer does


def test_new_viewer_starts_at_the_latest_frame():
    """A viewer that connects mid-run first gets the newest frame, not the backlog."""
    sio, relay = make()
    for tick in range(5):
        relay.handle(frame(tick))
    relay.add_viewer("late")
    relay.flush()
    assert sio.ticks("late") == [4]


def test_activity_and_model_call_counter():
    """Chat lines and retrievals go out as light items; model calls are counted, not listed."""
    sio, relay = make()
    relay.handle(Event(kind=EventKind.MODEL_CALL, tick=1, time=T0, persona="a",
                       data={"template": "t", "purpose": "p"}))
    relay.handle(Event(kind=EventKind.MODEL_CALL, tick=1, time=T0, persona="a", data={}))
    relay.handle(Event(kind=EventKind.CHAT, tick=1, time=T0, persona="a", seq=7,
                       data={"speaker": "a", "listener": "b", "line": "<b>hi</b>", "shared": [1]}))
    relay.handle(Event(kind=EventKind.RETRIEVAL, tick=1, time=T0, persona="a", seq=8,
                       data={"purpose": "chat", "query": "b", "candidates": [{"id": 1}]}))
    relay.flush()
    (batch,) = [d for e, d, _ in sio.sent if e == "activity"]
    assert batch["model_calls"] == 2
    assert batch["items"] == [
        {"seq": 7, "kind": "chat", "tick": 1, "time": "2023-02-13 07:00:00", "persona": "a",
         "speaker": "a", "listener": "b", "line": "<b>hi</b>"},
        {"seq": 8, "kind": "retrieval", "tick": 1, "time": "2023-02-13 07:00:00", "persona": "a",
         "purpose": "chat", "query": "b"},
    ]
    relay.flush()
    assert [e for e, _, _ in sio.sent].count("activity") == 1  # nothing new, nothing sent


def test_status_event_pushes_the_runner_status():
    """A STATUS event makes the next send include the runner's status."""
    sio, relay = make()
    relay.handle(Event(kind=EventKind.STATUS, tick=0, time=T0, data={"state": "paused"}))
    relay.flush()
    assert ("status", {"state": "running"}, None) in sio.sent


def sent_frames(sio, sid):
    """The frame messages sent to ``sid``, in order."""
    return [d for e, d, to in sio.sent if e == "frame" and to == sid]


def test_frame_delta_holds_only_changed_fields_and_rebuilds_the_frame():
    """Worked by hand: a walker's x, a new persona whole, a persona gone, nothing else."""
    old = {"a": {"x": 1, "y": 2, "action": "walk"}, "b": {"x": 5, "y": 5, "action": "sleep"},
           "c": {"x": 0, "y": 0, "action": "idle"}}
    new = {"a": {"x": 2, "y": 2, "action": "walk"}, "b": {"x": 5, "y": 5, "action": "sleep"},
           "d": {"x": 9, "y": 9, "action": "idle"}}
    changed, gone = frame_delta(old, new)
    assert changed == {"a": {"x": 2}, "d": {"x": 9, "y": 9, "action": "idle"}}
    assert gone == ["c"]
    rebuilt = {pid: {**old.get(pid, {}), **fields} for pid, fields in changed.items()}
    rebuilt = {**{pid: e for pid, e in old.items() if pid not in gone}, **rebuilt}
    assert rebuilt == new


def test_first_frame_is_whole_then_deltas_from_the_frame_before():
    """A viewer gets tick 0 whole, then ticks 1.. as the one field that moved."""
    sio, relay = make()
    relay.add_viewer("v")
    for tick in range(4):
        relay.handle(frame(tick))
        relay.flush()
        sio.ack_all("v")
    first, *rest = sent_frames(sio, "v")
    assert first == {"tick": 0, "time": "2023-02-13 07:00:00", "full": True,
                     "personas": {"a": {"x": 0, "y": 0}}}
    assert rest == [{"tick": t, "time": f"2023-02-13 07:00:{10 * t}", "base": t - 1,
                     "changed": {"a": {"x": t}}, "gone": []} for t in (1, 2, 3)]


def test_a_viewer_behind_or_asking_to_resync_gets_the_latest_frame_whole():
    """After falling behind, and after a resync request, the next frame is full again."""
    sio, relay = make(max_inflight=2, max_pending=8)
    relay.add_viewer("slow")
    for tick in range(6):
        relay.handle(frame(tick))
        relay.flush()
    sio.ack_all("slow")
    relay.flush()
    assert [("full" in m, m["tick"]) for m in sent_frames(sio, "slow")] == [
        (True, 0), (False, 1), (True, 5)]
    sio.ack_all("slow")
    relay.handle(frame(6))
    relay.flush()
    relay.resync("slow")
    relay.flush()
    assert [("full" in m, m["tick"]) for m in sent_frames(sio, "slow")][3:] == [(False, 6), (True, 6)]
