"""Layering: no import cycle among phiscrub's modules, and every import goes down the layer table.

The import graph is read from the source with :mod:`ast` (nothing is imported): an edge ``a -> b``
for every ``import b`` / ``from b import x`` in module ``a`` (and ``a -> b.x`` when ``b.x`` is a
module), wherever it stands, except under ``if TYPE_CHECKING:``. A strongly connected component of
more than one module is a cycle; the test names every one.

Layers (issue 26; ``docs/architecture.md`` draws the same table): each module belongs to one layer
(:func:`layer_of`: a subpackage is the layer of its name, a top-level module is placed in
:data:`TOP_LEVEL`), and :data:`ALLOWED` says which layers a layer may import. Production runs
``core < io < tagger < detect < select < transform < deid < runs < service/spark/report < cli``;
``evaluate`` (scoring) sits on ``io``. The research packages (:data:`RESEARCH`) may import
production and each other, never the reverse; only ``cli`` (every command) imports research. Any
other edge fails the test, which names each offending import.
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


#: The layer of each top-level module of phiscrub (``""`` is the package itself, ``phiscrub/__init__.py``).
#: The core: the data model and the small shared tables and helpers that every layer reads.
TOP_LEVEL: dict[str, str] = {
    "calendar": "core",  # month, weekday and season words
    "config": "core",  # the one config loader
    "document": "core",  # Document, Span
    "engine_config": "core",  # DeidConfig, the engine options
    "errors": "core",  # the exception hierarchy
    "hf": "core",  # Hugging Face loading helpers
    "keys": "core",  # key resolution and the key-file reader
    "labels": "core",  # label sets, fold
    "langid": "core",  # the stop-word language identifier
    "language": "core",  # the one language decision per note
    "modes": "core",  # the redact modes
    "policy": "core",  # what is PHI under a policy (read by detect and select)
    "progress": "core",  # progress reports
    "redaction": "core",  # the Redaction result
    "resolve": "core",  # overlap resolution strategies (read by detect/site.py and select)
    "text": "core",  # tokenizer and sentence splitter
    "": "deid",  # the public API (and the composition root: registers the placeholder reader)
    "deid": "deid",  # Deidentifier
    "registry": "deid",  # the open registries: their built-ins are detectors and operators
    "text_view": "deid",  # detection on text views of a note (used by Deidentifier)
    "spark": "spark",
}
#: Subpackages that are not a layer of their own name.
PACKAGE_LAYER: dict[str, str] = {"resources": "core"}

#: The production chain, lowest first: each layer may import every layer before it.
CHAIN: tuple[str, ...] = ("core", "io", "tagger", "detect", "select", "transform", "deid", "runs")
#: Research packages: may import production (up to ``runs``) and each other; production never imports them.
RESEARCH: tuple[str, ...] = ("augment", "crosslingual", "experiment", "synth", "train")


def _chain_to(layer: str) -> frozenset[str]:
    return frozenset(CHAIN[: CHAIN.index(layer) + 1])


#: Layer -> the layers its modules may import (its own always).
ALLOWED: dict[str, frozenset[str]] = {
    **{layer: _chain_to(layer) for layer in CHAIN},
    "evaluate": frozenset({"core", "io", "evaluate"}),
    "service": _chain_to("runs") | {"evaluate", "service"},
    "spark": _chain_to("runs") | {"evaluate", "service", "spark"},
    "report": _chain_to("runs") | {"evaluate", "report"},
    **{name: _chain_to("runs") | {"evaluate", *RESEARCH} for name in RESEARCH},
}
ALLOWED["deid"] |= {"evaluate"}
ALLOWED["runs"] |= {"evaluate"}
ALLOWED["cli"] = frozenset(ALLOWED) | {"cli"}


def layer_of(module: str) -> str | None:
    """The layer of a phiscrub module (None: a top-level module missing from :data:`TOP_LEVEL`)."""
    parts = module.split(".")[1:]
    if not parts:
        return TOP_LEVEL[""]
    if parts[0] in PACKAGE_LAYER:
        return PACKAGE_LAYER[parts[0]]
    if parts[0] in ALLOWED:
        return parts[0]
    return TOP_LEVEL.get(parts[0]) if len(parts) == 1 else None


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that goes against :data:`ALLOWED`, as ``a -> b (layer -> layer)``, sorted."""
    out = []
    for source in sorted(graph):
        for target in sorted(graph[source]):
            a, b = layer_of(source), layer_of(target)
            if a is not None and b is not None and b != a and b not in ALLOWED[a]:
                out.append(f"{source} -> {target} ({a} -> {b})")
    return out


def test_the_layer_check_names_an_upward_and_a_research_edge() -> None:
    graph = {
        "phiscrub.detect.tagger": {"phiscrub.tagger.loaders", "phiscrub.train.trainer"},
        "phiscrub.io.placeholders": {"phiscrub.transform.fill", "phiscrub.document"},
        "phiscrub.train.recipes": {"phiscrub.detect.tagger", "phiscrub.crosslingual.fusion"},
        "phiscrub.cli.train": {"phiscrub.train.run"},
        "phiscrub.language": {"phiscrub.langid"},
    }
    assert layering_violations(graph) == [
        "phiscrub.detect.tagger -> phiscrub.train.trainer (detect -> train)",
        "phiscrub.io.placeholders -> phiscrub.transform.fill (io -> transform)",
    ]


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in import_graph() if layer_of(m) is None)
    assert not missing, "modules with no layer (add them to TOP_LEVEL or ALLOWED): " + ", ".join(missing)


def test_every_import_goes_down_the_layer_table() -> None:
    bad = layering_violations(import_graph())
    assert not bad, f"{len(bad)} imports against the layer table (tests/test_architecture.py):\n" + "\n".join(bad)


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
