"""Who plays which player: one player per browser tab, each with its own secret.

A tab that joins (``POST /api/player``) gets its player's secret, keeps it for itself
(``sessionStorage``) and sends it with every move and line, and on its Socket.IO connection
(``player`` message, or ``{"player": secret}`` in the connection's auth), so the server knows the
player's tab is open. No tab can move another tab's player: only the secret names a player.

A join is checked at once (the name's form, and that it reads like nobody in the town or among
the players joining: :func:`town.player.check_name`) and answered with the player's id, where it
appears and its secret; the player enters the town as an input (``town.simulation.inputs.Join``)
before the next tick, and a join the town refuses then frees its seat.

When the last connection holding a player's secret closes, the player stays for
``grace_s`` wall seconds (a reload takes it back at once); joining with the same name in that
time takes the player back, with a new secret. After that it leaves the town
(a ``Leave`` input). A player joined but never connected
leaves the same way. A player made with ``serve --player NAME`` has no tab and stays for the
whole run: its secret is printed with the URL.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from town.errors import ConfigError, TownError
from town.names import same_name
from town.player import check_name, player_spec, start_tile
from town.scenario import PersonaSpec
from town.simulation.inputs import Join, Leave, parse_input

__all__ = ["Seat", "Seats", "Joined", "PALETTE", "check_color"]

#: Colours offered to players (and the first one not taken is the default).
PALETTE = ("#f4d35e", "#ee6c4d", "#5fa8d3", "#8ac926", "#c77dff", "#ff8fab", "#2ec4b6", "#fb8500")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what secrets.token_urlsafe gives


def check_color(color: object) -> str | None:
    """A ``#rrggbb`` colour in lower case, or None when none was given.

    Raises:
        ConfigError: naming ``color`` for anything else.
    """
    if color is None or color == "":
        return None
    if not isinstance(color, str) or not _COLOR.match(color):
        raise ConfigError(f"{color!r}: a colour is '#rrggbb'", field="color")
    return color.lower()


@dataclass
class Seat:
    """One player and the tabs playing it.

    Attributes:
        pid: the player's persona id.
        name: its name.
        color: its colour on the map.
        secret: what its tab sends to act as it.
        sids: the Socket.IO connections that hold the secret now.
        permanent: made by ``serve --player``: no tab, never leaves.
        generation: bumped whenever the seat is taken or claimed, so a timer set before is void.
    """

    pid: str
    name: str
    color: str
    secret: str
    sids: set[str] = field(default_factory=set)
    permanent: bool = False
    generation: int = 0

    def public(self) -> dict[str, Any]:
        """What every viewer may know of the player (never the secret)."""
        return {"id": self.pid, "name": self.name, "color": self.color, "here": bool(self.sids) or self.permanent}


@dataclass(frozen=True)
class Joined:
    """The answer to a join: the seat, the joining tab's secret, the player's persona file, the
    tile ``{x, y}`` where it appears, and the id of its Join input (None: a seat taken back)."""

    seat: Seat
    secret: str
    spec: PersonaSpec
    at: dict[str, int]
    input: int | None


class Seats:
    """The players of one live town and their tabs.

    Args:
        runner: the live runner (players join and leave on its thread).
        grace_s: wall seconds a player whose tabs all closed stays before it leaves.
    """

    def __init__(self, runner, grace_s: float):
        self.runner = runner
        self.grace_s = float(grace_s)
        self.seats: dict[str, Seat] = {}
        self._lock = threading.Lock()
        self._timers: dict[str, threading.Timer] = {}
        for pid in sorted(runner.simulation.players):  # `serve --player NAME`
            p = runner.simulation.personas[pid]
            self.seats[pid] = Seat(pid=pid, name=p.name, color=self._free_color(), secret=secrets.token_urlsafe(18),
                                   permanent=True)

    @property
    def simulation(self) -> Any:
        return self.runner.simulation

    def _free_color(self) -> str:
        taken = {s.color for s in self.seats.values()}
        return next((c for c in PALETTE if c not in taken), PALETTE[len(self.seats) % len(PALETTE)])

    def join(self, name: object, color: object = None) -> Joined:
        """Join as ``name`` (or take back the player of that name whose tab closed moments ago).

        Raises:
            ConfigError: naming ``player`` for a bad or taken name (:func:`town.player.check_name`;
                a player whose tab is open is taken), ``name`` for an empty one, or ``color``.
        """
        color = check_color(color)
        join = parse_input({"kind": "join", "name": name if isinstance(name, str) else ""})
        assert isinstance(join, Join)
        tilemap = self.simulation.tilemap
        x, y = start_tile(tilemap)
        with self._lock:
            back = next((s for s in self.seats.values() if same_name(s.name, join.name)), None)
            if back is not None and not back.sids and not back.permanent:
                back.secret = secrets.token_urlsafe(18)
                back.color = color or back.color
                back.generation += 1
                self._leave_later(back)  # the new tab connects soon, or the player leaves after all
                p = self.simulation.personas.get(back.pid)
                at = {"x": x, "y": y} if p is None else {"x": p.x, "y": p.y}
                return Joined(back, back.secret, player_spec(back.pid, back.name, ""), at, None)
            town = {s.id: s.name for s in self.simulation.scenario.personas}
            name = check_name(join.name, {**town, **{s.pid: s.name for s in self.seats.values()}})
            seat = Seat(pid=join.player, name=name, color=color or self._free_color(), secret=secrets.token_urlsafe(18))
            self.seats[seat.pid] = seat
            self._leave_later(seat)
        try:
            input_id = self.runner.submit(join, lambda outcome, _refusal: self._refused(seat, outcome))
        except TownError:
            self._forget(seat)
            raise
        return Joined(seat, seat.secret, player_spec(seat.pid, name, tilemap.address_at(x, y) or ""),
                      {"x": x, "y": y}, input_id)

    def _refused(self, seat: Seat, outcome: dict[str, Any]) -> None:
        """(runner's thread) The town applied a join: a refused one frees its seat."""
        if outcome["state"] == "refused":
            self._forget(seat)

    def _forget(self, seat: Seat) -> None:
        with self._lock:
            if self.seats.get(seat.pid) is seat:
                del self.seats[seat.pid]
            timer = self._timers.pop(seat.pid, None)
        if timer is not None:
            timer.cancel()

    def seat_of(self, secret: object) -> Seat | None:
        """The seat whose secret is ``secret`` (compared in constant time), or None."""
        if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
            return None
        with self._lock:
            for seat in self.seats.values():
                if hmac.compare_digest(seat.secret.encode(), secret.encode()):
                    return seat
        return None

    def attach(self, secret: object, sid: str) -> Seat | None:
        """The connection ``sid`` plays the seat of ``secret`` (its tab is open); None if no seat has it."""
        seat = self.seat_of(secret)
        if seat is None:
            return None
        with self._lock:
            for other in self.seats.values():  # one player per connection
                if other is not seat and sid in other.sids:
                    self._drop(other, sid)
            seat.sids.add(sid)
            seat.generation += 1
            timer = self._timers.pop(seat.pid, None)
        if timer is not None:
            timer.cancel()
        return seat

    def detach(self, sid: str) -> None:
        """The connection ``sid`` closed: a player left with no tab leaves after the grace period."""
        with self._lock:
            for seat in list(self.seats.values()):
                if sid in seat.sids:
                    self._drop(seat, sid)

    def _drop(self, seat: Seat, sid: str) -> None:
        seat.sids.discard(sid)
        if not seat.sids:
            seat.generation += 1
            self._leave_later(seat)

    def _leave_later(self, seat: Seat) -> None:
        """(under the lock) Start the grace period of a seat without a tab."""
        if seat.permanent:
            return
        old = self._timers.pop(seat.pid, None)
        if old is not None:
            old.cancel()
        timer = threading.Timer(self.grace_s, self._expire, (seat.pid, seat.generation))
        timer.daemon = True
        self._timers[seat.pid] = timer
        timer.start()

    def _expire(self, pid: str, generation: int) -> None:
        with self._lock:
            seat = self.seats.get(pid)
            if seat is None or seat.generation != generation or seat.sids:
                return
            del self.seats[pid]
            self._timers.pop(pid, None)
        if self.runner.status()["state"] in ("stopped", "finished", "failed"):
            return  # the run is over: the player goes with it
        try:
            self.runner.submit(Leave(player=pid))
        except TownError:
            pass  # the run ended meanwhile (its file closed): the player goes with it

    def players(self) -> list[dict[str, Any]]:
        """Every player's public face, by id."""
        with self._lock:
            return [self.seats[pid].public() for pid in sorted(self.seats)]

    def close(self) -> None:
        """Cancel the grace timers (the app is closing)."""
        with self._lock:
            timers, self._timers = list(self._timers.values()), {}
        for timer in timers:
            timer.cancel()
