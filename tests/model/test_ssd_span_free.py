"""An SSD's operation costs are computed once, whatever the span of its data
(`costs.costed_span`): a search for the SSD tier's load ceiling moves that tier's span at every
probe, and its drive physics was evaluated again at each. That is exact only while nothing of
an SSD's service reads the span; these tests hold the drive physics to it, and check that an
HDD's costs still follow the span."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.configuration import Configuration, resolve
from diskmodel.model.costs import OpCosts, _span_cost, costed_span, drive_gain, queue_limit
from diskmodel.model.pool_load import pools_at

from ..support.builders import changed, ssd_and_15k, with_data

SPANS = [1e-3, 0.0137, 0.25, 0.5, 0.731, 1.0]


def _config() -> Configuration:
    """An Easy Tier pool of SSD and 15K ranks and two workloads of different mixes (one with
    sequential work and every I/O class, so every operation kind is costed)."""
    data = ssd_and_15k(2, 6)
    oltp = data["workloads"][0]
    oltp.update(iops=9000, capacity_gb=3000, skew={"level": 7.0})
    batch = dict(oltp, name="batch", iops=1500, read_size_kib=64, capacity_gb=2000)
    batch.update(read_sequential_fraction=0.5, write_sequential_fraction=0.5, destage_ratio=0.8)
    data["workloads"].append(batch)
    return resolve(with_data(changed(data)))


CONFIG = _config()
SSD = next(r for r in CONFIG.ranks if r.drive.kind == "ssd")
HDD = next(r for r in CONFIG.ranks if r.drive.kind == "hdd")


def test_an_ssd_s_operations_cost_the_same_on_every_span() -> None:
    costs = OpCosts(CONFIG)
    for w, workload in enumerate(CONFIG.workloads):
        shapes = costs.span_free(w, workload.mix, SSD)
        assert shapes
        for op in shapes:
            at = [_span_cost(op, SSD.drive, span) for span in SPANS]
            assert all(cost == at[0] for cost in at), op


def test_an_ssd_s_queueing_gain_is_the_same_on_every_span() -> None:
    depth = queue_limit(SSD, CONFIG.hardware.system.device_adapter.commands_per_hdd)
    for share in (None, 0.3):
        gains = [drive_gain(SSD, span, depth, share) for span in SPANS]
        assert all(np.array_equal(g, gains[0]) for g in gains)


def test_an_ssd_is_costed_once_and_an_hdd_at_each_span() -> None:
    costs = OpCosts(CONFIG)
    mix = CONFIG.workloads[0].mix
    assert {costed_span(SSD.drive, s) for s in SPANS} == {1.0}
    first = costs.of(0, mix, SSD, SPANS[0])
    assert all(costs.of(0, mix, SSD, s) is first for s in SPANS)
    # Each the cost at the exact span, as computed without the key.
    for s in SPANS:
        assert costs.of(0, mix, SSD, s) == tuple(
            _span_cost(op, SSD.drive, s) for op in costs.span_free(0, mix, SSD)
        )
    # An HDD's random operations are short-stroked: their costs follow the span.
    means = [
        sum(op.drive.mean_s for op in costs.of(0, mix, HDD, s) if not op.sequential) for s in SPANS
    ]
    assert means == sorted(means)
    assert means[0] < means[-1]
    assert costed_span(HDD.drive, 0.123456789012) == pytest.approx(0.123456789, abs=1e-15)


def test_a_pool_times_an_ssd_rank_once_on_every_span() -> None:
    (pool,) = pools_at(CONFIG, np.array([9000.0, 1500.0]), OpCosts(CONFIG))
    times = [pool.drive_times(SSD, s) for s in SPANS]
    assert all(t is times[0] for t in times)
    hdd = [pool.drive_times(HDD, s).small_drive_s for s in SPANS]
    assert hdd == sorted(hdd)
    assert hdd[0] < hdd[-1]
