"""Auto-rebalance within one tier: move hot extents until every rank is equally busy.

Easy Tier's auto-rebalance moves extents from the busiest ranks of a tier to the least busy,
hottest extents first (they shift the most load per extent moved), until utilisations are
even. Ranks of unequal size or speed therefore end at equal utilisation, not equal I/O.

Model
-----
The tier holds ``data_gb`` of one workload-mix with back-end small-I/O rate X and skew G (its
own curve, e.g. :class:`~diskmodel.tiering.curves.SegmentSkew` of the tier's slice). Before the
rebalance each rank holds a representative slice of that data (extents were spread by rotate
extents, with no regard to heat), so rank r carries X * data_r / D of the I/O.

- A rank's busy time per back-end I/O depends on the *span* of its data, the fraction of its
  capacity the data lie on (short-stroking: a shorter span, shorter seeks). It is supplied as
  ``service_time_s(span_fraction)`` (the storage model provides the HDD one); it must not fall
  as the span grows. Utilisation of rank r = I/O rate on r x service_time_s(span_r).
- Moving extents *off* a rank leaves holes: its span does not shrink. Extents moved *onto* a
  rank fill its free extents after its data, so its span grows to (data + received) / capacity.
- A donor (a rank busier than the final utilisation U) gives away the hottest part q_r of its
  own slice: its I/O becomes X_r0 (1 - G(q_r)).
- Receivers (ranks less busy than U) split the moved extents; each gets the same mix of the
  moved heat (a fraction phi_r of the moved GB and of the moved I/O), just enough to reach U,
  unless it runs out of capacity first (then it ends below U).

U solves sum(phi_r(U)) = 1 (Brent's method, `tiering.roots`); each phi_r(U) and q_r(U) are
found in closed form or by Brent's method on monotone functions. The result gives each rank's
data, span, I/O and utilisation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.tiering.roots import brent_root
from diskmodel.tiering.skew import SkewCurve

ServiceTime = Callable[[float], float]

_REL_TOL = 1e-12


@dataclass(frozen=True)
class RankBefore:
    """A rank of the tier before the rebalance.

    ``service_time_s``: busy time of the rank per back-end small I/O (seconds) when its data
    span the given fraction of its capacity; non-decreasing in the span.
    """

    name: str
    capacity_gb: float
    data_gb: float
    service_time_s: ServiceTime

    def __post_init__(self) -> None:
        if not self.capacity_gb > 0.0:
            raise ValueError(f"rank {self.name!r}: capacity_gb must be > 0")
        if not 0.0 <= self.data_gb <= self.capacity_gb * (1.0 + 1e-9):
            raise ValueError(
                f"rank {self.name!r}: data_gb must lie in [0, capacity_gb], got {self.data_gb}"
            )


@dataclass(frozen=True)
class RankLoad:
    """A rank after the rebalance."""

    name: str
    data_gb: float
    span_fraction: float
    small_io_iops: float
    small_io_share: float
    service_time_s: float
    utilization: float


@dataclass(frozen=True)
class Rebalanced:
    """The tier after auto-rebalance: per rank, and what was moved."""

    ranks: tuple[RankLoad, ...]
    #: The common utilisation the ranks that could reach it ended at.
    utilization: float
    moved_gb: float
    moved_small_io_share: float

    def rank(self, name: str) -> RankLoad:
        for load in self.ranks:
            if load.name == name:
                return load
        raise KeyError(f"no rank {name!r}")


def _span(rank: RankBefore, data_gb: float) -> float:
    return min(data_gb / rank.capacity_gb, 1.0)


def rebalance(ranks: Sequence[RankBefore], small_io_iops: float, skew: SkewCurve) -> Rebalanced:
    """Equalise utilisation over the ranks of one tier, moving the hottest extents first."""
    if not ranks:
        raise ValueError("a tier needs at least one rank to rebalance")
    total_gb = sum(r.data_gb for r in ranks)
    if total_gb <= 0.0:
        raise ValueError("the tier holds no data, nothing to rebalance")
    if not (np.isfinite(small_io_iops) and small_io_iops >= 0.0):
        raise ValueError(f"small_io_iops must be >= 0, got {small_io_iops}")

    io0 = [small_io_iops * r.data_gb / total_gb for r in ranks]
    span0 = [_span(r, r.data_gb) for r in ranks]
    s0 = [float(r.service_time_s(sp)) for r, sp in zip(ranks, span0, strict=True)]
    u0 = [x * s for x, s in zip(io0, s0, strict=True)]
    if small_io_iops == 0.0 or max(u0) - min(u0) <= _REL_TOL * max(u0):
        return _result(ranks, [r.data_gb for r in ranks], io0, span0, small_io_iops, 0.0, 0.0)

    def moved_at(u: float) -> tuple[list[float], list[float], float, float]:
        """Donors' kept GB and I/O at target utilisation u, and the moved GB and I/O."""
        kept_gb, kept_io = [], []
        moved_gb = moved_io = 0.0
        for r, x0, s, ui in zip(ranks, io0, s0, u0, strict=True):
            if ui > u:  # donor: span (and so service time) unchanged; keep I/O u / s
                keep_io = u / s
                q = float(skew.capacity_for_share(1.0 - keep_io / x0))
                kept_gb.append(r.data_gb * (1.0 - q))
                kept_io.append(keep_io)
                moved_gb += r.data_gb * q
                moved_io += x0 - keep_io
            else:
                kept_gb.append(r.data_gb)
                kept_io.append(x0)
        return kept_gb, kept_io, moved_gb, moved_io

    def received_share(
        r: RankBefore, x0: float, u: float, moved_gb: float, moved_io: float
    ) -> float:
        """phi: the fraction of the moved extents receiver r takes to reach utilisation u."""
        room = (r.capacity_gb - r.data_gb) / moved_gb
        if room <= 0.0:
            return 0.0

        def gap(phi: float) -> float:
            span = _span(r, r.data_gb + phi * moved_gb)
            return (x0 + phi * moved_io) * float(r.service_time_s(span)) - u

        if gap(room) <= 0.0:
            return room  # full before it reaches u
        if gap(0.0) >= 0.0:
            return 0.0
        return brent_root(gap, 0.0, room, xtol=1e-14, rtol=1e-12)

    def excess(u: float) -> float:
        _, _, moved_gb, moved_io = moved_at(u)
        if moved_gb <= 0.0:
            return np.inf
        taken = sum(
            received_share(r, x0, u, moved_gb, moved_io)
            for r, x0, ui in zip(ranks, io0, u0, strict=True)
            if ui <= u
        )
        return taken - 1.0

    u_lo, u_hi = min(u0), max(u0)
    # Just below the busiest rank's start so that something moves; excess is +inf at u_hi.
    u_top = u_hi * (1.0 - 1e-12)
    if excess(u_top) < 0.0:
        # Even a sliver moved cannot be absorbed (receivers are full): nothing can move.
        return _result(ranks, [r.data_gb for r in ranks], io0, span0, small_io_iops, 0.0, 0.0)
    u = brent_root(excess, u_lo, u_top, xtol=1e-15, rtol=1e-12)

    kept_gb, kept_io, moved_gb, moved_io = moved_at(u)
    final_gb, final_io, final_span = [], [], []
    for r, gb, io, sp, ui in zip(ranks, kept_gb, kept_io, span0, u0, strict=True):
        if ui > u:
            final_gb.append(gb)
            final_io.append(io)
            final_span.append(sp)  # holes: the span stays
        else:
            phi = received_share(r, io, u, moved_gb, moved_io)
            final_gb.append(gb + phi * moved_gb)
            final_io.append(io + phi * moved_io)
            final_span.append(_span(r, gb + phi * moved_gb))
    return _result(
        ranks, final_gb, final_io, final_span, small_io_iops, moved_gb, moved_io, common=u
    )


