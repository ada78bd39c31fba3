"""The hardware catalog: what diskmodel knows about DS8700/DS8800 systems, drives and RAID formats.

The data lives in YAML files under `diskmodel/hardware_catalog/` (shipped inside the package
and found with `importlib.resources`). Every numeric figure there is written

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
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from diskmodel.catalog_bounds import checked_figure
from diskmodel.errors import InputError
from diskmodel.vocabulary import TierName

SCHEMA_VERSION = 1
"""The `schema_version` every catalog file declares."""

_FIGURE_KEYS = frozenset({"value", "source", "basis", "range", "fitted"})
_FROM_FILE = "catalog_file"
"""Validation-context flag: the data comes from a YAML file, where every figure is sourced."""

SHIPPED = "shipped"
"""`Catalog.origin` of an entry that comes with diskmodel (not from a user's catalog file)."""

MAX_USER_FILE_BYTES = 1_000_000
"""A user catalog file is read no further than this (the shipped files are 10-60 kB each)."""


class CatalogError(InputError):
    """A catalog file is malformed or inconsistent; the message names the file and key path.

    In a shipped file it is a developer error; in a user's `--catalog` file it is the user's,
    and as an `InputError` the command line prints it as one message (exit 3)."""


class Provenance(BaseModel):
    """Where a figure comes from: a published `source`, a derivation `basis`, or both; for an
    estimate the `range` [low, high] it could lie in; for a figure chosen to reproduce a
    published measurement, `fitted`: which one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str | None = None
    basis: str | None = None
    range: tuple[float, float] | None = None
    fitted: str | None = None

    @model_validator(mode="after")
    def _says_something(self) -> Provenance:
        if not (self.source or "").strip() and not (self.basis or "").strip():
            raise ValueError("a figure needs a non-empty 'source' or 'basis'")
        if self.range is not None and not self.range[0] <= self.range[1]:
            raise ValueError(f"range {list(self.range)} must be [low, high] with low <= high")
        if self.fitted is not None and not self.fitted.strip():
            raise ValueError("'fitted' names the published figure the value was chosen for")
        return self

    def text(self) -> str:
        """One line for humans: the source, the basis, the range, what it was fitted to."""
        parts = []
        if self.source:
            parts.append(f"source: {self.source.strip()}")
        if self.basis:
            parts.append(f"basis: {self.basis.strip()}")
        if self.range is not None:
            parts.append(f"range: {self.range[0]:g} to {self.range[1]:g}")
        if self.fitted:
            parts.append(f"fitted to: {self.fitted.strip()}")
        return "; ".join(parts)


def _is_figure_value(raw: Any) -> bool:
    """True for a number (not a bool) or a non-empty list of numbers."""
    if isinstance(raw, bool):
        return False
    if isinstance(raw, int | float):
        return True
    return (
        isinstance(raw, list)
        and bool(raw)
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw)
    )


class Sourced(BaseModel):
    """Base of every catalog entry: splits `{value, source|basis}` figures into value + provenance.

    `provenance[key]` holds the `Provenance` of each figure `key` of this entry (nested
    entries such as a host adapter type keep their own).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    label_fields: ClassVar[frozenset[str]] = frozenset()
    """Numeric fields that are names, not measurements (e.g. RAID `level`): no provenance."""

    provenance: dict[str, Provenance] = Field(default_factory=dict, repr=False)

    @model_validator(mode="before")
    @classmethod
    def _split_figures(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, Mapping):
            return data  # a type error pydantic reports
        if "provenance" in data:
            if (info.context or {}).get(_FROM_FILE):
                raise ValueError(
                    "'provenance' is not written in a catalog file: give each figure its own "
                    "source or basis, as {value: ..., source: ...}"
                )
            return data  # built in Python from already-split values (e.g. a model_dump)
        values: dict[str, Any] = {}
        provenance: dict[str, Any] = {}
        for key, raw in data.items():
            if isinstance(raw, Mapping) and "value" in raw:
                unknown = set(raw) - _FIGURE_KEYS
                if unknown:
                    raise ValueError(
                        f"figure {key!r} has unknown keys {sorted(unknown)}; a figure is "
                        "{value, source} or {value, basis} (or both), with an optional "
                        "range: [low, high] and fitted: <the figure it was chosen for>"
                    )
                if (
                    not str(raw.get("source") or "").strip()
                    and not str(raw.get("basis") or "").strip()
                ):
                    raise ValueError(f"figure {key!r} needs a non-empty 'source' or 'basis'")
                values[key] = raw["value"]
                provenance[key] = {k: raw[k] for k in _FIGURE_KEYS - {"value"} if k in raw}
                span = raw.get("range")
                if span is not None and (
                    not _is_figure_value(span)
                    or not isinstance(span, list)
                    or len(span) != 2
                    or not span[0] <= span[1]
                ):
                    raise ValueError(
                        f"figure {key!r}: a range is [low, high] with low <= high, got {span!r}"
                    )
                if (
                    span is not None
                    and _is_figure_value(raw["value"])
                    and not isinstance(raw["value"], list)
                    and not span[0] <= raw["value"] <= span[1]
                ):
                    raise ValueError(
                        f"figure {key!r}: its value {raw['value']!r} is outside its range "
                        f"{span!r} (change the range with the value, or drop it)"
                    )
            elif _is_figure_value(raw) and key not in cls.label_fields:
                raise ValueError(
                    f"figure {key!r} = {raw!r} has no provenance; write it as "
                    f"{key}: {{value: {raw!r}, source: ...}} or {{value: ..., basis: ...}}"
                )
            else:
                values[key] = raw
        values["provenance"] = provenance
        return values

    @field_validator("*", mode="after")
    @classmethod
    def _figure_within_bounds(cls, value: Any, info: ValidationInfo) -> Any:
        """Every number finite and, where not zero, within its physical range (issue 33:
        infinity or 1e308 in a user's file crashed the model): `catalog_bounds`."""
        from_file = bool((info.context or {}).get(_FROM_FILE))
        return checked_figure(info.field_name or "", value, from_file=from_file)


# --------------------------------------------------------------------------- drives


PACKAGED_FIGURES: tuple[str, ...] = (
    "avg_seek_read_ms",
    "avg_seek_write_ms",
    "full_stroke_seek_read_ms",
    "full_stroke_seek_write_ms",
    "track_to_track_seek_read_ms",
    "track_to_track_seek_write_ms",
    "media_transfer_mb_s",
    "controller_overhead_ms",
    "power_w",
)
"""Drive figures a packaging may state for itself (a 2.5-inch SAS drive seeks faster than the
3.5-inch FC drive of the same capacity and speed); the others belong to the drive type."""


class Packaging(Sourced):
    """How a drive is packaged on one storage system: its interface, its form factor and the
    figures of that packaging where they differ from the drive's own (`PACKAGED_FIGURES`;
    None: the drive's figure holds)."""

    interface: str
    form_factor_in: float = Field(gt=0)
    avg_seek_read_ms: float | None = Field(default=None, gt=0)
    avg_seek_write_ms: float | None = Field(default=None, gt=0)
    full_stroke_seek_read_ms: float | None = Field(default=None, gt=0)
    full_stroke_seek_write_ms: float | None = Field(default=None, gt=0)
    track_to_track_seek_read_ms: float | None = Field(default=None, gt=0)
    track_to_track_seek_write_ms: float | None = Field(default=None, gt=0)
    media_transfer_mb_s: float | None = Field(default=None, gt=0)
    controller_overhead_ms: float | None = Field(default=None, ge=0)
    power_w: float | None = Field(default=None, gt=0)

    def overrides(self) -> dict[str, float]:
        """The figures this packaging states for itself."""
        return {k: v for k in PACKAGED_FIGURES if (v := getattr(self, k)) is not None}


class Drive(Sourced):
    """One drive type. HDD-only figures are 0 for SSDs and SSD-only figures 0 for HDDs.

    HDD service time at queue length 1 is seek + half a rotation + transfer + controller
    overhead; SSD service time is `ssd_read_service_ms` / `ssd_write_service_ms` for one small
    (4 KiB) random I/O, and `ssd_parallelism` requests are served at once. `packaging` says
    which systems offer the drive, and how; a packaging may carry its own figures, and
    `Catalog.installed_drive` gives the drive as one system installs it (the top-level
    figures hold where the packaging states none).
    """

    name: str
    kind: Literal["hdd", "ssd"]
    tier: TierName
    capacity_gb: float = Field(gt=0)
    rpm: float = Field(ge=0)
    avg_seek_read_ms: float = Field(ge=0)
    avg_seek_write_ms: float = Field(ge=0)
    full_stroke_seek_read_ms: float = Field(ge=0)
    full_stroke_seek_write_ms: float = Field(ge=0)
    track_to_track_seek_read_ms: float = Field(ge=0)
    track_to_track_seek_write_ms: float = Field(ge=0)
    media_transfer_mb_s: float = Field(gt=0)
    controller_overhead_ms: float = Field(ge=0)
    command_queue_depth: int = Field(ge=1)
    ssd_read_service_ms: float = Field(ge=0)
    ssd_write_service_ms: float = Field(ge=0)
    ssd_parallelism: int = Field(ge=0)
    power_w: float = Field(gt=0)
    packaging: dict[str, Packaging]

    @property
    def rotation_ms(self) -> float:
        """Time of one full revolution, 60000 / rpm (0 for an SSD)."""
        return 60_000.0 / self.rpm if self.rpm else 0.0

    @property
    def avg_rotational_latency_ms(self) -> float:
        """Average rotational latency, half a revolution: 30000 / rpm (0 for an SSD)."""
        return self.rotation_ms / 2.0

    @model_validator(mode="after")
    def _kind_is_consistent(self) -> Drive:
        hdd_fields = {
            "rpm": self.rpm,
            "avg_seek_read_ms": self.avg_seek_read_ms,
            "avg_seek_write_ms": self.avg_seek_write_ms,
            "full_stroke_seek_read_ms": self.full_stroke_seek_read_ms,
            "full_stroke_seek_write_ms": self.full_stroke_seek_write_ms,
            "track_to_track_seek_read_ms": self.track_to_track_seek_read_ms,
            "track_to_track_seek_write_ms": self.track_to_track_seek_write_ms,
        }
        ssd_fields = {
            "ssd_read_service_ms": self.ssd_read_service_ms,
            "ssd_write_service_ms": self.ssd_write_service_ms,
            "ssd_parallelism": self.ssd_parallelism,
        }
        if self.kind == "ssd":
            if self.tier != "ssd":
                raise ValueError(f"an SSD belongs to tier 'ssd', not {self.tier!r}")
            must_be_zero, must_be_positive = hdd_fields, ssd_fields
        else:
            if self.tier == "ssd":
                raise ValueError("an HDD cannot be in tier 'ssd'")
            must_be_zero, must_be_positive = ssd_fields, hdd_fields
        for key, value in must_be_zero.items():
            if value != 0:
                raise ValueError(f"{key} must be 0 for a drive of kind {self.kind!r}")
        for key, value in must_be_positive.items():
            if value <= 0:
                raise ValueError(f"{key} must be > 0 for a drive of kind {self.kind!r}")
        if not self.packaging:
            raise ValueError("packaging must name at least one system that offers the drive")
        if self.kind == "hdd":
            for system in self.packaging:
                _check_seek_figures(self.as_packaged(system), system)
        if self.kind == "ssd":
            for system, packaging in self.packaging.items():
                hdd_only = set(packaging.overrides()) - {
                    "media_transfer_mb_s",
                    "controller_overhead_ms",
                    "power_w",
                }
                if hdd_only:
                    raise ValueError(
                        f"packaging {system!r} of an SSD states HDD figures {sorted(hdd_only)}"
                    )
        return self

    def as_packaged(self, system: str) -> Drive:
        """This drive with the figures of its packaging for `system` (KeyError: not offered)."""
        packaging = self.packaging[system]
        overrides = packaging.overrides()
        if not overrides:
            return self
        provenance = {
            **self.provenance,
            **{k: packaging.provenance[k] for k in overrides if k in packaging.provenance},
        }
        return self.model_copy(update={**overrides, "provenance": provenance})


def _check_seek_figures(drive: Drive, system: str) -> None:
    """ValueError unless the drive's read and write seek figures as installed on `system`
    admit a seek curve (what the model fits to them; `components.seek.SeekCurve.fit`)."""
    from diskmodel.components.seek import SeekCurve  # deferred: components import the catalog

    for op in ("read", "write"):
        keys = (f"track_to_track_seek_{op}_ms", f"avg_seek_{op}_ms", f"full_stroke_seek_{op}_ms")
        values = [float(getattr(drive, key)) for key in keys]
        try:
            SeekCurve.fit(*values)
        except ValueError as exc:
            given = ", ".join(f"{k} {v:g}" for k, v in zip(keys, values, strict=True))
            raise ValueError(f"as installed on {system!r} ({given}): {exc}") from None


# --------------------------------------------------------------------------- RAID formats


class RaidFormat(Sourced):
    """A RAID format of one 8-drive array site and its back-end operations per host operation.

    `random_write_reads` + `random_write_writes` is the random-write penalty (RAID-5: 2+2,
    RAID-6: 3+3, RAID-10: 0+2); a full-stripe (sequential) write costs
    `sequential_write_ops_per_data_op` = (data + redundancy) / data drive writes per data-drive
    write.
    """

    label_fields: ClassVar[frozenset[str]] = frozenset({"level"})

    name: str
    level: Literal[5, 6, 10]
    data_drives: int = Field(ge=1)
    redundancy_drives: int = Field(ge=1)
    spare_drives: int = Field(ge=0)
    array_site_drives: int = Field(ge=1)
    read_miss_ops: float = Field(gt=0)
    random_write_reads: float = Field(ge=0)
    random_write_writes: float = Field(gt=0)
    sequential_write_ops_per_data_op: float = Field(ge=1)

    @property
    def drives(self) -> int:
        """Drives the format occupies in its array site: data + redundancy + spares."""
        return self.data_drives + self.redundancy_drives + self.spare_drives

    @property
    def usable_fraction(self) -> float:
        """Fraction of the array site's raw capacity that holds data: data / site drives."""
        return self.data_drives / self.array_site_drives

    @property
    def random_write_ops(self) -> float:
        """Back-end drive operations per random host write (the RAID write penalty)."""
        return self.random_write_reads + self.random_write_writes

    @model_validator(mode="after")
    def _fills_its_array_site(self) -> RaidFormat:
        if self.drives != self.array_site_drives:
            raise ValueError(
                f"data {self.data_drives} + redundancy {self.redundancy_drives} + spares "
                f"{self.spare_drives} = {self.drives} drives, but an array site has "
                f"{self.array_site_drives}"
            )
        return self


# --------------------------------------------------------------------------- storage systems


class ProcessorOption(Sourced):
    """One processor complex option: cores per server ("ways"), clock, cache sizes offered."""

    ways: int = Field(ge=1)
    clock_ghz: float = Field(gt=0)
    cache_gb_options: list[int] = Field(min_length=1)


class HostAdapterType(Sourced):
    """A host adapter card type: its ports, and the card (processor, PCIe link) they share.

    A port's service time for one I/O of b bytes is
    `per_io_overhead_us` + b / `port_bandwidth_mb_s`; the card's, shared by its
    `ports_per_adapter` ports, `card_per_io_us` + b / `card_bandwidth_mb_s`.
    """

    name: str
    port_gbps: float = Field(gt=0)
    ports_per_adapter: int = Field(ge=1)
    port_bandwidth_mb_s: float = Field(gt=0)
    per_io_overhead_us: float = Field(gt=0)
    card_per_io_us: float = Field(gt=0)
    card_bandwidth_mb_s: float = Field(gt=0)


class DeviceAdapterType(Sourced):
    """The device adapter (DA) generation of a system; figures are for one DA pair.

    A DA pair's service time for one back-end operation of b bytes is
    `per_op_us` + b / `bandwidth_mb_s`.
    """

    name: str
    generation: str
    per_op_us: float = Field(gt=0)
    bandwidth_mb_s: float = Field(gt=0)
    commands_per_hdd: int = Field(ge=1)
    """The most commands the DA keeps outstanding at one HDD: with the drive's own command
    queue it bounds the queue a drive reorders (`model.costs.queue_limit`)."""


class ProcessorCosts(Sourced):
    """Processor core time per host I/O (microseconds of one core at the system's clock)."""

    read_hit_us: float = Field(gt=0)
    read_miss_us: float = Field(gt=0)
    write_us: float = Field(gt=0)
    sequential_read_us: float = Field(gt=0)
    destage_us: float = Field(gt=0)


class StorageSystem(Sourced):
    """A storage system model (e.g. DS8800 2107-951): its options and performance parameters."""

    name: str
    family: str
    machine_type: str
    model: str
    processor: str
    servers: int = Field(ge=1)
    processor_options: list[ProcessorOption] = Field(min_length=1)
    nvs_fraction: float = Field(gt=0, lt=1)
    nvs_rank_limit_fraction: float = Field(gt=0, le=1)
    """The most of a server's NVS one rank's dirty data may fill."""
    front_end_latency_us: float = Field(ge=0)
    easy_tier_generation: Literal[1, 2]
    """The Easy Tier generation the system shipped with: a pool's `easy_tier.generation`
    when the scenario does not say."""
    write_copy_us_per_kib: float = Field(ge=0)
    log_striping_us: float = Field(ge=0)
    """The striping layer's own time per striped log write (docs/model.md §6b)."""
    host_adapters: list[HostAdapterType] = Field(min_length=1)
    default_host_adapter: str
    max_host_ports: int = Field(ge=1)
    max_da_pairs: int = Field(ge=1)
    device_adapter: DeviceAdapterType
    processor_costs: ProcessorCosts
    max_ranks_per_da_pair: int = Field(ge=1)
    drives: list[str] = Field(min_length=1)
    raid_formats: list[str] = Field(min_length=1)

    def host_adapter(self, name: str | None = None) -> HostAdapterType:
        """The host adapter type called `name` (the default one when `name` is None)."""
        wanted = name or self.default_host_adapter
        for adapter in self.host_adapters:
            if adapter.name == wanted:
                return adapter
        raise KeyError(wanted)

    def processor_option(self, ways: int) -> ProcessorOption:
        """The processor option with `ways` cores per server."""
        for option in self.processor_options:
            if option.ways == ways:
                return option
        raise KeyError(ways)

    @model_validator(mode="after")
    def _default_adapter_exists(self) -> StorageSystem:
        names = [a.name for a in self.host_adapters]
        if self.default_host_adapter not in names:
            raise ValueError(
                f"default_host_adapter {self.default_host_adapter!r} is not one of {names}"
            )
        return self


# --------------------------------------------------------------------------- the catalog


class CatalogFile(BaseModel):
    """One YAML file of the catalog: a schema version and any of the three kinds of entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[1]
    systems: list[StorageSystem] = Field(default_factory=list)
    drives: list[Drive] = Field(default_factory=list)
    raid_formats: list[RaidFormat] = Field(default_factory=list)


class Catalog(BaseModel):
    """Everything the catalog files define, by name, cross-checked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    systems: dict[str, StorageSystem]
    drives: dict[str, Drive]
    raid_formats: dict[str, RaidFormat]
    origin: dict[str, str] = Field(default_factory=dict)
    """Where each entry was defined: `SHIPPED`, or the path of the user's catalog file that
    added or replaced it (a name missing here is shipped; `origin_of`)."""
    user_files: tuple[str, ...] = ()
    """The user's catalog files read after the shipped ones, in order (a scenario's own
    `catalog` files are read after these)."""

    def origin_of(self, name: str) -> str:
        """`SHIPPED`, or the user catalog file that defined the entry `name`."""
        return self.origin.get(name, SHIPPED)

    def installed_drive(self, system: str, drive: str) -> Drive:
        """The drive `drive` as installed in `system`: its figures for the packaging that
        system uses (the same drive type may come 2.5-inch SAS in one system and 3.5-inch FC
        in another). The storage model asks for drives only through this.

        KeyError (naming both) when the catalog has no such drive or `system` does not offer
        it."""
        entry = self.drives[drive]
        if system not in entry.packaging:
            raise KeyError(f"drive {drive!r} is not offered on system {system!r}")
        return entry.as_packaged(system)

    def names(self) -> list[str]:
        """Every name in the catalog (systems, drives, RAID formats), sorted."""
        return sorted([*self.systems, *self.drives, *self.raid_formats])

    def suggest(self, name: str, choices: list[str] | None = None) -> list[str]:
        """Close matches of a mistyped `name` among `choices` (default: every name)."""
        pool = self.names() if choices is None else choices
        return difflib.get_close_matches(name, pool, n=3, cutoff=0.5)

    @model_validator(mode="after")
    def _cross_references_resolve(self) -> Catalog:
        problems = cross_reference_problems(self.systems, self.drives, self.raid_formats)
        if problems:
            raise ValueError(problems[0][2])
        return self


def cross_reference_problems(
    systems: Mapping[str, StorageSystem],
    drives: Mapping[str, Drive],
    raid_formats: Mapping[str, RaidFormat],
) -> list[tuple[tuple[str, ...], str, str]]:
    """Names that do not resolve, as (entries involved, key path, message).

    A system's `drives` and `raid_formats` must name entries of the catalog, and a drive's
    `packaging` keys and the systems' `drives` lists must agree."""
    out: list[tuple[tuple[str, ...], str, str]] = []
    for system in systems.values():
        for drive_name in system.drives:
            where = f"systems[{system.name}].drives"
            if drive_name not in drives:
                out.append(
                    (
                        (system.name,),
                        where,
                        f"system {system.name!r} lists unknown drive {drive_name!r}",
                    )
                )
            elif system.name not in drives[drive_name].packaging:
                out.append(
                    (
                        (system.name, drive_name),
                        where,
                        f"system {system.name!r} lists drive {drive_name!r}, but that drive "
                        f"has no packaging for {system.name!r}",
                    )
                )
        for raid in system.raid_formats:
            if raid not in raid_formats:
                out.append(
                    (
                        (system.name,),
                        f"systems[{system.name}].raid_formats",
                        f"system {system.name!r} lists unknown RAID format {raid!r}",
                    )
                )
    for drive in drives.values():
        for system_name in drive.packaging:
            where = f"drives[{drive.name}].packaging.{system_name}"
            if system_name not in systems:
                out.append(
                    (
                        (drive.name,),
                        where,
                        f"drive {drive.name!r} has packaging for unknown system {system_name!r}",
                    )
                )
            elif drive.name not in systems[system_name].drives:
                out.append(
                    (
                        (drive.name, system_name),
                        where,
                        f"drive {drive.name!r} has packaging for {system_name!r}, but that "
                        "system does not list it in its drives",
                    )
                )
    return out


def catalog_files() -> Iterator[tuple[str, str]]:
    """(relative path, text) of every `*.yaml` file under `diskmodel/hardware_catalog/`."""
    root = resources.files("diskmodel") / "hardware_catalog"

    def walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, str]]:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                yield from walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".yaml"):
                yield f"{prefix}{entry.name}", entry.read_text(encoding="utf-8")

    yield from walk(root, "hardware_catalog/")


