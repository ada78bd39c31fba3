"""Closed solution: exact load-dependent MVA of the host-visible work at one population, the
asynchronous work (destage, prefetch) and open workloads folded in as an open stream
(D / (1 - rho)), the drives of identical ranks merged into flow-equivalent stations.

The stations are the open solution's (`diskmodel.model.network`): ports and DA pairs
single-server, servers min(n, c), each drive load-dependent with the gain alpha(n) of its
command queue, so that at equal throughput the two solutions see the same hardware.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.model.bracket import fixed_point_between
from diskmodel.model.closed_loads import RHO_CAP, ClosedLoads, closed_loads, mva_stations
from diskmodel.model.network import Network
from diskmodel.model.shared_drive import drive_alpha, log_empty_weight
from diskmodel.queueing.closed_network import ClosedNetworkResult, closed_network
from diskmodel.queueing.station import load_dependent

FloatArray = NDArray[np.float64]

# Relative tolerance of the closed solution's throughput fixed point.
_X_TOL = 5e-4


@dataclass(frozen=True)
class _Solution:
    """One solution of the closed class with the asynchronous stream at a given rate: its
    throughput, whether that stream hit its cap, the network's result, the residence per MVA
    station with the stations' own service variability (`_variability_corrected`), and the
    open work per drive [K] it was solved with."""

    throughput: float
    limited: bool
    result: ClosedNetworkResult
    residence: FloatArray
    open_work: FloatArray


def _variability_corrected(
    result: ClosedNetworkResult,
    population: int,
    service: FloatArray,
    factor: FloatArray,
    x_max: float,
) -> tuple[float, FloatArray]:
    """The product-form solution with each station's waits scaled by its (1 + scv) / 2
    (`Network.wait_factor`, as the open solution scales them): a station's wait per cycle is
    its residence beyond its queue-length-one demand `service` (the D / (1 - rho) inflation
    by open work counts as waiting too; a drive's speed-up with a queue is kept); the
    throughput follows from N = X (R + Z), so Little's law holds exactly. A first-order
    correction: the queue lengths behind it are the product form's (Reiser's residual-service
    correction, used once rather than iterated). No throughput passes the bottleneck's
    capacity `x_max`: near saturation less variable service moves the waiting, it does not
    remove it. The product form's distance from that capacity shrinks at most by the smallest
    wait factor (X <= x_max - f_min (x_max - X_pf), so the closed throughput stays below it as
    a finite population's must), and the waits are shortened only as far as that allows (in
    proportion at every station)."""
    residence = np.asarray(result.residence_time, dtype=np.float64)
    stations = len(factor)
    corrected = residence.copy()
    waits = np.maximum(residence[:stations] - service, 0.0)
    cut = (1.0 - factor) * waits
    cycle = population / float(result.throughput)  # R + Z of the product-form solution
    shortened = float(cut.sum())
    if shortened <= 0.0:
        return float(result.throughput), corrected
    x_pf = float(result.throughput)
    if np.isfinite(x_max) and x_max > x_pf:
        ceiling = x_max - float(factor.min()) * (x_max - x_pf)
        allowed = max(cycle - population / ceiling, 0.0)
    else:
        allowed = shortened if not np.isfinite(x_max) else 0.0
    if allowed < shortened:
        cut *= allowed / shortened
        shortened = allowed
    corrected[:stations] = residence[:stations] - cut
    return population / (cycle - shortened), corrected


def _fixed_point(throughput_at: Callable[[float], _Solution], x_cap: float) -> _Solution:
    """Solve x = g(x), g decreasing: bracket [0, min(g(0), x_cap)], then the Illinois method
    on h(x) = g(x) - x (a handful of MVA solutions)."""
    solution = throughput_at(0.0)
    if not np.isfinite(x_cap):
        return solution  # no asynchronous work: g does not depend on x
    g_zero = solution.throughput
    hi = min(g_zero, x_cap)
    solution = throughput_at(hi)

    def solve(x: float) -> tuple[_Solution, float]:
        probe = throughput_at(x)
        return probe, probe.throughput

    # h_hi >= 0: at the cap (NVS full), the solution at hi stands.
    return fixed_point_between(
        solve, 0.0, g_zero, hi, solution.throughput - hi, solution, rel_tol=_X_TOL, max_probes=40
    )


@dataclass(frozen=True)
class HostCpu:
    """The host's CPUs as one more station of the closed network: CPU seconds per host I/O
    (a transaction's CPU time over its I/Os) on `cpus` servers."""

    demand_s: float
    cpus: int


@dataclass(frozen=True)
class ClosedState:
    """The closed class at one population: its throughput (host I/O per second), mean storage
    response (excluding think time and the host CPU), whether the destage path capped it (NVS
    full), and per station [K] utilisation, wait per visible visit, effective service per
    operation and its ratio to the queue-length-one service; with a host CPU station, its
    residence (wait + service) per host I/O and its utilisation."""

    population: int
    think_time_s: float
    throughput: float
    response_s: float
    destage_limited: bool
    utilization: FloatArray
    wait_s: FloatArray
    service_s: FloatArray
    speed_factor: FloatArray
    host_residence_s: float = 0.0
    host_utilization: float = 0.0


def solve_closed(
    net: Network,
    weights: FloatArray,
    population: int,
    think_time_s: float,
    open_rates: FloatArray,
    host: HostCpu | None = None,
    solved: dict[bytes, ClosedNetworkResult] | None = None,
) -> ClosedState:
    """Exact (or, for very large populations, saddle-point) solution of the closed workloads
    (one class mixed by `weights`, summing to 1) at `population`, the asynchronous work and the
    open workloads (at `open_rates` [W]) as an open stream: folded into each drive's rate
    multipliers exactly (`drive_alpha`), and at ports, servers and DA pairs by the D / (1 - rho)
    reduction. Identical ranks form one station of all their drives (`queueing.closed_network`
    merges them by Norton's theorem). A `host` CPU is one more multi-server station the closed
    class visits (an application's transactions).

    `solved` keeps the network solutions by a digest of their inputs (demands, rate
    multipliers, servers, population, think time), for a caller that solves networks which
    differ only where the solution does not look: two placements whose shares are equal (the
    placement for a vanishing load and the one for a load at which no Easy Tier ceiling binds)
    give the same inputs, so the same solution, and it is solved once."""
    N = int(population)
    loads = closed_loads(net, weights, open_rates)
    destaging = weights @ net.destage_work > 0  # the stations on the NVS's destage path
    # The front end's fixed delay per I/O holds an I/O out of every queue, as think time does.
    fractions = [w.mix.fractions for w in net.workloads]
    delay_s = float(weights @ net.times.delay_per_io(len(fractions), fractions))
    members = mva_stations(net, loads)
    wait_factor = np.array([net.wait_factor[g[0]] for g in members])
    is_drive = np.array([g is not None for g in net.gains])
    top = np.where(is_drive, net.capacity, 1.0)  # a drive's most work per second: alpha(D)
    servers, drives, base_demand = _mva_figures(net, loads, members, is_drive, host)

    def throughput_at(x: float) -> _Solution:
        """Closed throughput when the asynchronous stream runs at the rate set by `x`."""
        # Per server: the open stream's share; at a drive (one server) its work in seconds of
        # queue-length-one service per second, folded into the drive's factor exactly.
        open_work = x * loads.asynchronous + loads.background
        rho = np.where(
            is_drive, open_work / top, x * loads.asynchronous / loads.servers + loads.background
        )
        hit_limit = bool(np.any((rho >= RHO_CAP) & destaging))
        open_work = np.where(is_drive, np.minimum(open_work, RHO_CAP * top), open_work)
        rho = np.minimum(rho, RHO_CAP)
        demands = base_demand.copy()
        alphas: list[FloatArray | None] = []
        for j, group in enumerate(members):
            k = group[0]
            gain = net.gains[k]
            if gain is not None:
                alphas.append(drive_alpha(gain, float(open_work[k]), N))
            else:
                demands[j] /= 1 - rho[k]
                alphas.append(None)
        alphas.extend([None] * (len(demands) - len(members)))
        result = _network_at(demands, N, think_time_s + delay_s, servers, drives, alphas, solved)
        service = base_demand[: len(members)]
        x, residence = _variability_corrected(result, N, service, wait_factor, x_bound)
        return _Solution(x, hit_limit, result, residence, open_work)

    x_bound, caps = _throughput_limits(loads, is_drive, top, host)
    x_cap = float(caps.min())
    solution = _fixed_point(throughput_at, x_cap)
    limited = solution.limited
    # Report the throughput of the solution whose queues are reported, so that Little's law
    # holds exactly (it differs from the fixed point by < _X_TOL).
    # The fixed point settles to _X_TOL: near the bottleneck's capacity its throughput may
    # pass it by that much, which no closed population can; hold it there.
    x = min(solution.throughput, x_bound)
    if x > x_cap:
        # Held to what the asynchronous work's busiest station absorbs: NVS full where that
        # work is destaging (a card's link transfers or prefetches saturate without it).
        limited, x = limited or bool(destaging[int(np.argmin(caps))]), x_cap
    host_residence = 0.0
    if len(solution.residence) > len(members):
        host_residence = float(solution.residence[len(members)])
    response_s = N / x - think_time_s - host_residence
    util, wait, service, factor = _station_states(net, loads, members, solution, x, is_drive)
    host_util = x * host.demand_s / host.cpus if host is not None else 0.0
    return ClosedState(
        N,
        think_time_s,
        x,
        response_s,
        limited,
        util,
        wait,
        service,
        factor,
        host_residence_s=host_residence,
        host_utilization=min(host_util, 1.0),
    )


def _mva_figures(
    net: Network,
    loads: ClosedLoads,
    members: list[list[int]],
    is_drive: NDArray[np.bool_],
    host: HostCpu | None,
) -> tuple[FloatArray, NDArray[np.int64], FloatArray]:
    """Per MVA station (each group of `members`, then a `host` CPU with work to do): its
    servers, its drives (a group of identical ranks: all their drives) and its demand per
    closed I/O."""
    servers = np.array([net.stations[g[0]].servers for g in members], dtype=np.float64)
    drives = np.array(
        [net.stations[g[0]].drives * len(g) if is_drive[g[0]] else 1 for g in members]
    )
    base_demand = np.array([loads.demand[g].sum() for g in members])
    if host is not None and host.demand_s > 0:
        # The host CPU: a c-server station no open work visits, after the storage's stations.
        servers = np.append(servers, float(host.cpus))
        drives = np.append(drives, 1)
        base_demand = np.append(base_demand, host.demand_s)
    return servers, drives, base_demand


def _network_at(
    demands: FloatArray,
    N: int,
    think_s: float,
    servers: FloatArray,
    drives: NDArray[np.int64] | FloatArray,
    alphas: list[FloatArray | None],
    solved: dict[bytes, ClosedNetworkResult] | None,
) -> ClosedNetworkResult:
    """The closed network's solution at `N`, from `solved` where it holds the same inputs (by a
    digest, not the inputs themselves: a drive's multipliers run to the population)."""
    digest = hashlib.blake2b(f"{N} {think_s!r}".encode(), digest_size=32)
    for part in (demands, servers, drives, *alphas):
        digest.update(b"-" if part is None else part.tobytes())
    key = digest.digest()
    result = None if solved is None else solved.get(key)
    if result is None:
        result = closed_network(
            demands, N, think_s, servers=servers, alpha=alphas, members=drives, points=[N]
        )
        if solved is not None:
            solved[key] = result
    return result


def _throughput_limits(
    loads: ClosedLoads, is_drive: NDArray[np.bool_], top: FloatArray, host: HostCpu | None
) -> tuple[float, FloatArray]:
    """The most the closed class could pass through any station (its visible and asynchronous
    work per closed I/O against what the open workloads leave, and the host CPUs): the
    asymptotic bound; and per station, the closed throughput at which the asynchronous stream
    fills it (NVS full: the destage stream cannot exceed what its busiest station absorbs;
    beyond that rate writes wait for NVS space, so the closed class is held to it)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        free = np.where(is_drive, top - loads.background, (1 - loads.background) * loads.servers)
        per_io = loads.visible + loads.asynchronous
        x_bound = float(
            np.where(per_io > 0, free / np.where(per_io > 0, per_io, 1.0), np.inf).min()
        )
    if host is not None and host.demand_s > 0:
        x_bound = min(x_bound, host.cpus / host.demand_s)
    with np.errstate(divide="ignore", invalid="ignore"):
        room = np.where(is_drive, top - loads.background, (1 - loads.background) * loads.servers)
        caps = np.where(loads.asynchronous > 0, room / loads.asynchronous, np.inf)
    return x_bound, caps


def _station_states(
    net: Network,
    loads: ClosedLoads,
    members: list[list[int]],
    solution: _Solution,
    x: float,
    is_drive: NDArray[np.bool_],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per station [K] at closed throughput `x` of `solution`: utilisation, wait per visit,
    effective service per operation and its ratio to the queue-length-one service."""
    result = solution.result
    K = len(net.stations)
    residence = np.zeros(K)
    util = x * (loads.asynchronous + loads.visible) / loads.servers + loads.background
    for j, group in enumerate(members):
        residence[group] = solution.residence[j] / len(group)
        gain = net.gains[group[0]]
        if gain is not None:
            # A drive is busy unless it holds no request of either class: no closed one
            # (the network's member_idle) and, given that, no open one (1 / h(0)).
            empty = result.member_idle[j] * np.exp(
                -log_empty_weight(gain, float(solution.open_work[group[0]]))
            )
            util[group] = 1.0 - float(np.clip(empty, 0.0, 1.0))
    grouped = {k for g in members for k in g}
    for k in range(K):  # a drive with asynchronous work only: an open station
        gain = net.gains[k]
        if gain is None or k in grouped:
            continue
        work = float(x * loads.asynchronous[k] + loads.background[k])
        util[k] = float(load_dependent(work, 1.0, gain).utilization) if work > 0 else 0.0
    util = np.minimum(util, 1.0)
    # Effective service per operation: busy time over everything that arrives.
    arrivals = x * loads.arrival + loads.background_arrival
    offered = x * (loads.visible + loads.asynchronous) + loads.background * loads.servers
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_s = np.where(arrivals > 0, offered / np.where(arrivals > 0, arrivals, 1.0), 0.0)
        service = np.where(
            arrivals > 0, util * loads.servers / np.where(arrivals > 0, arrivals, 1.0), mean_s
        )
        factor = np.where(is_drive & (mean_s > 0), service / np.where(mean_s > 0, mean_s, 1.0), 1.0)
    service = np.where(is_drive, service, mean_s)
    wait = np.zeros(K)
    for k in np.flatnonzero(loads.demand > 0).tolist():
        visits = loads.visible_arrival[k] * net.stations[k].drives  # per closed host I/O
        own = loads.visible[k] / loads.visible_arrival[k] * factor[k]
        wait[k] = max(residence[k] / visits - own, 0.0)
    return util, wait, service, factor
