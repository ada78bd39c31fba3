"""Import direction of the layers: components know hardware, never the model or reports; the
model never imports a report; reports read predictions only; the scenario never reaches the
analyses; and no module imports itself in a loop (an import under `if TYPE_CHECKING:`, which
never runs, aside). The queueing core and the report have rules of their own beside their
tests (tests/queueing/test_import_direction.py, tests/report/test_report_imports.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "diskmodel"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("diskmodel")}


# Units and the domain's names: every layer may use them, since they import nothing of ours.
LEAVES = ("diskmodel.units", "diskmodel.vocabulary")


@pytest.mark.parametrize("leaf", LEAVES)
def test_the_shared_vocabulary_imports_nothing_of_ours(leaf: str) -> None:
    path = PACKAGE / f"{leaf.removeprefix('diskmodel.')}.py"
    assert _imports(path) == set()


@pytest.mark.parametrize("path", sorted((PACKAGE / "components").glob("*.py")), ids=str)
def test_components_import_only_the_catalog_and_each_other(path: Path) -> None:
    allowed = ("diskmodel.catalog", "diskmodel.components", *LEAVES)
    assert all(name.startswith(allowed) for name in _imports(path)), _imports(path)


MODEL_FILES = [
    *sorted((PACKAGE / "model").glob("*.py")),
    *sorted((PACKAGE / "analyses").glob("*.py")),
    *sorted((PACKAGE / "configuration").glob("*.py")),
    *sorted((PACKAGE / "prediction").glob("*.py")),
    PACKAGE / "workload.py",
]


@pytest.mark.parametrize("path", MODEL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_model_never_imports_a_report_or_the_cli(path: Path) -> None:
    for imported in _imports(path):
        assert not imported.startswith(("diskmodel.report", "diskmodel.cli")), imported


@pytest.mark.parametrize("path", sorted((PACKAGE / "model").glob("*.py")), ids=lambda p: p.name)
def test_the_model_sees_a_configuration_never_a_scenario_or_the_catalog(path: Path) -> None:
    """Below the resolved Configuration nothing looks up a catalog entry or reads a scenario
    (or a file), and the model never reaches back up into the analyses."""
    for imported in _imports(path):
        assert not imported.startswith(
            ("diskmodel.scenario", "diskmodel.catalog", "diskmodel.analyses", "diskmodel.yamlio")
        ), imported


@pytest.mark.parametrize("name", ["text.py", "json_result.py"])
def test_reports_read_predictions_not_the_model(name: str) -> None:
    for imported in _imports(PACKAGE / "report" / name):
        assert not imported.startswith(("diskmodel.model", "diskmodel.components")), imported


@pytest.mark.parametrize("path", sorted((PACKAGE / "scenario").glob("*.py")), ids=lambda p: p.name)
def test_the_scenario_never_imports_the_analyses_or_the_model(path: Path) -> None:
    """A scenario is what a planner writes, validated; what its analyses cost is judged by
    the analyses (`analyses.budget`), handed in by the caller (`scenario.loading.WorkBound`)."""
    for imported in _imports(path):
        assert not imported.startswith(
            ("diskmodel.analyses", "diskmodel.model", "diskmodel.configuration")
        ), imported


CLI_MAY_IMPORT = ("diskmodel.api", "diskmodel.cli", "diskmodel.errors", "diskmodel.terminal")
"""What the command line (`diskmodel/cli/`) may import of ours: its own modules, the
facade, the errors it turns into exit codes and the terminal's sanitiser and spinners (and
`diskmodel.__version__`)."""


def _ours_beyond_the_facade(module: str) -> bool:
    return not any(module == m or module.startswith(f"{m}.") for m in CLI_MAY_IMPORT)


def _cli_imports_beyond_the_facade(source: str) -> list[str]:
    """Every import of ours in `source` outside `CLI_MAY_IMPORT`, at any depth (inside a
    function, under `if TYPE_CHECKING:`), relative imports included; sorted."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                found.append(f"{'.' * node.level}{module}")
            elif module == "diskmodel":
                found += [
                    f"diskmodel.{a.name}"
                    for a in node.names
                    if a.name != "__version__" and _ours_beyond_the_facade(f"diskmodel.{a.name}")
                ]
            elif module.startswith("diskmodel.") and _ours_beyond_the_facade(module):
                found.append(module)
        elif isinstance(node, ast.Import):
            found += [
                a.name
                for a in node.names
                if a.name.split(".")[0] == "diskmodel" and _ours_beyond_the_facade(a.name)
            ]
    return sorted(found)


def test_the_command_line_imports_only_the_facade() -> None:
    """Issue 32 item 5: every command goes through `diskmodel.api`, so what a command does is
    one call a script can make too, and a module behind the facade can move without the
    command line knowing."""
    modules = sorted((PACKAGE / "cli").glob("*.py"))
    assert {m.stem for m in modules} >= {"__init__", "app", "options", "predicting"}
    for module in modules:
        source = module.read_text(encoding="utf-8")
        beyond = _cli_imports_beyond_the_facade(source)
        assert beyond == [], f"cli/{module.name} imports {beyond}"


def test_the_facade_check_sees_imports_at_any_depth() -> None:
    source = (
        "from diskmodel import __version__, api\n"
        "from diskmodel.api.sizing import size\n"
        "import diskmodel.terminal\n"
        "from diskmodel.apis import x\n"
        "if TYPE_CHECKING:\n    from diskmodel.catalog import Catalog\n"
        "def f():\n    import diskmodel.output\n    from diskmodel import output\n"
        "    from .report import table\n"
        "import diskmodel\n"
    )
    assert _cli_imports_beyond_the_facade(source) == [
        ".report",
        "diskmodel",
        "diskmodel.apis",
        "diskmodel.catalog",
        "diskmodel.output",
        "diskmodel.output",
    ]


# ------------------------------------------------------------------------- no import circles


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> Iterator[str]:
    """The modules of ours an import statement anywhere in `tree` names (at the top, or
    deferred inside a function), except under `if TYPE_CHECKING:`. `from a import b` names
    the module a.b where b is one, else a."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                yield from _runtime_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in MODULES else node.module
        yield from _runtime_imports(node)


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports at run time. A module's own packages are left
    out: Python loads them before the module whatever it imports (`from diskmodel import
    __version__` adds nothing to what `diskmodel/__init__.py` already costs)."""
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        graph[name] = {
            imported
            for imported in _runtime_imports(tree)
            if imported in MODULES and imported not in ancestors
        }
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and modules that import
    themselves (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
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
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_in_a_loop() -> None:
    """Issue 32 item 1: a circle (analyses/predict.py reached itself through the band, the
    scenario's work bound reached the analyses) is a knot every change has to untie first."""
    graph = import_graph()
    loops = circles(graph)
    ties = [f"{a} -> {b}" for loop in loops for a in loop for b in sorted(graph[a]) if b in loop]
    assert loops == [], "import circles:\n" + "\n".join(ties)


def test_the_circle_check_sees_a_deferred_import_and_skips_type_checking() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert circles(graph) == [["a", "b", "c"], ["d"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from diskmodel.analyses import budget\n"
        "else:\n    import diskmodel.units\n"
        "def f():\n    from diskmodel.scenario import Scenario\n"
    )
    assert sorted(_runtime_imports(tree)) == ["diskmodel.scenario", "diskmodel.units", "typing"]
