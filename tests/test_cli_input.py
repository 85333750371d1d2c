"""Bad input at the command line and in persona files: one line, exit 2, the run untouched.

The interview cases read a one-hour run of the_ville (07:00 to 08:00, hashing embedder) made in
process; after each refusal the run file passes ``integrity_check``, replays and resumes
(``fault_checks.assert_replays_and_resumes``, on a copy so the cases stay independent).
"""

from __future__ import annotations

import shutil

import pytest
import yaml
from cli_helpers import REPO, run_cli
from fault_checks import assert_replays_and_resumes

from town.config import load_config
from town.recording import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation
from web.cli import main


@pytest.fixture(scope="module")
def hour_run(tmp_path_factory):
    """the_ville from 07:00 for one game hour (360 ticks of 10 s): ticks 0-359, ends 08:00."""
    path = tmp_path_factory.mktemp("hour") / "hour.sqlite"
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}), run_path=path)
    sim.run(360)
    sim.close()
    return path


def _one_line(done, expected: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [expected]


def _refused(capsys, argv: list[str], expected: str) -> None:
    """``town ARGV`` in this process exits 2 with the one line ``expected`` on stderr."""
    assert main(argv) == 2
    assert capsys.readouterr().err.splitlines() == [expected]


def _still_sound(run, tmp_path) -> None:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(run, copy)
    assert assert_replays_and_resumes(copy) == 363


def test_interview_question_that_is_not_utf8_is_one_line(hour_run, tmp_path):
    """As found: ``$'do you know \\xff\\xfe?'`` printed a TypeError traceback. Python
    reads the two bytes as lone surrogates U+DCFF U+DCFE."""
    done = run_cli("interview", str(hour_run), "--persona", "klaus_mueller", "--at", "2023-02-13T08:00",
                   "do you know \udcff\udcfe?", timeout=120)
    _one_line(done, "town: error: question: is not valid UTF-8 text (character 12: U+DCFF, a lone surrogate "
                    "or a byte that is not UTF-8)")
    _still_sound(hour_run, tmp_path)


def test_an_option_that_is_not_utf8_is_named(tmp_path, capsys):
    """``--player`` and ``--set`` with bytes that are not UTF-8: one line naming the option, no run file."""
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["serve", "--port", "0", "--out", str(out), "--player", "Ad\udce9"],
             "town: error: --player: is not valid UTF-8 text (character 2: U+DCE9, a lone surrogate "
             "or a byte that is not UTF-8)")
    _refused(capsys, ["simulate", "--hours", "1", "--out", str(out), "--set=seed=1\x00"],
             "town: error: --set: must not contain NUL")
    assert not out.exists()


def test_a_persona_file_with_a_lone_surrogate_is_refused_at_load(tmp_path, capsys):
    """A YAML escape ``"\\ud800"`` in a persona's name: one line naming the file and field."""
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    klaus = town / "klaus_mueller.yaml"
    klaus.write_text(klaus.read_text(encoding="utf-8").replace("name: Klaus Mueller", 'name: "Klaus \\ud800 Mueller"'),
                     encoding="utf-8")
    assert yaml.safe_load(klaus.read_text(encoding="utf-8"))["name"] == "Klaus \ud800 Mueller"
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--town", str(town), "--hours", "1", "--out", str(out), "--embedder", "hashing"],
             f"town: error: {klaus}: name: is not valid UTF-8 text (character 6: U+D800, a lone "
             "surrogate or a byte that is not UTF-8)")
    assert not out.exists()


