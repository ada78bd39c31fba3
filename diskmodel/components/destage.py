"""Ordered destage: the service of one destage operation when the write cache sweeps the
dirty data of a drive in address order (IWC, a productised WOW: CLOCK for what to destage,
CSCAN for the order; Gill & Modha, "WOW: Wise Ordering for Writes", USENIX FAST 2005,
DOMAIN.md C12).

The sort set. NVS holds k destages pending for each drive of a rank (`cache.
pending_destages_per_drive`: the rank's share of its server's NVS, at most the per-rank NVS
limit, over the drives a destage touches), spread uniformly over the drive's data span f.
Destaged in address order, the next destage is the nearest pending one ahead of the sweep:
with the sweep point and the k pending as k + 1 uniform points of the span, a spacing of them,
f G with G ~ Beta(1, k + 1) (density (k + 1)(1 - u)^k, mean f / (k + 2)). For k = 1 this is the
triangular law of a random seek: one pending destage cannot be ordered. The rotational latency
stays uniform (CSCAN orders by address, not by angle). Every operation of a RAID-5/6 destage
(read data and parity, write both; 2 + 2 or 3 + 3, `raid.random_destage_ops`) is one stop of
the sweep on its drive; the write of a read-modify-write pair is scheduled as another stop (no
extra revolution and no saved seek is credited).

The sweep is broken by other work. The short seek is only had when the head comes from the
previous stop of the sweep. A drive also serves host reads (read misses, prefetches) at
random places between destages: after one of them the head must go back to the sweep, a seek
from a random place to the sweep point, which is a random seek (the distance between two
uniform points). With `sweep_share` q the probability that the previous operation on the drive
was a stop of the sweep (the destages' share of the drive's operations, operations in random
order), the seek is the ordered one with probability q and a random one with 1 - q: a write-only
workload (q = 1) gets the whole ordering gain, a 70/30 mix (q = 0.63 on RAID-5) much less.

Command queueing over the destage queue: with q destages at the drive (the q next ones of
the sweep, in a band of width min(f, q f / k)), the drive serves them SPTF; the positioning is
scaled by the SPTF ratio P(q) / P(1) of that band (`components.sptf`).

service = controller overhead + transfer + (E[seek] + T/2) x P(q)/P(1)

Limits: k = 1 or sweep_share = 0 give `drive.random_op` exactly; k -> infinity with
sweep_share = 1 gives overhead + track-to-track + T/2 + transfer (the sweep moves one track at
a time). Gill & Modha's measured gains (+38% small NVS ... +147% large NVS, C12) are validated
through the product on a write-only workload (scenarios/validation/c12-ordered-destage.yaml).
"""

from __future__ import annotations

import functools

import numpy as np

from diskmodel.catalog import Drive
from diskmodel.components import sptf
from diskmodel.components.drive import (
    MS,
    ServiceMoments,
    random_op,
    rotational_latency,
    seek_curve,
    transfer_s,
)
from diskmodel.components.seek import fraction

_NODES = 4000
"""Quadrature nodes over the spacing law (midpoint rule on its CDF): error well under 0.1%."""


@functools.cache
def _spacing_law(pending: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes u and weights of G ~ Beta(1, pending + 1), by equal-probability midpoints."""
    v = (np.arange(_NODES) + 0.5) / _NODES
    u = 1.0 - (1.0 - v) ** (1.0 / (pending + 1))
    return u, np.full(_NODES, 1.0 / _NODES)


def ordered_seek_moments_ms(
    drive: Drive,
    occupied_fraction: float,
    pending_per_drive: float,
    write: bool,
    sweep_share: float = 1.0,
) -> tuple[float, float]:
    """(E[seek], E[seek^2]) in ms of a destage in an address-ordered sweep that other work
    breaks (module docstring): the ordered seek with probability `sweep_share`, else a random
    one (from where the other work left the head back to the sweep)."""
    if not 0.0 <= sweep_share <= 1.0:
        raise ValueError("sweep_share must be in [0, 1]")
    f = fraction(occupied_fraction)
    k = max(1, round(pending_per_drive))
    u, w = _spacing_law(k)
    curve = seek_curve(drive, write)
    ordered_mean, ordered_second = curve.moments_ms(f * u, w)
    if sweep_share == 1.0:
        return ordered_mean, ordered_second
    random_mean, random_second = curve.random_moments_ms(f)
    q = sweep_share
    return q * ordered_mean + (1 - q) * random_mean, q * ordered_second + (1 - q) * random_second


def ordered_destage_op(
    drive: Drive,
    size_bytes: float,
    occupied_fraction: float,
    pending_per_drive: float,
    write: bool,
    queue_depth: int = 1,
    sweep_share: float = 1.0,
) -> ServiceMoments:
    """Service moments of one destage operation (a RAID read or write of a destage) on one
    drive when `pending_per_drive` destages are waiting in NVS for that drive, the drive holds
    `queue_depth` of them and the previous operation was a stop of the sweep with probability
    `sweep_share` (module docstring). SSD: no positioning to order, the plain random
    operation."""
    if pending_per_drive < 1 or queue_depth < 1:
        raise ValueError("pending_per_drive and queue_depth must be >= 1")
    if drive.kind == "ssd":
        return random_op(drive, size_bytes, occupied_fraction, write)
    f = fraction(occupied_fraction)
    seek_mean, seek_second = ordered_seek_moments_ms(
        drive, f, pending_per_drive, write, sweep_share
    )
    positioning = ServiceMoments(seek_mean * MS, seek_second * MS * MS).plus(
        rotational_latency(drive)
    )
    fixed_s = drive.controller_overhead_ms * MS + transfer_s(drive, size_bytes)
    if queue_depth > 1:
        q = min(queue_depth, drive.command_queue_depth, sptf.MAX_TABULATED_DEPTH)
        band = min(f, q * f / max(pending_per_drive, 1.0))
        ratio = sptf.relative_positioning(
            seek_curve(drive, write),
            drive.rotation_ms,
            fixed_s / MS / drive.rotation_ms,
            round(band, 4),
            q,
        )[-1]
        # The SPTF choice shortens the mean; the spread is scaled alike (an approximation).
        positioning = ServiceMoments(
            positioning.mean_s * ratio, positioning.second_moment_s2 * ratio * ratio
        )
    return positioning.plus(ServiceMoments.deterministic(fixed_s))
