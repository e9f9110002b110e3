"""Layering: no import cycle among phiscrub's modules, counting imports inside functions.

The import graph is read from the source with :mod:`ast` (nothing is imported): an edge ``a -> b``
for every ``import b`` / ``from b import x`` in module ``a`` (and ``a -> b.x`` when ``b.x`` is a
module), wherever it stands, except under ``if TYPE_CHECKING:``. A strongly connected component of
more than one module is a cycle; the test names every one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _module_name(path: Path, src: Path) -> str:
    parts = path.relative_to(src).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, outside ``if TYPE_CHECKING:`` blocks."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """Module names an import statement may load (the caller keeps those that are phiscrub modules)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, base] if base else parts)
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the phiscrub modules it imports (anywhere in its body, TYPE_CHECKING aside)."""
    files = {_module_name(p, src): p for p in sorted((src / "phiscrub").rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _imports(tree):
            for target in _targets(name, path.name == "__init__.py", node):
                if target in files and target != name:
                    graph[name].add(target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted; singletons included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return out


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    pkg = tmp_path / "phiscrub"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from phiscrub.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import c\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from phiscrub.d import x\n"
        "def g():\n    import phiscrub.a\n"
    )
    (pkg / "d.py").write_text("import phiscrub.c\n")
    cycles = [c for c in strongly_connected(import_graph(tmp_path)) if len(c) > 1]
    # a -> sub.b -> c (relative, in a function) -> a; the TYPE_CHECKING import c -> d does not count.
    assert cycles == [["phiscrub.a", "phiscrub.c", "phiscrub.sub.b"]]


def test_phiscrub_has_no_import_cycle() -> None:
    graph = import_graph()
    assert graph.get("phiscrub.deid"), "the graph was not read"
    cycles = [c for c in strongly_connected(graph) if len(c) > 1]
    assert not cycles, "import cycles (function-level imports count): " + "; ".join(
        " <-> ".join(c) for c in cycles
    )
