"""Tests of World: paths (hand-counted on the tiny map), caching, place and object state."""

import pytest

from town.errors import WorldError
from town.world import Pathfinder, TileMap, World


def _steps_are_legal(tilemap, path):
    return all(tilemap.walkable(*t) for t in path) and all(
        abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:])
    )


def test_straight_path_through_the_door(tiny):
    """From (8, 2) to the chair at (1, 1): 7 steps left through the door, 1 up = 8 moves."""
    path = World(tiny).path((8, 2), (1, 1))
    assert len(path) - 1 == 8
    assert path[0] == (8, 2) and path[-1] == (1, 1) and (4, 2) in path
    assert _steps_are_legal(tiny, path)


def test_path_goes_around_walls(tiny):
    """From (0, 5) to the chair: 5 right, 3 up, 1 in, 3 left, 1 up = 13 moves (Manhattan is 5)."""
    path = World(tiny).path((0, 5), (1, 1))
    assert len(path) - 1 == 13
    assert _steps_are_legal(tiny, path)


def test_path_to_itself_is_one_tile(tiny):
    """A path from a tile to itself holds just that tile."""
    assert World(tiny).path((2, 2), (2, 2)) == [(2, 2)]


def test_paths_are_cached_per_start_and_goal(tiny):
    """The second request for the same ends is served from the cache with an equal path."""
    finder = Pathfinder(tiny)
    first = finder.path((0, 5), (1, 1))
    first.append((99, 99))  # callers may not corrupt the cache
    again = finder.path((0, 5), (1, 1))
    assert (finder.misses, finder.hits) == (1, 1)
    assert len(again) == 14 and again[-1] == (1, 1)
    finder.path((1, 1), (0, 5))
    assert finder.misses == 2


def test_no_path_names_both_tiles_and_addresses():
    """A room with no door cannot be reached; the error names both ends."""
    tilemap = TileMap.from_dict(
        {"world": "w", "size": [6, 4], "sectors": [{"name": "vault", "rect": [0, 0, 3, 3]}]}
    )
    with pytest.raises(WorldError, match=r"no path from \[5, 3\] \(w\) to \[1, 1\] \(w:vault\)"):
        World(tilemap).path((5, 3), (1, 1))
    assert not World(tilemap).reachable((5, 3), (1, 1))


def test_path_end_on_a_wall_is_an_error(tiny):
    """A wall or off-map tile is no path end."""
    with pytest.raises(WorldError, match=r"\[0, 0\] is a wall"):
        World(tiny).path((0, 0), (2, 2))
    with pytest.raises(WorldError, match="outside the map"):
        World(tiny).path((2, 2), (20, 2))


def test_tile_for_prefers_floor_and_near(tiny):
    """tile_for gives an object's own tile, or the nearest free floor tile of a room."""
    world = World(tiny)
    assert world.tile_for("w:house:hall:chair") == (1, 1)
    assert world.tile_for("w:house:hall:table", near=(8, 3)) == (3, 3)
    # hall floor without objects: (2,1) (3,1) (1,2) (2,2) (3,2) (1,3); centre of those is (2, 1.67)
    assert world.tile_for("w:house:hall") == (2, 2)
    assert world.tile_for("w:house", near=(8, 2)) == (4, 2)  # the door
    with pytest.raises(WorldError, match="unknown place"):
        world.tile_for("w:garage")


def test_closing_a_sector_closes_everything_under_it(tiny):
    """close/open work on whole subtrees; a closed object cannot be occupied."""
    world = World(tiny)
    world.close("w:house")
    assert not world.is_open("w:house:hall:chair") and world.is_open("w")
    assert not world.occupy("w:house:hall:chair", "ann")
    world.open("w:house")
    assert world.is_open("w:house:hall:chair")
    world.close("w:house:hall")
    world.open("w:house")  # reopening the sector reopens its rooms
    assert world.is_open("w:house:hall") and world.closed() == ()
    with pytest.raises(WorldError):
        world.close("w:nowhere")


def test_object_capacity(tiny):
    """A chair (capacity 1) is busy with one user; the table takes two."""
    world = World(tiny)
    assert world.occupy("w:house:hall:chair", "ann")
    assert world.busy("w:house:hall:chair")
    assert not world.occupy("w:house:hall:chair", "bob")
    assert world.occupy("w:house:hall:table", "bob") and not world.busy("w:house:hall:table")
    assert world.occupy("w:house:hall:table", "cy") and world.busy("w:house:hall:table")
    world.release("w:house:hall:chair", "ann")
    assert world.occupy("w:house:hall:chair", "bob")
    with pytest.raises(WorldError, match="not an object"):
        world.occupy("w:house:hall", "ann")


def test_state_round_trip(tiny):
    """get_state/set_state restore closed places and occupants."""
    world = World(tiny)
    assert world.occupy("w:house:hall:table", "ann")
    world.close("w:house:hall")
    state = world.get_state()
    assert state == {"closed": ["w:house:hall"], "occupants": {"w:house:hall:table": ["ann"]}}
    other = World(tiny)
    other.set_state(state)
    assert other.get_state() == state and not other.is_open("w:house:hall:chair")
