"""The `diskmodel` command: parses arguments, calls the public API, prints. No modelling here.

Every command runs inside one error boundary (`_boundary`): a `UserError` prints its message on
stderr and exits with its named code (see `diskmodel.errors.ExitCode`); anything else is a bug
and surfaces as one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from diskmodel import __version__
from diskmodel.errors import UserError

if TYPE_CHECKING:
    from diskmodel.prediction import ScenarioPrediction
    from diskmodel.scenario import Scenario

P = ParamSpec("P")
T = TypeVar("T")

app = typer.Typer(
    name="diskmodel",
    help="Predict response time, utilisation and bottlenecks of IBM DS8700/DS8800 storage.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
catalog_app = typer.Typer(help="Look up the hardware diskmodel knows.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")

ScenarioPath = Annotated[
    Path,
    typer.Argument(
        help="scenario YAML file", exists=True, dir_okay=False, readable=True, show_default=False
    ),
]


def _boundary(command: Callable[P, T]) -> Callable[P, T]:
    """Turn a user's mistake into one message and a named exit code, never a traceback."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            typer.echo(f"diskmodel: {exc}", err=True)
            raise typer.Exit(int(exc.exit_code)) from None

    return run


def _version(value: bool) -> None:
    if value:
        typer.echo(f"diskmodel {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="print the version"),
    ] = False,
) -> None:
    """diskmodel: analytical sizing of enterprise disk storage."""


@catalog_app.command("list")
@_boundary
def catalog_list() -> None:
    """List storage systems, drives and RAID formats in the catalog."""
    from diskmodel.catalog import load_catalog
    from diskmodel.report.catalog_text import render_list

    typer.echo(render_list(load_catalog()))


@catalog_app.command("show")
@_boundary
def catalog_show(
    name: Annotated[str, typer.Argument(help="a system, drive or RAID format name")],
) -> None:
    """Show one catalog entry with every figure and its source."""
    from diskmodel.catalog import load_catalog
    from diskmodel.report.catalog_text import render_entry

    typer.echo(render_entry(load_catalog(), name))


@app.command()
@_boundary
def check(scenario: ScenarioPath) -> None:
    """Validate a scenario and summarise its configuration."""
    from diskmodel.report.check_text import render_check
    from diskmodel.scenario import load_scenario

    typer.echo(render_check(load_scenario(scenario)))


OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        help="HTML report to write [default: reports/<scenario file name>.html]",
        dir_okay=False,
        show_default=False,
    ),
]
JsonOption = Annotated[
    Path | None,
    typer.Option(
        "--json",
        help="also write the result as JSON (schema: docs/json-schema.md)",
        dir_okay=False,
        show_default=False,
    ),
]
NoTimestamp = Annotated[
    bool,
    typer.Option(
        "--no-timestamp", help="leave out the generation-time line (byte-identical reports)"
    ),
]
Force = Annotated[
    bool, typer.Option("--force", help="replace output files that diskmodel did not write")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="print only the files written")]


@app.command()
@_boundary
def run(
    scenario: ScenarioPath,
    out: OutOption = None,
    json: JsonOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
) -> None:
    """Predict a scenario: print a summary, write the HTML report (and JSON if asked)."""
    from diskmodel.model import predict
    from diskmodel.scenario import load_scenario

    loaded = load_scenario(scenario)
    prediction = predict(loaded, base_dir=scenario.parent)
    _emit(
        prediction,
        loaded.alternatives(),
        out or Path("reports") / f"{scenario.stem}.html",
        json,
        timestamp=not no_timestamp,
        force=force,
        quiet=quiet,
    )


@app.command()
@_boundary
def compare(
    scenarios: Annotated[
        list[Path],
        typer.Argument(
            help="two or more scenario files; the first is the reference",
            exists=True,
            dir_okay=False,
            readable=True,
            show_default=False,
        ),
    ],
    out: OutOption = None,
    json: JsonOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
) -> None:
    """Compare the baselines of several scenario files side by side in one report."""
    from diskmodel.analyses import compare_scenarios
    from diskmodel.errors import InputError
    from diskmodel.scenario import load_scenario

    if len(scenarios) < 2:
        raise InputError("compare needs at least two scenario files")
    loaded = [(load_scenario(path), path.parent) for path in scenarios]
    prediction, named = compare_scenarios(loaded)
    default = Path("reports") / ("-vs-".join(p.stem for p in scenarios)[:120] + ".html")
    _emit(
        prediction,
        named,
        out or default,
        json,
        timestamp=not no_timestamp,
        force=force,
        quiet=quiet,
    )


def _emit(
    prediction: ScenarioPrediction,
    scenarios: list[tuple[str, Scenario]],
    html_path: Path,
    json_path: Path | None,
    *,
    timestamp: bool,
    force: bool,
    quiet: bool,
) -> None:
    """Print the summary and write the report files (JSON first: both or neither on error)."""
    from diskmodel.output import check_output_path, write_output
    from diskmodel.report.html import render_html
    from diskmodel.report.json_result import to_json
    from diskmodel.report.text import render

    html = render_html(prediction, scenarios=scenarios, timestamp=timestamp)
    outputs = [(html_path, html)]
    if json_path is not None:
        outputs.insert(0, (json_path, to_json(prediction)))
    for path, _ in outputs:  # refuse before writing anything: both files or neither
        check_output_path(path, force=force)
    written: list[Path] = []
    try:
        for path, text in outputs:
            written.append(write_output(path, text, force=force))
    except BaseException:
        for path in written:  # a later write failed (disk full): take back the earlier one
            path.unlink(missing_ok=True)
        raise
    if not quiet:
        typer.echo(render(prediction))
        typer.echo("")
    for path in written:
        typer.echo(f"wrote {path}")


def main() -> None:
    """Console-script entry point."""
    app()
