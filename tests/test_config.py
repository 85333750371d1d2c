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
    assert (c.perception.attention, c.perception.retention_hours) == (3, 2.0)
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
    ) == (BackendName.SCRIPTED, "OPENAI_API_KEY", "auto", 3, 4, True, 5, None, None)
    assert (b.fixed_timeout_s, b.min_timeout_s, b.max_timeout_s) == (None, 30.0, 600.0)


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
        ("[perception]\nretention_hours = -1\n", "perception.retention_hours", "must be 0-8760 game hours, got -1.0"),
        ("[recording]\nsnapshot_every_hours = 1e308\n", "recording.snapshot_every_hours",
         "must be > 0 and at most 8760 game hours, got 1e+308"),
        ("[backend]\nbase_url = 'http://[::1'\n", "backend.base_url", "is no URL (Invalid IPv6 URL), got 'http://[::1'"),
        ("[backend]\nmore_base_urls = ['http://127.0.0.1:99999/v1']\n", "backend.more_base_urls",
         "is no URL (Port out of range 0-65535), got 'http://127.0.0.1:99999/v1'"),
        ("[backend]\nbase_url = 'http://alice:s3cr3t@127.0.0.1:8080/v1'\n", "backend.base_url",
         "must not hold a user or password (the run file records the address): give the key in the environment "
         "variable --api-key-env names, got http://...@127.0.0.1:8080"),
        ("[backend]\nbase_url = 'localhost:8080'\n", "backend.base_url",
         "must be an http:// or https:// address, e.g. http://127.0.0.1:8080/v1, got 'localhost:8080'"),
        ("[perception]\nattention = -2\n", "perception.attention", "must be >= 0 personas, got -2"),
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
    with pytest.raises(ConfigError, match="seconds_per_tick: must be 1-3600 game seconds, got 0"):
        load_config(None, {"seconds_per_tick": 0})
    # 1e11 s per tick passed, then the first snapshot's time overflowed datetime (a traceback)
    with pytest.raises(ConfigError, match="seconds_per_tick: must be 1-3600 game seconds, got 99999999999"):
        load_config(None, {"seconds_per_tick": 99999999999})
    with pytest.raises(ConfigError, match=r"overrides: start: must be a game time between the years 1900"):
        load_config(None, {"start": "9999-12-31 23:00"})


def test_dict_keys_keep_their_order():
    """to_dict lists the settings in the order a run's meta has always stored them."""
    d = load_config().to_dict()
    assert list(d) == ["seconds_per_tick", "seed", "embedder", "retrieval", "reflection", "procedures",
                       "recording", "perception", "backend", "start", "ablate", "schedule", "conversation"]
    assert list(d["retrieval"]) == ["k", "weights"]
    assert list(d["backend"]) == [
        "name", "api_key_env", "timeout_s", "max_retries", "pool_size", "cache", "max_consecutive_failures",
        "max_consecutive_fallbacks", "structured", "max_concurrency", "importance", "max_prompt_tokens",
        "base_url", "more_base_urls", "model", "embed_model", "min_timeout_s", "max_timeout_s",
    ]


