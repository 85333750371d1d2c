"""Tests of TileMap: walls, addresses, map-file checks, the viewer dict and Tiled maps."""

import json

import pytest

from town.errors import ConfigError
from town.world import TileMap, load_tilemap


def test_walls_doors_and_addresses(tiny):
    """Outline tiles are walls except the door; each tile carries its deepest address."""
    assert tiny.collision_rows() == [
        "#####....",
        "#...#....",
        "#........",
        "#...#....",
        "#####....",
        ".........",
    ]
    assert not tiny.walkable(0, 0) and tiny.address_at(0, 0) is None
    assert tiny.address_at(4, 2) == "w:house"  # the door belongs to the sector
    assert tiny.address_at(2, 2) == "w:house:hall"
    assert tiny.address_at(1, 1) == "w:house:hall:chair"
    assert tiny.address_at(7, 5) == "w"  # street
    assert not tiny.walkable(9, 0) and not tiny.walkable(-1, 0)


def test_tiles_by_prefix(tiny):
    """tiles() lists the walkable tiles under an address, row by row."""
    assert tiny.tiles("w:house:hall:table") == [(2, 3), (3, 3)]
    assert len(tiny.tiles("w:house:hall")) == 9
    assert len(tiny.tiles("w:house")) == 10  # hall + door
    assert len(tiny.tiles("w")) == 9 * 6 - 15  # all but the 15 wall tiles
    assert tiny.tiles("w:hous") == []
    assert tiny.addresses() == (
        "w:house",
        "w:house:hall",
        "w:house:hall:chair",
        "w:house:hall:table",
    )
    assert tiny.capacity("w:house:hall:table") == 2 and tiny.capacity("w:house:hall:chair") == 1


def test_to_dict_shape(tiny):
    """The viewer dict holds sectors, arenas, objects with rects and the collision rows."""
    d = tiny.to_dict()
    assert (d["world"], d["width"], d["height"]) == ("w", 9, 6)
    assert d["sectors"] == [
        {
            "name": "house",
            "address": "w:house",
            "label": "house",
            "kind": "",
            "color": "#aabbcc",
            "rect": [0, 0, 5, 5],
            "walls": True,
            "doors": [[4, 2]],
        }
    ]
    assert d["arenas"][0]["address"] == "w:house:hall" and d["arenas"][0]["rect"] == [1, 1, 3, 3]
    assert [o["rect"] for o in d["objects"]] == [[1, 1, 1, 1], [2, 3, 2, 1]]
    assert d["collision"][2] == "#........" and d["obstacles"] == []
    json.dumps(d)


@pytest.mark.parametrize(
    "edit, field, reason",
    [
        (lambda d: d["sectors"][0].pop("rect"), "sectors[0].rect", "missing required field"),
        (
            lambda d: d["sectors"][0].update(doors=[[2, 2]]),
            "sectors[0].doors[0]",
            "not on the outline",
        ),
        (
            lambda d: d["sectors"][0]["arenas"][0]["objects"][0].update(at=[8, 5]),
            "sectors[0].arenas[0].objects[0]",
            "outside its arena",
        ),
        (
            lambda d: d["sectors"][0]["arenas"][0]["objects"][1].update(capacity=0),
            "objects[1].capacity",
            ">= 1",
        ),
        (lambda d: d["sectors"][0].update(colour="#000000"), "sectors[0].colour", "unknown field"),
        (lambda d: d["sectors"][0].update(kind="castle"), "sectors[0].kind",
         "must be one of home, shop, work, school, park, got 'castle'"),
        (
            lambda d: d["sectors"].append({"name": "shed", "rect": [4, 4, 3, 2]}),
            "sectors[1].rect",
            "overlaps",
        ),
    ],
)
def test_bad_map_errors_name_file_field_and_reason(tiny_data, edit, field, reason):
    """Each map mistake is a ConfigError naming the file, the field and what is wrong."""
    edit(tiny_data)
    with pytest.raises(ConfigError) as err:
        TileMap.from_dict(tiny_data, file="tiny.yaml")
    assert "tiny.yaml" in str(err.value) and field in str(err.value) and reason in str(err.value)


def test_object_on_a_wall_is_refused(tiny_data):
    """An object on the outline of a walled arena is an error naming the object and tile."""
    tiny_data["sectors"][0]["arenas"][0]["walls"] = True
    with pytest.raises(
        ConfigError,
        match=r"tiny.yaml: sectors\[0\].arenas\[0\].objects\[0\]: "
        r"object 'chair' sits on wall tile \[1, 1\]",
    ):
        TileMap.from_dict(tiny_data, file="tiny.yaml")


def test_tiled_json_map_loads_like_yaml(tmp_path, tiny):
    """A .tmj with a collision layer and sector/arena/object rectangles gives the same addresses."""
    wall = [
        [
            1 if (x in (0, 4) or y in (0, 4)) and (x, y) != (4, 2) and x < 5 and y < 5 else 0
            for x in range(9)
        ]
        for y in range(6)
    ]

    def obj(i, name, cls, x, y, w, h, **props):
        return {
            "id": i,
            "name": name,
            "type": cls,
            "x": x * 16,
            "y": y * 16,
            "width": w * 16,
            "height": h * 16,
            "rotation": 0,
            "visible": True,
            "properties": [
                {"name": k, "type": "int" if isinstance(v, int) else "string", "value": v}
                for k, v in props.items()
            ],
        }

    tmj = {
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": 9,
        "height": 6,
        "tilewidth": 16,
        "tileheight": 16,
        "nextlayerid": 3,
        "nextobjectid": 5,
        "tilesets": [],
        "properties": [{"name": "world", "type": "string", "value": "w"}],
        "layers": [
            {
                "id": 1,
                "name": "collision",
                "type": "tilelayer",
                "width": 9,
                "height": 6,
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "data": [v for row in wall for v in row],
            },
            {
                "id": 2,
                "name": "places",
                "type": "objectgroup",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "draworder": "topdown",
                "objects": [
                    obj(1, "house", "sector", 0, 0, 5, 5, color="#aabbcc"),
                    obj(2, "hall", "arena", 1, 1, 3, 3),
                    obj(3, "chair", "object", 1, 1, 1, 1),
                    obj(4, "table", "object", 2, 3, 2, 1, capacity=2),
                ],
            },
        ],
    }
    path = tmp_path / "tiny.tmj"
    path.write_text(json.dumps(tmj))
    m = load_tilemap(path)
    assert m.collision_rows() == tiny.collision_rows()
    for x in range(9):
        for y in range(6):
            assert m.address_at(x, y) == tiny.address_at(x, y), (x, y)
    assert m.capacity("w:house:hall:table") == 2


@pytest.mark.parametrize("town", ["the_ville", "smallville"])
def test_places_and_objects_under_match_a_scan_of_every_address(town):
    """The indexed look-ups equal a scan of all addresses (the reference), for every address."""
    from pathlib import Path

    m = load_tilemap(Path(__file__).resolve().parents[2] / "personas" / town / "map.yaml")
    every = m.addresses()
    assert m.places() == tuple(a for a in every if len(a.split(":")) in (2, 3))
    objects = [a for a in every if len(a.split(":")) == 4]
    assert len(objects) > 20
    for place in (m.world, *every, "", "nowhere", f"{m.world}:nowhere"):
        scan = tuple(sorted(o for o in objects if o.startswith(place + ":")))
        assert m.objects_under(place) == scan, place
