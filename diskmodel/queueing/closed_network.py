"""Single-class closed networks of load-dependent stations at large populations, in O(N) memory.

`closed_network(demands, N, think_time, servers, alpha, members)` solves a closed product-form
network at population N and returns the station means at N and the throughput at every n
(or at chosen `points`), never an [K, N] array. A station may be a group of `members`
identical load-dependent members sharing its demand (a rank of drives with command queueing:
the flow-equivalent station of Chandy, Herzog & Woo 1975 without forming its N x N convolution
power); `member_idle` is the probability that one given member is idle, which is what a drive's
busy time is when its rate depends on its queue.

Method ("exact"): normalising constants in log space (`diskmodel.queueing.convolution`).
The ordinary queues, delays and think time give log G_base(0..N) in O(K N); each member of a
load-dependent station is one convolution with a geometric-tailed factor, O(N n0) for n0 rate
multipliers. Leave-one-out constants (a member's queue law needs the network without it) come
from a balanced split of the stations (each member applied about log2(L) + 1 times for L
load-dependent stations), never from an O(N^2) convolution. Then, in theta units,
X(n) = G(n-1) / G(n); an ordinary queue holds Q_k(N) = sum_i D_k^i G(N-i) / G(N); a member of
a load-dependent station is empty with probability f(0) G_-member(N) / G(N) and holds
sum_j j f(j) G_-member(N-j) / G(N). Cost about N (K + sum over load-dependent stations of
members x n0 x (log2 L + 2)) log-sum-exp terms; memory O(N log L).

At the model's sizes (up to 8 load-dependent stations, N < 2048, where `_linear_is_cheaper`
finds it so: many members) the leave-one-out constants are first formed in linear space,
each sequence scaled to its largest value and tilted by e^(-t n) to level log G: a few
compiled convolutions per station (binary powers of a member's factor) instead of one
log-space call per member, 5-10x faster there. They are kept only where every value is at
least e^-400 of its sequence's largest (exact to rounding, see `_LINEAR_FLOOR`; they agree
with the log-space route to 1e-13); otherwise the log-space route above is used.

Method ("saddle point", `diskmodel.queueing.saddle`): when the exact cost exceeds
`exact_budget_s`, the populations above the largest affordable N_e are solved by the
saddle-point approximation of the normalising constant with its first Edgeworth correction
(the network as independent open stations tilted to hold n customers on average). Measured
against the exact solution over random networks (tests/queueing/test_closed_network.py):
relative throughput error below 1e-4 from n = 1024 and 2e-6 from n = 4096, except at the
knee of a network whose single bottleneck meets a large think time, where it is about
0.04 / sqrt(n_knee) (1.2e-3 at a knee of 1,000 customers, 3.7e-4 at 10,000); queue lengths
within 2e-5 relative, except that two nearly tied single-server bottlenecks share their
customers within 1%. `error_estimate` is the relative size of the Edgeworth correction: within
1.5 times the true error near a knee and far above it elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray, IntArray, frozen, frozen_int, sealed
from diskmodel.queueing._network_spec import Network, Unit, network
from diskmodel.queueing.convolution import (
    StationKernel,
    _log_geometric_tail,
    _row_logsumexp,
    log_convolve,
    log_convolve_power,
    log_station_factor,
)

DEFAULT_EXACT_BUDGET_S = 0.25
"""Default time budget of the exact method, by the cost model `exact_cost_ns` (its constants
measured on a shared 2-core machine in bench/bench_queueing.py)."""

DEFAULT_TOLERANCE = 1e-4
"""Largest saddle-point error estimate "auto" accepts when the exact method is affordable
within ten budgets (the estimate is within 1.5x of the true error near a knee, where the
approximation is weakest, and far above it elsewhere)."""

MIN_EXACT_POPULATION = 1024
"""Populations up to this are always solved exactly (the saddle point is least accurate at
small n: up to 2.4% at n = 16, 0.18% at n = 256, 6e-5 from n = 1024 on the test networks)."""


@dataclass(frozen=True, slots=True)
class ClosedNetworkResult:
    """A closed network at population N, and its throughput curve.

    population: N.
    throughput: X(N); response_time: R(N) = N / X(N) - Z (think time excluded).
    queue_length, residence_time, utilization: [K] at N. Utilisation is X D_k over the
        station's peak rate (members x max alpha; c for c servers; 0 for a delay).
    member_idle: [K] probability that one given member (server) of station k is idle at N:
        1 - U for a single queue or c servers, 1 for a delay, and for a member whose rate
        depends on its own queue (a drive with command queueing) the product-form P(it holds
        no customer).
    curve_population, curve_throughput: [P] X(n) at the populations asked for (all 1..N by
        default).
    method: "exact" or "saddle point"; exact_up_to: populations <= this are exact.
    error_estimate: relative size of the Edgeworth correction at the saddle-point
        populations reported (0 when every population is exact); the error measured against
        exact solutions is 10-1000 times smaller.
    """

    population: int
    throughput: float
    response_time: float
    queue_length: FloatArray
    residence_time: FloatArray
    utilization: FloatArray
    member_idle: FloatArray
    curve_population: IntArray
    curve_throughput: FloatArray
    method: str
    exact_up_to: int
    error_estimate: float


# Cost model of the exact method, measured on a shared 2-core machine (bench_queueing.py):
# one member step (`StationKernel.apply`) takes about 100 us + 250 ns per output whatever n0
# (the linear-space head convolution is cheap next to the bookkeeping); one general log-space
# convolution about 300 us + 60 ns per term (L^2 / 2 terms).
_STEP_CALL_NS = 100_000.0
_STEP_OUTPUT_NS = 250.0
_CONVOLUTION_CALL_NS = 300_000.0
_CONVOLUTION_TERM_NS = 60.0


def _step_ns(times: int, length: int) -> float:
    return times * (_STEP_CALL_NS + _STEP_OUTPUT_NS * length)


def _convolution_ns(length: int) -> float:
    return _CONVOLUTION_CALL_NS + _CONVOLUTION_TERM_NS * length * length / 2.0


def _power_ns(times: int, length: int) -> float:
    """Forming f^(*times) by binary powering: about 2 log2(times) convolutions."""
    return 2.0 * math.log2(max(times, 2)) * _convolution_ns(length)


def _use_power(unit: Unit, length: int) -> bool:
    """Members by binary powering (formed once, then one convolution per use) rather than
    one step per member."""
    m = unit.members
    return _power_ns(m, length) + _power_ns(max(m - 1, 1), length) < _step_ns(m, length)


def exact_cost_ns(net: Network, N: int) -> float:
    """Estimated time of the exact method up to population N, in nanoseconds."""
    L = N + 1
    depth = math.ceil(math.log2(len(net.units))) + 2 if len(net.units) > 1 else 2
    total = (float(net.base_queue.size) + 2.0) * (_STEP_CALL_NS + 100.0 * L)
    for unit in net.units:
        if _use_power(unit, L):
            total += _power_ns(unit.members, L) + _power_ns(max(unit.members - 1, 1), L)
            total += depth * _convolution_ns(L)
        else:
            total += depth * _step_ns(unit.members, L)
    return total


def _log_base(net: Network, length: int) -> FloatArray:
    """log G_base(n), n = 0..length-1: think time and delays (Poisson), then each ordinary
    queue as the first-order recurrence g(n) += d g(n-1) (in log space: never overflows)."""
    n = np.arange(length, dtype=np.float64)
    z = net.delay_total
    if z > 0:
        log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1.0, length)))))
        lg = n * math.log(z) - log_fact
    else:
        lg = np.full(length, -np.inf)
        lg[0] = 0.0
    for d in np.unique(net.base_queue):
        for _ in range(int(np.sum(net.base_queue == d))):
            lg = _log_geometric_tail(lg, math.log(d))
    return lg


class _Applier:
    """Convolves a sequence with `times` members of a unit: member by member (O(times n0 L))
    or with the unit's power f^(*times) formed once by binary powering (O(L^2 log times)),
    whichever is cheaper at this length."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.powers: dict[tuple[int, int], FloatArray] = {}
        self.kernels: dict[int, StationKernel] = {}

    def __call__(self, seq: FloatArray, unit: Unit, times: int) -> FloatArray:
        if times == 0:
            return seq
        if not _use_power(unit, self.length):
            kernel = self.kernels.get(id(unit))
            if kernel is None:
                kernel = self.kernels[id(unit)] = StationKernel(unit.demand, unit.alpha)
            for _ in range(times):
                seq = kernel.apply(seq)
            return seq
        key = (id(unit), times)
        if key not in self.powers:
            lf = log_station_factor(unit.demand, unit.alpha, self.length)
            self.powers[key] = log_convolve_power(lf, times, self.length)
        return log_convolve(seq, self.powers[key], self.length)


