"""Theory tests of the copy services physics (components.replication, model.copy_services):
exact forms to 1e-12 against the formulas the module docstrings state."""

from __future__ import annotations

import math

import numpy as np
import pytest

from diskmodel.components import replication as rep
from diskmodel.components.copy_services_figures import copy_services_figures
from diskmodel.configuration.copy_services import LinksConfig
from diskmodel.model.copy_services import link_times
from diskmodel.units import MB, US


@pytest.mark.parametrize("distance_km", [0.0, 1.0, 40.0, 100.0, 300.0])
@pytest.mark.parametrize("round_trips", [1.0, 2.0])
def test_light_in_the_fibre_is_round_trips_times_twice_the_distance(
    distance_km: float, round_trips: float
) -> None:
    expected = round_trips * 2 * distance_km * 5.0 * US
    assert rep.propagation_s(distance_km, round_trips, 5.0) == pytest.approx(expected, rel=1e-12)


def test_metro_mirror_adds_flight_links_and_the_secondary_write() -> None:
    added = rep.metro_mirror_added_s(
        distance_km=50.0,
        round_trips=1.0,
        fibre_us_per_km=5.0,
        link_response_s=30e-6,
        secondary_write_s=190e-6,
    )
    assert added == pytest.approx(500e-6 + 30e-6 + 190e-6, rel=1e-12)


def test_shipped_figures_are_the_sourced_ones() -> None:
    f = copy_services_figures()
    assert f.fibre_us_per_km == 5.0
    assert f.round_trips_per_write == 1
    for key in type(f).model_fields:
        if key != "provenance":
            assert f.provenance[key].text(), key


def test_one_link_of_one_write_size_is_pollaczek_khinchine_deterministic() -> None:
    links = LinksConfig(1, 8, 760.0, "", 0.0, 20.0)
    size = 8 * 1024
    s = 20e-6 + size / (760 * MB)
    lam = 5000.0
    load = link_times(links, [(lam, size)])
    rho = lam * s
    assert load.utilization == pytest.approx(rho, rel=1e-12)
    assert load.service_s == pytest.approx(s, rel=1e-12)
    assert load.wait_s == pytest.approx(lam * s * s / (2 * (1 - rho)), rel=1e-12)


def test_links_split_the_writes_evenly_and_saturate_past_their_capacity() -> None:
    links = LinksConfig(4, 8, 760.0, "", 0.0, 20.0)
    size = 64 * 1024
    s = 20e-6 + size / (760 * MB)
    below = link_times(links, [(0.9 * 4 / s, size)])
    assert below.utilization == pytest.approx(0.9, rel=1e-12)
    assert not below.saturated
    above = link_times(links, [(1.01 * 4 / s, size)])
    assert above.saturated
    assert math.isinf(above.response_s)


def test_global_mirror_backlog_drain_and_recovery_point_by_hand() -> None:
    # 200 MB/s of links; 15-minute intervals of 100, 300, 50, 50 MB/s: the second leaves
    # (300 - 200) x 900 = 90,000 MB behind, which the third clears at 150 MB/s in 600 s.
    run = rep.global_mirror_intervals(
        [100.0, 300.0, 50.0, 50.0],
        interval_s=900.0,
        capacity_mb_s=200.0,
        group_interval_s=0.0,
        formation_s=4.0,
    )
    assert run.backlog_mb == pytest.approx((0.0, 90_000.0, 0.0, 0.0), abs=1e-9)
    assert run.drain_s == pytest.approx(600.0, rel=1e-12)
    assert run.rpo_s[1] == pytest.approx(4.0 + 90_000.0 / 200.0, rel=1e-12)
    assert run.rpo_s[0] == pytest.approx(4.0, rel=1e-12)
    assert run.offered_utilization[1] == pytest.approx(1.5, rel=1e-12)
    assert run.busy == pytest.approx((0.5, 1.0, 0.75, 0.25), rel=1e-12)
    assert run.too_slow
    assert run.peak == 1


def test_global_mirror_backlog_that_never_clears_has_no_drain_time() -> None:
    run = rep.global_mirror_intervals(
        [300.0, 300.0], interval_s=60.0, capacity_mb_s=200.0, group_interval_s=0, formation_s=3
    )
    assert math.isinf(run.drain_s)
    assert run.backlog_mb[-1] == pytest.approx(12_000.0, rel=1e-12)


def test_global_mirror_links_that_carry_every_interval_keep_the_recovery_point_fixed() -> None:
    run = rep.global_mirror_intervals(
        [10.0, 150.0, 199.0], interval_s=900, capacity_mb_s=200, group_interval_s=5, formation_s=4
    )
    assert not run.too_slow
    assert run.drain_s == 0.0
    assert run.rpo_s == pytest.approx((9.0, 9.0, 9.0), rel=1e-12)


def test_coordination_holds_writes_once_a_cycle() -> None:
    # 2 ms every 4 s: a write is held with probability 1/2000, for 1 ms on average.
    assert rep.coordination_added_s(2e-3, 4.0) == pytest.approx(2e-3 / 4.0 * 1e-3, rel=1e-12)


@pytest.mark.parametrize("x", [1e-3, 0.1, 1.0, 5.0, 50.0])
def test_first_write_share_uniform_is_the_closed_form(x: float) -> None:
    tracks = 1e6
    window = 3600.0
    rate = x * tracks / window
    got = rep.first_write_fraction(rate, tracks, window)
    assert got == pytest.approx((1 - math.exp(-x)) / x, rel=1e-12)


def test_skew_means_fewer_first_writes_than_uniform() -> None:
    # Half the tracks take 90% of the writes: the hot half is copied early, then rewritten.
    density = np.array([1.8] * 50 + [0.2] * 50)
    uniform = rep.first_write_fraction(100.0, 1e6, 8 * 3600)
    skewed = rep.first_write_fraction(100.0, 1e6, 8 * 3600, density)
    assert skewed < uniform
    x = 100.0 * 8 * 3600 / 1e6
    expected = (0.5 * -math.expm1(-x * 1.8) + 0.5 * -math.expm1(-x * 0.2)) / x
    assert skewed == pytest.approx(expected, rel=1e-12)


def test_flashcopy_work_is_one_track_read_and_one_track_write_per_first_write() -> None:
    work = rep.flashcopy_work(
        mode="nocopy",
        destage_ratio=0.6,
        first_writes=0.25,
        capacity_bytes=1e12,
        copy_s=None,
        track_bytes=65536,
    )
    assert work.source_reads_per_write == pytest.approx(0.15, rel=1e-12)
    assert work.target_writes_per_write == pytest.approx(0.15, rel=1e-12)
    assert work.background_bytes_per_s == 0.0
    copy = rep.flashcopy_work(
        mode="copy",
        destage_ratio=0.6,
        first_writes=0.25,
        capacity_bytes=1e12,
        copy_s=4 * 3600.0,
        track_bytes=65536,
    )
    assert copy.background_bytes_per_s == pytest.approx(1e12 / (4 * 3600.0), rel=1e-12)
