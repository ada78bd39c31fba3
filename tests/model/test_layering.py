"""Import direction of the model layers: components know hardware, never the model or reports;
the model never imports a report; reports read predictions only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "diskmodel"


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
    *(PACKAGE / name for name in ("configuration.py", "prediction.py", "workload.py")),
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