_LINEAR_UNITS = 8
_LINEAR_LENGTH = 2048
"""The linear-space leave-one-out (`_leave_one_out_linear`) is tried up to this many
load-dependent units (its work grows as their square) and this many populations (each
convolution is L^2 products): the model's networks, where the log-space route's cost is the
number of its calls, not their size."""

_LINEAR_FLOOR = -400.0
"""The linear-space leave-one-out is kept only where every value it gives is at least e^-400
of its sequence's largest: a term lost to underflow is below e^-745 of its product's scale,
and the error that carries through its convolutions (at most L-fold per convolution, a few
dozen deep) stays below e^-580 of that scale, so such a value is exact to rounding."""


# Cost of the two leave-one-out routes, measured on a model-like network (bench_queueing.py's
# 8 or 64 drives, two 8-core servers; N = 64-2,000; shared 2-core machine): a linear-space
# convolution about 1 ns per product (L^2 a convolution); a log-space member step about
# 60 us + 400 ns per output (less where the range is narrow). Measured: at N = 256, linear
# 0.4-0.5 ms, log 1.1-49 ms; at N = 1,024, 8 drives linear 16 ms, log 1.8 ms, 64 drives
# linear 20 ms, log 109 ms; at N = 2,000, 8 drives 58 and 20 ms, 64 drives 73 and 172 ms.
_PRODUCT_NS = 1.0
_MEMBER_STEP_NS = 60_000.0
_MEMBER_OUTPUT_NS = 400.0


