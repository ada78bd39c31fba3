"""A pool's ranks timed for its workloads (`model.rank_times.PoolTimes`) and its workloads'
demands (`model.pool_load.PoolAtLoad.demands`), made once per group of cost inputs (issue 30
item 5: 64 volumes of one database), give to the bit what the definitions give workload by
workload: busy time per back-end small I/O, mixed over the workloads by their host rates
(equal weights with no rate anywhere), added one workload at a time."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.configuration import Configuration, Rank
from diskmodel.model.costs import OpCosts
from diskmodel.model.pool_load import pools_at
from diskmodel.model.rank_times import Members, PoolTimes
from diskmodel.units import MB

from .test_shared_work import _config


def _mixed(members: Members, busy_of: object) -> float:
    """Busy seconds per back-end small I/O by definition: one workload at a time."""
    assert callable(busy_of)
    busy = small = 0.0
    weighted = any(rate > 0 for _, _, rate in members)
    for w, workload, rate in members:
        weight = rate if weighted else 1.0
        per_host = workload.mix.backend_small_io_per_host_io(1.0)
        if per_host <= 0.0 or weight <= 0.0:
            continue
        busy += weight * busy_of(w, workload)
        small += weight * per_host
    return busy / small if small > 0.0 else 0.0


def _drive_time(costs: OpCosts, rank: Rank, span: float, members: Members) -> float:
    def busy_of(w: int, workload: object) -> float:
        mix = workload.mix  # type: ignore[attr-defined]
        ops = costs.of(w, mix, rank, span)
        return sum(
            mix.fractions[o.io_class] * o.count * o.drive.mean_s for o in ops if not o.sequential
        )

    return _mixed(members, busy_of) / rank.active_drives


def _da_time(costs: OpCosts, rank: Rank, members: Members) -> float:
    def busy_of(w: int, workload: object) -> float:
        mix = workload.mix  # type: ignore[attr-defined]
        ops = costs.span_free(w, mix, rank)
        return sum(
            mix.fractions[o.io_class] * o.count * o.da.mean_s for o in ops if not o.sequential
        )

    return _mixed(members, busy_of)


def _sequential(costs: OpCosts, rank: Rank, members: Members) -> list[tuple[float, float]]:
    out = []
    for w, workload, _ in members:
        mix = workload.mix
        ops = [o for o in costs.of(w, mix, rank, 1.0) if o.sequential]
        drive = sum(mix.fractions[o.io_class] * o.count * o.drive.mean_s for o in ops)
        da = sum(mix.fractions[o.io_class] * o.count * o.da.mean_s for o in ops)
        out.append((drive / rank.active_drives, da))
    return out


kinds = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 1)), min_size=1, max_size=5
).map(lambda ks: ks + ks[::-1])  # every kind at least twice, in two orders: groups to share


@settings(max_examples=15, deadline=None)
@given(kinds=kinds, idle=st.sets(st.integers(0, 9)), scale=st.sampled_from([0.0, 0.7, 3.0]))
def test_pool_times_are_the_workload_by_workload_definitions(
    kinds: list[tuple[int, int, int]], idle: set[int], scale: float
) -> None:
    config: Configuration = _config(kinds, easy_tier=True)
    # Some workloads idle (weight 0, skipped), or all of them (equal weights).
    rates = np.array(
        [0.0 if k in idle else (w.iops or 0.0) for k, w in enumerate(config.workloads)]
    )
    costs = OpCosts(config)
    pool = next(pools_at(config, rates * scale, costs))
    times = PoolTimes(costs, pool.members)
    for rank in pool.ranks:
        assert times.small_io_da_time_s(rank) == _da_time(costs, rank, pool.members)
        drive, da = times.sequential_times_s(rank)
        assert list(zip(drive, da, strict=True)) == _sequential(costs, rank, pool.members)
        for span in (0.05, 0.3, 1.0):
            expected = _drive_time(costs, rank, span, pool.members)
            assert times.small_io_drive_time_s(rank, span) == expected


@settings(max_examples=10, deadline=None)
@given(kinds=kinds, scale=st.sampled_from([0.5, 2.0]))
def test_demands_are_each_workloads_own(kinds: list[tuple[int, int, int]], scale: float) -> None:
    config = _config(kinds, easy_tier=True)
    rates = np.array([w.iops or 0.0 for w in config.workloads]) * scale
    costs = OpCosts(config)
    pool = next(pools_at(config, rates, costs))
    for demand, (i, w, rate) in zip(pool.demands(), pool.members, strict=True):
        mix = w.mix
        f = mix.fractions
        small = mix.backend_small_io_per_host_io(1.0) + costs.flashcopy_small_io_per_host_io(i, mix)
        mb_per_io = (f["read_miss"] + f["sequential_read"]) * mix.read_bytes + (
            f["random_write"] + f["sequential_write"]
        ) * mix.write_bytes
        assert demand.small_io_iops == rate * small
        assert demand.mb_s == rate * mb_per_io / MB
        assert demand.name == w.name
