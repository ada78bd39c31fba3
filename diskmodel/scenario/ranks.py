"""Rank expansion: every rank of a scenario placed on a DA pair and a server, and pool sizes."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from diskmodel.catalog import Catalog

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Scenario
    from diskmodel.scenario.storage import Pool, RankGroup


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
    return [
        RankPlacement(index, pool.name, group.drive, group.raid, da_pair, server)
        for pool, group, first, first_pair in round_robin_groups(scenario)
        for index, da_pair, server in group_places(group, first, first_pair, pairs)
    ]


def round_robin_groups(scenario: Scenario) -> Iterator[tuple[Pool, RankGroup, int, int]]:
    """Each rank group of a `round_robin` system in file order (`expand_ranks`), with the index
    of its first rank and the DA pair its first rank is dealt to (where the group names none):
    what places its ranks (`group_places`), so that a search that places one group in
    many configurations can place it once."""
    pairs = scenario.system.da_pairs
    first = first_pair = 0
    for pool in scenario.pools:
        for group in pool.ranks:
            yield pool, group, first, first_pair
            first += group.count
            if group.da_pair is None:
                first_pair = (first_pair + group.count) % pairs


def group_places(
    group: RankGroup, first: int, first_pair: int, pairs: int
) -> list[tuple[int, int, int]]:
    """Where the ranks of one group of a `round_robin` system sit (`round_robin_groups`): each
    rank's (index, DA pair, server): on the group's named DA pair, or dealt round-robin from
    `first_pair` over `pairs`; rank i owned by server i % 2."""
    named = group.da_pair
    return [
        (index, named if named is not None else (first_pair + i) % pairs, index % 2)
        for i, index in enumerate(range(first, first + group.count))
    ]


def ranks_per_da_pair(scenario: Scenario) -> dict[int, int]:
    """The ranks `expand_ranks` places on each DA pair (a pair it places none on may be
    absent, or 0), counted without placing each rank where the ranks are dealt round-robin:
    a group dealt from pair p over P pairs puts count // P on each, and one more on the
    count % P pairs from p on."""
    if scenario.system.rank_placement == "balanced":
        return dict(Counter(r.da_pair for r in _balanced(scenario)))
    pairs = scenario.system.da_pairs
    counts = dict.fromkeys(range(pairs), 0)
    for _, group, _, first_pair in round_robin_groups(scenario):
        if group.da_pair is not None:
            counts[group.da_pair] = counts.get(group.da_pair, 0) + group.count
            continue
        each, more = divmod(group.count, pairs)
        for k in range(pairs):
            counts[k] += each + ((k - first_pair) % pairs < more)
    return counts


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