def test_a_persona_file_with_a_terminal_escape_is_refused_at_load(tmp_path, capsys):
    """A YAML escape ``"\\e]0;owned\\a"`` (ESC, set the terminal's title, BEL) in a persona's
    background was loaded and later printed raw by ``inspect``: one line naming the file, the
    field and the first control character (ESC at character 6, counted by hand)."""
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    klaus = town / "klaus_mueller.yaml"
    text = klaus.read_text(encoding="utf-8")
    assert text.count("lifestyle: \"Klaus goes") == 1
    klaus.write_text(text.replace("lifestyle: \"Klaus goes", "lifestyle: \"Klaus \\e]0;owned\\a goes"),
                     encoding="utf-8")
    assert yaml.safe_load(klaus.read_text(encoding="utf-8"))["lifestyle"].startswith("Klaus \x1b]0;owned\x07 goes")
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--town", str(town), "--hours", "1", "--out", str(out), "--embedder", "hashing"],
             f"town: error: {klaus}: lifestyle: holds a control character (character 6: U+001B); only tab "
             "and line breaks may be in a text")
    assert not out.exists()


def test_a_whisper_argument_with_a_terminal_escape_is_refused(tmp_path, capsys):
    """``simulate --whisper`` with ESC: one line naming the argument; no run file."""
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--town", "the_ville", "--hours", "1", "--out", str(out), "--embedder", "hashing",
                      "--whisper", "klaus_mueller: hi\x1b[31mred"],
             "town: error: --whisper: holds a control character (character 17: U+001B); only tab and line "
             "breaks may be in a text")
    assert not out.exists()


BOUND = "holds more than 67,108,864 bytes; a town or configuration file is at most 67,108,864 (is it the file you meant?)"


def test_a_town_or_configuration_file_linked_to_dev_zero_is_one_line(tmp_path, capsys):
    """As found: ``--config /dev/zero`` (and a persona file linked to it) read without end until
    the kernel killed the process for memory. Each is read to 64 MiB (2**26 bytes) and refused
    with one line naming it; no run file is made."""
    out = tmp_path / "x.sqlite"
    base = ["simulate", "--hours", "1", "--out", str(out), "--embedder", "hashing"]
    _refused(capsys, base + ["--town", "the_ville", "--config", "/dev/zero"], f"town: error: /dev/zero: {BOUND}")
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    klaus = town / "klaus_mueller.yaml"
    klaus.unlink()
    klaus.symlink_to("/dev/zero")
    _refused(capsys, base + ["--town", str(town)], f"town: error: {klaus}: {BOUND}")
    assert not out.exists()


def test_a_town_file_of_exactly_the_bound_is_read(tmp_path):
    """A YAML file of 2**26 bytes (a comment padding the town file) is read; one byte more is refused."""
    from town.errors import ConfigError
    from town.world.fields import read_yaml
    path = tmp_path / "town.yaml"
    head = b"name: The Ville\n#"
    path.write_bytes(head + b"x" * (2**26 - len(head)))
    assert path.stat().st_size == 2**26 and read_yaml(path) == {"name": "The Ville"}
    with path.open("ab") as f:
        f.write(b"x")
    with pytest.raises(ConfigError, match="holds more than 67,108,864 bytes"):
        read_yaml(path)


@pytest.mark.parametrize("name", ["events.yaml", "probes.yaml"])
def test_an_events_or_probes_file_that_is_a_broken_link_or_a_folder_is_one_line(tmp_path, capsys, name):
    """As found: ``events.yaml`` as a link to a moved file (or a folder) was taken as no file: the
    run went on without the town's events, saying nothing. Now one line naming it."""
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    given = town / name
    given.unlink()
    given.symlink_to(tmp_path / "moved" / name)
    out = tmp_path / "x.sqlite"
    argv = ["simulate", "--town", str(town), "--hours", "1", "--out", str(out), "--embedder", "hashing"]
    _refused(capsys, argv, f"town: error: {given}: is a link to {tmp_path / 'moved' / name}, which is not there")
    given.unlink()
    given.mkdir()
    _refused(capsys, argv, f"town: error: {given}: cannot read it: Is a directory")
    assert not out.exists()


@pytest.mark.parametrize("question", ["", "   "])
def test_interview_refuses_an_empty_question(hour_run, tmp_path, capsys, question):
    """An empty or blank question was answered without comment (the web API refuses it)."""
    _refused(capsys, ["interview", str(hour_run), "--persona", "klaus_mueller", question],
             "town: error: question: is empty; ask something, e.g. 'Do you know about a party?'")
    _still_sound(hour_run, tmp_path)


