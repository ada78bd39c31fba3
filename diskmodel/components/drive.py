"""Drive service time: HDD positioning physics and SSD parallel service, with second moments,
and the command-queueing gain that makes a drive a load-dependent station.

HDD, one request at a time (queue length 1)
-------------------------------------------
S = controller overhead + seek(distance) + rotational latency + media transfer, with

- seek as a function of the distance x (fraction of a full stroke): Ruemmler and Wilkes'
  piecewise square-root / linear curve fitted exactly to the drive's published track-to-track,
  average and full-stroke figures, read and write separately (`components.seek`);
- short-stroking: data occupying the fraction f of the drive (allocated from one edge, as the
  DS8000 allocates extents on a rank in order) gives seek distances f |U1 - U2| with U1, U2
  uniform (exact moments in `SeekCurve.random_moments_ms`);
- rotational latency uniform over one revolution T: mean T/2, second moment T^2/3,
  independent of the seek;
- transfer of the request at the media rate; controller overhead fixed.

The mean and second moment of S are exact for this model (used by M/G/1).

Command queueing (load dependence): `command_queueing_gain`
-----------------------------------------------------------
alpha(n) is the rate multiplier of ONE drive holding n requests: its throughput is
alpha(n) / E[S(1)]. The model uses it as a load-dependent station, p(n) proportional to
prod lam S / alpha(i), in the open and the closed solution, for reads and destages alike.

- HDD: alpha(n) = E[S(1)] / (fixed + P(n)), P(n) the mean SPTF positioning time with n
  requests queued and the passed-over requests kept (`components.sptf`, a seeded simulation,
  tabulated), fixed = controller overhead + transfer. alpha(1) = 1. Beyond the drive's
  `command_queue_depth` no further gain. Maximum gain (n -> infinity) = alpha at
  `command_queue_depth`: about 1.21 for a 15K drive over its full stroke at the catalog's 2
  (bounded from C9, docs/model.md §2), 2.5 at 32, 2.95 at 64 (`max_command_queueing_gain`).
- SSD: alpha(n) = min(n, `ssd_parallelism`, S(1) / t_link): the flash units serve requests in
  parallel until they are all busy or the drive's interface (`media_transfer_mb_s`, the
  bandwidth of the whole drive) is full. Maximum gain = min(`ssd_parallelism`, S(1) / t_link).

SSD, one request
----------------
Fixed service time from the catalog for one small (4 KiB) random read or write, plus the
transfer of anything beyond 4 KiB at the drive's media rate; treated as deterministic.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import Drive, load_catalog
from diskmodel.components import sptf
from diskmodel.components.seek import SeekCurve, fraction
from diskmodel.units import MB, MS

SSD_RATED_BYTES = 4096
"""The request size the catalog's SSD service times are quoted for (4 KiB)."""
GAIN_READ_BYTES = 4096
"""The request a rank's command-queueing gain is timed for (`model.costs.drive_gain`): a 4 KiB
random read, one cache page staged."""


@dataclass(frozen=True, slots=True)
class ServiceMoments:
    """First and second moments of one operation's service time, seconds and seconds^2."""

    mean_s: float
    second_moment_s2: float

    def __post_init__(self) -> None:
        if not (self.mean_s >= 0 and self.second_moment_s2 >= self.mean_s**2 * (1 - 1e-9)):
            raise ValueError(f"invalid service moments {self}")

    @classmethod
    def deterministic(cls, mean_s: float) -> ServiceMoments:
        return cls(mean_s, mean_s * mean_s)

    def plus(self, other: ServiceMoments) -> ServiceMoments:
        """Moments of the sum of two independent times."""
        mean = self.mean_s + other.mean_s
        return ServiceMoments(
            mean, self.second_moment_s2 + 2 * self.mean_s * other.mean_s + other.second_moment_s2
        )


