"""A slow model server works with no flags: its speed, measured at start, sets the timeout.

The arithmetic is checked by hand; then whole runs against a loopback fake server that answers
every request, the start-up check's included, in ``L`` wall seconds. At ``L`` = 60 s (the
case that was reported: a 0.5B model on two CPU cores took 41-95 s a request, against the old fixed 30 s)
the_ville's half hour takes about 20 minutes of waiting, so the suite runs it scaled down: ``L``
= 1 s with the timeout bounds scaled alike (30 s and 600 s become 0.5 s and 10 s). What it
proves is the same: the old fixed timeout (0.5 s scaled) would have failed every request, the
measured one (2 L, and the writing of the longest answer) fails none, and the wall time printed at start is within 2x of the run's.
``TOWN_TEST_SLOW_S=60`` runs it unscaled, with no flag but the server's.
"""

from __future__ import annotations

import os
import time

import pytest

from town.cli import main
from town.errors import ThinkingError
from town.events import EventKind
from town.recording import RunReader
from town.thinking import speed
from town.thinking.speed import Speed, Timing, expected_hours, expected_run_s, measure, timeout_for

#: Wall seconds the fake server takes for every request (TOWN_TEST_SLOW_S=60: the reported case).
SLOW_S = float(os.environ.get("TOWN_TEST_SLOW_S", "1"))
#: The default timeout bounds (30 s, 600 s), scaled as the server is.
SCALE = SLOW_S / 60


def test_the_speed_is_read_from_three_timed_requests_by_hand():
    """Tiny: 40 in, 4 out, 0.1 s; reading: 1,000 in (800 estimated), 1 out, 2.6 s; writing: 50
    in, 64 out, 2.1 s. Overhead 0.1 s; a prompt token (2.6 - 0.1) / 1000 = 2.5 ms; an answer
    token (2.1 - 0.1 - 50 * 0.0025) / 64 = 29.296875 ms; 1.25 server tokens per estimated one."""
    s = measure(tiny=Timing(tokens_in=40, tokens_out=4, seconds=0.1),
                reading=Timing(tokens_in=1000, tokens_out=1, seconds=2.6),
                writing=Timing(tokens_in=50, tokens_out=64, seconds=2.1), estimated_in=800)
    assert (s.overhead_s, s.prompt_s, s.output_s, s.token_ratio) == pytest.approx((0.1, 0.0025, 0.029296875, 1.25))
    assert s.to_meta(31.2)["prompt_tokens_per_s"] == 400.0 and s.to_meta(31.2)["output_tokens_per_s"] == 34.1
    assert Speed(overhead_s=60.0, prompt_s=0.0, output_s=0.0).to_meta(120)["prompt_tokens_per_s"] is None
    # no dialect check (a dialect given): no overhead counted, the reading request's time is all prompt
    assert measure(reading=Timing(tokens_in=1000, tokens_out=1, seconds=2.0),
                   writing=Timing(tokens_in=0, tokens_out=50, seconds=1.0)).prompt_s == pytest.approx(0.002)


def test_the_timeout_is_twice_the_longest_request_within_its_bounds_by_hand():
    """With the speed above, the longest request (1,215 estimated prompt tokens = 1,518.75 of the
    server's, 400 out) takes 0.1 + 3.796875 + 11.71875 = 15.615625 s: timeout 31.23125 s. A
    server 60 s a request whatever its size: 120 s. Faster than 15 s: the least, 30 s. One whose
    longest request takes 356 s (twice: 712 s): the most, 600 s. One whose longest takes 676 s:
    refused, naming what was measured."""
    s = Speed(overhead_s=0.1, prompt_s=0.0025, output_s=0.029296875, token_ratio=1.25)
    assert timeout_for(s, prompt_tokens=1215, max_tokens=400, least_s=30, most_s=600) == pytest.approx(31.23125)
    flat = Speed(overhead_s=60.0, prompt_s=0.0, output_s=0.0)
    assert timeout_for(flat, prompt_tokens=1215, max_tokens=400, least_s=30, most_s=600) == 120.0
    fast = Speed(overhead_s=0.01, prompt_s=0.0001, output_s=0.001)
    assert timeout_for(fast, prompt_tokens=1215, max_tokens=400, least_s=30, most_s=600) == 30.0
    busy = Speed(overhead_s=0.1, prompt_s=0.05, output_s=0.7, token_ratio=1.25)  # 0.1 + 75.9375 + 280
    assert timeout_for(busy, prompt_tokens=1215, max_tokens=400, least_s=30, most_s=600) == 600.0
    slow = Speed(overhead_s=0.1, prompt_s=0.05, output_s=1.5, token_ratio=1.25)  # 0.1 + 75.9375 + 600
    with pytest.raises(ThinkingError, match=r"too slow for any request timeout up to 600 s .* read prompts at "
                                            r"20\.0 tokens/s and wrote answers at 0\.7 tokens/s .* about 676 s"):
        timeout_for(slow, prompt_tokens=1215, max_tokens=400, least_s=30, most_s=600, where="the server")


