"""The saturation search (`model.saturation.station_load`) on capacities given by hand: where the
placement for a load x carries cap(x), the answer is the x that just carries itself."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.model.saturation import SATURATION_TOL, station_load


class _Placed:
    """A network placed for rates r whose storage carries `cap(total)`."""

    def __init__(self, cap: float, total: float) -> None:
        self.cap, self.total = cap, total

    def saturation_scale(self, rates: np.ndarray) -> tuple[float, int]:
        return self.cap / float(rates.sum()), 7


def _search(cap_of):  # type: ignore[no-untyped-def]
    probes: list[float] = []

    def network(rates: np.ndarray) -> _Placed:
        total = float(rates.sum())
        probes.append(total)
        return _Placed(cap_of(total), total)

    x, k = station_load(network, np.array([0.25, 0.75]), follows_load=True)
    return x, k, probes


def test_a_load_its_placement_carries_exactly_ends_the_search() -> None:
    """Near 80,121 IOPS a bottleneck the placement cannot move binds, and over a short stretch
    the placement for x carries exactly x. Regula falsi lands in that stretch (f = 0), which is
    the answer. The search once went on from that end for its whole probe budget (the Global
    Mirror week's catalog band: 44 placements for one maximum, all at the same load)."""
    flat = 80121.42297260716

    def cap(x: float) -> float:
        if x < 1:
            return 52564.447548528646  # the placement that ignores the load
        if x < 70_000:
            return 1.2507 * x
        return x if 80_100 <= x <= 80_140 else flat

    x, k, probes = _search(cap)
    assert k == 7
    assert cap(x) == x
    assert len(probes) < 12, probes


@pytest.mark.parametrize("slope", [0.3, 0.6, 0.8])
def test_a_rising_capacity_is_climbed_to_a_load_its_placement_just_carries(slope: float) -> None:
    """cap(x) = slope x + c rises towards its fixed point c / (1 - slope): the search climbs from
    below and stops at a load its own placement carries, by no more than the tolerance (the
    figure it promises: the placement made for the load and the load agree). The climb has 60
    steps, enough for slopes up to about 0.85 from the probe."""
    c = 50_000.0
    x, _, _ = _search(lambda t: slope * t + c)
    assert 0 <= (slope * x + c) / x - 1 <= SATURATION_TOL
    assert x <= c / (1 - slope)
