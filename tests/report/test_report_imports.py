"""The report reads only the Prediction: an import rule, checked on the source of every module.

Every module under diskmodel/report/ that renders a prediction (HTML, view records, charts,
result and input tables, terminal text, JSON) may import from diskmodel only
`diskmodel.prediction`, `diskmodel.__version__`, the units and the domain's names
(`diskmodel.units`, `diskmodel.vocabulary`, which import nothing of ours), the terminal's
sanitiser (`diskmodel.terminal`, which imports nothing of ours either: the text tables make
each cell printable before drawing it) and its own modules
(`diskmodel.report.*`), at
any depth of the module (a deferred import inside a function counts too). Three modules are CLI
text for other inputs and are kept apart: catalog_text.py renders the catalog for `catalog
show`/`list`, check_text.py a validated scenario for `check` and calibration_text.py a
calibration's fit and quality gate for `calibrate`; they may read the catalog, the scenario and
the calibration, and no prediction-rendering module may import them. Writing a report's file is
the command's job (`diskmodel.output`), not the report's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPORT = Path(__file__).resolve().parents[2] / "diskmodel" / "report"

CLI_TEXT = {"catalog_text", "check_text", "calibration_text"}
"""Modules that render the catalog, a scenario or a calibration for the CLI, not a
prediction."""

ALLOWED = {
    "diskmodel.prediction",
    "diskmodel.report",
    "diskmodel.terminal",
    "diskmodel.units",
    "diskmodel.vocabulary",
}


def _modules() -> list[Path]:
    return sorted(p for p in REPORT.glob("*.py") if p.stem != "__init__")


def _diskmodel_imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) of every `import diskmodel...` / `from diskmodel... import ...`."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((a.name, ()) for a in node.names if a.name.split(".")[0] == "diskmodel")
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            module = node.module or ""
            if module.split(".")[0] == "diskmodel":
                found.append((module, tuple(a.name for a in node.names)))
    return found


def _allowed(module: str, names: tuple[str, ...]) -> bool:
    if module == "diskmodel":
        return set(names) <= {"__version__"}
    if any(module == a or module.startswith(f"{a}.") for a in ALLOWED):
        cli_text = {module.rsplit(".", 1)[-1], *names} & CLI_TEXT
        return not cli_text
    return False


@pytest.mark.parametrize(
    "path", [p for p in _modules() if p.stem not in CLI_TEXT], ids=lambda p: p.stem
)
def test_a_module_that_renders_a_prediction_imports_only_the_prediction(path: Path) -> None:
    wrong = [
        (module, names) for module, names in _diskmodel_imports(path) if not _allowed(module, names)
    ]
    assert wrong == [], f"{path.name} imports {wrong}: a report reads only the Prediction"


def test_the_rule_sees_every_report_module_and_the_cli_text_modules_exist() -> None:
    stems = {p.stem for p in _modules()}
    assert stems >= CLI_TEXT
    assert {"html", "view", "chart_views", "charts", "json_result", "text"} <= stems


def test_the_rule_would_catch_a_reach_into_the_model(tmp_path: Path) -> None:
    """The check itself can fail: a module importing the catalog or the scenario is refused,
    in a function body too."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from diskmodel.prediction import Prediction\n"
        "def f():\n    from diskmodel.catalog import load_catalog\n"
        "    import diskmodel.scenario\n",
        encoding="utf-8",
    )
    found = _diskmodel_imports(bad)
    assert [m for m, n in found if not _allowed(m, n)] == [
        "diskmodel.catalog",
        "diskmodel.scenario",
    ]
    assert not _allowed("diskmodel.report.check_text", ("render_check",))
    assert not _allowed("diskmodel.report", ("catalog_text",))
