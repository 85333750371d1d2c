"""State has one owner, read from the source with :mod:`ast` (nothing imported):

- no module of ``town/`` or ``web/`` outside ``town/simulation/`` writes an attribute of a
  ``Simulation``, whatever the variable holding it is called: the simulation composes its owners
  (conversations, timeline, personas...) and others call their methods;
- ``town/mind/`` holds no threading or buffering code: a mind step hands back its effects, and
  running steps at once is the simulation's business (``town/simulation/jobs.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from cli_helpers import REPO

#: Calls that change a builtin container in place (a set, list or dict held by an attribute).
MUTATORS = {"add", "append", "clear", "discard", "extend", "insert", "pop", "popitem", "remove", "setdefault",
            "update"}
#: Names a Simulation shares with the mutable state of other objects written outside it: Flask's
#: ``app.config`` is a dict the web app fills in; ``Simulation.config`` is a frozen Config, which
#: takes no item. A plain ``x.config = ...`` is still caught.
SHARED_CONTAINER_NAMES = {"config"}


def simulation_attributes(core: Path) -> set[str]:
    """Every name ``Simulation`` defines: the ``self.x`` it assigns and its methods and properties."""
    tree = ast.parse(core.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Simulation")
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return names - {"__init__"}


def writes(tree: ast.AST) -> Iterator[tuple[ast.Attribute, str]]:
    """Each attribute written in ``tree``: assigned or deleted (``x.a = ...``, ``x.a += ...``,
    ``del x.a``, ``for x.a in ...``, ``with ... as x.a``), written into (``x.a[k] = ...``) or
    changed in place (``x.a.add(...)``); with how ("assigned", "item", "changed")."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor | ast.NamedExpr):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        else:
            targets = []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store | ast.Del):
                    yield part, "assigned"
                elif isinstance(part, ast.Subscript) and isinstance(part.ctx, ast.Store | ast.Del) \
                        and isinstance(part.value, ast.Attribute):
                    yield part.value, "item"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Attribute):
            yield node.func.value, "changed"


def offences(source: str, names: set[str]) -> list[str]:
    """``line: how expression`` for each write of one of ``names`` not on ``self``/``cls`` (a
    class's own attribute)."""
    found = []
    for attr, how in writes(ast.parse(source)):
        own = isinstance(attr.value, ast.Name) and attr.value.id in ("self", "cls")
        shared = how != "assigned" and attr.attr in SHARED_CONTAINER_NAMES
        if attr.attr in names and not own and not shared:
            found.append(f"{attr.lineno}: {how} {ast.unparse(attr)}")
    return found


def test_the_finder_sees_every_kind_of_write_whatever_the_variable():
    """Worked by hand: each line but the last three writes a Simulation attribute."""
    source = "\n".join([
        "town.conversations = {}",            # 1 assigned, a variable not called sim
        "s._players.add('ada')",              # 2 changed in place
        "runner.sim.personas['ada'] = p",     # 3 item, through another object
        "del x.writer",                       # 4 deleted
        "sim.interrupted += 'x'",             # 5 augmented
        "for s.clock in []: pass",            # 6 a loop target
        "self.conversations = {}",            # own attribute of another class: fine
        "app.config['X'] = 1",                # Flask's config: fine
        "sim.conversations.close(1)",         # an owner's method: fine
    ])
    names = {"conversations", "_players", "personas", "writer", "interrupted", "clock", "config"}
    assert sorted(int(o.split(":")[0]) for o in offences(source, names)) == [1, 2, 3, 4, 5, 6]
    assert offences("sim.config = None", names) == ["1: assigned sim.config"]


def test_no_module_outside_the_simulation_writes_a_simulation_attribute():
    """``town/`` and ``web/`` outside ``town/simulation/``: no write of any name Simulation defines."""
    names = simulation_attributes(REPO / "town" / "simulation" / "core.py")
    assert {"conversations", "timeline", "personas", "_players", "writer", "run_path"} <= names
    found = []
    for top in ("town", "web"):
        for path in sorted((REPO / top).rglob("*.py")):
            if path.is_relative_to(REPO / "town" / "simulation"):
                continue
            found += [f"{path.relative_to(REPO)}:{o}" for o in offences(path.read_text(encoding="utf-8"), names)]
    assert found == []


#: Modules whose import means threads or held-back work.
CONCURRENCY = {"threading", "_thread", "concurrent", "contextvars", "queue", "multiprocessing", "asyncio"}
#: Names of the buffering a mind step once did (held-back events filled in later).
BUFFERING = {"buffered", "in_turn", "side_by_side", "flush", "SeqRef", "Lock", "RLock", "local", "submit"}


def mind_concurrency(root: Path) -> list[str]:
    """``file:line what`` for each concurrency import or buffering name in the package at ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                mods = []
            found += [f"{path.name}:{node.lineno} import {m}" for m in mods if m.split(".")[0] in CONCURRENCY]
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else \
                node.name if isinstance(node, ast.FunctionDef | ast.ClassDef) else None
            if name in BUFFERING:
                found.append(f"{path.name}:{node.lineno} {name}")
    return found


def test_the_mind_holds_no_threading_or_buffering_code(tmp_path):
    """``town/mind/`` imports nothing that runs threads and names no buffering; the check itself
    finds both in a hand-written module."""
    assert mind_concurrency(REPO / "town" / "mind") == []
    (tmp_path / "m.py").write_text("import threading\nfrom concurrent.futures import ThreadPoolExecutor\n"
                                   "def buffered(work):\n    return ctx.side_by_side(work)\n")
    assert mind_concurrency(tmp_path) == ["m.py:1 import threading", "m.py:2 import concurrent.futures",
                                          "m.py:3 buffered", "m.py:4 side_by_side"]


#: The Simulation's methods that change a town now; from outside it only an input may (``runner.submit``).
CHANGING = {"act", "whisper", "drain_inputs", "think", "leave_conversation", "settle"}


def reaches(source: str, names: set[str]) -> list[str]:
    """``line: expression`` for each attribute in ``names`` read or called on anything but ``self``."""
    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in names
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")]


def test_the_player_and_the_viewer_reach_a_town_only_through_inputs():
    """``town/player.py`` touches no attribute a Simulation defines (it knows what a player is, not
    a town); ``web/`` calls none of the Simulation's methods that change a town at once: a viewer's
    whisper, join, move or line is an input it queues. The check finds both in hand-written lines."""
    names = simulation_attributes(REPO / "town" / "simulation" / "core.py")
    assert CHANGING <= names
    assert reaches((REPO / "town" / "player.py").read_text(encoding="utf-8"), names) == []
    found = []
    for path in sorted((REPO / "web").rglob("*.py")):
        found += [f"{path.relative_to(REPO)}:{o.split(': ', 1)[1]}"
                  for o in reaches(path.read_text(encoding="utf-8"), CHANGING)]
    # `serve --player NAME` joins before the runner starts, on the only thread, so that a refused
    # name is one line and no run file
    assert found == ["web/cli.py:sim.act"]
    assert reaches("sim.world.path(a, b)\nself.world = w\nrunner.call(lambda: sim.whisper(p, t))", names | CHANGING) == [
        "1: sim.world", "3: sim.whisper"]
