"""`town simulate --whisper "PERSONA_ID: text"`: a whisper from the command line takes the path
the viewer's whisper box takes (a queued Whisper input, applied before the first tick, recorded as
an INPUT event), and bad input is one line, exit 2, with no run file left."""

from __future__ import annotations

import pytest

from cli_helpers import run_cli
from town.events import EventKind
from town.recording import RunReader

TEXT = "I am hosting a quiz night at Hobbs Cafe on Friday at 6pm"


def test_a_whisper_given_on_the_command_line_is_the_personas_memory_and_an_input(tmp_path):
    """Two whispers, to two personas: each is the first INPUT of tick 0 in the order given, and
    the persona's whisper memory holds the text as typed (in the first person already, the inner voice);
    a whisper in typed shorthand and the second person ("ur exam is tmrw, u got this") is her own
    thought spelled out (a fresh user's fourth round: "Lol ur dog got loose" was told as the listener's)."""
    out = tmp_path / "w.sqlite"
    done = run_cli("simulate", "--town", "the_ville", "--hours", "0.01", "--out", str(out), "--quiet",
                   "--embedder", "hashing", "--whisper", f"isabella_rodriguez: {TEXT}",
                   "--whisper", "klaus_mueller:I should finish my paper today",
                   "--whisper", "maria_lopez: ur exam is tmrw, u got this")
    assert done.returncode == 0, done.stderr
    with RunReader(out) as r:
        inputs = [e for e in r.events(kinds=[EventKind.INPUT])]
        assert [(e.tick, e.data["input"]["persona"], e.data["ok"]) for e in inputs] == [
            (0, "isabella_rodriguez", True), (0, "klaus_mueller", True), (0, "maria_lopez", True)]
        hers = [m["content"] for m in r.memories("maria_lopez", kind="whisper")]
        mine = [m["content"] for m in r.memories("isabella_rodriguez", kind="whisper")]
        his = [m["content"] for m in r.memories("klaus_mueller", kind="whisper")]
    assert mine == [TEXT] and his == ["I should finish my paper today"]
    assert hers == ["My exam is tomorrow, I got this"]  # shorthand spelled out, then said as her own


@pytest.mark.parametrize("whisper, said", [
    ("nobody_here: hello", "--whisper: no persona 'nobody_here' in this town"),
    ("isabella_rodriguez:   ", "--whisper: isabella_rodriguez: the text is empty"),
    ("just some words", "--whisper: 'just some words': expected \"PERSONA_ID: text\""),
])
def test_a_bad_whisper_is_one_line_and_exit_2(tmp_path, whisper, said):
    out = tmp_path / "w.sqlite"
    done = run_cli("simulate", "--town", "the_ville", "--hours", "1", "--out", str(out), "--quiet",
                   "--embedder", "hashing", "--whisper", whisper)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"town: error: {said}"), done.stderr
    assert not out.exists()
