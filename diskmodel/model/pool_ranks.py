"""A pool's ranks by tier as installed (`PoolRanks`): what placing the pool reads of its ranks
whatever the load (each tier's ranks, their indices, kinds and DA pairs, and how a tier that
spreads by capacity splits), worked out once per configuration's ranks (`pool_ranks`) instead
of at every load a saturation search or a curve places the pool at.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from diskmodel.configuration import Rank
from diskmodel.model.rank_shares import TierCapacities, spreads_by_capacity


@dataclass(frozen=True)
class TierRanks:
    """One tier's ranks in rank order: their indices, kinds (drive and RAID format names,
    whether added), DA pairs (read-only), and their capacities where the tier spreads by
    capacity whatever its data (`spreads_by_capacity`), else None."""

    ranks: tuple[Rank, ...]
    indices: tuple[int, ...]
    kinds: tuple[tuple[str, str, bool], ...]
    da_pair: np.ndarray
    by_capacity: TierCapacities | None


@dataclass(frozen=True)
class PoolRanks:
    """A pool's ranks in rank order and by tier (`TierRanks`, tiers in the order their first
    rank comes)."""

    ranks: tuple[Rank, ...]
    tiers: dict[str, TierRanks]

    @classmethod
    def of(cls, ranks: tuple[Rank, ...], *, rebalanced: bool) -> PoolRanks:
        by_tier: dict[str, list[Rank]] = {}
        for r in ranks:
            by_tier.setdefault(r.tier, []).append(r)
        tiers = {}
        for t, held in by_tier.items():
            da_pair = np.array([r.da_pair for r in held])
            da_pair.setflags(write=False)
            tiers[t] = TierRanks(
                tuple(held),
                tuple(r.index for r in held),
                tuple((r.drive.name, r.raid.name, r.added) for r in held),
                da_pair,
                TierCapacities.of(held)
                if spreads_by_capacity(held, rebalanced=rebalanced)
                else None,
            )
        return cls(ranks, tiers)


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