def _linear_is_cheaper(units: Sequence[Unit], length: int) -> bool:
    """Whether the linear-space route's convolutions (binary powers of each unit, and each
    unit applied to every row) cost less than the log-space route's member steps (each
    member applied about log2(U) + 1 times)."""
    count = len(units)
    convolutions = sum(
        2 * math.ceil(math.log2(max(u.members - 1, 1))) + 2 * count + 1 for u in units
    )
    depth = math.ceil(math.log2(count)) + 1 if count > 1 else 1
    steps = depth * sum(u.members for u in units)
    linear_ns = convolutions * _PRODUCT_NS * length * length
    return linear_ns < steps * (_MEMBER_STEP_NS + _MEMBER_OUTPUT_NS * length)


def _scaled_factor(unit: Unit, length: int, tilt: float) -> tuple[FloatArray, float]:
    """One member's factor f(j) e^(-tilt j), j = 0..length-1, divided by its largest value,
    and the log of that value."""
    lf = log_station_factor(unit.demand, unit.alpha, length) - tilt * np.arange(length)
    top = float(lf.max())
    return np.exp(lf - top), top


def _convolve_rows(
    rows: FloatArray, scale: FloatArray, kernel: FloatArray, kernel_scale: float
) -> tuple[FloatArray, FloatArray]:
    """Each row (its values times e^scale) convolved with the kernel (times e^kernel_scale),
    truncated to the rows' length and divided by its largest value again."""
    L = rows.shape[1]
    out = np.array([np.convolve(row, kernel)[:L] for row in rows])
    top = out.max(axis=1)
    return out / top[:, None], scale + kernel_scale + np.log(top)


def _scaled_power(factor: FloatArray, factor_scale: float, times: int) -> tuple[FloatArray, float]:
    """factor^(*times) by binary powering (linear space, rescaled at every step)."""
    result = np.zeros((1, factor.size))
    result[0, 0] = 1.0
    scale = np.zeros(1)
    base, base_scale = factor[None, :], np.array([factor_scale])
    while times:
        if times & 1:
            result, scale = _convolve_rows(result, scale, base[0], float(base_scale[0]))
        times >>= 1
        if times:
            base, base_scale = _convolve_rows(base, base_scale, base[0], float(base_scale[0]))
    return result[0], float(scale[0])


