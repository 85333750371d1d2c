"""The engine's layering, read from its source: no import cycle, and never the viewer.

`town/` never imports `web/`, and no import cycle joins its packages or modules (ARCHITECTURE.md,
Layout). The imports are read with :mod:`ast`, so nothing is imported and no import side effect
runs. Every import statement counts, wherever it stands: one inside a function (a cycle it hides
is still a cycle) or under ``TYPE_CHECKING`` (a module that needs the type of the module using it
is tangled with it all the same) ties the two modules, and their packages, together. Importing
``town.a.b`` runs ``town/a/__init__.py`` first, so a module also depends on its packages'
``__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
from cli_helpers import REPO


def modules(root: Path, top: str) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the package ``root / top``."""
    found = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement in module ``name`` (file ``path``) reaches."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # relative: from the module's package, one level up per extra dot
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [base] + [f"{base}.{alias.name}" for alias in node.names]  # `from pkg import submodule`


def _typing_only(tree: ast.Module) -> set[int]:
    """``id()`` of the import statements under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                or isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"):
            found |= {id(n) for child in node.body for n in ast.walk(child)
                      if isinstance(n, ast.Import | ast.ImportFrom)}
    return found


def import_graph(root: Path, top: str) -> nx.DiGraph:
    """Module -> module it imports, among the modules of ``top``.

    An import of ``town.a.b`` is an edge to ``town.a.b`` and to the packages ``town.a`` (whose
    ``__init__`` runs first); a name imported from a module (``from town.a import f``) is an edge
    to that module only. The top package itself (``town``) is no node. Each edge has ``lines``
    (where: ``path:line``) and ``runs`` (True unless every import behind it is under
    ``TYPE_CHECKING``).
    """
    known = modules(root, top)
    graph = nx.DiGraph()
    graph.add_nodes_from(n for n in known if n != top)
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        typing_only = _typing_only(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(name, path, node):
                parts = target.split(".")
                for i in range(2, len(parts) + 1):  # the target and each package above it
                    dotted = ".".join(parts[:i])
                    if dotted in known and dotted != name and not name.startswith(dotted + "."):
                        edge = graph.edges[name, dotted] if graph.has_edge(name, dotted) else None
                        if edge is None:
                            graph.add_edge(name, dotted, lines=set(), runs=False)
                            edge = graph.edges[name, dotted]
                        edge["lines"].add(f"{path.relative_to(root)}:{node.lineno}")
                        edge["runs"] = edge["runs"] or id(node) not in typing_only
    return graph


def runtime_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """The module graph without the edges only ``TYPE_CHECKING`` imports make."""
    return graph.edge_subgraph([(a, b) for a, b, runs in graph.edges(data="runs") if runs])


def package_of(module: str) -> str:
    """``town.mind.act`` -> ``town.mind``; a module directly in ``town`` is its own unit."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """The module graph with each module merged into its package (self-edges dropped)."""
    packages = nx.DiGraph()
    for a, b, data in graph.edges(data=True):
        pa, pb = package_of(a), package_of(b)
        if pa != pb:
            packages.add_edge(pa, pb)
            packages.edges[pa, pb].setdefault("lines", set()).update(data["lines"])
    return packages


def cycles_report(graph: nx.DiGraph) -> list[str]:
    """One line per strongly connected part: a shortest cycle through its first module, with its imports."""
    lines = []
    for part in sorted(nx.strongly_connected_components(graph), key=sorted):
        if len(part) < 2:
            continue
        sub = graph.subgraph(part)
        start = min(part)  # the shortest way back to it from each of its imports
        cycle = min(([start, *nx.shortest_path(sub, after, start)[:-1]] for after in sub.successors(start)),
                    key=lambda c: (len(c), c))
        hops = [f"{a} -> {b} ({', '.join(sorted(sub.edges[a, b]['lines']))})"
                for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True)]
        lines.append(f"{sorted(part)}: " + "; ".join(hops))
    return lines


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_walker_reads_relative_absolute_and_function_level_imports(tmp_path):
    """A hand-built package: the edges are exactly the ones written below, with their lines."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": "X = 1\n",
        "pkg/sub/__init__.py": "from .leaf import Y\n",
        "pkg/sub/leaf.py": "from ..base import X\nY = X\n",
        "pkg/top.py": "import os\n\n\ndef f():\n    from pkg.sub import leaf\n    return leaf\n",
    })
    graph = import_graph(tmp_path, "pkg")
    assert set(graph.edges) == {("pkg.sub", "pkg.sub.leaf"), ("pkg.sub.leaf", "pkg.base"),
                                ("pkg.top", "pkg.sub"), ("pkg.top", "pkg.sub.leaf")}
    assert graph.edges["pkg.top", "pkg.sub.leaf"]["lines"] == {"pkg/top.py:5"}
    assert cycles_report(graph) == []
    assert set(package_graph(graph).edges) == {("pkg.sub", "pkg.base"), ("pkg.top", "pkg.sub")}


