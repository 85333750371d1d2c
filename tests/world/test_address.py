"""Tests of place addresses."""

import pytest

from town.errors import WorldError
from town.world import Address, is_within
from town.world.address import sector_address, sector_name


def test_parse_and_format_round_trip():
    """A four-part address parses into its levels and formats back unchanged."""
    a = Address.parse("the_ville:Hobbs Cafe:cafe:coffee machine")
    assert (a.world, a.sector, a.arena, a.object) == (
        "the_ville",
        "Hobbs Cafe",
        "cafe",
        "coffee machine",
    )
    assert a.depth == 4
    assert str(a) == "the_ville:Hobbs Cafe:cafe:coffee machine"
    assert str(a.parent) == "the_ville:Hobbs Cafe:cafe"
    assert str(Address.parse("the_ville").child("Johnson Park")) == "the_ville:Johnson Park"


def test_prefix_matching_is_by_whole_parts():
    """A sector contains its arenas but a partial name is no prefix."""
    sector = Address.parse("the_ville:Hobbs Cafe")
    assert sector.contains("the_ville:Hobbs Cafe:kitchen:stove")
    assert sector.contains(sector)
    assert not Address.parse("the_ville:Hobbs Caf").contains("the_ville:Hobbs Cafe:kitchen")
    assert not sector.contains("the_ville")
    assert is_within("the_ville:Hobbs Cafe:cafe", "the_ville:Hobbs Cafe")
    assert not is_within("the_ville:Hobbs Cafeteria", "the_ville:Hobbs Cafe")


@pytest.mark.parametrize("text", ["", "a::b", "a:b:c:d:e", " : x"])
def test_bad_addresses_are_world_errors(text):
    """Empty parts and more than four parts are refused."""
    with pytest.raises(WorldError):
        Address.parse(text)


@pytest.mark.parametrize(("text", "name", "cut"), [
    ("the_ville:Hobbs Cafe:cafe:coffee machine", "Hobbs Cafe", "the_ville:Hobbs Cafe"),
    ("the_ville:Hobbs Cafe", "Hobbs Cafe", "the_ville:Hobbs Cafe"),
    ("the_ville", "the_ville", "the_ville"),
])
def test_sector_name_and_sector_address(text, name, cut):
    """The sector's own name, and the address cut to the sector; a world alone is both."""
    assert (sector_name(text), sector_address(text)) == (name, cut)
