"""Where a pool's data and load land: Easy Tier steady state, capacity-proportional, pinned.

Plain numbers in, frozen dataclasses out; no pydantic, no hardware knowledge. The storage model
supplies, per pool, its tiers fastest first (name, usable capacity, and optionally a load
ceiling: the back-end small-I/O rate the tier may take before it would become the bottleneck),
and per workload its capacity, its back-end small-I/O rate (cache hits excluded: Easy Tier
ranks extents by back-end activity), its MB/s and its skew curves.

Rules
-----
Easy Tier (``easy_tier=True``), steady state after learning:
  every extent of every unpinned workload in the pool is ranked by I/O density (back-end small
  I/Os per second per GB), hottest first, across workloads (Easy Tier ranks the pool's extents,
  not each volume's). Tiers are filled in order, fastest first, each with the hottest extents
  left, until its capacity is full or the small I/O it holds reaches its load ceiling, whichever
  comes first; a tier stopped by its ceiling keeps the rest of its capacity free, unless the
  slower tiers together cannot hold what is left: then it also takes just enough of the
  *coldest* extents left (they add the least load; Easy Tier reaches the same state by
  swapping warm extents down and cold ones up when the lower tier is full). The slowest tier
  takes everything left, ceiling or not (the data must live somewhere; the storage model then
  reports the tier over its ceiling as the bottleneck). So the hottest extents end on SSD, the
  coldest on nearline, and free capacity on the slowest tier.
Easy Tier off (``easy_tier=False``):
  extents are spread over the pool's ranks with no regard to heat, so each tier holds a share of
  every workload equal to its share of the pool's free capacity, and receives that share of the
  workload's small I/O and MB (DOMAIN.md: without Easy Tier, I/O follows capacity).
Pinned (``pin_tier``):
  the whole workload on one tier (a table placed on SSD by hand). Pinned workloads are placed
  first; they take capacity and ceiling from their tier, and the others share what is left.
Media preference (``preference``):
  a stated capacity of a workload on one tier (a database's chosen objects on SSD), the rest
  placed like any other data. The pinned part is the hottest ``gb`` of the workload's curve
  (the objects a DBA would choose) and carries the curve's share of its I/O, or the share the
  planner states. It is placed as a pinned workload of its own, the rest as an unpinned one
  with the tail of the curve, and the two are reported as one workload.

MB/s follows the extents: a tier receives the workload's MB curve evaluated on the same
hotness ranks it holds (Easy Tier places by small I/O, so the MB comes along unranked by MB).

Ranking several workloads uses each curve's ranking bins (:meth:`SkewCurve.ranking_edges`),
each carrying its mean density; a single workload's placement is exact (the cut inside a bin
uses the curve itself), and for piecewise-linear curves so is the merge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from diskmodel.tiering.curves import MixtureSkew, SegmentSkew
from diskmodel.tiering.ranking import Ranking, easy_tier_intervals, ranked
from diskmodel.tiering.records import (
    TABLE_COLUMNS,
    PoolPlacement,
    Tier,
    TierShare,
    WorkloadDemand,
    WorkloadPlacement,
)
from diskmodel.tiering.skew import SkewCurve

# Relative slack for comparing GB and IOPS sums built from floating-point pieces.
_REL_TOL = 1e-9


def _preferred_parts(w: WorkloadDemand) -> tuple[WorkloadDemand, WorkloadDemand, float, float]:
    """A workload with a media preference as two: its pinned head (the hottest `capacity_gb`)
    and its unpinned tail, with the head's share of the small I/O and of the MB."""
    pref = w.preference
    assert pref is not None
    c0 = pref.capacity_gb / w.capacity_gb
    io = float(w.skew.share(c0)) if pref.io_share is None else pref.io_share
    mb = float(w.mb_curve.share(c0)) if pref.io_share is None else pref.io_share
    head = WorkloadDemand(
        name=f"{w.name}\0pinned",
        capacity_gb=pref.capacity_gb,
        small_io_iops=w.small_io_iops * io,
        mb_s=w.mb_s * mb,
        skew=SegmentSkew(w.skew, 0.0, c0),
        mb_skew=SegmentSkew(w.mb_curve, 0.0, c0),
        pin_tier=pref.tier,
        heat_iops=None if w.heat_iops is None else w.heat_iops * io,
    )
    tail = WorkloadDemand(
        name=w.name,
        capacity_gb=w.capacity_gb - pref.capacity_gb,
        small_io_iops=w.small_io_iops * (1.0 - io),
        mb_s=w.mb_s * (1.0 - mb),
        skew=SegmentSkew(w.skew, c0, 1.0),
        mb_skew=SegmentSkew(w.mb_curve, c0, 1.0),
        heat_iops=None if w.heat_iops is None else w.heat_iops * (1.0 - io),
    )
    return head, tail, io, mb


