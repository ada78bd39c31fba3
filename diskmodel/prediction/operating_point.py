"""One configuration at one load: its stations, workloads (by I/O type and by tier), ranks,
tiers and the skew curves placement used."""

from __future__ import annotations

from dataclasses import dataclass

from diskmodel.prediction.copy_services import Replication


@dataclass(frozen=True, slots=True)
class ComponentResult:
    """One station at the planned load: a host port, a server, a DA pair or a rank's drives.

    utilization: busy fraction of one server of the station (a rank: of one of its drives).
    service_time_ms: busy time per operation at this load (a drive with command queueing
    serves faster as its queue grows), so utilization = arrival rate x service time / servers.
    response_time_ms: wait + service of one visit.
    """

    name: str
    kind: str  # host_adapter | processor | device_adapter | rank | channel (FICON, z/OS)
    utilization: float
    response_time_ms: float | None
    service_time_ms: float
    wait_time_ms: float | None
    saturated: bool


@dataclass(frozen=True, slots=True)
class IoTypeResult:
    """One I/O type of a workload: its share, response time and time per component kind."""

    io_type: str
    fraction: float
    response_time_ms: float | None
    breakdown_ms: dict[str, float | None]


@dataclass(frozen=True, slots=True)
class AllocationShare:
    """What one tier of its pool holds of a workload: data (GB) and shares of its back-end
    small I/O and MB."""

    tier: str
    capacity_gb: float
    small_io_share: float
    mb_share: float


@dataclass(frozen=True, slots=True)
class RmfResult:
    """A z/OS workload's response time as RMF reports it (ms; None past saturation), the four
    adding up to the response time: IOSQ, queued in z/OS for the device (its base and aliases
    busy); PEND, from the start of the I/O to the first command accepted (the channel's and the
    system's ports' waits and the light-load start and command response); DISC, disconnected
    while the system works without the channel (cache misses staged from the ranks); CONN,
    connected and transferring (the channel's, ports' and processors' work, the transfer and
    the rest of the fixed front-end time). volumes, lcus, pav: its devices."""

    iosq_ms: float | None
    pend_ms: float | None
    disc_ms: float | None
    conn_ms: float | None
    volumes: int
    lcus: tuple[str, ...]
    pav: str


@dataclass(frozen=True, slots=True)
class WorkloadResult:
    """One workload at the planned load (read_hit_ratio: the one the model used)."""

    name: str
    pool: str
    iops: float
    response_time_ms: float | None
    read_response_time_ms: float | None
    write_response_time_ms: float | None
    breakdown_ms: dict[str, float | None]
    io_types: tuple[IoTypeResult, ...]
    read_hit_ratio: float
    allocation: tuple[AllocationShare, ...] = ()
    rmf: RmfResult | None = None  # z/OS workloads only (not written for the others)
    replication: Replication | None = None  # a mirror's part of its writes; written only there

    @property
    def reads(self) -> bool:
        """Any reads (a read response time of None otherwise means saturated)."""
        return any(t.fraction > 0 and "read" in t.io_type for t in self.io_types)

    @property
    def writes(self) -> bool:
        """Any writes (a write response time of None otherwise means saturated)."""
        return any(t.fraction > 0 and "write" in t.io_type for t in self.io_types)


@dataclass(frozen=True, slots=True)
class RankResult:
    """Back-end load of one rank at the planned load."""

    name: str
    pool: str
    tier: str
    drive: str
    raid: str
    da_pair: int
    server: int
    backend_iops: float
    utilization: float


@dataclass(frozen=True, slots=True)
class TierResult:
    """One tier of one pool at a load: capacity, data placed there and its back-end load.

    small_io_share / mb_share: the tier's part of the pool's back-end small random I/O and of
    its MB/s (Easy Tier's placement for this load, capacity-proportional, or pinned);
    backend_iops: drive operations per second on its ranks; utilization: mean drive
    utilisation of its ranks.
    """

    pool: str
    tier: str
    ranks: int
    capacity_gb: float
    used_gb: float
    small_io_share: float
    mb_share: float
    backend_iops: float
    utilization: float


@dataclass(frozen=True, slots=True)
class SkewCurveResult:
    """A workload's skew curve as placement used it: (capacity fraction, I/O fraction) points,
    hottest first, from (0, 0) to (1, 1), for the small I/O and for the MB."""

    workload: str
    pool: str
    description: str
    small_io_points: tuple[tuple[float, float], ...]
    mb_points: tuple[tuple[float, float], ...]