def test_a_type_only_import_ties_packages_but_runs_nothing(tmp_path):
    """``b`` names ``a``'s type under TYPE_CHECKING while ``a`` imports ``b``: a package cycle only."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import f\n",
        "pkg/b.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.a import A\n",
    })
    graph = import_graph(tmp_path, "pkg")
    assert dict(((a, b), runs) for a, b, runs in graph.edges(data="runs")) == {
        ("pkg.a", "pkg.b"): True, ("pkg.b", "pkg.a"): False}
    assert cycles_report(runtime_graph(graph)) == []
    assert cycles_report(package_graph(graph)) == [
        "['pkg.a', 'pkg.b']: pkg.a -> pkg.b (pkg/a.py:1); pkg.b -> pkg.a (pkg/b.py:4)"]


def test_walker_finds_a_cycle_through_a_package_init(tmp_path):
    """``a`` imports ``b.c``, which runs ``b/__init__``, which imports ``a``: one cycle, two packages."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b.c import Z\n",
        "pkg/b/__init__.py": "from ..a import W\n",
        "pkg/b/c.py": "Z = 0\n",
    })
    graph = import_graph(tmp_path, "pkg")
    assert cycles_report(graph) == [
        "['pkg.a', 'pkg.b']: pkg.a -> pkg.b (pkg/a.py:1); pkg.b -> pkg.a (pkg/b/__init__.py:1)"]
    assert cycles_report(package_graph(graph)) == [
        "['pkg.a', 'pkg.b']: pkg.a -> pkg.b (pkg/a.py:1); pkg.b -> pkg.a (pkg/b/__init__.py:1)"]


def test_the_engine_never_imports_the_viewer():
    """No module of ``town/`` imports ``web`` (the viewer builds on the engine, not the reverse)."""
    offenders = []
    for name, path in modules(REPO, "town").items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom) and any(
                    t == "web" or t.startswith("web.") for t in _imported(name, path, node)):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []


def test_the_walker_sees_the_engine():
    """A known import of the engine is found (a walker reading nothing would pass the tests below)."""
    graph = import_graph(REPO, "town")
    assert package_graph(graph).has_edge("town.simulation", "town.mind") and graph.number_of_edges() > 150


def test_no_cycle_among_packages():
    """``town``'s packages and top-level modules form no cycle (each line: a cycle and its imports)."""
    cycles = cycles_report(package_graph(import_graph(REPO, "town")))
    assert cycles == [], "\n".join(cycles)


def test_no_cycle_among_modules_through_imports_that_run():
    """No module of ``town`` reaches itself through the imports that run (``__init__``s included)."""
    cycles = cycles_report(runtime_graph(import_graph(REPO, "town")))
    assert cycles == [], "\n".join(cycles)


def test_no_cycle_among_modules_counting_type_checking_imports():
    """No module of ``town`` reaches itself through any import, ``TYPE_CHECKING`` ones included
    (the thinking backend, its wrappers and its server check once did, as did the simulation and
    its helpers)."""
    cycles = cycles_report(import_graph(REPO, "town"))
    assert cycles == [], "\n".join(cycles)


#: Modules outside ``town/scripted/`` that may import it, each with its reason.
SCRIPTED_IMPORTERS = {
    "town.backends": "where the backend is chosen, and the model backends' scripted fallback",
    "town.analysis.grading": "the interview grader reads a persona's workplace as the scripted attendance rule does",
    "town.analysis.talk": "the talk checks count heard routine sightings as the scripted teller defines them",
}


def test_nothing_outside_the_scripted_backend_imports_it_but_where_a_backend_is_chosen():
    """Only :data:`SCRIPTED_IMPORTERS` import ``town.scripted``; the engine (memory, simulation,
    mind, recording) and ``town.thinking`` never do."""
    graph = import_graph(REPO, "town")
    importers = {a for a, b in graph.edges if (b == "town.scripted" or b.startswith("town.scripted."))
                 and not a.startswith("town.scripted")}
    assert importers == set(SCRIPTED_IMPORTERS)
    engine = ("town.memory", "town.simulation", "town.mind", "town.recording", "town.thinking")
    assert not [a for a in importers if a.startswith(engine)]
