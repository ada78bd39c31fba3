"""What configurations resolved together share (`SharedParts`): a sizing search resolves one
scenario again and again, each time with other system options and rank groups, and the
pieces of its resolution that the choice does not change are resolved once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from diskmodel.cached import kept_by_identity
from diskmodel.catalog import Catalog, StorageSystem
from diskmodel.configuration.records import (
    Hardware,
    PoolConfig,
    Rank,
    ServiceLevelConfig,
    WorkloadConfig,
)
from diskmodel.prediction import Inputs
from diskmodel.scenario import (
    Application,
    Pool,
    RankGroup,
    RankPlacement,
    ServiceLevel,
    SystemConfig,
    Workload,
)
from diskmodel.scenario.ranks import group_places
from diskmodel.tiering.skew import SkewCurve

Front = tuple[Hardware, ServiceLevelConfig, Inputs]
"""A configuration's hardware, service level and inputs shown unshown (`SharedParts.front`)."""

SkewCurves = dict[tuple[object, ...], tuple[SkewCurve, SkewCurve | None]]
"""Skew curves already built from a description (`resolution._skew`), by (points, level,
sequential level): a calibration asks for one level again at every interval and at every point
it comes back to, and a curve keeps what placement computes from it (`SkewCurve.ranking_bins`)."""

HitRatios = Sequence[tuple[float, str]] | None


@dataclass(frozen=True)
class WorkloadsKey:
    """Everything a workload set's resolution reads (`resolution._workload`): the scenario's
    model workloads and application (held, so compared by identity), the hit ratios given (by
    their exact text, `repr`), the heat maps' folder and whether a map may be outside it."""

    given: tuple[Workload, ...]
    application: Application | None
    hits: tuple[tuple[str, str], ...] | None
    base_dir: Path | None
    allow_outside: bool

    def same_as(self, other: WorkloadsKey) -> bool:
        return (
            len(other.given) == len(self.given)
            and all(a is b for a, b in zip(other.given, self.given, strict=True))
            and other.application is self.application
            and other.hits == self.hits
            and other.base_dir == self.base_dir
            and other.allow_outside == self.allow_outside
        )


