"""Auto-rebalance: equal utilisation over unequal ranks; DOMAIN.md C5."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.tiering.rebalance import RankBefore, rebalance, spread_by_rotation
from diskmodel.tiering.skew import UNIFORM, LevelSkew
from tests.tiering.tiering_hdd_sketch import average_seek_ms, busy_time_s, seek_constants


def flat(seconds: float) -> Callable[[float], float]:
    """A rank whose busy time per I/O does not depend on its span."""
    return lambda span: seconds


def linear(base_s: float, per_span_s: float) -> Callable[[float], float]:
    """A rank whose busy time per I/O grows linearly with its span (short-stroking)."""
    return lambda span: base_s + per_span_s * span


# --- the drive sketch reproduces the figures it was fitted to --------------------------------


def test_seek_sketch_matches_c1() -> None:
    b, d0 = seek_constants()
    assert b == pytest.approx(6.387, abs=1e-3)
    assert d0 == pytest.approx(0.329, abs=1e-3)
    assert average_seek_ms(1.0) == pytest.approx(3.5, abs=1e-9)
    assert average_seek_ms(0.5) < average_seek_ms(1.0)


# --- equal utilisation -----------------------------------------------------------------------


def test_unequal_speeds_end_at_equal_utilisation_not_equal_io() -> None:
    # Two ranks with the same data, one twice as fast: the fast one ends with twice the I/O.
    ranks = [
        RankBefore("slow", 1_000.0, 500.0, flat(0.010)),
        RankBefore("fast", 1_000.0, 500.0, flat(0.005)),
    ]
    out = rebalance(ranks, 60.0, UNIFORM)
    assert out.rank("slow").utilization == pytest.approx(out.rank("fast").utilization, rel=1e-9)
    assert out.rank("fast").small_io_iops == pytest.approx(40.0, rel=1e-9)
    assert out.rank("slow").small_io_iops == pytest.approx(20.0, rel=1e-9)
    assert out.utilization == pytest.approx(0.2, rel=1e-9)


def test_hot_extents_move_first() -> None:
    # With a skewed workload the empty rank reaches the common utilisation with fewer GB than
    # with a uniform one: it received the hottest extents.
    ranks = [
        RankBefore("old", 1_000.0, 1_000.0, flat(0.005)),
        RankBefore("new", 1_000.0, 0.0, flat(0.005)),
    ]
    uniform = rebalance(ranks, 100.0, UNIFORM).rank("new")
    skewed = rebalance(ranks, 100.0, LevelSkew(14.0)).rank("new")
    assert uniform.small_io_share == pytest.approx(0.5, rel=1e-9)
    assert skewed.small_io_share == pytest.approx(0.5, rel=1e-9)
    assert uniform.data_gb == pytest.approx(500.0, rel=1e-9)
    expected_gb = float(LevelSkew(14.0).capacity_for_share(0.5)) * 1_000.0
    assert skewed.data_gb == pytest.approx(expected_gb, rel=1e-9)


def test_full_receiver_ends_below_the_common_utilisation() -> None:
    ranks = [
        RankBefore("old", 1_000.0, 1_000.0, flat(0.005)),
        RankBefore("tiny", 50.0, 0.0, flat(0.005)),
    ]
    out = rebalance(ranks, 100.0, UNIFORM)
    assert out.rank("tiny").data_gb == pytest.approx(50.0, rel=1e-9)
    assert out.rank("tiny").utilization < out.rank("old").utilization


def test_balanced_tier_is_left_alone() -> None:
    ranks = [RankBefore(f"r{i}", 1_000.0, 400.0, flat(0.005)) for i in range(3)]
    out = rebalance(ranks, 90.0, LevelSkew(7.0))
    assert out.moved_gb == 0.0
    assert [r.small_io_iops for r in out.ranks] == pytest.approx([30.0] * 3)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=100.0, max_value=2_000.0),  # capacity
            st.floats(min_value=0.0, max_value=1.0),  # fill
            st.floats(min_value=0.002, max_value=0.02),  # base service time
            st.floats(min_value=0.0, max_value=0.01),  # growth with span
        ),
        min_size=2,
        max_size=5,
    ),
    st.floats(min_value=1.0, max_value=40.0),
)
def test_rebalance_conserves_and_equalises(
    specs: list[tuple[float, float, float, float]], level: float
) -> None:
    ranks = [
        RankBefore(f"r{i}", cap, cap * f, linear(base, grow))
        for i, (cap, f, base, grow) in enumerate(specs)
    ]
    if sum(r.data_gb for r in ranks) <= 1.0:
        return
    out = rebalance(ranks, 500.0, LevelSkew(level))
    assert sum(r.small_io_share for r in out.ranks) == pytest.approx(1.0, abs=1e-9)
    assert sum(r.data_gb for r in out.ranks) == pytest.approx(
        sum(r.data_gb for r in ranks), rel=1e-9
    )
    for before, after in zip(ranks, out.ranks, strict=True):
        assert after.data_gb <= before.capacity_gb * (1 + 1e-9)
        full = after.data_gb >= before.capacity_gb * (1 - 1e-9)
        if not full:
            assert after.utilization == pytest.approx(out.utilization, rel=1e-6)
        else:
            assert after.utilization <= out.utilization * (1 + 1e-6)


def test_spread_by_rotation_fills_small_ranks_first() -> None:
    assert spread_by_rotation(900.0, [200.0, 1_000.0, 1_000.0]) == pytest.approx(
        [200.0, 350.0, 350.0]
    )
    with pytest.raises(ValueError, match="does not fit"):
        spread_by_rotation(3_000.0, [1_000.0, 1_000.0])


# --- DOMAIN.md C5 ----------------------------------------------------------------------------

C5_PUBLISHED_SHARE_ON_ORIGINAL = 0.55
# "about 55%": read as 55% +/- 2.5 points (the figure is given to the nearest 5%).
C5_TOLERANCE = 0.025


@pytest.mark.parametrize("original_fill", [1.0, 0.6])
def test_c5_auto_rebalance_keeps_about_55_percent_on_the_original_ranks(
    original_fill: float,
) -> None:
    # 3 ranks of 15K drives hold a DB Open workload (uniform random over its volumes, the usual
    # synthetic benchmark); 2 empty 15K ranks join. All ranks alike, so capacity is in rank
    # units. The original ranks keep their span after giving extents away (holes), the new ones
    # span only what they receive: that short-stroking is what moves the split below 3/5.
    ranks = [RankBefore(f"old{i}", 1.0, original_fill, busy_time_s) for i in range(3)]
    ranks += [RankBefore(f"new{i}", 1.0, 0.0, busy_time_s) for i in range(2)]
    out = rebalance(ranks, 1_000.0, UNIFORM)
    on_original = sum(r.small_io_share for r in out.ranks[:3])
    # Achieved (this model): 56.6% at fill 1.0, 57.2% at fill 0.6; published about 55%.
    assert abs(on_original - C5_PUBLISHED_SHARE_ON_ORIGINAL) <= C5_TOLERANCE
    assert on_original < 0.6  # strictly below the 3/5 that ignoring short-stroking would give
    assert len({round(r.utilization, 9) for r in out.ranks}) == 1
