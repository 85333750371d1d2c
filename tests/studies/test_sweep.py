"""`sweep` over retrieval weights (three values x 2 seeds, the_ville 12 h): runs, table, plot; bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_helpers import REPO, run_cli

from town.recording import RunReader

pytestmark = pytest.mark.slow

WEIGHTS = "retrieval.weights=[[1,1,1],[1,0,1],[0,0,1]]"


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    done = run_cli("sweep", "--town", "the_ville", "--hours", "12", "--seeds", "2", "--vary", WEIGHTS,
                   "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    return out, done


def test_every_combination_is_a_recorded_run_with_its_weights(sweep):
    out, _ = sweep
    for name, weights in (("1-1-1", [1.0, 1.0, 1.0]), ("1-0-1", [1.0, 0.0, 1.0]), ("0-0-1", [0.0, 0.0, 1.0])):
        for seed in (0, 1):
            with RunReader(out / f"weights={name}-s{seed}.sqlite") as reader:
                assert reader.meta["finished"]
                assert reader.meta["config"]["retrieval"]["weights"] == weights
                assert reader.meta["config"]["seed"] == seed
                retrieval = reader.retrievals("isabella_rodriguez", limit=1)[0]
                assert list(retrieval["weights"]) == weights  # the runs retrieved with them


def test_table_and_plot(sweep):
    """Two seeds: the interval is the two runs' values (worked out in test_study_statistics), the
    mean their mean; the Markdown row says both."""
    out, done = sweep
    study = json.loads((out / "study.json").read_text())
    assert study["kind"] == "sweep" and list(study["conditions"]) == ["weights=1-1-1", "weights=1-0-1", "weights=0-0-1"]
    assert "retrieval.weights" not in study["settings"] and "seed" not in study["settings"]
    md = (out / "study.md").read_text().splitlines()
    assert md[2].startswith("| condition | self-knowledge | memory | plans |")
    for name, c in study["conditions"].items():
        plans = [c["runs"][s]["plans"] for s in ("0", "1")]
        battery = json.loads((out / f"{name}-s1.evaluation" / "battery.json").read_text())
        assert plans[1] == battery["summary"]["categories"]["plans"]["accuracy"]
        cell = f"{100 * sum(plans) / 2:.0f}% [{100 * min(plans):.0f}–{100 * max(plans):.0f}]"
        row = next(line for line in md if line.startswith(f"| {name} |"))
        assert row.split(" | ")[3] == cell
    assert (out / "study.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "weights=0-0-1" in done.stdout


def test_compare_two_study_folders(sweep, tmp_path):
    """A study against itself: every difference 0 with the interval [0, 0]."""
    out, _ = sweep
    done = run_cli("compare", str(out), str(out), "--json", str(tmp_path / "c.json"))
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "c.json").read_text())
    rows = report["conditions"]["weights=1-0-1"]
    assert rows["plans"]["difference"] == 0 and (rows["plans"]["low"], rows["plans"]["high"]) == (0, 0)
    assert "+0.000 [+0.000, +0.000]" in done.stdout
    mixed = run_cli("compare", str(out), str(out / "weights=1-0-1-s0.sqlite"))
    assert mixed.returncode == 2 and "two study folders" in mixed.stderr


def test_another_study_in_the_same_folder_is_refused(sweep):
    out, _ = sweep
    done = run_cli("sweep", "--town", "the_ville", "--hours", "6", "--seeds", "2", "--vary", WEIGHTS,
                   "--out", str(out), "--quiet")
    assert done.returncode == 2 and "other settings" in done.stderr and "--out" in done.stderr


@pytest.mark.parametrize(("args", "says"), [
    (("--workers", "0"), "--workers"),
    (("--workers", "dask"), "--workers"),
    (("--seeds", "0"), "--seeds"),
    (("--vary", "retrieval.weights=[[1,1]]"), "retrieval.weights"),
    (("--vary", "retrieval.k=[5,"), "is not JSON"),
])
def test_bad_options_fail_before_any_run(tmp_path, args, says):
    base = {"--workers": "1", "--seeds": "1", "--vary": "retrieval.k=[5]"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    done = run_cli("sweep", "--hours", "1", "--out", str(tmp_path), *(x for kv in base.items() for x in kv))
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not list(tmp_path.glob("*.sqlite"))


def test_local_studies_never_import_ray(tmp_path):
    """--workers 1 runs without Ray; --workers ray without it says how to install it."""
    code = ("import sys; from town.cli.main import main; rc = main(%r); "
            "print('ray' in sys.modules); sys.exit(rc)")
    local = ["study", "--hours", "0.5", "--conditions", "full", "--out", str(tmp_path / "a"), "--quiet"]
    done = subprocess.run([sys.executable, "-c", code % local], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("False"), done.stderr
    blocked = "import sys; sys.modules['ray'] = None; " + code % [*local[:-2], str(tmp_path / "b"), "--workers", "ray"]
    done = subprocess.run([sys.executable, "-c", blocked], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "pip install 'town[ray]'" in done.stderr, done.stderr
