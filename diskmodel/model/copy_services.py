"""The copy services at a load, from the resolved `CopyServicesConfig`: the links as
stations (`link_times`: each link an M/G/1 station taking an even share of the replicated
writes, as the host ports take the host I/O), what Metro Mirror adds to each replicated write
(`metro_added_s`), the distance sweep, Global Mirror over its intervals and FlashCopy's
back-end work (`copy_services_result`, the Prediction's `copy_services`).

The secondary is solved apart, as a storage system of its own under the replicated writes
(the caller gives its write response per workload); its write response is what a replicated
write waits for there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.components.replication import (
    coordination_added_s,
    global_mirror_intervals,
    link_service_s,
    propagation_s,
)
from diskmodel.configuration import WorkloadConfig
from diskmodel.configuration.copy_services import CopyServicesConfig, LinksConfig
from diskmodel.prediction.copy_services import (
    CopyServicesResult,
    DistancePoint,
    FlashCopyResult,
    GlobalMirrorResult,
    LinksResult,
    MirroredWrites,
)
from diskmodel.queueing.station import mg1
from diskmodel.units import MB, MS


def replicated_writes(w: WorkloadConfig, rate: float) -> float:
    """Host writes per second of a workload at host `rate`."""
    f = w.mix.fractions
    return rate * (f["random_write"] + f["sequential_write"])


@dataclass(frozen=True)
class LinkLoad:
    """The links at one load: each link's busy fraction, one write's mean service and wait
    there (seconds; wait inf when saturated), and the MB/s they carry."""

    utilization: float
    service_s: float
    wait_s: float
    mb_s: float
    saturated: bool

    @property
    def response_s(self) -> float:
        return self.service_s + self.wait_s


def link_times(links: LinksConfig, writes: Sequence[tuple[float, float]]) -> LinkLoad:
    """The links under `writes` (rate per second, bytes per write): `links.count` M/G/1
    stations, each taking 1/count of every write stream; service per write = the port's
    protocol work + the bytes at the payload rate, its second moment from the mix of sizes
    (Pollaczek-Khinchine)."""
    rates = np.array([r for r, _ in writes], dtype=np.float64)
    sizes = np.array([b for _, b in writes], dtype=np.float64)
    service = np.array([link_service_s(b, links.per_op_us, links.payload_mb_s) for b in sizes])
    lam = float(rates.sum())
    mb_s = float(rates @ sizes) / MB if lam > 0 else 0.0
    if lam <= 0:
        return LinkLoad(0.0, float(service.mean()) if service.size else 0.0, 0.0, 0.0, False)
    s = float(rates @ service) / lam
    s2 = float(rates @ service**2) / lam
    one = mg1(lam / links.count, s, s2)
    saturated = bool(one.saturated)
    wait = math.inf if saturated else float(one.wait_time)
    return LinkLoad(float(one.utilization), s, wait, mb_s, saturated)


def metro_writes(
    workloads: Sequence[WorkloadConfig], rates: Sequence[float], indices: Sequence[int]
) -> list[tuple[float, float]]:
    """(writes per second, bytes per write) of each workload in `indices` at `rates`."""
    return [
        (replicated_writes(workloads[i], rates[i]), workloads[i].mix.write_bytes) for i in indices
    ]


def metro_added_s(
    cs: CopyServicesConfig, link: LinkLoad, secondary_write_s: float, distance_km: float
) -> float:
    """What Metro Mirror adds to one replicated write at `distance_km` (inf where the links
    or the secondary saturate): in flight + at the links + at the secondary."""
    return (
        propagation_s(distance_km, cs.round_trips, cs.fibre_us_per_km)
        + link.response_s
        + secondary_write_s
    )


def _ms(seconds: float) -> float | None:
    return seconds / MS if math.isfinite(seconds) else None


def _metro(
    cs: CopyServicesConfig,
    workloads: Sequence[WorkloadConfig],
    rates: Sequence[float],
    link: LinkLoad,
    secondary_write_s: Mapping[int, float],
    write_response_s: Mapping[int, float],
) -> tuple[tuple[MirroredWrites, ...], tuple[DistancePoint, ...]]:
    assert cs.links is not None
    out = []
    for i in cs.metro:
        sec = secondary_write_s.get(i, math.inf)
        added = metro_added_s(cs, link, sec, cs.links.distance_km)
        out.append(
            MirroredWrites(
                workloads[i].name,
                replicated_writes(workloads[i], rates[i]),
                propagation_s(cs.links.distance_km, cs.round_trips, cs.fibre_us_per_km) / MS,
                _ms(link.response_s),
                _ms(sec),
                _ms(added),
            )
        )
    weights = np.array([m.writes_iops for m in out])
    total = float(weights.sum())
    sweep = []
    for d in cs.distances_km:
        added_at = [
            metro_added_s(cs, link, secondary_write_s.get(i, math.inf), d) for i in cs.metro
        ]
        # The write response at d: the one solved (at the links' distance) moved by the
        # difference in flight; the stations' loads do not depend on the distance.
        shift = propagation_s(d - cs.links.distance_km, cs.round_trips, cs.fibre_us_per_km)
        responses = [write_response_s.get(i, math.inf) + shift for i in cs.metro]
        if total <= 0 or not all(math.isfinite(a) for a in added_at + responses):
            sweep.append(DistancePoint(d, None, None))
            continue
        sweep.append(
            DistancePoint(
                d,
                float(weights @ np.array(added_at)) / total / MS,
                float(weights @ np.array(responses)) / total / MS,
            )
        )
    return tuple(out), tuple(sweep)


def _global(
    cs: CopyServicesConfig, workloads: Sequence[WorkloadConfig], scale: float
) -> tuple[GlobalMirrorResult | None, list[str]]:
    gm = cs.global_mirror
    if gm is None or cs.links is None:
        return None, []
    capacity = cs.links.count * cs.links.payload_mb_s
    demand = [mb * scale for _, mb in gm.intervals]
    run = global_mirror_intervals(
        demand,
        interval_s=gm.interval_s,
        capacity_mb_s=capacity,
        group_interval_s=gm.group_interval_s,
        formation_s=gm.formation_s,
    )
    labels = tuple(label for label, _ in gm.intervals)
    cycle = gm.group_interval_s + gm.formation_s
    needed = math.ceil(run.demand_mb_s[run.peak] / cs.links.payload_mb_s) if demand else 0
    result = GlobalMirrorResult(
        workloads=tuple(workloads[i].name for i in gm.workloads),
        source=gm.source,
        interval_s=gm.interval_s,
        capacity_mb_s=capacity,
        labels=labels,
        demand_mb_s=run.demand_mb_s,
        offered_utilization=run.offered_utilization,
        busy=run.busy,
        backlog_mb=run.backlog_mb,
        rpo_s=run.rpo_s,
        peak_label=labels[run.peak] if labels else "",
        peak_mb_s=run.demand_mb_s[run.peak] if demand else 0.0,
        peak_utilization=run.offered_utilization[run.peak] if demand else 0.0,
        max_backlog_mb=max(run.backlog_mb, default=0.0),
        drain_s=run.drain_s if math.isfinite(run.drain_s) else None,
        max_rpo_s=max(run.rpo_s, default=cycle),
        coordination_added_ms=coordination_added_s(gm.coordination_s, cycle) / MS,
        links_needed=max(needed, 1),
    )
    warnings = []
    if run.too_slow:
        over = sum(u > 1.0 for u in run.offered_utilization)
        drain = (
            "never clears within the intervals given"
            if result.drain_s is None
            else f"takes up to {result.drain_s / 60:,.0f} min to drain"
        )
        warnings.append(
            f"Global Mirror: the links are too slow for the peak: at {result.peak_label} the "
            f"writes need {result.peak_mb_s:,.0f} MB/s and {cs.links.count} links carry "
            f"{capacity:,.0f} MB/s ({result.peak_utilization:.0%}); in {over} of "
            f"{len(demand)} intervals the writes fall behind, the backlog reaches "
            f"{result.max_backlog_mb:,.0f} MB and {drain}, and the recovery point reaches "
            f"{result.max_rpo_s:,.0f} s; {result.links_needed} links carry the peak"
        )
    if gm.rpo_target_s is not None and result.max_rpo_s > gm.rpo_target_s:
        warnings.append(
            f"Global Mirror: the recovery point reaches {result.max_rpo_s:,.0f} s, beyond the "
            f"target of {gm.rpo_target_s:g} s"
        )
    return result, warnings


def _flashcopy(
    cs: CopyServicesConfig, workloads: Sequence[WorkloadConfig], rates: Sequence[float]
) -> tuple[FlashCopyResult, ...]:
    out = []
    for fc in cs.flashcopies:
        writes = replicated_writes(workloads[fc.workload], rates[fc.workload])
        out.append(
            FlashCopyResult(
                fc.name,
                fc.mode,
                fc.window_s / 3600.0,
                fc.first_write_fraction,
                fc.first_write_basis,
                writes * fc.work.source_reads_per_write,
                writes * fc.work.target_writes_per_write,
                fc.work.background_bytes_per_s / MB,
            )
        )
    return tuple(out)


def copy_services_result(
    cs: CopyServicesConfig,
    workloads: Sequence[WorkloadConfig],
    rates: Sequence[float],
    *,
    secondary_write_s: Mapping[int, float],
    write_response_s: Mapping[int, float],
    secondary_utilization: float | None = None,
    secondary_bottleneck: str | None = None,
    planned_rates: Sequence[float] | None = None,
) -> CopyServicesResult:
    """The copy services at host `rates` (module docstring). secondary_write_s: the
    secondary's write response per primary workload index; write_response_s: each Metro
    Mirror workload's write response as solved (Metro Mirror included), for the sweep.
    Global Mirror's planned interval scales with the load (`planned_rates`); measured
    intervals are what they were."""
    link_load = None
    links = None
    warnings: list[str] = []
    if cs.links is not None:
        streams = metro_writes(workloads, rates, cs.metro)
        if cs.global_mirror is not None:
            streams += metro_writes(workloads, rates, cs.global_mirror.workloads)
        link_load = link_times(cs.links, streams)
        links = LinksResult(
            cs.links.count,
            cs.links.speed_gbps,
            cs.links.payload_mb_s,
            cs.links.payload_basis,
            cs.links.distance_km,
            link_load.mb_s,
            link_load.utilization,
            link_load.saturated,
        )
        if link_load.saturated and cs.metro:
            warnings.append(
                f"Metro Mirror: the {cs.links.count} links saturate at "
                f"{link_load.mb_s:,.0f} MB/s of replicated writes; replicated writes have no "
                "steady state"
            )
    metro: tuple[MirroredWrites, ...] = ()
    sweep: tuple[DistancePoint, ...] = ()
    if cs.metro and link_load is not None:
        metro, sweep = _metro(cs, workloads, rates, link_load, secondary_write_s, write_response_s)
    scale = 1.0
    gm = cs.global_mirror
    if gm is not None and planned_rates is not None and gm.source == "planned load":
        planned = sum(planned_rates[i] for i in gm.workloads)
        scale = sum(rates[i] for i in gm.workloads) / planned if planned > 0 else 1.0
    global_result, gm_warnings = _global(cs, workloads, scale)
    return CopyServicesResult(
        links=links,
        metro_mirror=metro,
        distance_sweep=sweep,
        secondary_utilization=secondary_utilization,
        secondary_bottleneck=secondary_bottleneck,
        global_mirror=global_result,
        flashcopy=_flashcopy(cs, workloads, rates),
        warnings=tuple(warnings + gm_warnings),
    )
