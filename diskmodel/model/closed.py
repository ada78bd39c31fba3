"""Closed solution: exact load-dependent MVA of the host-visible work at a host queue depth
or a user population, the asynchronous work (destage, prefetch) and open workloads folded in
as an open stream (D / (1 - rho)), the drives of identical ranks merged into flow-equivalent
load-dependent stations that credit command queueing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.components import cache, drive
from diskmodel.model.network import RankInfo, SystemModel, is_closed
from diskmodel.prediction import (
    ClosedPoint,
    ClosedSystemResult,
)
from diskmodel.queueing.closed import ClosedResult, marginal_probabilities, mva_load_dependent

FloatArray = NDArray[np.float64]

MS = 1e-3
# Relative tolerance of the closed solution's throughput fixed point.
_X_TOL = 1e-3
# Largest share of a station the asynchronous stream may take in the closed solution; at this
# cap the destage path is saturated (NVS full) and the closed class gets the remainder.
_RHO_CAP = 0.995


def _log_convolve(log_a: FloatArray, log_b: FloatArray) -> FloatArray:
    """log of (a * b)(n) = sum_{j<=n} a(j) b(n-j), n = 0..len-1, without leaving log space."""
    size = log_a.shape[0]
    n = np.arange(size)
    lag = n[:, None] - n[None, :]
    terms = np.where(lag >= 0, log_a[None, :] + log_b[np.maximum(lag, 0)], -np.inf)
    top = terms.max(axis=1)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.asarray(
            safe + np.log(np.exp(terms - safe[:, None]).sum(axis=1)), dtype=np.float64
        )


def _log_convolve_power(log_f: FloatArray, times: int) -> FloatArray:
    """log of the `times`-fold convolution of f with itself (binary powering)."""
    result = np.full(log_f.shape, -np.inf)
    result[0] = 0.0  # the identity: one way to place 0 customers
    base = log_f
    while times:
        if times & 1:
            result = _log_convolve(result, base)
        times >>= 1
        if times:
            base = _log_convolve(base, base)
    return result


_FES_CACHE: dict[tuple[str, float, int, int], FloatArray] = {}


def _log_group_factor(info: RankInfo, drives: int, population: int) -> FloatArray:
    """log f(n), n = 0..N, of `drives` identical drives of demand 1: the drives-fold
    convolution of one drive's f_d(n) = 1 / prod_{i<=n} alpha_d(i) (its random-read gain)."""
    key = (info.drive.name, round(info.occupied_fraction, 6), drives, population)
    cached = _FES_CACHE.get(key)
    if cached is not None:
        return cached
    gain = drive.command_queueing_gain(
        info.drive, cache.staged_bytes(4096), info.occupied_fraction, False, population
    )
    log_f = np.concatenate([[0.0], -np.cumsum(np.log(gain))])
    log_g = _log_convolve_power(log_f, drives)
    log_g.setflags(write=False)
    if len(_FES_CACHE) > 256:
        _FES_CACHE.clear()
    _FES_CACHE[key] = log_g
    return log_g


def drives_alpha(info: RankInfo, drives: int, population: int) -> FloatArray:
    """Rate multiplier alpha(n), n = 1..N, of `drives` identical drives seen as one station.

    Each drive is a load-dependent station (its command-queueing gain alpha_d, see
    `diskmodel.components.drive`) receiving an equal share of the operations. By Norton's
    theorem for product-form networks (Chandy, Herzog & Woo, "Parametric analysis of queuing
    networks", IBM J. Res. Dev. 19(1), 1975) the group is exactly a flow-equivalent station
    with f(n) = (f_d * ... * f_d)(n) (the drives-fold convolution of a drive's
    f_d(n) = d^n / prod alpha_d), so alpha(n) = drives d f(n-1) / f(n); scaling d scales f(n)
    by a power of n, so alpha does not depend on the demand and is computed with d = 1.
    alpha(1) = 1 and alpha(n) -> drives x max alpha_d. Uses the gain of the drive's random read
    (the closed class's operation at a rank).
    """
    log_g = _log_group_factor(info, drives, population)
    return np.asarray(drives * np.exp(log_g[:-1] - log_g[1:]), dtype=np.float64)


