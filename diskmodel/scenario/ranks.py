"""Rank expansion: every rank of a scenario placed on a DA pair and a server, and pool sizes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from diskmodel.catalog import Catalog

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Scenario
    from diskmodel.scenario.storage import Pool


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

    Ranks with an explicit `da_pair` go there. The others follow `system.rank_placement`:

    - `round_robin` (the default): dealt round-robin in file order over the DA pairs, the way
      IBM's configuration guidance spreads array sites, and rank i is owned by server i % 2,
      which alternates ranks between the two servers as recommended.
    - `balanced`: each drive type's ranks are dealt on their own, each to the DA pair holding
      the fewest ranks of that type, then the fewest ranks, then the lowest number; servers
      likewise. Every drive type is then as even over the DA pairs and the servers as its count
      allows (an odd count over two differs by one, never more), whatever the file order: where
      round-robin can put both SSD ranks of two small pools on one DA pair and one server.
    """
    if scenario.system.rank_placement == "balanced":
        return _balanced(scenario)
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


def _balanced(scenario: Scenario) -> list[RankPlacement]:
    """`rank_placement: balanced` (`expand_ranks`): the ranks a group places on a named DA
    pair are counted first, then the others are dealt in file order."""
    pairs = scenario.system.da_pairs
    groups = [(pool.name, group) for pool in scenario.pools for group in pool.ranks]
    on_pair = [0] * pairs
    type_on_pair: dict[str, list[int]] = defaultdict(lambda: [0] * pairs)
    for _, group in groups:
        if group.da_pair is not None:
            on_pair[group.da_pair] += group.count
            type_on_pair[group.drive][group.da_pair] += group.count
    on_server = [0, 0]
    type_on_server: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    placed: list[RankPlacement] = []
    for pool, group in groups:
        mine_pair, mine_server = type_on_pair[group.drive], type_on_server[group.drive]
        for _ in range(group.count):
            if group.da_pair is not None:
                da_pair = group.da_pair
            else:
                da_pair = min(range(pairs), key=lambda i: (mine_pair[i], on_pair[i], i))
                mine_pair[da_pair] += 1
                on_pair[da_pair] += 1
            server = min((0, 1), key=lambda i: (mine_server[i], on_server[i], i))
            mine_server[server] += 1
            on_server[server] += 1
            placed.append(
                RankPlacement(len(placed), pool, group.drive, group.raid, da_pair, server)
            )
    return placed


def pool_capacity_gb(pool: Pool, catalog: Catalog) -> float:
    """Usable capacity of a pool: each rank's data drives times the drive's capacity."""
    return sum(
        g.count * catalog.raid_formats[g.raid].data_drives * catalog.drives[g.drive].capacity_gb
        for g in pool.ranks
    )
