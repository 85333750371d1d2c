"""Names that look alike are one name: a player cannot take a look-alike of a persona's or another
player's name, and a town cannot hold two look-alike persona names."""

from __future__ import annotations

import shutil
import unicodedata

import confusables
import pytest
from cli_helpers import REPO

from player_inputs import add_player
from town.config import load_config
from town.errors import ConfigError
from town.names import look_alike_keys, skeleton
from town.scenario import load_scenario
from town.simulation import Simulation
from web.cli import main

#: "Isabella Rodriguez" with a Cyrillic е (U+0435) for the first e, as found.
LOOK_ALIKE = "Isab\u0435lla Rodriguez"

#: (a, b, look alike?), each worked out from Unicode's confusables.txt by hand: U+0435 -> e,
#: digit 1 -> l, capital I -> l, m -> r n; fullwidth letters are plain ones under NFKC; the
#: accents of é, á and ü are marks of their own after NFD (category Mn), which a reader passes
#: over, as a full stop or a hyphen: "Müller" reads as "Muller", and "Mueller" is another spelling.
PAIRS = [
    ("Isabella Rodriguez", LOOK_ALIKE, True),
    ("Klaus Mueller", "K1aus Mueller", True),
    ("Klaus Mueller", "\uff2b\uff4c\uff41\uff55\uff53 MUELLER", True),
    ("Isabella", "lsabella", True),
    ("Mam", "Marn", True),
    ("Maria Lopez", "Maria  Lopez", True),
    ("Ada", "Ava", False),
    ("Klaus Mueller", "Klaus Muller", False),
    ("Jose Silva", "José Silva", True),
    ("Maria Lopez", "Mario Lopez", False),
    # as found: accepted as players next to the personas, and Cléo next to Cleo
    ("Isabella Rodriguez", "Isabella Rodríguez", True),
    ("Klaus Mueller", "Kláus Mueller", True),
    ("Isabella Rodriguez", "Isabella Rodriguez.", True),
    ("Cleo", "Cléo", True),
    ("Jo-Ann", "Jo Ann", True),
    ("Klaus Müller", "Klaus Muller", True),
    ("Klaus Mueller", "Klaus Müller", False),
]


@pytest.mark.parametrize(("a", "b", "alike"), PAIRS)
def test_look_alike_names_share_a_key(a, b, alike):
    """The pairs worked out by hand; where the two differ in their letters only (no accent or
    punctuation), the confusables package's own pairwise matcher agrees."""
    assert bool(look_alike_keys(a) & look_alike_keys(b)) is alike
    if _letters_only(a) and _letters_only(b):
        assert confusables.is_confusable(_plain(a), _plain(b)) is alike


def _letters_only(name: str) -> bool:
    """No accent, no punctuation: where ``confusables.is_confusable`` is a fair second opinion."""
    return all((c.isalnum() or c == " ") and unicodedata.category(c) != "Mn"
               for c in unicodedata.normalize("NFD", name))


def _plain(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def test_skeleton_is_the_uts39_one():
    """UTS #39's own example: "paypal" with a Cyrillic р and а has the skeleton of "paypal"."""
    assert skeleton("\u0440\u0430ypal") == skeleton("paypal") == "paypal"
    assert skeleton("m") == "rn"


@pytest.fixture
def ville(tmp_path):
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}),
                     run_path=tmp_path / "ville.sqlite")
    yield sim
    sim.close()


def test_a_player_cannot_take_a_look_alike_of_a_persona_or_of_another_player(ville):
    """Personas would remember "Isabеlla Rodriguez told me: ..." as if Isabella had said it."""
    with pytest.raises(ConfigError, match=r"player: 'Isabеlla Rodriguez' looks like 'Isabella Rodriguez' "
                                          r"\(isabella_rodriguez\), who is already in the town"):
        add_player(ville, LOOK_ALIKE)
    add_player(ville, "Ada")
    with pytest.raises(ConfigError, match=r"looks like 'Ada' \(player-ada\)"):
        add_player(ville, "Ad\u0430")  # Cyrillic а
    assert ville.players == {"player-ada"}


def test_serve_refuses_a_look_alike_player_before_recording(tmp_path, capsys):
    """As found: ``serve --player "Isabеlla Rodriguez"`` was accepted."""
    out = tmp_path / "live.sqlite"
    assert main(["serve", "--port", "0", "--out", str(out), "--embedder", "hashing", "--player", LOOK_ALIKE]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "town: error: player: 'Isabеlla Rodriguez' looks like 'Isabella Rodriguez' (isabella_rodriguez), who is "
        "already in the town; choose another name"]
    assert not out.exists()


def test_a_town_with_two_look_alike_persona_names_is_refused(tmp_path, capsys):
    """Maria's file renamed to "K1aus Mueller": one line naming both files."""
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    maria = town / "maria_lopez.yaml"
    maria.write_text(maria.read_text(encoding="utf-8").replace("name: Maria Lopez", "name: K1aus Mueller"),
                     encoding="utf-8")
    out = tmp_path / "x.sqlite"
    assert main(["simulate", "--town", str(town), "--hours", "1", "--out", str(out), "--embedder", "hashing"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"town: error: {maria}: name: 'K1aus Mueller' looks like 'Klaus Mueller', the name in "
        f"{town / 'klaus_mueller.yaml'}; give each persona a name of its own"]
    assert not out.exists()
