"""What the copy services do at the planned load, as the reports show it (milliseconds,
MB/s; None where there is no steady state)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MirroredWrites:
    """What Metro Mirror adds to one workload's replicated writes, and its parts: the light
    in the fibre, the links (wait + service), the secondary's own write at its load."""

    workload: str
    writes_iops: float
    propagation_ms: float
    link_ms: float | None
    secondary_write_ms: float | None
    added_ms: float | None


@dataclass(frozen=True)
class DistancePoint:
    """The Metro Mirror workloads' write response time (rate-weighted over their writes) and
    what Metro Mirror adds to it, with the sites `distance_km` apart."""

    distance_km: float
    added_ms: float | None
    write_response_ms: float | None


@dataclass(frozen=True)
class LinksResult:
    """The replication links at the planned load."""

    count: int
    speed_gbps: int
    payload_mb_s: float
    payload_basis: str
    distance_km: float
    write_mb_s: float
    utilization: float
    saturated: bool


@dataclass(frozen=True)
class GlobalMirrorResult:
    """Global Mirror over its intervals: each one's write MB/s to replicate, the links'
    offered utilisation (above 1: too slow) and busy fraction, the backlog at its end and the
    recovery point it implies; the peak, the longest drain (None: the backlog never clears in
    the intervals given) and the write time consistency groups add on the primary."""

    workloads: tuple[str, ...]
    source: str
    interval_s: float
    capacity_mb_s: float
    labels: tuple[str, ...]
    demand_mb_s: tuple[float, ...]
    offered_utilization: tuple[float, ...]
    busy: tuple[float, ...]
    backlog_mb: tuple[float, ...]
    rpo_s: tuple[float, ...]
    peak_label: str
    peak_mb_s: float
    peak_utilization: float
    max_backlog_mb: float
    drain_s: float | None
    max_rpo_s: float
    coordination_added_ms: float
    links_needed: int


@dataclass(frozen=True)
class FlashCopyResult:
    """One FlashCopy's extra back-end work at the planned load: track reads on the source's
    ranks and track writes on the target's per second, and the background copy's MB/s."""

    workload: str
    mode: str
    window_hours: float
    first_write_fraction: float
    first_write_basis: str
    source_reads_iops: float
    target_writes_iops: float
    background_mb_s: float


@dataclass(frozen=True)
class CopyServicesResult:
    """The copy services at the planned load (module docstring); `warnings` say where the
    links are too slow or the recovery point beyond its target."""

    links: LinksResult | None
    metro_mirror: tuple[MirroredWrites, ...]
    distance_sweep: tuple[DistancePoint, ...]
    secondary_utilization: float | None
    secondary_bottleneck: str | None
    global_mirror: GlobalMirrorResult | None
    flashcopy: tuple[FlashCopyResult, ...]
    warnings: tuple[str, ...]
