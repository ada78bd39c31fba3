"""HDD seek time as a function of seek distance: Ruemmler and Wilkes' piecewise curve, fitted
to a manufacturer's three published figures (track-to-track, average, full stroke).

The form (Ruemmler & Wilkes, "An introduction to disk drive modeling", IEEE Computer 27(3),
1994, section "Seek time"): for a seek over the fraction x of a full stroke,

    seek(x) = t + b sqrt(x)         for 0 < x <= x0   (the arm accelerates, then decelerates)
    seek(x) = c + e x               for x > x0        (it coasts at top speed)
    seek(0) = 0                                       (same track: no seek)

with t the track-to-track figure. Manufacturers publish the average seek as the mean over all
pairs of tracks (triangular weighting: the distance between two uniform points has density
2 (1 - x); Hitachi's Ultrastar specifications state this formula, DOMAIN.md C11). With
S = full - t and r = (average - t) / S, the fit takes the curve of that family that passes
through the three figures:

- 1/3 < r <= 8/15 (every published set seen): the linear part is the tangent of the square
  root at x0, so the curve is smooth; normalised, g(x) = (seek - t) / S is
  2 sqrt(x0 x) / (1 + x0) below x0 and (x0 + x) / (1 + x0) above. Its triangular mean
  rises from 1/3 (x0 -> 0, a straight line) to 8/15 (x0 = 1, a pure square root), and x0 is
  found by bisection on that mean.
- 8/15 < r < 1: a curve steeper than a square root at short distances is needed; the fit uses
  g(x) = min(1, sqrt(x / x0)) (the arm reaches the full-stroke time at x0 and longer seeks
  are no slower), whose mean rises from 8/15 (x0 = 1) to 1 (x0 -> 0).
- r <= 1/3 or r >= 1 is no seek curve (convex, or an average above the full stroke) and is
  refused with the figures named.

Moments. For data occupying the fraction f of the drive, a random request's seek distance is
f u with u triangular; E[seek] and E[seek^2] are exact sums of the integrals
int u^p 2 (1 - u) du over the two pieces (`random_moments_ms`). `moments_ms` takes any
distance law given as quadrature nodes and weights (used by ordered destage).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# numpy is imported by the two methods that take arrays (`seek_ms`, `moments_ms`), not here:
# loading the catalog checks every drive's figures with `curve_ratio`, and reading a catalog
# or checking a scenario need no array (numpy's import is 0.05-0.07 s of a command's CPU).

_SQRT_LIMIT = 8.0 / 15.0
"""Triangular mean of sqrt(u): the largest r a smooth sqrt-then-tangent curve reaches."""
_LINEAR_LIMIT = 1.0 / 3.0
"""Triangular mean of u: the smallest r (a straight line)."""


def _tri_power(p: float, lo: float, hi: float) -> float:
    """int_lo^hi u^p 2 (1 - u) du, for 0 <= lo <= hi <= 1."""
    return 2.0 * (
        (hi ** (p + 1) - lo ** (p + 1)) / (p + 1) - (hi ** (p + 2) - lo ** (p + 2)) / (p + 2)
    )


def _tangent_mean(x0: float) -> float:
    """Triangular mean of the normalised smooth curve g with switch point x0."""
    k = 2.0 * math.sqrt(x0) / (1.0 + x0)
    below = k * _tri_power(0.5, 0.0, x0)
    above = (x0 * _tri_power(0.0, x0, 1.0) + _tri_power(1.0, x0, 1.0)) / (1.0 + x0)
    return below + above


def _capped_mean(x0: float) -> float:
    """Triangular mean of g(x) = min(1, sqrt(x / x0))."""
    return _tri_power(0.5, 0.0, x0) / math.sqrt(x0) + _tri_power(0.0, x0, 1.0)


def _bisect(func: object, target: float, increasing: bool) -> float:
    lo, hi = 1e-12, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        value = func(mid)  # type: ignore[operator]
        if (value < target) == increasing:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return 0.5 * (lo + hi)


def curve_ratio(track_to_track_ms: float, average_ms: float, full_stroke_ms: float) -> float:
    """r = (average - t) / (full - t) of a (track-to-track, average, full-stroke) set that
    admits a seek curve, 1/3 < r < 1 (module docstring); ValueError naming the figures when
    it does not. The only refusal of `SeekCurve.fit` (its bisection finds a curve for every r
    in (1/3, 1)), so the catalog checks a drive's figures with this alone, without fitting."""
    t, avg, full = track_to_track_ms, average_ms, full_stroke_ms
    if not (0 < t < avg < full):
        raise ValueError(
            f"seek figures t2t={t}, avg={avg}, full={full} must satisfy "
            "0 < track-to-track < average < full stroke"
        )
    r = (avg - t) / (full - t)
    if r <= _LINEAR_LIMIT + 1e-9 or r >= 1.0:
        raise ValueError(
            f"seek figures t2t={t}, avg={avg}, full={full} give no seek curve: "
            f"(avg - t2t) / (full - t2t) = {r:.4f} must lie in (1/3, 1); "
            "at or below 1/3 the curve would be convex, a non-monotone seek curve"
        )
    return r


