"""The hardware catalog: the shipped one with the user's files, a scenario's own files, and
what `diskmodel catalog list` and `diskmodel catalog show` print."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.catalog import Catalog
    from diskmodel.scenario import Scenario


def load_catalog(files: Sequence[Path] = ()) -> Catalog:
    """The shipped catalog and the user's catalog `files` after it, each adding entries or
    replacing shipped ones of the same name (a `CatalogError`, an `InputError`, names the
    file and key)."""
    from diskmodel.catalog import load_catalog as load

    return load(files)


def scenario_catalog(scenario: Scenario, path: Path, catalog: Catalog) -> Catalog:
    """`catalog` and the scenario's own `catalog` files, relative to its file `path` (already
    read once when `load_scenario` validated it)."""
    from diskmodel.scenario.files import scenario_catalog as with_own

    return with_own(scenario.catalog, path.parent, catalog)


def catalog_names(prefix: str = "") -> list[str]:
    """The shipped catalog's names (systems, drives, RAID formats) that start with `prefix`,
    sorted (the command line's completion)."""
    return [name for name in load_catalog().names() if name.startswith(prefix)]


def catalog_listing(files: Sequence[Path] = ()) -> str:
    """Every storage system, drive and RAID format of the catalog (with the user's `files`),
    as text for the terminal (`diskmodel catalog list`)."""
    from diskmodel.report.catalog_text import render_list

    return render_list(load_catalog(files))


def catalog_entry(name: str, files: Sequence[Path] = ()) -> str:
    """One catalog entry with every figure and its source, as text for the terminal
    (`diskmodel catalog show`); an `InputError` suggests close names for one not there."""
    from diskmodel.report.catalog_text import render_entry

    return render_entry(load_catalog(files), name)
