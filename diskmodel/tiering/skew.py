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
The curves composed from points or from other curves are in `tiering.curves`:

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

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.cached import cached_property
from diskmodel.tiering.presets import PRESET_LEVELS
from diskmodel.tiering.roots import brent_root

FloatArray = NDArray[np.float64]


#: Largest skew level accepted: beyond it exp(-k) underflows nothing but the curve is a step
#: at c = 0 to plotting accuracy; no published curve comes near.
MAX_LEVEL = 1000.0

_TINY = np.finfo(np.float64).tiny
# Number of ranking bins a smooth curve offers the placement (per half, see ranking_edges).
RANKING_BINS = 256


def as_fractions(c: ArrayLike) -> FloatArray:
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
        target = as_fractions(p)
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
        by_capacity = np.linspace(0.0, 1.0, RANKING_BINS + 1)
        by_io = self.capacity_for_share(np.linspace(0.0, 1.0, RANKING_BINS + 1))
        # The distinct edges in order, as np.unique gives them; np.unique imports numpy.ma
        # (10-15 ms) on first use, in `run`'s process and again in its fork.
        edges = np.sort(np.concatenate([by_capacity, by_io, [0.0, 1.0]]))
        return edges[np.concatenate([[True], edges[1:] != edges[:-1]])]

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
        cc = as_fractions(c)
        if self._uniform():
            return cc
        return np.asarray(np.expm1(-self.decay * cc) / self._whole, dtype=np.float64)

    def density(self, c: ArrayLike) -> FloatArray:
        """F'(c): I/O density at hotness rank c relative to the workload's average."""
        cc = as_fractions(c)
        if self._uniform():
            return np.ones_like(cc)
        k = self.decay
        return np.asarray(k * np.exp(-k * cc) / -np.expm1(-k), dtype=np.float64)

    def capacity_for_share(self, p: ArrayLike) -> FloatArray:
        pp = as_fractions(p)
        if self._uniform():
            return pp
        k = self.decay
        # 1 - exp(-k c) = p (1 - exp(-k))  =>  c = -log((1 - p) + p exp(-k)) / k; written so
        # that no log of 0 occurs (exp(-k) underflows for large levels); F(c) < 1 for c < 1,
        # so p = 1 needs all of the capacity.
        inner = np.maximum((1.0 - pp) + pp * self._tail, _TINY)
        c = np.where(pp >= 1.0, 1.0, -np.log(inner) / k)
        return np.asarray(as_fractions(c), dtype=np.float64)

    @cached_property
    def _whole(self) -> np.float64:
        """expm1(-k), the share's denominator, kept: a placement search evaluates the curve
        at every probe."""
        return np.float64(np.expm1(-self.decay))

    @cached_property
    def _tail(self) -> np.float64:
        """exp(-k), kept: a placement search inverts the curve at every probe."""
        return np.float64(np.exp(-self.decay))


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
