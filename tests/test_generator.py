"""Generated towns: deterministic for a seed, valid, every routine place reachable, one bed each."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from map_checks import reachable_from

from cli_helpers import run_cli
from town.generator import generate_town
from town.scenario import load_scenario


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.yaml"))}



def test_same_seed_same_files_other_seed_other_town(tmp_path):
    """Two generations with one seed write byte-identical files; another seed gives other people."""
    a = generate_town(40, 5, tmp_path / "a" / "town")  # the folder name is the world name
    b = generate_town(40, 5, tmp_path / "b" / "town")
    c = generate_town(40, 6, tmp_path / "c" / "town")
    assert a["personas"] == b["personas"] == c["personas"] == 40
    fa, fb = _files(tmp_path / "a" / "town"), _files(tmp_path / "b" / "town")
    assert len(fa) == 40 + 3  # personas, map, town, probes
    assert fa == fb
    assert set(_files(tmp_path / "c" / "town")) != set(fa)


def test_a_thousand_residents_make_a_valid_town(tmp_path):
    """1,000 residents: the town loads, every home and routine place is reachable, no shared bed."""
    made = generate_town(1000, 1, tmp_path / "big")
    town = load_scenario(tmp_path / "big")
    assert made["personas"] == len(town.personas) == 1000
    beds = [p.home for p in town.personas]
    assert len(set(beds)) == 1000
    start = town.tilemap.tiles(town.personas[0].home)[0]
    region = reachable_from(town.tilemap, start)
    for p in town.personas:
        for place in {p.home, *(r.place for r in p.routine)}:
            assert any(t in region for t in town.tilemap.tiles(place)), (p.id, place)
    roles = {p.emoji for p in town.personas}
    assert {"📚", "🌷", "🥖", "💼"} <= roles  # students, retirees, night bakers, office workers
    assert len({p.name for p in town.personas}) == 1000
    assert all(len(p.relationships) >= 1 for p in town.personas)


def test_houses_fit_their_households_and_every_lot_says_what_it_is(tmp_path):
    """Houses are 7 x 7 for one, 8 x 8 for two or three, 10 x 8 for four, inside their 10 x 8 lot
    with the door on the street below, in several colours; workplaces and parks say their kind."""
    from town.generator.townmap import CELL_H, CELL_W, HOUSE_COLORS

    generate_town(120, 2, tmp_path / "t")
    data = yaml.safe_load((tmp_path / "t" / "map.yaml").read_text(encoding="utf-8"))
    town = load_scenario(tmp_path / "t")
    sleepers: dict[str, int] = {}
    for p in town.personas:
        house = p.home.split(":")[1]
        sleepers[house] = sleepers.get(house, 0) + 1
    size = {1: [7, 7], 2: [8, 8], 3: [8, 8], 4: [10, 8]}
    kinds = {}
    for sector in data["sectors"]:
        x, y, w, h = sector["rect"]
        kinds.setdefault(sector["kind"], 0)
        kinds[sector["kind"]] += 1
        lot_x, lot_y = x - x % CELL_W + 1, y - y % CELL_H + 1  # the lot's 10 x 8 area in its cell
        assert lot_x <= x and x + w <= lot_x + 10 and y + h == lot_y + 8, sector["name"]
        if sector["kind"] == "home":
            assert [w, h] == size[sleepers[sector["name"]]], sector["name"]
            assert sector["doors"] == [[x + w // 2, y + h - 1]] and sector["color"] in HOUSE_COLORS
    homes = [s for s in data["sectors"] if s["kind"] == "home"]
    assert {tuple(s["rect"][2:]) for s in homes} == {(7, 7), (8, 8), (10, 8)}
    assert len({s["color"] for s in homes}) >= 5
    assert set(kinds) == {"home", "shop", "work", "school", "park"}
    assert all(s["kind"] == "shop" for s in data["sectors"] if "Cafe" in s["name"] or "Market" in s["name"])


def test_news_is_plain_text_in_one_memory_with_a_probe(tmp_path):
    """The seeded news is a sentence stating place, day and time; its probe names the same place."""
    generate_town(60, 3, tmp_path / "t")
    town = load_scenario(tmp_path / "t")
    seeded = [(p, m) for p in town.personas for m in p.memories if m.probe == "quiz_night"]
    assert len(seeded) == 1
    host, memory = seeded[0]
    probe = next(pr for pr in town.probes if pr.name == "quiz_night")
    pub = probe.gathering.place.split(":")[1]
    assert pub in memory.content and "February 14" in memory.content and "7pm to 9pm" in memory.content
    assert probe.gathering.host == host.id


def test_the_park_news_probe_needs_the_news_not_a_sighting_on_the_lawn(tmp_path):
    """The park probe's facts match the seeded sentence and a retelling of it, never a sighting
    or gossip about someone on the park's lawn (sentences as the scripted mind writes them)."""
    from town.analysis.diffusion import recalls

    generate_town(12, 5, tmp_path / "t")
    town = load_scenario(tmp_path / "t")
    probe = next(pr for pr in town.probes if pr.name == "park_works")
    seed = next(m.content for p in town.personas for m in p.memories if m.probe == "park_works")
    park = probe.question.removeprefix("Did you hear anything about ").removesuffix("?")
    assert recalls(f"Yes. {seed}", probe.facts)
    assert recalls(f'Yes. Ann Able told me: "{seed}"', probe.facts)
    assert not recalls(f"Yes. Olaf Bustos is at the lawn of the green in {park}: meet friends in the park.",
                       probe.facts)
    assert not recalls(f'Yes. I talked with Ann Able: Did you hear? Bo Bell is at the lawn of the green in '
                       f'{park}: meet friends in the park', probe.facts)


def test_cli_generate_refuses_an_existing_town_and_bad_counts(tmp_path):
    """`town generate` writes a town, then refuses to overwrite it without --force; N < 1 is refused."""
    out = tmp_path / "gen"
    done = run_cli("generate", "--personas", "12", "--seed", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "12 personas" in done.stdout
    again = run_cli("generate", "--personas", "12", "--seed", "2", "--out", str(out))
    assert again.returncode == 2 and "not empty" in again.stderr and "Traceback" not in again.stderr
    zero = run_cli("generate", "--personas", "0", "--out", str(tmp_path / "zero"))
    assert zero.returncode == 2 and "must be 1 to 5,000 residents" in zero.stderr
    spec = yaml.safe_load((out / "town.yaml").read_text())
    assert spec["start"] == "2023-02-13 07:00"


@pytest.mark.slow
def test_a_generated_town_runs_an_hour(tmp_path):
    """A generated town simulates like any other: an hour of 25 residents is recorded."""
    generate_town(25, 4, tmp_path / "small")
    done = run_cli("simulate", "--town", str(tmp_path / "small"), "--hours", "1", "--embedder", "hashing",
                   "--out", str(tmp_path / "small.sqlite"), "--quiet")
    assert done.returncode == 0, done.stderr
