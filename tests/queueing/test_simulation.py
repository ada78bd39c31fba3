"""Formulas against short seeded discrete-event simulations (ciw, a test-only dependency).

Each run is cut into 20 consecutive batches after a warm-up; the mean wait must lie in
the batch means' 99% confidence interval (Student t, 19 degrees of freedom). The runs
are seeded, so the test is repeatable, and a few seconds long.
"""

from __future__ import annotations

import ciw
import numpy as np
import pytest
from scipy import stats

from diskmodel.queueing import mg1, mgc_allen_cunneen, mmc

BATCHES = 20


def simulated_waits(
    lam: float, service: ciw.dists.Distribution, servers: int, horizon_s: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Waiting times and arrival dates of the customers that arrived after a 5% warm-up."""
    ciw.seed(seed)
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(lam)],
        service_distributions=[service],
        number_of_servers=[servers],
    )
    simulation = ciw.Simulation(network)
    simulation.simulate_until_max_time(horizon_s)
    records = [r for r in simulation.get_all_records() if r.arrival_date > 0.05 * horizon_s]
    return (
        np.array([r.waiting_time for r in records]),
        np.array([r.arrival_date for r in records]),
    )


def batch_interval(waits: np.ndarray, arrivals: np.ndarray) -> tuple[float, float]:
    edges = np.linspace(arrivals.min(), arrivals.max(), BATCHES + 1)
    which = np.clip(np.searchsorted(edges, arrivals, side="right") - 1, 0, BATCHES - 1)
    means = np.array([waits[which == b].mean() for b in range(BATCHES)])
    half = stats.t.ppf(0.995, BATCHES - 1) * means.std(ddof=1) / np.sqrt(BATCHES)
    return float(means.mean() - half), float(means.mean() + half)


@pytest.mark.simulation
def test_mg1_with_a_disk_like_service_time() -> None:
    """Service = 2 ms fixed (overhead, transfer) + uniform 0..8 ms (seek and rotation)."""
    fixed_s, spread_s = 0.002, 0.008
    mean_s = fixed_s + spread_s / 2
    second_moment = spread_s**2 / 12 + mean_s**2
    lam = 0.7 / mean_s
    waits, arrivals = simulated_waits(
        lam, ciw.dists.Uniform(fixed_s, fixed_s + spread_s), 1, 200.0, 1
    )
    low, high = batch_interval(waits, arrivals)
    predicted = float(mg1(lam, mean_s, second_moment).wait_time)
    assert low <= predicted <= high


@pytest.mark.simulation
def test_mmc_three_servers() -> None:
    mean_s, servers = 0.006, 3
    lam = 0.75 * servers / mean_s
    waits, arrivals = simulated_waits(lam, ciw.dists.Exponential(1 / mean_s), servers, 100.0, 2)
    low, high = batch_interval(waits, arrivals)
    assert low <= float(mmc(lam, mean_s, servers).wait_time) <= high


@pytest.mark.simulation
def test_allen_cunneen_for_disk_like_service_on_two_servers_is_near_simulation() -> None:
    """An approximation: asserted within 10% of the simulation's 99% confidence interval."""
    fixed_s, spread_s = 0.002, 0.008
    mean_s = fixed_s + spread_s / 2
    cs2 = (spread_s**2 / 12) / mean_s**2
    lam = 0.8 * 2 / mean_s
    waits, arrivals = simulated_waits(
        lam, ciw.dists.Uniform(fixed_s, fixed_s + spread_s), 2, 150.0, 3
    )
    low, high = batch_interval(waits, arrivals)
    predicted = float(mgc_allen_cunneen(lam, mean_s, 2, cs2).wait_time)
    assert 0.9 * low <= predicted <= 1.1 * high