def test_interview_refuses_a_question_longer_than_the_viewers(hour_run, tmp_path, capsys):
    """A question of 1,000,000 characters was embedded and answered; the viewer takes 500. 500
    characters (after the spaces around it are cut) are asked; 501 are one line."""
    _refused(capsys, ["interview", str(hour_run), "--persona", "klaus_mueller", "why? " * 200_000],
             "town: error: question: is 999,999 characters long; ask at most 500")
    _refused(capsys, ["interview", str(hour_run), "--persona", "klaus_mueller", "a" * 501],
             "town: error: question: is 501 characters long; ask at most 500")
    assert main(["interview", str(hour_run), "--persona", "klaus_mueller", " " + "a" * 499 + "? "]) == 0
    _still_sound(hour_run, tmp_path)


@pytest.mark.parametrize(("at", "where"), [("2023-02-13 08:01", "after the run ends"),
                                           ("2023-02-20 12:00", "after the run ends"),
                                           ("2023-02-13 06:59", "before the run starts")])
def test_interview_refuses_a_time_outside_the_run(hour_run, capsys, at, where):
    """``--at`` after the end of the last tick (08:00) or before 07:00: one line naming the span,
    every time in one format (the end was "2023-02-13 08:00:00" beside a start of "07:00")."""
    _refused(capsys, ["interview", str(hour_run), "--persona", "klaus_mueller", "--at", at, "Do you know about a party?"],
             f"town: error: --at: {at} is {where}: {hour_run} covers 2023-02-13 07:00 to "
             "2023-02-13 08:00 (ticks 0-359)")


def test_interview_at_the_end_of_the_run_is_answered(hour_run, capsys):
    """The span's end itself is inside it."""
    assert main(["interview", str(hour_run), "--persona", "klaus_mueller", "--at", "2023-02-13 08:00",
                 "Do you know about a party?"]) == 0
    assert "(tick 359)" in capsys.readouterr().out


def test_generate_refuses_more_residents_than_a_map_holds(tmp_path, capsys):
    """``--personas 100000000`` ran until killed; the limit is 5,000 (a map of 83 x 83 cells)."""
    out = tmp_path / "big"
    for n in ("5001", "100000000"):  # 5001 first: without the limit it ends, 10^8 would not
        _refused(capsys, ["generate", "--personas", n, "--out", str(out)],
                 f"town: error: --personas: must be 1 to 5,000 residents (a generated map holds no more), "
                 f"got {int(n):,}")
    assert not out.exists()


def test_interview_span_shows_seconds_only_off_the_minute(tmp_path, capsys):
    """A run of 100 ticks ends at 07:16:40: start and end in the one format, seconds where they are."""
    path = tmp_path / "short.sqlite"
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}), run_path=path)
    sim.run(100)
    sim.close()
    _refused(capsys, ["interview", str(path), "--persona", "klaus_mueller", "--at", "2023-02-13 07:17", "Hi?"],
             f"town: error: --at: 2023-02-13 07:17 is after the run ends: {path} covers 2023-02-13 07:00 to "
             "2023-02-13 07:16:40 (ticks 0-99)")


@pytest.mark.parametrize("last", ["99999999999999999999", "1000001"])
def test_inspect_last_past_its_limit_is_one_line(hour_run, capsys, last):
    """As found: ``--last 99999999999999999999`` ended in "OverflowError: Python int too large to
    convert to SQLite INTEGER"; the limit is 1,000,000, as ``--last 0`` gets its own line."""
    _refused(capsys, ["inspect", str(hour_run), "--persona", "maria_lopez", "--last", last],
             f"town: error: --last: must be at most 1,000,000 retrievals, got {int(last):,}")
    assert main(["inspect", str(hour_run), "--persona", "maria_lopez", "--last", "1000000"]) == 0
    assert "query:" in capsys.readouterr().out