@dataclass(frozen=True, slots=True)
class SeekCurve:
    """seek(x) = t + b sqrt(x) for 0 < x <= x0, c + e x beyond (ms); x = distance / full stroke.

    Fields: `track_to_track_ms` t, `sqrt_coeff_ms` b, `switch_fraction` x0,
    `linear_intercept_ms` c and `linear_slope_ms` e (continuous at x0, c + e = full stroke).
    """

    track_to_track_ms: float
    sqrt_coeff_ms: float
    switch_fraction: float
    linear_intercept_ms: float
    linear_slope_ms: float

    @classmethod
    def fit(cls, track_to_track_ms: float, average_ms: float, full_stroke_ms: float) -> SeekCurve:
        """The curve through a published (track-to-track, average, full-stroke) set.

        Exact: seek(0+) = t, seek(1) = full, and the triangular mean = average (module
        docstring). Raises ValueError naming the figures when no seek curve fits them.
        """
        t, full = track_to_track_ms, full_stroke_ms
        r = curve_ratio(track_to_track_ms, average_ms, full_stroke_ms)
        span = full - t
        if r <= _SQRT_LIMIT:
            x0 = _bisect(_tangent_mean, r, increasing=True)
            k = 2.0 * math.sqrt(x0) / (1.0 + x0)
            return cls(t, span * k, x0, t + span * x0 / (1.0 + x0), span / (1.0 + x0))
        x0 = _bisect(_capped_mean, r, increasing=False)
        return cls(t, span / math.sqrt(x0), x0, full, 0.0)

    @property
    def full_stroke_ms(self) -> float:
        return self.linear_intercept_ms + self.linear_slope_ms

    def seek_ms(self, distance_fraction: NDArray[np.float64] | float) -> NDArray[np.float64]:
        """seek(x) in ms for distances x in [0, 1] (0 for x = 0: the same track)."""
        import numpy as np

        x = np.asarray(distance_fraction, dtype=np.float64)
        short = self.track_to_track_ms + self.sqrt_coeff_ms * np.sqrt(np.maximum(x, 0.0))
        long = self.linear_intercept_ms + self.linear_slope_ms * x
        return np.where(x > 0, np.where(x <= self.switch_fraction, short, long), 0.0)

    def random_moments_ms(self, occupied_fraction: float) -> tuple[float, float]:
        """(E[seek], E[seek^2]) in ms, ms^2 for random requests within the occupied fraction f.

        Distance f u, u triangular on [0, 1]; exact (closed-form integrals per piece).
        """
        f = fraction(occupied_fraction)
        t, b = self.track_to_track_ms, self.sqrt_coeff_ms
        c, e = self.linear_intercept_ms, self.linear_slope_ms
        u0 = min(1.0, self.switch_fraction / f)
        beta = b * math.sqrt(f)  # short piece: t + beta sqrt(u)
        delta = e * f  # long piece: c + delta u
        mean = t * _tri_power(0, 0, u0) + beta * _tri_power(0.5, 0, u0)
        second = (
            t * t * _tri_power(0, 0, u0)
            + 2 * t * beta * _tri_power(0.5, 0, u0)
            + beta * beta * _tri_power(1, 0, u0)
        )
        if u0 < 1.0:
            mean += c * _tri_power(0, u0, 1) + delta * _tri_power(1, u0, 1)
            second += (
                c * c * _tri_power(0, u0, 1)
                + 2 * c * delta * _tri_power(1, u0, 1)
                + delta * delta * _tri_power(2, u0, 1)
            )
        return mean, second

    def moments_ms(
        self, distances: NDArray[np.float64], weights: NDArray[np.float64]
    ) -> tuple[float, float]:
        """(E[seek], E[seek^2]) for a distance law given as nodes and weights (summing to 1)."""
        import numpy as np

        s = self.seek_ms(distances)
        return float(np.dot(weights, s)), float(np.dot(weights, s * s))


def fraction(occupied_fraction: float) -> float:
    """An occupied fraction checked to lie in (0, 1] (a hair above 1 is rounding: clipped)."""
    if not 0 < occupied_fraction <= 1 + 1e-9:
        raise ValueError(f"occupied fraction must be in (0, 1], got {occupied_fraction}")
    return min(occupied_fraction, 1.0)
