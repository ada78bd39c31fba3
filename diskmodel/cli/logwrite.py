"""`diskmodel logwrite`: a log's commit time striped or not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api
from diskmodel.cli.app import app, say
from diskmodel.cli.options import (
    CatalogFiles,
)

if TYPE_CHECKING:
    pass


@app.command()
def logwrite(
    pages: Annotated[
        list[int] | None,
        typer.Option(
            "--pages",
            "-p",
            min=1,
            max=4096,
            metavar="PAGES",
            help="pages per commit, 1 to 4096 (repeatable)  "
            f"[default: {', '.join(map(str, api.LOG_PAGES))}]",
        ),
    ] = None,
    system: Annotated[
        str,
        typer.Option(
            metavar="SYSTEM", help="storage system from the catalog (diskmodel catalog list)"
        ),
    ] = "ds8800-951",
    host_adapter: Annotated[
        str | None,
        typer.Option(metavar="ADAPTER", help="host adapter type; default: the system's"),
    ] = None,
    page_kib: Annotated[
        float, typer.Option(min=0.5, max=64, metavar="KIB", help="log page size, KiB, 0.5 to 64")
    ] = 4.0,
    links: Annotated[
        int | None,
        typer.Option(
            min=1, max=64, metavar="N", help="links (channels, ports) the stripes share, 1 to 64"
        ),
    ] = None,
    utilization: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=0.99,
            metavar="FRACTION",
            help="busiest station on each path, busy fraction 0 to 0.99",
        ),
    ] = 0.0,
    service_us: Annotated[
        float,
        typer.Option(
            min=0.0, max=1e6, metavar="US", help="that station's service per operation, us"
        ),
    ] = 50.0,
    catalog_files: CatalogFiles = None,
) -> None:
    """Commit time of a striped database log for 1, 2, 4 and 8 stripes, from the system's
    catalog figures. A DS8800 with 8 Gb/s ports gives 168 us for 1 page and 2.5 ms for 128,
    as IBM measured Db2 log writes on a DS8800 with 8 Gb FICON (about 170 us and 2.5 ms). For
    a whole scenario's logs at its own load, give it a `logs` section.

    \b
    Example:
      diskmodel logwrite -p 4 -p 128 --utilization 0.5
    """
    summary = api.log_striping(
        system,
        host_adapter=host_adapter,
        page_kib=page_kib,
        pages=pages or api.LOG_PAGES,
        links=links,
        utilization=utilization,
        service_us=service_us,
        catalog_files=catalog_files or (),
    )
    say(api.log_striping_text(summary))
