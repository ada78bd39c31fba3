"""The options and arguments the commands share, each with its help text once, and the
choices of `import --easy-tier` and `calibrate --intervals`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api

if TYPE_CHECKING:
    pass


class EasyTier(StrEnum):
    """`import --easy-tier` (the scenario's `easy_tier` modes)."""

    auto = "auto"
    off = "off"


class Intervals(StrEnum):
    """`calibrate --intervals` (measured.identify.INTERVALS, written out here so that the
    command line does not import the fit and scipy before it is asked to fit)."""

    auto = "auto"
    profile = "profile"
    linear = "linear"


def complete_catalog_name(incomplete: str) -> list[str]:
    return api.catalog_names(incomplete)


ScenarioPath = Annotated[
    Path,
    typer.Argument(
        help="scenario YAML file",
        metavar="SCENARIO",
        exists=True,
        dir_okay=False,
        readable=True,
        show_default=False,
    ),
]
OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        "-o",
        help="HTML report to write, - for standard output, or a folder/ "
        "[default: reports/<scenario file name>.html]",
        metavar="FILE",
        show_default=False,
    ),
]
JsonOption = Annotated[
    str | None,
    typer.Option(
        "--json",
        help="also write the result as JSON (docs/json-schema.md), - for standard output",
        metavar="FILE",
        show_default=False,
    ),
]
CsvOption = Annotated[
    str | None,
    typer.Option(
        "--csv",
        help="also write every table of the report as CSV, one file per table, into this "
        "folder (made if it does not exist)",
        metavar="DIR",
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
    bool,
    typer.Option(
        "--force",
        help="replace output files diskmodel did not write (never a link, device or folder)",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="print nothing but errors")]
NoCatalogBands = Annotated[
    bool,
    typer.Option(
        "--no-catalog-bands",
        help="skip the band over the catalog's unpublished figures (their ranges)",
    ),
]
Appendix = Annotated[
    bool,
    typer.Option(
        "--appendix",
        help="print the report's appendix too: every component, the inputs as the model used "
        "them, the assumptions and every catalog figure with its source (on screen the report "
        "always shows them; printed without it, the report is the answer, charts and results)",
    ),
]
CatalogFiles = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        help="a catalog file of your own, read after the shipped catalog: its entries add "
        "systems, drives or RAID formats or replace shipped ones of the same name "
        "(repeatable; docs/design.md 'User catalog files')",
        metavar="PATH",
        show_default=False,
    ),
]
AllowOutside = Annotated[
    bool,
    typer.Option(
        "--allow-outside-heatmaps",
        help="let the scenario read heat maps outside its own folder (trust its author)",
    ),
]
