"""Tests of scenario loading: the_ville, and each kind of invalid file."""

import re
import shutil
from datetime import datetime, time
from pathlib import Path

import pytest
import yaml
from map_checks import reachable_from

from town.errors import ConfigError
from town.scenario import TOWNS_DIR, EventType, load_scenario
from town.world.fields import TEXT_LIMITS


@pytest.fixture(scope="module")
def ville():
    """The shipped town."""
    return load_scenario("the_ville")



def test_the_ville_loads(ville):
    """Three personas, the start time, the party news and the market closure."""
    assert ville.name == "The Ville" and ville.start == datetime(2023, 2, 13, 7, 0)
    assert [p.id for p in ville.personas] == ["isabella_rodriguez", "klaus_mueller", "maria_lopez"]
    party = next(n for n in ville.probes if n.name == "party")
    assert party.gathering.place == "the_ville:Hobbs Cafe"
    assert (party.gathering.start, party.gathering.end) == (
        datetime(2023, 2, 14, 17),
        datetime(2023, 2, 14, 19),
    )
    seeded = [m for m in ville.persona("isabella_rodriguez").memories if m.probe == "party"]
    assert any(m.importance == 8 for m in seeded)
    close = next(e for e in ville.events if e.type is EventType.CLOSE_PLACE)
    assert (
        close.at == datetime(2023, 2, 14, 7)
        and close.fields["place"] == "the_ville:The Willows Market and Pharmacy"
    )


def test_routines_cover_the_day_and_places_are_mutually_reachable(ville):
    """Every routine runs 00:00-24:00 and every place shares one walkable region."""
    tilemap = ville.tilemap
    home = tilemap.tiles(ville.personas[0].home)[0]
    region = reachable_from(tilemap, home)
    for p in ville.personas:
        assert p.routine[0].start == time(0, 0) and p.routine[-1].end_minutes == 24 * 60
        assert all(a.end_minutes == b.start_minutes for a, b in zip(p.routine, p.routine[1:]))
        for place in [p.home] + [r.place for r in p.routine]:
            assert tilemap.has_address(place)
            assert set(tilemap.tiles(place)) & region, place


def test_personas_meet_at_the_cafe_at_lunch(ville):
    """At 12:30 all three personas' routines are at Hobbs Cafe."""
    for p in ville.personas:
        assert p.routine_at(12 * 60 + 30).place.startswith("the_ville:Hobbs Cafe:")


@pytest.fixture
def town_copy(tmp_path):
    """A writable copy of the_ville to break."""
    folder = tmp_path / "ville"
    shutil.copytree(TOWNS_DIR / "the_ville", folder)
    return folder


def _edit(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True))


def _set_routine(i, key, value):
    return lambda d: d["routine"][i].__setitem__(key, value)


@pytest.mark.parametrize(
    "change, field, reason",
    [
        (lambda d: d.pop("lifestyle"), "lifestyle", "missing required field"),
        (lambda d: d.__setitem__("age", "twenty"), "age", "must be an integer"),
        (
            _set_routine(3, "place", "the_ville:Hobbs Cafe:attic"),
            "routine[3].place",
            "unknown place 'the_ville:Hobbs Cafe:attic'",
        ),
        (_set_routine(2, "start", "07:75"), "routine[2].start", "not a time of day"),
        (_set_routine(1, "start", "06:00"), "routine[1].start", "overlaps the block before"),
        (_set_routine(1, "start", "07:10"), "routine[1].start", "leaves a gap"),
        (
            lambda d: d["relationships"].append({"persona": "bob", "description": "x"}),
            "relationships[2].persona",
            "unknown persona 'bob'",
        ),
        (
            lambda d: d["memories"][0].__setitem__("importance", 11),
            "memories[0].importance",
            "must be 1-10",
        ),
        (
            lambda d: d.__setitem__("home", "the_ville:Mars"),
            "home",
            "unknown place 'the_ville:Mars'",
        ),
        (
            _set_routine(1, "goal", {"uses": "piano", "minutes": 10}),
            "routine[1].goal.uses",
            "no object named 'piano' on the map",
        ),
        (
            _set_routine(1, "goal", {"uses": "shower", "minutes": 0}),
            "routine[1].goal.minutes",
            "must be >= 1, got 0",
        ),
        (
            _set_routine(0, "goal", {"uses": "bed", "minutes": 5}),
            "routine[0].goal",
            "a goal needs the block's task",
        ),
        (
            lambda d: d.__setitem__("pronouns", "xe/xem"),
            "pronouns",
            "must be one of she/her, he/him, they/them, got 'xe/xem'",
        ),
    ],
)
def test_persona_file_errors(town_copy, change, field, reason):
    """Each persona-file mistake names the file, the field and the reason."""
    _edit(town_copy / "klaus_mueller.yaml", change)
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert err.value.file.endswith("klaus_mueller.yaml")
    assert err.value.field == field
    assert reason in err.value.reason


