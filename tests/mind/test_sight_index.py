"""The sight index finds exactly whom a scan of everyone finds (a brute-force reference)."""

from __future__ import annotations

import random

from town.mind.perceive import SightIndex, Appearance, in_sight


def _town(rng: random.Random, n: int) -> dict[str, Appearance]:
    arenas = ["w", "w:Park", "w:Cafe:cafe", "w:Cafe:kitchen", "w:Home:bedroom", ""]
    views = {}
    for i in range(n):
        views[f"p{i}"] = Appearance(id=f"p{i}", name=f"P {i}", x=rng.randrange(60), y=rng.randrange(40),
                              arena=rng.choice(arenas), action="reading", kind=rng.choice(["do", "walk", "sleep"]),
                              address="w", conversation=None)
    return views


def test_index_candidates_in_sight_equal_a_scan_of_everyone():
    """For 300 random people on rooms and open ground, at radii 1, 4 and 9, every person's set in
    sight (awake, not itself) through the index equals the set found by checking everyone."""
    rng = random.Random(11)
    for radius in (1, 4, 9):
        views = _town(rng, 300)
        index = SightIndex(views, radius)
        for me in views.values():
            scan = {o.id for o in views.values()
                    if o.id != me.id and o.kind != "sleep" and in_sight(me, o, radius)}
            found = {o.id for o in index.near(me) if o.id != me.id and in_sight(me, o, radius)}
            assert found == scan, (radius, me)


def test_a_sleeper_is_not_indexed_and_off_map_sees_nobody():
    """Sleepers are never candidates; a view with no arena (off the map) gets no candidates."""
    views = {"a": Appearance(id="a", name="A", x=0, y=0, arena="w", action="sleeping", kind="sleep", address="w",
                       conversation=None),
             "b": Appearance(id="b", name="B", x=1, y=0, arena="w", action="idle", kind="do", address="w",
                       conversation=None),
             "c": Appearance(id="c", name="C", x=1, y=0, arena="", action="idle", kind="do", address="",
                       conversation=None)}
    index = SightIndex(views, 4)
    assert [v.id for v in index.near(views["b"])] == ["b"]
    assert index.near(views["c"]) == []