def place_pool(
    tiers: Sequence[Tier], workloads: Sequence[WorkloadDemand], *, easy_tier: bool
) -> PoolPlacement:
    """Place every workload of one pool on its tiers (fastest first) by the module's rules.

    Raises ValueError if tier names repeat, a pin names no tier of the pool, or the data do
    not fit (naming the workload or the shortfall in GB).
    """
    return placer_for(workloads, easy_tier=easy_tier).place(tiers)


_CurveGroups = tuple[tuple[SkewCurve, SkewCurve, bool, np.ndarray | slice], ...]
"""Workloads (by place) grouped by their pair of curves (small I/O, MB), in order of first
appearance: each group's curves are evaluated once for all its workloads (a slice when one
group holds them all); the flag says the MB curve follows the small-I/O curve
(`MixtureSkew`, the derived one), whose shares then come from that curve's."""


def _curve_groups(workloads: Sequence[WorkloadDemand]) -> _CurveGroups:
    """The workloads grouped by their curves (`_CurveGroups`)."""
    groups: dict[tuple[SkewCurve, SkewCurve], list[int]] = {}
    for k, w in enumerate(workloads):
        groups.setdefault((w.skew, w.mb_curve), []).append(k)
    return tuple(
        (
            skew,
            mb,
            isinstance(mb, MixtureSkew) and mb.follows == skew,
            slice(None) if len(groups) == 1 else _index_of(members),
        )
        for (skew, mb), members in groups.items()
    )


def _index_of(places: list[int]) -> np.ndarray | slice:
    """`places` (ascending) as an index: a slice where they run without a gap (the same
    elements, in the same order, without fancy indexing's cost), else an array."""
    if places == list(range(places[0], places[-1] + 1)):
        return slice(places[0], places[-1] + 1)
    return np.array(places, dtype=np.intp)


