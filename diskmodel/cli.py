"""The `diskmodel` command: parses arguments, calls the public API, prints. No modelling here.

Every command runs inside one error boundary (`_boundary`): a `UserError` prints its message on
stderr and exits with its named code (see `diskmodel.errors.ExitCode`); anything else is a bug
and surfaces as one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from diskmodel import __version__
from diskmodel.errors import UserError

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


def main() -> None:
    """Console-script entry point."""
    app()