def test_study_seeds_past_its_limit_is_one_line(tmp_path, capsys):
    """``study --seeds 99999999999999999999`` was an OverflowError traceback in ``range``."""
    out = tmp_path / "study"
    for seeds in ("1001", "99999999999999999999"):
        _refused(capsys, ["study", "--hours", "0.1", "--conditions", "full", "--seeds", seeds, "--out", str(out)],
                 f"town: error: --seeds: must be at most 1,000 seeds, got {int(seeds):,}")
    assert not list(tmp_path.rglob("*.sqlite"))


def test_inspect_refuses_an_unknown_purpose(hour_run, capsys):
    """``--purpose bogus`` said "no retrievals of maria_lopez match"; the known purposes are listed."""
    _refused(capsys, ["inspect", str(hour_run), "--persona", "maria_lopez", "--purpose", "bogus"],
             "town: error: --purpose: unknown purpose 'bogus'; one of: act, chat, plan_day, plan_events, "
             "react, reflect")
    assert main(["inspect", str(hour_run), "--persona", "maria_lopez", "--purpose", "act", "--last", "1"]) == 0
    assert "[act]" in capsys.readouterr().out


@pytest.mark.parametrize(("at", "where"), [("2023-02-13 06:00", "before the run starts"),
                                           ("2023-02-13 08:01", "after the run ends")])
def test_inspect_refuses_a_time_outside_the_run_as_interview_does(hour_run, capsys, at, where):
    """``--at`` before the start said "no retrievals of maria_lopez match": the interview's line."""
    _refused(capsys, ["inspect", str(hour_run), "--persona", "maria_lopez", "--at", at],
             f"town: error: --at: {at} is {where}: {hour_run} covers 2023-02-13 07:00 to "
             "2023-02-13 08:00 (ticks 0-359)")


def test_a_whisper_names_its_persona_by_full_name_as_interview_does(tmp_path, capsys):
    """``--whisper "Maria Lopez: ..."`` said "no persona 'Maria Lopez'" though ``interview
    --persona "Isabella Rodriguez"`` takes a full name; both go through one resolver."""
    from town.recording import RunReader

    out = tmp_path / "w.sqlite"
    assert main(["simulate", "--town", "the_ville", "--hours", "0.01", "--out", str(out), "--quiet",
                 "--embedder", "hashing", "--whisper", "maria lópez: The library closes early on Friday."]) == 0
    with RunReader(out) as r:
        assert [m["content"] for m in r.memories("maria_lopez", kind="whisper")] == [
            "The library closes early on Friday."]
    _refused(capsys, ["simulate", "--town", "the_ville", "--hours", "0.01", "--out", str(tmp_path / "x.sqlite"),
                      "--quiet", "--embedder", "hashing", "--whisper", "Maria: hello"],
             "town: error: --whisper: no persona 'Maria' in this town; one of: isabella_rodriguez, "
             "klaus_mueller, maria_lopez")


def _ville(tmp_path):
    town = tmp_path / "ville"
    shutil.copytree(REPO / "personas" / "the_ville", town)
    return town


def _simulate(town, out) -> list[str]:
    return ["simulate", "--town", str(town), "--hours", "0.01", "--out", str(out), "--quiet", "--embedder", "hashing"]


@pytest.mark.parametrize(("name", "said"), [
    ("Klaus \\u202eMueller", "character 6: U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Klaus\\u200b Mueller", "character 5: U+200B ZERO WIDTH SPACE"),
    ("\\u2066Klaus Mueller\\u2069", "character 0: U+2066 LEFT-TO-RIGHT ISOLATE"),
])
def test_a_persona_name_holding_a_bidi_or_zero_width_character_is_refused(tmp_path, capsys, name, said):
    """As found: U+202E and U+200B in a persona's ``name`` were taken and ended up in chat lines.
    The whisper's check (a character that draws nothing, ``town.text``) refuses it: one line
    naming the file and the field."""
    town = _ville(tmp_path)
    klaus = town / "klaus_mueller.yaml"
    klaus.write_text(klaus.read_text(encoding="utf-8").replace("name: Klaus Mueller", f'name: "{name}"'),
                     encoding="utf-8")
    out = tmp_path / "x.sqlite"
    _refused(capsys, _simulate(town, out),
             f"town: error: {klaus}: name: holds a character that draws nothing or reorders the text ({said})")
    assert not out.exists()


