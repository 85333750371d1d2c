"""`pip install .` alone, in a fresh venv, gives a town that simulates with the default embedder.

The project's files are copied out first, so the install cannot see the repository (no editable
path, no `personas/` beside the checkout) and leaves no build folder in it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from cli_helpers import REPO

from town.recording import RunReader

pytestmark = pytest.mark.slow

#: What a source distribution of the project holds (the package data lives under town/ and web/).
SOURCES = ("pyproject.toml", "README.md", "licenses", "town", "web", "personas")


def _copy_project(target: Path) -> Path:
    target.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "vendor")
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(source, target / name)
    return target


def test_pip_install_alone_simulates_with_the_default_embedder(tmp_path):
    """A fresh venv, `pip install .`, then `town simulate --hours 0.1`: 0.1 game hours at 10 s a
    tick is 36 ticks (0..35), embedded with MiniLM; the package is imported from the venv."""
    project = _copy_project(tmp_path / "project")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    bin_dir = env_dir / "bin"
    done = subprocess.run([str(bin_dir / "pip"), "install", "--quiet", "--no-compile", str(project)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    where = subprocess.run([str(bin_dir / "python"), "-c", "import town; print(town.__file__)"], cwd=work,
                           env=env, capture_output=True, text=True, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(env_dir), where.stdout + where.stderr
    licences = subprocess.run([str(bin_dir / "python"), "-c", "from importlib.metadata import files; "
                               "print(sorted(f.name for f in files('town') if 'licenses' in f.parts))"],
                              cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert licences.stdout.strip() == "['Apache-2.0.txt', 'all-MiniLM-L6-v2-tokenizer.NOTICE']", licences.stderr
    out = work / "run.sqlite"
    done = subprocess.run([str(bin_dir / "town"), "simulate", "--hours", "0.1", "--out", str(out), "--quiet"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-1000:] + done.stderr[-2000:]
    with RunReader(out) as reader:
        assert reader.meta["config"]["embedder"] == "minilm"
        assert [f["tick"] for f in reader.frames(0, 10**6)][-1] == 35
