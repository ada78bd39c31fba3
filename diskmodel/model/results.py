"""An operating point as the Prediction reports it: per component, per workload and I/O class,
per rank and per tier (milliseconds; None where there is no steady state)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from diskmodel.configuration.zos import ZosConfig
from diskmodel.model.copy_links import group_hold_s
from diskmodel.model.copy_services import replication_of
from diskmodel.model.operating import OperatingPoint
from diskmodel.prediction import (
    AllocationShare,
    ComponentResult,
    IoTypeResult,
    RankResult,
    RmfResult,
    TierPoint,
    TierResult,
    WorkloadResult,
)
from diskmodel.prediction.copy_services import Replication
from diskmodel.units import MS
from diskmodel.vocabulary import CHANNEL_KIND, COMPONENT_KINDS, STATION_KIND_KEYS
from diskmodel.workload import IoClass

FloatArray = NDArray[np.float64]


def _ms(seconds: float) -> float | None:
    return float(seconds) / MS if np.isfinite(seconds) else None


def components(point: OperatingPoint) -> tuple[ComponentResult, ...]:
    """Every station: utilisation, and per visit the wait and the service at this load (busy
    time per operation, so utilisation = arrivals x service / servers)."""
    net = point.network
    out = []
    for k, st in enumerate(net.stations):
        saturated = bool(point.station_saturated[k])
        service = float(point.service_s[k])
        wait = float(point.wait_s[k])
        out.append(
            ComponentResult(
                name=st.name,
                kind=st.kind,
                utilization=float(min(point.utilization[k], 1.0)),
                response_time_ms=None if saturated else (wait + service) / MS,
                service_time_ms=service / MS,
                wait_time_ms=None if saturated else wait / MS,
                saturated=saturated,
            )
        )
    return tuple(out)


def workloads(point: OperatingPoint) -> tuple[WorkloadResult, ...]:
    """Per workload and I/O class: response time and its breakdown by component kind; for a
    z/OS workload also by RMF's components (`_rmf`)."""
    net = point.network
    times = net.times
    kinds = len(STATION_KIND_KEYS)
    kind_wait = np.zeros((len(times.keys), kinds))
    kind_service = np.zeros((len(times.keys), kinds))
    for k in range(len(net.stations)):
        i = times.kind_of_station[k]
        kind_wait[:, i] += times.service_s[:, k] * point.wait_ratio[k]
        kind_service[:, i] += times.service_s[:, k] * point.speed_factor[k]
    by_kind = kind_wait + kind_service
    by_kind[:, STATION_KIND_KEYS.index("host_adapter")] += times.delay_s  # the front end's fixed
    out = []
    for w, workload in enumerate(net.workloads):
        io_types = []
        shown = (*COMPONENT_KINDS, CHANNEL_KIND.key) if workload.zos else COMPONENT_KINDS
        rmf_parts: list[tuple[float, dict[str, float | None]]] = []
        for g, io_class, fraction, response in _classes(point, w):
            unknown = response is None
            io_types.append(
                IoTypeResult(
                    io_type=io_class,
                    fraction=fraction,
                    response_time_ms=response,
                    breakdown_ms={
                        kind: None
                        if unknown
                        else float(by_kind[g, STATION_KIND_KEYS.index(kind)]) / MS
                        for kind in shown
                    },
                )
            )
            if workload.zos is not None:
                rmf_parts.append((fraction, _rmf_parts(point, g, kind_wait, kind_service)))
        result = _workload(
            workload.name,
            workload.pool,
            float(point.rates[w]),
            io_types,
            workload.read_hit_ratio,
            _allocation(point, workload.name, workload.pool),
            shown,
        )
        replicated = _replication(point, w, result.write_response_time_ms)
        if replicated is not None:
            result = replace(result, replication=replicated)
        if workload.zos is not None:
            result = replace(result, rmf=_rmf(point, workload.zos, rmf_parts))
        out.append(result)
    return tuple(out)