def test_the_expected_wall_time_adds_up_a_personas_hour_at_the_measured_speed():
    """60 s a request whatever its size: a game hour costs each persona its requests times 60 s;
    three personas on one slot wait for each other, on three slots they do not. A run of 0.5
    game hours from the start expects half the first hour; 2.5 hours the first and 1.5 later ones."""
    flat = Speed(overhead_s=60.0, prompt_s=0.0, output_s=0.0)
    first, later = expected_hours(flat, personas=3, at_once=1)
    assert (first, later) == pytest.approx((3 * speed.FIRST_HOUR.requests * 60, 3 * speed.LATER_HOUR.requests * 60))
    assert expected_hours(flat, personas=3, at_once=3) == pytest.approx((first / 3, later / 3))
    assert expected_run_s(100.0, 40.0, 0.5) == 50.0 and expected_run_s(100.0, 40.0, 2.5) == 160.0


def _slow_run(fake_server, api_key, tmp_path, capsys, monkeypatch, *, latency: float, extra: tuple[str, ...],
              tokens_per_s: float | None = None):
    """the_ville for half a game hour on a one-slot server answering every request in ``latency``
    s (and writing at ``tokens_per_s``), the answer cache empty (its own folder); (exit code,
    wall seconds, stderr, run path)."""
    monkeypatch.setenv("TOWN_CACHE_DIR", str(tmp_path / "cache"))
    server = fake_server(latency_s=latency, check_latency_s=latency, slots=1, tokens_per_s=tokens_per_s)
    out = tmp_path / "slow.sqlite"
    capsys.readouterr()
    started = time.monotonic()
    code = main(["simulate", "--town", "the_ville", "--hours", "0.5", "--backend", "openai", "--base-url",
                 server.base_url, "--model", server.model, "--api-key-env", api_key, "--out", str(out), "--quiet",
                 *extra])
    return code, time.monotonic() - started, capsys.readouterr().err, out


@pytest.mark.timeout(3600)
def test_a_slow_server_runs_with_the_timeout_its_measured_speed_sets(fake_server, api_key, tmp_path, capsys,
                                                                     monkeypatch):
    """the_ville's first half hour completes against a server answering every request in SLOW_S
    seconds, its timeout chosen by the start-up check: 2 * SLOW_S, past the old fixed one (30 s,
    scaled), and no request timed out. The wall time printed at start is within 2x of the run's,
    and the run's meta records the speed and the timeout."""
    scaled = () if SCALE == 1 else ("--set", f"backend.min_timeout_s={30 * SCALE:g}",
                                    "--set", f"backend.max_timeout_s={600 * SCALE:g}")
    code, wall, err, out = _slow_run(fake_server, api_key, tmp_path, capsys, monkeypatch, latency=SLOW_S,
                                     extra=scaled)
    assert code == 0, err
    with RunReader(out) as reader:
        assert reader.last_tick == 179 and reader.meta["finished"]
        server = reader.meta["model_server"]
        requests = [e.data for e in reader.events(kinds=[EventKind.MODEL_CALL]) if e.data["request"]]
    # twice the longest request measured: the server takes SLOW_S for any request, so its writing
    # is the writing request's time less the tiny one's, which is noise about 0; when that is not
    # above 0 the check counts the writing request's whole time as writing its 120 tokens (40
    # words of JSON, characters / 4), and the longest answer, 400 tokens, costs up to
    # 400 / 120 * SLOW_S more; plus the client's own overhead (up to 0.5 s a request on a busy
    # machine; at 1 s a request, 10% was too tight)
    assert 2 * SLOW_S <= server["timeout_s"] <= 2 * (SLOW_S + 0.5) * (1 + 400 / 120)
    assert server["timeout_s"] > 30 * SCALE  # the old fixed timeout would have cut every request
    assert requests and all(r["outcome"] == "ok" and r["latency_ms"] >= 1000 * SLOW_S for r in requests)
    assert "expected wall time for 3 personas, 1 request(s) at once" in err
    expected = expected_run_s(server["first_hour_s"], server["later_hour_s"], 0.5)
    check_s = 3 * SLOW_S  # the start-up check's reading, dialect and writing requests
    assert 0.5 <= (wall - check_s) / expected <= 2.0, (wall, expected, len(requests))


