"""Placing pools of many workloads (issue 30 item 5): workloads with the same curves share
their curve evaluations and are ranked as one array per curve, the ranking's prefixes are
read per workload rather than from a pieces x workloads table, and a placement keeps its
workloads' shares as columns and finds a workload by name directly; every figure to the last
bit what the workload-by-workload computation gives."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from diskmodel.tiering.curves import PiecewiseSkew
from diskmodel.tiering.placement import _curve_groups, _io_and_mb_shares, place_pool
from diskmodel.tiering.ranking import easy_tier_intervals, forget_rankings, rank_pool, ranked
from diskmodel.tiering.records import TABLE_COLUMNS, Tier, WorkloadDemand
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


@pytest.mark.parametrize("alike", [False, True])
def test_prefixes_of_a_pool_of_many_equal_workloads_are_the_definitions(alike: bool) -> None:
    ranking = rank_pool(_alike(14.0) if alike else _many())
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


def _ranking_by_definition(workloads: list[WorkloadDemand]) -> tuple[np.ndarray, ...]:
    """The ranking made one workload at a time: each workload's bins with their densities,
    all sorted together (stable), and the running sums of their GB and small I/O."""
    owners, lows, highs, gbs, densities, shares = [], [], [], [], [], []
    heat = [w.small_io_iops if w.heat_iops is None else w.heat_iops for w in workloads]
    any_rate = any(h > 0.0 for h in heat)
    for k, w in enumerate(workloads):
        c_lo, c_hi, share = w.skew.ranking_bins
        rate = heat[k] if any_rate else w.capacity_gb
        gb = (c_hi - c_lo) * w.capacity_gb
        io = rate * share
        density = np.divide(io, gb, out=np.zeros_like(io), where=gb > 0.0)
        densities.append(np.minimum.accumulate(density))
        owners.append(np.full(c_lo.size, k))
        lows.append(c_lo)
        highs.append(c_hi)
        gbs.append(gb)
        shares.append(w.small_io_iops * share)
    order = np.argsort(-np.concatenate(densities), kind="stable")
    return (
        np.concatenate(owners)[order],
        np.concatenate(lows)[order],
        np.concatenate(highs)[order],
        np.concatenate([[0.0], np.cumsum(np.concatenate(gbs)[order])]),
        np.concatenate([[0.0], np.cumsum(np.concatenate(shares)[order])]),
    )


def _alike(level: float) -> list[WorkloadDemand]:
    """64 volumes of one database: equal curves (distinct objects), rates and capacities."""
    return [
        WorkloadDemand(f"v{k}", 1_000.0, 2_000.0, mb_s=30.0, skew=LevelSkew(level))
        for k in range(64)
    ]


@pytest.mark.parametrize(
    "variant",
    [
        "as given",
        "no rate anywhere",
        "ranked by host reads",
        "one curve",
        "alike",  # ranked without a sort
        "alike, uniform",  # every density ties: sorted
        "alike but one",
    ],
)
def test_a_ranking_made_per_curve_is_the_one_made_per_workload(variant: str) -> None:
    # Workloads of one curve are ranked as one array: every figure must be, to the bit, what
    # ranking them one at a time gives (equal curves as distinct objects, ties included).
    workloads = _many()
    if variant == "no rate anywhere":
        workloads = [replace(w, small_io_iops=0.0) for w in workloads]
    elif variant == "ranked by host reads":
        workloads = [replace(w, heat_iops=3.0 * k + 1.0) for k, w in enumerate(workloads)]
    elif variant == "one curve":
        workloads = [replace(w, skew=LevelSkew(14.0)) for w in workloads]
    elif variant.startswith("alike"):
        workloads = _alike(1.0 if variant == "alike, uniform" else 8.581)
        if variant == "alike but one":
            workloads[40] = replace(workloads[40], capacity_gb=np.nextafter(1_000.0, 2e3))
    ranking = rank_pool(workloads)
    made = (ranking.owner, ranking.c_lo, ranking.c_hi, ranking.x_edges, ranking.y_edges)
    for got, expected in zip(made, _ranking_by_definition(workloads), strict=True):
        assert got.dtype == expected.dtype
        assert np.array_equal(got, expected)


def test_a_placements_columns_are_its_workloads_figures() -> None:
    workloads = _many()
    tiers = [Tier("ssd", 2_000.0, 9_000.0), Tier("enterprise", 20_000.0), Tier("nl", 30_000.0)]
    placed = place_pool(tiers, workloads, easy_tier=True)
    assert placed.names == tuple(w.name for w in workloads)
    for tier in tiers:
        for what in TABLE_COLUMNS:
            column = placed.column(tier.name, what)
            expected = [getattr(placed.workload(w.name).on(tier.name), what) for w in workloads]
            assert column.tolist() == expected
            assert not column.flags.writeable
    with pytest.raises(KeyError, match="no tier 'absent'"):
        placed.column("absent", "mb_share")
    # Workloads of the same figures hold one tuple of shares (the network builds one set of
    # flows for them); equal placements compare and print alike.
    held = [p.tiers for p in placed.workloads]
    assert held[0] is held[1]
    assert held[0] is held[4]
    assert held[0] != held[2]
    again = place_pool(tiers, workloads, easy_tier=True)
    assert again == placed
    assert repr(again) == repr(placed)
    assert repr(placed).startswith("PoolPlacement(easy_tier=True, tiers=(TierShare(")
    assert place_pool(tiers, workloads[:-1], easy_tier=True) != placed


def test_a_kept_ranking_places_as_a_fresh_one_for_equal_workloads() -> None:
    """`ranked` keeps a ranking by its workloads' rates, heat, capacities and curves: other
    objects with equal figures (a sizing search's next configuration) get the same ranking,
    and every placement made from it is, to the bit, the one made from a fresh ranking; a
    workload whose rate differs by one ulp is ranked anew."""
    forget_rankings()
    first = _many()
    again = [replace(w, name=w.name, skew=replace(w.skew)) for w in first]
    assert all(a.skew is not b.skew for a, b in zip(first, again, strict=True))
    kept = ranked(first)
    assert ranked(again) is kept
    fresh = rank_pool(again)
    tiers = [Tier("ssd", 1500.0), Tier("enterprise", 6000.0), Tier("nearline", 1e5)]
    for ceiling in (None, 0.0, 2000.0, 9000.0):
        held = [replace(tiers[0], small_io_ceiling_iops=ceiling), *tiers[1:]]
        free = [t.capacity_gb for t in held]
        ceilings = [t.small_io_ceiling_iops for t in held]
        a = easy_tier_intervals(kept, free, ceilings)
        b = easy_tier_intervals(fresh, free, ceilings)
        assert a == b
        for x in {e for tier in a for pair in tier for e in pair}:
            assert np.array_equal(kept.workload_prefix(x), fresh.workload_prefix(x))
    nudged = [replace(first[0], small_io_iops=float(np.nextafter(800.0, np.inf))), *first[1:]]
    assert ranked(nudged) is not kept
