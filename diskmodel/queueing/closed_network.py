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

At the model's sizes (up to 8 load-dependent stations, N < 2048, where
`normalising.linear_is_cheaper` finds it so: many members) the leave-one-out constants are
first formed in linear space, each sequence scaled to its largest value and tilted by
e^(-t n) to level log G: a few compiled convolutions per station (binary powers of a member's
factor) instead of one log-space call per member, 5-10x faster there. They are kept only where
every value is at least e^-400 of its sequence's largest (exact to rounding, see
`normalising._LINEAR_FLOOR`; they agree with the log-space route to 1e-13); otherwise the
log-space route above is used. The constants are formed in `queueing.normalising`.

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
from diskmodel.queueing._network_spec import Network, network
from diskmodel.queueing.normalising import (
    MemberApplier,
    exact_cost_ns,
    first_tilt,
    leave_one_out,
    log_g_base,
    member_means,
    queue_of_ordinary,
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
            log_base = log_g_base(net, n_exact + 1)
            log_g, minus = leave_one_out(log_base, net.units, first_tilt(net, n_exact + 1))
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
    from diskmodel.queueing.exact_routes import mva_final

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
    MVA by the cheaper of its two routes for this station count (`exact_routes.mva_final`)."""
    from diskmodel.queueing.exact_routes import mva_final

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
        q = queue_of_ordinary(net.base_queue, log_g)
        np.add.at(Q, net.base_station, q)
    for k in net.delay_stations:
        Q[k] = X * net.demands[k]
    idle: dict[int, float] = {}
    for unit, log_minus in zip(net.units, minus, strict=True):
        mean, empty = member_means(unit, log_minus, log_g)
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
    log_base = log_g_base(net, L)
    log_g, _ = leave_one_out(log_base, net.units, first_tilt(net, L))
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
    apply = MemberApplier(L)
    for u in others:
        log_rest = apply(log_rest, u, u.members)
    delta = np.full(L, -np.inf)
    delta[0] = 0.0
    log_f = apply(delta, unit, unit.members)
    log_p = log_f + log_rest[::-1] - log_g[-1]
    return sealed(np.exp(log_p))
