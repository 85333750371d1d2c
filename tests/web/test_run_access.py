"""Runs by name only: path traversal is 404 with nothing opened outside the runs folder, and a
damaged or newer run file gives a clear error page, never a traceback (docs/design, §4, §5).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from web import create_app, live


@pytest.fixture
def runs_app(recorded, tmp_path):
    """An app over a fresh runs folder holding a copy of the recorded run, and beside the folder
    a valid run file that must never be opened (the sentinel).
    """
    runs = tmp_path / "runs"
    runs.mkdir()
    source = recorded[0] / f"{recorded[1]}.sqlite"
    shutil.copy(source, runs / "good.sqlite")
    shutil.copy(source, tmp_path / "secret.sqlite")
    app = create_app({"RUNS_DIR": str(runs), "TESTING": True})
    yield app, runs
    live(app).close()


@pytest.fixture
def opened(monkeypatch):
    """Every path passed to sqlite3.connect during the test."""
    paths: list[Path] = []
    real = sqlite3.connect

    def spy(database, *args, **kwargs):
        paths.append(Path(str(database)).resolve())
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", spy)
    return paths


TRAVERSALS = [
    "..%2fsecret", "..%2f..%2fetc%2fpasswd", "%2e%2e%2fsecret", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "%252e%252e%252fsecret", "..", "%2e%2e", "..%5csecret", "%2fetc%2fpasswd", "%2Fetc%2Fpasswd",
    "..%2Fsecret.sqlite", "%00secret", ".hidden", "C:%5cWindows",
]


@pytest.mark.parametrize("name", TRAVERSALS)
def test_traversal_names_are_404_and_open_nothing_outside(runs_app, opened, name):
    """Every route that takes a run name answers 404 and opens no file outside the runs folder."""
    app, runs = runs_app
    client = app.test_client()
    for path in (f"/replay/{name}", f"/api/runs/{name}", f"/api/runs/{name}/frames/0",
                 f"/api/runs/{name}/frames?start=0&end=1", f"/api/runs/{name}/personas/klaus_mueller",
                 f"/api/runs/{name}/retrievals/1/lab", f"/api/runs/{name}/procedures",
                 f"/api/runs/{name}/evaluation"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert b"Traceback" not in response.data
    assert all(p.parent == runs.resolve() for p in opened)
    assert (runs.parent / "secret.sqlite").resolve() not in opened


def test_absolute_paths_and_symlinks_out_are_404(runs_app, opened):
    """An absolute path (double slash) and a symlink leading outside the folder are refused."""
    app, runs = runs_app
    secret = runs.parent / "secret.sqlite"
    (runs / "link.sqlite").symlink_to(secret)
    client = app.test_client()
    for path in (f"/replay/{secret}", f"/api/runs/{secret}", "/api/runs//etc/passwd", "/replay/link",
                 "/api/runs/link", "/api/runs/link/frames/0"):
        assert client.get(path).status_code == 404, path
    assert secret.resolve() not in opened


def test_a_good_name_opens_only_its_own_file(runs_app, opened):
    """The control case: the spy sees the run file inside the folder being opened."""
    app, runs = runs_app
    assert app.test_client().get("/api/runs/good/frames/0").status_code == 200
    assert opened and set(opened) == {(runs / "good.sqlite").resolve()}


def truncated_copy(source: Path, target: Path) -> None:
    """The first half of a run file (a copy cut short)."""
    data = source.read_bytes()
    target.write_bytes(data[: len(data) // 2])


def newer_schema_copy(source: Path, target: Path) -> None:
    """A run file whose meta says schema_version 999."""
    shutil.copy(source, target)
    with sqlite3.connect(target) as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    conn.close()


def damaged_meta_copy(source: Path, target: Path) -> None:
    """A run file whose meta ``personas`` is not JSON."""
    _altered_copy(source, target, "UPDATE meta SET value = '{{' WHERE key = 'personas'")


def _altered_copy(source: Path, target: Path, sql: str) -> None:
    shutil.copy(source, target)
    with sqlite3.connect(target) as conn:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize("make,says", [
    (truncated_copy, "is not a town run file (or is damaged)"),
    (newer_schema_copy, "schema_version 999"),
    (damaged_meta_copy, "(or is damaged): meta "),
])
def test_damaged_runs_give_a_clear_error_page(runs_app, make, says):
    """A truncated run or one of another schema: 422 page and JSON with the message, no traceback;
    the runs page lists it with its error.
    """
    app, runs = runs_app
    make(runs / "good.sqlite", runs / "bad.sqlite")
    client = app.test_client()
    page = client.get("/replay/bad")
    html = page.get_data(as_text=True)
    assert page.status_code == 422 and page.mimetype == "text/html"
    assert says in html and "Traceback" not in html and 'id="error-message"' in html
    api = client.get("/api/runs/bad/frames/0")
    assert api.status_code == 422 and says in api.get_json()["error"]
    # where the server keeps its runs is not shown: the file is named as the page names it
    assert str(runs) not in html and str(runs) not in api.get_json()["error"]
    assert api.get_json()["error"].startswith("bad.sqlite")
    listing = client.get("/runs").get_data(as_text=True)
    assert 'data-run="bad"' in listing and says in listing and 'href="/replay/good"' in listing
    assert "Traceback" not in listing


def test_error_messages_are_escaped(runs_app):
    """A damaged run whose name holds HTML: the page shows the text, never the markup."""
    app, runs = runs_app
    name = "<img src=x onerror=alert(1)>"
    (runs / f"{name}.sqlite").write_bytes(b"not a database at all, just text" * 40)
    client = app.test_client()
    page = client.get("/replay/%3Cimg%20src=x%20onerror=alert(1)%3E")
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "<img src=x" not in html
    listing = client.get("/runs").get_data(as_text=True)
    assert "<img src=x" not in listing and "&lt;img src=x onerror=alert(1)&gt;" in listing


def test_runs_list_survives_a_run_with_damaged_meta(runs_app):
    """GET /api/runs: the damaged run is an error row naming the meta key, the good one a summary."""
    app, runs = runs_app
    damaged_meta_copy(runs / "good.sqlite", runs / "bad.sqlite")
    response = app.test_client().get("/api/runs")
    assert response.status_code == 200
    rows = {r["name"]: r for r in response.get_json()["runs"]}
    assert "meta 'personas'" in rows["bad"]["error"] and "error" not in rows["good"]


def test_interview_with_a_bad_recorded_config_is_400_naming_the_run(runs_app):
    """A meta config {"retrieval": 5}: 400 naming the run file and config.retrieval, not a 500."""
    app, runs = runs_app
    _altered_copy(runs / "good.sqlite", runs / "odd.sqlite",
                  "UPDATE meta SET value = '{\"retrieval\": 5}' WHERE key = 'config'")
    response = app.test_client().get("/api/runs/odd/personas/klaus_mueller/interview?q=hi")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("odd.sqlite: ")  # the run, not the server's folder
    assert "config.retrieval" in response.get_json()["error"]


def test_interview_of_a_run_without_ticks_is_422(runs_app):
    """A run with no frame yet: 422 'has no recorded tick yet', not a 500."""
    app, runs = runs_app
    _altered_copy(runs / "good.sqlite", runs / "empty.sqlite", "DELETE FROM frames")
    response = app.test_client().get("/api/runs/empty/personas/klaus_mueller/interview?q=hi")
    assert response.status_code == 422
    assert "has no recorded tick yet" in response.get_json()["error"]


def test_runs_list_skips_links_out_of_the_folder_unopened(runs_app, opened):
    """/api/runs lists good.sqlite and a link to it, but not (or opens) a link outside or a dangling one."""
    app, runs = runs_app
    secret = runs.parent / "secret.sqlite"
    (runs / "link.sqlite").symlink_to(secret)
    (runs / "dangling.sqlite").symlink_to(runs.parent / "gone.sqlite")
    (runs / "alias.sqlite").symlink_to(runs / "good.sqlite")
    (runs / "folder.sqlite").mkdir()
    listed = app.test_client().get("/api/runs").get_json()["runs"]
    assert sorted(r["name"] for r in listed) == ["alias", "good"]
    assert secret.resolve() not in opened
    assert app.test_client().get("/runs").status_code == 200
