"""Skew curves made from points or from other curves, and the curves a scenario describes.

`tiering.skew` holds what a skew curve is (`SkewCurve`) and the one-parameter family
(`LevelSkew`); this module the curves built from stated points (`PiecewiseSkew`), from another
curve (`MixtureSkew`: a share following it and the rest even; `SegmentSkew`: the part one
tier holds) and the two builders the configuration uses: the MB/s curve that goes with a
small-I/O curve (`derived_mb_curve`, fitted to C4) and the curve a scenario describes
(`described_skew`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.cached import cached_property
from diskmodel.tiering.skew import (
    RANKING_BINS,
    FloatArray,
    LevelSkew,
    SkewCurve,
    as_fractions,
    skew_from_level,
)

#: DOMAIN.md C4: the hottest 10% of extents carry 90% of the small I/Os ...
C4_TOP_CAPACITY_FRACTION = 0.10
C4_SMALL_IO_SHARE = 0.90
#: ... but "only a little over 30%" of the MB transferred; read as 31%.
C4_MB_SHARE = 0.31

#: Share of MB/s that follows the small-I/O heat when no MB curve is given. Fitted: C4 (IBM's
#: production skew; docs/validation.md lists C4's MB share as fitted, not validation). If a
#: share w of the MB follows the small-I/O curve and the rest is spread evenly over capacity
#: (large sequential transfers: scans, backups, loads touch cold and hot extents alike), the
#: top 10% carries w * 0.90 + (1 - w) * 0.10 = 0.31 of the MB, so w = 0.21 / 0.80 = 0.2625.
MB_FOLLOWS_SMALL_IO_SHARE = (C4_MB_SHARE - C4_TOP_CAPACITY_FRACTION) / (
    C4_SMALL_IO_SHARE - C4_TOP_CAPACITY_FRACTION
)

# Slack when checking monotone/concave input given as decimal fractions.
_SLOPE_TOLERANCE = 1e-12
# A piecewise curve with at most this many knots is ranked knot by knot (exactly).
_MAX_EXACT_KNOTS = 4 * RANKING_BINS + 1


@dataclass(frozen=True)
class PiecewiseSkew(SkewCurve):
    """Straight lines through knots (capacity_fractions[i], io_fractions[i]).

    The knots start at (0, 0), end at (1, 1), capacity fractions strictly increase and I/O
    fractions never fall. Build from a user's points with :meth:`from_points`, which also
    demands concavity; a measured MB curve ranked by small-I/O heat may be non-concave.
    """

    capacity_fractions: tuple[float, ...]
    io_fractions: tuple[float, ...]

    def __post_init__(self) -> None:
        c = np.asarray(self.capacity_fractions, dtype=np.float64)
        f = np.asarray(self.io_fractions, dtype=np.float64)
        if c.ndim != 1 or c.shape != f.shape or c.size < 2:
            raise ValueError("a piecewise skew curve needs matching knot lists of 2 or more")
        if not (np.all(np.isfinite(c)) and np.all(np.isfinite(f))):
            raise ValueError("skew curve knots must be finite numbers")
        if c[0] != 0.0 or f[0] != 0.0 or c[-1] != 1.0 or f[-1] != 1.0:
            raise ValueError("a skew curve must start at (0, 0) and end at (1, 1)")
        if np.any(np.diff(c) <= 0.0):
            raise ValueError("capacity fractions of a skew curve must strictly increase")
        if np.any(np.diff(f) < -_SLOPE_TOLERANCE):
            raise ValueError("I/O fractions of a skew curve must never fall")

    @classmethod
    def from_points(cls, points: Sequence[Sequence[float]]) -> PiecewiseSkew:
        """A concave curve through (0, 0), the [capacity_fraction, io_fraction] points, (1, 1).

        Raises ValueError naming the first offending point when a point lies outside the unit
        square, capacity fractions do not increase, I/O falls, or the curve would not be
        concave (the I/O density, the slope, would rise towards colder capacity).
        """
        knots: list[tuple[float, float]] = [(0.0, 0.0)]
        for i, point in enumerate(points):
            if len(point) != 2:
                raise ValueError(
                    f"skew point {i} {list(point)!r}: expected [capacity_fraction, io_fraction]"
                )
            c, f = float(point[0]), float(point[1])
            if not (0.0 <= c <= 1.0 and 0.0 <= f <= 1.0):
                raise ValueError(
                    f"skew point {i} [{c:g}, {f:g}]: both fractions must lie in [0, 1]"
                )
            if (c, f) in ((0.0, 0.0), (1.0, 1.0)):
                continue  # the end points are implied; allow them to be written out
            knots.append((c, f))
        knots.append((1.0, 1.0))
        prev_slope = np.inf
        for i in range(1, len(knots)):
            (c0, f0), (c1, f1) = knots[i - 1], knots[i]
            label = f"skew point [{c1:g}, {f1:g}]" if i < len(knots) - 1 else "the end point (1, 1)"
            if c1 <= c0:
                raise ValueError(
                    f"{label}: capacity fractions must strictly increase (previous {c0:g}); "
                    "list points from the hottest capacity outwards"
                )
            if f1 < f0:
                raise ValueError(
                    f"{label}: I/O fraction falls from {f0:g}; a skew curve never falls"
                )
            slope = (f1 - f0) / (c1 - c0)
            if slope > prev_slope * (1.0 + _SLOPE_TOLERANCE) + _SLOPE_TOLERANCE:
                raise ValueError(
                    f"{label}: the curve is not concave there (I/O density {slope:.4g} x average "
                    f"after it is above {prev_slope:.4g} x before it); hotter capacity must not "
                    "receive less I/O per GB than colder capacity"
                )
            prev_slope = slope
        cs, fs = zip(*knots, strict=True)
        return cls(tuple(cs), tuple(fs))

    @cached_property
    def _c(self) -> FloatArray:
        return np.asarray(self.capacity_fractions, dtype=np.float64)

    @cached_property
    def _f(self) -> FloatArray:
        return np.asarray(self.io_fractions, dtype=np.float64)

    @cached_property
    def _concave(self) -> bool:
        # Slope i+1 <= slope i, cross-multiplied so that rounding in the knots (I/O fractions
        # are cumulative sums <= 1, off by a few ulp) is weighed against the segment widths
        # instead of being divided by them: a measured curve of 10^5 equal extents must pass.
        rise, run = np.diff(self._f), np.diff(self._c)
        excess = rise[1:] * run[:-1] - rise[:-1] * run[1:]
        slack = 8.0 * np.finfo(np.float64).eps * (run[:-1] + run[1:])
        return bool(np.all(excess <= slack + _SLOPE_TOLERANCE * run[:-1] * run[1:]))

    @property
    def is_concave(self) -> bool:
        return self._concave

    def share(self, c: ArrayLike) -> FloatArray:
        return np.asarray(np.interp(as_fractions(c), self._c, self._f), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = as_fractions(p)
        # First knot whose I/O fraction reaches p; then straight-line inverse inside its segment.
        idx = np.clip(np.searchsorted(self._f, pp, side="left"), 1, self._f.size - 1)
        f0, f1 = self._f[idx - 1], self._f[idx]
        c0, c1 = self._c[idx - 1], self._c[idx]
        rise = f1 - f0
        t = np.divide(pp - f0, rise, out=np.zeros_like(pp, dtype=np.float64), where=rise > 0)
        c = np.where(pp <= 0.0, 0.0, c0 + np.clip(t, 0.0, 1.0) * (c1 - c0))
        return np.asarray(c, dtype=np.float64)

    def ranking_edges(self) -> FloatArray:
        # The density is constant between knots, so the knots are exact ranking bins; a measured
        # curve with very many extents is thinned to about 1024 bins (ranking within a bin then
        # uses the bin's mean density, which only matters when workloads interleave).
        if self._c.size <= _MAX_EXACT_KNOTS:
            return self._c
        return np.unique(np.concatenate([super().ranking_edges(), [0.0, 1.0]]))


@dataclass(frozen=True)
class MixtureSkew(SkewCurve):
    """F(c) = w G(c) + (1 - w) c: a share w follows curve G, the rest is spread evenly.

    Concave when G is. Used for the MB curve derived from a small-I/O curve.
    """

    follows: SkewCurve
    weight: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.weight <= 1.0:
            raise ValueError(f"mixture weight must lie in [0, 1], got {self.weight!r}")

    @property
    def is_concave(self) -> bool:
        return self.follows.is_concave

    def share(self, c: ArrayLike) -> FloatArray:
        cc = as_fractions(c)
        return self.share_following(cc, self.follows.share(cc))

    def share_following(self, c: ArrayLike, followed: FloatArray) -> FloatArray:
        """F(c) given G(c) (`followed`, the followed curve's share at c): for a caller that
        has G(c) already (a placement evaluates a workload's small-I/O curve and its MB curve,
        which follows it, at the same points)."""
        return np.asarray(self.weight * followed + (1.0 - self.weight) * as_fractions(c))


@dataclass(frozen=True)
class SegmentSkew(SkewCurve):
    """The part of ``parent`` between hotness ranks c_lo and c_hi, rescaled to [0, 1].

    G(u) = (F(c_lo + u (c_hi - c_lo)) - F(c_lo)) / (F(c_hi) - F(c_lo)); when the segment carries
    no I/O at all it is uniform. This is the skew of the data a single tier holds, which
    auto-rebalance spreads over that tier's ranks.
    """

    parent: SkewCurve
    c_lo: float
    c_hi: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.c_lo < self.c_hi <= 1.0:
            raise ValueError(f"segment needs 0 <= c_lo < c_hi <= 1, got [{self.c_lo}, {self.c_hi}]")

    @cached_property
    def _base(self) -> tuple[float, float]:
        f_lo = float(self.parent.share(self.c_lo))
        return f_lo, float(self.parent.share(self.c_hi)) - f_lo

    @property
    def is_concave(self) -> bool:
        return self.parent.is_concave

    def share(self, c: ArrayLike) -> FloatArray:
        u = as_fractions(c)
        f_lo, span = self._base
        if span <= 0.0:
            return u
        inner = self.parent.share(self.c_lo + u * (self.c_hi - self.c_lo))
        return np.asarray(np.clip((inner - f_lo) / span, 0.0, 1.0), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = as_fractions(p)
        f_lo, span = self._base
        if span <= 0.0:
            return pp
        c = self.parent.capacity_for_share(f_lo + pp * span)
        u = (c - self.c_lo) / (self.c_hi - self.c_lo)
        return np.asarray(np.where(pp <= 0.0, 0.0, np.clip(u, 0.0, 1.0)), dtype=np.float64)


def derived_mb_curve(small_io: SkewCurve, sequential_level: float | None = None) -> SkewCurve:
    """The MB/s skew that goes with a small-I/O skew, ranked by small-I/O heat.

    With ``sequential_level`` the MB curve is that family member (co-ranked with the small-I/O
    heat: the hottest extents by small I/O are also the hottest by MB). Without it, a share
    :data:`MB_FOLLOWS_SMALL_IO_SHARE` (0.2625, from DOMAIN.md C4) of the MB follows the small-I/O
    curve and the rest is spread evenly over the capacity, which reproduces C4: a curve with
    90% of small I/O on the top 10% puts 31% of the MB there.
    """
    if sequential_level is not None:
        return LevelSkew(float(sequential_level))
    return MixtureSkew(small_io, MB_FOLLOWS_SMALL_IO_SHARE)


def described_skew(
    points: Sequence[Sequence[float]] | None,
    level: float,
    sequential_level: float | None = None,
) -> tuple[SkewCurve, SkewCurve | None]:
    """The skew a scenario describes without a heat map: the small-I/O curve through `points`
    ([capacity fraction, I/O fraction] pairs) where given, else the family member at `level`;
    and with `sequential_level` its MB curve (None: the MB curve is derived from the small-I/O
    one where it is needed, `derived_mb_curve`). ValueError for a curve the family or the
    points cannot make."""
    curve: SkewCurve
    if points is not None:
        curve = PiecewiseSkew.from_points([list(p) for p in points])
    else:
        curve = skew_from_level(level)
    mb = derived_mb_curve(curve, sequential_level) if sequential_level is not None else None
    return curve, mb
