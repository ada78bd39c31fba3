"""The resolved configuration's records: frozen plain data, everything the model reads.

`Configuration` holds the hardware as configured (`Hardware`: catalog entries chosen, counts
given), every rank as installed (`Rank`), the pools (`PoolConfig`), the workloads with every
default filled in (`WorkloadConfig`), the service level (`ServiceLevelConfig`), the logs and the
application above the storage, and the inputs as the report shows them (`prediction.Inputs`).
`resolve` (`configuration.resolution`) makes one from a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.cached import cached_property
from diskmodel.catalog import Drive, HostAdapterType, ProcessorOption, RaidFormat, StorageSystem
from diskmodel.components import cache, raid
from diskmodel.configuration.copy_services import CopyServicesConfig
from diskmodel.configuration.zos import FiconConfig, ZosConfig
from diskmodel.logwrite import LogPath
from diskmodel.prediction import Inputs
from diskmodel.scenario import ServiceLevel
from diskmodel.tiering.records import Preference
from diskmodel.tiering.skew import SkewCurve
from diskmodel.vocabulary import CHANNEL_KIND, COMPONENT_KINDS, easy_tier_follows_load
from diskmodel.workload import IoMix


@dataclass(frozen=True)
class Rank:
    """One RAID rank as installed: its drive (figures for this system's packaging), RAID
    format, DA pair, owning server, and whether it was added empty to a pool holding data."""

    index: int  # position among all ranks of the system, in file order
    pool: str
    drive: Drive
    raid: RaidFormat
    da_pair: int
    server: int
    added: bool

    # Worked out once per rank (a frozen record: the instance's dict takes it): a rank is
    # shared by the configurations of a search (`shared.SharedParts`), and read at each
    # resolution and placement.
    @cached_property
    def tier(self) -> str:
        return self.drive.tier

    @cached_property
    def capacity_gb(self) -> float:
        """Usable capacity: data drives x drive capacity."""
        return self.raid.data_drives * self.drive.capacity_gb

    @cached_property
    def active_drives(self) -> int:
        return raid.active_drives(self.raid)

    @cached_property
    def label(self) -> str:
        """How the model and the report name the rank (its station's name)."""
        kind = f"{self.drive.name} {self.raid.name}"
        return f"rank {self.index} ({self.pool}, {kind}, DA {self.da_pair})"


@dataclass(frozen=True)
class PoolConfig:
    """An extent pool: Easy Tier and its tiers (fastest first) with their usable capacity."""

    name: str
    easy_tier: bool
    utilization_target: float
    tiers: tuple[str, ...]
    tier_capacity_gb: tuple[float, ...]
    host_tiering: bool = False  # the host places its data by its own read counts
    easy_tier_generation: int = 2  # 1: by I/O density only; 2: load limits and auto-rebalance

    def capacity_gb(self, tier: str) -> float:
        return self.tier_capacity_gb[self.tiers.index(tier)]

    @property
    def placement_follows_load(self) -> bool:
        """Easy Tier (second generation) over two or more tiers: the tiers' load limits make
        where data lands depend on the load (`vocabulary.easy_tier_follows_load`)."""
        return easy_tier_follows_load(self.easy_tier, self.easy_tier_generation, len(self.tiers))

    @property
    def rebalanced(self) -> bool:
        """Easy Tier's auto-rebalance spreads each tier's load over its ranks (generation 2)."""
        return self.easy_tier and self.easy_tier_generation >= 2


@dataclass(frozen=True)
class WorkloadConfig:
    """A workload with every default filled in.

    Open: `iops` is the planned host rate. Closed: `population` host I/Os in flight
    (`population_kind` "queue_depth") or users with `think_time_s` ("users"); the rate follows.
    """

    name: str
    pool: str
    iops: float | None
    population: int | None
    population_kind: str | None
    think_time_s: float
    mix: IoMix
    read_hit_ratio: float
    read_hit_ratio_basis: str
    capacity_gb: float
    skew: SkewCurve
    mb_skew: SkewCurve | None
    skew_description: str
    pin_tier: str | None
    iops_range: tuple[float, float] | None
    ios_per_transaction: float | None = None  # driven by the application (population: users)
    preference: Preference | None = None  # part of the workload pinned to a tier
    zos: ZosConfig | None = None  # a z/OS workload's volumes and LCUs (over FICON)

    @property
    def is_closed(self) -> bool:
        return self.population is not None


@dataclass(frozen=True)
class ApplicationConfig:
    """The application above the storage: `users` who think `think_time_s`, then run a
    transaction of `cpu_s` host CPU time (on `cpus` CPUs) and `ios_per_transaction` host I/Os
    over its workloads, `parallel_ios` of them in flight at once."""

    name: str
    users: int
    think_time_s: float
    cpu_s: float
    cpus: int
    parallel_ios: int
    ios_per_transaction: float


@dataclass(frozen=True)
class LogConfig:
    """A database log: its commits, how it is striped, and its write path (`LogPath` from the
    system's front end). Its writes are also the model workload of the same name."""

    name: str
    pool: str
    commit_rate: float
    page_shares: tuple[tuple[int, float], ...]  # (pages, share of log writes)
    page_kib: float
    stripes: int
    links: int | None
    large_write_pages: int
    ios_per_commit: float
    path: LogPath
    path_basis: str


@dataclass(frozen=True)
class Hardware:
    """The storage system as configured: catalog entries chosen, counts given."""

    system: StorageSystem
    host_adapter: HostAdapterType
    processor: ProcessorOption
    host_ports: int
    da_pairs: int
    cache_gb: float
    ordered_destage: bool = True  # IWC (address-ordered sweeps), else least-recently-written
    ficon: FiconConfig | None = None  # the z/OS attachment, when a workload is z/OS

    @property
    def nvs_bytes(self) -> float:
        return cache.nvs_bytes(self.system, self.cache_gb)


@dataclass(frozen=True)
class ServiceLevelConfig:
    """What the planner sizes to: response-time targets (ms) and utilisation ceilings."""

    response_time_ms: float
    read_response_time_ms: float | None
    utilization: dict[str, float]  # per component kind

    @classmethod
    def of(cls, level: ServiceLevel, channels: bool = False) -> ServiceLevelConfig:
        """A scenario's service level, its utilisation ceilings by component kind (with the
        FICON channels' after them where the configuration has channels)."""
        kinds = (*COMPONENT_KINDS, CHANNEL_KIND.key) if channels else COMPONENT_KINDS
        return cls(
            response_time_ms=level.response_time_ms,
            read_response_time_ms=level.read_response_time_ms,
            utilization={kind: float(getattr(level.utilization, kind)) for kind in kinds},
        )


@dataclass(frozen=True)
class Configuration:
    """One configuration, fully resolved (module docstring). `inputs` is the same content as
    the report shows it: the model copies it into the Prediction unchanged."""

    name: str
    hardware: Hardware
    ranks: tuple[Rank, ...]
    pools: tuple[PoolConfig, ...]
    workloads: tuple[WorkloadConfig, ...]
    service_level: ServiceLevelConfig
    curve_points: int
    inputs: Inputs
    logs: tuple[LogConfig, ...] = ()
    application: ApplicationConfig | None = None
    copy_services: CopyServicesConfig | None = None  # the secondary, links, mirrors, copies

    @property
    def has_closed(self) -> bool:
        return any(w.is_closed for w in self.workloads)

    def pool(self, name: str) -> PoolConfig:
        return next(p for p in self.pools if p.name == name)
