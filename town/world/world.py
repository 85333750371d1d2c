"""World: the changing state of a town's places and objects over a fixed :class:`TileMap`.

Places can be closed and reopened (closing a sector closes everything under it); objects are
used by up to ``capacity`` personas at once (a bed 1, a cafe table several). Paths come from
:class:`~town.world.pathfinding.Pathfinder`.
"""

from __future__ import annotations

from typing import Any

from ..errors import WorldError
from .address import is_within
from .pathfinding import Pathfinder
from .tilemap import Tile, TileMap

__all__ = ["World"]


class World:
    """Place and object state of one town.

    Args:
        tilemap: the town's map.
    """

    def __init__(self, tilemap: TileMap):
        self.tilemap = tilemap
        self._paths = Pathfinder(tilemap)
        self._closed: set[str] = set()
        self._occupants: dict[str, list[str]] = {}

    def _known(self, address: str) -> str:
        if not isinstance(address, str) or not self.tilemap.has_address(address):
            raise WorldError(f"unknown place {address!r} on map {self.tilemap.world!r}")
        return address

    def _object(self, address: str) -> str:
        if not self.tilemap.is_object(self._known(address)):
            raise WorldError(f"{address!r} is a place, not an object; only objects are occupied")
        return address

    def close(self, address: str) -> None:
        """Close a place (and everything under it) until :meth:`open`.

        Raises:
            WorldError: for an unknown address.
        """
        self._closed.add(self._known(address))

    def open(self, address: str) -> None:
        """Reopen a place and every closed place under it.

        A place stays closed while a place above it is closed.

        Raises:
            WorldError: for an unknown address.
        """
        self._known(address)
        self._closed = {c for c in self._closed if not is_within(c, address)}

    def is_open(self, address: str) -> bool:
        """False if ``address`` or any place above it is closed.

        Raises:
            WorldError: for an unknown address.
        """
        self._known(address)
        return not any(is_within(address, c) for c in self._closed)

    def closed(self) -> tuple[str, ...]:
        """The places closed explicitly, sorted."""
        return tuple(sorted(self._closed))

    def occupants(self, address: str) -> tuple[str, ...]:
        """Persona ids using the object, in the order they started."""
        return tuple(self._occupants.get(self._object(address), ()))

    def busy(self, address: str) -> bool:
        """True if the object is used by ``capacity`` personas already."""
        return len(self.occupants(address)) >= self.tilemap.capacity(address)

    def occupy(self, address: str, persona: str) -> bool:
        """Start using an object.

        Returns:
            True if ``persona`` now uses it (also when it already did); False if the object is
            busy with others or its place is closed.

        Raises:
            WorldError: if ``address`` is not an object of the map.
        """
        users = self._occupants.get(self._object(address), [])
        if persona in users:
            return True
        if len(users) >= self.tilemap.capacity(address) or not self.is_open(address):
            return False
        self._occupants[address] = [*users, persona]
        return True

    def release(self, address: str, persona: str) -> None:
        """Stop ``persona`` using the object (no-op if it did not).

        Raises:
            WorldError: if ``address`` is not an object of the map.
        """
        users = self._occupants.get(self._object(address), [])
        if persona in users:
            users.remove(persona)
        if not users:
            self._occupants.pop(address, None)

    def release_all(self, persona: str) -> None:
        """Stop ``persona`` using any object."""
        for address in list(self._occupants):
            self.release(address, persona)

    def tile_for(self, address: str, near: Tile | None = None) -> Tile:
        """A walkable tile of ``address``, chosen deterministically.

        For a sector or arena, tiles without objects are preferred. With ``near``, the tile at the
        least Manhattan distance from it; otherwise the tile closest to the middle of the place.
        Ties go to the smaller ``(y, x)``.

        Raises:
            WorldError: for an unknown address or one without a walkable tile.
        """
        tiles = self.tilemap.tiles(self._known(address))
        if not tiles:
            raise WorldError(f"place {address!r} has no walkable tile")
        if not self.tilemap.is_object(address):
            floor = [t for t in tiles if not self.tilemap.is_object(self.tilemap.address_at(*t))]
            tiles = floor or tiles
        if near is not None:
            nx_, ny = near
            return min(tiles, key=lambda t: (abs(t[0] - nx_) + abs(t[1] - ny), t[1], t[0]))
        cx = sum(t[0] for t in tiles) / len(tiles)
        cy = sum(t[1] for t in tiles) / len(tiles)
        return min(tiles, key=lambda t: ((t[0] - cx) ** 2 + (t[1] - cy) ** 2, t[1], t[0]))

    def path(self, start: Tile, goal: Tile) -> list[Tile]:
        """Shortest 4-neighbour walking path (both ends included), cached per ``(start, goal)``.

        Raises:
            WorldError: if an end is not walkable or no path exists (naming both tiles).
        """
        return self._paths.path(start, goal)

    def reachable(self, start: Tile, goal: Tile) -> bool:
        """True if a walking path joins the two walkable tiles."""
        return self._paths.reachable(start, goal)

    def get_state(self) -> dict[str, Any]:
        """JSON-able state: ``{"closed": [addresses], "occupants": {object: [persona ids]}}``."""
        return {
            "closed": sorted(self._closed),
            "occupants": {a: list(u) for a, u in sorted(self._occupants.items()) if u},
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`get_state` output.

        Raises:
            WorldError: if the state names places or objects this map lacks.
        """
        closed = {self._known(a) for a in state.get("closed", [])}
        occupants = {self._object(a): list(u) for a, u in state.get("occupants", {}).items()}
        self._closed, self._occupants = closed, occupants
