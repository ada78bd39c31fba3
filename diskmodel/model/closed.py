"""Closed solution: exact load-dependent MVA of the host-visible work at a host queue depth
or a user population, the asynchronous work (destage, prefetch) and open workloads folded in
as an open stream (D / (1 - rho)), the drives of identical ranks merged into flow-equivalent
load-dependent stations that credit command queueing.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from diskmodel.components import cache, drive
from diskmodel.model.network import RankInfo, SystemModel, is_closed
from diskmodel.prediction import (
    ClosedPoint,
    ClosedSystemResult,
)
from diskmodel.queueing.closed import ClosedResult, mva_load_dependent

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
    key = (info.drive.name, round(info.occupied_fraction, 6), drives, population)
    cached = _FES_CACHE.get(key)
    if cached is not None:
        return cached
    gain = drive.command_queueing_gain(
        info.drive, cache.staged_bytes(4096), info.occupied_fraction, False, population
    )
    log_f = np.concatenate([[0.0], -np.cumsum(np.log(gain))])
    log_g = _log_convolve_power(log_f, drives)
    alpha = drives * np.exp(log_g[:-1] - log_g[1:])
    alpha.setflags(write=False)
    if len(_FES_CACHE) > 256:
        _FES_CACHE.clear()
    _FES_CACHE[key] = alpha
    return alpha


def solve_closed(
    model: SystemModel, population: int, think_time_s: float
) -> tuple[ClosedSystemResult, FloatArray, FloatArray, float]:
    """Exact load-dependent MVA of the host-visible work, asynchronous work as an open stream.

    The closed class is the mix of the model (all workloads in their weights). Returns the
    result, per-station utilisation [K] and per-visit wait [K] (seconds) at `population`, and
    the total host rate (closed throughput + the open workloads' planned rates).
    """
    K = len(model.stations)
    visible_demand = np.zeros(K)
    async_work = np.zeros(K)  # busy seconds per closed host I/O, per server
    for f in model.flows:
        work = model.mix_weights[f.workload] * f.rate * f.moments.mean_s
        if f.visible:
            visible_demand[f.station] += work
        else:
            async_work[f.station] += work
    servers = np.array([s.servers for s in model.stations], dtype=np.float64)
    drives = np.array([s.drives for s in model.stations], dtype=np.float64)
    # MVA demands: a rank is one station holding all its drives.
    demand = visible_demand * drives
    N = int(population)
    n_axis = np.arange(1, N + 1, dtype=np.float64)
    active = demand > 0
    vis_rate = np.zeros(K)
    for f in model.flows:
        if f.visible:
            vis_rate[f.station] += model.mix_weights[f.workload] * f.rate
    background = np.zeros(K)  # utilisation by open workloads (independent of x)
    open_iops = 0.0
    for w, workload in enumerate(model.workloads):
        if workload.iops is not None and not is_closed(workload):
            background += workload.iops * model.workload_utilization_per_iops[w]
            open_iops += workload.iops
    # Open workloads that alone saturate a station have no steady state (the prediction says
    # so); the closed class is then solved with that station's remainder held at the cap.
    background = np.minimum(background, _RHO_CAP)

    # MVA stations: every active port, server and DA pair; identical ranks (same drive,
    # occupancy, drives and loads) merged into one flow-equivalent station of all their drives
    # (exact for product form, and it keeps the solution fast for hundreds of ranks).
    members: list[list[int]] = []
    alphas: list[FloatArray] = []
    rank_of = {ri.station: ri for ri in model.ranks}
    groups: dict[tuple[object, ...], int] = {}
    for k in np.flatnonzero(active).tolist():
        st = model.stations[k]
        if st.kind == "rank":
            ri = rank_of[k]
            key = (
                ri.drive.name,
                round(ri.occupied_fraction, 6),
                st.drives,
                float(np.format_float_positional(demand[k], precision=10, unique=False)),
                float(np.format_float_positional(async_work[k], precision=10, unique=False)),
                float(np.format_float_positional(background[k], precision=10, unique=False)),
            )
            if key in groups:
                members[groups[key]].append(k)
                continue
            groups[key] = len(members)
            members.append([k])
            alphas.append(np.empty(0))  # filled below, once the group's size is known
        else:
            members.append([k])
            alphas.append(np.minimum(n_axis, servers[k]) if servers[k] > 1 else np.ones(N))
    for j, group in enumerate(members):
        first = group[0]
        if model.stations[first].kind == "rank":
            alphas[j] = drives_alpha(
                rank_of[first], int(model.stations[first].drives) * len(group), N
            )
    alpha = np.vstack(alphas) if alphas else np.ones((0, N))
    group_demand = np.array([demand[g].sum() for g in members])
    group_first = np.array([g[0] for g in members], dtype=np.int64)

    def throughput_at(x: float) -> tuple[float, bool, ClosedResult]:
        """Closed throughput when the asynchronous stream runs at the rate set by `x`."""
        rho = x * async_work / servers + background
        hit_limit = bool(np.any(rho >= _RHO_CAP))
        rho = np.minimum(rho, _RHO_CAP)
        # Members of a group share their loads, so the first member's rho stands for all.
        inflated = group_demand / (1 - rho[group_first])
        solved = mva_load_dependent(inflated, N, think_time_s, alpha)
        return float(solved.throughput[-1]), hit_limit, solved

    # NVS full: the destage stream cannot exceed what its busiest station absorbs; beyond that
    # rate writes wait for NVS space, so the closed class is held to it (the extra time is
    # waiting for NVS, outside the stations' queues).
    with np.errstate(divide="ignore"):
        caps = np.where(async_work > 0, (1 - background) * servers / async_work, np.inf)
    x_cap = float(caps.min())

    # Fixed point x = g(x) with g decreasing in x: bracket [0, min(g(0), x_cap)], then the
    # Illinois method on h(x) = g(x) - x (a handful of MVA solutions).
    g_zero, limited, result = throughput_at(0.0)
    lo, h_lo = 0.0, g_zero
    hi = min(g_zero, x_cap)
    if np.isfinite(x_cap):
        g_hi, limited, result = throughput_at(hi)
        h_hi = g_hi - hi
        side = 0
        for _ in range(30):
            if h_hi >= 0 or hi - lo <= _X_TOL * hi:
                break  # at the cap (NVS full), or bracketed tightly enough
            x_try = (lo * h_hi - hi * h_lo) / (h_hi - h_lo)
            g_x, limited, result = throughput_at(x_try)
            h_x = g_x - x_try
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
    assert result is not None
    # Report the throughput of the MVA solution whose queues and residences are reported, so
    # that Little's law holds exactly (it differs from the fixed point by < _X_TOL).
    x = float(result.throughput[-1])
    throughput = np.asarray(result.throughput, dtype=np.float64)
    if x > x_cap:
        limited = True
        x = x_cap
        throughput = np.minimum(throughput, x_cap)
    population_axis = np.arange(1, N + 1, dtype=np.float64)
    response_s = population_axis / throughput - think_time_s
    util = np.zeros(K)
    wait = np.zeros(K)
    q = np.zeros(K)
    res_time = np.zeros(K)
    for j, group in enumerate(members):
        q[group] = result.queue_length[j, -1] / len(group)
        res_time[group] = result.residence_time[j, -1] / len(group)
    total_rate = x + open_iops
    busy = x * (visible_demand + async_work) / servers + background
    for k in np.flatnonzero(active).tolist():
        st = model.stations[k]
        visits = vis_rate[k] * st.drives  # visible visits to the station per closed host I/O
        service = visible_demand[k] / vis_rate[k]
        wait[k] = max(res_time[k] / visits - service, 0.0)
        if st.kind == "rank":
            # Reordering shortens the mean service at a queue: busy time per op falls by the gain.
            ri = next(r for r in model.ranks if r.station == k)
            per_drive_queue = max(int(np.ceil(q[k] / st.drives)), 1)
            gain = drive.command_queueing_gain(
                ri.drive, 4096, ri.occupied_fraction, False, per_drive_queue
            )[-1]
            util[k] = busy[k] / gain
        else:
            util[k] = busy[k]
    for k in np.flatnonzero(~active).tolist():
        util[k] = busy[k]
    util = np.minimum(util, 1.0)
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
    return closed, util, wait, total_rate
