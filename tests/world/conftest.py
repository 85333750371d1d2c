"""A tiny hand-drawn map shared by the world tests."""

import copy

import pytest

from town.world import TileMap

# 9 x 6 tiles. The house is rect [0, 0, 5, 5] with walls on its outline and one door at (4, 2).
# Its room "hall" (open arena) fills the interior [1, 1, 3, 3] and holds a one-seat chair at
# (1, 1) and a 2-seat table covering (2, 3)-(3, 3).
#
#   x 012345678
#   0 #####....
#   1 #c..#....
#   2 #...D....
#   3 #.tt#....
#   4 #####....
#   5 .........
TINY = {
    "world": "w",
    "size": [9, 6],
    "sectors": [
        {
            "name": "house",
            "rect": [0, 0, 5, 5],
            "color": "#aabbcc",
            "doors": [[4, 2]],
            "arenas": [
                {
                    "name": "hall",
                    "rect": [1, 1, 3, 3],
                    "objects": [
                        {"name": "chair", "at": [1, 1]},
                        {"name": "table", "rect": [2, 3, 2, 1], "capacity": 2},
                    ],
                }
            ],
        }
    ],
}


@pytest.fixture
def tiny_data() -> dict:
    """A fresh copy of the tiny map document above."""
    return copy.deepcopy(TINY)


@pytest.fixture
def tiny(tiny_data) -> TileMap:
    """The tiny map above."""
    return TileMap.from_dict(tiny_data, file="tiny.yaml")