def test_an_integer_is_a_number_but_never_a_bool(tmp_path):
    """min_timeout_s = 30 is read as 30.0 (and stored so); a bool where an integer goes is refused."""
    path = tmp_path / "c.toml"
    path.write_text("ablate = ' reflection, planning ,'\n[backend]\nmin_timeout_s = 30\n")
    c = load_config(path)
    assert (c.backend.min_timeout_s, c.to_dict()["backend"]["min_timeout_s"], c.ablate) == (
        30.0, 30.0, "planning,reflection")
    path.write_text("seed = true\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert (err.value.field, err.value.reason) == ("seed", "must be an integer, got True")


@pytest.mark.parametrize("given, fixed", [("auto", None), (300, 300.0), ("45.5", 45.5), (30.0, 30.0)])
def test_the_timeout_is_auto_or_seconds_as_a_run_recorded_it(given, fixed):
    """"auto" (from the server's speed) or seconds, from a file, the command line (text) or a run
    recorded before "auto" (30.0)."""
    c = load_config(None, {"backend.timeout_s": given})
    assert c.backend.fixed_timeout_s == fixed
    assert Config.from_dict(c.to_dict()).backend.fixed_timeout_s == fixed


@pytest.mark.parametrize("over, field", [({"backend.timeout_s": "fast"}, "backend.timeout_s"),
                                         ({"backend.timeout_s": 0}, "backend.timeout_s"),
                                         ({"backend.min_timeout_s": -1}, "backend.min_timeout_s"),
                                         ({"backend.max_timeout_s": 10}, "backend.max_timeout_s")])
def test_a_bad_timeout_names_its_field(over, field):
    """Not auto nor seconds, no seconds, bounds below zero or the wrong way round."""
    with pytest.raises(ConfigError) as err:
        load_config(None, over)
    assert err.value.field == field


def _default_dict(**changes):
    d = load_config().to_dict()
    for dotted, value in changes.items():
        table, _, key = dotted.rpartition("__")
        (d[table] if table else d)[key] = value
    return d


@pytest.mark.parametrize(
    "changes, field, reason",
    [
        # within a table its unknown keys come first, then its settings in order, then its checks
        ({"retrieval__k": "x", "retrieval__zz": 1}, "retrieval.zz", "unknown setting; allowed: k, weights"),
        ({"retrieval__k": 0, "retrieval__weights": [1, True, 1]}, "retrieval.weights[1]",
         "must be a number, got True"),
        ({"retrieval__k": 0, "retrieval__weights": [1, 1]}, "retrieval.k", "must be >= 1, got 0"),
        # an earlier setting's error before a later table's unknown key; a table's own keys first
        ({"seed": "x", "backend__zz": 1}, "seed", "must be an integer, got 'x'"),
        ({"retrieval__k": "x", "zz": 1}, "zz", "unknown setting; allowed: seconds_per_tick, seed, embedder, "
         "retrieval, reflection, procedures, recording, perception, backend, start, ablate, schedule, conversation"),
        # the run-wide checks come after every table's
        ({"seconds_per_tick": 0, "procedures__threshold": 2}, "procedures.threshold", "must be in [0, 1], got 2.0"),
        ({"seconds_per_tick": 0, "ablate": "dreams"}, "seconds_per_tick", "must be 1-3600 game seconds, got 0"),
        ({"ablate": "planning,dreams"}, "ablate", "unknown part 'dreams'; allowed: observation, planning, reflection"),
        ({"backend__more_base_urls": "http://a/v1"}, "backend.more_base_urls",
         "must be a list of texts, got 'http://a/v1'"),
        ({"backend__structured": "xml"}, "backend.structured",
         "must be one of auto, json_schema, json_object_schema, grammar, json_object, none, got 'xml'"),
        ({"embedder": "word2vec"}, "embedder", "must be one of 'minilm', 'hashing', 'openai', got 'word2vec'"),
        ({"start": 7}, "start", "must be a game time like '2023-02-13 07:00', got 7"),
        ({"start": "noon"}, "start", "'noon' is not a game time like '2023-02-13 07:00'"),
        # a start the clock cannot hold is refused by the config, not later by the clock
        ({"start": "9999-12-31 23:00"}, "start",
         "must be a game time between the years 1900 and 2999, got 9999-12-31 23:00:00"),
        ({"perception": [4]}, "perception", "must be a table of settings, got [4]"),
    ],
)
def test_a_recorded_config_names_the_first_error_a_reader_meets(changes, field, reason):
    """from_dict reports one error: the first met reading table by table, as the field says."""
    data = _default_dict(**changes)
    with pytest.raises(ConfigError) as err:
        Config.from_dict(data, file="run.sqlite")
    assert (err.value.field, err.value.reason) == (field, reason)


def test_missing_setting_is_named():
    """A recorded config without a required setting names it."""
    data = _default_dict()
    del data["backend"]["cache"]
    with pytest.raises(ConfigError, match="run.sqlite: backend.cache: missing setting"):
        Config.from_dict(data, file="run.sqlite")


def test_the_conversation_mode_is_whole_by_default_and_per_line_in_an_older_run_file():
    """default.toml says "whole"; a stored configuration from before the setting (no
    ``conversation`` table) talked line by line, and is read so; a bad mode names its key."""
    assert load_config().conversation.mode.value == "whole"
    old = _default_dict()
    del old["conversation"]
    assert Config.from_dict(old, file="run.sqlite").conversation.mode.value == "per-line"
    with pytest.raises(ConfigError) as err:
        load_config(None, {"conversation.mode": "batch"})
    assert err.value.field == "conversation.mode"
