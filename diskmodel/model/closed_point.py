"""The closed class at one population (`Solver.closed_point`): its customers, think time and
host CPU (`closed_load`), the rate it settles at, where the placement made for that rate and
the closed solution on it agree (`settled`: a fixed point), and the per-station and per-class
figures read from that solution (`closed_figures`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.components.host import customers
from diskmodel.configuration import Configuration
from diskmodel.model.application import application_loop
from diskmodel.model.bracket import fixed_point_between
from diskmodel.model.closed import ClosedState, HostCpu, solve_closed
from diskmodel.model.network import Network
from diskmodel.model.open import station_states
from diskmodel.queueing.closed_network import ClosedNetworkResult

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

# Closed points: the rate placement is made for and the rate it gives agree to this (relative),
# in at most _CLOSED_ROUNDS steps.
_CLOSED_TOL = 1e-5
_CLOSED_ROUNDS = 40


def closed_load(config: Configuration, population: int) -> tuple[int, float, HostCpu | None]:
    """The closed class at a total `population`: its customers, their think time and the host
    CPU they visit. For an application, `population` users, each as the I/O streams it keeps
    in flight (components.host); else the closed workloads' populations in proportion."""
    app = config.application
    host: HostCpu | None = None
    if app is not None:
        users = population
        population = customers(users, app.parallel_ios)
        streams = population / users
        think_s, host = application_loop(app, streams)
    else:
        closed = [w for w in config.workloads if w.is_closed]
        given = sum(w.population or 0 for w in closed)
        think_s = sum((w.population or 0) * w.think_time_s for w in closed) / given
    return population, think_s, host


def settled(
    network: Callable[[FloatArray], Network],
    weights: FloatArray,
    open_rates: FloatArray,
    population: int,
    think_s: float,
    host: HostCpu | None,
    following: bool,
) -> tuple[Network, ClosedState]:
    """The network placed for the rate the closed class settles at, and the closed solution on
    it (`network(rates)`: the network placed for `rates`; `following`: whether the placement
    depends on the closed rate at all)."""
    # Placement depends on the rate the closed class settles at, and that rate on the
    # placement: solve x = g(x), g(x) the closed throughput on the network placed for the
    # closed class at x. g is bounded (the hardware's capacity) and may rise or fall with
    # x (a higher rate moves data to slower tiers, which relieves a fast tier that was the
    # bottleneck), so h(x) = g(x) - x is positive at 0 and negative far enough out: bracket
    # a sign change from 0 upwards, then regula falsi (Illinois) inside it.
    # The closed networks solved on the way, by their inputs: the first two placements (for
    # no load, then for the rate it settles at) are often the same under two cache keys.
    solved: dict[bytes, ClosedNetworkResult] = {}

    def settle(x: float) -> tuple[Network, ClosedState]:
        net = network(open_rates + weights * x)
        state = solve_closed(net, weights, population, think_s, open_rates, host, solved)
        return net, state

    def solve(x: float) -> tuple[tuple[Network, ClosedState], float]:
        placed, state = settle(x)
        return (placed, state), state.throughput

    net, state = settle(0.0)
    if following and state.throughput > 0:
        lo, h_lo = 0.0, state.throughput
        hi = state.throughput
        net, state = settle(hi)
        h_hi = state.throughput - hi
        for _ in range(_CLOSED_ROUNDS):
            if h_hi < 0 or abs(h_hi) <= _CLOSED_TOL * hi:
                break
            lo, h_lo = hi, h_hi
            hi = max(state.throughput, hi * 1.5)
            net, state = settle(hi)
            h_hi = state.throughput - hi
        net, state = fixed_point_between(
            solve,
            lo,
            h_lo,
            hi,
            h_hi,
            (net, state),
            rel_tol=_CLOSED_TOL,
            max_probes=_CLOSED_ROUNDS,
        )
    return net, state


@dataclass(frozen=True)
class ClosedFigures:
    """What an operating point reports of a settled closed solution: the per-workload host
    rates, arrivals [K], the stations the open work alone saturates, waits [K] (inf there),
    each station's wait per second of a visit's own service [K], and the response of each
    host-visible class [G] (inf where it visits a saturated station)."""

    rates: FloatArray
    arrival: FloatArray
    station_saturated: BoolArray
    wait_s: FloatArray
    wait_ratio: FloatArray
    class_response_s: FloatArray


def closed_figures(
    net: Network, state: ClosedState, weights: FloatArray, open_rates: FloatArray
) -> ClosedFigures:
    """The figures of the closed solution `state` on `net` (see `ClosedFigures`)."""
    rates = open_rates + weights * state.throughput
    arrival = net.arrival.T @ rates
    open_only = station_states(net, open_rates)
    station_saturated = open_only.saturated[:, 0]  # only open work can saturate a station
    states_wait = np.where(station_saturated, np.inf, state.wait_s)
    times = net.times
    # A visit waits in proportion to its own service (processor sharing, as the MVA
    # solves it): the mean wait per visit over the mean visible service at the station.
    visible_s = weights @ (net.work - net.async_work)
    visible_n = weights @ net.visible_arrival
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_visible = np.where(
            visible_n > 0, visible_s / np.where(visible_n > 0, visible_n, 1.0), 0.0
        )
        ratio = np.where(
            (mean_visible > 0) & ~station_saturated,
            state.wait_s / np.where(mean_visible > 0, mean_visible, 1.0),
            0.0,
        )
    per_class = times.service_s @ (ratio + state.speed_factor) + times.delay_s
    blocked = (times.visits > 0).astype(np.float64) @ station_saturated.astype(np.float64) > 0
    per_class = np.where(blocked, np.inf, per_class)
    return ClosedFigures(rates, arrival, station_saturated, states_wait, ratio, per_class)