@dataclass(frozen=True)
class _Members:
    """What placing one list of workloads needs of them on every call, whatever the tiers:
    their names, rates and capacities as arrays, the pool shares' weights, which are pinned
    and which float, and the floating ones' curves grouped (`_CurveGroups`)."""

    workloads: tuple[WorkloadDemand, ...]
    names: tuple[str, ...]
    small_io: np.ndarray  # [workloads], back-end small I/O per second
    # Each workload's weight in the pool's sum of each column of `PoolPlacement.table`:
    # [workloads, 1, (1, weight in the small-I/O share, in the MB share, 1)].
    weights: np.ndarray
    pinned: tuple[int, ...]  # the pinned workloads' places
    floating: tuple[int, ...]  # the unpinned workloads' places
    floating_at: np.ndarray | slice  # the same as an index (a slice when they are all)
    floating_gb: np.ndarray  # the floating workloads' capacities
    floating_needed_gb: float  # and their sum, in order
    floating_curves: _CurveGroups  # the floating workloads' curves, by place among them

    @classmethod
    def of(cls, workloads: Sequence[WorkloadDemand]) -> _Members:
        if len({w.name for w in workloads}) != len(workloads):
            raise ValueError("workload names must be unique in a pool")
        # Pool shares weigh workloads by their rates; with no rate at all, by capacity.
        io_weights = np.array([w.small_io_iops for w in workloads], dtype=np.float64)
        if io_weights.sum() <= 0.0:
            io_weights = np.array([w.capacity_gb for w in workloads], dtype=np.float64)
        mb_weights = np.array([w.mb_s for w in workloads], dtype=np.float64)
        if mb_weights.sum() <= 0.0:
            mb_weights = io_weights
        floating = [w for w in workloads if w.pin_tier is None]
        weights = np.ones((len(workloads), 1, len(TABLE_COLUMNS)))
        if workloads:
            weights[:, 0, 1] = io_weights / io_weights.sum()
            weights[:, 0, 2] = mb_weights / mb_weights.sum()
        pinned = tuple(k for k, w in enumerate(workloads) if w.pin_tier is not None)
        return cls(
            workloads=tuple(workloads),
            names=tuple(w.name for w in workloads),
            small_io=np.array([w.small_io_iops for w in workloads], dtype=np.float64),
            weights=weights,
            pinned=pinned,
            floating=tuple(k for k, w in enumerate(workloads) if w.pin_tier is None),
            floating_at=(
                np.array([k for k, w in enumerate(workloads) if w.pin_tier is None], dtype=np.intp)
                if pinned
                else slice(None)
            ),
            floating_gb=np.array([w.capacity_gb for w in floating], dtype=np.float64),
            floating_needed_gb=sum(w.capacity_gb for w in floating),
            floating_curves=_curve_groups(floating),
        )


class PoolPlacer:
    """`place_pool` for one pool's workloads on tiers given one setting at a time.

    What does not depend on the tiers' capacities and ceilings is done once: the media
    preferences' split, the workloads' figures as arrays (`_Members`) and Easy Tier's ranking
    of the extents (a search for a tier's load ceiling places the same workloads a dozen
    times, one ceiling after another).
    """

    def __init__(self, workloads: Sequence[WorkloadDemand], *, easy_tier: bool) -> None:
        self._workloads = tuple(workloads)
        self._easy_tier = easy_tier
        preferred = [
            w
            for w in self._workloads
            if w.preference is not None
            and w.preference.capacity_gb < w.capacity_gb * (1 - _REL_TOL)
        ]
        self._parts = {w.name: _preferred_parts(w) for w in preferred}
        expanded: list[WorkloadDemand] = []
        for w in self._workloads:
            if w.name in self._parts:
                expanded.extend(self._parts[w.name][:2])
            else:
                expanded.append(_whole_pin(w))
        self._expanded = _Members.of(expanded)
        self._members = _Members.of(self._workloads) if self._parts else self._expanded
        self._ranking: Ranking | None = None
        self._placed: dict[tuple[Tier, ...], PoolPlacement] = {}
        self._by_intervals: dict[tuple[object, ...], PoolPlacement] = {}

    def place(self, tiers: Sequence[Tier]) -> PoolPlacement:
        """The placement on `tiers` (`place_pool`), kept by the tiers (read-only: a placer
        from `placer_for` serves every configuration that places the same workloads, and a
        sizing search's candidates that differ in DA pairs or another pool place them on the
        same tiers)."""
        key = tuple(tiers)
        found = self._placed.get(key)
        if found is None:
            if len(self._placed) >= _PLACED_KEPT:
                self._placed.clear()
            found = self._placed[key] = self._place(tiers)
        return found

    def _place(self, tiers: Sequence[Tier]) -> PoolPlacement:
        placed = _place_pool(
            tiers,
            self._expanded,
            easy_tier=self._easy_tier,
            ranking=self._ranked,
            by_intervals=self._by_intervals,
        )
        if not self._parts:
            return placed
        # The expanded workloads' rows ([tiers, (capacity GB, small-I/O share, MB share)]),
        # the first of a name as a search by name finds it.
        row: dict[str, np.ndarray] = {}
        for name, held in zip(placed.names, placed.table[:, :, :3], strict=True):
            row.setdefault(name, held)
        table = np.zeros((len(self._workloads), len(tiers), len(TABLE_COLUMNS)))
        for k, w in enumerate(self._workloads):
            if w.name not in self._parts:
                table[k, :, :3] = row[w.name]
                continue
            head, tail, io, mb = self._parts[w.name]
            a, b = row[head.name], row[tail.name]
            table[k, :, 0] = a[:, 0] + b[:, 0]
            table[k, :, 1] = io * a[:, 1] + (1.0 - io) * b[:, 1]
            table[k, :, 2] = mb * a[:, 2] + (1.0 - mb) * b[:, 2]
        return _assemble(tiers, self._members, table, self._easy_tier)

    def _ranked(self, floating: Sequence[WorkloadDemand]) -> Ranking:
        """Easy Tier's ranking of the unpinned extents (the same workloads on every call)."""
        if self._ranking is None:
            self._ranking = ranked(floating)
        return self._ranking


