"""A small run written into a RunWriter by hand, whose measures are worked out in the comments.

Four personas, 10-minute ticks (6 ticks per game hour), ticks 0..17 (3 game hours) from
2023-02-14 16:00. A gathering ("party") at ``t:Cafe`` from 17:00 to 18:00 (ticks 6..11).
Retrieval k is 10 and nobody holds more than 4 memories, so every interview is given all of
the persona's memories; the scripted answer then depends on the words only.

Memories (persona#id, tick, what):
    seed (before the initial snapshot, tick 0):
        a#0 "I am hosting a party at the cafe."     probe party            root -> a holds it
        a#1 "Bob Brown is my neighbour."            subject b (a relationship)
        a#2 "Bring a friend on Tuesday evening."    probe party            a second seed
        b#0 "Ann Able lives next door."             subject a (a relationship)
        c#0 "Dan Dove is my brother."               subject d (a relationship)
        d#0 "I have a sister."                                             names nobody
    tick 1  b#1 chat, source (a, 0), subject a      -> b holds it (conversation), invited
    tick 1  player_ada#0 chat, source (a, 0)        -> a player who joined from the viewer
                                                       (not in meta): never counted
    tick 2  c#1 chat, source (d, 0), about a party  -> d#0 seeds no probe: the chain leads nowhere
    tick 2  c#2 reflection, evidence [1]            -> rests on c#1: leads nowhere either
    tick 3  b#2 plan, evidence [1]                  -> inference (b held it already)
    tick 4  c#3 chat, source (a, 2), subject a      -> c holds it (conversation), invited,
            'Ann Able told me: "Bring a friend on Tuesday evening."'  but no word of a party
    tick 8  d#1 whisper, probe party                -> d holds it (whisper), invited
    tick 9  d#2 "Cat Cole is at the cafe."          subject c: a sighting

Diffusion of party, probe question "Did you hear about a party?", facts "party" and "cafe".
The answer quotes a memory holding "party" (or says no): a from the start, b from tick 1, d
from tick 8 recall "... party at the cafe"; c's best answer is "Someone said there is a party."
or "There may be a party." (no cafe): c never recalls it, though from tick 4 it holds a memory
that leads to the seed. Moments every game hour: recalled 1/4, 2/4 (a, b), 3/4 (a, b, d), 3/4;
upper bound (holds) 1/4, 3/4 (a, b, c), 4/4, 4/4. Every 12 hours: the start and the end only.

Density, asked "Do you know <name>?": yes with a retrieved memory about the other that is more
than a sighting. Start: a knows b (relationship), b knows a (relationship), c knows d; d knows
nobody: 1 edge (a-b) of 6 pairs. End: c also knows a (c#3, a conversation); d says yes to
"Do you know Cat Cole?" from d#2, but that is a sighting: no edge c-d. Still 1 edge; one-sided
at the end: c->a, c->d. a never holds a memory of c or d, so every moment between has 1 edge.

Frames (address per tick; everyone else in the street ``t``):
    a (host) at t:Cafe:counter ticks 0..17            -> never counted (host)
    b at t:Cafe ticks 6, 7, 8                          -> 30 min: attended, invited
    c at t:Cafe:table ticks 6..11                      -> 60 min: attended, invited
    d at t:Cafe ticks 6, 7; t:Cafeteria ticks 8..11    -> 20 min (Cafeteria is another place)
Invited [b, c, d]; attended [b, c]; invited and attended [b, c].

Model calls: a makes two requests (100 in + 20 out each). b makes one request that fails
(50 + 10 tokens, outcome invalid) and is answered by the scripted fallback (a fallback marker
event), then gets one answer from the cache (a cache-hit marker event). Markers are not
requests: 3 requests in all, 300 tokens; over 3 game hours a makes 2/3 requests and 80 tokens
per hour, b 1/3 and 20; the town 1 request and 100 tokens per hour; 1 fallback, 1 cache hit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from town.embedding import HashingEmbedder
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


def _vector(content: str) -> np.ndarray:
    """The embedding the run's embedder ("hashing", 64 dimensions) gives ``content``."""
    return HashingEmbedder().embed([content])[0]