def test_pronouns_are_read_from_the_persona_file(ville, town_copy):
    """the_ville's files say she/her, he/him, she/her; a file without the field has none."""
    assert {p.id: p.pronoun for p in ville.personas} == dict(
        isabella_rodriguez="she", klaus_mueller="he", maria_lopez="she")
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d.pop("pronouns"))
    assert {p.id: p.pronoun for p in load_scenario(town_copy).personas}["klaus_mueller"] is None


def test_routine_goal_is_read_from_the_persona_file(town_copy):
    """Isabella's "cook lunch" block declares a stove used for 10 minutes; blocks without one
    have none."""
    spec = load_scenario(town_copy).persona("isabella_rodriguez")
    goals = {r.task: r.goal for r in spec.routine if r.goal is not None}
    assert {t: (g.uses, g.minutes) for t, g in goals.items()} == {
        "buy supplies": ("grocery shelf", 5),
        "cook lunch": ("stove", 10),
    }


def test_events_file_with_unknown_type(town_copy):
    """An unknown event type names the file, events[i].type and the allowed types."""
    _edit(town_copy / "events.yaml", lambda d: d["events"][1].__setitem__("type", "earthquake"))
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert err.value.file.endswith("events.yaml") and err.value.field == "events[1].type"
    assert "close_place, open_place, whisper, news" in err.value.reason


@pytest.mark.parametrize("who", [[1], {"a": 1}, 7])
def test_a_news_persona_that_is_no_text_is_named(town_copy, who):
    """``personas: [[1]]`` in a news event was "TypeError: unhashable type: 'list'"."""
    _edit(town_copy / "events.yaml", lambda d: d["events"][0].__setitem__("personas", ["klaus_mueller", who]))
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert err.value.file.endswith("events.yaml") and err.value.field == "events[0].personas[1]"
    assert err.value.reason == f"must be a text, got {who!r}"


def test_probe_gathering_host_must_exist(town_copy):
    """A probe's gathering hosted by an unknown persona is refused."""
    _edit(town_copy / "probes.yaml", lambda d: d["probes"][0]["gathering"].__setitem__("host", "zed"))
    with pytest.raises(
        ConfigError, match=r"probes.yaml: probes\[0\].gathering.host: unknown persona 'zed'"
    ):
        load_scenario(town_copy)


def test_network_probe_question_and_paper(town_copy):
    """``network`` gives the relationship question (default "Do you know {name}?") and the paper's
    density; a question without {name} is refused, naming the field."""
    assert load_scenario(town_copy).network.question == "Do you know {name}?"
    _edit(town_copy / "probes.yaml", lambda d: d.__setitem__("network", {
        "question": "Have you met {name}?",
        "paper": {"citation": "Park et al. 2023 §7.1.2", "density": {"start": 0.2, "end": 0.7}}}))
    network = load_scenario(town_copy).network
    assert network.question == "Have you met {name}?"
    assert network.paper["density"] == {"start": 0.2, "end": 0.7}
    _edit(town_copy / "probes.yaml", lambda d: d["network"].__setitem__("question", "Who is it?"))
    with pytest.raises(ConfigError, match=r"probes.yaml: network.question: must contain \{name\}"):
        load_scenario(town_copy)


def test_probe_key_must_name_a_probe(town_copy):
    """A seeded memory naming an unknown probe is refused, naming the field."""
    _edit(town_copy / "isabella_rodriguez.yaml", lambda d: d["memories"][0].__setitem__("probe", "parade"))
    with pytest.raises(
        ConfigError, match=r"isabella_rodriguez.yaml: memories\[0\].probe: unknown probe 'parade'"
    ):
        load_scenario(town_copy)


def test_unreachable_place_is_refused(tmp_path):
    """A routine place inside a room without doors is 'no path reaches' naming file and field."""
    (tmp_path / "map.yaml").write_text(
        yaml.safe_dump(
            {
                "world": "w",
                "size": [8, 5],
                "sectors": [
                    {
                        "name": "home",
                        "rect": [0, 0, 3, 3],
                        "doors": [[2, 1]],
                        "arenas": [
                            {
                                "name": "room",
                                "rect": [1, 1, 1, 1],
                                "objects": [{"name": "bed", "at": [1, 1]}],
                            }
                        ],
                    },
                    {
                        "name": "vault",
                        "rect": [4, 0, 3, 3],
                        "arenas": [{"name": "cell", "rect": [5, 1, 1, 1]}],
                    },
                ],
            }
        )
    )
    (tmp_path / "town.yaml").write_text("name: Tiny\nstart: '2023-02-13 07:00'\n")
    (tmp_path / "ann.yaml").write_text(
        yaml.safe_dump(
            {
                "name": "Ann",
                "age": 30,
                "traits": ["calm"],
                "background": "b",
                "lifestyle": "l",
                "home": "w:home:room:bed",
                "routine": [
                    {
                        "start": "00:00",
                        "end": "12:00",
                        "activity": "sleep",
                        "place": "w:home:room:bed",
                    },
                    {"start": "12:00", "end": "24:00", "activity": "hide", "place": "w:vault:cell"},
                ],
            }
        )
    )
    with pytest.raises(ConfigError) as err:
        load_scenario(tmp_path)
    assert err.value.file.endswith("ann.yaml") and err.value.field == "routine[1].place"
    assert "no path reaches 'w:vault:cell' from 'w:home:room:bed'" in err.value.reason