def _classes(point: OperatingPoint, w: int) -> list[tuple[int, IoClass, float, float | None]]:
    """Workload `w`'s host-visible classes at the point, in the network's order: (group, class,
    its fraction of the workload's I/O, its response time in ms or None where unknown)."""
    times = point.network.times
    fractions = point.network.workloads[w].mix.fractions
    return [
        (
            g,
            io_class,
            fractions[io_class],
            float(point.class_response_s[g]) / MS
            if np.isfinite(point.class_response_s[g])
            else None,
        )
        for g, (gw, io_class) in enumerate(times.keys)
        if gw == w
    ]


def response_times_ms(point: OperatingPoint, w: int) -> tuple[float | None, ...]:
    """Workload `w`'s mean response time, its reads' and its writes' (ms, None where there is
    no steady state): what `workloads` reports for it, without the breakdowns, allocation and
    replication it also works out (a calibration's evaluation reads only these)."""
    types = [(c, f, r) for _, c, f, r in _classes(point, w)]
    return (
        _mean([(f, r) for _, f, r in types]),
        _mean([(f, r) for c, f, r in types if "read" in c]),
        _mean([(f, r) for c, f, r in types if c.endswith("write")]),
    )


RMF_COMPONENTS = ("iosq", "pend", "disc", "conn")
"""RMF's components of a z/OS I/O's response time, in the order of its life."""


def _rmf_parts(
    point: OperatingPoint, g: int, kind_wait: FloatArray, kind_service: FloatArray
) -> dict[str, float | None]:
    """One host-visible class's RMF components, seconds, adding up to its response time.

    PEND: the waits for a channel and for the system's ports and cards (channel path and
    control-unit busy), and the part of the fixed front-end time before the first command is
    accepted (the channel generation's `pend_light_us`, never more than that fixed time).
    CONN: the channel's, ports', cards' and processors' own work and the processors' waits
    (the system answers while connected), and the rest of the fixed time (the transfer's
    protocol, the write's copy to NVS). DISC: the DA pairs' and ranks' time (a miss staged
    while the channel is free), and a replicated write's mirror (`_mirror_parts`). IOSQ: what
    the device queue adds, the class's response less the other three. A component with no
    steady state is None: IOSQ alone past its device queue's maximum, while the storage below
    still answers; all four where a station of the storage saturates or NVS is full (a
    write's wait for destages is not known)."""
    net = point.network
    ficon = net.config.hardware.ficon
    assert ficon is not None
    delay = float(net.times.delay_s[g])
    at = STATION_KIND_KEYS.index
    front = (at("channel"), at("host_adapter"))
    pend_fixed = min(ficon.pend_light_s, delay)
    pend = float(kind_wait[g, front].sum()) + pend_fixed
    conn = (
        float(kind_service[g, front].sum())
        + float(kind_wait[g, at("processor")] + kind_service[g, at("processor")])
        + delay
        - pend_fixed
    )
    back = (at("device_adapter"), at("rank"))
    disc = float(kind_wait[g, back].sum() + kind_service[g, back].sum())
    # A mirror's time is disconnect time: the channel is free while the write goes to the
    # secondary and back (Metro Mirror's links, flight and secondary write; Global Mirror's
    # consistency-group hold).
    mirror_wait, mirror_service, mirror_fixed = _mirror_parts(point, g)
    pend -= mirror_wait
    conn -= mirror_service + mirror_fixed
    disc += mirror_wait + mirror_service + mirror_fixed
    below = (pend, disc, conn)
    _, io_class = net.times.keys[g]
    writes_unknown = point.nvs_full and io_class.endswith("write")  # `_writes_unknown`
    if writes_unknown or not all(math.isfinite(v) for v in below):
        return dict.fromkeys(RMF_COMPONENTS)
    response = float(point.class_response_s[g])
    iosq = max(response - (pend + conn + disc), 0.0) if math.isfinite(response) else None
    return {"iosq": iosq, "pend": pend, "disc": disc, "conn": conn}


