"""`study --workers ray` with no Ray cluster running starts a local one, on loopback only.

As ``ray.init()`` would: the study runs on a cluster it starts (every server on 127.0.0.1) and
stops at its end, and its study.json is the one `--workers 1` writes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_helpers import REPO

pytestmark = pytest.mark.slow

STUDY = ("study", "--town", "the_ville", "--hours", "0.1", "--conditions", "full", "--embedder", "hashing",
         "--quiet")


def test_no_cluster_running_starts_a_local_one_on_loopback(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    done = {}
    for workers in ("1", "ray"):
        done[workers] = subprocess.run([sys.executable, str(REPO / "run.py"), *STUDY, "--workers", workers,
                                        "--out", str(tmp_path / workers)], cwd=REPO, env=env, capture_output=True,
                                       text=True, timeout=600)
        assert done[workers].returncode == 0, done[workers].stderr[-3000:]
    assert "started a local one on 127.0.0.1 (" in done["ray"].stderr
    assert (tmp_path / "ray" / "study.json").read_bytes() == (tmp_path / "1" / "study.json").read_bytes()