def test_a_place_name_holding_a_zero_width_character_is_refused(tmp_path, capsys):
    """A sector's name in the map (what routines and homes name) is checked the same way."""
    town = _ville(tmp_path)
    town_map = town / "map.yaml"
    town_map.write_text(town_map.read_text(encoding="utf-8").replace(
        "  - name: Oak Hill College\n", '  - name: "Oak Hill\\u200bCollege"\n'), encoding="utf-8")
    out = tmp_path / "x.sqlite"
    _refused(capsys, _simulate(town, out),
             f"town: error: {town_map}: sectors[0].name: holds a character that draws nothing or reorders the "
             "text (character 8: U+200B ZERO WIDTH SPACE)")


@pytest.mark.parametrize(("file", "edit", "said"), [
    # as found: `name: A` and `name: B` appended to a persona file ran with "B"
    ("maria_lopez.yaml", lambda t: t + "name: A\nname: B\n", "duplicate key 'name' at line 36 (first at line 2)"),
    ("town.yaml", lambda t: t + "start: \"2023-02-14 07:00\"\n", "duplicate key 'start' at line 6 (first at line 5)"),
    ("map.yaml", lambda t: t.replace("    rect: [1, 1, 19, 17]\n", "    rect: [1, 1, 19, 17]\n    rect: [1, 1, 9, 9]\n"),
     "duplicate key 'rect' at line 10 (first at line 9)"),
    ("maria_lopez.yaml", lambda t: t.replace('{start: "00:00", end: "07:30",', '{start: "00:00", end: "07:30", end: "08:00",'),
     "duplicate key 'end' at line 14 (first at line 14)"),
])
def test_a_key_given_twice_in_a_yaml_file_is_refused(tmp_path, capsys, file, edit, said):
    """PyYAML keeps the last of two equal keys silently; every YAML file is read by one loader that
    refuses them, naming the file, the key and its lines."""
    town = _ville(tmp_path)
    path = town / file
    text = path.read_text(encoding="utf-8")
    path.write_text(edit(text), encoding="utf-8")
    assert path.read_text(encoding="utf-8") != text
    out = tmp_path / "x.sqlite"
    _refused(capsys, _simulate(town, out), f"town: error: {path}: {said}")
    assert not out.exists()


def test_a_merge_key_may_be_overridden():
    """YAML's ``<<`` merge is no duplicate: a key given after it overrides the merged one."""
    from town.world.fields import load_yaml

    assert load_yaml("base: &b {x: 1, y: 2}\nmore:\n  <<: *b\n  x: 3\n") == {"base": {"x": 1, "y": 2},
                                                                              "more": {"x": 3, "y": 2}}