def seek_curve(drive: Drive, write: bool) -> SeekCurve:
    """The drive's read or write seek curve fitted to its catalog figures."""
    if write:
        return _fit(
            drive.track_to_track_seek_write_ms,
            drive.avg_seek_write_ms,
            drive.full_stroke_seek_write_ms,
        )
    return _fit(
        drive.track_to_track_seek_read_ms, drive.avg_seek_read_ms, drive.full_stroke_seek_read_ms
    )


_fit = functools.cache(SeekCurve.fit)


def positioning_moments(drive: Drive, occupied_fraction: float, write: bool) -> ServiceMoments:
    """Seek + rotational latency of one random request over the occupied fraction (HDD)."""
    seek_mean_ms, seek_second_ms2 = seek_curve(drive, write).random_moments_ms(occupied_fraction)
    return ServiceMoments(seek_mean_ms * MS, seek_second_ms2 * MS * MS).plus(
        rotational_latency(drive)
    )


def rotational_latency(drive: Drive) -> ServiceMoments:
    """Latency uniform over one revolution T: mean T/2, second moment T^2/3 (HDD)."""
    rotation_ms = drive.rotation_ms
    return ServiceMoments(rotation_ms / 2 * MS, rotation_ms**2 / 3 * MS * MS)


def transfer_s(drive: Drive, size_bytes: float) -> float:
    """Media transfer time of `size_bytes` at the drive's sustained media rate."""
    return size_bytes / (drive.media_transfer_mb_s * MB)


def random_op(
    drive: Drive, size_bytes: float, occupied_fraction: float, write: bool
) -> ServiceMoments:
    """Service moments of one random read or write of `size_bytes` at queue length 1.

    HDD: overhead + seek (short-stroked to `occupied_fraction`) + rotational latency + transfer.
    SSD: the catalog's 4 KiB read/write service time + transfer of the bytes beyond 4 KiB.
    """
    if drive.kind == "ssd":
        rated_ms = drive.ssd_write_service_ms if write else drive.ssd_read_service_ms
        extra = max(size_bytes - SSD_RATED_BYTES, 0.0)
        return ServiceMoments.deterministic(rated_ms * MS + transfer_s(drive, extra))
    fixed = drive.controller_overhead_ms * MS + transfer_s(drive, size_bytes)
    return positioning_moments(drive, occupied_fraction, write).plus(
        ServiceMoments.deterministic(fixed)
    )


def sequential_op(
    drive: Drive, size_bytes: float, write: bool, contiguous: bool = False
) -> ServiceMoments:
    """Service moments of one large sequential (prefetch or full-stride destage) operation.

    HDD, `contiguous=False` (the default: other streams and random I/O share the drive and
    move the head between two operations of a stream): overhead + a track-to-track seek +
    rotational latency uniform over a turn + transfer.
    HDD, `contiguous=True` (the drive serves only this stream and the next operation is
    queued before the previous one ends, as AMP's prefetch ahead keeps it): the head is
    already on the next block, so only the transfer at the media rate is paid (the
    controller overhead overlaps the previous transfer).
    SSD: as a random operation of that size.
    """
    if drive.kind == "ssd":
        return random_op(drive, size_bytes, 1.0, write)
    if contiguous:
        return ServiceMoments.deterministic(transfer_s(drive, size_bytes))
    t2t_ms = drive.track_to_track_seek_write_ms if write else drive.track_to_track_seek_read_ms
    fixed = (drive.controller_overhead_ms + t2t_ms) * MS + transfer_s(drive, size_bytes)
    return rotational_latency(drive).plus(ServiceMoments.deterministic(fixed))


