"""Drive service time: HDD positioning physics and SSD fixed service, with second moments.

HDD, one request at a time (queue length 1)
-------------------------------------------
S = controller overhead + seek(distance) + rotational latency + media transfer, with

- seek as a function of the distance x (fraction of a full stroke), the three-parameter form
  of Lee & Katz, "An analytic performance model of disk arrays", SIGMETRICS 1993:
  seek(x) = t + a sqrt(x) + b x for x > 0: square-root growth for short seeks (the actuator
  accelerates then decelerates, Ruemmler & Wilkes, "An introduction to disk drive modeling",
  IEEE Computer 27(3), 1994) and linear for long ones (coast at top speed). t, a and b are
  fitted exactly to the catalog's track-to-track, average and full-stroke seek figures, with
  the average taken over random requests on a fully used drive (distance density 2(1 - x)).
- short-stroking: data occupying the fraction f of the drive (allocated from one edge, as the
  DS8000 allocates extents on a rank in order) gives seek distances f |U1 - U2| with U1, U2
  uniform, so the mean seek falls as t + a sqrt(f) 8/15 + b f / 3.
- rotational latency uniform over one revolution T: mean T/2, second moment T^2/3,
  independent of the seek.
- transfer of the request at the media rate; controller overhead fixed.

The mean and second moment of S are exact for this model (used by M/G/1).

HDD command queueing (load dependence)
--------------------------------------
With n requests queued the drive serves the one with the shortest positioning time next
(SPTF; Seltzer, Chen & Ousterhout, "Disk scheduling revisited", USENIX 1990; Worthington,
Ganger & Patt, "Scheduling algorithms for modern disk drives", SIGMETRICS 1994). Given the
head position h, the positioning times P = seek(|h - y|) + L of the pending requests are
independent, so the expected positioning time of the chosen one is E_h[ integral of
P(P > t | h)^n dt ]. `command_queueing_gain` computes the throughput gain
alpha(n) = E[S(1)] / E[S(n)] numerically from that expression (grid over h, the distance and
the rotational offset), capped at the drive's `command_queue_depth`. It assumes fresh random
requests replace served ones (the queue does not fill with the far-away leftovers), so it is
an upper bound on the gain of a real SPTF queue; drives of the period report gains of this
order (e.g. Worthington et al. 1994, Fig. 4).

SSD
---
Fixed service times from the catalog for one small (4 KiB) random read or write, plus the
transfer of anything beyond 4 KiB at the drive's media rate; treated as deterministic.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import Drive

MS = 1e-3
"""Seconds per millisecond."""
MB = 1e6
"""Bytes per (decimal) megabyte: drive media rates are quoted in MB/s."""
SSD_RATED_BYTES = 4096
"""The request size the catalog's SSD service times are quoted for (4 KiB)."""

# Moments of u = |U1 - U2|, U1, U2 uniform on [0, 1] (density 2(1 - u)): E[u^k] = 2/((k+1)(k+2)).
_E_SQRT_U = 8.0 / 15.0
_E_U = 1.0 / 3.0
_E_U_3_2 = 8.0 / 35.0
_E_U2 = 1.0 / 6.0


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


@dataclass(frozen=True, slots=True)
class SeekCurve:
    """seek(x) = track_to_track + a sqrt(x) + b x (ms), x = distance / full stroke in (0, 1]."""

    track_to_track_ms: float
    sqrt_coeff_ms: float
    linear_coeff_ms: float

    @classmethod
    def fit(cls, track_to_track_ms: float, average_ms: float, full_stroke_ms: float) -> SeekCurve:
        """Fit a and b so that seek(1) = full stroke and the random-request mean = average.

        full = t + a + b and average = t + 8/15 a + 1/3 b; solved exactly. Raises ValueError
        when the figures would need a negative coefficient (a non-monotone seek curve).
        """
        span_full = full_stroke_ms - track_to_track_ms
        span_avg = average_ms - track_to_track_ms
        # a + b = span_full; (8/15) a + (1/3) b = span_avg
        a = (span_avg - _E_U * span_full) / (_E_SQRT_U - _E_U)
        b = span_full - a
        if a < 0 or b < 0:
            raise ValueError(
                f"seek figures t2t={track_to_track_ms}, avg={average_ms}, full={full_stroke_ms} "
                "give a non-monotone seek curve"
            )
        return cls(track_to_track_ms, a, b)

    def seek_ms(self, distance_fraction: NDArray[np.float64] | float) -> NDArray[np.float64]:
        x = np.asarray(distance_fraction, dtype=np.float64)
        return np.where(
            x > 0,
            self.track_to_track_ms + self.sqrt_coeff_ms * np.sqrt(x) + self.linear_coeff_ms * x,
            0.0,
        )

    def random_moments_ms(self, occupied_fraction: float) -> tuple[float, float]:
        """(E[seek], E[seek^2]) in ms, ms^2 for random requests within the occupied fraction f."""
        f = _fraction(occupied_fraction)
        t, a, b = self.track_to_track_ms, self.sqrt_coeff_ms, self.linear_coeff_ms
        rf = math.sqrt(f)
        mean = t + a * rf * _E_SQRT_U + b * f * _E_U
        second = (
            t * t
            + a * a * f * _E_U
            + b * b * f * f * _E_U2
            + 2 * t * a * rf * _E_SQRT_U
            + 2 * t * b * f * _E_U
            + 2 * a * b * f * rf * _E_U_3_2
        )
        return mean, second


