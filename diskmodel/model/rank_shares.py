"""How one tier's data and small I/O spread over its ranks (docs/model.md §5): by capacity
where Easy Tier does not rebalance (or the ranks are alike), else by auto-rebalance
(`tiering.rebalance`) from the data as rotate extents left it, ranks of one kind with the same
data rebalanced as one group. Each rank gets its share of the tier's small I/O and data and
the span its data occupy (`RankShare`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from diskmodel.configuration import Rank
from diskmodel.tiering.rebalance import RankBefore, rebalance, spread_by_rotation
from diskmodel.tiering.skew import SkewCurve

# Occupied fraction used for a rank that holds no data (it receives no I/O either; any valid
# fraction will do, it only keeps the seek formula's domain).
EMPTY_FRACTION = 1e-3
# A tier's data below this fraction of its capacity is placement rounding, not data.
_NO_DATA = 1e-12


@dataclass(frozen=True)
class RankShare:
    """A rank's part of its tier: of the tier's small I/O, of its data (the MB/s follow the
    data), and the span its data occupy (fraction of the rank's capacity: short-stroking)."""

    small_io_share: float
    data_share: float
    span_fraction: float


def _span(used_gb: float, capacity_gb: float) -> float:
    return min(max(used_gb / capacity_gb, EMPTY_FRACTION), 1.0)


def data_before_rebalance(ranks: Sequence[Rank], used_gb: float) -> list[float]:
    """Data per rank before auto-rebalance: on the original ranks by rotate extents (water-
    filled by capacity); what they cannot hold on the added ranks the same way."""
    original = [i for i, r in enumerate(ranks) if not r.added] or list(range(len(ranks)))
    added = [i for i in range(len(ranks)) if i not in original]
    on_original = min(used_gb, sum(ranks[i].capacity_gb for i in original))
    data = [0.0] * len(ranks)
    for i, gb in zip(
        original,
        spread_by_rotation(on_original, [ranks[i].capacity_gb for i in original]),
        strict=True,
    ):
        data[i] = gb
    rest = used_gb - on_original
    if added and rest > 0.0:
        caps = [ranks[i].capacity_gb for i in added]
        for i, gb in zip(added, spread_by_rotation(min(rest, sum(caps)), caps), strict=True):
            data[i] = gb
    return data


class TierCapacities(NamedTuple):
    """A tier's ranks' indices and usable GB in rank order, their sum, each rank's share of
    the tier's small I/O and data as an array (`fractions`: the same at every placement;
    read-only),
    and whether all have one capacity (one share): what a split by capacity needs (kept per
    pool: a ceiling search splits its tiers at every probe)."""

    indices: tuple[int, ...]
    capacities_gb: tuple[float, ...]
    total_gb: float
    fractions: np.ndarray
    alike: bool

    @classmethod
    def of(cls, ranks: Sequence[Rank]) -> TierCapacities:
        # Gathered in C-level passes (`attrgetter`), the record a tuple: a sizing search
        # splits a pool of two dozen ranks anew for every configuration it tries. numpy's
        # division rounds as Python's.
        caps = tuple(map(_CAPACITY, ranks))
        total = sum(caps)
        fractions = np.array(caps) / total if caps else np.zeros(0)
        fractions.setflags(write=False)
        return cls(
            tuple(map(_INDEX, ranks)),
            caps,
            total,
            fractions,
            bool(caps) and caps.count(caps[0]) == len(caps),
        )

    def shares(self, used_gb: float) -> dict[int, RankShare]:
        """Each rank's share when the tier's I/O and data follow capacity, on the tier's
        occupied fraction (one share per capacity)."""
        capacity = self.total_gb
        span = _span(used_gb, capacity)
        caps = self.capacities_gb
        if self.alike:  # one share for all (a ceiling search splits at every probe)
            share = caps[0] / capacity
            return dict.fromkeys(self.indices, RankShare(share, share, span))
        made: dict[float, RankShare] = {}
        for gb in caps:
            if gb not in made:
                made[gb] = RankShare(gb / capacity, gb / capacity, span)
        return {i: made[gb] for i, gb in zip(self.indices, caps, strict=True)}


_CAPACITY = attrgetter("capacity_gb")
_INDEX = attrgetter("index")


def _by_capacity(ranks: Sequence[Rank], used_gb: float) -> dict[int, RankShare]:
    """Each rank's share when the tier's I/O and data follow capacity (`TierCapacities`)."""
    return TierCapacities.of(ranks).shares(used_gb)


def spreads_by_capacity(ranks: Sequence[Rank], *, rebalanced: bool) -> bool:
    """True when the tier ends as capacity spreads it whatever its data: no auto-rebalance,
    one rank, or identical ranks none of which was added (with the same data they are
    equally busy already)."""
    return spreads_by_capacity_of(
        len({(r.drive.name, r.raid.name) for r in ranks}),
        any(r.added for r in ranks),
        len(ranks),
        rebalanced=rebalanced,
    )


def spreads_by_capacity_of(kinds: int, added: bool, ranks: int, *, rebalanced: bool) -> bool:
    """`spreads_by_capacity` of a tier of `ranks` ranks of `kinds` (drive, RAID format) pairs,
    some `added` or none."""
    return not rebalanced or (kinds == 1 and not added) or ranks == 1


def split_tier(
    ranks: Sequence[Rank],
    used_gb: float,
    skew: SkewCurve,
    service: Callable[[Rank, float], float],
    *,
    rebalanced: bool,
) -> dict[int, RankShare]:
    """Each rank's share of one tier's small I/O and data, and its span (module docstring).

    service(rank, span): busy time of one of its drives per small I/O (the rebalance target).
    """
    capacity = sum(r.capacity_gb for r in ranks)
    # A tier holding (to rounding) no data has nothing to rebalance.
    if spreads_by_capacity(ranks, rebalanced=rebalanced) or used_gb <= _NO_DATA * capacity:
        return _by_capacity(ranks, used_gb)
    data_before = data_before_rebalance(ranks, used_gb)
    if sum(data_before) <= _NO_DATA * capacity:
        return _by_capacity(ranks, used_gb)

    # Ranks of one kind holding the same data end alike (the rebalance is symmetric in them),
    # so each such group is rebalanced as one rank of m times the capacity, data and I/O whose
    # busy time per I/O is one member's over m: the same spans and utilisations, with a
    # rebalance over kinds instead of ranks (90 SSD ranks of two RAID formats: 2 groups).
    groups: dict[tuple[str, str, bool, float], list[Rank]] = {}
    for r, gb in zip(ranks, data_before, strict=True):
        groups.setdefault((r.drive.name, r.raid.name, r.added, gb), []).append(r)

    def timed(rank: Rank, members: int) -> Callable[[float], float]:
        return lambda span: service(rank, max(span, EMPTY_FRACTION)) / members

    before = [
        RankBefore(
            str(i),
            len(g) * g[0].capacity_gb,
            len(g) * min(key[3], g[0].capacity_gb),
            timed(g[0], len(g)),
        )
        for i, (key, g) in enumerate(groups.items())
    ]
    result = rebalance(before, 1.0, skew)
    total_gb = sum(load.data_gb for load in result.ranks)
    out: dict[int, RankShare] = {}
    for g, load in zip(groups.values(), result.ranks, strict=True):
        share = RankShare(
            load.small_io_share / len(g),
            load.data_gb / total_gb / len(g),
            min(max(load.span_fraction, EMPTY_FRACTION), 1.0),
        )
        out.update((r.index, share) for r in g)
    return out
