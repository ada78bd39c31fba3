"""Rank expansion: every rank of a scenario placed on a DA pair and a server, and pool sizes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from diskmodel.catalog import Catalog

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Pool, Scenario


@dataclass(frozen=True)
class RankPlacement:
    """Where one rank sits: its pool, drive, RAID format, DA pair and owning server."""

    index: int  # position among all ranks of the system, in file order
    pool: str
    drive: str
    raid: str
    da_pair: int
    server: int


def expand_ranks(scenario: Scenario) -> list[RankPlacement]:
    """Every rank of the system, placed on a DA pair and a server.

    Ranks with an explicit `da_pair` go there; the others are dealt round-robin in file order
    over the DA pairs, the way IBM's configuration guidance spreads array sites. Rank i is
    owned by server i % 2, which alternates ranks between the two servers as recommended.
    """
    pairs = scenario.system.da_pairs
    placed: list[RankPlacement] = []
    next_pair = 0
    for pool in scenario.pools:
        for group in pool.ranks:
            for _ in range(group.count):
                if group.da_pair is not None:
                    da_pair = group.da_pair
                else:
                    da_pair, next_pair = next_pair, (next_pair + 1) % pairs
                index = len(placed)
                placed.append(
                    RankPlacement(index, pool.name, group.drive, group.raid, da_pair, index % 2)
                )
    return placed


def pool_capacity_gb(pool: Pool, catalog: Catalog) -> float:
    """Usable capacity of a pool: each rank's data drives times the drive's capacity."""
    return sum(
        g.count * catalog.raid_formats[g.raid].data_drives * catalog.drives[g.drive].capacity_gb
        for g in pool.ranks
    )
