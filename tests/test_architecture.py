"""The package's shape (docs/architecture.md): layers that import only downward,
no import circles, and no module that imports another module's private names.

Read from the source with ``ast``, so it sees lazy imports inside functions too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "krypteach"

#: lowest first: a module may import from its own layer and the layers before it
LAYERS = ("i18n", "engine", "bots", "play", "teaching", "views", "classroom", "widgets", "serve", "site", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, runtime: bool = True) -> list[tuple[str, list[str], int]]:
    """(imported module, names imported from it, line) for every import in the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in (_walk_runtime(tree) if runtime else ast.walk(tree)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((target, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
    return out


def _walk_runtime(tree: ast.AST):
    """Every node, except those under ``if TYPE_CHECKING:`` (names for the type checker, never imported)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                todo.extend(child.orelse)
                continue
            todo.append(child)


def layer(name: str) -> int | None:
    parts = name.split(".")
    if parts[0] != "krypteach" or len(parts) < 2:
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


ALL = modules()


@pytest.mark.parametrize("name", sorted(ALL))
def test_imports_go_only_downward(name):
    mine = layer(name)
    if mine is None:  # krypteach/__init__.py and __main__.py: the façade over every layer
        return
    for target, names, line in imports(name, ALL[name]):
        if target == "krypteach" and names:  # "from krypteach import x" inside the package: resolve each name
            targets = [f"krypteach.{n}" for n in names]
        else:
            targets = [target]
        for t in targets:
            theirs = layer(t)
            assert theirs is None or theirs <= mine, (
                f"{name} (layer {LAYERS[mine]}) imports {t} (layer {LAYERS[theirs]}) at line {line}: "
                f"layers import only downward: {' <- '.join(LAYERS)}")


@pytest.mark.parametrize("name", sorted(ALL))
def test_no_private_names_imported_from_other_modules(name):
    for target, names, line in imports(name, ALL[name]):
        if not target.startswith("krypteach"):
            continue
        private = [n for n in names if n.startswith("_") and not n.startswith("__")
                   and f"{target}.{n}" not in ALL  # a private *module* may be imported by name
                   and not (target == "krypteach.i18n" and n == "_")]  # gettext's _ is public by convention
        assert not private, f"{name} imports private names {private} from {target} at line {line}"


def test_no_import_circles():
    """Not even through imports under ``if TYPE_CHECKING:``: a circle that only the
    type checker sees is still two modules that each need the other."""
    graph = {name: {t for t, _, _ in imports(name, path, runtime=False) if t in ALL and t != name}
             for name, path in ALL.items()}
    # a package's __init__ re-exports its modules; importing a module imports its packages first, so only
    # module -> module edges (not module -> its own package) can close a circle
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if nxt not in seen:
                visit(nxt)
        stack.pop()
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node)


def test_the_layers_are_folders():
    for name in LAYERS[:-1]:
        assert (PACKAGE / name / "__init__.py").is_file(), f"krypteach/{name}/ is a layer and must be a package"