@pytest.mark.parametrize(("name", "said"), [
    # as found: a run `replay` then refused
    ("foo.txt", "{out}: a run file ends in .sqlite"),
    # as found: listed at /replay/has%252fslash, whose page and /api/runs/has%252fslash 404'd
    ("has%2fslash.sqlite", "the run name 'has%2fslash' could not be served by the viewer (it holds a percent "
                           "escape, '\\', ':' or NUL, or starts with '.'); use letters, digits, '-', '_'"),
    ("a:b.sqlite", "the run name 'a:b' could not be served by the viewer (it holds a percent "
                   "escape, '\\', ':' or NUL, or starts with '.'); use letters, digits, '-', '_'"),
    # as found: "town: error: [Errno 36] File name too long" without the option
    ("r" * 293 + ".sqlite", "'" + "r" * 40 + "'... is too long (300 bytes as a file or folder name; at most 255)"),
])
@pytest.mark.parametrize("command", ["simulate", "fork", "serve"])
def test_an_out_the_viewer_could_not_serve_is_refused_up_front(hour_run, tmp_path, capsys, command, name, said):
    """``--out`` of every command that makes a run: one line naming ``--out``, nothing made. (A
    town or config that is missing follows, so that without the check each ends at once, on it.)"""
    out = tmp_path / name
    missing = str(tmp_path / "missing")
    argv = {"simulate": ["simulate", "--hours", "1", "--out", str(out), "--town", missing],
            "fork": ["fork", str(hour_run), "--at", "2023-02-13 07:30", "--out", str(out), "--config", missing],
            "serve": ["serve", "--port", "0", "--out", str(out), "--town", missing]}[command]
    _refused(capsys, argv, f"town: error: --out: {said.format(out=out)}")
    assert list(tmp_path.iterdir()) == []


def test_a_run_whose_name_the_viewer_cannot_serve_is_not_listed(hour_run, tmp_path):
    """A run file named ``has%2fslash.sqlite`` (made outside `town`) is not listed; one named
    ``50%.sqlite`` (no escape) is listed and served under the name it is listed by."""
    from urllib.parse import quote

    from web import create_app

    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(hour_run, runs / "has%2fslash.sqlite")
    shutil.copy(hour_run, runs / "50%.sqlite")
    client = create_app({"RUNS_DIR": str(runs), "TESTING": True}).test_client()
    listed = [r["name"] for r in client.get("/api/runs").get_json()["runs"]]
    assert listed == ["50%"]
    assert client.get(f"/api/runs/{quote('50%')}").status_code == 200


@pytest.mark.parametrize("command", ["simulate", "resume", "fork", "study", "evaluate"])
def test_hours_past_their_limit_are_one_line(hour_run, tmp_path, capsys, command):
    """``--hours 1e308`` was "ValueError: cannot convert float NaN to integer" (its seconds
    overflow to infinity) in simulate, resume and fork, and an OverflowError per task in study:
    at most 1,000,000 game hours, one line naming the option; nothing made, the run untouched.
    (Only numbers that overflow are run here: without the check 1,000,001 hours would run.)"""
    hours = "1e308"
    run = tmp_path / "run.sqlite"
    shutil.copy(hour_run, run)
    out = tmp_path / "out"
    flag = "--every" if command == "evaluate" else "--hours"
    argv = {"simulate": ["simulate", "--hours", hours, "--out", str(out) + ".sqlite"],
            "resume": ["resume", str(run), "--hours", hours],
            "fork": ["fork", str(run), "--at", "2023-02-13 07:30", "--hours", hours, "--out", str(out) + ".sqlite"],
            "study": ["study", "--hours", hours, "--conditions", "full", "--seeds", "1", "--out", str(out)],
            "evaluate": ["evaluate", str(run), "--every", hours, "--out", str(out)]}[command]
    _refused(capsys, argv, f"town: error: {flag}: must be at most 1,000,000 game hours, got {float(hours)}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.sqlite"]
    assert run.read_bytes() == hour_run.read_bytes()


def test_the_limit_of_game_hours_is_one_million():
    from town.cli.options import check_hours
    from town.errors import ConfigError

    assert check_hours(1_000_000) == 1_000_000
    with pytest.raises(ConfigError, match=r"^--hours: must be at most 1,000,000 game hours, got 1000000.5$"):
        check_hours(1_000_000.5)


def test_snapshots_further_apart_than_a_year_are_one_line_before_the_run_file(tmp_path, capsys):
    """``--set recording.snapshot_every_hours=1e308`` made the run file, then "OverflowError:
    cannot convert float infinity to integer" counting its ticks."""
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--hours", "1", "--out", str(out), "--set", "recording.snapshot_every_hours=1e308"],
             "town: error: town/default.toml + overrides: recording.snapshot_every_hours: must be > 0 and at most "
             "8760 game hours, got 1e+308")
    assert not out.exists()


