"""A pool's ranks by tier as installed (`PoolRanks`): what placing the pool reads of its ranks
whatever the load (each tier's ranks, their indices, distinct drive kinds and DA pairs, and
how a tier that spreads by capacity splits), worked out once per pool at a load and lent to
the same pool at the same rates of configurations that differ in the skew curves
(`pool_load.pools_at`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from diskmodel.configuration import Rank
from diskmodel.model.rank_shares import TierCapacities, spreads_by_capacity_of


class TierRanks(NamedTuple):
    """One tier's ranks in rank order: their indices, DA pairs (read-only), and their
    capacities where the tier spreads by capacity whatever its data (`spreads_by_capacity`),
    else None; and the tier's distinct (drive, RAID format) pairs in order of first
    appearance, the first rank of each, and each rank's place among them (read-only:
    per-kind figures are gathered from it into per-rank arrays)."""

    ranks: tuple[Rank, ...]
    indices: tuple[int, ...]
    da_pair: np.ndarray
    by_capacity: TierCapacities | None
    drives: tuple[tuple[str, str], ...]
    firsts: tuple[Rank, ...]
    drive_of: np.ndarray

    @classmethod
    def of(cls, ranks: list[Rank], *, rebalanced: bool) -> TierRanks:
        """The tier of `ranks`: the one made before for the same rank objects (`_tiers`),
        else made and kept."""
        key = (rebalanced, *map(id, ranks))
        found = _tiers.get(key)
        if found is None:
            if len(_tiers) >= _TIERS_KEPT:
                _tiers.clear()
            found = _tiers[key] = cls._made(ranks, rebalanced=rebalanced)
        return found

    @classmethod
    def _made(cls, ranks: list[Rank], *, rebalanced: bool) -> TierRanks:
        firsts: dict[tuple[str, str], Rank] = {}
        added = False
        for r in ranks:
            firsts.setdefault((r.drive.name, r.raid.name), r)
            added = added or r.added
        if len(firsts) == 1:
            drive_of = np.zeros(len(ranks), dtype=np.intp)
        else:
            place = {name: k for k, name in enumerate(firsts)}
            drive_of = np.array([place[(r.drive.name, r.raid.name)] for r in ranks], np.intp)
        drive_of.setflags(write=False)
        da_pair = np.array([r.da_pair for r in ranks])
        da_pair.setflags(write=False)
        return cls(
            tuple(ranks),
            tuple([r.index for r in ranks]),
            da_pair,
            TierCapacities.of(ranks)
            if spreads_by_capacity_of(len(firsts), added, len(ranks), rebalanced=rebalanced)
            else None,
            tuple(firsts),
            tuple(firsts.values()),
            drive_of,
        )


_TIERS_KEPT = 256
_tiers: dict[tuple[object, ...], TierRanks] = {}
"""Tiers' ranks (`TierRanks.of`) by whether their pool rebalances and the ranks' identities
(each held by its `TierRanks`, so no identity is reused while it is kept; a rank is frozen):
a sizing search's configurations share their ranks as installed
(`configuration.shared.SharedParts`), and half of them repeat another's tier whole (another
count of SSD ranks beside the same 15K ranks), which is then not gathered again."""


def forget_tier_ranks() -> None:
    """Forget the kept tiers (`_tiers`): `model.layout.forget_placements` calls it."""
    _tiers.clear()


class PoolRanks(NamedTuple):
    """A pool's ranks in rank order and by tier (`TierRanks`, tiers in the order their first
    rank comes)."""

    ranks: tuple[Rank, ...]
    tiers: dict[str, TierRanks]

    @classmethod
    def of(cls, ranks: tuple[Rank, ...], *, rebalanced: bool) -> PoolRanks:
        by_tier: dict[str, list[Rank]] = {}
        for r in ranks:
            by_tier.setdefault(r.drive.tier, []).append(r)
        return cls(
            ranks,
            {t: TierRanks.of(held, rebalanced=rebalanced) for t, held in by_tier.items()},
        )