_PLACED_KEPT = 256
_PLACERS_KEPT = 64
_placers: dict[tuple[object, ...], PoolPlacer] = {}
"""Placers (`placer_for`) by their workloads (compared with `==`) and whether Easy Tier ranks
them, each with the placements it made by tiers (`PoolPlacer.place`)."""


def placer_for(workloads: Sequence[WorkloadDemand], *, easy_tier: bool) -> PoolPlacer:
    """A `PoolPlacer` of `workloads`: the one made before for equal workloads (everything a
    placement reads of them, so every placement it made is theirs, to the bit), else a new
    one, kept. A workload whose curve cannot be hashed gets a placer of its own."""
    key = (easy_tier, tuple(workloads))
    try:
        found = _placers.get(key)
    except TypeError:
        return PoolPlacer(workloads, easy_tier=easy_tier)
    if found is None:
        if len(_placers) >= _PLACERS_KEPT:
            _placers.clear()
        found = _placers[key] = PoolPlacer(workloads, easy_tier=easy_tier)
    return found


def forget_placers() -> None:
    """Forget the kept placers (`_placers`): `model.layout.forget_placements` calls it."""
    _placers.clear()


def _whole_pin(w: WorkloadDemand) -> WorkloadDemand:
    """A preference for the whole workload is a pin."""
    pref = w.preference
    if pref is None or pref.capacity_gb < w.capacity_gb * (1 - _REL_TOL):
        return w
    return replace(w, pin_tier=pref.tier, preference=None)


