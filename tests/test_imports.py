"""The package's import graph, read from the source with ``ast``: the packages keep
the layer order of ARCHITECTURE.md ("Packages and layers"), no module reaches into
another's private names, nothing imports the package root, and no two modules import
each other, however indirectly (lazy imports inside functions included: a cycle
hidden in a function is still a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

from support.layers import LAYERS

import robotkit

ROOT = Path(robotkit.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    found, todo = [], [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if _type_checking(node):
            assert isinstance(node, ast.If)
            todo += node.orelse
        else:
            todo += ast.iter_child_nodes(node)
    return found


def _imports(
    name: str, path: Path, *, type_checking: bool = False
) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import in ``path``
    that runs, and with ``type_checking`` those for type checkers too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if type_checking else _run_time_nodes(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((base, [alias.name for alias in node.names], node.lineno))
    return found


def _edges(*, type_checking: bool = False) -> dict[str, set[str]]:
    """Which robotkit modules each robotkit module imports (``from a import b``
    counts as importing ``a.b`` when that is a module); with ``type_checking``, the
    imports for type checkers too."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for module, names, _ in _imports(name, path, type_checking=type_checking):
            if module not in MODULES:
                continue
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in MODULES]
            if len(targets) < len(names) or not names:
                targets.append(module)
            graph[name].update(t for t in targets if t != name)
    return graph


ROOT_FILES = {"__init__.py", "__main__.py", "_version.py", "py.typed"}


