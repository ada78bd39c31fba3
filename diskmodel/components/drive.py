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

A stream's sequential operation (`sequential_op`) pays only its transfer when it continues
where the stream's previous operation on the drive ended, and a random operation's positioning
when other work came in between.

The mean and second moment of S are exact for this model (used by M/G/1).

Command queueing (load dependence): `command_queueing_gain`
-----------------------------------------------------------
alpha(n) is the rate multiplier of ONE drive holding n requests: its throughput is
alpha(n) / E[S(1)]. The model uses it as a load-dependent station, p(n) proportional to
prod lam S / alpha(i), in the open and the closed solution, for reads and destages alike.

- HDD: alpha(n) = E[S(1)] / (fixed + P(n)), P(n) the mean SPTF positioning time with n
  requests queued and the passed-over requests kept (`components.sptf`, a seeded simulation,
  tabulated), fixed = controller overhead + transfer. alpha(1) = 1. Beyond the drive's
  `command_queue_depth` (its specification's tagged commands, tabulated to
  `sptf.MAX_TABULATED_DEPTH`) no further gain; how many commands the device adapter keeps at
  one drive (`device_adapter.commands_per_hdd`, an estimate with its range) is the model's
  limit, applied by `model.costs.queue_limit`, not here.
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

FloatArray = NDArray[np.float64]

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
    drive: Drive,
    size_bytes: float,
    write: bool,
    occupied_fraction: float = 1.0,
    stream_share: float = 0.0,
) -> ServiceMoments:
    """Service moments of one large sequential operation (a prefetch or a full-stride destage
    of a stream) of `size_bytes`.

    HDD. A stream's operations are contiguous on each drive (RAID rotates the strips, so a
    drive's share of a stream is one run of its own blocks). When the operation before it on
    the drive was the same stream's previous one, and it was queued in time (AMP keeps the
    prefetch ahead of the stream), the head is already there: only the transfer at the media
    rate is paid, the controller's work overlapping the previous transfer. When other work
    (random reads, destages, other streams) came in between, the head must come back from
    wherever that left it: a random seek over the data's span, a rotational latency and the
    controller overhead, as a random operation. `stream_share` is the probability of the first
    case, the stream's share of the drive's operations (operations in random order): 1 for a
    stream alone on its drives, small in a busy mixed workload.
    SSD: as a random operation of that size.
    """
    if not 0.0 <= stream_share <= 1.0:
        raise ValueError("stream_share must be in [0, 1]")
    if drive.kind == "ssd":
        return random_op(drive, size_bytes, 1.0, write)
    contiguous = transfer_s(drive, size_bytes)
    if stream_share == 1.0:
        return ServiceMoments.deterministic(contiguous)
    broken = random_op(drive, size_bytes, occupied_fraction, write)
    q = stream_share
    return ServiceMoments(
        q * contiguous + (1 - q) * broken.mean_s,
        q * contiguous * contiguous + (1 - q) * broken.second_moment_s2,
    )


def command_queueing_gain(
    drive: Drive, size_bytes: float, occupied_fraction: float, write: bool, depth: int
) -> NDArray[np.float64]:
    """Rate multiplier alpha(n), n = 1..depth, of ONE drive holding n requests.

    HDD: alpha(n) = E[S(1)] / (fixed + P(min(n, command_queue_depth))), P the mean SPTF
    positioning time with leftovers kept (`components.sptf`), for one random request of
    `size_bytes`: `mixed_gain` with its positioning share. alpha(1) = 1, non-decreasing,
    constant beyond `command_queue_depth`.
    SSD: min(n, ssd_parallelism, S(1) / transfer time) (module docstring).
    """
    if depth < 1:
        raise ValueError("depth must be >= 1")
    n = np.arange(1, depth + 1, dtype=np.float64)
    if drive.kind == "ssd":
        return np.minimum(n, ssd_max_parallelism(drive, size_bytes, write))
    fixed_ms = _fixed_ms(drive, size_bytes)
    positioning_ms = positioning_moments(drive, occupied_fraction, write).mean_s / MS
    share = positioning_ms / (fixed_ms + positioning_ms)
    return mixed_gain(relative_positioning(drive, occupied_fraction, depth), share)


def relative_positioning(drive: Drive, occupied_fraction: float, depth: int) -> FloatArray:
    """P(n) / P(1), n = 1..depth, of an HDD's SPTF positioning with n requests queued over
    its occupied fraction (`components.sptf`; the drive's read seek curve and a 4 KiB request's
    fixed work), held beyond its `command_queue_depth` (and the tabulated 64)."""
    if depth < 1:
        raise ValueError("depth must be >= 1")
    cap = min(depth, drive.command_queue_depth, sptf.MAX_TABULATED_DEPTH)
    relative = np.array(
        sptf.relative_positioning(
            seek_curve(drive, False),
            drive.rotation_ms,
            _fixed_ms(drive, GAIN_READ_BYTES) / drive.rotation_ms,
            # Rounded: the cache must not grow with every float of a load sweep.
            round(fraction(occupied_fraction), 4),
            cap,
        )
    )
    relative[0] = 1.0
    if depth > cap:
        relative = np.concatenate([relative, np.full(depth - cap, relative[-1])])
    return relative


def mixed_gain(relative: FloatArray, positioning_share: float) -> FloatArray:
    """alpha(n) of a drive whose work at queue length one is positioning for the fraction
    `positioning_share` of its busy time and fixed work (controller, transfer) for the rest:
    reordering shortens only the positioning, alpha(n) = 1 / (1 - pi + pi P(n)/P(1)). A
    stream's contiguous transfers (pi = 0) gain nothing; random 4 KiB reads (pi about 0.96)
    nearly the whole SPTF ratio."""
    if not 0.0 <= positioning_share <= 1.0:
        raise ValueError("positioning_share must be in [0, 1]")
    gains = 1.0 / (1.0 - positioning_share + positioning_share * np.asarray(relative))
    gains[0] = 1.0
    return np.asarray(gains, dtype=np.float64)


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
