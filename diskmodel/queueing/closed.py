"""Exact mean value analysis (MVA) of single-class closed product-form networks.

A closed network has N customers circulating among K stations; station k has service
demand D_k (visits x mean service time, in the caller's time unit) and a customer "thinks"
for Z between visits to the network (a delay outside the measured response time). Both
solvers return the whole population sweep n = 1..N from one pass, as a `ClosedResult`.

- `mva`: single-server queueing stations and delay stations (Reiser & Lavenberg 1980):
  R_k(n) = D_k (1 + Q_k(n-1)) (queueing) or D_k (delay), X(n) = n / (Z + sum_k R_k(n)),
  Q_k(n) = X(n) R_k(n). Stations with several servers are passed to `mva_load_dependent`.
- `mva_load_dependent`: stations whose service rate depends on how many customers they
  hold (multi-server: rate multiplier min(n, c); a drive with command queueing: its
  throughput gain at queue depth n). Exact, through the normalising constants, see there.

The storage model calls only `mva_final` (`queueing.exact_routes`, through `closed_network`,
for a network of ordinary queues and delays); `mva`, `mva_load_dependent`, `multiserver_alpha` and
`marginal_probabilities` are the queueing library's public API (`diskmodel.queueing`), kept for
scripts that model other systems and tested in tests/queueing/test_closed_theory.py,
test_single_class_routes.py and test_reference_line_solver.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import BoolArray, FloatArray, IntArray, sealed
from diskmodel.queueing.convolution import log_convolve
from diskmodel.queueing.exact_routes import (
    constants_may_overflow,
    mva_final,
    normalising_constant_sweep,
)


@dataclass(frozen=True, slots=True)
class ClosedResult:
    """Exact single-class closed-network means for every population n = 1..N.

    population: [N] the populations 1..N.
    throughput: [N] X(n), customers per time unit.
    response_time: [N] R(n) = sum_k residence_time[k, n], excluding think time, so that
        Little's law reads n = X(n) (R(n) + Z).
    queue_length: [K, N] mean customers at station k (queued plus in service).
    utilization: [K, N] fraction of station k's peak service rate in use: X D_k / c_k for
        c_k servers (X D_k / max alpha_k for a load-dependent station); 0 for delay stations.
    residence_time: [K, N] total time a customer spends at station k per pass through the
        network (all visits), R_k = Q_k / X.
    """

    population: IntArray
    throughput: FloatArray
    response_time: FloatArray
    queue_length: FloatArray
    utilization: FloatArray
    residence_time: FloatArray


def _demands(demands: ArrayLike) -> FloatArray:
    D = np.asarray(demands, dtype=np.float64)
    if D.ndim != 1 or D.size == 0:
        raise ValueError(f"demands must be a non-empty 1-D array (K stations), got {D.shape}")
    if np.any(~np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands must be finite and >= 0")
    return D


def _population(N: int) -> int:
    if int(N) != N or N < 1:
        raise ValueError(f"population N must be an integer >= 1, got {N!r}")
    return int(N)


def _think_time(Z: float) -> float:
    Z = float(Z)
    if not np.isfinite(Z) or Z < 0:
        raise ValueError(f"think_time must be finite and >= 0, got {Z!r}")
    return Z


def multiserver_alpha(servers: ArrayLike, N: int) -> FloatArray:
    """Rate multipliers alpha[k, n-1] = min(n, c_k) for n = 1..N (c_k = inf: a delay station)."""
    c = np.asarray(servers, dtype=np.float64).reshape(-1)
    n = np.arange(1, _population(N) + 1, dtype=np.float64)
    return np.minimum(n[None, :], c[:, None])


def _closed_result(X: FloatArray, Q: FloatArray, U: FloatArray) -> ClosedResult:
    """Seal a sweep; residence and response times follow from Little's law at each station.

    X, Q and U must be arrays the solver owns (they are made read-only, not copied: for
    K = 100, N = 1000 copying would cost more than the solution).
    """
    N = X.shape[0]
    residence = Q / X[None, :]
    return ClosedResult(
        population=sealed(np.arange(1, N + 1, dtype=np.int64)),
        throughput=sealed(X),
        response_time=sealed(residence.sum(axis=0)),
        queue_length=sealed(Q),
        utilization=sealed(U),
        residence_time=sealed(residence),
    )


def mva(
    demands: ArrayLike, N: int, think_time: float = 0.0, servers: ArrayLike | None = None
) -> ClosedResult:
    """Exact single-class MVA, whole sweep n = 1..N in one pass.

    demands: [K] service demand per station. servers: [K] servers per station, 1 by default;
    `np.inf` makes a delay (infinite-server) station; any finite c > 1 sends the network to
    `mva_load_dependent` with alpha = min(n, c). Cost O(K N).
    Source: Reiser & Lavenberg, "Mean-value analysis of closed multichain queuing
    networks", JACM 27(2), 1980; Lazowska et al., Quantitative System Performance, 1984, §6.
    """
    D = _demands(demands)
    N = _population(N)
    Z = _think_time(think_time)
    if not np.any(D > 0) and Z == 0:
        raise ValueError("a network with no demand and no think time has no finite throughput")
    if servers is None:
        c = np.ones(D.shape)
    else:
        c = np.broadcast_to(np.asarray(servers, dtype=np.float64), D.shape)
        if np.any(np.isnan(c)) or np.any(c < 1) or np.any(np.isfinite(c) & (c != np.rint(c))):
            raise ValueError("servers must be integers >= 1 or np.inf (delay station)")
    if np.any(np.isfinite(c) & (c > 1)):
        return mva_load_dependent(D, N, Z, multiserver_alpha(c, N))
    is_delay = np.isinf(c)
    X, Q = _mva_sweep(D, np.where(is_delay, 0.0, D), N, Z)
    U = np.where(is_delay[:, None], 0.0, D[:, None] * X[None, :])
    return _closed_result(X, Q, U)


# Cost model of the two exact single-class routes, measured against line-solver's pfqn_mva
# in bench/bench_queueing.py (shared 2-core machine): the recursion costs about
# _STEP_S + _STATION_S K per population, the normalising-constant route about
# _PASS_S + _ELEMENT_S N per station and pass (two compiled passes per queueing station).
_STEP_S = 4e-6
_STATION_S = 1e-9
_PASS_S = 1.1e-5
_ELEMENT_S = 3e-8


def _recursion_s(K: int, N: int) -> float:
    return N * (_STEP_S + _STATION_S * K)


def _constants_s(K_queue: int, N: int) -> float:
    return 2.0 * K_queue * (_PASS_S + _ELEMENT_S * N)


def _mva_sweep(
    D: FloatArray, D_queue: FloatArray, N: int, Z: float
) -> tuple[FloatArray, FloatArray]:
    """The MVA recursion; D_queue is D at queueing stations and 0 at delay stations.

    Returns X[N] and Q[K, N]. R_k(n) = D_k + D_queue_k Q_k(n-1) covers both kinds.
    Chooses by station count: `normalising_constant_sweep` (O(K) compiled passes over N,
    cheapest for few stations and many customers) or the recursion (O(N) vector steps over
    K, cheapest for many stations), by the cost model above; the constants route is skipped
    when its scaled constants could overflow (`constants_may_overflow`) and falls back to
    the recursion if they do.
    """
    K = D.shape[0]
    K_queue = int(np.count_nonzero(D_queue))
    cheaper = K_queue > 0 and _constants_s(K_queue, N) < _recursion_s(K, N)
    if cheaper and not constants_may_overflow(D, D_queue, N, Z):
        fast = normalising_constant_sweep(D, D_queue, N, Z)
        if fast is not None:
            return fast
    # In u = 1 + Q form one step is a dot product and three in-place vector operations:
    # X(n) = n / (Z + sum_delay D + D_queue . u), Q(n) = X(n) D_queue u, u = 1 + Q(n);
    # delay stations (D_queue = 0) keep u = 1 and their Q = X D is filled in afterwards.
    X = np.empty(N)
    Q_rows = np.empty((N, K))
    u = np.ones(K)
    fixed = Z + float((D - D_queue).sum())
    dot, multiply, add = np.dot, np.multiply, np.add
    for n in range(1, N + 1):
        total = fixed + float(dot(D_queue, u))
        # total = 0 only if every demand and Z are 0: infinitely fast network.
        x = n / total if total > 0 else np.inf
        row = Q_rows[n - 1]
        multiply(D_queue, u, out=row)
        row *= x if total > 0 else 0.0
        add(row, 1.0, out=u)
        X[n - 1] = x
    delay = D_queue == 0
    if np.any(delay):
        Q_rows[:, delay] = X[:, None] * D[None, delay]
    return X, Q_rows.T


def _alpha_matrix(alpha: ArrayLike | None, K: int, N: int) -> FloatArray:
    alpha_a = np.ones((K, N)) if alpha is None else np.asarray(alpha, dtype=np.float64)
    if alpha_a.shape != (K, N):
        raise ValueError(f"alpha must have shape (K, N) = {(K, N)}, got {alpha_a.shape}")
    if np.any(~np.isfinite(alpha_a)) or np.any(alpha_a <= 0):
        raise ValueError("alpha (service-rate multipliers) must be finite and > 0")
    return alpha_a


def _station_kinds(D: FloatArray, alpha_a: FloatArray) -> tuple[BoolArray, BoolArray]:
    """(load_independent, delay) masks; every other station is load-dependent."""
    n_axis = np.arange(1, alpha_a.shape[1] + 1, dtype=np.float64)
    load_independent = np.all(alpha_a == 1.0, axis=1) | (D == 0)
    is_delay = np.all(alpha_a == n_axis[None, :], axis=1) & ~load_independent
    return load_independent, is_delay


def _time_scale(D: FloatArray, alpha_a: FloatArray, is_delay: BoolArray) -> float:
    """theta = the largest demand per unit of peak rate; time is measured in it inside."""
    peak = np.where(is_delay, 0.0, D / alpha_a.max(axis=1))
    return float(peak.max()) if peak.max() > 0 else 1.0


def _log_base(
    d: FloatArray, load_independent: BoolArray, is_delay: BoolArray, N: int, z: float
) -> tuple[FloatArray, FloatArray]:
    """log G_base(0..N) of the queue and delay stations plus think time, and X_base(1..N).

    From the stable single-class solution (`mva_final`, its cheapest exact route):
    log G_base(n) = -sum_{i<=n} log X_base(i).
    """
    base = load_independent | is_delay
    log_g = np.zeros(N + 1)
    X_base = np.zeros(N)
    if np.any(base & (d > 0)) or z > 0:
        X_base, _ = mva_final(np.where(base, d, 0.0), np.where(load_independent, d, 0.0), N, z)
        with np.errstate(divide="ignore"):
            log_g[1:] = -np.cumsum(np.log(X_base))
    else:
        log_g[1:] = -np.inf  # nowhere for a customer to be outside the dependent stations
    return log_g, X_base


def _log_factor(d_k: float, alpha_k: FloatArray) -> FloatArray:
    """log f_k(j) = j log d_k - sum_{i<=j} log alpha_k(i), j = 0..N."""
    lf = np.zeros(alpha_k.shape[0] + 1)
    with np.errstate(divide="ignore"):
        lf[1:] = np.arange(1, alpha_k.shape[0] + 1) * np.log(d_k) - np.cumsum(np.log(alpha_k))
    return lf


def mva_load_dependent(
    demands: ArrayLike, N: int, think_time: float = 0.0, alpha: ArrayLike | None = None
) -> ClosedResult:
    """Exact single-class MVA with load-dependent stations, whole sweep n = 1..N.

    alpha[k, n-1] (n = 1..N) multiplies station k's service rate when it holds n customers:
    1 everywhere is an ordinary queue, min(n, c) is c servers (`multiserver_alpha`), n is a
    delay station, and a drive's command-queueing gain at depth n fits directly.

    Method. The product form gives the marginal probability of j customers at station k as
    p_k(j|n) = f_k(j) G_{-k}(n-j) / G(n), with f_k(j) = D_k^j / prod_{i<=j} alpha_k(i) and
    G, G_{-k} the normalising constants with and without k; X(n) = G(n-1)/G(n). The
    textbook recursion p_k(0|n) = 1 - sum_{j>=1} p_k(j|n) (Reiser & Lavenberg 1980) cancels
    catastrophically for busy multi-server stations (its error grows like c^c/c! per pass)
    and the raw constants overflow for N in the hundreds, so this routine instead works
    with log G: the load-independent stations and think time are folded by the ordinary MVA
    recursion (log G_base(n) = -sum_{i<=n} log X_base(i)), each load-dependent station is
    convolved in log space (logsumexp, so no term overflows and none underflows before it
    is negligible), and G_{-k} comes from prefix/suffix products. The mean queue at a
    load-dependent station, sum_j j p_k(j|n), is one more log-space convolution
    (of j f_k(j) with G_{-k}), never a subtraction. Cost O(L N^2) for L load-dependent
    stations (about 10 ms for three of them at N = 256).
    Source: Reiser & Lavenberg (1980); Lazowska et al. (1984) §8.3; Bruell & Balbo,
    Computational Algorithms for Closed Queueing Networks (1980) for the convolution form.
    """
    D = _demands(demands)
    N = _population(N)
    Z = _think_time(think_time)
    if not np.any(D > 0) and Z == 0:
        raise ValueError("a network with no demand and no think time has no finite throughput")
    K = D.shape[0]
    alpha_a = _alpha_matrix(alpha, K, N)
    load_independent, is_delay = _station_kinds(D, alpha_a)
    dependent = ~load_independent & ~is_delay
    base = load_independent | is_delay
    # Time in units of theta keeps log G moderate (the bottleneck has d = 1).
    theta = _time_scale(D, alpha_a, is_delay)
    d = D / theta
    log_g_base, X_base = _log_base(d, load_independent, is_delay, N, Z / theta)
    dep_idx = np.flatnonzero(dependent)
    log_f = [_log_factor(float(d[k]), alpha_a[k]) for k in dep_idx]

    L = len(dep_idx)
    # prefix[i] = base (*) f_0 .. f_{i-1};  suffix[i] = f_i .. f_{L-1}.
    prefix = [log_g_base]
    for i in range(L):
        prefix.append(log_convolve(prefix[-1], log_f[i]))
    log_g = prefix[L]
    # With no load-dependent station the base recursion is already the answer.
    X = X_base / theta if L == 0 else np.exp(log_g[:-1] - log_g[1:]) / theta

    Q = np.empty((K, N))
    U = np.zeros((K, N))
    if L:
        delta = np.full(N + 1, -np.inf)
        delta[0] = 0.0
        suffix = [delta]
        for i in range(L - 1, 0, -1):
            suffix.append(log_convolve(log_f[i], suffix[-1]))
        suffix.reverse()  # suffix[i] now holds f_{i+1} .. f_{L-1}
        with np.errstate(divide="ignore"):
            log_j = np.log(np.arange(N + 1, dtype=np.float64))
        for i, k in enumerate(dep_idx):
            # Q_k(n) = sum_j j p_k(j|n) = sum_j j f_k(j) G_{-k}(n-j) / G(n): one more convolution.
            log_g_minus = log_convolve(prefix[i], suffix[i])
            Q[k] = np.exp(log_convolve(log_j + log_f[i], log_g_minus)[1:] - log_g[1:])
            U[k] = X * D[k] / alpha_a[k].max()

    # Base stations: the ordinary recursion driven by the exact network throughput X(n).
    base_idx = np.flatnonzero(base)
    if base_idx.size:
        D_b = D[base_idx]
        queueing = load_independent[base_idx]
        q = np.zeros(base_idx.size)
        for n in range(N):
            q = X[n] * (D_b + np.where(queueing, D_b * q, 0.0))
            Q[base_idx, n] = q
        U[base_idx] = np.where(queueing[:, None], D_b[:, None] * X[None, :], 0.0)
    return _closed_result(X, Q, U)


def marginal_probabilities(
    demands: ArrayLike,
    N: int,
    think_time: float = 0.0,
    alpha: ArrayLike | None = None,
    station: int = 0,
) -> FloatArray:
    """Queue-length distribution of one station: p[j, n-1] = P(j customers there | n), n = 1..N.

    Same network description as `mva_load_dependent`. Computed as
    p(j|n) = f(j) G_{-k}(n-j) / G(n) from log-space normalising constants, so every
    probability is formed as a ratio of positive terms: no value is negative, none is a
    difference, and each column sums to 1 within rounding even for N in the thousands.
    Useful where a distribution matters (the chance a drive's command queue is empty, how
    often all c servers are busy). Cost O(K N + L N^2) for L load-dependent stations.
    """
    D = _demands(demands)
    N = _population(N)
    Z = _think_time(think_time)
    K = D.shape[0]
    if int(station) != station or not 0 <= station < K:
        raise ValueError(f"station must be an index in 0..{K - 1}, got {station!r}")
    alpha_a = _alpha_matrix(alpha, K, N)
    load_independent, is_delay = _station_kinds(D, alpha_a)
    theta = _time_scale(D, alpha_a, is_delay)  # the whole network's, for both constants
    d = D / theta
    others = np.arange(K) != station
    log_g_minus, _ = _log_base(d[others], load_independent[others], is_delay[others], N, Z / theta)
    for k in np.flatnonzero(others & ~load_independent & ~is_delay):
        log_g_minus = log_convolve(log_g_minus, _log_factor(float(d[k]), alpha_a[k]))
    log_f = _log_factor(float(d[station]), alpha_a[station])
    log_g = log_convolve(log_f, log_g_minus)
    j = np.arange(N + 1)
    lag = j[None, :] - j[:, None]  # [j, n] -> n - j
    log_p = log_f[:, None] + log_g_minus[np.maximum(lag, 0)] - log_g[None, :]
    p = np.where(lag >= 0, np.exp(np.where(lag >= 0, log_p, 0.0)), 0.0)
    return sealed(np.ascontiguousarray(p[:, 1:]))