def command_queueing_gain(
    drive: Drive, size_bytes: float, occupied_fraction: float, write: bool, depth: int
) -> NDArray[np.float64]:
    """Rate multiplier alpha(n), n = 1..depth, of ONE drive holding n requests.

    HDD: alpha(n) = E[S(1)] / (fixed + P(min(n, command_queue_depth))), P the mean SPTF
    positioning time with leftovers kept (`components.sptf`); alpha(1) = 1, non-decreasing,
    constant beyond `command_queue_depth`.
    SSD: min(n, ssd_parallelism, S(1) / transfer time) (module docstring).
    """
    if depth < 1:
        raise ValueError("depth must be >= 1")
    n = np.arange(1, depth + 1, dtype=np.float64)
    if drive.kind == "ssd":
        return np.minimum(n, ssd_max_parallelism(drive, size_bytes, write))
    cap = min(depth, drive.command_queue_depth, sptf.MAX_TABULATED_DEPTH)
    fixed_ms = _fixed_ms(drive, size_bytes)
    positioning_ms = positioning_moments(drive, occupied_fraction, write).mean_s / MS
    relative = sptf.relative_positioning(
        seek_curve(drive, write),
        drive.rotation_ms,
        fixed_ms / drive.rotation_ms,
        # Rounded: the cache must not grow with every float of a load sweep.
        round(fraction(occupied_fraction), 4),
        cap,
    )
    s1 = fixed_ms + positioning_ms
    gains = np.array([s1 / (fixed_ms + positioning_ms * r) for r in relative])
    gains[0] = 1.0
    if depth > cap:
        gains = np.concatenate([gains, np.full(depth - cap, gains[-1])])
    return gains


def _fixed_ms(drive: Drive, size_bytes: float) -> float:
    """The work of one request besides its positioning: controller overhead and transfer, ms."""
    return drive.controller_overhead_ms + transfer_s(drive, size_bytes) / MS


def gain_simulations(drives: Iterable[Drive]) -> list[tuple[SeekCurve, float, float]]:
    """What the command-queueing gain of each HDD among `drives` (as installed) asks the SPTF
    simulation for: (read seek curve, rotation in ms, fixed work of a `GAIN_READ_BYTES` read
    in revolutions), as `command_queueing_gain` passes them (`sptf.kept_means`)."""
    return [
        (seek_curve(d, False), d.rotation_ms, _fixed_ms(d, GAIN_READ_BYTES) / d.rotation_ms)
        for d in drives
        if d.kind == "hdd"
    ]


def max_command_queueing_gain(
    drive: Drive, size_bytes: float, occupied_fraction: float, write: bool
) -> float:
    """alpha(n -> infinity): the drive's rate multiplier with its command queue full.

    It sets the open solution's maximum throughput of a drive: alpha_max / E[S(1)].
    """
    if drive.kind == "ssd":
        return ssd_max_parallelism(drive, size_bytes, write)
    depth = min(drive.command_queue_depth, sptf.MAX_TABULATED_DEPTH)
    return float(command_queueing_gain(drive, size_bytes, occupied_fraction, write, depth)[-1])


def ssd_max_parallelism(drive: Drive, size_bytes: float, write: bool) -> float:
    """An SSD's largest rate multiplier: its parallel flash units, or as many requests as
    its interface bandwidth passes while one is served, whichever is fewer."""
    service_s = random_op(drive, size_bytes, 1.0, write).mean_s
    link_s = transfer_s(drive, size_bytes)
    return float(min(drive.ssd_parallelism, service_s / link_s if link_s > 0 else math.inf))


if __name__ == "__main__":
    if sys.argv[1:] == ["kept"]:
        catalog = load_catalog()
        installed = [
            catalog.installed_drive(system, d.name)
            for d in catalog.drives.values()
            for system in d.packaging
        ]
        kept = sptf.kept_means(gain_simulations(installed))
        # One simulation a line: a catalog change shows in a diff as the lines it moves.
        lines = ",\n".join(f"  {json.dumps(entry)}" for entry in kept["means"])
        print(f'{{"inputs_are": {json.dumps(kept["inputs_are"])},\n "means": [\n{lines}\n]}}')
    else:
        raise SystemExit(
            "usage: python -m diskmodel.components.drive kept > "
            f"diskmodel/components/{sptf.KEPT_FILE}"
        )