@dataclass
class SharedParts:
    """Pieces of the resolutions of configurations resolved together against `catalog` (a
    sizing search's: one scenario but for its system options and rank groups), each kept by
    everything it depends on, so that a configuration gets what its own resolution would
    make, the same values:

    - the skew curves built from a description (`SkewCurves`), by the description;
    - each rank as installed, by the system it is installed in (its drive's figures are that
      system's packaging, `Catalog.installed_drive`), where it sits (`RankPlacement`: its
      index, pool, drive, RAID format, DA pair and server) and whether it was added empty;
    - each rank group's ranks where the ranks are dealt round-robin, by the system, the
      group (pool, drive, RAID format, count, named DA pair, added) and where it starts
      (its first rank's index and DA pair, of how many): configurations of a search share
      most of their groups, and placing every rank again was half of a resolution;
    - each pool as configured, by its section (the same object: a search's configurations
      with the same rank choice share it, `size_offers.KeptSections`) and the system's name
      and Easy Tier generation (all else its resolution reads is the catalog's), `pool`;
    - the workloads as resolved, by the scenario's model workloads and application
      (the same objects: a search's configurations are validated from one scenario's
      sections, `size_offers.validated_base`), the hit ratios given (a cache size of its
      own projects them) and the heat maps' folder (`WorkloadsKey`);
    - an open configuration's hardware, service level and inputs resolved unshown, by its
      system and service level sections (the same objects, `front`).

    Bounded: each store is emptied when full (`KEPT`)."""

    catalog: Catalog
    curves: SkewCurves = field(default_factory=dict)
    ranks: dict[tuple[str, int, str, str, str, int, int, bool], Rank] = field(default_factory=dict)
    groups: dict[tuple[object, ...], tuple[Rank, ...]] = field(default_factory=dict)
    workloads: list[tuple[WorkloadsKey, tuple[WorkloadConfig, ...]]] = field(default_factory=list)
    fronts: dict[tuple[object, ...], tuple[tuple[object, ...], Front]] = field(default_factory=dict)
    pools: dict[tuple[object, ...], tuple[tuple[object, ...], PoolConfig]] = field(
        default_factory=dict
    )

    KEPT = 4096
    """Ranks, rank groups, pools and fronts kept at most (each store then all forgotten, and
    made again as asked)."""
    WORKLOADS_KEPT = 16
    """Resolved workload sets kept at most (one per cache size and heat-map folder)."""

    def rank(self, system: str, placement: RankPlacement, added: bool) -> Rank:
        """The rank at `placement` installed in `system` (made once)."""
        p = placement
        return self._rank(system, p.index, p.pool, p.drive, p.raid, p.da_pair, p.server, added)

    def group_ranks(
        self, system: str, pool: str, group: RankGroup, first: int, first_pair: int, pairs: int
    ) -> tuple[Rank, ...]:
        """The ranks of a group dealt round-robin (`scenario.ranks.group_places`), installed in
        `system`, each as `rank` makes it for its placement (made once)."""
        placed_from = (first, first_pair, pairs)
        key = (system, pool, group.drive, group.raid, group.count, group.da_pair, group.added)
        key_at = (*key, *placed_from)
        ranks = self.groups.get(key_at)
        if ranks is None:
            if len(self.groups) >= self.KEPT:
                self.groups.clear()
            drive, raid, added = group.drive, group.raid, group.added
            ranks = self.groups[key_at] = tuple(
                self._rank(system, index, pool, drive, raid, da_pair, server, added)
                for index, da_pair, server in group_places(group, first, first_pair, pairs)
            )
        return ranks

    def _rank(
        self,
        system: str,
        index: int,
        pool: str,
        drive: str,
        raid: str,
        da_pair: int,
        server: int,
        added: bool,
    ) -> Rank:
        """The rank at (index, pool, drive, RAID format, DA pair, server) installed in
        `system` (made once; kept by those, as plain values: a `RankPlacement` made to
        look one up was as dear as the lookup)."""
        key = (system, index, pool, drive, raid, da_pair, server, added)
        rank = self.ranks.get(key)
        if rank is None:
            if len(self.ranks) >= self.KEPT:
                self.ranks.clear()
            rank = self.ranks[key] = Rank(
                index=index,
                pool=pool,
                drive=self.catalog.installed_drive(system, drive),
                raid=self.catalog.raid_formats[raid],
                da_pair=da_pair,
                server=server,
                added=added,
            )
        return rank

    def pool(self, pool: Pool, system: StorageSystem, make: Callable[[], PoolConfig]) -> PoolConfig:
        """The pool as configured from its section `pool` in `system` (`resolution._pool`):
        `make()`'s for the first configuration with this section."""
        rest = (system.name, system.easy_tier_generation)
        return kept_by_identity(self.pools, (pool,), rest, self.KEPT, make)

    def front(self, system: SystemConfig, level: ServiceLevel, make: Callable[[], Front]) -> Front:
        """What an open configuration resolved unshown takes from its `system` and service
        `level` sections alone (`resolution._front`): `make()`'s for the first configuration
        with these sections (the same objects: a search's configurations share their system
        section, `size_offers.KeptSections`, and the base's service level)."""
        return kept_by_identity(self.fronts, (system, level), (), self.KEPT, make)

    def resolved_workloads(
        self,
        given: Sequence[Workload],
        application: Application | None,
        hit_ratios: HitRatios,
        base_dir: Path | None,
        allow_outside: bool,
    ) -> tuple[WorkloadsKey, tuple[WorkloadConfig, ...] | None]:
        """The key of these workloads' resolution and, where kept, the workloads resolved."""
        hits = None if hit_ratios is None else tuple((repr(h), text) for h, text in hit_ratios)
        key = WorkloadsKey(tuple(given), application, hits, base_dir, allow_outside)
        for kept, resolved in self.workloads:
            if kept.same_as(key):
                return key, resolved
        return key, None

    def keep_workloads(self, key: WorkloadsKey, resolved: tuple[WorkloadConfig, ...]) -> None:
        if len(self.workloads) >= self.WORKLOADS_KEPT:
            self.workloads.clear()
        self.workloads.append((key, resolved))
