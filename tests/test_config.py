"""Tests of configuration loading, overrides and errors."""

import pytest

from town.config import BackendName, Config, load_config
from town.errors import ConfigError


def test_defaults_are_the_documented_ones():
    """The packaged defaults give the values the design names."""
    c = load_config()
    assert (c.seconds_per_tick, c.seed, c.start, c.embedder.value) == (10, 0, None, "minilm")
    assert (c.retrieval.k, c.retrieval.weights) == (10, (1.0, 1.0, 1.0))
    assert (c.reflection.threshold, c.procedures.threshold) == (150, 0.6)
    assert (c.recording.snapshot_every_hours, c.perception.vision_radius) == (1.0, 4)
    b = c.backend
    assert (
        b.name,
        b.api_key_env,
        b.timeout_s,
        b.max_retries,
        b.pool_size,
        b.cache,
        b.max_consecutive_failures,
        b.base_url,
        b.model,
    ) == (BackendName.SCRIPTED, "OPENAI_API_KEY", 30.0, 3, 4, True, 5, None, None)


def test_file_then_overrides(tmp_path):
    """A user file changes some settings; overrides (texts from the CLI) win over it."""
    path = tmp_path / "my.toml"
    path.write_text('seed = 7\n[retrieval]\nk = 5\n[backend]\nname = "openai"\nmodel = "m1"\n')
    c = load_config(
        path,
        {
            "retrieval.weights": "0.5,1,2",
            "backend": {"model": "m2"},
            "seed": "9",
            "start": "2023-02-14 08:00",
        },
    )
    assert (c.seed, c.retrieval.k, c.retrieval.weights) == (9, 5, (0.5, 1.0, 2.0))
    assert (c.backend.name, c.backend.model, c.backend.pool_size) == (BackendName.OPENAI, "m2", 4)
    assert c.to_dict()["start"] == "2023-02-14 08:00"


def test_dict_round_trip():
    """from_dict(to_dict()) gives back the same configuration."""
    c = load_config(None, {"backend.base_url": "http://127.0.0.1:9/v1", "embedder": "hashing"})
    assert Config.from_dict(c.to_dict()) == c


@pytest.mark.parametrize(
    "text, field, reason",
    [
        ("[retrieval]\nkk = 3\n", "retrieval.kk", "unknown setting"),
        ("colour = 1\n", "colour", "unknown setting"),
        ("[retrieval]\nk = 'ten'\n", "retrieval.k", "must be an integer"),
        ("[backend]\ncache = 1\n", "backend.cache", "must be true or false"),
        ("[backend]\nname = 'gpt'\n", "backend.name", "one of 'scripted', 'openai', 'local'"),
        ("[retrieval]\nweights = [0, 0, 0]\n", "retrieval.weights", "not all zero"),
        ("[procedures]\nthreshold = 1.5\n", "procedures.threshold", "in [0, 1]"),
    ],
)
def test_bad_file_errors_name_file_and_field(tmp_path, text, field, reason):
    """Unknown keys, wrong types and bad values name the file and the dotted field."""
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "bad.toml" in err.value.file and err.value.field == field and reason in err.value.reason


def test_bad_override_key_and_value():
    """Overrides are checked like files."""
    with pytest.raises(ConfigError, match="overrides: backend.modle: unknown setting"):
        load_config(None, {"backend.modle": "x"})
    with pytest.raises(ConfigError, match="seconds_per_tick: must be > 0"):
        load_config(None, {"seconds_per_tick": 0})