@pytest.mark.parametrize("battery", [[], ["--battery"]])
def test_an_evaluation_folder_that_cannot_be_made_is_refused_before_the_interviews(hour_run, tmp_path, capsys,
                                                                                    monkeypatch, battery):
    """``evaluate --out`` under a file interviewed everyone, then ended in "[Errno 20] Not a
    directory" naming no option: the folder is made first, one line naming ``--out``."""
    import town.analysis.battery_run
    import town.analysis.evaluate

    def no_interviews(*args, **kwargs):
        raise AssertionError("interviewed before the folder was checked")

    monkeypatch.setattr(town.analysis.evaluate, "evaluate", no_interviews)
    monkeypatch.setattr(town.analysis.battery_run, "ask_battery", no_interviews)
    (tmp_path / "file").write_text("x")
    out = tmp_path / "file" / "evaluation"
    _refused(capsys, ["evaluate", str(hour_run), "--out", str(out), *battery],
             f"town: error: --out: cannot use {out} as the evaluation's folder: Not a directory")


@pytest.mark.parametrize("command", ["simulate", "interview"])
def test_a_base_url_that_is_no_url_is_one_line(hour_run, tmp_path, capsys, command):
    """``--base-url 'http://[::1'`` was "httpx.InvalidURL: Invalid port: ':1'", a traceback, in
    simulate; replay served on and failed only when its page asked a model to evaluate (it reads
    the option as interview does, ``NamedModel.from_args``; not served here, as without the check
    it would serve on)."""
    out = tmp_path / "x.sqlite"
    model = ["--backend", "openai", "--model", "m", "--base-url", "http://[::1"]
    argv = {"simulate": ["simulate", "--hours", "1", "--out", str(out), *model],
            "interview": ["interview", str(hour_run), "--persona", "klaus_mueller", *model, "hi"]}[command]
    field = "town/default.toml + overrides: backend.base_url" if command == "simulate" else "--base-url"
    _refused(capsys, argv, f"town: error: {field}: is no URL (Invalid IPv6 URL), got 'http://[::1'")
    assert not out.exists()


def test_a_base_url_holding_a_password_is_refused_before_the_run_file(tmp_path, capsys):
    """``--base-url http://alice:s3cr3t@HOST/v1`` was written into the run file's config (and its
    model status events), which replay serves: refused, the password not repeated."""
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--hours", "1", "--out", str(out), "--backend", "openai", "--model", "m",
                      "--base-url", "http://alice:s3cr3t@127.0.0.1:9/v1"],
             "town: error: town/default.toml + overrides: backend.base_url: must not hold a user or password (the "
             "run file records the address): give the key in the environment variable --api-key-env names, got "
             "http://...@127.0.0.1:9")
    assert not out.exists()


def test_a_run_made_with_a_relative_town_goes_on_from_another_folder(tmp_path, capsys, monkeypatch):
    """``simulate --town ville`` recorded the town as "ville", so ``resume`` from any other
    working directory said "no town folder 'ville'" (or took another folder of that name): the
    run records the folder's absolute path; and a run whose town folder is gone says so, naming
    the run, not as if ``--town`` had named the folder."""
    shutil.copytree(REPO / "personas" / "the_ville", tmp_path / "ville")
    run = tmp_path / "rel.sqlite"
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--town", "ville", "--hours", "0.05", "--out", "rel.sqlite", "--quiet",
                 "--embedder", "hashing"]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with RunReader(run) as reader:
        assert reader.meta["scenario"] == str(tmp_path / "ville")
    assert main(["resume", str(run), "--hours", "0.05", "--quiet"]) == 0
    capsys.readouterr()
    shutil.rmtree(tmp_path / "ville")
    for argv in (["resume", str(run), "--hours", "0.05"],
                 ["fork", str(run), "--at", "2023-02-13 07:00", "--out", str(tmp_path / "f.sqlite")]):
        _refused(capsys, argv, f"town: error: {run}: was recorded in the town folder {tmp_path / 'ville'}, which "
                               "is gone; put that folder back to go on from this run")
    assert not (tmp_path / "f.sqlite").exists()