def _fraction(occupied_fraction: float) -> float:
    if not 0 < occupied_fraction <= 1 + 1e-9:
        raise ValueError(f"occupied fraction must be in (0, 1], got {occupied_fraction}")
    return min(occupied_fraction, 1.0)


def seek_curve(drive: Drive, write: bool) -> SeekCurve:
    """The drive's read or write seek curve fitted to its catalog figures."""
    if write:
        return _fit(
            drive.track_to_track_seek_ms, drive.avg_seek_write_ms, drive.full_stroke_seek_write_ms
        )
    return _fit(
        drive.track_to_track_seek_ms, drive.avg_seek_read_ms, drive.full_stroke_seek_read_ms
    )


_fit = functools.cache(SeekCurve.fit)


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
    seek_mean_ms, seek_second_ms2 = seek_curve(drive, write).random_moments_ms(occupied_fraction)
    rotation_ms = drive.rotation_ms
    positioning = ServiceMoments(seek_mean_ms * MS, seek_second_ms2 * MS * MS).plus(
        ServiceMoments(rotation_ms / 2 * MS, rotation_ms**2 / 3 * MS * MS)
    )
    fixed = drive.controller_overhead_ms * MS + transfer_s(drive, size_bytes)
    return positioning.plus(ServiceMoments.deterministic(fixed))


def sequential_op(drive: Drive, size_bytes: float, write: bool) -> ServiceMoments:
    """Service moments of one large sequential (prefetch or full-stride destage) operation.

    HDD: overhead + a track-to-track seek (the stream continues next to where it stopped)
    + rotational latency uniform over a turn (other streams and random I/O have moved the
    head in between, so the drive does not find the next block under the head) + transfer.
    SSD: as a random operation of that size.
    """
    if drive.kind == "ssd":
        return random_op(drive, size_bytes, 1.0, write)
    rotation_ms = drive.rotation_ms
    latency = ServiceMoments(rotation_ms / 2 * MS, rotation_ms**2 / 3 * MS * MS)
    fixed = (drive.controller_overhead_ms + drive.track_to_track_seek_ms) * MS + transfer_s(
        drive, size_bytes
    )
    return latency.plus(ServiceMoments.deterministic(fixed))


# Grid sizes of the command-queueing integral: accurate to ~0.5% of the positioning time.
_HEAD_POINTS = 48
_TARGET_POINTS = 96
_TIME_POINTS = 400


@functools.cache
def _queueing_gain_cached(
    curve: SeekCurve,
    rotation_ms: float,
    fixed_ms: float,
    occupied_fraction: float,
    max_depth: int,
) -> tuple[float, ...]:
    f = _fraction(occupied_fraction)
    # Head and target positions on the occupied band, midpoint grids.
    h = (np.arange(_HEAD_POINTS) + 0.5) / _HEAD_POINTS * f
    y = (np.arange(_TARGET_POINTS) + 0.5) / _TARGET_POINTS * f
    seek = curve.seek_ms(np.abs(h[:, None] - y[None, :]))  # [H, Y]
    t_max = float(seek.max()) + rotation_ms
    t = np.linspace(0.0, t_max, _TIME_POINTS)
    dt = t[1] - t[0]
    # P(P > t | h) = mean over targets of P(L > t - seek), L uniform on [0, T).
    survive = np.clip(1.0 - (t[None, None, :] - seek[:, :, None]) / rotation_ms, 0.0, 1.0)
    tail = survive.mean(axis=1)  # [H, time]
    depths = np.arange(1, max_depth + 1)
    powers = tail[None, :, :] ** depths[:, None, None]  # [n, H, time]
    # Trapezoid rule over t, then average over head positions.
    integral = (powers.sum(axis=2) - 0.5 * (powers[:, :, 0] + powers[:, :, -1])) * dt
    positioning_ms = integral.mean(axis=1)
    service_ms = fixed_ms + positioning_ms
    return tuple(float(service_ms[0] / s) for s in service_ms)


def command_queueing_gain(
    drive: Drive, size_bytes: float, occupied_fraction: float, write: bool, depth: int
) -> NDArray[np.float64]:
    """Throughput multiplier alpha(n), n = 1..depth, of an HDD with n requests queued (SPTF).

    alpha(1) = 1; alpha(n) = E[S(1)] / E[S(min(n, command_queue_depth))], the gain from
    serving the pending request with the shortest positioning time (see the module
    docstring). An SSD has no positioning to save: 1 for every n.
    """
    if depth < 1:
        raise ValueError("depth must be >= 1")
    if drive.kind == "ssd":
        return np.ones(depth)
    cap = min(depth, drive.command_queue_depth)
    fixed_ms = drive.controller_overhead_ms + transfer_s(drive, size_bytes) / MS
    # Rounded keys: the cache must not grow with every float of a load sweep.
    gains = np.asarray(
        _queueing_gain_cached(
            seek_curve(drive, write),
            drive.rotation_ms,
            round(fixed_ms, 6),
            round(min(occupied_fraction, 1.0), 4),
            cap,
        )
    )
    if depth > cap:
        gains = np.concatenate([gains, np.full(depth - cap, gains[-1])])
    return gains
