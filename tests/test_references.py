"""The repository stands on its own: no file cites a document outside it or a tracker entry, and
the design document has its five sections."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from cli_helpers import REPO

#: Citations that lead outside the repository, joined at run time so that neither this file nor
#: its compiled form matches itself.
OUTSIDE = "|".join("".join(parts) for parts in [("DESIGN ?", "§"), ("DESIGN", r"\.md"), ("PACKAGES", r"\.md"),
                                                   (r"\.\./", "shared"), ("iss", "ue")])
PLACES = ["town", "web", "tests", "README.md", "ARCHITECTURE.md", "docs"]


@pytest.mark.skipif(shutil.which("grep") is None, reason="needs grep")
def test_nothing_cites_outside_the_repository():
    """`grep -rniE` over code, tests and docs finds no outside design notes, shared folder or tracker."""
    done = subprocess.run(["grep", "-rniE", OUTSIDE, *PLACES], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and done.stdout == "", done.stdout[:2000]


def test_design_document_has_its_five_sections():
    """docs/design: the memory stream and retrieval, procedures, questions and backends, the run
    file, the viewer's API, in that order."""
    text = (REPO / "docs" / ("design" + ".md")).read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings == ["1. The memory stream and retrieval", "2. Procedures", "3. Questions and backends",
                        "4. The run file", "5. The viewer's API"]