def test_a_server_too_slow_for_any_timeout_is_refused_in_one_line_naming_its_speed(fake_server, api_key,
                                                                                  tmp_path, capsys, monkeypatch):
    """Every request takes 0.6 s and its answer's writing at 200 tokens/s, and the most a
    timeout may be is 1.5 s: the longest request (400 tokens out) takes 0.6 + 2 s, past 1.5 s:
    the run does not start: exit 2, one line with the measured speed, no file."""
    code, _, err, out = _slow_run(fake_server, api_key, tmp_path, capsys, monkeypatch, latency=0.6,
                                  extra=("--set", "backend.min_timeout_s=0.1", "--set", "backend.max_timeout_s=1.5"),
                                  tokens_per_s=200.0)
    assert code == 2 and not out.exists()
    line, = [x for x in err.splitlines() if x.strip()]
    assert "is too slow for any request timeout up to 1.5 s (backend.max_timeout_s)" in line
    assert "0.6 s per request besides" in line or "0.7 s per request besides" in line



@pytest.mark.parametrize("timeout, grows", [("auto", True), (1.0, False)])
def test_a_timeout_on_a_server_slower_than_measured_lengthens_the_auto_timeout(fake_server, api_key, timeout, grows):
    """The start-up check measures a fast server (its check requests answer at once), so an auto
    timeout is the least, 1 s; then every answer takes 1.3 s (a busier machine). The first
    attempt times out after 1 s; the auto timeout becomes 1.5 times that wait (about 1.5 s), and
    the second attempt is answered. A fixed timeout of 1 s stays 1 s, and times out again."""
    from town.thinking.model import CallOutcome
    from town.thinking.openai_backend import OpenAIBackend
    from town.thinking.questions import RateImportance

    question = RateImportance(persona="p", persona_name="P", content="ate breakfast", kind="observation")
    server = fake_server(latency_s=1.3, check_latency_s=0.0)
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key, timeout_s=timeout,
                            timeout_bounds=(1.0, 10.0))
    try:
        assert backend.check().timeout_s == 1.0
        first = backend.attempt(question)
        after = backend.timeout_s
        second = backend.attempt(question)
    finally:
        backend.close()
    assert first.outcome is CallOutcome.TIMEOUT
    if grows:
        assert 1.5 <= after < 1.5 * 1.15 and all(t.seconds == after for t in backend.transports)
        assert second.outcome is CallOutcome.OK
    else:
        assert after == 1.0 and second.outcome is CallOutcome.TIMEOUT


def test_the_speed_check_times_writing_and_its_timeout_covers_a_400_token_answer(fake_server, api_key):
    """A fake server writing 40 tokens a wall second (and reading in no time): the check's writing
    request asks for 40 words, 120 answer tokens (481 characters of JSON; 3 s of writing), so the
    writing rate is measured: (3.0 - 0.1) / 120 s a token, 41.4 tokens/s, within 15% of 40 (the
    tiny request's own 4 tokens, 0.1 s, count as overhead). The
    longest answer, 400 tokens (``max_tokens``), takes 400 / 40 = 10 s to write: the timeout
    covers it, and is about twice it (2 * (0.1 + 400 / 41.4) = 19.5 s; 18-24 s allowed), not the
    least allowed (1 s here)."""
    from town.thinking.openai_backend import OpenAIBackend

    server = fake_server(tokens_per_s=40.0)
    backend = OpenAIBackend(base_url=server.base_url, model=server.model, api_key_env=api_key, timeout_s="auto",
                            timeout_bounds=(1.0, 600.0))
    try:
        settled = backend.check()
    finally:
        backend.close()
    assert settled.speed is not None and settled.timeout_s is not None
    rate = settled.speed.to_meta(settled.timeout_s)["output_tokens_per_s"]
    assert 40 * 0.85 <= rate <= 40 * 1.15, rate
    assert backend.max_tokens == 400 and settled.timeout_s >= 400 / 40
    assert 18 <= settled.timeout_s <= 24, settled.timeout_s


def test_a_writing_rate_is_always_measured_and_said_plainly():
    """A writing request no slower than the tiny one (the overhead takes it all) still gives a
    rate: its 100 tokens in its 0.5 s, 200 tokens/s, a bound the true rate is above; the line
    says "wrote answers at 200.0 tokens/s"."""
    s = measure(tiny=Timing(tokens_in=40, tokens_out=4, seconds=0.6),
                reading=Timing(tokens_in=1000, tokens_out=1, seconds=0.6),
                writing=Timing(tokens_in=50, tokens_out=100, seconds=0.5))
    assert s.output_s == pytest.approx(0.005)
    line = speed.describe(s.to_meta(30.0))
    assert "wrote answers at 200.0 tokens/s" in line and "read prompts faster than the check could measure" in line
    assert "too fast to time" not in line