def _leave_one_out_linear(
    log_base: FloatArray, units: Sequence[Unit], tilt: float
) -> tuple[FloatArray, bool]:
    """`_leave_one_out` in linear space, every sequence held as values of largest 1 times a
    scale: log G_-u for each unit u and log G as the rows of one array [U + 1, L], and
    whether every value is exact (none below `_LINEAR_FLOOR` of its row's largest).

    Every sequence is tilted by e^(-tilt n) (a convolution of tilted sequences is the tilted
    convolution), which narrows the range of log G when tilt is near its mean slope. The
    sequences are carried together as rows: row i lacks one member of unit i, the last row
    holds every member. Each unit is one convolution of every row with its power
    f^(*(members - 1)) and one of the other rows with f: a few compiled convolutions per
    unit, where the log-space route takes one call per member."""
    L = log_base.size
    n = np.arange(L)
    tilted = log_base - tilt * n
    top = float(tilted.max())
    count = len(units) + 1
    rows = np.repeat(np.exp(tilted - top)[None, :], count, axis=0)
    scale = np.full(count, top)
    for i, unit in enumerate(units):
        factor, factor_scale = _scaled_factor(unit, L, tilt)
        if unit.members > 1:
            power, power_scale = _scaled_power(factor, factor_scale, unit.members - 1)
            rows, scale = _convolve_rows(rows, scale, power, power_scale)
        others = np.arange(count) != i
        rows[others], scale[others] = _convolve_rows(
            rows[others], scale[others], factor, factor_scale
        )
    logs = np.log(rows)
    exact = bool(np.all(logs >= _LINEAR_FLOOR))
    return logs + scale[:, None] + tilt * n, exact


def _mean_slope(log_g: FloatArray) -> float:
    """The chord slope of log G over the populations where a first, rough try gave a value
    (an underflow there gives -inf): the tilt that makes its two ends level."""
    finite = np.flatnonzero(np.isfinite(log_g))
    if finite.size < 2:
        return math.nan
    first, last = int(finite[0]), int(finite[-1])
    return float(log_g[last] - log_g[first]) / (last - first)


def _first_tilt(net: Network, length: int) -> float:
    """A first guess at the mean slope of log G(0..N) (log G(0) = 0): log G(N) / N with
    theta X(n) at its bound min(1, n / A), A the demand of a cycle alone (theta units)."""
    cycle = net.delay_total + float(net.base_queue.sum())
    cycle += sum(u.members * u.demand / float(u.alpha[0]) for u in net.units)
    n = np.arange(1, length, dtype=np.float64)
    return float(np.maximum(np.log(cycle / n), 0.0).sum()) / max(length - 1, 1)


def _leave_one_out(
    log_base: FloatArray, units: Sequence[Unit], tilt: float = 0.0
) -> tuple[FloatArray, list[FloatArray]]:
    """log G and, per unit, log G of the network without one of its members: in linear
    space where that is the cheaper route and every value is exact there
    (`_leave_one_out_linear`: tilted by `tilt`, then once more by the mean slope of log G
    that try gave, `_mean_slope`), else in log space."""
    L = log_base.size
    if (
        units
        and len(units) <= _LINEAR_UNITS
        and L <= _LINEAR_LENGTH
        and _linear_is_cheaper(units, L)
    ):
        with np.errstate(divide="ignore", under="ignore", invalid="ignore", over="ignore"):
            logs, exact = _leave_one_out_linear(log_base, units, tilt)
            if not exact:
                slope = _mean_slope(logs[-1])
                if np.isfinite(slope):
                    logs, exact = _leave_one_out_linear(log_base, units, slope)
        if exact:
            return logs[-1], list(logs[:-1])
    return _leave_one_out_log(log_base, units)


def _leave_one_out_log(
    log_base: FloatArray, units: Sequence[Unit]
) -> tuple[FloatArray, list[FloatArray]]:
    """`_leave_one_out` in log space: exact at any range, one call per member step."""
    minus: list[FloatArray] = [log_base] * len(units)
    apply = _Applier(log_base.size)

    def recurse(seq: FloatArray, idx: list[int]) -> FloatArray:
        if len(idx) == 1:
            unit = units[idx[0]]
            minus[idx[0]] = apply(seq, unit, unit.members - 1)
            return apply(minus[idx[0]], unit, 1)
        half = len(idx) // 2
        first, second = idx[:half], idx[half:]
        with_second = seq
        for j in second:
            with_second = apply(with_second, units[j], units[j].members)
        full = recurse(with_second, first)
        with_first = seq
        for j in first:
            with_first = apply(with_first, units[j], units[j].members)
        recurse(with_first, second)
        return full

    if not units:
        return log_base, []
    return recurse(log_base, list(range(len(units)))), minus


