"""The queueing layer is a leaf: numpy, scipy and the standard library only.

Parses every module's import statements (without importing them), so a stray
`from diskmodel.catalog import ...` or `import pydantic` fails here by name.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "diskmodel" / "queueing"
MODULES = sorted(PACKAGE.glob("*.py"))
ALLOWED_THIRD_PARTY = {"numpy", "scipy"}


def imported_modules(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import stays inside the package
                continue
            names.append(node.module or "")
    return names


def test_the_package_has_modules() -> None:
    assert len(MODULES) >= 5


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_module_imports_only_numpy_scipy_stdlib_and_itself(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        if top == "diskmodel":
            assert name == "diskmodel.queueing" or name.startswith("diskmodel.queueing."), name
        else:
            assert top in ALLOWED_THIRD_PARTY or top in sys.stdlib_module_names, name