PARSED_FILE = "parsed.json"
"""The shipped YAML files parsed once: each file's data under its path, beside the SHA-256 of
the text it was parsed from (`python -m diskmodel.catalog parsed`; `make catalog` regenerates
it). Reading it takes about a millisecond where the
pure-Python YAML parser takes 0.08 s of every run. A file whose text no longer matches its hash
is parsed again, so an edit is never missed; tests/test_catalog.py checks the file is current."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parsed_catalog_files(files: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The contents of `PARSED_FILE` for `files` ((path, text) pairs)."""
    return {
        where: {"sha256": _digest(text), "data": read_catalog_yaml(text, where)}
        for where, text in files
    }


@functools.cache
def _parsed_shipped() -> dict[str, Any]:
    path = resources.files("diskmodel") / "hardware_catalog" / PARSED_FILE
    try:
        parsed: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # missing or damaged: the YAML is read instead
        return {}
    return parsed


def _shipped_data(text: str, where: str) -> Any:
    """A shipped file's data: parsed already when its text is the one `PARSED_FILE` was made
    from, else parsed now."""
    entry = _parsed_shipped().get(where)
    if isinstance(entry, dict) and entry.get("sha256") == _digest(text):
        return entry.get("data")
    return read_catalog_yaml(text, where)


def read_catalog_yaml(text: str, where: str) -> Any:
    """Parse one catalog file's text to plain data (safe loader; no Python objects)."""
    yaml = YAML(typ="safe", pure=True)
    try:
        return yaml.load(text)
    except YAMLError as exc:
        raise CatalogError(f"{where}: YAML error: {exc}") from None


