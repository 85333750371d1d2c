"""Place addresses ``world:sector:arena:object`` (Park et al. 2023 §5.1, the environment tree).

An address names a node of the town's tree: the world (``the_ville``), a sector (a building or
park, ``the_ville:Hobbs Cafe``), an arena (a room, ``the_ville:Hobbs Cafe:cafe``) or a game
object (``the_ville:Hobbs Cafe:cafe:coffee machine``). Prefix matching is by whole parts, so
``the_ville:Hobbs Cafe`` contains ``the_ville:Hobbs Cafe:cafe`` but not ``the_ville:Hobbs Caf``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import WorldError

__all__ = ["Address", "SEPARATOR", "is_within", "sector_address", "sector_name"]

SEPARATOR = ":"
_LEVELS = ("world", "sector", "arena", "object")


@dataclass(frozen=True, kw_only=True)
class Address:
    """A parsed place address with 1 to 4 parts.

    Attributes:
        world: the world's name, e.g. ``the_ville``.
        sector: a building or outdoor area, or None.
        arena: a room inside the sector, or None.
        object: a game object inside the arena, or None.

    Raises:
        WorldError: if a part is empty, contains ``:``, or a deeper part is given without the
            parts above it.
    """

    world: str
    sector: str | None = None
    arena: str | None = None
    object: str | None = None

    def __post_init__(self) -> None:
        parts = (self.world, self.sector, self.arena, self.object)
        seen_gap = False
        for level, part in zip(_LEVELS, parts):
            if part is None:
                seen_gap = True
                continue
            if seen_gap:
                raise WorldError(f"address has a {level} but no part above it: {parts}")
            if not isinstance(part, str) or not part.strip() or SEPARATOR in part:
                raise WorldError(
                    f"address {level} must be a non-empty name without ':', got {part!r}"
                )

    @classmethod
    def parse(cls, text: str) -> Address:
        """Parse ``"world[:sector[:arena[:object]]]"``; surrounding spaces of parts are kept out.

        Raises:
            WorldError: for an empty text, an empty part or more than four parts.
        """
        if not isinstance(text, str) or not text.strip():
            raise WorldError(f"an address must be a non-empty text, got {text!r}")
        parts = [p.strip() for p in text.split(SEPARATOR)]
        if len(parts) > len(_LEVELS):
            raise WorldError(
                f"address {text!r} has {len(parts)} parts; at most 4 (world:sector:arena:object)"
            )
        if any(not p for p in parts):
            raise WorldError(f"address {text!r} has an empty part")
        return cls(**dict(zip(_LEVELS, parts)))

    @property
    def parts(self) -> tuple[str, ...]:
        """The non-empty parts, from world down."""
        return tuple(p for p in (self.world, self.sector, self.arena, self.object) if p is not None)

    @property
    def depth(self) -> int:
        """1 for a world, 2 sector, 3 arena, 4 object."""
        return len(self.parts)

    @property
    def parent(self) -> Address | None:
        """The address one level up, or None for a world."""
        parts = self.parts[:-1]
        return Address(**dict(zip(_LEVELS, parts))) if parts else None

    def child(self, name: str) -> Address:
        """The address one level down named ``name``.

        Raises:
            WorldError: below an object, or for a bad name.
        """
        if self.depth == len(_LEVELS):
            raise WorldError(f"an object address has no children: {self}")
        return Address(**dict(zip(_LEVELS, (*self.parts, name))))

    def contains(self, other: Address | str) -> bool:
        """True if ``other`` is this address or lies under it (whole-part prefix)."""
        other_parts = (Address.parse(other) if isinstance(other, str) else other).parts
        return other_parts[: self.depth] == self.parts

    def __str__(self) -> str:
        return SEPARATOR.join(self.parts)


def is_within(address: str, prefix: str) -> bool:
    """True if the address text ``address`` equals ``prefix`` or lies under it (whole parts).

    Cheap string form of :meth:`Address.contains` for hot loops; neither text is validated.
    """
    return address == prefix or address.startswith(prefix + SEPARATOR)


def sector_name(address: str) -> str:
    """The sector's name in an address text: "Hobbs Cafe" of "the_ville:Hobbs Cafe:cafe".

    A text without a sector part is its own name; the text is not validated.
    """
    parts = address.split(SEPARATOR)
    return parts[1] if len(parts) > 1 else parts[0]


def sector_address(address: str) -> str:
    """An address text cut to its sector: "the_ville:Hobbs Cafe" of "the_ville:Hobbs Cafe:cafe".

    A world alone stays as it is; the text is not validated.
    """
    return SEPARATOR.join(address.split(SEPARATOR)[:2])
