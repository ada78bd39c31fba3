"""Placement: Easy Tier steady state, capacity-proportional, pinned; pools of several workloads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from diskmodel.tiering.curves import PiecewiseSkew
from diskmodel.tiering.placement import (
    PoolPlacer,
    place_capacity_proportional,
    place_easy_tier,
    place_pinned,
    place_pool,
)
from diskmodel.tiering.ranking import Ranking, rank_pool
from diskmodel.tiering.records import Preference, Tier, WorkloadDemand, WorkloadPlacement
from diskmodel.tiering.skew import UNIFORM, LevelSkew

TIER_NAMES = ("ssd", "enterprise", "nearline")
capacities = st.floats(min_value=1.0, max_value=50_000.0, allow_nan=False)
levels = st.floats(min_value=1.0, max_value=60.0, allow_nan=False)
fill = st.floats(min_value=0.05, max_value=1.0)
ceilings = st.one_of(st.none(), st.floats(min_value=0.0, max_value=20_000.0))


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[Tier], WorkloadDemand]:
    count = draw(st.integers(min_value=1, max_value=3))
    tiers = [Tier(TIER_NAMES[i], draw(capacities), draw(ceilings)) for i in range(count)]
    capacity = sum(t.capacity_gb for t in tiers) * draw(fill)
    workload = WorkloadDemand(
        "db",
        capacity_gb=capacity,
        small_io_iops=draw(st.floats(min_value=0.0, max_value=30_000.0)),
        skew=LevelSkew(draw(levels)),
    )
    return tiers, workload


def assert_consistent(tiers: list[Tier], placement: WorkloadPlacement, w: WorkloadDemand) -> None:
    assert [s.tier for s in placement.tiers] == [t.name for t in tiers]
    assert sum(s.small_io_share for s in placement.tiers) == pytest.approx(1.0, abs=1e-9)
    assert sum(s.mb_share for s in placement.tiers) == pytest.approx(1.0, abs=1e-9)
    assert sum(s.capacity_used_gb for s in placement.tiers) == pytest.approx(
        w.capacity_gb, rel=1e-9
    )
    for tier, share in zip(tiers, placement.tiers, strict=True):
        assert -1e-9 <= share.small_io_share <= 1.0 + 1e-9
        assert -1e-9 <= share.mb_share <= 1.0 + 1e-9
        assert share.capacity_used_gb <= tier.capacity_gb * (1.0 + 1e-9) + 1e-9


# --- invariants ------------------------------------------------------------------------------


@settings(max_examples=150)
@given(pools())
def test_easy_tier_shares_sum_to_one_and_respect_capacity(
    pool: tuple[list[Tier], WorkloadDemand],
) -> None:
    tiers, w = pool
    assert_consistent(tiers, place_easy_tier(tiers, w), w)


@given(pools())
def test_capacity_proportional_shares_sum_to_one_and_respect_capacity(
    pool: tuple[list[Tier], WorkloadDemand],
) -> None:
    tiers, w = pool
    placement = place_capacity_proportional(tiers, w)
    assert_consistent(tiers, placement, w)
    total = sum(t.capacity_gb for t in tiers)
    for tier, share in zip(tiers, placement.tiers, strict=True):
        assert share.small_io_share == pytest.approx(tier.capacity_gb / total, rel=1e-12)


@given(capacities, fill, levels)
def test_one_tier_easy_tier_equals_capacity_proportional(
    cap: float, f: float, level: float
) -> None:
    tiers = [Tier("enterprise", cap, 100.0)]
    w = WorkloadDemand("db", cap * f, small_io_iops=500.0, skew=LevelSkew(level))
    assert place_easy_tier(tiers, w) == place_capacity_proportional(tiers, w)


@given(pools(), levels, levels)
def test_higher_skew_never_lowers_the_fastest_tier_share(
    pool: tuple[list[Tier], WorkloadDemand], a: float, b: float
) -> None:
    tiers, w = pool
    assume(len(tiers) >= 2)
    # When the SSD is stopped by its ceiling but must still hold data because the slower tiers
    # are too small, it holds the *coldest* extents (a filler), whose share falls with skew;
    # the property is about the hot data Easy Tier promotes, so that regime is left out.
    forced_filler = tiers[0].small_io_ceiling_iops is not None and w.capacity_gb > sum(
        t.capacity_gb for t in tiers[1:]
    )
    assume(not forced_filler)
    low, high = sorted((a, b))
    shares = [
        place_easy_tier(
            tiers, WorkloadDemand("db", w.capacity_gb, w.small_io_iops, skew=LevelSkew(s))
        )
        .tiers[0]
        .small_io_share
        for s in (low, high)
    ]
    assert shares[1] >= shares[0] - 1e-9


@given(pools(), st.floats(min_value=1.0, max_value=4.0))
def test_more_ssd_capacity_never_lowers_ssd_share(
    pool: tuple[list[Tier], WorkloadDemand], growth: float
) -> None:
    tiers, w = pool
    assume(len(tiers) >= 2)
    bigger = [Tier(tiers[0].name, tiers[0].capacity_gb * growth, tiers[0].small_io_ceiling_iops)]
    bigger += tiers[1:]
    before = place_easy_tier(tiers, w).tiers[0].small_io_share
    after = place_easy_tier(bigger, w).tiers[0].small_io_share
    assert after >= before - 1e-9


@given(pools())
def test_ceilings_hold_when_slower_tiers_have_room(pool: tuple[list[Tier], WorkloadDemand]) -> None:
    tiers, w = pool
    placement = place_easy_tier(tiers, w)
    room_below = sum(t.capacity_gb for t in tiers[1:])
    first = tiers[0]
    if len(tiers) >= 2 and first.small_io_ceiling_iops is not None and room_below >= w.capacity_gb:
        assert placement.tiers[0].small_io_iops <= first.small_io_ceiling_iops * (1 + 1e-9) + 1e-9
        assert not placement.tiers[0].over_ceiling


@given(pools())
def test_easy_tier_never_puts_less_io_per_gb_on_a_faster_tier(
    pool: tuple[list[Tier], WorkloadDemand],
) -> None:
    # Without ceilings, Easy Tier's steady state orders the tiers by I/O density.
    tiers, w = pool
    plain = [Tier(t.name, t.capacity_gb) for t in tiers]
    shares = place_easy_tier(plain, w).tiers
    densities = [s.small_io_share / s.capacity_used_gb for s in shares if s.capacity_used_gb > 1e-6]
    assert all(a >= b - 1e-9 * max(densities) for a, b in itertools.pairwise(densities))


# --- exact values ----------------------------------------------------------------------------


@pytest.mark.parametrize("level", [2.0, 7.0, 24.0])
def test_ssd_share_is_the_curve_at_the_ssd_capacity_fraction(level: float) -> None:
    # C7's pool: 5 x 200 GB SSD RAID-5 (800 GB usable) + 40 x 450 GB 10K RAID-5, full.
    tiers = [Tier("ssd", 800.0), Tier("enterprise", 15_750.0)]
    w = WorkloadDemand("db", 16_550.0, skew=LevelSkew(level))
    ssd = place_easy_tier(tiers, w).on("ssd")
    assert ssd.small_io_share == pytest.approx(
        float(LevelSkew(level).share(800.0 / 16_550.0)), abs=1e-12
    )
    assert ssd.capacity_used_gb == pytest.approx(800.0, rel=1e-12)


def test_ceiling_stops_the_ssd_at_its_load_and_leaves_it_part_empty() -> None:
    tiers = [Tier("ssd", 800.0, small_io_ceiling_iops=3_000.0), Tier("enterprise", 20_000.0)]
    w = WorkloadDemand("db", 16_550.0, small_io_iops=10_000.0, skew=LevelSkew(24.0))
    ssd = place_easy_tier(tiers, w).on("ssd")
    assert ssd.small_io_iops == pytest.approx(3_000.0, rel=1e-9)
    expected_gb = float(LevelSkew(24.0).capacity_for_share(0.3)) * 16_550.0
    assert ssd.capacity_used_gb == pytest.approx(expected_gb, rel=1e-9)
    assert ssd.capacity_used_gb < 800.0


def test_ceiling_limited_tier_takes_the_coldest_when_the_rest_does_not_fit() -> None:
    # The enterprise tier cannot hold all but the SSD's hot part: the SSD also holds the coldest
    # extents, so it stays at its load ceiling plus almost nothing.
    tiers = [Tier("ssd", 800.0, small_io_ceiling_iops=3_000.0), Tier("enterprise", 15_750.0)]
    w = WorkloadDemand("db", 16_550.0, small_io_iops=10_000.0, skew=LevelSkew(24.0))
    ssd = place_easy_tier(tiers, w).on("ssd")
    assert ssd.capacity_used_gb == pytest.approx(800.0, rel=1e-9)
    assert 3_000.0 < ssd.small_io_iops < 3_000.0 * (1 + 1e-6)


def test_three_tiers_coldest_on_nearline_hottest_on_ssd() -> None:
    tiers = [Tier("ssd", 500.0), Tier("enterprise", 5_000.0), Tier("nearline", 20_000.0)]
    w = WorkloadDemand("db", 20_000.0, skew=LevelSkew(14.0))
    p = place_easy_tier(tiers, w)
    curve = LevelSkew(14.0)
    assert p.on("ssd").small_io_share == pytest.approx(float(curve.share(0.025)), abs=1e-12)
    assert p.on("enterprise").small_io_share == pytest.approx(
        float(curve.io_share(0.025, 0.275)), abs=1e-12
    )
    assert p.on("nearline").capacity_used_gb == pytest.approx(14_500.0)
    assert p.on("nearline").small_io_share == pytest.approx(
        float(curve.io_share(0.275, 1.0)), abs=1e-12
    )


def test_mb_follows_the_extents_not_the_mb_ranking() -> None:
    tiers = [Tier("ssd", 100.0), Tier("enterprise", 900.0)]
    w = WorkloadDemand("db", 1_000.0, skew=PiecewiseSkew.from_points([[0.1, 0.9]]))
    ssd = place_easy_tier(tiers, w).on("ssd")
    assert ssd.small_io_share == pytest.approx(0.90)
    assert ssd.mb_share == pytest.approx(0.31)  # DOMAIN C4 via the derived MB curve


def test_pinned_puts_everything_on_one_tier() -> None:
    tiers = [Tier("ssd", 800.0), Tier("enterprise", 15_750.0)]
    w = WorkloadDemand("hot_table", 300.0, skew=LevelSkew(7.0))
    p = place_pinned(tiers, w, "ssd")
    assert p.on("ssd").small_io_share == 1.0
    assert p.on("ssd").capacity_used_gb == 300.0
    assert p.on("enterprise").small_io_share == 0.0
    with pytest.raises(ValueError, match="needs 900 GB, only 800 GB free"):
        place_pinned(tiers, WorkloadDemand("big", 900.0), "ssd")
    with pytest.raises(ValueError, match="pinned to tier 'nearline', which this pool lacks"):
        place_pinned(tiers, w, "nearline")


# --- pools of several workloads --------------------------------------------------------------


def test_hotter_workload_takes_the_ssd_first() -> None:
    tiers = [Tier("ssd", 1_000.0), Tier("enterprise", 10_000.0)]
    hot = WorkloadDemand("oltp", 800.0, small_io_iops=8_000.0)  # 10 I/O/s per GB
    cold = WorkloadDemand("archive", 8_000.0, small_io_iops=800.0)  # 0.1 I/O/s per GB
    pool = place_pool(tiers, [hot, cold], easy_tier=True)
    assert pool.workload("oltp").on("ssd").capacity_used_gb == pytest.approx(800.0)
    assert pool.workload("archive").on("ssd").capacity_used_gb == pytest.approx(200.0)
    assert pool.on("ssd").small_io_iops == pytest.approx(8_000.0 + 20.0)
    assert pool.on("ssd").small_io_share == pytest.approx(8_020.0 / 8_800.0)


def test_two_identical_workloads_place_like_one_of_double_size() -> None:
    tiers = [Tier("ssd", 700.0, small_io_ceiling_iops=6_000.0), Tier("enterprise", 12_000.0)]
    half = WorkloadDemand("a", 5_000.0, small_io_iops=5_000.0, mb_s=50.0, skew=LevelSkew(14.0))
    other = WorkloadDemand("b", 5_000.0, small_io_iops=5_000.0, mb_s=50.0, skew=LevelSkew(14.0))
    whole = WorkloadDemand("ab", 10_000.0, small_io_iops=10_000.0, mb_s=100.0, skew=LevelSkew(14.0))
    pool = place_pool(tiers, [half, other], easy_tier=True)
    single = place_easy_tier(tiers, whole)
    # A pool is ranked by bins (about 512 per workload, each at its mean density); the single
    # workload is exact. Where a tier boundary cuts a pair of equal bins, the pool takes one
    # bin deeper instead of both half-way, an error second order in the bin width (~1e-5 here).
    for a, b in zip(pool.tiers, single.tiers, strict=True):
        assert a.capacity_used_gb == pytest.approx(b.capacity_used_gb, rel=1e-4)
        assert a.small_io_share == pytest.approx(b.small_io_share, abs=1e-6)
        assert a.mb_share == pytest.approx(b.mb_share, abs=1e-6)
    a_ssd, b_ssd = pool.workload("a").on("ssd"), pool.workload("b").on("ssd")
    assert a_ssd.capacity_used_gb == pytest.approx(b_ssd.capacity_used_gb, rel=0.05)


def test_pinned_workload_takes_capacity_and_load_from_its_tier() -> None:
    tiers = [Tier("ssd", 1_000.0, small_io_ceiling_iops=10_000.0), Tier("enterprise", 10_000.0)]
    pinned = WorkloadDemand("log", 400.0, small_io_iops=4_000.0, pin_tier="ssd")
    rest = WorkloadDemand("db", 9_000.0, small_io_iops=9_000.0, skew=LevelSkew(24.0))
    pool = place_pool(tiers, [pinned, rest], easy_tier=True)
    # The pinned log uses 4,000 of the SSD's 10,000 I/O/s, so the database's hottest extents
    # may bring only 6,000 (2/3 of its I/O): they need less than the 600 GB left.
    db_ssd = pool.workload("db").on("ssd")
    assert db_ssd.small_io_iops == pytest.approx(6_000.0, rel=1e-9)
    expected_gb = float(LevelSkew(24.0).capacity_for_share(6_000.0 / 9_000.0)) * 9_000.0
    assert db_ssd.capacity_used_gb == pytest.approx(expected_gb, rel=1e-9)
    assert pool.on("ssd").capacity_used_gb == pytest.approx(400.0 + expected_gb, rel=1e-9)
    assert pool.on("ssd").small_io_iops == pytest.approx(10_000.0, rel=1e-9)
    assert not pool.on("ssd").over_ceiling
    off = place_pool(tiers, [pinned, rest], easy_tier=False)
    # Easy Tier off: the unpinned workload follows the free capacity (600 of 10,600 GB).
    assert off.workload("db").on("ssd").small_io_share == pytest.approx(600.0 / 10_600.0)


def test_a_pool_too_small_is_refused_with_the_shortfall() -> None:
    tiers = [Tier("ssd", 100.0), Tier("enterprise", 1_000.0)]
    with pytest.raises(
        ValueError, match=r"need 1200 GB unpinned but only 1100 GB is free \(100 GB short\)"
    ):
        place_pool(tiers, [WorkloadDemand("a", 1_200.0)], easy_tier=True)


def test_inputs_are_validated() -> None:
    with pytest.raises(ValueError, match="capacity_gb must be >= 0"):
        Tier("ssd", -1.0)
    with pytest.raises(ValueError, match="small_io_ceiling_iops must be >= 0"):
        Tier("ssd", 1.0, -5.0)
    with pytest.raises(ValueError, match="capacity_gb must be > 0"):
        WorkloadDemand("w", 0.0)
    with pytest.raises(ValueError, match="must be concave"):
        WorkloadDemand("w", 1.0, skew=PiecewiseSkew((0.0, 0.5, 1.0), (0.0, 0.1, 1.0)))
    with pytest.raises(ValueError, match="tier names must be unique"):
        place_pool([Tier("ssd", 1.0), Tier("ssd", 1.0)], [WorkloadDemand("w", 1.0)], easy_tier=True)
    with pytest.raises(ValueError, match="at least one tier"):
        place_pool([], [WorkloadDemand("w", 1.0)], easy_tier=True)


def test_uniform_workload_under_easy_tier_is_capacity_ordered() -> None:
    # No skew: Easy Tier has nothing to exploit; the SSD gets its capacity share of a full pool.
    tiers = [Tier("ssd", 1_000.0), Tier("enterprise", 9_000.0)]
    w = WorkloadDemand("flat", 10_000.0, skew=UNIFORM)
    assert place_easy_tier(tiers, w).on("ssd").small_io_share == pytest.approx(0.1, abs=1e-12)


@st.composite
def shared_pools(draw: st.DrawFn) -> tuple[list[Tier], list[WorkloadDemand], bool]:
    count = draw(st.integers(min_value=1, max_value=3))
    tiers = [Tier(TIER_NAMES[i], draw(capacities), draw(ceilings)) for i in range(count)]
    free = sum(t.capacity_gb for t in tiers) * draw(fill)
    n = draw(st.integers(min_value=1, max_value=4))
    parts = [draw(st.floats(min_value=0.05, max_value=1.0)) for _ in range(n)]
    workloads = []
    for i, part in enumerate(parts):
        skew = draw(
            st.one_of(
                st.builds(LevelSkew, levels),
                st.just(PiecewiseSkew.from_points([[0.1, 0.9]])),
            )
        )
        workloads.append(
            WorkloadDemand(
                f"w{i}",
                capacity_gb=free * part / sum(parts),
                small_io_iops=draw(st.floats(min_value=0.0, max_value=20_000.0)),
                mb_s=draw(st.floats(min_value=0.0, max_value=500.0)),
                skew=skew,
            )
        )
    return tiers, workloads, draw(st.booleans())


@settings(max_examples=100)
@given(shared_pools())
def test_shared_pool_shares_sum_to_one_and_respect_capacity(
    pool: tuple[list[Tier], list[WorkloadDemand], bool],
) -> None:
    tiers, workloads, easy_tier = pool
    placement = place_pool(tiers, workloads, easy_tier=easy_tier)
    for w in workloads:
        assert_consistent(tiers, placement.workload(w.name), w)
    for tier, total in zip(tiers, placement.tiers, strict=True):
        assert total.capacity_used_gb <= tier.capacity_gb * (1 + 1e-9) + 1e-9
    assert sum(t.small_io_share for t in placement.tiers) == pytest.approx(1.0, abs=1e-9)
    assert sum(t.mb_share for t in placement.tiers) == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=60)
@given(shared_pools(), st.lists(st.lists(ceilings, min_size=3, max_size=3), min_size=2, max_size=4))
def test_one_placer_over_many_ceilings_places_as_place_pool_does(
    pool: tuple[list[Tier], list[WorkloadDemand], bool], tried: list[list[float | None]]
) -> None:
    # A ceiling search places one pool's workloads again and again with the ranking kept: each
    # placement must be exactly the one a fresh place_pool gives.
    tiers, workloads, easy_tier = pool
    placer = PoolPlacer(workloads, easy_tier=easy_tier)
    for limits in tried:
        given_tiers = [Tier(t.name, t.capacity_gb, c) for t, c in zip(tiers, limits, strict=False)]
        assert placer.place(given_tiers) == place_pool(given_tiers, workloads, easy_tier=easy_tier)


def test_one_placer_with_a_media_preference_places_as_place_pool_does() -> None:
    workloads = [
        WorkloadDemand(
            "db",
            4_000.0,
            small_io_iops=9_000.0,
            mb_s=40.0,
            skew=LevelSkew(12.0),
            preference=Preference("ssd", 300.0),
        ),
        WorkloadDemand("batch", 6_000.0, small_io_iops=2_000.0, mb_s=300.0, skew=LevelSkew(3.0)),
    ]
    placer = PoolPlacer(workloads, easy_tier=True)
    for ceiling in (None, 5_000.0, 2_500.0, 8_000.0):
        tiers = [Tier("ssd", 800.0, ceiling), Tier("enterprise", 12_000.0)]
        assert placer.place(tiers) == place_pool(tiers, workloads, easy_tier=True)


def _prefix_by_definition(ranking: Ranking, x: float) -> np.ndarray:
    """Each workload's furthest point on its own curve among the parts of its pieces inside
    the hottest x GB (a piece's part interpolated on its range), computed over every piece."""
    widths = np.diff(ranking.x_edges)
    inside = np.clip(x - ranking.x_edges[:-1], 0.0, widths)
    fraction = np.where(widths > 0.0, inside / np.where(widths > 0.0, widths, 1.0), 0.0)
    c_at = ranking.c_lo + fraction * (ranking.c_hi - ranking.c_lo)
    prefix = np.zeros(len(ranking.workloads))
    reached = inside > 0.0
    np.maximum.at(prefix, ranking.owner[reached], c_at[reached])
    return prefix


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            capacities,
            st.floats(min_value=0.0, max_value=30_000.0),
            st.one_of(levels.map(LevelSkew), st.just(UNIFORM)),
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.floats(min_value=-0.1, max_value=1.1), min_size=1, max_size=8),
)
def test_workload_prefix_is_every_pieces_part_inside(
    workloads: list[tuple[float, float, LevelSkew]], at: list[float]
) -> None:
    """The prefix read from the running furthest point of whole pieces and the one piece x
    cuts is, to the last bit, the one found over every piece: at arbitrary points and at
    the pieces' own edges (where a piece is exactly whole or exactly not reached)."""
    ranking = rank_pool(
        [
            WorkloadDemand(f"w{k}", capacity_gb=gb, small_io_iops=iops, skew=skew)
            for k, (gb, iops, skew) in enumerate(workloads)
        ]
    )
    edges = ranking.x_edges.tolist()
    points = [f * ranking.total_gb for f in at] + edges[:: max(len(edges) // 16, 1)]
    points += [float(np.nextafter(e, np.inf)) for e in edges[:8]]
    for x in points:
        assert np.array_equal(ranking.workload_prefix(x), _prefix_by_definition(ranking, x))
