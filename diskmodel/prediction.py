"""What the storage model returns: plain frozen dataclasses, milliseconds and I/O per second.

A `Prediction` is one configuration's answer; a `ScenarioPrediction` holds the baseline and
each `compare` alternative, and the growth sweep. Reports read these and nothing else.
Times are milliseconds (`_ms`); a time is None where the load is at or past saturation
(there is no steady state), and the matching `saturated` flag is True.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ComponentResult:
    """One station at the planned load: a host port, a server, a DA pair or a rank's drives.

    utilization: busy fraction of one server of the station (a rank: of one of its drives).
    response_time_ms: wait + service of one visit; service_time_ms, wait_time_ms its parts.
    """

    name: str
    kind: str  # host_adapter | processor | device_adapter | rank
    utilization: float
    response_time_ms: float | None
    service_time_ms: float
    wait_time_ms: float | None
    saturated: bool


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Response time (mean over all host I/O) at one total I/O rate."""

    iops: float
    response_time_ms: float | None
    saturated: bool


@dataclass(frozen=True, slots=True)
class IoTypeResult:
    """One I/O type of a workload: its share, response time and time per component kind."""

    io_type: str
    fraction: float
    response_time_ms: float | None
    breakdown_ms: dict[str, float | None]


@dataclass(frozen=True, slots=True)
class WorkloadResult:
    """One workload at the planned load."""

    name: str
    pool: str
    iops: float
    response_time_ms: float | None
    read_response_time_ms: float | None
    write_response_time_ms: float | None
    breakdown_ms: dict[str, float | None]
    io_types: tuple[IoTypeResult, ...]
    read_hit_ratio: float


@dataclass(frozen=True, slots=True)
class RankLoad:
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
class TierLoad:
    """One tier of one pool: capacity, data placed there and its back-end load.

    small_io_share / mb_share: the tier's part of the pool's back-end small random I/O and of
    its MB/s (Easy Tier's placement, capacity-proportional, or pinned); utilization: mean
    drive utilisation of its ranks at the planned load.
    """

    pool: str
    tier: str
    ranks: int
    capacity_gb: float
    used_gb: float
    small_io_share: float
    backend_iops: float
    mb_share: float = 0.0
    utilization: float = 0.0


@dataclass(frozen=True, slots=True)
class ClosedPoint:
    """Closed system at one population (host queue depth, or users)."""

    population: int
    iops: float
    response_time_ms: float


@dataclass(frozen=True, slots=True)
class ClosedSystemResult:
    """Closed-system solution (exact MVA with load-dependent ranks and processors)."""

    population: int
    think_time_ms: float
    iops: float
    response_time_ms: float
    destage_limited: bool
    curve: tuple[ClosedPoint, ...]


@dataclass(frozen=True, slots=True)
class Prediction:
    """One configuration's predicted performance.

    max_iops: total host I/O rate at which the first station reaches utilisation 1;
    bottleneck: that station's name (bottleneck_kind its kind). destage_limited: the
    bottleneck carries destage work, so at max_iops NVS fills and writes wait.
    At the planned load (the workloads' `iops`, or the closed system's throughput):
    planned_iops, response_time_ms, components, workloads, ranks, tiers, nvs_full.
    """

    name: str
    system: str
    max_iops: float
    bottleneck: str
    bottleneck_kind: str
    destage_limited: bool
    planned_iops: float
    saturated: bool
    response_time_ms: float | None
    nvs_full: bool
    components: tuple[ComponentResult, ...]
    workloads: tuple[WorkloadResult, ...]
    ranks: tuple[RankLoad, ...]
    tiers: tuple[TierLoad, ...]
    curve: tuple[CurvePoint, ...]
    closed: ClosedSystemResult | None = None
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class GrowthPoint:
    """The baseline at its planned load times `factor`."""

    factor: float
    iops: float
    response_time_ms: float | None
    saturated: bool
    bottleneck_utilization: float


@dataclass(frozen=True, slots=True)
class TierSweepPoint:
    """The baseline with `added` more ranks of one drive type in one pool.

    error: why this point could not be solved (e.g. the ranks do not fit the DA pairs), else
    None and the figures below are meaningful.
    """

    added: int
    max_iops: float
    bottleneck: str
    response_time_ms: float | None
    saturated: bool
    error: str | None = None
    #: the swept drive's tier's share of the pool's small random back-end I/O at the planned
    #: load (0 when no rank of that tier is in the pool)
    tier_small_io_share: float = 0.0


@dataclass(frozen=True, slots=True)
class ScenarioPrediction:
    """A scenario's baseline, its `compare` alternatives (same order), its growth sweep and
    its tier sweep."""

    scenario: str
    baseline: Prediction
    alternatives: tuple[Prediction, ...] = ()
    growth: tuple[GrowthPoint, ...] = ()
    tier_sweep: tuple[TierSweepPoint, ...] = ()

    @property
    def configurations(self) -> tuple[Prediction, ...]:
        """Baseline first, then the alternatives."""
        return (self.baseline, *self.alternatives)
