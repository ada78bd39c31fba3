"""A scenario's prediction and its results (`diskmodel run`, `diskmodel compare`): the
scenario file read and validated, the files it reads opened, the prediction made, and the
report, the JSON result and the CSV tables rendered and written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.api.outputs import Planned
    from diskmodel.catalog import Catalog
    from diskmodel.prediction import Prediction, ScenarioPrediction, SizingResult
    from diskmodel.scenario import Scenario
    from diskmodel.scenario.files import HeatMapInput


def load_scenario(
    path: Path | str, catalog: Catalog | None = None, *, cluster: int | None = None
) -> Scenario:
    """Read and validate a scenario file (`ScenarioError` names the file, line and key),
    refusing one whose analyses ask for more computing than a run allows
    (`diskmodel.analyses.budget`); `cluster`: the tasks the Dask cluster its sizing
    search will be sent to runs at once (`cluster_workers`), which the bound spreads the
    search over."""
    from diskmodel.analyses.budget import work_problems
    from diskmodel.scenario import load_scenario as load

    if cluster is None:
        return load(path, catalog, work_bound=work_problems)
    return load(path, catalog, work_bound=lambda s, c: work_problems(s, c, cluster))


def predict(
    scenario: Scenario,
    *,
    base_dir: Path | None = None,
    catalog: Catalog | None = None,
    allow_outside_heatmaps: bool = False,
    sizing: SizingResult | None = None,
    catalog_bands: bool = True,
    beside: bool = False,
    meanwhile: Callable[[ScenarioPrediction], object] | None = None,
    before_bands: Callable[[Sequence[Prediction]], object] | None = None,
) -> ScenarioPrediction:
    """Everything the reports show for a scenario: baseline, alternatives and analyses.

    base_dir: the scenario file's folder, where paths in it (heat maps) are relative to.
    allow_outside_heatmaps: let heat maps outside `base_dir` be read (the command line's
    `--allow-outside-heatmaps`; `diskmodel.tiering.heatmap.read_heatmap(allow_outside=...)`).
    sizing: the search of `analyses.size` when already made (`diskmodel size`).
    catalog_bands: the baseline's band over the catalog's estimates (`analyses.catalog_band`;
    the command line's `--no-catalog-bands` turns it off, as the scenario's
    `analyses.catalog_band: false` does).
    beside: work that band out in a forked process on another core while the configurations
    are predicted (`diskmodel run`; `analyses.beside`: the same answer).
    meanwhile: called with everything but that band before it is waited for
    (`diskmodel run` passes `hand_charts_ahead`).
    before_bands: called with the configurations' predictions, the baseline first, before
    their bands over the inputs given as ranges are worked out (`diskmodel run` passes
    `hand_configuration_charts_ahead`).
    """
    from diskmodel.analyses import predict_scenario

    return predict_scenario(
        scenario,
        catalog,
        base_dir,
        allow_outside_heatmaps=allow_outside_heatmaps,
        sizing=sizing,
        catalog_bands=catalog_bands,
        beside=beside,
        meanwhile=meanwhile,
        before_bands=before_bands,
    )


def read_inputs(
    scenario: Scenario,
    scenario_file: Path | None,
    *,
    allow_outside_heatmaps: bool = False,
    catalog: Catalog | None = None,
) -> list[HeatMapInput]:
    """Open every file `scenario` reads besides itself (its heat maps), as `predict` would.

    Raises an `InputError` naming the scenario's file, line and key for the first that is
    refused (outside the scenario's folder without `allow_outside_heatmaps`, a device, a file
    of /proc) or cannot be read as a heat map. `diskmodel check` lists what this returns.
    """
    from diskmodel.scenario.files import read_heatmaps

    return read_heatmaps(
        scenario, scenario_file, allow_outside=allow_outside_heatmaps, catalog=catalog
    )


def compare(
    scenarios: Sequence[tuple[Scenario, Path | None]],
    *,
    catalog: Catalog | None = None,
    allow_outside_heatmaps: bool = False,
) -> ScenarioPrediction:
    """Several scenarios (each with its file's folder) side by side, the first the reference
    (a name used twice is numbered)."""
    from diskmodel.analyses import compare_scenarios

    return compare_scenarios(
        list(scenarios), catalog, allow_outside_heatmaps=allow_outside_heatmaps
    )


def warm_up_charts() -> None:
    """Start the charts' runtime in a worker process, for a caller that will render the HTML
    report after predicting (`diskmodel run`): its start (0.3-0.5 s) then overlaps the
    prediction instead of following it (`report.chart_worker`). The report does not change."""
    from diskmodel.report import chart_worker

    chart_worker.start()


def hand_charts_ahead(prediction: ScenarioPrediction, *, configurations: bool = True) -> None:
    """Hand the HTML report's charts to the charts' worker started by `warm_up_charts`, to be
    drawn while the caller goes on (`predict`'s `meanwhile`: while the catalog band is worked
    out beside). `configurations=False`: only those `hand_configuration_charts_ahead` does not
    hand. The report does not change; without a worker this does nothing."""
    from diskmodel.report.chart_views import hand_ahead

    hand_ahead(prediction, configurations=configurations)


def hand_configuration_charts_ahead(predictions: Sequence[Prediction]) -> None:
    """Hand the report's charts drawn from the configurations' predictions alone to the
    charts' worker (`predict`'s `before_bands`: drawn while the bands are worked out), so
    that fewer are left to draw after the prediction. The report does not change; without a
    worker this does nothing."""
    from diskmodel.report.chart_views import hand_configurations_ahead

    hand_configurations_ahead(predictions)


def render_html(
    prediction: ScenarioPrediction, *, timestamp: bool = True, appendix: bool = False
) -> str:
    """The self-contained HTML sizing report (it reads only the prediction). On screen it
    shows everything; printed, the answer, charts and results, and with `appendix` also the
    component detail, the inputs and the catalog figures with their sources."""
    from diskmodel.report.html import render_html as render

    return render(prediction, timestamp=timestamp, appendix=appendix)


def csv_tables(prediction: ScenarioPrediction) -> list[tuple[str, str]]:
    """Every table of the HTML report as (file stem, CSV text): `diskmodel run --csv DIR`
    writes each as DIR/<stem>.csv (diskmodel.report.csv_tables)."""
    from diskmodel.report.csv_tables import csv_files, report_tables
    from diskmodel.report.html import build_report

    return csv_files(report_tables(build_report(prediction)))


def to_json(prediction: ScenarioPrediction) -> str:
    """The machine-readable result (docs/json-schema.md)."""
    from diskmodel.report.json_result import to_json as dump

    return dump(prediction)


def render_text(prediction: ScenarioPrediction, *, err: bool = False) -> str:
    """The terminal summary, drawn for standard output (or standard error with `err`): a
    terminal gets bold headings and its width, anything else plain text."""
    import sys

    from diskmodel.report.table import detect_output
    from diskmodel.report.text import render

    return render(prediction, detect_output(sys.stderr if err else sys.stdout))


def write_prediction(
    prediction: ScenarioPrediction,
    planned: Sequence[Planned],
    *,
    timestamp: bool,
    force: bool,
    stdout: Callable[[str], None],
    appendix: bool = False,
    csv: str | None = None,
) -> None:
    """Write the results `planned` (`api.plan_outputs`) and, with `csv`, every table of the
    report into that folder: all of them or none (`api.write_outputs`). `timestamp` and
    `appendix` as `render_html` takes them."""
    from diskmodel.api.outputs import csv_paths, write_outputs
    from diskmodel.output import CSV, HTML, JSON, Output

    outputs = [
        Output(path, to_json(prediction), JSON)
        if kind == "json"
        else Output(path, render_html(prediction, timestamp=timestamp, appendix=appendix), HTML)
        for kind, path in planned
    ]
    if csv is not None:
        tables = csv_tables(prediction)
        paths = csv_paths(csv, [stem for stem, _ in tables])
        outputs += [Output(p, text, CSV) for p, (_, text) in zip(paths, tables, strict=True)]
    write_outputs(outputs, force=force, stdout=stdout)
