"""`python run.py demo` with a cached demo run: it opens the replay (with the evaluation) at once."""

from __future__ import annotations

import hashlib
import re
import signal
import subprocess
import sys

import requests
from cli_helpers import REPO, run_cli

from town.recording import RunReader


def _liveliest_by_hand(run) -> int:
    """The first tick ending the 10 game minutes (60 ticks) in which most conversations said a line."""
    with RunReader(run) as reader:
        chats = [(e.tick, e.data["conversation"]) for e in reader.events(["chat"])]
    counts = {t: len({c for tick, c in chats if t - 60 < tick <= t}) for t, _ in chats}
    return min(counts, key=lambda t: (-counts[t], t))


def test_demo_opens_a_cached_run_at_its_liveliest_moment_without_simulating(tmp_path):
    """The cached run opens at once, its replay at the tick that ends its liveliest ten minutes."""
    runs = tmp_path / "runs"
    cached = runs / "demo-smallville.sqlite"
    done = run_cli("simulate", "--hours", "0.6", "--embedder", "hashing", "--out", str(cached), "--quiet")  # talk from 07:31
    assert done.returncode == 0, done.stderr
    digest = hashlib.sha256(cached.read_bytes()).hexdigest()
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "demo", "--runs", str(runs), "--port", "0",
                             "--no-open"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"at (http://\S+/replay/demo-smallville)#t=(\d+) ", line)
        assert url, line
        assert int(url.group(2)) == _liveliest_by_hand(cached)
        page = requests.get(url.group(1), timeout=30)
        assert page.status_code == 200 and 'id="evaluation"' in page.text
        root = url.group(1).rsplit("/replay/", 1)[0]
        report = requests.get(f"{root}/api/runs/demo-smallville/evaluation", timeout=60).json()
        assert report["personas"] == 3
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    assert "simulating" not in line
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == digest


def test_the_demo_runs_through_smallvilles_party():
    """The demo ends when the party does: Smallville starts Monday 13 Feb 07:00 (town.yaml) and the
    party runs Tuesday 14 Feb 17:00-19:00 (probes.yaml), 34 and 36 game hours in; a demo that
    stopped at one game day showed "24 invited, 0 attended"."""
    from datetime import timedelta

    from town.scenario import load_scenario
    from web.cli import DEMO_HOURS, DEMO_TOWN

    scenario = load_scenario(DEMO_TOWN)
    party = next(p.gathering for p in scenario.probes if p.gathering)
    assert (party.start - scenario.start, party.end - scenario.start) == (timedelta(hours=34), timedelta(hours=36))
    assert scenario.start + timedelta(hours=DEMO_HOURS) >= party.end
