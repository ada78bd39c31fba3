"""The maximum of a mix (`Solver.saturation`): the total rate at which a station saturates when
the data are placed for that rate. Where placement follows the load, it is the load that the
network placed for it just carries, found by climbing from the capacity of the placement that
ignores the load and closing the bracket by regula falsi (Illinois) in log x. Where z/OS
workloads queue for their devices, a device queue saturates first (`model.device_limit`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from diskmodel.model.bracket import Illinois
from diskmodel.model.device_limit import DEVICE_QUEUE, device_queue_load
from diskmodel.model.network import Network

FloatArray = NDArray[np.float64]

# The maximum rate of a mix whose placement follows the load: the placement made for it and
# the rate it carries agree to this (relative); the true maximum lies within it.
SATURATION_TOL = 1e-4


def saturating_load(
    network: Callable[[FloatArray], Network], u: FloatArray, follows_load: bool
) -> tuple[float, int]:
    """The total rate at which the mix `u` (per-workload rates summing to 1) saturates a
    station, or a z/OS device queue before it, when the data are placed for that rate
    (`network(rates)`: the network placed for `rates`), and the station that saturates
    (`DEVICE_QUEUE` for a device queue)."""
    x, k = station_load(network, u, follows_load)
    queue_x = device_queue_load(network, u, x, SATURATION_TOL)
    if queue_x is not None and queue_x < x:
        return queue_x, DEVICE_QUEUE
    return x, k


def station_load(
    network: Callable[[FloatArray], Network], u: FloatArray, follows_load: bool
) -> tuple[float, int]:
    """`saturating_load` over the storage's stations alone.

    On a network placed for a rate x the mix can grow to x times its saturation scale;
    where placement depends on the load, the answer is the x at which that is x itself
    (the load the network placed for it just carries): climbing x -> capacity(x) from
    below, then regula falsi (Illinois) in log x once a load is found that its own
    placement cannot carry.
    """

    def capacity(x: float) -> tuple[float, int]:
        scale, k = network(u * x).saturation_scale(u * x)
        return x * scale, k

    if not follows_load:
        return capacity(1.0)
    # From the capacity of the placement that ignores the load, climb x -> capacity(x)
    # while the placement for x carries more than x (a rising sequence that converges to
    # the answer from below), then close the bracket where it first carries less.
    lo = _probe(network, u)
    cap_lo, k_lo = capacity(lo)
    if not np.isfinite(cap_lo):
        return cap_lo, k_lo
    while cap_lo <= lo and lo > 1e-9:  # even the probe load is too much: shrink
        lo /= 4.0
        cap_lo, k_lo = capacity(lo)
    hi, cap_hi, k_hi = lo, cap_lo, k_lo
    for _ in range(60):
        if cap_hi / hi - 1.0 <= SATURATION_TOL:
            break
        lo, cap_lo, k_lo = hi, cap_hi, k_hi
        hi = cap_lo
        cap_hi, k_hi = capacity(hi)
    if cap_hi >= hi * (1 - SATURATION_TOL):
        return hi, k_hi  # converged from below: the placement for hi just carries hi
    b: Illinois[float] = Illinois(lo, np.log(cap_lo / lo), hi, np.log(cap_hi / hi))
    for _ in range(40):
        if b.hi / b.lo - 1 <= SATURATION_TOL:
            break
        x = float(np.exp((np.log(b.lo) * b.f_hi - np.log(b.hi) * b.f_lo) / (b.f_hi - b.f_lo)))
        cap_x, k_x = capacity(x)
        f_x = np.log(cap_x / x)
        if f_x == 0:  # the placement for x carries exactly x: regula falsi would stay here
            return x, k_x
        if f_x >= 0:
            b.passed(x, f_x)
            k_lo = k_x
        else:
            b.failed(x, f_x)
    return b.lo, k_lo


def _probe(network: Callable[[FloatArray], Network], unit: FloatArray) -> float:
    """A load at which to start looking for the maximum: the capacity of the placement
    that ignores the load (Easy Tier filling the fast tiers to capacity)."""
    net = network(unit * 1e-9)  # at a vanishing load no ceiling binds
    scale, _ = net.saturation_scale(unit)
    return float(scale) if np.isfinite(scale) else 1.0
