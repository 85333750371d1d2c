"""A persona's procedural memory: its own library, the shared town library, the episode under way."""

from __future__ import annotations

from typing import Any

from .episode import Episode
from .library import ProcedureLibrary

__all__ = ["ProceduralMemory"]


class ProceduralMemory:
    """What a persona knows how to do (docs/design, §2).

    Args:
        own: the persona's procedure library (in the persona's state).
        town: the shared town library (anonymised procedures; in the simulation's state), or None.
        roster: (name, home address) of every persona of the town, for anonymisation.

    Attributes:
        episode: the task attempt being carried out and verified, or None.
    """

    def __init__(
        self,
        own: ProcedureLibrary,
        town: ProcedureLibrary | None = None,
        roster: tuple[tuple[str, str], ...] = (),
    ):
        self.own = own
        self.town = town
        self.roster = tuple(roster)
        self.episode: Episode | None = None

    def library(self, which: str) -> ProcedureLibrary:
        """``"persona"`` -> the own library, ``"town"`` -> the town library.

        Raises:
            KeyError: for another name, or "town" when there is no town library.
        """
        lib = {"persona": self.own, "town": self.town}[which]
        if lib is None:
            raise KeyError("town")
        return lib

    def get_state(self) -> dict[str, Any]:
        """JSON-able: ``{"library": ProcedureLibrary state, "episode": Episode dict | None}``."""
        return {
            "library": self.own.get_state(),
            "episode": None if self.episode is None else self.episode.to_dict(),
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`get_state` output (the town library is restored by its owner)."""
        self.own.set_state(state["library"])
        self.episode = None if state["episode"] is None else Episode.from_dict(state["episode"])
