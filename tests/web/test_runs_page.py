"""The runs page of a viewer without a live run: forks described in a sentence, no dead Live link."""

from __future__ import annotations

import shutil

from town.recording import RunReader
from town.recording.continuation import fork_copy
from web import create_app, live


def test_a_fork_is_described_in_a_sentence_and_no_live_link_is_offered(recorded, tmp_path):
    runs, name, _ = recorded
    shutil.copy(runs / f"{name}.sqlite", tmp_path / "parent.sqlite")
    tick, _, _ = fork_copy(tmp_path / "parent.sqlite", tmp_path / "what-if.sqlite", 700)
    with RunReader(tmp_path / "what-if.sqlite") as reader:
        time = reader.meta["parent"]["time"]
    app = create_app({"RUNS_DIR": str(tmp_path), "TESTING": True})
    try:
        html = app.test_client().get("/runs").get_data(as_text=True)
        home = app.test_client().get("/")
    finally:
        live(app).close()
    assert f"Forked from parent at {time} (tick {tick})." in html
    assert "{&#39;run&#39;" not in html and "{'run'" not in html
    assert ">Live</a>" not in html
    assert home.status_code == 302 and home.headers["Location"].endswith("/runs")


def test_the_battery_hint_names_the_run_file_as_the_user_would_type_it(recorded, tmp_path, monkeypatch):
    """No battery yet: the API answers 200 with a null battery and the command naming the run's
    file, relative to the working directory when the runs folder is inside it (runs/ under
    tmp_path), else in full; the battery page shows the same command."""
    runs, name, _ = recorded
    inside = tmp_path / "runs"
    inside.mkdir()
    shutil.copy(runs / f"{name}.sqlite", inside / "mine.sqlite")
    monkeypatch.chdir(tmp_path)
    for folder, shown in ((inside, "runs/mine.sqlite"), (runs, f"{runs}/{name}.sqlite")):
        app = create_app({"RUNS_DIR": str(folder), "TESTING": True})
        stem = shown.rsplit("/", 1)[1].removesuffix(".sqlite")
        try:
            client = app.test_client()
            api = client.get(f"/api/runs/{stem}/battery")
            page = client.get(f"/battery/{stem}").get_data(as_text=True)
        finally:
            live(app).close()
        ask = f"python run.py evaluate {shown} --battery"
        assert api.status_code == 200 and api.get_json() == {"battery": None, "ask": ask}
        assert f"<code>{ask}</code>" in page