def _queue_of_ordinary(d: FloatArray, log_g: FloatArray) -> FloatArray:
    """Q(N) = sum_{i=1..N} d^i G(N-i) / G(N) for each demand d (theta units)."""
    N = log_g.size - 1
    out = np.empty(d.size)
    i = np.arange(1, N + 1, dtype=np.float64)
    tail = log_g[N - 1 :: -1] - log_g[N]  # log G(N-i)/G(N), i = 1..N
    rows = max(1, 2_000_000 // max(1, N))
    log_d = np.log(d)
    for s in range(0, d.size, rows):
        terms = i[None, :] * log_d[s : s + rows, None] + tail[None, :]
        out[s : s + rows] = np.exp(_row_logsumexp(terms))
    return out


def _member_means(unit: Unit, log_minus: FloatArray, log_g: FloatArray) -> tuple[float, float]:
    """(mean customers, P(empty)) of one member at N = len - 1, from G without it."""
    N = log_g.size - 1
    lf = log_station_factor(unit.demand, unit.alpha, N + 1)
    j = np.arange(1, N + 1, dtype=np.float64)
    terms = np.log(j) + lf[1:] + log_minus[N - 1 :: -1]
    mean = float(np.exp(_row_logsumexp(terms[None, :])[0] - log_g[N]))
    idle = float(np.exp(lf[0] + log_minus[N] - log_g[N]))
    return mean, min(1.0, idle)


def _points(points: ArrayLike | None, N: int) -> IntArray:
    if points is None:
        return np.arange(1, N + 1, dtype=np.int64)
    p = np.asarray(points)
    if p.ndim != 1 or p.size == 0 or np.any(p != np.rint(p)) or p.min() < 1 or p.max() > N:
        raise ValueError(f"points must be populations in 1..N = 1..{N}")
    p = p.astype(np.int64)
    return p if p.size == 1 or bool(np.all(p[1:] > p[:-1])) else np.unique(p)


def closed_network(
    demands: ArrayLike,
    N: int,
    think_time: float = 0.0,
    servers: ArrayLike | None = None,
    alpha: Sequence[ArrayLike | None] | None = None,
    members: ArrayLike | None = None,
    points: ArrayLike | None = None,
    method: Literal["auto", "exact", "saddle point"] = "auto",
    exact_budget_s: float = DEFAULT_EXACT_BUDGET_S,
    tolerance: float = DEFAULT_TOLERANCE,
) -> ClosedNetworkResult:
    """Solve a single-class closed network at population N (see the module docstring).

    demands [K]: each station's demand per customer pass (a group: all its members together).
    servers [K]: 1 (default), c > 1 servers (alpha = 1..c) or np.inf (a delay station).
    alpha: per station None (an ordinary queue) or one member's rate multipliers
        alpha(1..n0), held at alpha(n0) beyond (a drive's command-queueing gains).
    members [K]: identical members a station's demand is split over (default 1).
    points: populations at which to report the throughput (default all 1..N).
    method: "auto" (exact up to the largest population whose estimated cost fits
        `exact_budget_s`, at least `MIN_EXACT_POPULATION`, the saddle point above; if the
        saddle point's error estimate exceeds `tolerance` and the exact method's estimated
        cost is within 10 x `exact_budget_s`, exact after all), "exact", or "saddle point".
    """
    if method not in ("auto", "exact", "saddle point"):
        raise ValueError(f"method must be 'auto', 'exact' or 'saddle point', got {method!r}")
    if alpha is None and members is None and method != "saddle point":
        fast = _ordinary_fast(demands, N, think_time, servers, points)
        if fast is not None:
            return fast
    net = network(demands, N, think_time, servers, alpha, members)
    wanted = _points(points, net.N)
    if method not in ("auto", "exact", "saddle point"):
        raise ValueError(f"method must be 'auto', 'exact' or 'saddle point', got {method!r}")
    if method == "exact" or (method == "auto" and not net.units):
        n_exact = net.N  # ordinary queues and delays only: exact MVA is O(N K) at worst
    elif method == "saddle point":
        n_exact = 0
    else:
        n_exact = _affordable_population(net, exact_budget_s)
    result = _solve(net, wanted, n_exact)
    if (
        method == "auto"
        and result.error_estimate > tolerance
        and exact_cost_ns(net, net.N) <= 10 * exact_budget_s * 1e9
    ):
        return _solve(net, wanted, net.N)  # near a knee: pay for the exact answer
    return result


def _affordable_population(net: Network, budget_s: float) -> int:
    """The largest N_e <= N with exact_cost_ns(N_e) within the budget (bisection; the cost
    grows with N), never below MIN_EXACT_POPULATION."""
    if exact_cost_ns(net, net.N) <= budget_s * 1e9:
        return net.N
    lo, hi = min(net.N, MIN_EXACT_POPULATION), net.N
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if exact_cost_ns(net, mid) <= budget_s * 1e9:
            lo = mid
        else:
            hi = mid
    return lo


def _solve(net: Network, wanted: IntArray, n_exact: int) -> ClosedNetworkResult:
    from diskmodel.queueing import saddle  # deferred: only large populations need it

    theta = net.theta
    curve = np.empty(wanted.size)
    error = 0.0
    idle: dict[int, float] = {}
    if not net.units and n_exact == net.N:
        X_all, Q = _ordinary_network(net)
        curve[:] = X_all[wanted - 1]
        X = float(X_all[-1])
        method = "exact"
    else:
        if n_exact >= 1:
            log_base = _log_base(net, n_exact + 1)
            log_g, minus = _leave_one_out(log_base, net.units, _first_tilt(net, n_exact + 1))
            X_exact = np.exp(log_g[:-1] - log_g[1:]) / theta  # X(n), n = 1..n_exact
            low = wanted <= n_exact
            curve[low] = X_exact[wanted[low] - 1]
        if n_exact < net.N:
            high = wanted > n_exact
            curve[high], error = saddle.throughput(net, wanted[high])
            at_n = saddle.station_means(net)
            X, Q, idle = at_n.throughput, at_n.queue_length, at_n.member_idle
            error = max(error, at_n.error_estimate)
            method = "saddle point"
        else:
            X = float(X_exact[-1])
            Q, idle = _exact_station_means(net, log_g, minus, X)
            method = "exact"
    D = net.demands
    peak = np.where(np.isfinite(net.peak_rate), net.peak_rate, np.inf)
    U = np.where(np.isinf(peak), 0.0, X * D / peak)
    idle_all = np.where(np.isinf(peak), 1.0, 1.0 - U)
    for k, value in idle.items():
        idle_all[k] = value
    return ClosedNetworkResult(
        population=net.N,
        throughput=X,
        response_time=net.N / X - net.think_time,
        queue_length=sealed(Q),
        residence_time=sealed(Q / X),
        utilization=sealed(np.clip(U, 0.0, 1.0)),
        member_idle=sealed(np.clip(idle_all, 0.0, 1.0)),
        curve_population=frozen_int(wanted),
        curve_throughput=frozen(curve),
        method=method,
        exact_up_to=min(n_exact, net.N),
        error_estimate=float(error),
    )


def _ordinary_fast(
    demands: ArrayLike,
    N: int,
    think_time: float,
    servers: ArrayLike | None,
    points: ArrayLike | None,
) -> ClosedNetworkResult | None:
    """Ordinary queues and delays only (no alpha, no members): exact MVA with the least
    bookkeeping (the network description is not built). None when a station has c > 1
    servers (the general path) or the inputs need its checks and messages."""
    D = np.asarray(demands, dtype=np.float64)
    c = np.ones(D.shape) if servers is None else np.asarray(servers, dtype=np.float64)
    Z = float(think_time)
    ok = D.ndim == 1 and D.size > 0 and c.shape == D.shape and int(N) == N and N >= 1
    if not ok or not np.all(np.isfinite(D) & (D >= 0)) or not (np.isfinite(Z) and Z >= 0):
        return None
    if not np.all((c == 1) | np.isinf(c)) or not (np.any(D > 0) or Z > 0):
        return None
    N = int(N)
    wanted = _points(points, N)
    queue = c == 1
    D_queue = D * queue
    from diskmodel.queueing.closed import mva_final

    X_all, Q = mva_final(D, D_queue, N, Z)
    X = float(X_all[-1])
    U = np.minimum(X * D_queue, 1.0)
    idle = 1.0 - U
    idle[~queue] = 1.0
    return ClosedNetworkResult(
        population=N,
        throughput=X,
        response_time=N / X - Z,
        queue_length=sealed(Q),
        residence_time=sealed(Q / X),
        utilization=sealed(U),
        member_idle=sealed(idle),
        curve_population=frozen_int(wanted),
        curve_throughput=frozen(X_all[wanted - 1]),
        method="exact",
        exact_up_to=N,
        error_estimate=0.0,
    )


def _ordinary_network(net: Network) -> tuple[FloatArray, FloatArray]:
    """X(n), n = 1..N, and Q [K] at N of a network of ordinary queues and delays only: exact
    MVA by the cheaper of its two routes for this station count (`closed.mva_final`)."""
    from diskmodel.queueing.closed import mva_final

    D_queue = net.base_queue * net.theta
    delays = net.demands[net.delay_stations]
    D_all = np.concatenate([D_queue, delays])
    X, q = mva_final(D_all, np.concatenate([D_queue, np.zeros(delays.size)]), net.N, net.think_time)
    Q = np.zeros(net.K)
    np.add.at(Q, net.base_station, q[: D_queue.size])
    Q[net.delay_stations] = q[D_queue.size :]
    return X, Q


def _exact_station_means(
    net: Network, log_g: FloatArray, minus: list[FloatArray], X: float
) -> tuple[FloatArray, dict[int, float]]:
    """Queue length [K] at N and, for members whose rate depends on their queue, P(idle)."""
    Q = np.zeros(net.K)
    if net.base_queue.size:
        q = _queue_of_ordinary(net.base_queue, log_g)
        np.add.at(Q, net.base_station, q)
    for k in net.delay_stations:
        Q[k] = X * net.demands[k]
    idle: dict[int, float] = {}
    for unit, log_minus in zip(net.units, minus, strict=True):
        mean, empty = _member_means(unit, log_minus, log_g)
        Q[unit.station] = unit.members * mean
        if not unit.multiserver:
            idle[unit.station] = empty
    return Q, idle


def queue_length_distribution(
    demands: ArrayLike,
    N: int,
    think_time: float = 0.0,
    servers: ArrayLike | None = None,
    alpha: Sequence[ArrayLike | None] | None = None,
    members: ArrayLike | None = None,
    station: int = 0,
) -> FloatArray:
    """P(j customers at `station` | population N), j = 0..N, exact (same network description
    as `closed_network`; a group's law is that of all its members together).

    p(j) = f(j) G_-k(N - j) / G(N) from log-space constants (every probability a ratio of
    positive terms); for an ordinary queue p(j) = P(>= j) (1 - D_k X(N - j)) with
    P(>= j) = D_k^j G(N - j) / G(N). Memory O(N log L); cost as `closed_network`'s exact
    method plus the group's convolution power.
    """
    net = network(demands, N, think_time, servers, alpha, members)
    if int(station) != station or not 0 <= station < net.K:
        raise ValueError(f"station must be an index in 0..{net.K - 1}, got {station!r}")
    if station in set(net.delay_stations.tolist()):
        raise ValueError("the queue-length law is given for queueing stations, not delays")
    L = net.N + 1
    p = np.zeros(L)
    if net.demands[station] == 0:
        p[0] = 1.0
        return sealed(p)
    log_base = _log_base(net, L)
    log_g, _ = _leave_one_out(log_base, net.units, _first_tilt(net, L))
    index = [i for i, u in enumerate(net.units) if u.station == station]
    if not index:  # an ordinary queue (a group of ordinary queues is several base queues)
        d = net.base_queue[net.base_station == station]
        if d.size > 1:
            raise ValueError("the law of a group of ordinary queues is not provided; ask per queue")
        j = np.arange(L, dtype=np.float64)
        log_at_least = j * math.log(float(d[0])) + log_g[::-1] - log_g[-1]
        log_x = np.concatenate(([-np.inf], log_g[:-1] - log_g[1:]))  # log theta X(n)
        step_down = -np.expm1(math.log(float(d[0])) + log_x[::-1])  # 1 - d theta X(N - j)
        return sealed(np.exp(log_at_least) * np.where(j < net.N, step_down, 1.0))
    unit = net.units[index[0]]
    others = [u for u in net.units if u.station != station]
    log_rest = log_base
    apply = _Applier(L)
    for u in others:
        log_rest = apply(log_rest, u, u.members)
    delta = np.full(L, -np.inf)
    delta[0] = 0.0
    log_f = apply(delta, unit, unit.members)
    log_p = log_f + log_rest[::-1] - log_g[-1]
    return sealed(np.exp(log_p))
