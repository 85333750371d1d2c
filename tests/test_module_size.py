"""Each module holds one idea, so none is long.

None in ``town/`` or ``web/`` runs over :data:`LIMIT` lines, except those listed in
:data:`ALLOWED`, each with its reason: a cohesive class that cutting would scatter its state (the
module's docstring says so too). An entry whose module is gone or back under the limit fails, so
that it is removed.
"""

from __future__ import annotations

import ast

from cli_helpers import REPO

#: Most lines a module of ``town/`` or ``web/`` may have.
LIMIT = 350

#: Module (path from the repository root) -> why it may be longer than :data:`LIMIT`.
ALLOWED: dict[str, str] = {
    "town/persona.py": "Persona owns a persona's state: each kind of change is one of its methods, checking "
                       "what must hold; cut, the state would be written from several modules again",
}


def _lines(path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_the_limit_unless_allowed():
    """Every ``.py`` file under ``town/`` and ``web/`` has at most LIMIT lines, or an entry in ALLOWED."""
    over = {str(p.relative_to(REPO)): _lines(p) for top in ("town", "web") for p in sorted((REPO / top).rglob("*.py"))}
    over = {path: n for path, n in over.items() if n > LIMIT and path not in ALLOWED}
    assert over == {}, f"over {LIMIT} lines: split by idea, or add to ALLOWED with the reason"


def test_every_allowed_module_still_needs_its_entry():
    """An ALLOWED module that is gone or back under LIMIT lines is a stale entry."""
    stale = [path for path in ALLOWED if not (REPO / path).is_file() or _lines(REPO / path) <= LIMIT]
    assert stale == [], "remove these from ALLOWED"


def test_every_entry_gives_a_reason():
    """The allow-list says why, and so does the module's docstring: it names itself one class."""
    assert all(reason.strip() for reason in ALLOWED.values())
    for path in ALLOWED:
        docstring = ast.get_docstring(ast.parse((REPO / path).read_text(encoding="utf-8"))) or ""
        assert f"over {LIMIT} lines" in docstring, path
