"""The architecture as a test: which package may import which, and no circles.

Read from the source with `ast`, so an import inside a function counts as
much as one at the top. docs/architecture.md states the same rule in words.
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

from tests.paths import ROOT

# What each package of interpreter/ may import from interpreter/ (besides itself).
MAY_IMPORT = {
    "engine": set(),
    "tools": {"engine"},
    "agents": {"engine", "tools"},
    "analysis": {"engine", "agents", "tools"},
    "adapters": {"engine", "agents"},
    "web": {"engine", "agents", "tools"},
    "cli": {"engine", "agents", "tools", "analysis", "adapters", "web"},
    "": {"engine"},   # interpreter/__init__.py: the public API
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Absolute names of the project modules `path` imports, anywhere in it."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in found if m.split(".")[0] in ("interpreter", "rulespec")}


def project_graph() -> nx.DiGraph:
    files = sorted((ROOT / "interpreter").rglob("*.py")) + sorted((ROOT / "rulespec").rglob("*.py"))
    modules = {module_name(f): f for f in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for target in imports_of(path):
            if target in modules and target != name:
                graph.add_edge(name, target)
    return graph


def area(module: str) -> str:
    """'interpreter.engine.state' -> 'engine'; 'interpreter.cli' -> 'cli'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


GRAPH = project_graph()


def test_the_graph_sees_the_packages():
    assert {"interpreter.engine.state", "interpreter.tools.trace", "rulespec.check"} <= set(GRAPH)
    assert GRAPH.has_edge("interpreter.engine.state", "interpreter.engine.flow")


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("interpreter")))
def test_imports_follow_the_layout(module):
    mine = area(module)
    allowed = MAY_IMPORT[mine] | {mine}
    wrong = [t for t in GRAPH.successors(module)
             if t.startswith("interpreter.") and area(t) not in allowed and t != "interpreter"]
    assert not wrong, f"{module} ({mine or 'interpreter'}) may not import {wrong}"


def test_the_language_never_imports_the_interpreter():
    wrong = [(a, b) for a, b in GRAPH.edges if a.startswith("rulespec") and b.startswith("interpreter")]
    assert not wrong


def test_no_import_circles():
    # A package's __init__ importing its own modules is not a circle a reader trips on.
    graph = GRAPH.copy()
    graph.remove_edges_from([(a, b) for a, b in GRAPH.edges
                             if b.startswith(a + ".") or (a.startswith(b + ".") and b.count(".") < 2)])
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import circles: {cycles[:5]}"
