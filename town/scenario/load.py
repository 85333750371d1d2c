"""Loading a town folder: find it, read each file, check every place is reachable -> Scenario.

A town is ``personas/<town>/`` holding ``map.yaml`` (or ``map.tmj``), ``town.yaml``, one
``<persona_id>.yaml`` per persona and optionally ``events.yaml`` and ``probes.yaml``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..clock import GameClock
from ..errors import ConfigError
from ..names import look_alike_keys, reading_form
from ..world import TileMap, World, load_tilemap
from ..world.fields import Fields
from ..world.tilemap import find_map
from .checks import ID, game_time, read_yaml
from .events_file import read_events
from .persona_file import read_persona
from .persona_spec import PersonaSpec
from .probes_file import read_probes
from .town_spec import NetworkProbe, Scenario

__all__ = ["TOWNS_DIR", "load_scenario"]

#: The project's towns folder: ``personas/`` in a checkout, reached through the link ``town/towns``;
#: an installed package holds a copy of it there (package data).
TOWNS_DIR = (Path(__file__).resolve().parent.parent / "towns").resolve()
_SPECIAL = ("map", "town", "events", "probes")


def _town(path: Path) -> tuple[str, datetime]:
    f = Fields(path)
    data = f.mapping(read_yaml(path), "", ("name", "start"))
    start = game_time(f, data, "start", "")
    try:
        GameClock(start)  # its year range (1900-2999), said here with the file's name
    except ConfigError as exc:
        raise f.error("start", exc.reason) from None
    return f.get(data, "name", str), start


def _check_names(personas: list[tuple[Path, PersonaSpec]]) -> None:
    """Refuse two personas with one name as read (case, accents, punctuation aside) or names that
    look alike (:mod:`town.names`).

    ``--persona NAME`` and "<name> told me" must each mean one persona.

    Raises:
        ConfigError: naming the later file, ``name`` and the file of the persona that has it (or
            one like it) first.
    """
    first: dict[str, tuple[Path, PersonaSpec]] = {}
    for path, spec in personas:
        for key in look_alike_keys(spec.name):
            taken_path, taken = first.setdefault(key, (path, spec))
            if taken_path == path:
                continue
            if reading_form(taken.name) == reading_form(spec.name):
                raise ConfigError(f"{spec.name!r} is already the name of {taken_path.stem}; give each persona "
                                  "its own name", file=path, field="name")
            raise ConfigError(f"{spec.name!r} looks like {taken.name!r}, the name in {taken_path}; give each "
                              "persona a name of its own", file=path, field="name")


def _check_reachable(tilemap: TileMap, personas: list[tuple[Path, PersonaSpec]]) -> None:
    world = World(tilemap)
    anchor: tuple[str, tuple[int, int]] | None = None
    for path, spec in personas:
        places = [("home", spec.home)] + [
            (f"routine[{i}].place", r.place) for i, r in enumerate(spec.routine)
        ]
        for field_, place in places:
            tiles = tilemap.tiles(place)
            if not tiles:
                raise ConfigError(f"place {place!r} has no walkable tile", file=path, field=field_)
            tile = world.tile_for(place)
            if anchor is None:
                anchor = (place, tile)
            elif not world.reachable(anchor[1], tile):
                raise ConfigError(
                    f"no path reaches {place!r} from {anchor[0]!r}", file=path, field=field_
                )


def _given(path: Path) -> bool:
    """Whether an optional file (``events.yaml``, ``probes.yaml``) is there at all: a folder or a
    broken link of that name is given too, and refused when read, not taken as no file (a town
    whose ``events.yaml`` was a link to a moved file ran without its events, saying nothing)."""
    return path.exists() or path.is_symlink()


def _resolve(folder_or_name: str | Path, towns_dir: Path) -> Path:
    candidate = Path(folder_or_name)
    if candidate.is_dir():
        return candidate
    if len(candidate.parts) == 1 and (towns_dir / candidate).is_dir():
        return towns_dir / candidate
    towns = sorted(p.name for p in towns_dir.iterdir() if p.is_dir()) if towns_dir.is_dir() else []
    raise ConfigError(
        f"no town folder {str(folder_or_name)!r}; "
        f"towns in {towns_dir}: {', '.join(towns) or 'none'}",
        file=folder_or_name,
    )


def load_scenario(folder_or_name: str | Path, *, towns_dir: str | Path = TOWNS_DIR) -> Scenario:
    """Load and check a town folder.

    Args:
        folder_or_name: a folder, or a bare town name resolved in ``towns_dir`` (``"the_ville"``).
        towns_dir: where bare names are looked up (default: the project's ``personas/``).

    Returns:
        The :class:`Scenario`; personas sorted by id, events by time.

    Raises:
        ConfigError: naming the file, the field and the reason for any invalid or missing file,
            and for a home or routine place that no path reaches from the others.
    """
    folder = _resolve(folder_or_name, Path(towns_dir))
    tilemap = load_tilemap(find_map(folder))
    persona_paths = sorted(p for p in folder.glob("*.yaml") if p.stem not in _SPECIAL)
    if not persona_paths:
        raise ConfigError("no persona files (<persona_id>.yaml) in the town folder", file=folder)
    for p in persona_paths:
        if not ID.match(p.stem):
            raise ConfigError("a persona id (the file name) must match [a-z0-9_]+", file=p)
    ids = {p.stem for p in persona_paths}
    town_path = folder / "town.yaml"
    if not town_path.is_file():
        raise ConfigError("town file not found (needs name and start)", file=town_path)
    name, start = _town(town_path)
    probes_path = folder / "probes.yaml"
    probes, network = read_probes(probes_path, tilemap, ids) if _given(probes_path) else ((), NetworkProbe())
    probe_names = {pr.name for pr in probes}
    personas = [(p, read_persona(p, tilemap, ids, probe_names)) for p in persona_paths]
    _check_names(personas)
    _check_reachable(tilemap, personas)
    events_path = folder / "events.yaml"
    events = read_events(events_path, tilemap, ids, probe_names) if _given(events_path) else ()
    return Scenario(
        name=name,
        folder=folder,
        start=start,
        tilemap=tilemap,
        personas=tuple(s for _, s in personas),
        events=events,
        probes=probes,
        network=network,
    )
