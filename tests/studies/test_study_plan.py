"""What a study or sweep runs: conditions, --vary values, run names; a bad one is refused up front."""

from __future__ import annotations

import pytest

from town.errors import ConfigError
from town.studies.plan import parse_vary, run_name, study_conditions, sweep_conditions


def test_sweep_combinations_and_names():
    """2 x 2 values give 4 conditions, the first key outermost, named by the keys' last parts."""
    vary = parse_vary(["retrieval.weights=[[1,1,1],[1,0.5,1]]", "retrieval.k=[5,10]"])
    conditions = sweep_conditions(vary)
    assert [c.name for c in conditions] == ["weights=1-1-1,k=5", "weights=1-1-1,k=10",
                                            "weights=1-0.5-1,k=5", "weights=1-0.5-1,k=10"]
    assert conditions[2].settings == {"retrieval.weights": [1, 0.5, 1], "retrieval.k": 5}
    assert run_name(conditions[2].name, 3) == "weights=1-0.5-1,k=5-s3"


@pytest.mark.parametrize(("items", "says"), [
    (["retrieval.k"], "expected KEY=JSON_LIST"),
    (["retrieval.k=[5,"], "is not JSON"),
    (["retrieval.k=5"], "a JSON list"),
    (["retrieval.k=[]"], "a JSON list"),
    (["retrieval.k=[5,5]"], "repeated"),
    (["retrieval.k=[5]", "retrieval.k=[6]"], "varied twice"),
    ([], "at least one"),
])
def test_bad_vary_is_refused_naming_the_option(items, says):
    with pytest.raises(ConfigError, match=says) as err:
        parse_vary(items)
    assert err.value.field == "--vary"


def test_names_that_would_collide_or_escape_are_refused():
    with pytest.raises(ConfigError, match="same run name"):
        sweep_conditions(parse_vary(['retrieval.weights=["1-1-1",[1,1,1]]']))
    with pytest.raises(ConfigError, match="study --conditions"):
        sweep_conditions({"ablate": ["", "reflection"]})
    with pytest.raises(ConfigError, match="file name"):
        run_name("../escape", 0)
    with pytest.raises(ConfigError, match="each condition once"):
        study_conditions("full,full")


def test_study_conditions_set_ablate():
    assert [(c.name, c.settings) for c in study_conditions("full, no-reflection-planning")] == [
        ("full", {"ablate": ""}), ("no-reflection-planning", {"ablate": "planning,reflection"})]