def drive_idle_given_group(info: RankInfo, drives: int, population: int) -> FloatArray:
    """P(a given drive of the group holds no request | the group holds n), n = 0..N.

    In product form the n requests at a flow-equivalent group are spread over its identical
    drives with probability prod_i f_d(n_i) / f(n), so one drive is empty with probability
    f_{drives-1}(n) / f_drives(n) (the other drives hold all n). 1 at n = 0, falling with n.
    """
    log_all = _log_group_factor(info, drives, population)
    log_rest = _log_group_factor(info, drives - 1, population)
    return np.asarray(np.exp(log_rest - log_all), dtype=np.float64)


@dataclass(frozen=True)
class _Loads:
    """Per station [K]: busy seconds per closed host I/O that the host waits for (`visible`,
    a rank's for all its drives in `demand`) and that it does not (`asynchronous`: destage,
    prefetch), visible visits, and the utilisation open workloads add (`background`)."""

    visible: FloatArray
    demand: FloatArray
    asynchronous: FloatArray
    visible_rate: FloatArray
    background: FloatArray
    open_iops: float
    servers: FloatArray


def _loads(model: SystemModel) -> _Loads:
    K = len(model.stations)
    visible = np.zeros(K)
    asynchronous = np.zeros(K)  # per server (a rank: per drive)
    visible_rate = np.zeros(K)
    for f in model.flows:
        work = model.mix_weights[f.workload] * f.rate * f.moments.mean_s
        if f.visible:
            visible[f.station] += work
            visible_rate[f.station] += model.mix_weights[f.workload] * f.rate
        else:
            asynchronous[f.station] += work
    background = np.zeros(K)
    open_iops = 0.0
    for w, workload in enumerate(model.workloads):
        if workload.iops is not None and not is_closed(workload):
            background += workload.iops * model.workload_utilization_per_iops[w]
            open_iops += workload.iops
    drives = np.array([s.drives for s in model.stations], dtype=np.float64)
    return _Loads(
        visible=visible,
        demand=visible * drives,  # MVA: a rank is one station holding all its drives
        asynchronous=asynchronous,
        visible_rate=visible_rate,
        # Open workloads that alone saturate a station have no steady state (the prediction
        # says so); the closed class is then solved with that station held at the cap.
        background=np.minimum(background, _RHO_CAP),
        open_iops=open_iops,
        servers=np.array([s.servers for s in model.stations], dtype=np.float64),
    )


def _key(value: float) -> float:
    """A load rounded to 10 significant digits, to group ranks that carry the same load."""
    return float(f"{value:.10g}")


def _mva_stations(model: SystemModel, loads: _Loads, N: int) -> tuple[list[list[int]], FloatArray]:
    """The MVA network: every active port, server and DA pair, and the ranks grouped.

    Identical ranks (same drive, occupancy, width and loads) become one flow-equivalent
    station of all their drives (exact for product form; keeps hundreds of ranks fast).
    Returns the member stations of each MVA station and the rate multipliers alpha [M, N].
    """
    n_axis = np.arange(1, N + 1, dtype=np.float64)
    rank_of = {ri.station: ri for ri in model.ranks}
    members: list[list[int]] = []
    groups: dict[tuple[object, ...], int] = {}
    for k in np.flatnonzero(loads.demand > 0).tolist():
        st = model.stations[k]
        if st.kind != "rank":
            members.append([k])
            continue
        ri = rank_of[k]
        key = (
            ri.drive.name,
            round(ri.occupied_fraction, 6),
            st.drives,
            _key(loads.demand[k]),
            _key(loads.asynchronous[k]),
            _key(loads.background[k]),
        )
        if key in groups:
            members[groups[key]].append(k)
        else:
            groups[key] = len(members)
            members.append([k])
    alphas = []
    for group in members:
        st = model.stations[group[0]]
        if st.kind == "rank":
            alphas.append(drives_alpha(rank_of[group[0]], st.drives * len(group), N))
        elif st.servers > 1:
            alphas.append(np.minimum(n_axis, st.servers))
        else:
            alphas.append(np.ones(N))
    return members, (np.vstack(alphas) if alphas else np.ones((0, N)))