def _package(name: str) -> str | None:
    """The layer package of a module name (``robotkit.url.parse`` is ``url``); None
    for the root and its ``_version`` and ``__main__``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_the_root_holds_only_the_entry_points_and_packages() -> None:
    """A concept is a package; the root keeps the lazy exports, ``python -m
    robotkit`` and the version."""
    stray = sorted(
        path.name
        for path in ROOT.iterdir()
        if path.is_file() and path.name not in ROOT_FILES and not path.name.startswith(".")
    )
    packages = sorted(path.name for path in ROOT.iterdir() if (path / "__init__.py").exists())
    assert stray == []
    assert packages == sorted(LAYERS)


def test_every_package_has_a_docstring_and_lists_its_public_names() -> None:
    for layer in LAYERS:
        tree = ast.parse((ROOT / layer / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), layer
        listed = [
            node
            for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            and "__all__"
            in ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
        ]
        assert listed, f"robotkit.{layer} has no __all__"


def test_each_package_imports_only_its_own_and_lower_layers() -> None:
    upward = [
        f"{path.relative_to(ROOT.parent)}:{line}: {layer} imports {module}"
        for name, path in MODULES.items()
        if (layer := _package(name)) is not None
        for module, _, line in _imports(name, path, type_checking=True)
        if (target := _package(module)) is not None and LAYERS.index(target) > LAYERS.index(layer)
    ]
    assert upward == []


def test_the_layer_rule_catches_an_upward_import(tmp_path: Path) -> None:
    """The rule is not vacuous: a core module importing the shell is caught."""
    module = tmp_path / "probe.py"
    module.write_text("from robotkit.http import PoliteClient\n", encoding="utf-8")
    imported = [m for m, _, _ in _imports("robotkit.url.probe", module, type_checking=True)]
    assert [_package(m) for m in imported] == ["http"]
    assert LAYERS.index("http") > LAYERS.index("url")


def test_the_walk_sees_the_package() -> None:
    graph = _edges()
    assert "robotkit.http.transport" in graph
    assert "robotkit.http.errors" in graph["robotkit.http.client"]
    # robotkit/__init__.py imports every export for type checkers only
    assert "robotkit.crawler.loop" not in graph["robotkit"]


def test_no_module_imports_a_private_name_of_another() -> None:
    private = [
        f"{path.relative_to(ROOT.parent)}:{line}: {module}.{n}"
        for name, path in MODULES.items()
        for module, names, line in _imports(name, path)
        if module.startswith("robotkit")
        for n in names
        if n.startswith("_") and not n.startswith("__")
    ]
    assert private == []


def test_nothing_imports_the_package_root() -> None:
    """The root only re-exports; a module importing it would import every
    module's exports back (and the version lives in ``robotkit._version``)."""
    upward = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for name, path in MODULES.items()
        if name != "robotkit"
        for module, names, line in _imports(name, path)
        if module == "robotkit" and not all(f"robotkit.{n}" in MODULES for n in names)
    ]
    assert upward == []


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph``, or None (depth-first search, three colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_graph_has_no_cycle() -> None:
    """Imports for type checkers count: a circle hidden under ``if TYPE_CHECKING:``
    is still two modules that cannot be read, or moved, one without the other."""
    assert _cycle(_edges(type_checking=True)) is None


# -- the reference crawler, by interface ----------------------------------------------

CRAWLER = "robotkit.crawler"


def _in_package(package: str) -> dict[str, Path]:
    return {
        name: path
        for name, path in MODULES.items()
        if name == package or name.startswith(f"{package}.")
    }


def test_the_graph_counts_imports_for_type_checkers() -> None:
    """The crawler's parts see the crawler through :mod:`robotkit.crawler.ports`; its
    import of the shared crawl, for type checkers only, is an edge of the graph."""
    ports = "robotkit.crawler.ports"
    assert "robotkit.shared.crawl" not in _edges()[ports]
    assert "robotkit.shared.crawl" in _edges(type_checking=True)[ports]
    assert "robotkit.crawler.loop" not in _edges(type_checking=True)["robotkit.crawler.fetch"]


PRIVATE_ACCESS_CHECKED = (CRAWLER,)
"""The packages whose modules may not touch the private members of another module's
classes. To be widened to ``("robotkit",)``, the whole package, once the offenders
elsewhere are gone (``_private_accesses("robotkit")`` lists them)."""

_SELF = frozenset({"self", "cls"})


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _members(tree: ast.AST) -> set[str]:
    """Every member the classes of a module define: class attributes, methods, and
    attributes assigned on ``self`` or ``cls``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.Assign):
                found.update(t.id for t in item.targets if isinstance(t, ast.Name))
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found.add(item.target.id)
        for item in ast.walk(node):
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                found.add(item.name)
            elif (
                isinstance(item, ast.Attribute)
                and isinstance(item.ctx, ast.Store)
                and isinstance(item.value, ast.Name)
                and item.value.id in _SELF
            ):
                found.add(item.attr)
    return found


def _private_accesses_in(source: str) -> list[tuple[int, str]]:
    """(line, expression) of each ``x._name`` in ``source`` where ``x`` is not
    ``self`` or ``cls`` and no class of the same source defines ``_name``."""
    tree = ast.parse(source)
    own = _members(tree)
    return sorted(
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and _private(node.attr)
        and node.attr not in own
        and not (isinstance(node.value, ast.Name) and node.value.id in _SELF)
    )


def _private_accesses(package: str) -> list[str]:
    """``path:line: expression`` for each private access in ``package``'s modules."""
    return [
        f"{path.relative_to(ROOT.parent)}:{line}: {expr}"
        for _, path in sorted(_in_package(package).items())
        for line, expr in _private_accesses_in(path.read_text(encoding="utf-8"))
    ]


def test_the_private_access_check_finds_an_access() -> None:
    source = (
        "class Own:\n"
        "    _kept = 1\n"
        "    def __init__(self, other):\n"
        "        self._mine = other._theirs\n"
        "    def copy(self, twin):\n"
        "        return twin._mine, twin._kept, self._gone, twin.__dict__\n"
        "def peek(crawler):\n"
        "    return crawler._tasks.pop()\n"
    )
    assert _private_accesses_in(source) == [(4, "other._theirs"), (8, "crawler._tasks")]


def test_the_private_access_check_walks_the_package() -> None:
    assert _in_package(CRAWLER)
    assert all(name.startswith("robotkit.") for name in _in_package(CRAWLER))


def test_no_module_reaches_into_private_members_of_another() -> None:
    offenders = [line for package in PRIVATE_ACCESS_CHECKED for line in _private_accesses(package)]
    assert offenders == []


MAX_MODULE_LINES = 500
MAX_CLASS_LINES = 300


def _class_lengths(path: Path) -> dict[str, int]:
    """Each top-level class's lines, from ``class`` to the next top-level statement
    (or the end of the file)."""
    source = path.read_text(encoding="utf-8")
    body = ast.parse(source).body
    ends = [node.lineno for node in body[1:]] + [len(source.splitlines()) + 1]
    return {
        node.name: end - node.lineno
        for node, end in zip(body, ends, strict=True)
        if isinstance(node, ast.ClassDef)
    }


def test_the_class_length_counts_to_the_next_statement() -> None:
    lengths = _class_lengths(ROOT / "crawler" / "loop.py")
    assert 200 < lengths["Crawler"] <= MAX_CLASS_LINES


def test_the_crawler_modules_and_classes_stay_small() -> None:
    long_modules = {
        name: n
        for name, path in _in_package(CRAWLER).items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    long_classes = {
        f"{name}.{cls}": n
        for name, path in _in_package(CRAWLER).items()
        for cls, n in _class_lengths(path).items()
        if n > MAX_CLASS_LINES
    }
    assert (long_modules, long_classes) == ({}, {})
