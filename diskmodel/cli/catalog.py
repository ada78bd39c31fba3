"""`diskmodel catalog list` and `catalog show`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api
from diskmodel.cli.app import catalog_app, say
from diskmodel.cli.options import (
    CatalogFiles,
    complete_catalog_name,
)

if TYPE_CHECKING:
    pass


@catalog_app.command("list")
def catalog_list(catalog: CatalogFiles = None) -> None:
    """List storage systems, drives and RAID formats in the catalog.

    \b
    Example:
      diskmodel catalog list --catalog site.yaml
    """
    say(api.catalog_listing(catalog or ()))


@catalog_app.command("show")
def catalog_show(
    name: Annotated[
        str,
        typer.Argument(
            help="a system, drive or RAID format name",
            metavar="NAME",
            autocompletion=complete_catalog_name,
        ),
    ],
    catalog: CatalogFiles = None,
) -> None:
    """Show one catalog entry with every figure and its source.

    \b
    Example:
      diskmodel catalog show 15k-146
    """
    say(api.catalog_entry(name, catalog or ()))