@dataclass(frozen=True)
class _Solution:
    """One MVA solution of the closed class with the asynchronous stream at a given rate:
    its throughput, whether that stream hit its cap, the result, and the inflated demands
    [M] and asynchronous-plus-open share rho [K] it was solved with."""

    throughput: float
    limited: bool
    result: ClosedResult
    demands: FloatArray
    rho: FloatArray


def _fixed_point(throughput_at: Callable[[float], _Solution], x_cap: float) -> _Solution:
    """Solve x = g(x), g decreasing: bracket [0, min(g(0), x_cap)], then the Illinois method
    on h(x) = g(x) - x (a handful of MVA solutions). Returns the last solution (its `limited`:
    whether the asynchronous stream hit its cap)."""
    solution = throughput_at(0.0)
    if not np.isfinite(x_cap):
        return solution  # no asynchronous work: g does not depend on x
    g_zero = solution.throughput
    lo, h_lo = 0.0, g_zero
    hi = min(g_zero, x_cap)
    solution = throughput_at(hi)
    h_hi = solution.throughput - hi
    side = 0
    for _ in range(30):
        if h_hi >= 0 or hi - lo <= _X_TOL * hi:
            break  # at the cap (NVS full), or bracketed tightly enough
        x_try = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
        solution = throughput_at(x_try)
        h_x = solution.throughput - x_try
        if abs(h_x) <= _X_TOL * x_try:
            break
        if h_x > 0:
            lo, h_lo = x_try, h_x
            if side == +1:
                h_hi /= 2
            side = +1
        else:
            hi, h_hi = x_try, h_x
            if side == -1:
                h_lo /= 2
            side = -1
    return solution


def _drive_busy_closed(
    model: SystemModel,
    members: list[list[int]],
    alpha: FloatArray,
    solution: _Solution,
    think_time_s: float,
) -> dict[int, float]:
    """Per rank group j: the fraction of one drive's time spent on the closed class.

    A drive with command queueing serves faster as its queue grows, so its busy fraction is
    not its work divided by any single gain: it is the probability that it holds a request.
    From the product form: the group's queue distribution q(n) (`marginal_probabilities`),
    and given n at the group, one drive is empty with probability f_{m-1}(n) / f_m(n)
    (`drive_idle_given_group`), so P(drive empty) = sum_n q(n) f_{m-1}(n) / f_m(n). In the
    mixed-network reduction the closed class has the share 1 - rho of the drive, so it keeps
    the drive busy (1 - rho) (1 - P(empty)) of the time. Equivalently: its work X_d S over
    the mean gain while busy, E[alpha | busy].
    """
    rank_of = {ri.station: ri for ri in model.ranks}
    N = int(solution.result.population[-1])
    busy: dict[int, float] = {}
    for j, group in enumerate(members):
        st = model.stations[group[0]]
        if st.kind != "rank":
            continue
        q = marginal_probabilities(solution.demands, N, think_time_s, alpha, station=j)[:, -1]
        idle = drive_idle_given_group(rank_of[group[0]], st.drives * len(group), N)
        p_empty = float(np.clip(q @ idle, 0.0, 1.0))
        busy[j] = (1 - float(solution.rho[group[0]])) * (1 - p_empty)
    return busy