def _mirror_parts(point: OperatingPoint, g: int) -> tuple[float, float, float]:
    """Class `g`'s time for its mirror, seconds: waits and service at the replication links
    (counted with the host adapters'), and the fixed time beyond them (in the class's delay:
    flight, the secondary's write, the consistency groups' hold). Zero for reads and for a
    workload with no mirror."""
    net = point.network
    w, io_class = net.times.keys[g]
    if not io_class.endswith("write"):
        return 0.0, 0.0, 0.0
    fixed = group_hold_s(net.config, w)
    mirror = net.mirror
    if mirror is None or w not in mirror.secondary_write_s:
        return 0.0, 0.0, fixed
    links = list(mirror.links)
    service = net.times.service_s[g, links]
    wait = float(service @ point.wait_ratio[links])
    busy = float(service @ point.speed_factor[links])
    return wait, busy, fixed + mirror.delay_s(w)


def _rmf(
    point: OperatingPoint,
    zos: ZosConfig,
    parts: Sequence[tuple[float, dict[str, float | None]]],
) -> RmfResult:
    """A z/OS workload's RMF components, ms: its classes' by their shares (a component None
    where a class's has no steady state, `_rmf_parts`)."""
    ficon = point.network.config.hardware.ficon
    assert ficon is not None
    lcus = tuple(ficon.lcus[i] for i in zos.lcus)
    share = sum(f for f, _ in parts)

    def mean_ms(c: str) -> float | None:
        values = [(f, p[c]) for f, p in parts]
        if share <= 0 or any(v is None for _, v in values):
            return None
        return sum(f * v for f, v in values if v is not None) / share / MS

    mean = {c: mean_ms(c) for c in RMF_COMPONENTS}
    return RmfResult(
        iosq_ms=mean["iosq"],
        pend_ms=mean["pend"],
        disc_ms=mean["disc"],
        conn_ms=mean["conn"],
        volumes=zos.volumes,
        lcus=tuple(lcu.name for lcu in lcus),
        pav="/".join(sorted({lcu.pav for lcu in lcus})),
    )


def _replication(point: OperatingPoint, w: int, write_ms: float | None) -> Replication | None:
    """Workload `w`'s mirror at this point (None when it has none): its writes' time at the
    links as the response is formed (each visit's service at the link's speed plus its wait,
    `Network.times`), the secondary's write and the time in flight (`model.copy_services`)."""
    net = point.network
    cs = net.config.copy_services
    if cs is None or w not in cs.mirrored:
        return None
    link_s = 0.0
    secondary_s = 0.0
    mirror = net.mirror
    if mirror is not None and w in mirror.secondary_write_s:
        secondary_s = mirror.secondary_write_s[w]
        links = list(mirror.links)
        fractions = net.workloads[w].mix.fractions
        share = 0.0
        for g, (gw, io_class) in enumerate(net.times.keys):
            if gw != w or not io_class.endswith("write"):
                continue
            if point.station_saturated[links].any():
                link_s = math.inf
                break
            per = net.times.service_s[g, links] @ (point.speed_factor + point.wait_ratio)[links]
            link_s += fractions[io_class] * float(per)
            share += fractions[io_class]
        if share > 0 and math.isfinite(link_s):
            link_s /= share
    return replication_of(
        cs,
        w,
        write_response_s=math.inf if write_ms is None else write_ms * MS,
        link_response_s=link_s,
        secondary_write_s=secondary_s,
    )


def _allocation(point: OperatingPoint, name: str, pool: str) -> tuple[AllocationShare, ...]:
    """Where the workload's data lie: each tier of its pool, as placed for this load."""
    placed = point.network.layout.get(pool)
    if placed is None:
        return ()
    return tuple(
        AllocationShare(s.tier, s.capacity_used_gb, s.small_io_share, s.mb_share)
        for s in placed.placement.workload(name).tiers
    )


