"""What reading the catalog and validating a scenario import (issues 28 and 29: `run` under
1 s). Neither imports anything of the model, the queueing core or the analyses; the catalog
needs no array, so loading it imports no numpy (0.05-0.07 s of a command's CPU), nor does a
scenario without a skew curve (a skew's curve is checked by `tiering.curves`, which does).
Each case runs in a fresh interpreter, where `sys.modules` shows what loading imported."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..conftest import ROOT

LOAD = """
import json, sys
from pathlib import Path
from diskmodel.catalog import load_catalog
from diskmodel.scenario import load_scenario
from diskmodel.scenario.files import read_heatmaps
catalog = load_catalog()
if len(sys.argv) > 1:
    path = Path(sys.argv[1])
    scenario = load_scenario(path, catalog)
    read_heatmaps(scenario, path, catalog=catalog)
print(json.dumps(sorted(sys.modules)))
"""

MODEL = ("diskmodel.model", "diskmodel.queueing", "diskmodel.analyses", "diskmodel.prediction")


def _loaded(*args: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", LOAD, *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    modules: list[str] = json.loads(out.stdout)
    return modules


def _under(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages)]


@pytest.mark.parametrize(
    ("args", "skew"),
    [
        ((), False),
        (("scenarios/ds8800-zos-ficon-sizing.yaml",), False),
        (("scenarios/ds8800-metro-mirror-distance.yaml",), True),
    ],
    ids=["catalog", "zos-ficon-sizing", "metro-mirror-distance"],
)
def test_loading_imports_nothing_of_the_model_and_numpy_only_for_a_skew(
    args: tuple[str, ...], skew: bool
) -> None:
    loaded = _loaded(*args)
    assert _under(loaded, MODEL) == []
    assert ("numpy" in loaded) == skew
    if args:  # a scenario was validated: its modules are there
        assert "diskmodel.scenario.schema" in loaded
