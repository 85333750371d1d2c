"""`python run.py replay RUN`: serves the viewer over the run's folder and prints the replay URL;
a damaged run is a one-line error with exit code 2.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import requests
from cli_helpers import REPO, run_cli


def test_replay_serves_the_run_and_prints_its_url(recorded):
    """The printed URL serves the replay page, and the API reads the run's frames."""
    runs, name, events = recorded
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "replay", str(runs / f"{name}.sqlite"),
                             "--port", "0", "--no-open"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"at (http://127\.0\.0\.1:\d+/replay/\S+)", line).group(1)
        assert url.endswith(f"/replay/{name}")
        page = requests.get(url, timeout=10)
        assert page.status_code == 200 and f'data-run="{name}"' in page.text
        base = url.rsplit("/replay/", 1)[0]
        frame = requests.get(f"{base}/api/runs/{name}/frames/42", timeout=10).json()
        published = next(e for e in events if e.kind.value == "frame" and e.tick == 42)
        assert frame["time"] == published.time.isoformat(sep=" ")
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        proc.stdout.close()
        proc.stderr.close()


def test_replay_of_a_damaged_run_exits_2_with_the_message(tmp_path):
    """A file that is not a run: one line naming it, exit code 2, no traceback."""
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"garbage" * 100)
    done = run_cli("replay", str(bad), "--no-open", "--port", "0", timeout=60)
    assert done.returncode == 2
    assert "is not a town run file" in done.stderr and "Traceback" not in done.stderr
    missing = run_cli("replay", str(tmp_path / "nope.sqlite"), "--no-open", timeout=60)
    assert missing.returncode == 2 and "run file not found" in missing.stderr
