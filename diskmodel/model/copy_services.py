"""Copy services in the model: the replication links as stations (`link_times`, each link an
M/G/1 station taking an even share of the replicated writes, as the host ports take the host
I/O), what Metro Mirror adds to a replicated write (`metro_added_s`), and a replicated
workload's `Replication` at a solved load (`replication_of`), with the write response at each
distance of the sweep.

The stations' loads do not depend on the distance, so the write response at distance d is the
one solved at the links' distance moved by the difference in flight,
round_trips x 2 x (d - distance_km) x fibre_us_per_km: exactly what a solve at d gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.components.replication import (
    coordination_added_s,
    link_service_s,
    propagation_s,
)
from diskmodel.configuration import WorkloadConfig
from diskmodel.configuration.copy_services import CopyServicesConfig, LinksConfig
from diskmodel.prediction.copy_services import DistancePoint, Replication
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
    if lam <= 0:
        return LinkLoad(0.0, float(service.mean()) if service.size else 0.0, 0.0, 0.0, False)
    s = float(rates @ service) / lam
    s2 = float(rates @ service**2) / lam
    one = mg1(lam / links.count, s, s2)
    saturated = bool(one.saturated)
    wait = math.inf if saturated else float(one.wait_time)
    return LinkLoad(float(one.utilization), s, wait, float(rates @ sizes) / MB, saturated)


def metro_added_s(
    cs: CopyServicesConfig, link_response_s: float, secondary_write_s: float, distance_km: float
) -> float:
    """What Metro Mirror adds to one replicated write at `distance_km` (inf where the links
    or the secondary saturate): in flight + at the links + at the secondary."""
    return (
        propagation_s(distance_km, cs.round_trips, cs.fibre_us_per_km)
        + link_response_s
        + secondary_write_s
    )


def _ms(seconds: float) -> float | None:
    return seconds / MS if math.isfinite(seconds) else None


def replication_of(
    cs: CopyServicesConfig,
    w: int,
    *,
    write_response_s: float,
    link_response_s: float,
    secondary_write_s: float,
) -> Replication | None:
    """Workload `w`'s `Replication` at a solved load: its write response there (Metro Mirror
    included), the links' response and the secondary's write response; None when it is not
    replicated."""
    mirror = cs.mirrored.get(w)
    if mirror is None or cs.links is None:
        return None
    if mirror == "global":
        gm = cs.global_mirror
        assert gm is not None
        hold = coordination_added_s(gm.coordination_s, gm.group_interval_s + gm.formation_s)
        return Replication("global", 0.0, 0.0, 0.0, hold / MS)
    distance = cs.links.distance_km
    added = metro_added_s(cs, link_response_s, secondary_write_s, distance)
    sweep = tuple(
        DistancePoint(
            d,
            _ms(write_response_s + propagation_s(d - distance, cs.round_trips, cs.fibre_us_per_km)),
        )
        for d in cs.distances_km
    )
    return Replication(
        "metro",
        propagation_s(distance, cs.round_trips, cs.fibre_us_per_km) / MS,
        _ms(link_response_s),
        _ms(secondary_write_s),
        _ms(added),
        sweep,
    )


def assumptions(cs: CopyServicesConfig) -> tuple[str, ...]:
    """What the copy services in `cs` assume, in the words of the report's assumptions (the
    limits of docs/copy-services.md that bear on this scenario's answer)."""
    out = []
    if cs.metro:
        trips = "round trip" if cs.round_trips == 1 else "round trips"
        out.append(
            f"Metro Mirror: a replicated write waits {cs.round_trips:g} {trips} in the fibre "
            f"({cs.fibre_us_per_km:g} µs per km each way), the replication links as queues and "
            "the secondary's write response, solved at the planned write rates and held over "
            "the curve and growth; reads never wait for the secondary. No processor cost of "
            "replication is counted on the primary."
        )
    if cs.global_mirror is not None:
        out.append(
            "Global Mirror: the links must carry each interval's host write MB/s (an upper "
            "bound: a track rewritten within a cycle is sent once); the transfer does not load "
            "the primary's ports; forming a consistency group holds writes for the "
            "coordination time once a cycle."
        )
    if cs.flashcopies:
        out.append(
            "FlashCopy: a source track's first destage after the copy adds a track read on its "
            "rank and a track write on the target's, in the same pool, as destage work; a "
            "background COPY reads and writes the whole source evenly over its hours."
        )
    return tuple(out)
