"""The README's example scenario is a real one: it validates and runs, as a reader would."""

from __future__ import annotations

import re
from pathlib import Path

import diskmodel

from .conftest import ROOT


def _readme_scenario() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, "the README shows one scenario"
    return blocks[0]


def test_the_readme_scenario_validates_and_runs(tmp_path: Path) -> None:
    path = tmp_path / "readme.yaml"
    path.write_text(_readme_scenario(), encoding="utf-8")
    scenario = diskmodel.load_scenario(path)
    assert scenario.name == "OLTP on a DS8800"
    prediction = diskmodel.predict(scenario, base_dir=tmp_path)
    baseline = prediction.baseline
    assert baseline.max_iops > 0
    assert baseline.saturated or baseline.response_time_ms is not None
    assert "OLTP on a DS8800" in diskmodel.render_text(prediction)
