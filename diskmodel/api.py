"""The public API: what the command line and scripts call.

    scenario = diskmodel.load_scenario("scenarios/ds8800-15k-plus-2-ssd.yaml")
    prediction = diskmodel.predict(scenario, base_dir=Path("scenarios"))
    html = diskmodel.render_html(prediction)
    text = diskmodel.to_json(prediction)

Each is one call with plain data between; errors a user can cause are `diskmodel.errors.
UserError`s carrying their exit code. Heavy modules load on first use, so importing diskmodel
stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.catalog import Catalog
    from diskmodel.prediction import ScenarioPrediction
    from diskmodel.scenario import Scenario


def load_scenario(path: Path | str, catalog: Catalog | None = None) -> Scenario:
    """Read and validate a scenario file (`ScenarioError` names the file, line and key)."""
    from diskmodel.scenario import load_scenario as load

    return load(path, catalog)


def predict(
    scenario: Scenario, *, base_dir: Path | None = None, catalog: Catalog | None = None
) -> ScenarioPrediction:
    """Everything the reports show for a scenario: baseline, alternatives and analyses.

    base_dir: the scenario file's folder, where paths in it (heat maps) are relative to.
    """
    from diskmodel.analyses import predict_scenario

    return predict_scenario(scenario, catalog, base_dir)


def render_html(
    prediction: ScenarioPrediction,
    *,
    timestamp: bool = True,
    scenarios: Sequence[tuple[str, Scenario]] | None = None,
) -> str:
    """The self-contained HTML sizing report."""
    from diskmodel.report.html import render_html as render

    return render(prediction, scenarios=scenarios, timestamp=timestamp)


def to_json(prediction: ScenarioPrediction) -> str:
    """The machine-readable result (docs/json-schema.md)."""
    from diskmodel.report.json_result import to_json as dump

    return dump(prediction)


def render_text(prediction: ScenarioPrediction) -> str:
    """The terminal summary."""
    from diskmodel.report.text import render

    return render(prediction)