def _place_pool(
    tiers: Sequence[Tier],
    members: _Members,
    *,
    easy_tier: bool,
    ranking: Callable[[Sequence[WorkloadDemand]], Ranking],
    by_intervals: dict[tuple[object, ...], PoolPlacement] | None = None,
) -> PoolPlacement:
    """`place_pool` for workloads without media preferences; `ranking` ranks the unpinned
    ones (`PoolPlacer` keeps the ranking of one set of workloads). With Easy Tier, the
    placement is kept in `by_intervals` (when given) by the tiers' names and ceilings and the
    ranking's intervals each tier holds: everything it reads of the tiers once they are cut
    (tiers of other capacities that cut the ranking alike, a sizing search's 15K tiers of
    12, 16 or 20 ranks beside one SSD tier, place the same data)."""
    if not tiers:
        raise ValueError("a pool needs at least one tier")
    names = [t.name for t in tiers]
    if len(set(names)) != len(names):
        raise ValueError(f"tier names must be unique in a pool, got {names}")
    workloads = members.workloads
    n = len(tiers)
    free = [t.capacity_gb for t in tiers]
    # [workloads, tiers, TABLE_COLUMNS]: the first three filled here, the last by `_assemble`.
    table = np.zeros((len(workloads), n, len(TABLE_COLUMNS)))

    for k in members.pinned:
        w = workloads[k]
        assert w.pin_tier is not None
        if w.pin_tier not in names:
            raise ValueError(
                f"workload {w.name!r} is pinned to tier {w.pin_tier!r}, which this pool lacks "
                f"(tiers: {', '.join(names)})"
            )
        t = names.index(w.pin_tier)
        if w.capacity_gb > free[t] * (1.0 + _REL_TOL):
            raise ValueError(
                f"workload {w.name!r} pinned to {w.pin_tier!r} needs {w.capacity_gb:g} GB, "
                f"only {free[t]:g} GB free there"
            )
        free[t] = max(free[t] - w.capacity_gb, 0.0)
        table[k, t, :3] = (w.capacity_gb, 1.0, 1.0)

    floating = [workloads[k] for k in members.floating]
    needed = members.floating_needed_gb
    if needed > sum(free) * (1.0 + _REL_TOL):
        raise ValueError(
            f"the pool's workloads need {needed:g} GB unpinned but only {sum(free):g} GB is free "
            f"({needed - sum(free):g} GB short)"
        )
    if floating and easy_tier:
        pinned_io = [0.0] * n
        for k in members.pinned:
            w = workloads[k]
            pinned_io[names.index(w.pin_tier)] += w.small_io_iops  # type: ignore[arg-type]
        ceilings = [
            None if t.small_io_ceiling_iops is None else t.small_io_ceiling_iops - pinned_io[i]
            for i, t in enumerate(tiers)
        ]
        ranked = ranking(floating)
        intervals = easy_tier_intervals(ranked, free, ceilings)
        if by_intervals is not None:
            key = (
                tuple((t.name, t.small_io_ceiling_iops) for t in tiers),
                tuple(map(tuple, intervals)),
            )
            found = by_intervals.get(key)
            if found is not None:
                return found
        tier_of = [t for t in range(n) for _ in intervals[t]]
        # Every interval's ends on every workload's own curve, [intervals, workloads].
        ends = np.array(
            [ranked.workload_prefix(x) for held in intervals for ends in held for x in ends]
        ).reshape(-1, 2, len(floating))
        # [intervals, workloads, (capacity GB, small-I/O share, MB share)]
        held = np.empty((ends.shape[0], ends.shape[2], 3))
        np.multiply(ends[:, 1] - ends[:, 0], members.floating_gb, out=held[:, :, 0])
        _io_and_mb_shares(members.floating_curves, ends, held[:, :, 1], held[:, :, 2])
        # Per tier, the sum of its intervals' values, in interval order.
        table[members.floating_at, :, :3] = _by_tier(held, tier_of, n).transpose(1, 0, 2)
        if by_intervals is not None:
            if len(by_intervals) >= _PLACED_KEPT:
                by_intervals.clear()
            placement = by_intervals[key] = _assemble(tiers, members, table, easy_tier)
            return placement
    elif floating:
        total_free = sum(free)
        fractions = [f / total_free for f in free]
        for k in members.floating:
            table[k, :, :3] = [(workloads[k].capacity_gb * f, f, f) for f in fractions]

    return _assemble(tiers, members, table, easy_tier)


def _by_tier(values: np.ndarray, tier_of: Sequence[int], tiers: int) -> np.ndarray:
    """Per tier, the sum of the values of its intervals, [tiers, ...] from [intervals, ...]:
    each tier's intervals added in their order to 0 (a float's sum, term by term)."""
    out = np.zeros((tiers, *values.shape[1:]))
    for i, t in enumerate(tier_of):
        out[t] += values[i]
    return out