@pytest.mark.parametrize(("text", "said"), [
    ("{{ unclosed", "line 1: unexpected end of template, expected 'end of print statement'."),
    (b"\xff\xfe", "is not UTF-8 text (invalid start byte)"),
])
def test_a_prompt_template_that_does_not_compile_is_refused_before_the_run_file(tmp_path, capsys, text, said):
    """A broken ``plan_day.j2`` in ``--prompts`` made the run file, then failed tick 0 ("tick 0 did
    not complete: ThinkingError: ... failed to render"): each template is compiled at start, one
    line naming the file and the line, before the model server is asked or anything is made."""
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    template = prompts / "plan_day.j2"
    template.write_bytes(text if isinstance(text, bytes) else text.encode())
    out = tmp_path / "x.sqlite"
    _refused(capsys, ["simulate", "--hours", "1", "--out", str(out), "--backend", "openai", "--model", "m",
                      "--base-url", "http://127.0.0.1:9/v1", "--prompts", str(prompts)],
             f"town: error: {template}: --prompts: {said}")
    assert not out.exists()


@pytest.mark.parametrize(("key", "value", "said"), [
    ("seconds_per_tick", "0", "must be a whole number of game seconds, 1-3600, got 0"),
    ("config", "-1", "must be a JSON object, got -1"),
    ("personas", '{"a": 1}', "must be persona objects by id (or a list of ids), got {'a': 1}"),
    ("persona_files", "[]", "must be an object of persona file objects, got []"),
    ("ablate", "-1", "must be text, got -1"),
    ("scenario", "null", "must be a town folder's path, got None"),
    ("start", '""', "must be a game time like '2023-02-13 07:00:00', got ''"),
])
@pytest.mark.parametrize("command", ["stats", "interview", "resume"])
def test_a_meta_value_of_the_wrong_kind_is_a_damaged_run(hour_run, tmp_path, capsys, key, value, said, command):
    """A run file whose meta was edited (or another program's file that looks like a run): a
    ``seconds_per_tick`` of 0 was a ZeroDivisionError in interview, evaluate, resume and compare,
    ``config`` -1 an AttributeError in stats, ``start`` "" a ValueError: one line naming the key."""
    import sqlite3

    run = tmp_path / "edited.sqlite"
    shutil.copy(hour_run, run)
    with sqlite3.connect(run) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.close()
    argv = {"stats": ["stats", str(run)], "resume": ["resume", str(run), "--hours", "1"],
            "interview": ["interview", str(run), "--persona", "klaus_mueller", "hi"]}[command]
    _refused(capsys, argv, f"town: error: {run} is not a town run file (or is damaged): meta {key!r} {said}")


@pytest.mark.parametrize(("workers", "expected"), [
    ("65", "town: error: --workers: 65 processes is more than 64; each loads the libraries and the embedder (use ray "
           "for more)"),
    ("100000", "town: error: --workers: 100,000 processes is more than 64; each loads the libraries and the embedder "
               "(use ray for more)"),
])
def test_study_workers_past_their_limit_are_one_line(tmp_path, capsys, workers, expected):
    """``study --workers 100000 --seeds 1000`` started a process per run until memory ran out: the
    limit is 64 local processes, refused before the study's folder is made."""
    out = tmp_path / "study"
    _refused(capsys, ["study", "--town", "the_ville", "--hours", "0.1", "--seeds", "2", "--workers", workers,
                      "--out", str(out)], expected)
    assert not out.exists()


def test_study_workers_at_the_limit_are_taken():
    from town.studies.conduct import parse_workers
    assert parse_workers("64") == 64 and parse_workers("1") == 1
