"""The catalog's entries: drives (and how each system packages them), RAID formats, storage
systems with their adapters and processor options, and the `Catalog` of them all by name,
its cross-references checked (`cross_reference_problems`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from diskmodel.catalog.figures import Sourced
from diskmodel.vocabulary import TierName

SHIPPED = "shipped"
"""`Catalog.origin` of an entry that comes with diskmodel (not from a user's catalog file)."""


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
