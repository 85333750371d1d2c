"""Start-up errors stop the run before its first tick with one clear line; stats of a run."""

from __future__ import annotations

import socket

import pytest

from town.analysis.stats import compute_stats
from town.cli import main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _simulate(out, *extra):
    return main(
        [
            "simulate",
            "--hours",
            "0.1",
            "--out",
            str(out),
            "--embedder",
            "hashing",
            "--quiet",
            "--backend",
            "openai",
            *extra,
        ]
    )


@pytest.mark.parametrize("case", ["wrong key", "unreachable", "unknown model"])
def test_bad_server_stops_before_the_first_tick(
    case, fake_server, api_key, monkeypatch, tmp_path, capsys
):
    """Exit code 2, one stderr line naming the cause, no request for a question, no run file."""
    server = fake_server()
    base_url, model = server.base_url, server.model
    if case == "wrong key":
        monkeypatch.setenv(api_key, "wrong-key")
    elif case == "unreachable":
        base_url = f"http://127.0.0.1:{_free_port()}/v1"
    else:
        model = "no-such-model"
    out = tmp_path / "run.sqlite"
    code = _simulate(
        out, "--base-url", base_url, "--model", model, "--api-key-env", api_key, "--no-cache"
    )
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    expected = {
        "wrong key": f"refused the key in ${api_key}",
        "unreachable": "cannot reach the model server",
        "unknown model": "unknown model 'no-such-model'",
    }[case]
    assert expected in err
    assert "wrong-key" not in err and "test-key" not in err  # keys never printed
    assert server.counts["chat"] == 0
    assert not out.exists()


def test_cli_run_records_calls_and_stats_counts_them(fake_server, api_key, tmp_path, capsys):
    """Stats of a CLI run count the requests the server saw; the key is not in the run file.

    Counted per persona per game hour and per template.
    """
    server = fake_server(fault_rate=0.3, faults=("500", "invalid"), seed=1)
    out = tmp_path / "run.sqlite"
    code = _simulate(
        out,
        "--base-url",
        server.base_url,
        "--model",
        server.model,
        "--api-key-env",
        api_key,
        "--set",
        "backend.max_retries=1",
        "--no-cache",
    )
    assert code == 0
    s = compute_stats(out)
    total = s["total"]
    assert total["requests"] == server.counts["chat"] > 0
    assert total["failed"] == server.counts["500"] + server.counts["invalid"]
    assert sum(r["requests"] for r in s["by_persona_hour"].values()) == total["requests"]
    assert sum(r["requests"] for r in s["by_template"].values()) == total["requests"]
    assert s["retry_rate"] == total["retries"] / total["requests"]
    assert 0 <= s["fallback_rate"] <= 1
    assert b"test-key" not in out.read_bytes()
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "per template" in printed and "fallback rate" in printed


@pytest.mark.parametrize("case", ["404 server", "ignores the schema"])
def test_a_server_that_cannot_serve_the_town_stops_the_run_before_it_starts(
    case, fake_server, api_key, tmp_path, capsys
):
    """A 404 URL (an API root without /v1) and a server ignoring the schema: exit 2, one line.

    The start-up check makes real completion requests (checks), no question is asked, and no
    run file is left.
    """
    if case == "404 server":
        server = fake_server()
        base_url = server.base_url.removesuffix("/v1")  # like an Ollama URL without /v1
        expected = "answered HTTP 404 to POST /chat/completions"
    else:
        server = fake_server(dialects=(), reject="ignore")
        base_url = server.base_url
        expected = "does not follow an answer schema"
    out = tmp_path / "run.sqlite"
    code = _simulate(out, "--base-url", base_url, "--model", server.model,
                     "--api-key-env", api_key, "--no-cache")
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert expected in err
    assert server.counts["chat"] == 0
    assert server.counts["check"] >= 1 or case == "404 server"
    assert not out.exists()


def test_auto_settles_on_the_dialect_the_server_obeys_and_the_run_records_it(
    fake_server, api_key, tmp_path
):
    """Like llama-cpp-python's server: 500 on a json_schema envelope, obeys json_object + schema.

    The 500 on the dialect check is "unsupported", not a server failure; the run's stored
    configuration names the dialect its requests used, and every request carried it.
    """
    server = fake_server(dialects=("json_object_schema",), reject="500")
    out = tmp_path / "run.sqlite"
    code = _simulate(out, "--base-url", server.base_url, "--model", server.model,
                     "--api-key-env", api_key, "--no-cache")
    assert code == 0
    from town.recording import RunReader

    with RunReader(out) as reader:
        assert reader.meta["config"]["backend"]["structured"] == "json_object_schema"
        assert reader.meta["config"]["backend"]["max_concurrency"] == "1"
    assert server.counts["chat"] > 0
    assert all("schema" in b["response_format"] for b in server.bodies)


@pytest.mark.parametrize("data", [5, {"id": "fake-model"}])
def test_a_model_list_that_is_no_list_stops_in_one_line(data, fake_server, api_key, tmp_path, capsys):
    """GET /models answering {"data": 5} was a bare TypeError; now exit 2 and one line."""
    server = fake_server()
    server.models_data = data
    out = tmp_path / "run.sqlite"
    code = _simulate(out, "--base-url", server.base_url, "--model", server.model,
                     "--api-key-env", api_key, "--no-cache")
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "did not answer GET /models like an OpenAI-compatible API" in err
    assert f"its data is {type(data).__name__}, not a list" in err
    assert server.counts["chat"] == 0 and not out.exists()


def test_garbage_token_counts_are_estimated_instead(fake_server, api_key, tmp_path):
    """A reply whose usage says "many" or -5 tokens was a bare ValueError at start-up; the run
    now goes on, and every request's counts are the estimate used for servers without usage."""
    server = fake_server()
    server.usage = {"prompt_tokens": "many", "completion_tokens": -5, "total_tokens": None}
    out = tmp_path / "run.sqlite"
    code = _simulate(out, "--base-url", server.base_url, "--model", server.model,
                     "--api-key-env", api_key, "--no-cache")
    assert code == 0
    total = compute_stats(out)["total"]
    assert total["requests"] > 0
    assert total["estimated"] == total["requests"]
    assert total["tokens_in"] > 0 and total["tokens_out"] > 0  # estimates, never negative
