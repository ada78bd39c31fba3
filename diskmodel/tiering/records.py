"""What placing a pool's data takes and gives (`tiering.placement`): the pool's tiers, fastest
first, with their capacities and load ceilings, and each workload's demand (capacity, back-end
small I/O, MB/s, skew curves, pin or media preference) in; each workload's and the pool's share
of every tier out. Plain numbers, frozen dataclasses; no pydantic, no hardware knowledge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from diskmodel.cached import cached_property
from diskmodel.tiering.curves import derived_mb_curve
from diskmodel.tiering.skew import UNIFORM, SkewCurve


@dataclass(frozen=True)
class Tier:
    """One tier of a pool: usable capacity and an optional small-I/O load ceiling.

    ``small_io_ceiling_iops``: back-end small random I/Os per second the tier may take before it
    would become the bottleneck (None: no limit, placement by capacity alone).
    """

    name: str
    capacity_gb: float
    small_io_ceiling_iops: float | None = None

    def __post_init__(self) -> None:
        # math, not numpy: a ceiling search makes a dozen tiers per load.
        if not (math.isfinite(self.capacity_gb) and self.capacity_gb >= 0.0):
            raise ValueError(
                f"tier {self.name!r}: capacity_gb must be >= 0, got {self.capacity_gb}"
            )
        ceiling = self.small_io_ceiling_iops
        if ceiling is not None and not (ceiling >= 0.0):
            raise ValueError(
                f"tier {self.name!r}: small_io_ceiling_iops must be >= 0, got {ceiling}"
            )


@dataclass(frozen=True)
class Preference:
    """Media preference: `capacity_gb` of a workload held on `tier`, carrying `io_share` of its
    small I/O (None: the share the workload's curve gives its hottest `capacity_gb`)."""

    tier: str
    capacity_gb: float
    io_share: float | None = None


@dataclass(frozen=True)
class WorkloadDemand:
    """What placement needs to know about one workload in the pool.

    ``small_io_iops``: back-end small random I/Os per second (read misses and destage
    operations; cache hits never reach a tier). Only ratios between workloads and the tiers'
    ceilings use it, so a single workload without ceilings may leave it at 1.
    ``mb_s``: MB per second transferred, to weight the pool's MB shares across workloads.
    ``mb_skew``: the MB curve ranked by small-I/O heat; None derives it from ``skew``
    (:func:`diskmodel.tiering.curves.derived_mb_curve`).
    ``heat_iops``: the rate the extents are ranked by, where it is not the back-end small I/O
    (a host that places its own data counts its reads, cache hits included); None: the
    back-end small I/O, as Easy Tier counts.
    """

    name: str
    capacity_gb: float
    small_io_iops: float = 1.0
    mb_s: float = 0.0
    skew: SkewCurve = UNIFORM
    mb_skew: SkewCurve | None = None
    pin_tier: str | None = None
    preference: Preference | None = None
    heat_iops: float | None = None

    def __post_init__(self) -> None:
        # math, not numpy: a placement search makes every workload's demand at every load.
        if not (math.isfinite(self.capacity_gb) and self.capacity_gb > 0.0):
            raise ValueError(
                f"workload {self.name!r}: capacity_gb must be > 0, got {self.capacity_gb}"
            )
        if not (math.isfinite(self.small_io_iops) and self.small_io_iops >= 0.0):
            raise ValueError(f"workload {self.name!r}: small_io_iops must be >= 0")
        if not (math.isfinite(self.mb_s) and self.mb_s >= 0.0):
            raise ValueError(f"workload {self.name!r}: mb_s must be >= 0")
        if not self.skew.is_concave:
            raise ValueError(
                f"workload {self.name!r}: the small-I/O skew curve must be concave "
                "(extents ranked hottest first)"
            )

    @cached_property
    def mb_curve(self) -> SkewCurve:
        return self.mb_skew if self.mb_skew is not None else derived_mb_curve(self.skew)


@dataclass(frozen=True)
class TierShare:
    """What one tier holds of a workload (or of the whole pool)."""

    tier: str
    capacity_used_gb: float
    small_io_share: float
    mb_share: float
    small_io_iops: float
    #: True when the tier's small I/O (all workloads) exceeds its load ceiling.
    over_ceiling: bool = False


@dataclass(frozen=True)
class WorkloadPlacement:
    """One workload's shares, one entry per tier of the pool in the pool's order."""

    workload: str
    tiers: tuple[TierShare, ...]

    def on(self, tier: str) -> TierShare:
        for share in self.tiers:
            if share.tier == tier:
                return share
        raise KeyError(f"no tier {tier!r} in placement of {self.workload!r}")


#: The columns of `PoolPlacement.table`, in order.
TABLE_COLUMNS = ("capacity_used_gb", "small_io_share", "mb_share", "small_io_iops")


@dataclass(frozen=True, eq=False)
class PoolPlacement:
    """Placement of every workload of a pool, and the pool's totals per tier.

    The workloads' shares are kept as one array (`table`: [workloads, tiers, TABLE_COLUMNS],
    read-only, workloads in `names`' order, tiers in the pool's) and made into
    `WorkloadPlacement`s only when asked for: a search for a tier's load ceiling places a
    pool of 64 workloads some ten times per load and reads most placements only as columns
    (`column`). Workloads whose rows are the same, bit for bit (64 volumes of one database),
    share one tuple of `TierShare`s.
    """

    easy_tier: bool
    tiers: tuple[TierShare, ...]
    names: tuple[str, ...] = ()
    table: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, len(TABLE_COLUMNS))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PoolPlacement):
            return NotImplemented
        return (self.easy_tier, self.tiers, self.workloads) == (
            other.easy_tier,
            other.tiers,
            other.workloads,
        )

    __hash__ = None  # type: ignore[assignment]  # equal by value, and it holds an array

    def __repr__(self) -> str:
        return (
            f"PoolPlacement(easy_tier={self.easy_tier!r}, tiers={self.tiers!r}, "
            f"workloads={self.workloads!r})"
        )

    @cached_property
    def workloads(self) -> tuple[WorkloadPlacement, ...]:
        """Each workload's shares, in `names`' order."""
        table = self.table
        count, n = table.shape[0], len(self.tiers)
        names = [t.tier for t in self.tiers]
        over = [t.over_ceiling for t in self.tiers]
        rows = table.reshape(count, -1)
        row_bytes = rows.tobytes()
        width = rows.shape[1] * rows.itemsize
        made: dict[bytes, tuple[TierShare, ...]] = {}
        out = []
        for k, name in enumerate(self.names):
            key = row_bytes[k * width : (k + 1) * width]
            held = made.get(key)
            if held is None:
                row = rows[k].tolist()
                held = made[key] = tuple(
                    TierShare(
                        tier=names[t],
                        capacity_used_gb=row[4 * t],
                        small_io_share=row[4 * t + 1],
                        mb_share=row[4 * t + 2],
                        small_io_iops=row[4 * t + 3],
                        over_ceiling=over[t],
                    )
                    for t in range(n)
                )
            out.append(WorkloadPlacement(workload=name, tiers=held))
        return tuple(out)

    @cached_property
    def _by_name(self) -> dict[str, WorkloadPlacement]:
        # The first of a name, as a search in order would find it.
        out: dict[str, WorkloadPlacement] = {}
        for placement in self.workloads:
            out.setdefault(placement.workload, placement)
        return out

    def workload(self, name: str) -> WorkloadPlacement:
        """The placement of workload `name` (a dict look-up: a pool of 64 workloads is asked
        for each of them per tier and rank, thousands of times a placement search)."""
        found = self._by_name.get(name)
        if found is None:
            raise KeyError(f"no workload {name!r} in this pool placement")
        return found

    def on(self, tier: str) -> TierShare:
        for share in self.tiers:
            if share.tier == tier:
                return share
        raise KeyError(f"no tier {tier!r} in this pool placement")

    def column(self, tier: str, what: str) -> np.ndarray:
        """One figure of every workload on `tier` (`what`: one of `TABLE_COLUMNS`), in
        `names`' order, read-only: what the workloads' `on(tier)` would give, as an array."""
        for t, share in enumerate(self.tiers):
            if share.tier == tier:
                return self.table[:, t, TABLE_COLUMNS.index(what)]
        raise KeyError(f"no tier {tier!r} in this pool placement")
