"""Who plays which player: one player per browser tab, each with its own secret.

A tab that joins (``POST /api/player``) gets its player's secret, keeps it for itself
(``sessionStorage``) and sends it with every move and line, and on its Socket.IO connection
(``player`` message, or ``{"player": secret}`` in the connection's auth), so the server knows the
player's tab is open. No tab can move another tab's player: only the secret names a player.

When the last connection holding a player's secret closes, the player stays for
``grace_s`` wall seconds (a reload takes it back at once); joining with the same name in that
time takes the player back, with a new secret. After that it leaves the town
(:func:`town.player.remove_player`, on the runner's thread). A player joined but never connected
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
from town.player import add_player, remove_player

__all__ = ["Seat", "Seats", "PALETTE", "check_color"]

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

    def join(self, name: object, color: object = None) -> tuple[Seat, str]:
        """Join as ``name`` (or take back the player of that name whose tab closed moments ago).

        Returns:
            (the seat, the new secret for the joining tab).

        Raises:
            ConfigError: naming ``player`` for a bad or taken name (:func:`town.player.add_player`;
                a player whose tab is open is taken), or ``color``.
        """
        color = check_color(color)
        wanted = " ".join(str(name if isinstance(name, str) else "").split())
        with self._lock:
            back = next((s for s in self.seats.values() if s.name.lower() == wanted.lower()), None)
            if back is not None:
                if back.sids or back.permanent:
                    raise ConfigError(f"{back.name!r} is already someone in the town; choose another name",
                                      field="player")
                back.secret = secrets.token_urlsafe(18)
                back.color = color or back.color
                back.generation += 1
                self._leave_later(back)  # the new tab connects soon, or the player leaves after all
                return back, back.secret
        pid = self.runner.call(lambda: add_player(self.simulation, wanted))
        with self._lock:
            seat = Seat(pid=pid, name=self.simulation.personas[pid].name, color=color or self._free_color(),
                        secret=secrets.token_urlsafe(18))
            self.seats[pid] = seat
            self._leave_later(seat)
            return seat, seat.secret

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
            self.runner.call(lambda: remove_player(self.simulation, pid) if pid in self.simulation.players else None)
        except (TimeoutError, TownError):
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