def read_user_catalog_yaml(text: str, where: str) -> Any:
    """Parse a user's catalog file by the scenario's guarded loader (`yamlio.parse_yaml`: tags
    refused, depth, aliases and digits bounded; a 5,000-digit number or 10,000 nested lists
    crashed the plain loader, issue 33 item 4)."""
    from diskmodel.yamlio import parse_yaml

    try:
        return parse_yaml(text, where, kind="catalog file").data
    except InputError as exc:
        raise CatalogError(str(exc)) from None


def parse_catalog_file(text: str, where: str, *, shipped: bool = False) -> CatalogFile:
    """Validate one catalog file; a `CatalogError` names the file and each bad key path.
    `shipped`: one of diskmodel's own files, whose parse may be kept (`PARSED_FILE`)."""
    data = _shipped_data(text, where) if shipped else read_user_catalog_yaml(text, where)
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: a catalog file is a YAML mapping with schema_version: 1")
    try:
        return CatalogFile.model_validate(data, context={_FROM_FILE: True})
    except ValidationError as exc:
        problems = "\n".join(
            f"  {_key_path(data, err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise CatalogError(f"{where}: invalid catalog entry\n{problems}") from None


def _key_path(data: Any, loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a key path, list items named by their `name` if they have one.

    ("drives", 3, "rpm") becomes "drives[15k-600].rpm", which is findable in the file.
    """
    parts: list[str] = []
    node = data
    for step in loc:
        if isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node):
            node = node[step]
            name = node.get("name") if isinstance(node, dict) else None
            parts.append(f"[{name if isinstance(name, str) else step}]")
            continue
        node = node.get(step) if isinstance(node, dict) else None
        parts.append(f".{step}" if parts else str(step))
    return "".join(parts) or "(file)"


_Entry = StorageSystem | Drive | RaidFormat


def _entries(parsed: CatalogFile) -> list[tuple[str, _Entry]]:
    """(kind, entry) of every entry of one parsed file, in file order."""
    return [
        *(("system", s) for s in parsed.systems),
        *(("drive", d) for d in parsed.drives),
        *(("RAID format", r) for r in parsed.raid_formats),
    ]


def build_catalog(
    files: Iterable[tuple[str, str]],
    user_files: Iterable[tuple[str, str]] = (),
) -> Catalog:
    """Merge catalog files into one cross-checked `Catalog`.

    `files` are the shipped files, where a name may be defined once. `user_files` (a user's
    own, each (path, text)) come after them: an entry there adds a name, or replaces the
    shipped entry of the same name and kind; within the user's files, too, a name is defined
    once. A user's drive is offered on every system its `packaging` names (added to that
    system's `drives` when missing). `Catalog.origin` records each name's file."""
    user_files = list(user_files)
    tables: dict[str, dict[str, Any]] = {"system": {}, "drive": {}, "RAID format": {}}
    kind_of: dict[str, str] = {}
    defined_in: dict[str, str] = {}
    origin: dict[str, str] = {}
    for where, text in files:
        for kind, entry in _entries(parse_catalog_file(text, where, shipped=True)):
            if entry.name in defined_in:
                raise CatalogError(
                    f"{where}: {entry.name!r} is already defined in {defined_in[entry.name]}"
                )
            defined_in[entry.name] = where
            kind_of[entry.name] = kind
            origin[entry.name] = SHIPPED
            tables[kind][entry.name] = entry
    user_defined_in: dict[str, str] = {}
    for where, text in user_files:
        for kind, entry in _entries(parse_catalog_file(text, where)):
            key = f"{_TABLE_KEY[kind]}[{entry.name}]"
            if entry.name in user_defined_in:
                raise CatalogError(
                    f"{where}: {key}: {entry.name!r} is already defined in "
                    f"{user_defined_in[entry.name]}"
                )
            shipped_kind = kind_of.get(entry.name)
            if shipped_kind is not None and shipped_kind != kind:
                raise CatalogError(
                    f"{where}: {key}: {entry.name!r} is a {shipped_kind} in the shipped catalog; "
                    f"an entry replaces a shipped one only with one of the same kind (or choose "
                    "another name)"
                )
            user_defined_in[entry.name] = where
            kind_of[entry.name] = kind
            origin[entry.name] = where
            tables[kind][entry.name] = entry
    systems: dict[str, StorageSystem] = tables["system"]
    drives: dict[str, Drive] = tables["drive"]
    raid_formats: dict[str, RaidFormat] = tables["RAID format"]
    _offer_user_drives(systems, drives, origin)
    problems = cross_reference_problems(systems, drives, raid_formats)
    if problems:
        raise CatalogError(_inconsistent(problems, origin))
    try:
        return Catalog(
            systems=systems,
            drives=drives,
            raid_formats=raid_formats,
            origin=origin,
            user_files=tuple(where for where, _ in user_files),
        )
    except ValidationError as exc:  # pragma: no cover - the checks above come first
        details = "\n".join(f"  {err['msg']}" for err in exc.errors())
        raise CatalogError(f"hardware_catalog: inconsistent entries\n{details}") from None


_TABLE_KEY = {"system": "systems", "drive": "drives", "RAID format": "raid_formats"}


def _offer_user_drives(
    systems: dict[str, StorageSystem], drives: dict[str, Drive], origin: dict[str, str]
) -> None:
    """A drive from a user's file is offered on each system its packaging names: add it to
    that system's `drives` where missing (the shipped files must list it on both sides)."""
    for drive in drives.values():
        if origin.get(drive.name, SHIPPED) == SHIPPED:
            continue
        for system_name in drive.packaging:
            system = systems.get(system_name)
            if system is not None and drive.name not in system.drives:
                systems[system_name] = system.model_copy(
                    update={"drives": [*system.drives, drive.name]}
                )


def _inconsistent(problems: list[tuple[tuple[str, ...], str, str]], origin: dict[str, str]) -> str:
    """The message for names that do not resolve: each problem under the file to fix, a
    user's file where one of the entries involved comes from one."""
    by_file: dict[str, list[str]] = {}
    for names, key, message in problems:
        users = [origin[n] for n in names if origin.get(n, SHIPPED) != SHIPPED]
        where = users[0] if users else "hardware_catalog"
        by_file.setdefault(where, []).append(f"  {key}: {message}")
    return "\n".join(
        f"{where}: inconsistent entries\n" + "\n".join(lines) for where, lines in by_file.items()
    )


def read_user_catalog_file(path: Path | str) -> tuple[str, str]:
    """(path as given, text) of a user's catalog file; `CatalogError` naming the file when it
    is missing, unreadable, not a regular file, too large or not UTF-8."""
    from diskmodel.yamlio import read_input_text

    try:
        return str(path), read_input_text(Path(path), MAX_USER_FILE_BYTES, "catalog")
    except InputError as exc:
        raise CatalogError(str(exc)) from None


@functools.cache
def _shipped_catalog() -> Catalog:
    return build_catalog(list(catalog_files()))


@functools.lru_cache(maxsize=16)
def _catalog_with(user_files: tuple[tuple[str, str], ...]) -> Catalog:
    return build_catalog(list(catalog_files()), user_files)


def load_catalog(extra: Sequence[Path | str] = ()) -> Catalog:
    """The catalog shipped with diskmodel, then the user's catalog files `extra` in order.

    The shipped catalog alone is loaded once, then cached; with `extra`, the files are read on
    every call and the catalog is cached by their paths and texts (an edited file is read
    anew). A file given twice is read once. `CatalogError` names the file and key path."""
    if not extra:
        return _shipped_catalog()
    seen: set[Path] = set()
    user_files: list[tuple[str, str]] = []
    for path in extra:
        resolved = Path(path).resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        user_files.append(read_user_catalog_file(path))
    return _catalog_with(tuple(user_files))


# --------------------------------------------------------------------------- listing figures


def iter_figures(entry: Sourced, prefix: str = "") -> Iterator[tuple[str, Any, Provenance]]:
    """Every figure of `entry` and its nested entries as (dotted key, value, provenance).

    Nested entries are named by their `name` when they have one (`host_adapters[fc-8gb-4port]
    .port_gbps`), by their `ways` for processor options, else by position or dictionary key.
    """
    for field_name in type(entry).model_fields:
        if field_name == "provenance":
            continue
        value = getattr(entry, field_name)
        key = f"{prefix}{field_name}"
        if field_name in entry.provenance:
            yield key, value, entry.provenance[field_name]
        elif isinstance(value, Sourced):
            yield from iter_figures(value, f"{key}.")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Sourced):
                    yield from iter_figures(item, f"{key}[{_label(item, index)}].")
        elif isinstance(value, dict):
            for item_key, item in value.items():
                if isinstance(item, Sourced):
                    yield from iter_figures(item, f"{key}[{item_key}].")


def _label(item: Sourced, index: int) -> str:
    name = getattr(item, "name", None)
    if isinstance(name, str):
        return name
    ways = getattr(item, "ways", None)
    return f"{ways}-way" if isinstance(ways, int) else str(index)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _format_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_format_value(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}" if value == round(value, 6) else f"{value:.6g}"
    return str(value)


def render_catalog_markdown(catalog: Catalog) -> str:
    """`docs/catalog.md`: every figure of the catalog with its value and its source or basis."""
    lines = [
        "# The hardware catalog, figure by figure",
        "",
        "Generated from `diskmodel/hardware_catalog/*.yaml` by "
        "`python -m diskmodel.catalog > docs/catalog.md`; a test checks it is up to date.",
        "Units are in the key names (`_ms`, `_us`, `_mb_s`, `_gb`, `_gbps`, `_ghz`, `_w`, `_in`).",
        "*Source* is where a figure was published; *basis* says how it was derived or estimated.",
        "",
    ]
    sections: list[tuple[str, dict[str, Any]]] = [
        ("Storage systems", dict(catalog.systems)),
        ("Drives", dict(catalog.drives)),
        ("RAID formats", dict(catalog.raid_formats)),
    ]
    for title, entries in sections:
        lines += [f"## {title}", ""]
        for name, entry in entries.items():
            lines += [f"### {name}", ""]
            descriptive = [
                f"{field}: {getattr(entry, field)}"
                for field in ("family", "machine_type", "model", "processor", "kind", "tier")
                if hasattr(entry, field)
            ]
            if isinstance(entry, RaidFormat):
                descriptive.append(f"level: RAID-{entry.level}")
            if isinstance(entry, StorageSystem):
                descriptive += [
                    f"device adapter: {entry.device_adapter.name} "
                    f"({entry.device_adapter.generation})",
                    f"default host adapter: {entry.default_host_adapter}",
                    f"drives: {', '.join(entry.drives)}",
                    f"RAID formats: {', '.join(entry.raid_formats)}",
                ]
            if isinstance(entry, Drive):
                descriptive += [
                    f"on {system}: {packaging.interface}"
                    for system, packaging in entry.packaging.items()
                ]
            if descriptive:
                lines += ["; ".join(_cell(d) for d in descriptive), ""]
            lines += ["| figure | value | source or basis |", "|---|---|---|"]
            for key, value, provenance in iter_figures(entry):
                lines.append(f"| `{key}` | {_format_value(value)} | {_cell(provenance.text())} |")
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:] == ["parsed"]:
        print(json.dumps(parsed_catalog_files(catalog_files()), indent=1, sort_keys=True))
    else:
        print(render_catalog_markdown(load_catalog()), end="")
