"""`town interview` asks the model its command line names, and says which backend answered.

A run recorded against the fake OpenAI server is interviewed with no backend option: the
scripted backend answers and nothing reaches the server (a run file's backend is never
contacted). With ``--base-url`` and ``--api-key-env`` the question reaches that server (its
prompt is the interview's), and the answer says it came from the openai backend. A model whose
answers all fail falls back, and the answer says so; the battery's answers record their backend too.
"""

from __future__ import annotations

import json

from town.analysis.battery_run import run_battery
from town.analysis.recorded import NamedModel, run_backend
from town.cli import main
from town.recording import RunReader

QUESTION = "Do you know about a party?"


def _recorded(fake_server, api_key, tmp_path):
    """A 2-tick run of the_ville recorded with the openai backend on a fake server."""
    server = fake_server()
    out = tmp_path / "model.sqlite"
    assert main(["simulate", "--hours", str(20 / 3600), "--out", str(out), "--quiet", "--embedder", "hashing",
                 "--backend", "openai", "--base-url", server.base_url, "--model", server.model,
                 "--api-key-env", api_key, "--no-cache", "--set", "backend.timeout_s=5"]) == 0
    return server, out


def _interview(out, *options: str) -> int:
    return main(["interview", str(out), "--persona", "isabella_rodriguez", *options, QUESTION])


def _named(server, api_key) -> tuple[str, ...]:
    return ("--backend", "openai", "--base-url", server.base_url, "--api-key-env", api_key)


def test_interview_asks_the_named_model_and_scripted_by_default(fake_server, api_key, tmp_path, capsys):
    server, out = _recorded(fake_server, api_key, tmp_path)
    before = len(server.bodies)
    capsys.readouterr()
    assert _interview(out, *_named(server, api_key)) == 0
    printed = capsys.readouterr().out
    asked = server.bodies[before:]
    assert len(asked) == 1  # the one interview question (the start-up check's requests are not kept)
    assert f'"{QUESTION}"' in asked[0]["messages"][-1]["content"]
    assert "answered by the openai backend, 1 request(s)" in printed
    assert _interview(out) == 0
    assert len(server.bodies) == before + 1  # nothing more sent
    assert "answered by the scripted backend" in capsys.readouterr().out


def test_an_answer_that_fell_back_says_so_and_the_battery_records_whose_answer(fake_server, api_key, tmp_path,
                                                                              capsys):
    """Every answer the server gives from now on fails its schema: the interview's answer is the
    scripted one after 4 requests (max_retries 3), and says so; the battery's answers too."""
    server, out = _recorded(fake_server, api_key, tmp_path)
    server.fault_rate, server.faults = 1.0, ("invalid",)
    capsys.readouterr()
    assert _interview(out, *_named(server, api_key)) == 0
    assert "answered by the scripted backend: the model's answer failed after 4 request(s)" in capsys.readouterr().out
    server.fault_rate = 0.0
    with RunReader(out) as reader:
        parts = run_backend(reader, NamedModel(base_url=server.base_url, api_key_env=api_key))
    result, path = run_battery(out, backend=parts, out_dir=tmp_path / "eval")
    answers = json.loads(path.read_text())["answers"]
    assert answers and {(a["backend"], a["fallback"]) for a in answers} == {("openai", False)}
    assert result["backend"] == "openai"
