"""A sizing space (`analyses.size`) as arrays: every configuration offered is a row of option
indices, one per choice, never a scenario of its own until the search decides to solve it.

Rows are in the search's job order: the current configuration first, then the product of the
options (`itertools.product` order, the last choice fastest) without the current one, as the
per-configuration search numbers them (`size._jobs`). From the rows come, for every
configuration at once, what the bounds need (rank counts per kind, DA pairs, host ports, the
system model and the processor and cache option) and its cost: installed drives, their power
and its price, summed term by term in the order `size_offers.configuration_cost` sums them for
the configuration's own scenario, so that the two agree to the last bit
(tests/analyses/test_sizing_batch.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from diskmodel.analyses.size_offers import (
    current_choices,
    offered_choices,
    rank_label,
    variant_data,
)
from diskmodel.cached import cached_property
from diskmodel.catalog import Catalog
from diskmodel.prediction import Choice
from diskmodel.scenario import Scenario

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class RankSlot:
    """One rank group of a configuration's scenario, in the order its pools list them: a group
    the file fixes (`count`) or a sized kind (`axis`, the choice that gives its count)."""

    pool: str
    drive: str
    raid: str
    count: int
    axis: int | None


def rank_slots(scenario: Scenario) -> tuple[RankSlot, ...]:
    """The rank groups of every configuration, in the order `size_offers.variant_data` writes
    them (a sized kind at its first group in the file, kinds the file lacks after the pool's
    groups); a sized kind at count 0 is a slot that adds nothing."""
    size = scenario.analyses.size
    assert size is not None
    names, _ = offered_choices(scenario)
    out: list[RankSlot] = []
    for pool in scenario.pools:
        sized = [g for g in size.ranks if g.pool == pool.name]
        kinds = {(g.drive, g.raid) for g in sized}
        done: set[tuple[str, str]] = set()
        in_file = [((g.drive, g.raid), g.count) for g in pool.ranks]
        for kind, count in [*in_file, *(((g.drive, g.raid), 0) for g in sized)]:
            if kind not in kinds:
                out.append(RankSlot(pool.name, kind[0], kind[1], count, None))
            elif kind not in done:
                done.add(kind)
                axis = names.index(rank_label(pool.name, *kind))
                out.append(RankSlot(pool.name, kind[0], kind[1], 0, axis))
    return tuple(out)


class OfferedSpace:
    """Every configuration `scenario.analyses.size` offers, as option indices [N, A]."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        names, options = offered_choices(scenario)
        current = current_choices(scenario, names)
        # Each choice's values: its options, and the current value after them if it is not one.
        self.names = tuple(names)
        self.values: tuple[tuple[Any, ...], ...] = tuple(
            tuple(opts) + (() if current[name] in opts else (current[name],))
            for name, opts in zip(names, options, strict=True)
        )
        sizes = [len(opts) for opts in options]
        product = int(np.prod(sizes, dtype=np.int64)) if sizes else 1
        grid = np.indices(sizes, dtype=np.int64).reshape(len(sizes), product).T
        here = np.array([self.values[a].index(current[n]) for a, n in enumerate(names)])
        at = np.flatnonzero((grid == here[None, :]).all(axis=1))
        if at.size:
            grid = np.delete(grid, int(at[0]), axis=0)
        self.index: IntArray = np.vstack([here[None, :], grid])
        self.current = here
        self.slots = rank_slots(scenario)
        self._base = scenario.model_dump(mode="python")

    def __len__(self) -> int:
        return int(self.index.shape[0])

    def axis(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None

    def numbers(self, a: int, rows: IntArray | slice = slice(None)) -> FloatArray:
        """Choice `a`'s value per configuration (numeric choices only)."""
        table = np.array(self.values[a], dtype=np.float64)
        return table[self.index[rows, a]]

    def system(self, key: str, rows: IntArray | slice = slice(None)) -> NDArray[Any]:
        """`system.<key>` per configuration: the chosen value, or the scenario's own."""
        a = self.axis(key)
        n = len(self.index[rows, 0])
        if a is None:
            return np.full(n, getattr(self.scenario.system, key), dtype=object)
        table = np.empty(len(self.values[a]), dtype=object)
        table[:] = self.values[a]
        return table[self.index[rows, a]]

    def choice(self, i: int) -> Choice:
        return self.choices(np.array([i]))[0]

    def choices(self, rows: IntArray) -> list[Choice]:
        """`choice` of each configuration of `rows`, gathered a choice at a time from its
        shared pairs (`_pairs`), since a numpy lookup per configuration and choice cost more
        than the tuple it went into (the batched search names every configuration it skips:
        30% of its own time on a 10^6 space, 974,000 of them)."""
        index = self.index[rows]
        columns = [pairs[index[:, a]].tolist() for a, pairs in enumerate(self._pairs)]
        return list(zip(*columns, strict=True)) if columns else [()] * len(index)

    @cached_property
    def _pairs(self) -> tuple[NDArray[np.object_], ...]:
        """Per choice, its (name, value) pair for each option, as an object array: shared by
        every configuration that takes it, so a configuration's `choice` is one tuple of
        them, gathered a choice at a time (0.23 s for 10^6 configurations, against 1.7 s
        looked up one by one)."""
        out = []
        for name, values in zip(self.names, self.values, strict=True):
            pairs = np.empty(len(values), dtype=object)
            for k, value in enumerate(values):
                pairs[k] = (name, value)  # one by one: a list of tuples would fill a 2-D array
            out.append(pairs)
        return tuple(out)

    def chosen(self, i: int) -> dict[str, float | str]:
        return dict(self.choice(i))

    def data(self, i: int) -> dict[str, Any]:
        """Configuration `i`'s scenario data (to be validated before it is solved)."""
        return variant_data(self._base, self.scenario, self.chosen(i))

    def upgrade(self) -> NDArray[np.bool_]:
        """Per configuration: it has no less of any choice than the current one (the same model),
        `prediction.no_more`."""
        out = np.ones(len(self), dtype=bool)
        for a, values in enumerate(self.values):
            if any(isinstance(v, str) for v in values):
                out &= self.index[:, a] == self.current[a]
            else:
                out &= self.numbers(a) >= float(values[self.current[a]])
        return out

    def slot_counts(self, slot: RankSlot) -> IntArray:
        """The ranks of `slot` in every configuration."""
        if slot.axis is None:
            return np.full(len(self), slot.count, dtype=np.int64)
        table = np.array(self.values[slot.axis], dtype=np.int64)
        return table[self.index[:, slot.axis]]


@dataclass(frozen=True)
class SpaceCost:
    """Per configuration: installed drives, their power (W) and price (None without prices);
    `offered`: every drive it installs is offered on its system model (one that is not is not
    possible, and ranks last: cost and power inf). `key` is what the search ranks by (the
    price, else the drives), then `power`."""

    drives: IntArray
    power_w: FloatArray
    price: FloatArray | None
    offered: NDArray[np.bool_]

    @property
    def key(self) -> FloatArray:
        key = self.price if self.price is not None else self.drives.astype(np.float64)
        return np.where(self.offered, key, np.inf)

    @property
    def power(self) -> FloatArray:
        return np.where(self.offered, self.power_w, np.inf)


def space_cost(space: OfferedSpace, catalog: Catalog) -> SpaceCost:
    """Every configuration's cost, term by term as `configuration_cost` adds them (its rank
    groups in their order, then the DA pairs, the ports, the cache, the processor and the
    model), so that each sum is the same float."""
    prices = space.scenario.analyses.size.prices  # type: ignore[union-attr]
    n = len(space)
    models = space.system("model")
    drives = np.zeros(n, dtype=np.int64)
    power = np.zeros(n, dtype=np.float64)
    price = np.zeros(n, dtype=np.float64)
    offered = np.ones(n, dtype=bool)
    model_names = sorted(set(models.tolist()))
    for slot in space.slots:
        counts = space.slot_counts(slot)
        raid = catalog.raid_formats[slot.raid]
        per = raid.drives * counts  # integers, as in the scalar sum
        watts = np.zeros(n)
        for name in model_names:
            on = models == name
            if name in catalog.drives[slot.drive].packaging:
                watts[on] = catalog.installed_drive(name, slot.drive).power_w
            else:
                offered &= ~(on & (counts > 0))
        drives += per
        power += per * watts
        if prices is not None:
            price += per * prices.drives.get(slot.drive, 0.0)
    if prices is None:
        return SpaceCost(drives, power, None, offered)
    price += space.system("da_pairs").astype(np.int64) * prices.da_pair
    price += space.system("host_ports").astype(np.int64) * prices.host_port
    price += space.system("cache_gb").astype(np.float64) * prices.cache_gb
    ways = space.system("processor_ways")
    price += np.array([prices.processor_ways.get(str(w), 0.0) for w in ways.tolist()])
    price += np.array([prices.model.get(m, 0.0) for m in models.tolist()])
    return SpaceCost(drives, power, price, offered)


def ranks_by_kind(
    space: OfferedSpace,
) -> tuple[list[tuple[str, str, str]], FloatArray]:
    """The rank kinds (pool, drive, RAID format) any configuration holds, and every
    configuration's ranks of each [N, K] (groups of the same kind added)."""
    kinds = sorted({(s.pool, s.drive, s.raid) for s in space.slots})
    where = {kind: k for k, kind in enumerate(kinds)}
    ranks = np.zeros((len(space), len(kinds)))
    for slot in space.slots:
        ranks[:, where[(slot.pool, slot.drive, slot.raid)]] += space.slot_counts(slot)
    return kinds, ranks