def _io_and_mb_shares(
    groups: _CurveGroups,
    ends: np.ndarray,
    io: np.ndarray | None = None,
    mb: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """`w.skew.io_share(c_lo, c_hi)` and `w.mb_curve.io_share(c_lo, c_hi)` of every workload
    `w` for the ends of intervals on the workloads' own curves ([intervals, (c_lo, c_hi),
    workloads]), as [intervals, workloads]: each distinct pair of curves (`groups`: workloads
    with the same skew share one, 64 volumes of one database) evaluated once at every end of
    all its workloads (a share is elementwise), and an MB curve that follows the small-I/O
    curve (`MixtureSkew`, the derived one) from that curve's shares. A ceiling search places
    a pool a dozen times per load, each time for every workload. Written into `io` and `mb`
    where given."""
    shape = (ends.shape[0], ends.shape[2])
    io = np.empty(shape) if io is None else io
    mb = np.empty(shape) if mb is None else mb
    for skew, mb_curve, following, members in groups:
        held = ends[:, :, members]
        at = held.ravel()
        io_at = skew.share(at)
        if following:
            assert isinstance(mb_curve, MixtureSkew)
            mb_at = mb_curve.share_following(at, io_at)
        else:
            mb_at = mb_curve.share(at)
        io_at, mb_at = io_at.reshape(held.shape), mb_at.reshape(held.shape)
        io[:, members] = np.maximum(io_at[:, 1] - io_at[:, 0], 0.0)
        mb[:, members] = np.maximum(mb_at[:, 1] - mb_at[:, 0], 0.0)
    return io, mb


def _assemble(
    tiers: Sequence[Tier], members: _Members, table: np.ndarray, easy_tier: bool
) -> PoolPlacement:
    """Turn the per-workload shares [workloads, tiers, TABLE_COLUMNS] (the first three
    filled; the small I/O is filled here) into the placement, with pool totals and ceiling
    flags."""
    np.multiply(table[:, :, 1], members.small_io[:, None], out=table[:, :, 3])
    # The pool's sums over the workloads are running sums in workload order (a float's sum,
    # term by term), each column weighted (`_Members.weights`; a weight of 1 leaves a figure
    # as it is), all four at once: a pool of 64 workloads is assembled a dozen times per load.
    if table.shape[0] == 0:
        capacity = io_share = mb_share = tier_iops = [0] * len(tiers)  # sum([]), as before
    else:
        sums = np.cumsum(table * members.weights, axis=0)[-1]  # [tiers, TABLE_COLUMNS]
        capacity, io_share, mb_share, tier_iops = sums.T.tolist()
    totals = tuple(
        TierShare(
            tier=t.name,
            capacity_used_gb=capacity[i],
            small_io_share=float(io_share[i]),
            mb_share=float(mb_share[i]),
            small_io_iops=tier_iops[i],
            over_ceiling=t.small_io_ceiling_iops is not None
            and tier_iops[i] > t.small_io_ceiling_iops * (1.0 + _REL_TOL) + _REL_TOL,
        )
        for i, t in enumerate(tiers)
    )
    table.setflags(write=False)
    return PoolPlacement(easy_tier=easy_tier, tiers=totals, names=members.names, table=table)


def place_easy_tier(tiers: Sequence[Tier], workload: WorkloadDemand) -> WorkloadPlacement:
    """Easy Tier steady state for one workload alone in its pool."""
    return place_pool(tiers, [workload], easy_tier=True).workloads[0]


def place_capacity_proportional(
    tiers: Sequence[Tier], workload: WorkloadDemand
) -> WorkloadPlacement:
    """Easy Tier off, one workload: every tier gets its capacity share of the I/O and MB."""
    return place_pool(tiers, [workload], easy_tier=False).workloads[0]


def place_pinned(tiers: Sequence[Tier], workload: WorkloadDemand, tier: str) -> WorkloadPlacement:
    """The whole workload on one named tier."""
    pinned = replace(workload, pin_tier=tier, preference=None)
    return place_pool(tiers, [pinned], easy_tier=False).workloads[0]
