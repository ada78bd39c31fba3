"""Placing pools of many workloads (issue 30 item 5): workloads with the same curves share
their curve evaluations, the ranking's prefixes are read per workload rather than from a
pieces x workloads table, and a placement finds a workload by name directly; every figure
to the last bit what the workload-by-workload computation gives."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.tiering.curves import PiecewiseSkew
from diskmodel.tiering.placement import _curve_groups, _io_and_mb_shares, place_pool
from diskmodel.tiering.ranking import rank_pool
from diskmodel.tiering.records import Tier, WorkloadDemand
from diskmodel.tiering.skew import UNIFORM, LevelSkew

from .test_tiering_placement import _prefix_by_definition


def _many() -> list[WorkloadDemand]:
    """40 workloads: runs of equal ones (equal curves as distinct objects, equal rates, so
    their pieces tie in the ranking), others of their own, a piecewise curve and an explicit
    MB curve that follows no small-I/O curve."""
    out = []
    for k in range(40):
        level = (14.0, 14.0, 3.0, 30.0)[k % 4]
        out.append(
            WorkloadDemand(
                f"w{k}",
                capacity_gb=500.0 if k % 4 < 2 else 200.0 + 10.0 * k,
                small_io_iops=800.0 if k % 4 < 2 else 50.0 * k,
                mb_s=5.0 + k,
                skew=LevelSkew(level),
            )
        )
    out.append(
        WorkloadDemand(
            "piecewise",
            700.0,
            small_io_iops=900.0,
            skew=PiecewiseSkew.from_points([[0, 0], [0.2, 0.7], [1, 1]]),
        )
    )
    out.append(WorkloadDemand("mb", 600.0, 300.0, skew=LevelSkew(14.0), mb_skew=UNIFORM))
    return out


def test_prefixes_of_a_pool_of_many_equal_workloads_are_the_definitions() -> None:
    ranking = rank_pool(_many())
    edges = ranking.x_edges.tolist()
    points = np.linspace(-1.0, ranking.total_gb * 1.01, 97).tolist() + edges[::37]
    points += [float(np.nextafter(e, np.inf)) for e in edges[1:400:13]]
    for x in points:
        assert np.array_equal(ranking.workload_prefix(x), _prefix_by_definition(ranking, x))


def test_shared_curve_evaluations_are_each_workloads_own() -> None:
    workloads = _many()
    rng = np.random.default_rng(30)
    lo = rng.uniform(0.0, 1.0, (5, len(workloads)))
    hi = np.minimum(lo + rng.uniform(0.0, 0.5, lo.shape), 1.0)
    io, mb = _io_and_mb_shares(_curve_groups(workloads), np.stack([lo, hi], axis=1))
    for k, w in enumerate(workloads):
        ends = np.concatenate([hi[:, k], lo[:, k]])
        own_io, own_mb = w.skew.share(ends), w.mb_curve.share(ends)
        assert np.array_equal(io[:, k], np.maximum(own_io[:5] - own_io[5:], 0.0))
        assert np.array_equal(mb[:, k], np.maximum(own_mb[:5] - own_mb[5:], 0.0))


def test_a_placement_finds_each_workload_by_name() -> None:
    workloads = _many()
    tiers = [Tier("ssd", 2_000.0, 9_000.0), Tier("enterprise", 30_000.0)]
    placed = place_pool(tiers, workloads, easy_tier=True)
    assert [placed.workload(w.name) for w in workloads] == list(placed.workloads)
    with pytest.raises(KeyError, match="no workload 'absent'"):
        placed.workload("absent")
    # The pool's totals are its workloads' sums, added in order.
    for t, total in enumerate(placed.tiers):
        column = [p.tiers[t] for p in placed.workloads]
        assert total.capacity_used_gb == sum(s.capacity_used_gb for s in column)
        assert total.small_io_iops == sum(s.small_io_iops for s in column)