def _station_results(
    model: SystemModel,
    loads: _Loads,
    members: list[list[int]],
    closed_busy: dict[int, float],
    result: ClosedResult,
    x: float,
) -> tuple[FloatArray, FloatArray]:
    """Per station [K]: utilisation and the wait per host-visible visit (seconds).

    Wait per visit = MVA residence / visits - the visible service time. Utilisation is the
    fraction of time busy (of each server; of each drive of a rank): the asynchronous and
    open work x A / c + background plus the closed class's share, X D / c at a port, server or
    DA pair, and at a rank the drive's busy fraction from `_drive_busy_closed`, which credits
    command queueing exactly (per drive, never per merged group)."""
    K = len(model.stations)
    residence = np.zeros(K)
    for j, group in enumerate(members):
        residence[group] = result.residence_time[j, -1] / len(group)
    async_busy = x * loads.asynchronous / loads.servers + loads.background
    util = async_busy + x * loads.visible / loads.servers
    for j, busy in closed_busy.items():
        util[members[j]] = async_busy[members[j]] + busy
    wait = np.zeros(K)
    for k in np.flatnonzero(loads.demand > 0).tolist():
        st = model.stations[k]
        visits = loads.visible_rate[k] * st.drives  # visible visits per closed host I/O
        service = loads.visible[k] / loads.visible_rate[k]
        wait[k] = max(residence[k] / visits - service, 0.0)
    return np.minimum(util, 1.0), wait


def solve_closed(
    model: SystemModel, population: int, think_time_s: float
) -> tuple[ClosedSystemResult, FloatArray, FloatArray, float]:
    """Exact load-dependent MVA of the host-visible work, asynchronous work as an open stream.

    The closed class is the mix of the model (all workloads in their weights). Returns the
    result, per-station utilisation [K] and per-visit wait [K] (seconds) at `population`, and
    the total host rate (closed throughput + the open workloads' planned rates).
    """
    N = int(population)
    loads = _loads(model)
    members, alpha = _mva_stations(model, loads, N)
    group_demand = np.array([loads.demand[g].sum() for g in members])
    group_first = np.array([g[0] for g in members], dtype=np.int64)

    def throughput_at(x: float) -> _Solution:
        """Closed throughput when the asynchronous stream runs at the rate set by `x`."""
        rho = x * loads.asynchronous / loads.servers + loads.background
        hit_limit = bool(np.any(rho >= _RHO_CAP))
        rho = np.minimum(rho, _RHO_CAP)
        # Members of a group share their loads, so the first member's rho stands for all.
        inflated = group_demand / (1 - rho[group_first])
        solved = mva_load_dependent(inflated, N, think_time_s, alpha)
        return _Solution(float(solved.throughput[-1]), hit_limit, solved, inflated, rho)

    # NVS full: the destage stream cannot exceed what its busiest station absorbs; beyond that
    # rate writes wait for NVS space, so the closed class is held to it (the extra time is
    # waiting for NVS, outside the stations' queues).
    with np.errstate(divide="ignore"):
        caps = np.where(
            loads.asynchronous > 0,
            (1 - loads.background) * loads.servers / loads.asynchronous,
            np.inf,
        )
    x_cap = float(caps.min())
    solution = _fixed_point(throughput_at, x_cap)
    limited, result = solution.limited, solution.result
    # Report the throughput of the MVA solution whose queues and residences are reported, so
    # that Little's law holds exactly (it differs from the fixed point by < _X_TOL).
    x = float(result.throughput[-1])
    throughput = np.asarray(result.throughput, dtype=np.float64)
    if x > x_cap:
        limited = True
        x = x_cap
        throughput = np.minimum(throughput, x_cap)
    response_s = np.arange(1, N + 1, dtype=np.float64) / throughput - think_time_s
    closed_busy = _drive_busy_closed(model, members, alpha, solution, think_time_s)
    util, wait = _station_results(model, loads, members, closed_busy, result, x)
    step = max(1, N // 60)
    points = list(range(1, N + 1, step))
    if points[-1] != N:
        points.append(N)
    closed = ClosedSystemResult(
        population=N,
        think_time_ms=think_time_s / MS,
        iops=x,
        response_time_ms=float(response_s[-1]) / MS,
        destage_limited=limited,
        curve=tuple(
            ClosedPoint(n, float(throughput[n - 1]), float(response_s[n - 1]) / MS) for n in points
        ),
    )
    return closed, util, wait, x + loads.open_iops
