"""Skew curves: how a workload's small random I/O is spread over its capacity.

A skew curve is F(c) on [0, 1]: the fraction of the workload's small random back-end I/O
that the hottest fraction c of its capacity receives. Every curve here is monotone
(non-decreasing), F(0) = 0 and F(1) = 1. A curve of *small* I/O is also concave, because c
counts extents from the hottest down, so its slope (the I/O density) never rises. A curve of
MB transferred ranked by small-I/O heat (what a tier receives when Easy Tier places by small
I/O) need not be concave; :attr:`SkewCurve.is_concave` says which.

The I/O density at c, relative to the workload's average density, is the slope F'(c).

Curves
------
- :class:`LevelSkew`: the one-parameter family indexed by a *skew level* s >= 1,
  defined in diskmodel as the **peak-to-mean I/O density ratio**: the hottest extents receive
  s times the workload's average I/Os per GB. The density falls exponentially from the hottest
  extent to the coldest (the maximum-entropy shape for a decreasing density with a given mean
  and peak): F(c) = (1 - exp(-k c)) / (1 - exp(-k)), with k fixed by F'(0) = s, i.e.
  k = s (1 - exp(-k)), whose positive root is k = s + W0(-s exp(-s)) (W0: principal Lambert W).
  s = 1 is uniform (no skew). The coldest extent's density is s - k times the average.
- :class:`PiecewiseSkew`: straight lines between measured or stated points, e.g.
  ``[[0.1, 0.9]]`` ("90% of I/O on 10% of capacity", DOMAIN.md C4).
- :class:`MixtureSkew`: w G(c) + (1 - w) c, a share w following curve G and the rest spread
  evenly; :func:`derived_mb_curve` uses it for MB/s when no separate curve is given.
- :class:`SegmentSkew`: the part of a curve between two capacity fractions, renormalised
  (the skew of the data one tier holds).

The commercial tool's preset numbers (DOMAIN.md C7) are kept as :data:`PRESET_LEVELS`; what
they mean mathematically is not published, so diskmodel reads them as peak-to-mean ratios
until the storage model's fit to the C7 example says otherwise.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.tiering.presets import PRESET_LEVELS
from diskmodel.tiering.roots import brent_root

FloatArray = NDArray[np.float64]


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

#: Largest skew level accepted: beyond it exp(-k) underflows nothing but the curve is a step
#: at c = 0 to plotting accuracy; no published curve comes near.
MAX_LEVEL = 1000.0

_TINY = np.finfo(np.float64).tiny
# Slack when checking monotone/concave input given as decimal fractions.
_SLOPE_TOLERANCE = 1e-12
# Number of ranking bins a smooth curve offers the placement (per half, see ranking_edges).
_RANKING_BINS = 256
# A piecewise curve with at most this many knots is ranked knot by knot (exactly).
_MAX_EXACT_KNOTS = 4 * _RANKING_BINS + 1


def _as_fractions(c: ArrayLike) -> FloatArray:
    """Clip capacity or I/O fractions to [0, 1] as a float array (0-d for a scalar).

    np.clip's figures (-0 to +0, NaN kept: `maximum` keeps its first argument where neither
    is greater) without its dispatch, which cost more than the curve on the scalars and
    short arrays of a placement search."""
    return np.minimum(1.0, np.maximum(0.0, np.asarray(c, dtype=np.float64)))


class SkewCurve(ABC):
    """F(c): share of small I/O (or of MB) on the hottest fraction c of the capacity."""

    @abstractmethod
    def share(self, c: ArrayLike) -> FloatArray:
        """F(c), vectorised; c is clipped to [0, 1]."""

    @property
    @abstractmethod
    def is_concave(self) -> bool:
        """True when the density F' never rises (always true for small-I/O curves)."""

    def io_share(self, c_lo: ArrayLike, c_hi: ArrayLike) -> FloatArray:
        """Share of the I/O on the capacity between hotness ranks c_lo and c_hi.

        F(c_hi) - F(c_lo), never negative.
        """
        return np.maximum(self.share(c_hi) - self.share(c_lo), 0.0)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        """Smallest hottest-capacity fraction c with F(c) >= p (the inverse of F), vectorised.

        The generic form bisects on the monotone F to 2^-60; subclasses with a closed form
        override it.
        """
        target = _as_fractions(p)
        lo = np.zeros_like(target)
        hi = np.ones_like(target)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            below = self.share(mid) < target
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        return np.where(target <= 0.0, 0.0, hi)

    def ranking_edges(self) -> FloatArray:
        """Capacity fractions that cut the curve into bins for ranking against other curves.

        Easy Tier ranks extents of all workloads in a pool by I/O density; the placement merges
        workloads by sorting these bins by their mean density. Default: 256 bins even in
        capacity plus 256 even in I/O share, so both the hot head and the cold tail are fine.
        """
        by_capacity = np.linspace(0.0, 1.0, _RANKING_BINS + 1)
        by_io = self.capacity_for_share(np.linspace(0.0, 1.0, _RANKING_BINS + 1))
        return np.unique(np.concatenate([by_capacity, by_io, [0.0, 1.0]]))

    @cached_property
    def ranking_bins(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """(c_lo, c_hi, I/O share) of each ranking bin, computed once per curve: a placement
        that follows the load ranks the same curves again at every load it is asked about."""
        edges = self.ranking_edges()
        c_lo, c_hi = edges[:-1], edges[1:]
        return c_lo, c_hi, self.io_share(c_lo, c_hi)

    def capacity_holding(
        self, io_fractions: Sequence[float] = (0.5, 0.8, 0.9)
    ) -> dict[float, float]:
        """{p: c}: the hottest capacity fraction c that receives the I/O fraction p.

        This is the "x% of I/O on y% of capacity" statement a planner reads.
        """
        caps = self.capacity_for_share(np.asarray(io_fractions, dtype=np.float64))
        return {float(p): float(c) for p, c in zip(io_fractions, np.atleast_1d(caps), strict=True)}

    def describe(self) -> str:
        """One line: '50% of I/O on 2.9% of capacity, 80% on ..., 90% on ...'."""
        parts = [f"{p:.0%} on {c:.1%}" for p, c in self.capacity_holding().items()]
        return "I/O share on hottest capacity: " + ", ".join(parts)


def positive_root(level: float) -> float:
    """The positive root k of k = s (1 - exp(-k)) for s = `level` > 1 (k = s + W0(-s e^-s),
    Lambert's W), by Newton's method from k = s: f(k) = k + s expm1(-k) is convex and
    positive at s, so the iterates fall monotonically to the root, quadratically near it.
    expm1 keeps f exact as k -> 0 (s -> 1), where the form with W0 sits at its branch point
    and loses every digit; no scipy.special import for one function."""
    s = float(level)
    k = s
    for _ in range(200):
        step = (k + s * math.expm1(-k)) / (1.0 - s * math.exp(-k))
        k -= step
        if abs(step) <= 4e-16 * k:
            break
    return k


@dataclass(frozen=True)
class LevelSkew(SkewCurve):
    """Skew family indexed by the peak-to-mean I/O density ratio ``level`` (s >= 1).

    Formula: F(c) = (1 - exp(-k c)) / (1 - exp(-k)), density F'(c) = k exp(-k c) / (1 - exp(-k)),
    peak F'(0) = s, so k = s + W0(-s exp(-s)); k < 1e-9 (s = 1) is uniform, F(c) = c.
    Monotone in s: a higher level gives a higher F(c) for every 0 < c < 1.
    Examples (see docs/tiering.md): level 24 puts 90.9% of small I/O on the hottest 10% of the
    capacity (the C4 production curve), level 14 puts 75%, level 7 puts 50%, level 2 18.5%.
    """

    level: float

    def __post_init__(self) -> None:
        if not (1.0 <= self.level <= MAX_LEVEL) or not np.isfinite(self.level):
            raise ValueError(
                f"skew level must be between 1 (no skew) and {MAX_LEVEL:g}, got {self.level!r}"
            )

    @cached_property
    def decay(self) -> float:
        """k: the density falls as exp(-k c) from the hottest extent (c = 0) to the coldest."""
        s = self.level
        if s - 1.0 < 1e-12:
            return 0.0
        return positive_root(s)

    @property
    def is_concave(self) -> bool:
        return True

    def _uniform(self) -> bool:
        return self.decay < 1e-9

    def share(self, c: ArrayLike) -> FloatArray:
        cc = _as_fractions(c)
        if self._uniform():
            return cc
        k = self.decay
        return np.asarray(np.expm1(-k * cc) / np.expm1(-k), dtype=np.float64)

    def density(self, c: ArrayLike) -> FloatArray:
        """F'(c): I/O density at hotness rank c relative to the workload's average."""
        cc = _as_fractions(c)
        if self._uniform():
            return np.ones_like(cc)
        k = self.decay
        return np.asarray(k * np.exp(-k * cc) / -np.expm1(-k), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = _as_fractions(p)
        if self._uniform():
            return pp
        k = self.decay
        # 1 - exp(-k c) = p (1 - exp(-k))  =>  c = -log((1 - p) + p exp(-k)) / k; written so
        # that no log of 0 occurs (exp(-k) underflows for large levels); F(c) < 1 for c < 1,
        # so p = 1 needs all of the capacity.
        inner = np.maximum((1.0 - pp) + pp * self._tail, _TINY)
        c = np.where(pp >= 1.0, 1.0, -np.log(inner) / k)
        return np.asarray(_as_fractions(c), dtype=np.float64)

    @cached_property
    def _tail(self) -> np.float64:
        """exp(-k), kept: a placement search inverts the curve at every probe."""
        return np.float64(np.exp(-self.decay))


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
        return np.asarray(np.interp(_as_fractions(c), self._c, self._f), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = _as_fractions(p)
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
        cc = _as_fractions(c)
        return self.share_following(cc, self.follows.share(cc))

    def share_following(self, c: ArrayLike, followed: FloatArray) -> FloatArray:
        """F(c) given G(c) (`followed`, the followed curve's share at c): for a caller that
        has G(c) already (a placement evaluates a workload's small-I/O curve and its MB curve,
        which follows it, at the same points)."""
        return np.asarray(self.weight * followed + (1.0 - self.weight) * _as_fractions(c))


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
        u = _as_fractions(c)
        f_lo, span = self._base
        if span <= 0.0:
            return u
        inner = self.parent.share(self.c_lo + u * (self.c_hi - self.c_lo))
        return np.asarray(np.clip((inner - f_lo) / span, 0.0, 1.0), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = _as_fractions(p)
        f_lo, span = self._base
        if span <= 0.0:
            return pp
        c = self.parent.capacity_for_share(f_lo + pp * span)
        u = (c - self.c_lo) / (self.c_hi - self.c_lo)
        return np.asarray(np.where(pp <= 0.0, 0.0, np.clip(u, 0.0, 1.0)), dtype=np.float64)


UNIFORM = LevelSkew(1.0)
"""No skew: every extent equally busy, F(c) = c (what placement without Easy Tier sees)."""


def skew_from_level(level: float | str) -> LevelSkew:
    """The family member for a numeric level or a preset name (``very_low`` ... ``very_high``)."""
    if isinstance(level, str):
        try:
            return LevelSkew(PRESET_LEVELS[level])
        except KeyError:
            allowed = ", ".join(PRESET_LEVELS)
            raise ValueError(f"unknown skew preset {level!r}; allowed: {allowed}") from None
    return LevelSkew(float(level))


def level_for_share(capacity_fraction: float, io_fraction: float) -> float:
    """The skew level whose hottest ``capacity_fraction`` receives ``io_fraction`` of the I/O.

    Example: level_for_share(0.1, 0.9) is 23.03, the C4 production curve (for large levels
    k ~ s and F(0.1) ~ 1 - exp(-0.1 s), so s ~ 10 ln 10). Requires
    capacity_fraction < io_fraction < 1 (a skewed, not total, concentration).
    """
    if not 0.0 < capacity_fraction < io_fraction < 1.0:
        raise ValueError(
            "need 0 < capacity_fraction < io_fraction < 1, got "
            f"{capacity_fraction!r}, {io_fraction!r}"
        )

    def gap(level: float) -> float:
        return float(LevelSkew(level).share(capacity_fraction)) - io_fraction

    if gap(MAX_LEVEL) < 0.0:
        raise ValueError(
            f"{io_fraction:.0%} on {capacity_fraction:.0%} needs a level above {MAX_LEVEL:g}"
        )
    return brent_root(gap, 1.0, MAX_LEVEL, xtol=1e-10)


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
