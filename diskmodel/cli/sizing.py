"""`diskmodel size`: the configurations that meet the service level, cheapest first."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api
from diskmodel.cli.app import app, say, write_stdout
from diskmodel.cli.options import (
    Appendix,
    CatalogFiles,
    Force,
    JsonOption,
    NoTimestamp,
    Quiet,
    ScenarioPath,
)
from diskmodel.terminal import printable, progress

if TYPE_CHECKING:
    pass

Advance = Callable[[int], None]
Tally = Callable[[int, int, int], None]


@contextlib.contextmanager
def search_progress(total: int, *, quiet: bool) -> Iterator[tuple[Advance, Tally]]:
    """The search's progress on standard error when it is a terminal (nothing when piped, or
    with --quiet): one bar with the configurations solved in full, skipped by a proven bound,
    and left. Yields `advance(steps)` (the per-configuration search) and `tally(solved,
    skipped, left)` (the batched search of a large space)."""
    if quiet or not sys.stderr.isatty():
        yield (lambda steps: None), (lambda solved, skipped, left: None)
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn(printable("sizing")),
        BarColumn(),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("sizing", total=total, counts=f"0 of {total:,} settled")
        done = [0]

        def advance(steps: int) -> None:
            done[0] += steps
            bar.update(task, completed=done[0], counts=f"{done[0]:,} of {total:,} settled")

        def tally(solved: int, skipped: int, left: int) -> None:
            bar.update(
                task,
                completed=solved + skipped,
                counts=f"{solved:,} solved, {skipped:,} skipped by bounds, {left:,} left",
            )

        yield advance, tally


@app.command()
def size(
    scenario: ScenarioPath,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            help="also write the sizing report (the run report with its sizing section): an "
            "HTML file, - for standard output, or a folder/",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    json: JsonOption = None,
    csv: Annotated[
        str | None,
        typer.Option(
            "--csv",
            help="also write the sizing table as CSV (sizing.csv) into this folder",
            metavar="DIR",
            show_default=False,
        ),
    ] = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    catalog: CatalogFiles = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="a Dask distributed scheduler's address (tcp://host:8786) to run the search "
            "on, over as many of its workers on each host as that host's cores hold; needs "
            "pip install 'diskmodel[dask]'",
        ),
    ] = None,
) -> None:
    """Size a scenario: try every configuration its analyses.size offers against the service
    level now and in every growth period, and print the cheapest that meets it and the
    Pareto front of cost against response time (and the report, JSON or CSV if asked).

    \b
    Examples:
      diskmodel size scenarios/ds8800-size-for-growth.yaml
      diskmodel size s.yaml --out reports/ --csv reports/s-tables
      diskmodel size s.yaml --scheduler tcp://host:8786
    """
    plan = api.plan_sizing(out, json, csv, scenario.stem)  # bad names: refused before the search
    entries = api.load_catalog(catalog or ())
    # A search sent to a cluster is bounded by its workers' share, asked before the load.
    cluster = api.cluster_workers(scheduler) if scheduler is not None else None
    loaded = api.load_scenario(scenario, entries, cluster=cluster)
    entries = api.scenario_catalog(loaded, scenario, entries)
    total = api.size_candidates(loaded, scenario)
    with search_progress(total, quiet=quiet) as (advance, tally):
        result = api.size(
            loaded, entries, scenario.parent, advance, scheduler=scheduler, tally=tally
        )
    prediction = None
    if plan.report:
        with progress("predicting the current configuration for the report", 1) as advance:
            prediction = api.predict(
                loaded, base_dir=scenario.parent, catalog=entries, sizing=result
            )
            advance(1)
    outputs = api.sizing_outputs(
        result, plan, prediction, timestamp=not no_timestamp, appendix=appendix
    )
    api.write_outputs(outputs, force=force, stdout=write_stdout)
    if quiet:
        return
    to_stderr = any(o.path is None for o in outputs)  # a result is on standard output
    say(api.sizing_text(result, err=to_stderr), err=to_stderr)
    for o in outputs:
        if o.path is not None:
            say(f"wrote {o.path}", err=to_stderr)
