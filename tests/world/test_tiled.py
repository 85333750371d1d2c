"""Tiled maps: the example town, and awkward inputs (town.world.tiled, tilemap.find_map).

Each awkward input either works or is refused with one line naming the file and the layer or
object.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_cli

from town.config import load_config
from town.errors import ConfigError
from town.events import EventKind
from town.scenario import load_scenario
from town.simulation import Simulation
from town.world.tilemap import load_tilemap

EXAMPLE = Path(__file__).resolve().parents[2] / "personas" / "tiled_example"
RAW = json.loads((EXAMPLE / "map.tmj").read_text())


def walls_of(raw: dict) -> set[tuple[int, int]]:
    """Wall tiles read straight from the JSON: non-zero cells of the 'collision' tile layer."""
    layer = next(layer for layer in raw["layers"] if layer["name"].lower() == "collision")
    width = raw["width"]
    return {(i % width, i // width) for i, gid in enumerate(layer["data"]) if gid}


def objects_of(raw: dict) -> list[dict]:
    """Every object of the map's object layers, group layers included."""
    out, todo = [], list(raw["layers"])
    while todo:
        layer = todo.pop()
        todo.extend(layer.get("layers", []))
        out.extend(layer.get("objects", []))
    return out


def write(tmp_path: Path, raw: dict | str, name: str = "map.tmj") -> Path:
    """A copy of the example town whose map is ``raw`` (a document, or text as it is)."""
    folder = tmp_path / "town"
    shutil.copytree(EXAMPLE, folder, dirs_exist_ok=True)
    (folder / name).write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return folder


def refused(path: Path, *needles: str) -> str:
    """The one-line message of loading ``path``'s map; it names the file and each needle."""
    with pytest.raises(ConfigError) as caught:
        load_tilemap(path) if path.suffix else load_scenario(path)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    for needle in (str(path.name), *needles):
        assert needle in message, (needle, message)
    return message


