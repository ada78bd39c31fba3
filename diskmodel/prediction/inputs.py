"""The inputs as the model used them: every default filled in, every catalog figure with its
source (a `Prediction`'s `inputs`)."""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.prediction.copy_services import CopyServicesInputs
from diskmodel.vocabulary import easy_tier_follows_load


@dataclass(frozen=True, slots=True)
class Figure:
    """One hardware figure the model used, with where it comes from.

    entry: the catalog entry ("ds8800-951", "15k-300", "raid5-7+p"); key: its dotted key
    ("avg_seek_read_ms", "device_adapter.per_op_us"); provenance: the catalog's "source: ..."
    (a published document) or "basis: ..." (how it was derived or bounded).
    """

    entry: str
    key: str
    value: float
    provenance: str


@dataclass(frozen=True, slots=True)
class DefaultUsed:
    """An input the scenario left out, the value used and why (key as a dotted path with
    names: `workloads.oltp.destage_ratio`)."""

    key: str
    value: str
    basis: str


@dataclass(frozen=True, slots=True)
class SystemInput:
    """The storage system as configured."""

    model: str  # catalog name, e.g. ds8800-951
    label: str  # e.g. "IBM DS8800 2107-951"
    processor: str  # e.g. "POWER6+"
    servers: int
    processor_ways: int
    clock_ghz: float
    cache_gb: float
    nvs_gb: float
    host_ports: int
    host_adapter: str
    port_gbps: float
    da_pairs: int
    device_adapter: str


@dataclass(frozen=True, slots=True)
class RankGroupInput:
    """Identical ranks of one pool (same drive and RAID format), where they sit.

    ranks_per_da_pair / ranks_per_server: (DA pair or server index, ranks of this group there);
    capacity_gb: usable (data drives only) of the whole group; drives: physical drives of the
    group, spares included.
    """

    pool: str
    tier: str
    drive: str
    drive_label: str  # e.g. "300 GB 15K RPM, 2.5-inch SAS"
    raid: str
    count: int
    ranks_per_da_pair: tuple[tuple[int, int], ...]
    ranks_per_server: tuple[tuple[int, int], ...]
    capacity_gb: float
    drives: int
    added: bool = False


@dataclass(frozen=True, slots=True)
class PoolInput:
    """An extent pool: Easy Tier setting and tiers (fastest first) with usable capacity."""

    name: str
    easy_tier: str  # "auto" | "off"
    utilization_target: float  # what Easy Tier lets a tier's busiest station reach
    tiers: tuple[str, ...]
    tier_capacity_gb: tuple[float, ...]  # same order as tiers
    ssd_ranks_per_server: tuple[int, ...]  # SSD ranks owned by server 0, 1
    easy_tier_generation: int = 2  # 1: by I/O density only; 2: load limits, auto-rebalance
    host_tiering: bool = False  # the host places the data by its own read counts

    @property
    def placement_follows_load(self) -> bool:
        """Easy Tier keeps each tier under `utilization_target`, so where data lands depends
        on the load (the configuration's rule, `vocabulary.easy_tier_follows_load`)."""
        return easy_tier_follows_load(
            self.easy_tier == "auto", self.easy_tier_generation, len(self.tiers)
        )


@dataclass(frozen=True, slots=True)
class WorkloadInput:
    """A workload as the model used it: every default filled in, the hit ratio it used.

    load: "iops" (open, at `iops`), "queue_depth" or "users" (closed, `population`).
    read_hit_ratio_basis: "as given", or how it was projected (another cache size).
    skew: a description of the skew curve ("level 14 (high)", "points ...", "heat map x.csv").
    """

    name: str
    pool: str
    load: str
    iops: float | None
    population: int | None
    think_time_ms: float
    read_fraction: float
    read_hit_ratio: float
    read_hit_ratio_basis: str
    destage_ratio: float
    read_size_kib: float
    write_size_kib: float
    read_sequential_fraction: float
    write_sequential_fraction: float
    capacity_gb: float
    skew: str
    pin_tier: str | None
    population_basis: str = ""  # how the population was derived (LUNs x queue depth)
    backend_kib: float | None = None  # a random back-end operation's size, if not the host's
    pin: str = ""  # part of the workload pinned to a tier (media preference), described


@dataclass(frozen=True, slots=True)
class ServiceLevelInput:
    """The limits the planner sizes to (utilisation ceilings per component kind)."""

    response_time_ms: float
    read_response_time_ms: float | None
    utilization: dict[str, float]


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything the model was given, as it used it."""

    system: SystemInput
    ranks: tuple[RankGroupInput, ...]
    pools: tuple[PoolInput, ...]
    workloads: tuple[WorkloadInput, ...]
    service_level: ServiceLevelInput
    figures: tuple[Figure, ...]
    defaults: tuple[DefaultUsed, ...]
    assumptions: tuple[str, ...]  # model assumptions that apply to this configuration
    copy_services: CopyServicesInputs | None = None  # written only where configured
