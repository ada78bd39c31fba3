"""A pool's ranks by tier as installed (`PoolRanks`): what placing the pool reads of its ranks
whatever the load (each tier's ranks, their indices, kinds and DA pairs, and how a tier that
spreads by capacity splits), worked out once per configuration's ranks (`pool_ranks`) instead
of at every load a saturation search or a curve places the pool at.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from diskmodel.configuration import Rank
from diskmodel.model.rank_shares import TierCapacities, spreads_by_capacity


class TierRanks(NamedTuple):
    """One tier's ranks in rank order: their indices, kinds (drive and RAID format names,
    whether added), DA pairs (read-only), and their capacities where the tier spreads by
    capacity whatever its data (`spreads_by_capacity`), else None; and the tier's distinct
    (drive, RAID format) pairs in order of first appearance, with each rank's place among
    them (read-only: per-kind figures are gathered from it into per-rank arrays)."""

    ranks: tuple[Rank, ...]
    indices: tuple[int, ...]
    kinds: tuple[tuple[str, str, bool], ...]
    da_pair: np.ndarray
    by_capacity: TierCapacities | None
    drives: tuple[tuple[str, str], ...]
    drive_of: np.ndarray

    @classmethod
    def of(cls, ranks: list[Rank], *, rebalanced: bool) -> TierRanks:
        names = [(r.drive.name, r.raid.name) for r in ranks]
        drives: dict[tuple[str, str], int] = {}
        for name in names:
            if name not in drives:
                drives[name] = len(drives)
        da_pair = np.array([r.da_pair for r in ranks])
        da_pair.setflags(write=False)
        drive_of = np.array([drives[name] for name in names], dtype=np.intp)
        drive_of.setflags(write=False)
        return cls(
            tuple(ranks),
            tuple(r.index for r in ranks),
            tuple((*name, r.added) for name, r in zip(names, ranks, strict=True)),
            da_pair,
            TierCapacities.of(ranks) if spreads_by_capacity(ranks, rebalanced=rebalanced) else None,
            tuple(drives),
            drive_of,
        )


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


_KEPT = 256
_kept: dict[tuple[int, str, bool], tuple[tuple[Rank, ...], PoolRanks]] = {}
"""`PoolRanks` by the identity of a configuration's ranks (held beside, so that the identity
is not reused while kept), the pool's name and whether Easy Tier rebalances it."""


def pool_ranks(all_ranks: tuple[Rank, ...], pool: str, *, rebalanced: bool) -> PoolRanks:
    """The ranks of `pool` among a configuration's `all_ranks` (`PoolRanks`), kept: every load
    of one configuration asks for the same."""
    key = (id(all_ranks), pool, rebalanced)
    found = _kept.get(key)
    if found is not None and found[0] is all_ranks:
        return found[1]
    made = PoolRanks.of(tuple(r for r in all_ranks if r.pool == pool), rebalanced=rebalanced)
    if len(_kept) >= _KEPT:
        _kept.clear()
    _kept[key] = (all_ranks, made)
    return made


def forget_pool_ranks() -> None:
    """Forget the kept `PoolRanks` (`_kept`): `pool_load.forget_work` calls it."""
    _kept.clear()