def test_example_map_walls_and_places_match_its_json():
    """The loader's walls are the collision layer's cells (plus the pond obstacle).

    Objects in a group layer get their addresses (the bed at its pixel position / 16).
    """
    m = load_tilemap(EXAMPLE / "map.tmj")
    rows = m.collision_rows()
    pond = {(x, y) for x in (11, 12) for y in (16, 17)}  # the obstacle, a wall too
    assert {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"} == walls_of(RAW) | pond
    bed = next(o for o in objects_of(RAW) if o["name"] == "bed")
    assert m.address_at(bed["x"] // 16, bed["y"] // 16) == "meadowbrook:Cottage:bedroom:bed"
    flowers = next(o for o in objects_of(RAW) if o["name"] == "flower beds")
    assert m.address_at(flowers["x"] // 16 + 1, flowers["y"] // 16 + 1) == "meadowbrook:The Green:lawn:flower beds"


def test_example_town_lives_one_game_hour_without_crossing_a_wall():
    """One game hour (360 ticks) of the example: nobody stands on a wall tile.

    Ada, whose routine says 'sell bread at the counter' from 07:30, is at the counter by 08:00.
    """
    sim = Simulation(load_scenario(EXAMPLE), load_config(None, {"embedder": "hashing"}))
    frames = []
    sim.bus.subscribe(lambda e: frames.append(e) if e.kind is EventKind.FRAME else None)
    try:
        sim.run(360)
    finally:
        sim.close()
    assert len(frames) == 360
    walls = walls_of(RAW)
    for frame in frames:
        for pid, p in frame.data["personas"].items():
            assert (p["x"], p["y"]) not in walls, (frame.tick, pid)
    assert frames[-1].data["personas"]["ada_brandt"]["address"] == "meadowbrook:Bakery:shop:counter"


def test_collision_layer_name_in_any_case(tmp_path):
    """A layer named 'Collision' gives the same walls as 'collision'."""
    raw = copy.deepcopy(RAW)
    raw["layers"][0]["name"] = "Collision"
    m = load_tilemap(write(tmp_path, raw) / "map.tmj")
    assert m.collision_rows() == load_tilemap(EXAMPLE / "map.tmj").collision_rows()


def test_group_layer_offsets_add_up(tmp_path):
    """Objects in a group moved by (16, 0) px land one tile further right."""
    raw = copy.deepcopy(RAW)
    group = raw["layers"][1]
    group["offsetx"], group["offsety"] = 16, 0
    for layer in group["layers"]:
        for o in layer["objects"]:
            o["x"] -= 16
    m = load_tilemap(write(tmp_path, raw) / "map.tmj")
    assert m.address_at(20, 3) == "meadowbrook:Cottage:bedroom:bed"


def test_half_an_offset_is_refused(tmp_path):
    """A group with offsetx but no offsety -> one line naming the layer (not a KeyError)."""
    raw = copy.deepcopy(RAW)
    raw["layers"][1]["offsetx"] = 16
    message = refused(write(tmp_path, raw) / "map.tmj", "layer 'town'", "offsety")
    assert "KeyError" not in message


def test_isometric_map_is_refused(tmp_path):
    """An 'isometric' orientation -> one line naming the file and orientation."""
    raw = copy.deepcopy(RAW)
    raw["orientation"] = "isometric"
    refused(write(tmp_path, raw) / "map.tmj", "orientation", "isometric")


@pytest.mark.parametrize(("key", "value", "says"), [
    ("width", "wide", "'wide'"),         # was a bare ValueError from int('wide')
    ("height", 12.5, "12.5"),            # half a tile
    ("width", 10**6, "1000000"),         # was a collision grid of 10**6 x height built first
])
def test_map_size_that_is_no_tile_count_is_refused(tmp_path, key, value, says):
    """A Tiled width/height that is no whole number of tiles in 1..1000 -> one line naming it."""
    raw = copy.deepcopy(RAW)
    raw[key] = value
    refused(write(tmp_path, raw) / "map.tmj", key, "whole number of tiles from 1 to 1000", says)


def _things(raw: dict) -> list[dict]:
    return next(layer for layer in raw["layers"][1]["layers"] if layer["name"] == "things")["objects"]


@pytest.mark.parametrize(("change", "says"), [
    (lambda o: o.update(ellipse=True), "ellipse"),
    (lambda o: o.update(rotation=90), "rotated by 90 degrees"),
    (lambda o: o.update(polygon=[{"x": 0, "y": 0}, {"x": 16, "y": 0}, {"x": 0, "y": 16}]), "polygon"),
    (lambda o: o.update(polyline=[{"x": 0, "y": 0}, {"x": 16, "y": 0}]), "polyline"),
])
def test_shapes_other_than_rectangles_are_refused(tmp_path, change, says):
    """An ellipse, rotated, polygon or polyline 'oven' -> one line naming layer and object."""
    raw = copy.deepcopy(RAW)
    oven = next(o for o in _things(raw) if o["name"] == "oven")
    change(oven)
    refused(write(tmp_path, raw) / "map.tmj", "layer 'things'", "object 'oven'", says)


@pytest.mark.parametrize(("change", "where", "says"), [
    (lambda raw: raw.update(tilewidth=0), "tilewidth", "must be a whole number of pixels >= 1, got 0"),
    (lambda raw: raw.update(tileheight=None), "tileheight", "must be a whole number of pixels >= 1, got None"),
    (lambda raw: raw.update(layers=-1), "layers", "must be a list of layers, got -1"),
    (lambda raw: raw["layers"][0].update(name=None), "layer None", "name must be text, got None"),
    (lambda raw: raw["layers"][1].update(layers={"a": 1}), "layer 'town'", "must be a list of layers, got {'a': 1}"),
    (lambda raw: _things(raw)[0].update(type=-1), "layer 'things', object 'counter' (id 9)",
     "type must be text, got -1"),
    (lambda raw: _things(raw)[0].update(width=None), "layer 'things', object 'counter' (id 9)",
     "width must be a finite number, got None"),
    (lambda raw: _things(raw)[0].update(rotation="x"), "layer 'things', object 'counter' (id 9)",
     "rotation must be a finite number, got 'x'"),
])
def test_a_field_of_the_wrong_type_is_named(tmp_path, change, where, says):
    """A tile width of 0 was a ZeroDivisionError, of null a TypeError; a layer named null an
    AttributeError; ``"rotation": "x"`` a ValueError from its format: one line naming the field."""
    raw = copy.deepcopy(RAW)
    change(raw)
    assert _things(RAW)[0]["name"] == "counter"
    path = write(tmp_path, raw) / "map.tmj"
    with pytest.raises(ConfigError) as caught:
        load_tilemap(path)
    assert (caught.value.file, caught.value.field, caught.value.reason) == (str(path), where, says)


def test_tile_layer_without_data_is_refused(tmp_path):
    """A tile layer with no 'data' -> one line naming the file and the layer (not a TypeError)."""
    raw = copy.deepcopy(RAW)
    del raw["layers"][0]["data"]
    refused(write(tmp_path, raw) / "map.tmj", "layer 'collision'", "no data")


@pytest.mark.parametrize(("data", "encoding", "says"), [
    ("notalist", None, '"data" is text but "encoding" is None, not "base64"'),
    ({"0": 1}, None, '"data" must be a list of tile ids, got dict'),
    ([0] * 639, None, '"data" holds 639 tile ids, not width x height = 32 x 20'),
    ([0] * 639 + ["1"], None, "\"data\" holds '1', not a tile id"),
    ([0] * 639 + [-1], None, '"data" holds -1, not a tile id'),
    ("AAAAAA==", "base64", "its tiles do not fill the 32 x 20 map"),  # one tile of 640
])
def test_collision_data_that_is_no_grid_of_tiles_is_refused(tmp_path, data, encoding, says):
    """The town folder (as `simulate --town` loads it) whose collision layer's data is not a
    grid of 32 x 20 tile ids -> one line naming the file and the layer, not a town with 12 walls."""
    raw = copy.deepcopy(RAW)
    layer = raw["layers"][0]
    layer["data"] = data
    if encoding is not None:
        layer["encoding"], layer["compression"] = encoding, ""
    folder = write(tmp_path, raw)
    message = refused(folder, "map.tmj", "layer 'collision'", says)
    assert str(folder / "map.tmj") in message


def test_truncated_json_is_refused_with_its_position(tmp_path):
    """A map cut short -> 'not valid JSON ... line L, column C', not UnknownFormat."""
    text = (EXAMPLE / "map.tmj").read_text()
    message = refused(write(tmp_path, text[: len(text) // 2]) / "map.tmj", "not valid JSON", "cut short")
    assert "UnknownFormat" not in message


def test_both_map_yaml_and_map_tmj_is_refused(tmp_path):
    """A town folder with map.yaml and map.tmj -> one line naming the folder and both files."""
    folder = write(tmp_path, "world: x\nsize: [4, 4]\nsectors: []\n", name="map.yaml")
    refused(folder, "map.yaml", "map.tmj")


def test_cli_names_the_file_and_exits_2(tmp_path):
    """Through the command line: exit code 2 and one line naming the map, no traceback."""
    raw = copy.deepcopy(RAW)
    del raw["layers"][0]["data"]
    folder = write(tmp_path, raw)
    done = run_cli("simulate", "--town", str(folder), "--hours", "1", "--embedder", "hashing",
                   "--out", str(tmp_path / "run.sqlite"), "--quiet")
    assert done.returncode == 2
    assert "map.tmj" in done.stderr and "layer 'collision'" in done.stderr
    assert "Traceback" not in done.stderr
