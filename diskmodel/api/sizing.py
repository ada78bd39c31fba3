"""Sizing a scenario (`diskmodel size`): every configuration its `analyses.size` offers tried
against the service level now and after growth (`diskmodel.analyses.size`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.api.outputs import Planned
    from diskmodel.catalog import Catalog
    from diskmodel.output import Output
    from diskmodel.prediction import ScenarioPrediction, SizingResult
    from diskmodel.scenario import Scenario


@dataclass(frozen=True)
class SizingPlan:
    """The files a sizing writes, checked before the search: the JSON result and the report
    (`api.plan_outputs`) and the sizing table's CSV file."""

    results: tuple[Planned, ...]
    csv: tuple[Path, ...]

    @property
    def report(self) -> bool:
        """Whether the HTML report is among them (it needs a prediction of the scenario)."""
        return any(p.kind == "html" for p in self.results)


def plan_sizing(out: str | None, json: str | None, csv: str | None, stem: str) -> SizingPlan:
    """The report `out`, the JSON result `json` and the folder `csv` for sizing.csv, each
    when given (`-`: standard output, for one of the first two); an `OutputError` refuses a
    bad name before the search."""
    from diskmodel.api.outputs import csv_paths, plan_outputs

    results = plan_outputs(out, json, stem, default_out=None)
    return SizingPlan(tuple(results), tuple([] if csv is None else csv_paths(csv, ["sizing"])))


def cluster_workers(scheduler: str) -> int:
    """How many tasks the Dask cluster whose scheduler is at `scheduler` runs at once for a
    search: its workers' threads on their hosts' cores (`SchedulerError` when none answers
    there); `load_scenario(cluster=)` spreads the work bound's sizing search over them."""
    from diskmodel.analyses.cluster import workers_at

    return workers_at(scheduler)


def size_candidates(scenario: Scenario, path: Path) -> int:
    """How many configurations the scenario (read from `path`) offers to size, or an
    `InputError` when it offers none."""
    from diskmodel.errors import InputError

    if scenario.analyses.size is None:
        raise InputError(
            f"{path}: analyses.size: the scenario offers nothing to size; give "
            "analyses.size with ranks, da_pairs or host_ports to try (docs/scenario.md)"
        )
    return scenario.analyses.size.candidates


def size(
    scenario: Scenario,
    catalog: Catalog,
    base_dir: Path | None,
    advance: Callable[[int], None] | None = None,
    *,
    scheduler: str | None = None,
    tally: Callable[[int, int, int], None] | None = None,
) -> SizingResult:
    """Every configuration `scenario.analyses.size` offers, the current one first: the
    cheapest that meets the service level now and in every growth period, and the Pareto
    front of cost against response time. `advance(1)` after each (a progress bar);
    `scheduler`: a Dask scheduler's address to run the search on; `tally(solved, skipped,
    left)`: the progress of a space beyond 512 configurations, searched in batches."""
    from diskmodel.analyses.size import size_scenario

    return size_scenario(scenario, catalog, base_dir, advance, scheduler=scheduler, tally=tally)


def sizing_outputs(
    result: SizingResult,
    plan: SizingPlan,
    prediction: ScenarioPrediction | None = None,
    *,
    timestamp: bool = True,
    appendix: bool = False,
) -> list[Output]:
    """The files `plan` names: the JSON result, the report (the run report with its sizing
    section, from `prediction`, which `predict(..., sizing=result)` made) and the sizing
    table as CSV."""
    from diskmodel.api.predicting import render_html
    from diskmodel.output import CSV, HTML, JSON, Output
    from diskmodel.report.csv_tables import table_csv
    from diskmodel.report.json_result import sizing_json
    from diskmodel.report.size_tables import sizing_table

    outputs: list[Output] = []
    for kind, path in plan.results:
        if kind == "json":
            outputs.append(Output(path, sizing_json(result), JSON))
        elif prediction is None:
            raise ValueError("the sizing report needs the scenario's prediction")
        else:
            page = render_html(prediction, timestamp=timestamp, appendix=appendix)
            outputs.append(Output(path, page, HTML))
    table = sizing_table(result)
    return outputs + [Output(path, table_csv(table), CSV) for path in plan.csv]


def sizing_text(result: SizingResult, *, err: bool = False) -> str:
    """The sizing's summary for standard output (or standard error with `err`): the
    cheapest configuration that meets the service level and the Pareto front."""
    import sys

    from diskmodel.report.size_text import render
    from diskmodel.report.table import detect_output

    return render(result, detect_output(sys.stderr if err else sys.stdout))
