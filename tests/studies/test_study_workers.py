"""A study gives the same study.json on 1 process, 2 processes and a Ray cluster, with a worker killed.

The reference is `study --workers 1`. With `--workers 2` and with `--workers ray` (a cluster this
test starts with `ray.init(num_cpus=2)` on loopback only, tests/studies/ray_driver.py) one
worker is killed (SIGKILL) while it simulates: its run is simulated again and the study's
study.json is still byte-identical to the reference. The test's runs are 12 game hours of
the_ville, 3 seeds, two conditions (docs/performance.md has the four-condition figures).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import REPO, run_cli

from town.events import EventKind
from town.recording import RunReader

pytestmark = pytest.mark.slow

STUDY = ("study", "--town", "the_ville", "--hours", "12", "--seeds", "3", "--conditions", "full,no-reflection",
         "--quiet")


def _parent(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1])


def _descends_from(pid: int, ancestor: int) -> bool:
    try:
        while pid > 1:
            pid = _parent(pid)
            if pid == ancestor:
                return True
    except (OSError, IndexError, ValueError):
        return False
    return False


def kill_a_simulating_worker(out: Path, driver: subprocess.Popen, timeout: float = 300) -> int:
    """SIGKILL the process that writes one of the study's run files (its `.lock` names it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert driver.poll() is None, "the study ended before a worker could be killed"
        for lock in out.glob("*.sqlite.lock"):
            try:
                pid = int(lock.read_text().strip() or 0)
            except (OSError, ValueError):
                continue
            if pid and pid != driver.pid and _descends_from(pid, driver.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    continue
                return pid
        time.sleep(0.02)
    raise AssertionError("no worker wrote a run file in time")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("workers1")
    done = run_cli(*STUDY, "--workers", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_reference_holds_every_seed(reference):
    """Two conditions x 3 seeds, each with its measures; the seeds make different runs."""
    study = json.loads((reference / "study.json").read_text())
    assert study["seeds"] == [0, 1, 2]
    for c in study["conditions"].values():
        assert list(c["runs"]) == ["0", "1", "2"] and c["failed"] == []
        assert c["summary"]["plans"]["n"] == 3
    # the seeds make different runs (their measures may agree: 12 game hours of the_ville can
    # saturate every one of them): the lines said differ between seeds
    said = []
    for seed in (0, 1, 2):
        with RunReader(reference / f"full-s{seed}.sqlite") as r:
            said.append(tuple(e.data["line"] for e in r.events(kinds=[EventKind.CHAT])))
    assert len(set(said)) > 1, "three seeds, one run"
    assert str(reference) not in (reference / "study.json").read_text()  # paths only in the timing file
    assert str(reference) in (reference / "study-timing.json").read_text()


def test_two_processes_with_a_killed_worker_give_the_same_study(reference, tmp_path):
    out = tmp_path / "workers2"
    driver = subprocess.Popen([sys.executable, str(REPO / "run.py"), *STUDY, "--workers", "2", "--out", str(out)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = kill_a_simulating_worker(out, driver)
    stdout, stderr = driver.communicate(timeout=600)
    assert driver.returncode == 0, stderr + stdout[-3000:]  # a failed run's error is printed on stdout
    runs = json.loads((out / "study-timing.json").read_text())["runs"]
    again = [name for name, r in runs.items() if r["attempts"] == 2]
    assert len(again) == 1 and runs[again[0]]["restarted"] and runs[again[0]]["pid"] != killed, runs
    assert (out / "study.json").read_bytes() == (reference / "study.json").read_bytes()


def test_ray_cluster_with_a_killed_worker_gives_the_same_study(reference, tmp_path):
    """Ray's own retry (max_retries=1) runs the killed task again; the cluster listens on loopback."""
    out = tmp_path / "ray"
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
    env.pop("RAY_ADDRESS", None)
    driver = subprocess.Popen([sys.executable, str(Path(__file__).with_name("ray_driver.py")), *STUDY,
                               "--workers", "ray", "--out", str(out)],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kill_a_simulating_worker(out, driver)
        stdout, stderr = driver.communicate(timeout=600)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 0, stderr[-3000:] + stdout[-3000:]
    assert "ray node: 127.0.0.1\n" in stdout
    runs = json.loads((out / "study-timing.json").read_text())["runs"]
    assert sum(r["restarted"] for r in runs.values()) == 1, runs
    assert (out / "study.json").read_bytes() == (reference / "study.json").read_bytes()


def test_ctrl_c_keeps_finished_runs_and_the_same_command_finishes(tmp_path):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) after the first run finished:
    exit 130, the finished runs kept, no worker left; run again, only the others run and the
    study is the one an uninterrupted study gives."""
    args = ("study", "--town", "the_ville", "--hours", "3", "--seeds", "3", "--conditions", "full,no-planning",
            "--workers", "2", "--quiet")
    out = tmp_path / "stopped"
    driver = subprocess.Popen([sys.executable, str(REPO / "run.py"), *args, "--out", str(out)], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300
    while not list(out.glob("*.evaluation/result.json")):
        assert driver.poll() is None and time.monotonic() < deadline, driver.communicate()
        time.sleep(0.02)
    os.killpg(driver.pid, signal.SIGINT)
    stdout, stderr = driver.communicate(timeout=120)
    assert driver.returncode == 130, stdout + stderr
    kept = len(list(out.glob("*.evaluation/result.json")))
    assert f"interrupted: {kept} of 6 runs finished, kept in {out}" in stdout, stdout + stderr
    assert 1 <= kept < 6
    ps = subprocess.run(["ps", "-o", "pid=,stat=,args=", "-s", str(driver.pid)], capture_output=True, text=True)
    alive = [line for line in ps.stdout.splitlines() if line.split()[1][0] != "Z"]  # a zombie has ended
    assert alive == [], f"workers left running: {alive}"
    done = run_cli(*args, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "study-timing.json").read_text())["skipped"] == kept
    fresh = tmp_path / "fresh"
    assert run_cli(*args, "--workers", "1", "--out", str(fresh)).returncode == 0
    assert (out / "study.json").read_bytes() == (fresh / "study.json").read_bytes()


def test_a_worker_dead_before_its_task_is_replaced_and_the_task_given_out_again(tmp_path, monkeypatch):
    """The first worker dies while waiting for work: sending it the task fails, a new worker takes
    the task as its second attempt (the one death counted), and the run's own error is reported."""
    from town.config import load_config
    from town.studies import pool

    start = pool._start
    started = []

    def start_dead_first(ctx):
        worker = start(ctx)
        if not started:
            worker.process.kill()
            worker.process.join()
        started.append(worker.process.pid)
        return worker

    monkeypatch.setattr(pool, "_start", start_dead_first)
    task = pool.RunTask(name="full-s0", condition="full", seed=0, town=str(tmp_path / "no-such-town"), hours=1,
                        config=load_config(None, {}).to_dict(), out=str(tmp_path / "out"))
    outcomes = []
    pool.run_in_processes([task], 1, outcomes.append)
    assert len(started) == 2
    assert [(o.task.name, o.result, o.attempts) for o in outcomes] == [("full-s0", None, 2)]
    assert "no-such-town" in outcomes[0].error
