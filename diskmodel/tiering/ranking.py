"""Easy Tier's view of a pool: every unpinned extent of its workloads ranked by I/O density,
hottest first, across workloads (`Ranking`, `rank_pool`), and the intervals of that ranking
each tier holds when filled fastest first under its capacity and load ceiling
(`easy_tier_intervals`; the rules are in `tiering.placement`'s docstring).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from diskmodel.cached import cached_property
from diskmodel.tiering.records import WorkloadDemand
from diskmodel.tiering.skew import SkewCurve


@dataclass(frozen=True)
class _Furthest:
    """Per number m of pieces of a ranking, each workload's furthest point on its own curve
    within the first m (of width > 0, each whole: its start plus its range), 0 where none.

    Kept per workload rather than as an [n + 1, W] table: that table (a running maximum down
    the ranking) costs n x W to build, 64 workloads of 200 bins each making 820,000 entries
    per ranking; these arrays hold each piece once and a look-up bisects every workload's.
    """

    keys: np.ndarray  # per held piece, grouped by workload: workload x (n + 1) + position
    furthest: np.ndarray  # the running maximum of the pieces' reach within each workload
    starts: np.ndarray  # where each workload's group begins in `keys`, [W]
    stride: int  # n + 1

    @classmethod
    def of(
        cls,
        places: np.ndarray,
        owners: np.ndarray,
        held: np.ndarray,
        reach: np.ndarray,
        workloads: int,
    ) -> _Furthest:
        """From every piece's place in the ranking, grouped by workload in workload order and
        each in ranking order (`places`, with each one's workload in `owners`), which pieces
        count (`held`, along the ranking) and how far along its curve each reaches (`reach`,
        along the ranking)."""
        kept = held[places]
        positions, owners = places[kept], owners[kept]
        stride = places.size + 1
        counts = np.bincount(owners, minlength=workloads)
        starts = np.cumsum(counts) - counts
        furthest = reach[positions]
        # The running maximum within each workload: a piece reaches no further than the one
        # before it only where rounding says so (a curve's pieces are in its own order), so
        # only those workloads are accumulated.
        falls = np.flatnonzero((furthest[1:] < furthest[:-1]) & (owners[1:] == owners[:-1])) + 1
        if falls.size:
            ends = np.append(starts[1:], owners.size)
            for k in np.unique(owners[falls]).tolist():
                lo, hi = int(starts[k]), int(ends[k])
                furthest[lo:hi] = np.maximum.accumulate(furthest[lo:hi])
        return cls(owners * stride + positions, np.maximum(furthest, 0.0), starts, stride)

    def within(self, m: int) -> np.ndarray:
        """Each workload's furthest point within the first `m` pieces (a new array)."""
        # The held pieces of each workload before position m end where its key would go
        # (searchsorted with side="left"); where none is held, 0 (the -1 then read is not).
        if not self.keys.size:
            return np.zeros(self.starts.size)
        found = self.keys.searchsorted(self._first_keys + m)
        return np.where(found > self.starts, self.furthest[found - 1], 0.0)

    @cached_property
    def _first_keys(self) -> np.ndarray:
        """Each workload's key at position 0 (`keys`)."""
        return np.arange(self.starts.size) * self.stride


@dataclass(frozen=True)
class Ranking:
    """Pieces of all workloads sorted by I/O density, as arrays along the ranking axis (GB)."""

    workloads: tuple[WorkloadDemand, ...]
    owner: np.ndarray  # index of the workload of each piece
    c_lo: np.ndarray  # the piece's range on its workload's own curve
    c_hi: np.ndarray
    x_edges: np.ndarray  # cumulative GB along the ranking, len n + 1
    y_edges: np.ndarray  # cumulative small-I/O rate along the ranking, len n + 1
    # Every piece's place along the ranking, grouped by workload in workload order and each
    # in its own (and the ranking's) order, and each one's workload.
    places: np.ndarray = field(compare=False, repr=False)
    place_owners: np.ndarray = field(compare=False, repr=False)
    # workload_prefix by position: a ceiling search places one ranking again and again, and
    # the ends of the ranking (and the boundaries of tiers held to capacity) recur.
    _prefixes: dict[float, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    # io_at by position: the hot end of a tier whose ceiling is searched is the same at
    # every probe of the search.
    _io_at: dict[float, float] = field(default_factory=dict, compare=False, repr=False)
    # `_piece` by the piece's place.
    _pieces: dict[int, tuple[WorkloadDemand, float, float, float]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def total_gb(self) -> float:
        return float(self.x_edges[-1])

    def io_at(self, x: float) -> float:
        """Small-I/O rate of the hottest x GB of the pool's ranking."""
        found = self._io_at.get(x)
        if found is None:
            found = self._io_at[x] = self._io_at_computed(x)
        return found

    def _io_at_computed(self, x: float) -> float:
        # Scalar look-ups on the arrays (a ranking answers a few dozen): searchsorted with
        # side="right" is bisect_right on the sorted edges.
        x_edges, c_lo, c_hi = self.x_edges, self.c_lo, self.c_hi
        i = min(max(int(np.searchsorted(x_edges, x, side="right")) - 1, 0), self.owner.size - 1)
        w = self.workloads[int(self.owner[i])]
        lo, hi = float(c_lo[i]), float(c_hi[i])
        c = lo + (x - float(x_edges[i])) / w.capacity_gb
        c = min(max(c, lo), hi)
        inside = w.small_io_iops * float(w.skew.io_share(lo, c))
        return float(self.y_edges[i]) + inside

    def x_at_io(self, y: float) -> float:
        """GB position where the cumulative small-I/O rate reaches y (the first such point)."""
        y_edges = self.y_edges
        if y >= float(y_edges[-1]):
            return self.total_gb
        i = min(max(int(y_edges.searchsorted(y, side="right")) - 1, 0), self.owner.size - 1)
        w, lo, hi, f_lo = self._piece(i)
        if w.small_io_iops <= 0.0:
            return float(self.x_edges[i + 1])
        f_target = f_lo + (y - float(y_edges[i])) / w.small_io_iops
        c = min(max(float(w.skew.capacity_for_share(f_target)), lo), hi)
        return float(self.x_edges[i]) + (c - lo) * w.capacity_gb

    def _piece(self, i: int) -> tuple[WorkloadDemand, float, float, float]:
        """Piece i's workload, its range on the workload's curve and the curve's share at
        the range's start, kept (`x_at_io`'s probes fall in a few pieces)."""
        found = self._pieces.get(i)
        if found is None:
            w = self.workloads[int(self.owner[i])]
            lo, hi = float(self.c_lo[i]), float(self.c_hi[i])
            f_lo = float(w.skew.share(lo)) if w.small_io_iops > 0.0 else math.nan
            found = self._pieces[i] = (w, lo, hi, f_lo)
        return found

    @cached_property
    def _reach(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, _Furthest]:
        """What `_prefix_at` reads: each piece's start and width along the ranking (GB) and
        its range on its workload's curve; and each workload's furthest point on its own
        curve within the first m pieces (`_Furthest`)."""
        widths = np.diff(self.x_edges)
        c_range = self.c_hi - self.c_lo
        return (
            self.x_edges[:-1],
            widths,
            c_range,
            _Furthest.of(
                self.places,
                self.place_owners,
                widths > 0.0,
                self.c_lo + c_range,
                len(self.workloads),
            ),
        )

    def workload_prefix(self, x: float) -> np.ndarray:
        """For each workload, the fraction of its capacity inside the hottest x GB.

        Each workload's pieces appear in its own hotness order (its curve is concave and the
        sort is stable), so that fraction is a prefix [0, c] of its own curve. Read-only:
        kept for the next placement of this ranking.
        """
        found = self._prefixes.get(x)
        if found is None:
            found = self._prefix_at(x)
            found.setflags(write=False)
            self._prefixes[x] = found
        return found

    def _prefix_at(self, x: float) -> np.ndarray:
        """The furthest point on each workload's curve among the pieces that start before x:
        all of them whole but the last, which x may cut (the last piece's end or its part up
        to x, interpolated on its range)."""
        starts, widths, c_range, furthest = self._reach
        # The pieces that start before x (side="left": bisect_left on the sorted starts).
        reached = int(starts.searchsorted(x, side="left"))
        if reached == 0:
            return np.zeros(len(self.workloads))
        prefix = furthest.within(reached - 1)
        last = reached - 1
        width = float(widths[last])
        if width > 0.0:
            inside = min(x - float(starts[last]), width)
            k = self.owner[last]
            prefix[k] = max(prefix[k], self.c_lo[last] + inside / width * float(c_range[last]))
        return prefix


_RANKINGS_KEPT = 64
_rankings: dict[tuple[object, ...], Ranking] = {}
"""Rankings (`ranked`) by everything `rank_pool` and a `Ranking` read of their workloads: a
sizing search's configurations place the same workloads at the same rates on every back end
it tries, and a ranking's look-ups (`Ranking.workload_prefix`, `io_at`) are kept with it."""


def forget_rankings() -> None:
    """Forget the kept rankings (`_rankings`): `model.layout.forget_placements` calls it."""
    _rankings.clear()


def ranked(workloads: Sequence[WorkloadDemand]) -> Ranking:
    """`rank_pool(workloads)`, kept by what it and the ranking read of each workload (its
    small-I/O rate, heat, capacity and curve: equal curves rank alike, to the bit), so the
    same workloads at the same rates are ranked once. Its `workloads` may be another call's
    equal ones."""
    key = tuple((w.small_io_iops, w.heat_iops, w.capacity_gb, w.skew) for w in workloads)
    found = _rankings.get(key)
    if found is None:
        if len(_rankings) >= _RANKINGS_KEPT:
            _rankings.clear()
        found = _rankings[key] = rank_pool(workloads)
    return found


def rank_pool(workloads: Sequence[WorkloadDemand]) -> Ranking:
    """Cut each workload's curve into bins, weigh them by I/O density, sort hottest first.

    Workloads with the same curve have the same bins: their figures are made as one array
    per curve (a pool of 64 volumes of one database: one array of 64 rows), each element as
    the workload's own would be."""
    count = len(workloads)
    heat = [w.small_io_iops if w.heat_iops is None else w.heat_iops for w in workloads]
    any_rate = any(h > 0.0 for h in heat)
    # With no rate anywhere the ranking is by the curves' shapes alone, per GB of each.
    rate = np.array(
        [heat[k] if any_rate else w.capacity_gb for k, w in enumerate(workloads)], dtype=np.float64
    )
    capacity = np.array([w.capacity_gb for w in workloads], dtype=np.float64)
    small_io = np.array([w.small_io_iops for w in workloads], dtype=np.float64)
    by_curve: dict[SkewCurve, list[int]] = {}
    for k, w in enumerate(workloads):
        by_curve.setdefault(w.skew, []).append(k)
    if len(by_curve) == 1 and all(_alike(x) for x in (rate, capacity, small_io)):
        alike = _rank_alike(tuple(workloads), workloads[0].skew, rate, capacity, small_io)
        if alike is not None:
            return alike
    # Per curve: its bins' ends, and per workload of it (rows) each bin's GB, density and
    # small-I/O rate.
    rows: list[tuple[int, int]] = [(0, 0)] * count
    made: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for curve, members in by_curve.items():
        c_lo, c_hi, share = curve.ranking_bins
        at = np.array(members)
        gb = (c_hi - c_lo) * capacity[at, None]
        io = rate[at, None] * share
        density = np.divide(io, gb, out=np.zeros_like(io), where=gb > 0.0)
        # A concave curve's bins never get denser towards the cold end; rounding in the far
        # tail of a steep curve can say otherwise, and the prefix bookkeeping below needs each
        # workload's bins to stay in its own order, so the density is made non-increasing
        # (where it is not already: the running minimum of a non-increasing row is the row).
        if not np.all(density[:, 1:] <= density[:, :-1]):
            density = np.minimum.accumulate(density, axis=1)
        for row, k in enumerate(members):
            rows[k] = (len(made), row)
        made.append((c_lo, c_hi, gb, density, small_io[at, None] * share))
    if len(made) == 1:  # one curve: its rows are the workloads in order
        c_lo, c_hi, gb_rows, density_rows, io_rows = made[0]
        sizes = np.full(count, c_lo.size)
        lows, highs = np.tile(c_lo, count), np.tile(c_hi, count)
        gb_all, densities, true_io = gb_rows.ravel(), density_rows.ravel(), io_rows.ravel()
    else:
        sizes = np.array([made[g][0].size for g, _ in rows])
        lows = np.concatenate([made[g][0] for g, _ in rows])
        highs = np.concatenate([made[g][1] for g, _ in rows])
        gb_all = np.concatenate([made[g][2][row] for g, row in rows])
        densities = np.concatenate([made[g][3][row] for g, row in rows])
        true_io = np.concatenate([made[g][4][row] for g, row in rows])
    owner = np.repeat(np.arange(count), sizes)
    order = np.argsort(-densities, kind="stable")
    # Where each piece went: each workload's pieces keep their own order (the sort is stable
    # and each workload's density never rises), so this is grouped by workload, in order.
    places = np.empty_like(order)
    places[order] = np.arange(order.size)
    return Ranking(
        workloads=tuple(workloads),
        owner=owner[order],
        c_lo=lows[order],
        c_hi=highs[order],
        x_edges=np.concatenate([[0.0], np.cumsum(gb_all[order])]),
        y_edges=np.concatenate([[0.0], np.cumsum(true_io[order])]),
        places=places,
        place_owners=owner,
    )


def _alike(values: np.ndarray) -> bool:
    """True when every value is the same float, bit for bit."""
    bits = values.view(np.int64)
    return bool(np.all(bits == bits[0]))


def _rank_alike(
    workloads: tuple[WorkloadDemand, ...],
    curve: SkewCurve,
    rate: np.ndarray,
    capacity: np.ndarray,
    small_io: np.ndarray,
) -> Ranking | None:
    """`rank_pool` of workloads alike in everything it reads (one curve, and the same rate,
    capacity and small I/O, bit for bit: 64 volumes of one database), without a sort: when
    their common row of densities falls strictly from bin to bin, the stable sort puts the
    workloads' j-th bins together, in workload order, one bin after another, and every
    figure is the common row's. None when the row has ties (`rank_pool` sorts)."""
    c_lo, c_hi, share = curve.ranking_bins
    one = np.zeros(1, dtype=np.intp)  # the first workload's row, as `rank_pool` makes rows
    gb = ((c_hi - c_lo) * capacity[one, None])[0]
    io = (rate[one, None] * share)[0]
    density = np.divide(io, gb, out=np.zeros_like(io), where=gb > 0.0)
    if not np.all(density[1:] < density[:-1]):
        return None
    count, bins = len(workloads), c_lo.size
    workload = np.arange(count)
    small_io_row = (small_io[one, None] * share)[0]
    return Ranking(
        workloads=workloads,
        owner=np.tile(workload, bins),
        c_lo=np.repeat(c_lo, count),
        c_hi=np.repeat(c_hi, count),
        x_edges=np.concatenate([[0.0], np.cumsum(np.repeat(gb, count))]),
        y_edges=np.concatenate([[0.0], np.cumsum(np.repeat(small_io_row, count))]),
        # Piece j of workload k is at j x count + k.
        places=(np.arange(bins) * count + workload[:, None]).ravel(),
        place_owners=np.repeat(workload, bins),
    )


def easy_tier_intervals(
    ranking: Ranking, free_gb: Sequence[float], ceilings: Sequence[float | None]
) -> list[list[tuple[float, float]]]:
    """Per tier, the intervals of the ranking axis (GB) it holds, by the Easy Tier rules.

    The unassigned data stay one interval [hot_pos, cold_pos]: tiers take their hot part from
    its hot end and any cold filler from its cold end.
    """
    n = len(free_gb)
    intervals: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    hot_pos, cold_pos = 0.0, ranking.total_gb
    for t in range(n - 1):
        hot_end = min(hot_pos + free_gb[t], cold_pos)
        ceiling = ceilings[t]
        if ceiling is not None:
            at_ceiling = ranking.x_at_io(ranking.io_at(hot_pos) + max(ceiling, 0.0))
            # Where a steep curve is flat to rounding, the inverse can land before hot_pos.
            hot_end = max(hot_pos, min(hot_end, at_ceiling))
        if hot_end > hot_pos:
            intervals[t].append((hot_pos, hot_end))
        spare = free_gb[t] - (hot_end - hot_pos)
        hot_pos = hot_end
        # A tier stopped by its ceiling still holds data when the slower tiers are too small for
        # the rest: the coldest extents, which add the least load (Easy Tier swaps warm extents
        # down and cold ones up when the lower tier is full).
        excess = (cold_pos - hot_pos) - sum(free_gb[t + 1 :])
        filler = min(max(excess, 0.0), max(spare, 0.0))
        if filler > 0.0:
            intervals[t].append((cold_pos - filler, cold_pos))
            cold_pos -= filler
    if cold_pos > hot_pos:
        intervals[-1].append((hot_pos, cold_pos))
    return intervals
