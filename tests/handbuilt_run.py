"""A small run written into a RunWriter by hand, whose measures are worked out in the comments.

Four personas, 10-minute ticks (6 ticks per game hour), ticks 0..17 (3 game hours) from
2023-02-14 16:00. A gathering ("party") at ``t:Cafe`` from 17:00 to 18:00 (ticks 6..11).

Memories (persona#id, tick, what):
    seed (before the initial snapshot, tick 0):
        a#0 "I am hosting a party at the cafe."     probe party            root -> a knows
        a#1 "Bob Brown is my neighbour."            subject b              a names b
        b#0 "Ann Able lives next door."             subject a              b names a  => edge a-b
        c#0 "Dan Dove is my brother."               subject d              c names d
        d#0 "I have a sister."                                             names nobody
    tick 1  b#1 chat, source (a, 0)                 -> b knows (conversation), invited
    tick 2  c#1 chat, source (d, 0), about a party  -> d#0 seeds no probe: the chain leads nowhere
    tick 2  c#2 reflection, evidence [1]            -> rests on c#1: c still does not know
    tick 3  b#2 plan, evidence [1]                  -> inference (b knew already)
    tick 8  d#1 whisper, probe party                -> d knows (whisper), invited
    tick 9  d#2 "Cat Cole is at the cafe."          subject c  d names c => edge c-d

Diffusion of party: start 1/4 (a); end of hour 1 (ticks < 6): a, b = 2/4; hour 2 (< 12): 3/4;
hour 3: 3/4; end 3/4. Density (6 pairs): start 1/6; hour 1: 1/6; hour 2: 2/6; end 2/6.

Frames (address per tick; everyone else in the street ``t``):
    a (host) at t:Cafe:counter ticks 0..17            -> never counted (host)
    b at t:Cafe ticks 6, 7, 8                          -> 30 min: attended, invited
    c at t:Cafe:table ticks 6..11                      -> 60 min: attended, not invited
    d at t:Cafe ticks 6, 7; t:Cafeteria ticks 8..11    -> 20 min (Cafeteria is another place)
Invited [b, d]; attended [b, c]; invited and attended [b].

Model calls: a twice (100 in + 20 out each), b once (50 + 10, a cache hit): over 3 game hours a
makes 2/3 calls and 80 tokens per hour, b 1/3 and 20; the town 1 call and 100 tokens per hour.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from town.events import Event, EventBus, EventKind
from town.recording import RunWriter

START = datetime(2023, 2, 14, 16, 0)
SPT = 600
NAMES = {"a": "Ann Able", "b": "Bob Brown", "c": "Cat Cole", "d": "Dan Dove"}
PARTY = {
    "place": "t:Cafe",
    "start": datetime(2023, 2, 14, 17, 0),
    "end": datetime(2023, 2, 14, 18, 0),
}
LAST_TICK = 17


def _vector(i: int) -> np.ndarray:
    v = np.zeros(8, np.float32)
    v[i % 8] = 1.0
    return v


def build_run(path: Path) -> Path:
    """Write the run described in the module docstring to ``path`` and return it."""
    bus = EventBus()
    meta = {
        "town": "Hand",
        "start": START.isoformat(sep=" "),
        "seconds_per_tick": SPT,
        "personas": {pid: {"name": name, "emoji": "🙂"} for pid, name in NAMES.items()},
        "embedder": "hashing",
        "config": {"retrieval": {"k": 10, "weights": [1, 1, 1]}},
    }
    writer = RunWriter(path, meta)
    bus.subscribe(writer.handle)
    counter = {"n": 0}

    def memory(pid, rid, tick, kind, content, *, probe=None, source=None, evidence=(), subject=None):
        time = START + timedelta(seconds=tick * SPT)
        counter["n"] += 1
        data = {
            "id": rid,
            "persona": pid,
            "kind": kind,
            "content": content,
            "created": time.strftime("%Y-%m-%d %H:%M:%S"),
            "last_accessed": time.strftime("%Y-%m-%d %H:%M:%S"),
            "importance": 5,
            "evidence": list(evidence),
            "subject": subject,
            "predicate": None,
            "object": None,
            "conversation": 1 if source else None,
            "source": list(source) if source else None,
            "probe": probe,
            "embedding": _vector(counter["n"]),
        }
        bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=time, persona=pid, data=data))

    def call(pid, tick, tokens_in, tokens_out, hit):
        bus.publish(
            Event(
                kind=EventKind.MODEL_CALL,
                tick=tick,
                time=START,
                persona=pid,
                data={
                    "template": "next_line",
                    "purpose": "chat",
                    "tokens_in": tokens_in,
                    "tokens_out": tokens_out,
                    "latency_ms": 5,
                    "cache_hit": hit,
                    "outcome": "ok",
                },
            )
        )

    memory("a", 0, 0, "observation", "I am hosting a party at the cafe.", probe="party")
    memory("a", 1, 0, "observation", "Bob Brown is my neighbour.", subject="b")
    memory("b", 0, 0, "observation", "Ann Able lives next door.", subject="a")
    memory("c", 0, 0, "observation", "Dan Dove is my brother.", subject="d")
    memory("d", 0, 0, "observation", "I have a sister.")
    writer.snapshot(-1, START, bus.seq, {"state": "initial"})
    by_tick = {
        1: lambda: memory(
            "b",
            1,
            1,
            "chat",
            'Ann Able told me: "I am hosting a party at the cafe."',
            source=("a", 0),
            subject="a",
        ),
        2: lambda: (
            memory(
                "c", 1, 2, "chat", "Someone said there is a party.", source=("d", 0)
            ),
            memory("c", 2, 2, "reflection", "There may be a party.", evidence=[1]),
        ),
        3: lambda: memory(
            "b", 2, 3, "plan", "Go to the party at 17:00.", evidence=[1]
        ),
        8: lambda: memory(
            "d", 1, 8, "whisper", "I should go to the party at the cafe.", probe="party"
        ),
        9: lambda: memory("d", 2, 9, "observation", "Cat Cole is at the cafe.", subject="c"),
    }
    call("a", 4, 100, 20, False)
    call("a", 5, 100, 20, False)
    call("b", 5, 50, 10, True)
    for tick in range(LAST_TICK + 1):
        if tick in by_tick:
            by_tick[tick]()
        where = {
            "a": "t:Cafe:counter",
            "b": "t:Cafe" if 6 <= tick <= 8 else "t",
            "c": "t:Cafe:table" if 6 <= tick <= 11 else "t",
            "d": "t:Cafe" if tick in (6, 7) else "t:Cafeteria" if 8 <= tick <= 11 else "t",
        }
        frame = {
            "personas": {pid: {"x": 0, "y": 0, "address": addr} for pid, addr in where.items()}
        }
        bus.publish(
            Event(
                kind=EventKind.FRAME,
                tick=tick,
                time=START + timedelta(seconds=tick * SPT),
                persona=None,
                data=frame,
            )
        )
    writer.close()
    return path