def _result(
    ranks: Sequence[RankBefore],
    data_gb: Sequence[float],
    io: Sequence[float],
    span: Sequence[float],
    small_io_iops: float,
    moved_gb: float,
    moved_io: float,
    common: float | None = None,
) -> Rebalanced:
    loads = []
    for r, gb, x, sp in zip(ranks, data_gb, io, span, strict=True):
        s = float(r.service_time_s(sp))
        loads.append(
            RankLoad(
                name=r.name,
                data_gb=gb,
                span_fraction=sp,
                small_io_iops=x,
                small_io_share=x / small_io_iops if small_io_iops > 0.0 else gb / sum(data_gb),
                service_time_s=s,
                utilization=x * s,
            )
        )
    return Rebalanced(
        ranks=tuple(loads),
        utilization=common if common is not None else max(load.utilization for load in loads),
        moved_gb=moved_gb,
        moved_small_io_share=moved_io / small_io_iops if small_io_iops > 0.0 else 0.0,
    )


def spread_by_rotation(total_gb: float, capacities_gb: Sequence[float]) -> list[float]:
    """Initial data per rank when extents are allocated one per rank in turn (rotate extents).

    Every rank gets the same GB until the smaller ones are full; the rest go round the others
    (water-filling). Raises ValueError if the data exceed the total capacity.
    """
    caps = np.asarray(capacities_gb, dtype=np.float64)
    if total_gb <= 0.0:
        return [0.0] * caps.size
    if total_gb > caps.sum() * (1.0 + 1e-9):
        raise ValueError(f"{total_gb:g} GB does not fit in {caps.sum():g} GB of ranks")
    level = brent_root(
        lambda h: float(np.minimum(caps, h).sum()) - total_gb, 0.0, float(caps.max())
    )
    return [float(v) for v in np.minimum(caps, level)]
