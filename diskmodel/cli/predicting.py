"""`diskmodel check`, `run` and `compare`, and what run and compare print."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api
from diskmodel.cli.app import app, say, write_stdout
from diskmodel.cli.options import (
    AllowOutside,
    Appendix,
    CatalogFiles,
    CsvOption,
    Force,
    JsonOption,
    NoCatalogBands,
    NoTimestamp,
    OutOption,
    Quiet,
    ScenarioPath,
)
from diskmodel.errors import InputError
from diskmodel.terminal import working

if TYPE_CHECKING:
    from diskmodel.api import Planned, Scenario, ScenarioPrediction


@app.command()
def check(
    scenario: ScenarioPath,
    allow_outside_heatmaps: AllowOutside = False,
    quiet: Quiet = False,
    catalog: CatalogFiles = None,
) -> None:
    """Validate a scenario, summarise its configuration and open the files it reads.

    \b
    Example:
      diskmodel check scenarios/ds8800-c3-baseline.yaml
    """
    checked = api.check(
        scenario, catalog_files=catalog or (), allow_outside_heatmaps=allow_outside_heatmaps
    )
    if not quiet:
        say(api.check_text(checked))


@app.command()
def run(
    scenario: ScenarioPath,
    out: OutOption = None,
    json: JsonOption = None,
    csv: CsvOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    no_catalog_bands: NoCatalogBands = False,
    allow_outside_heatmaps: AllowOutside = False,
    catalog: CatalogFiles = None,
) -> None:
    """Predict a scenario: print a summary, write the HTML report (and JSON if asked).

    \b
    Examples:
      diskmodel run scenarios/ds8800-15k-plus-2-ssd.yaml
      diskmodel run s.yaml --out reports/ --json reports/s.json --csv reports/s-tables
      diskmodel run s.yaml --json - --quiet | jq .configurations[0].max_iops
    """
    outputs = api.plan_outputs(out, json, scenario.stem)  # bad names are refused before the work
    if any(kind == "html" for kind, _ in outputs):
        api.warm_up_charts()
    checked = api.check(
        scenario, catalog_files=catalog or (), allow_outside_heatmaps=allow_outside_heatmaps
    )
    with working(_predicting(checked.scenario), quiet=quiet):
        prediction = api.predict(
            checked.scenario,
            base_dir=scenario.parent,
            catalog=checked.catalog,
            allow_outside_heatmaps=allow_outside_heatmaps,
            catalog_bands=not no_catalog_bands,
            beside=True,
            meanwhile=_hand_the_rest_ahead,
            before_bands=api.hand_configuration_charts_ahead,
        )
    api.write_prediction(
        prediction,
        outputs,
        timestamp=not no_timestamp,
        force=force,
        stdout=write_stdout,
        appendix=appendix,
        csv=csv,
    )
    _report(prediction, outputs, quiet=quiet, csv=csv)


@app.command()
def compare(
    scenarios: Annotated[
        list[Path],
        typer.Argument(
            help="two or more scenario files; the first is the reference",
            metavar="SCENARIO",
            exists=True,
            dir_okay=False,
            readable=True,
            show_default=False,
        ),
    ],
    out: OutOption = None,
    json: JsonOption = None,
    csv: CsvOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    allow_outside_heatmaps: AllowOutside = False,
    catalog: CatalogFiles = None,
) -> None:
    """Compare the baselines of several scenario files side by side in one report.

    \b
    Example:
      diskmodel compare scenarios/ds8700-c3-baseline.yaml scenarios/ds8800-c3-baseline.yaml
    """
    if len(scenarios) < 2:
        raise InputError("compare needs at least two scenario files")
    outputs = api.plan_outputs(out, json, "-vs-".join(p.stem for p in scenarios)[:120])
    entries = api.load_catalog(catalog or ())
    loaded = [(api.load_scenario(path, entries), path) for path in scenarios]
    for scenario, path in loaded:
        own = api.scenario_catalog(scenario, path, entries)
        api.read_inputs(scenario, path, allow_outside_heatmaps=allow_outside_heatmaps, catalog=own)
    with working(f"predicting {len(loaded)} scenarios", quiet=quiet):
        prediction = api.compare(
            [(scenario, path.parent) for scenario, path in loaded],
            catalog=entries,
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
    api.write_prediction(
        prediction,
        outputs,
        timestamp=not no_timestamp,
        force=force,
        stdout=write_stdout,
        appendix=appendix,
        csv=csv,
    )
    _report(prediction, outputs, quiet=quiet, csv=csv)


def _hand_the_rest_ahead(prediction: ScenarioPrediction) -> None:
    """The charts `api.hand_configuration_charts_ahead` left (those that read the bands, the
    sweep or the sizing), handed to the charts' worker."""
    api.hand_charts_ahead(prediction, configurations=False)


def _predicting(loaded: Scenario) -> str:
    """What `run` says while it predicts (a sizing search is the long part, when there is one)."""
    count = 1 + len(loaded.analyses.compare)
    what = f"predicting {count} configuration{'s' if count > 1 else ''}"
    size = loaded.analyses.size
    return what + (f" and sizing ({size.candidates:,} to try)" if size is not None else "")


def _report(
    prediction: ScenarioPrediction,
    planned: Sequence[Planned],
    *,
    quiet: bool,
    csv: str | None = None,
) -> None:
    """The summary and the files written; on stderr when stdout carries a result."""
    if quiet:
        return
    err = any(path is None for _, path in planned)
    say(api.render_text(prediction, err=err), err=err)
    say("", err=err)
    for _, path in planned:
        if path is not None:
            say(f"wrote {path}", err=err)
    if csv is not None:
        say(f"wrote the report's tables as CSV into {csv}", err=err)