def test_missing_town_lists_the_towns(tmp_path):
    """A bare name that is no folder lists the towns there are."""
    (tmp_path / "alpha").mkdir()
    with pytest.raises(ConfigError, match="towns in .*: alpha"):
        load_scenario("beta", towns_dir=tmp_path)


def _documented_limits() -> dict[str, int]:
    """The 'Text limits' table of docs/scenario-files.md as {field: characters}."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "scenario-files.md").read_text()
    section = doc.split("## Text limits", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \|$", section, re.M)
    other = re.search(r"^\| any other text .* \| (\d+) \|$", section, re.M)
    return {**{k: int(v) for k, v in rows}, "*": int(other.group(1))}


def test_text_limits_are_documented():
    """docs/scenario-files.md lists every TEXT_LIMITS entry with its value, and the default 2000."""
    assert _documented_limits() == {**TEXT_LIMITS, "*": 2000}


@pytest.mark.parametrize(("field", "limit"), [("lifestyle", 2000), ("name", 100)])
def test_a_text_one_over_its_limit_is_refused(town_copy, field, limit):
    """A text at the limit loads; one character more is one line naming file, field and limit."""
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d.__setitem__(field, "x" * limit))
    load_scenario(town_copy)
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d.__setitem__(field, "x" * (limit + 1)))
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert err.value.file.endswith("klaus_mueller.yaml") and err.value.field == field
    assert f"is {limit + 1} characters long; at most {limit}" in err.value.reason


def test_persona_fingerprints_ignore_layout_and_name_each_edited_field(town_copy):
    """Comments and a YAML re-dump change no fingerprint; a removed emoji and a new age are
    named, by field, in one error naming the file."""
    from town.scenario import check_persona_files, persona_fingerprints

    recorded = persona_fingerprints(load_scenario(town_copy))
    assert sorted(recorded) == ["isabella_rodriguez.yaml", "klaus_mueller.yaml", "maria_lopez.yaml"]
    klaus = town_copy / "klaus_mueller.yaml"
    klaus.write_text("# a note\n" + klaus.read_text(encoding="utf-8"), encoding="utf-8")
    _edit(klaus, lambda d: None)  # the same fields, laid out by yaml.safe_dump, comments gone
    check_persona_files(recorded, load_scenario(town_copy))

    def edit(d):
        d["age"] = 21
        del d["emoji"]

    _edit(klaus, edit)
    with pytest.raises(ConfigError) as caught:
        check_persona_files(recorded, load_scenario(town_copy))
    assert str(caught.value) == (f"{klaus}: age, emoji changed since the run started; put it back as it "
                                 "was, or fork the run to go on with the edited town")


def test_broken_yaml_is_one_line_with_its_position(town_copy):
    """PyYAML's several-line report becomes one line: file, line and column, problem."""
    path = town_copy / "klaus_mueller.yaml"
    lines = path.read_text().count("\n")  # the file ends with a newline
    path.write_text(path.read_text() + "\n  : : [\n")  # a blank line, then the bad one
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    message = str(err.value)
    assert "\n" not in message
    assert message == (f"{path}: not valid YAML at line {lines + 2}, column 3: "
                       "expected <block end>, but found ':'")


def test_map_that_is_not_utf8_names_the_map(town_copy):
    """A map.yaml starting with byte 0xff names the file (it was a bare codec message)."""
    path = town_copy / "map.yaml"
    path.write_bytes(b"\xff" + path.read_bytes())
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert str(err.value) == f"{path}: not UTF-8 text (invalid start byte at byte 0)"


def test_start_outside_the_clock_years_names_town_yaml(town_copy):
    """A start in year 1 is refused naming town.yaml and its field (it named only 'start')."""
    path = town_copy / "town.yaml"
    path.write_text(path.read_text().replace('"2023-02-13 07:00"', '"0001-01-01 00:00"'))
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    assert err.value.file == str(path) and err.value.field == "start"
    assert "between the years 1900 and 2999" in err.value.reason


def test_two_personas_with_one_name_are_refused(town_copy):
    """Klaus's file named "maria LOPEZ" was accepted; --persona "Maria Lopez" then meant either."""
    _edit(town_copy / "klaus_mueller.yaml", lambda d: d.update(name="maria LOPEZ"))
    with pytest.raises(ConfigError) as err:
        load_scenario(town_copy)
    # files are read in id order: klaus_mueller before maria_lopez, so maria_lopez.yaml is named
    assert err.value.file == str(town_copy / "maria_lopez.yaml") and err.value.field == "name"
    assert err.value.reason == ("'Maria Lopez' is already the name of klaus_mueller; "
                                "give each persona its own name")