def _mean(types: Sequence[tuple[float, float | None]]) -> float | None:
    """The mean response time (ms) of some I/O classes, each (fraction of the I/O, its
    response time or None), weighted by their fractions; None where one is unknown."""
    share = sum(f for f, _ in types)
    if share <= 0 or any(r is None for _, r in types):
        return None
    return sum(f * (r or 0.0) for f, r in types) / share


def _workload(
    name: str,
    pool: str,
    rate: float,
    io_types: list[IoTypeResult],
    read_hit_ratio: float,
    allocation: tuple[AllocationShare, ...],
    kinds: Sequence[str] = COMPONENT_KINDS,
) -> WorkloadResult:
    breakdown: dict[str, float | None] = {}
    share = sum(t.fraction for t in io_types)
    for kind in kinds:
        parts = [t.breakdown_ms[kind] for t in io_types]
        if any(p is None for p in parts) or share <= 0:
            breakdown[kind] = None
        else:
            breakdown[kind] = (
                sum(t.fraction * (t.breakdown_ms[kind] or 0.0) for t in io_types) / share
            )
    return WorkloadResult(
        name=name,
        pool=pool,
        iops=rate,
        response_time_ms=_mean([(t.fraction, t.response_time_ms) for t in io_types]),
        read_response_time_ms=_mean(
            [(t.fraction, t.response_time_ms) for t in io_types if "read" in t.io_type]
        ),
        write_response_time_ms=_mean(
            [(t.fraction, t.response_time_ms) for t in io_types if t.io_type.endswith("write")]
        ),
        breakdown_ms=breakdown,
        io_types=tuple(io_types),
        read_hit_ratio=read_hit_ratio,
        allocation=allocation,
    )


def ranks(point: OperatingPoint) -> tuple[RankResult, ...]:
    net = point.network
    return tuple(
        RankResult(
            name=net.stations[info.station].name,
            pool=info.rank.pool,
            tier=info.rank.tier,
            drive=info.rank.drive.name,
            raid=info.rank.raid.name,
            da_pair=info.rank.da_pair,
            server=info.rank.server,
            backend_iops=float(point.arrival[info.station] * info.rank.active_drives),
            utilization=float(min(point.utilization[info.station], 1.0)),
        )
        for info in net.ranks
    )


def tiers(point: OperatingPoint) -> tuple[TierResult, ...]:
    """Per pool and tier: capacity, data placed, shares of the back-end work, load."""
    net = point.network
    config = net.config
    out = []
    for pool_name, pool_layout in net.layout.items():
        pool = config.pool(pool_name)
        for share in pool_layout.placement.tiers:
            stations, drives = net.tier_stations.get((pool_name, share.tier), _NO_RANKS)
            busy = np.minimum(point.utilization[stations], 1.0)
            out.append(
                TierResult(
                    pool=pool_name,
                    tier=share.tier,
                    ranks=len(stations),
                    capacity_gb=pool.capacity_gb(share.tier),
                    used_gb=share.capacity_used_gb,
                    # Placement sums pieces in floating point: keep the shares fractions.
                    small_io_share=min(max(share.small_io_share, 0.0), 1.0),
                    mb_share=min(max(share.mb_share, 0.0), 1.0),
                    backend_iops=sum((point.arrival[stations] * drives).tolist()),  # in order
                    utilization=float(busy.mean()) if len(stations) else 0.0,
                )
            )
    return tuple(out)


_NO_RANKS = (np.zeros(0, dtype=np.int64), np.zeros(0))


def tier_points(point: OperatingPoint) -> tuple[TierPoint, ...]:
    """Where each tier stands at this load (for the curve: placement follows the load)."""
    return tuple(
        TierPoint(t.pool, t.tier, t.small_io_share, t.used_gb, t.utilization) for t in tiers(point)
    )
