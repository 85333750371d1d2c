"""Writing a report file whole or not at all (town.files.write_atomically)."""

from __future__ import annotations

import os

import pytest

from town.files import write_atomically


def test_an_interrupt_while_writing_leaves_no_part_file(tmp_path, monkeypatch):
    """Ctrl-C reached a study's worker while it wrote ``run.json``: its ``.run.json.<pid>.part``
    stayed, and the same study command, run again, refused the folder ("... is not a file this
    study recorded"). The interrupt goes on; the old file stays and no part file is left."""
    target = tmp_path / "run.json"
    target.write_text("old", encoding="utf-8")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    assert target.read_text(encoding="utf-8") == "old"
