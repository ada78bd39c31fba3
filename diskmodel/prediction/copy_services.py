"""Copy services in a Prediction (milliseconds, MB/s; None where there is no steady state).

`CopyServicesInputs` (under `Inputs.copy_services`) is what the configuration resolved and
what follows from it alone: the secondary system, the links, which workloads each mirror
covers, Global Mirror's link budget over its intervals, each FlashCopy's extra back-end work,
the sourced figures used and the warnings. `Replication` (under a workload's result) is what
the solved model gives a replicated workload at the planned load: Metro Mirror's added write
time, its parts and the write response time at each distance of the sweep.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LinksInput:
    """The replication links: count, speed, each one's payload rate and how it was had, the
    fibre route's length."""

    count: int
    speed_gbps: int
    payload_mb_s: float
    payload_basis: str
    distance_km: float


@dataclass(frozen=True)
class GlobalMirrorBudget:
    """Global Mirror over its intervals: each one's write MB/s to replicate, the links'
    offered utilisation (above 1: too slow) and busy fraction, the backlog at its end and the
    recovery point it implies; the peak, the longest drain (None: a backlog still there at
    the end), the write time consistency groups add on the primary and the links the peak
    needs."""

    workloads: tuple[str, ...]
    source: str
    interval_s: float
    group_interval_s: float
    formation_s: float
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
    intervals_behind: int
    max_backlog_mb: float
    drain_s: float | None
    max_rpo_s: float
    rpo_target_s: float | None
    coordination_added_ms: float
    links_needed: int


@dataclass(frozen=True)
class FlashCopyInput:
    """One FlashCopy: its source workload, mode, window, the share of destages that copy a
    track (and how it was had), the track reads on the source and track writes on the target
    per host write, and the background copy's MB/s (COPY)."""

    workload: str
    mode: str
    window_hours: float
    first_write_fraction: float
    first_write_basis: str
    source_reads_per_write: float
    target_writes_per_write: float
    background_mb_s: float


@dataclass(frozen=True)
class CopyServicesInputs:
    """The copy services as the configuration resolved them: the secondary system in one
    line, the links, the workloads under Metro Mirror and Global Mirror, the distances of
    the sweep, Global Mirror's link budget, each FlashCopy, and the warnings (links too slow
    for the peak, a recovery point beyond its target). The figures used are among the
    configuration's catalog figures (entry `copy services`)."""

    secondary: str | None
    links: LinksInput | None
    metro_mirror: tuple[str, ...]
    global_mirror_workloads: tuple[str, ...]
    distances_km: tuple[float, ...]
    global_mirror: GlobalMirrorBudget | None
    flashcopy: tuple[FlashCopyInput, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class DistancePoint:
    """A replicated workload's write response time with the sites `distance_km` apart."""

    distance_km: float
    write_response_ms: float | None


@dataclass(frozen=True)
class Replication:
    """What a mirror adds to a workload's writes at the planned load. Metro Mirror: the light
    in the fibre, the links (wait + service), the secondary's write at its load, their sum,
    and the write response at each distance of the sweep. Global Mirror: the consistency
    groups' hold (the other parts 0)."""

    mirror: str  # "metro" | "global"
    propagation_ms: float
    link_ms: float | None
    secondary_write_ms: float | None
    added_ms: float | None
    by_distance: tuple[DistancePoint, ...] = ()
