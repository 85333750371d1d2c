"""`study` end to end on a short run: two conditions, battery, grades, a fake judge, JSON + PNG."""

from __future__ import annotations

import json

from cli_helpers import run_cli
from fake_server import FakeOpenAIServer

from town.studies.plan import condition_ablate


def test_condition_names():
    """Condition names map to the config key; a bad one is refused naming --conditions."""
    import pytest

    from town.errors import ConfigError

    assert condition_ablate("full") == ""
    assert condition_ablate("no-reflection-planning") == "planning,reflection"
    assert condition_ablate("no-observation-reflection-planning") == "observation,planning,reflection"
    with pytest.raises(ConfigError, match="--conditions"):
        condition_ablate("no-memory")


def test_study_cli_with_a_judge(tmp_path):
    """Two conditions of 2 game hours, one seed; a judge that always says "tie" leaves both at mu 25."""
    server = FakeOpenAIServer(lambda messages: '{"better": "tie", "reason": "same"}', api_key=None)
    try:
        done = run_cli("study", "--town", "the_ville", "--hours", "2", "--embedder", "hashing",
                       "--conditions", "full,no-planning", "--out", str(tmp_path), "--quiet",
                       "--judge-base-url", server.base_url, "--judge-model", "fake-model")
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    study = json.loads((tmp_path / "study.json").read_text())
    assert list(study["conditions"]) == ["full", "no-planning"]
    assert study["conditions"]["no-planning"]["set"] == {"ablate": "planning"}
    assert (tmp_path / "study.png").stat().st_size > 0
    assert (tmp_path / "full-s0.evaluation" / "battery.json").exists()
    # 3 personas x 10 judged questions, one pair of conditions: 30 ties keep both at mu 25
    assert study["ranking"]["full"]["ties"] == 30
    assert abs(study["ranking"]["full"]["mu"] - 25) < 1e-9
    assert "29.89" in done.stdout and "self-knowledge" in done.stdout
    again = run_cli("study", "--town", "the_ville", "--hours", "2", "--conditions", "full", "--out", str(tmp_path))
    assert again.returncode == 2 and "other settings" in again.stderr  # MiniLM, not the study's hashing
