"""The hardware catalog: what diskmodel knows about DS8700/DS8800 systems, drives and RAID formats.

The data lives in YAML files under the project's `hardware_catalog/` (shipped inside the wheel
as package data, `loading.shipped_folder`). Every numeric figure there is written

    key: {value: 3.5, source: "document, table or page"}      # taken from a publication
    key: {value: 0.2, basis: "how it was derived or estimated"}   # derived or estimated
    key: {value: 20, basis: "...", range: [10, 40]}           # an estimate and its reach
    key: {value: 2, basis: "...", fitted: "figure"}           # chosen to reproduce a figure

and loading turns it into a plain number on the model while its text goes to
`entry.provenance[key]`. A bare number, or a figure with neither a source nor a basis, is
refused: a planner must always be able to ask "where does this number come from?". A figure
that is not published carries the `range` it could lie in (the basis says why each end), and a
figure chosen so that the model reproduces a published measurement says so with `fitted` (that
measurement then no longer validates the model: docs/validation.md lists it as fitted).

The models are frozen and forbid unknown keys. Units are in the field names (`_ms`, `_us`,
`_mb_s`, `_gb`, `_gbps`, `_ghz`, `_w`, `_in`); the model layer converts to seconds once.

A user's own catalog files (`load_catalog([Path("site.yaml")])`, the command line's
`--catalog site.yaml`) are read after the shipped ones with the same schema and the same
validation: an entry there adds a system, drive or RAID format, or replaces the shipped entry
of the same name (`Catalog.origin` records which file each name came from). Errors in any
catalog file, shipped or the user's, say which file and which key (`CatalogError`, an
`InputError`: the command line prints it and exits 3).

One job a module: `figures` (a figure and its provenance), `bounds` (the physical range of
every figure), `drives`, `zos` (FICON channels, CKD volume models), `raid` (RAID formats),
`systems` (storage systems), `entries` (the `Catalog` of them all by name), `loading` (the
files read, validated and merged), `markdown` (docs/catalog.md). Every name below is
imported from here.
"""

from diskmodel.catalog.drives import PACKAGED_FIGURES, Drive, Packaging
from diskmodel.catalog.entries import SHIPPED, Catalog, cross_reference_problems
from diskmodel.catalog.figures import Provenance, Sourced, iter_figures
from diskmodel.catalog.loading import (
    MAX_USER_FILE_BYTES,
    PARSED_FILE,
    SCHEMA_VERSION,
    CatalogError,
    CatalogFile,
    build_catalog,
    catalog_files,
    load_catalog,
    parse_catalog_file,
    parsed_catalog_files,
    read_catalog_yaml,
    read_user_catalog_file,
)
from diskmodel.catalog.markdown import render_catalog_markdown
from diskmodel.catalog.raid import RaidFormat
from diskmodel.catalog.systems import (
    DeviceAdapterType,
    HostAdapterType,
    ProcessorCosts,
    ProcessorOption,
    StorageSystem,
)
from diskmodel.catalog.zos import FiconChannel, VolumeModel

__all__ = [
    "MAX_USER_FILE_BYTES",
    "PACKAGED_FIGURES",
    "PARSED_FILE",
    "SCHEMA_VERSION",
    "SHIPPED",
    "Catalog",
    "CatalogError",
    "CatalogFile",
    "DeviceAdapterType",
    "Drive",
    "FiconChannel",
    "HostAdapterType",
    "Packaging",
    "ProcessorCosts",
    "ProcessorOption",
    "Provenance",
    "RaidFormat",
    "Sourced",
    "StorageSystem",
    "VolumeModel",
    "build_catalog",
    "catalog_files",
    "cross_reference_problems",
    "iter_figures",
    "load_catalog",
    "parse_catalog_file",
    "parsed_catalog_files",
    "read_catalog_yaml",
    "read_user_catalog_file",
    "render_catalog_markdown",
]