def build_run(path: Path, probe: str = "party", backend: dict | None = None) -> Path:
    """Write the run described in the module docstring to ``path`` and return it.

    ``probe`` names the news item's probe key (the docstring's "party"); ``backend`` is the
    recorded ``config.backend`` table (default: none, i.e. scripted).
    """
    bus = EventBus()
    meta = {
        "town": "Hand",
        "start": START.isoformat(sep=" "),
        "seconds_per_tick": SPT,
        "personas": {pid: {"name": name, "emoji": "🙂"} for pid, name in NAMES.items()},
        "embedder": "hashing",
        "config": {"retrieval": {"k": 10, "weights": [1, 1, 1]}, **({"backend": backend} if backend else {})},
    }
    writer = RunWriter(path, meta)
    bus.subscribe(writer.handle)

    def memory(pid, rid, tick, kind, content, *, probe=None, source=None, evidence=(), subject=None):
        time = START + timedelta(seconds=tick * SPT)
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
            "embedding": _vector(content),
        }
        bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=time, persona=pid, data=data))

    def call(pid, tick, *, request, attempt=1, tokens_in=0, tokens_out=0, hit=False, outcome="ok"):
        # The fields CallRecorder writes: an HTTP attempt (request) or a marker (no request).
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
                    "latency_ms": 5 if request else 0,
                    "cache_hit": hit,
                    "outcome": outcome,
                    "request": request,
                    "attempt": attempt if request else 0,
                    "error": "",
                },
            )
        )

    memory("a", 0, 0, "observation", "I am hosting a party at the cafe.", probe=probe)
    memory("a", 1, 0, "observation", "Bob Brown is my neighbour.", subject="b")
    memory("a", 2, 0, "observation", "Bring a friend on Tuesday evening.", probe=probe)
    memory("b", 0, 0, "observation", "Ann Able lives next door.", subject="a")
    memory("c", 0, 0, "observation", "Dan Dove is my brother.", subject="d")
    memory("d", 0, 0, "observation", "I have a sister.")
    writer.snapshot(-1, START, bus.seq, {"state": "initial"})
    by_tick = {
        1: lambda: (
            memory("b", 1, 1, "chat", 'Ann Able told me: "I am hosting a party at the cafe."',
                   source=("a", 0), subject="a"),
            memory("player_ada", 0, 1, "chat", 'Ann Able told me: "I am hosting a party at the cafe."',
                   source=("a", 0), subject="a"),
        ),
        2: lambda: (
            memory(
                "c", 1, 2, "chat", "Someone said there is a party.", source=("d", 0)
            ),
            memory("c", 2, 2, "reflection", "There may be a party.", evidence=[1]),
        ),
        3: lambda: memory(
            "b", 2, 3, "plan", "Go to the party at the cafe at 17:00.", evidence=[1]
        ),
        4: lambda: memory(
            "c",
            3,
            4,
            "chat",
            'Ann Able told me: "Bring a friend on Tuesday evening."',
            source=("a", 2),
            subject="a",
        ),
        8: lambda: memory(
            "d", 1, 8, "whisper", "I should go to the party at the cafe.", probe=probe
        ),
        9: lambda: memory("d", 2, 9, "observation", "Cat Cole is at the cafe.", subject="c"),
    }
    call("a", 4, request=True, tokens_in=100, tokens_out=20)
    call("a", 5, request=True, tokens_in=100, tokens_out=20)
    call("b", 5, request=True, tokens_in=50, tokens_out=10, outcome="invalid")
    call("b", 5, request=False, outcome="fallback")
    call("b", 5, request=False, hit=True)
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
