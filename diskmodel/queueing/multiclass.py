"""Multi-class closed product-form networks: exact MVA, Bard-Schweitzer and Linearizer.

R classes of customers share K stations; class r has N_r customers, think time Z_r and
demand D[k, r] at station k. Stations are queues of `servers` c_k >= 1 servers (processor
sharing, or FCFS with class-independent service, so that the product form holds; c servers
serve at rate min(j, c) with j customers) or delays (`servers` entry `np.inf`).

All three solvers return a `MulticlassResult` at the population vector N. With multi-server
stations: `mva_multiclass` is exact wherever the population lattice fits (it carries each
station's queue-length law for j < c along the lattice, the empty-station probability as a
ratio of normalising constants built from positive terms, so no station is too busy for it);
`linearizer` is the multi-server Linearizer (within 1.1% over random small networks,
0.07-0.27% for classes of 10-30 customers; on random networks with classes of 15-400 near
their knee within 0.1% on 34 of 40, 0.17-0.99% on the rest); `schweitzer` its uncorrected
core (up to 12% off for classes of one or two). Seidmann's reduction (`seidmann_transform`)
is up to 11% off on the small networks and 3.1% on the larger ones
(tests/queueing/test_multiserver_multiclass.py).

Public API of the queueing library (`diskmodel.queueing`): the storage model does not call it;
it is kept for scripts that model other systems, and tested in
tests/queueing/test_multiserver_multiclass.py, test_closed_theory.py and
test_reference_line_solver.py (against line-solver; `python -m bench queueing` times them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray, IntArray, frozen, frozen_int

EXACT_LATTICE_LIMIT = 5_000_000
"""Largest population lattice prod(N_r + 1) `mva_multiclass` accepts (memory ~ 4 bytes each)."""


@dataclass(frozen=True, slots=True)
class MulticlassResult:
    """Closed multi-class network means at the population vector N.

    population: [R] customers of each class.
    throughput: [R] X_r.
    response_time: [R] sum over stations of residence_time (excludes think time), so
        N_r = X_r (response_time_r + Z_r).
    queue_length: [K, R] mean class-r customers at station k.
    utilization: [K, R] X_r D[k, r], class r's share of station k's server (0 at delays);
        sum over r for the station's utilisation.
    residence_time: [K, R] time class r spends at station k per pass, Q / X (for a class
        with no customers: what one arriving customer of it would meet, D (1 + Q_k)).
    iterations: fixed-point iterations used (0 for the exact solver).
    """

    population: IntArray
    throughput: FloatArray
    response_time: FloatArray
    queue_length: FloatArray
    utilization: FloatArray
    residence_time: FloatArray
    iterations: int


def _network(
    demands: ArrayLike, N: ArrayLike, think_time: ArrayLike, servers: ArrayLike | None
) -> tuple[FloatArray, IntArray, FloatArray, FloatArray, FloatArray]:
    """Validate inputs; return D[K, R], N[R], Z[R], the queueing mask as 0/1 floats [K] and
    the servers per station [K] (1 at a delay, which has no queue)."""
    D = np.asarray(demands, dtype=np.float64)
    if D.ndim == 1:
        D = D[:, None]
    if D.ndim != 2 or D.size == 0:
        raise ValueError(f"demands must be [K] or [K, R], got shape {D.shape}")
    if np.any(~np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands must be finite and >= 0")
    K, R = D.shape
    N_f = np.broadcast_to(np.asarray(N, dtype=np.float64), (R,))
    if np.any(N_f != np.rint(N_f)) or np.any(N_f < 0):
        raise ValueError(f"populations must be integers >= 0, got {N!r}")
    Z = np.broadcast_to(np.asarray(think_time, dtype=np.float64), (R,)).copy()
    if np.any(~np.isfinite(Z)) or np.any(Z < 0):
        raise ValueError(f"think_time must be finite and >= 0, got {think_time!r}")
    if servers is None:
        c = np.ones(K)
    else:
        c = np.broadcast_to(np.asarray(servers, dtype=np.float64), (K,))
        if np.any(np.isnan(c)) or np.any(c < 1) or np.any(np.isfinite(c) & (c != np.rint(c))):
            raise ValueError("servers must be integers >= 1 or np.inf (delay station)")
    queueing = np.where(np.isinf(c), 0.0, 1.0)
    N_i = np.rint(N_f).astype(np.int64)
    empty = (N_i > 0) & (D.sum(axis=0) + Z == 0)
    if np.any(empty):
        raise ValueError("a class with customers needs a positive demand or think time")
    return D, N_i, Z, queueing, np.where(np.isinf(c), 1.0, c)


def _result(
    D: FloatArray,
    N: IntArray,
    X: FloatArray,
    Q: FloatArray,
    queueing: FloatArray,
    iterations: int,
    c: FloatArray | None = None,
    idle: FloatArray | None = None,
) -> MulticlassResult:
    # A class with no customers has no throughput; its residence is what one customer of it
    # would meet on arrival (arrival theorem): D (1 + Q_k) at a queue, D at a delay.
    # (At c servers: (D / c) (1 + Q_k + sum_j (c - 1 - j) p_k(j)), `idle` the last sum.)
    servers = np.ones(D.shape[0]) if c is None else c
    extra = np.zeros(D.shape[0]) if idle is None else idle
    seen = np.where(
        queueing[:, None] > 0,
        D / servers[:, None] * (1.0 + Q.sum(axis=1, keepdims=True) + extra[:, None]),
        D,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        residence = np.where(X[None, :] > 0, Q / X[None, :], seen)
    return MulticlassResult(
        population=frozen_int(N),
        throughput=frozen(X),
        response_time=frozen(residence.sum(axis=0)),
        queue_length=frozen(Q),
        utilization=frozen(X[None, :] * D * queueing[:, None] / (1.0 if c is None else c[:, None])),
        residence_time=frozen(residence),
        iterations=iterations,
    )


def mva_multiclass(
    demands: ArrayLike,
    N: ArrayLike,
    think_time: ArrayLike = 0.0,
    servers: ArrayLike | None = None,
) -> MulticlassResult:
    """Exact multi-class MVA (Reiser & Lavenberg 1980) at population vector N.

    R_kr(n) = D_kr (1 + Q_k(n - e_r)) at queues (D_kr at delays),
    X_r(n) = n_r / (Z_r + sum_k R_kr(n)), Q_k(n) = sum_r X_r(n) R_kr(n),
    over every n in the lattice 0 <= n <= N. A station with c > 1 servers (rate min(j, c)
    with j customers, class-independent: processor sharing over c servers) takes
    R_kr(n) = (D_kr / c) (1 + Q_k(n - e_r) + sum_{j=0}^{c-2} (c - 1 - j) p_k(j | n - e_r))
    with its queue-length law for j < c carried along the lattice:
    p_k(j | n) = (1/j) sum_r D_kr X_r(n) p_k(j-1 | n - e_r), j = 1..c-1.
    The empty-station probability is not taken from the utilisation law
    (p_k(0 | n) = 1 - (A + sum_j (c - j) p_k(j | n)) / c): that subtraction loses all
    precision once the station is nearly always full, its rounding growing like c^c / c!
    every c levels (one class, c = 4 and 2 tied at the bottleneck: 1e-13 at N = 40, 2e-7
    at 80, 170% at 160). Instead p_k(0 | n) = G_{-k}(n) / G(n), the normalising constant
    of the network without station k over that of the whole network, is carried along
    the lattice as a sum of positive terms (`_EmptyStation`), so every quantity is formed
    from positive terms only and the relative rounding grows at most linearly with the
    population. The lattice is swept one total population at a time, all vectors of a
    level at once (they depend only on the level below), so the cost is
    O(K R c prod(N_r + 1)) for the means plus about as much again for the empty-station
    probabilities (`_EmptyStation`), in a few hundred vector operations per level; memory
    holds two levels plus one index per lattice point.
    Sources: Reiser & Lavenberg, JACM 27(2), 1980; Lazowska et al., Quantitative System
    Performance, 1984, §8.3 (the multi-server form); Buzen, CACM 16(9), 1973 (the empty
    station as a ratio of normalising constants).
    """
    D, N_i, Z, queueing, c = _network(demands, N, think_time, servers)
    K, R = D.shape
    radix = N_i + 1
    size = int(np.prod(radix))
    if size > EXACT_LATTICE_LIMIT:
        raise ValueError(
            f"exact multi-class MVA needs {size} population vectors (limit "
            f"{EXACT_LATTICE_LIMIT}); use schweitzer or linearizer"
        )
    Dq = D * queueing[:, None]
    cmax = int(c.max())
    # weight[k, j] = (c_k - 1 - j) for j <= c_k - 2 (0 elsewhere): the idle-server term.
    j_axis = np.arange(cmax, dtype=np.float64)
    weight = np.maximum(c[:, None] - 1.0 - j_axis[None, :], 0.0)
    strides = np.ones(R, dtype=np.int64)
    for r in range(R - 2, -1, -1):
        strides[r] = strides[r + 1] * radix[r + 1]
    points = np.indices(tuple(radix)).reshape(R, -1).T  # [size, R], dense index = row
    level = points.sum(axis=1)
    order = np.argsort(level, kind="stable")
    bounds = np.searchsorted(level[order], np.arange(level.max() + 2))
    position = np.empty(size, dtype=np.int64)  # dense index -> row within its level
    q_prev = np.zeros((1, K))  # level 0: the empty network
    p_prev = np.zeros((1, K, cmax))
    p_prev[0, :, 0] = 1.0
    position[0] = 0
    X = np.zeros(R)
    Rk = D / c[:, None]
    p_last = p_prev[0]
    multi = np.flatnonzero(c > 1)  # c is 1 at delays
    empty = _EmptyStation(D, queueing, c, Z, multi) if multi.size else None
    for t in range(1, int(level.max()) + 1):
        dense = order[bounds[t] : bounds[t + 1]]
        n = points[dense]  # [m, R]
        position[dense] = np.arange(dense.size)
        has = n >= 1
        prev_rows = position[np.where(has, dense[:, None] - strides[None, :], 0)]  # [m, R]
        seen = q_prev[prev_rows] * has[:, :, None]  # [m, R, K]: Q_k(n - e_r)
        seen_p = p_prev[prev_rows]  # [m, R, K, cmax]: p_k(j | n - e_r)
        idle = np.einsum("mrkj,kj->mrk", seen_p, weight)
        Rk_level = (D.T[None, :, :] + Dq.T[None, :, :] * (seen + idle)) / c[None, None, :]
        X_level = np.where(has, n / (Z[None, :] + Rk_level.sum(axis=2)), 0.0)  # [m, R]
        q_prev = np.einsum("mr,mrk->mk", X_level, Rk_level)
        if empty is not None:
            a = X_level[:, :, None] * D.T[None, :, :]  # [m, R, K]: D_kr X_r(n)
            p_new = np.zeros((dense.size, K, cmax))
            for j in range(1, cmax):
                p_new[:, :, j] = np.einsum("mrk,mrk->mk", a, seen_p[:, :, :, j - 1]) / j
            p_new[:, multi, 0] = empty.advance(t, X_level, prev_rows)
            p_new *= j_axis[None, None, :] < c[None, :, None]
            p_prev = p_new
        else:
            p_prev = np.ones((dense.size, K, 1))
        if t == level.max():
            X = X_level[0]
            Rk = Rk_level[0].T
            p_last = p_prev[0]
    Q = X[None, :] * Rk
    idle_last = (p_last * weight).sum(axis=1)
    return _result(D, N_i, X, Q, queueing, 0, c, idle_last)


class _EmptyStation:
    """p_k(0 | n) = G_{-k}(n) / G(n) for the multi-server stations k, level by level.

    G(n) is the convolution over stations of their factors; in generating-function form
    a c-server station contributes F(y) = sum_{i<c} y^i / i! + (y^c / c!) / (1 - y / c),
    y = sum_r D_kr x_r (its factor |m|! / prod_{i<=|m|} min(i, c) prod_r D_kr^m_r / m_r!
    summed by total), and the delays and think times together exp(sum_r z_r x_r). Every
    coefficient is positive, so building G_{-k} station by station is a chain of sums of
    positive terms. Each is held divided by the whole network's G(n), which turns the
    multiplication by D_kr x_r into D_kr X_r(n) on the level below (X_r(n) =
    G(n - e_r) / G(n), from the MVA sweep at the same level), and keeps every value in
    [0, 1] (each is part of a product of some of the stations' factors, which the
    remaining factors, all at least 1 at no customers, only enlarge to G): no overflow,
    no subtraction. Convolving station s onto a product u_0:
    u_i(n) = (1/i) sum_r D_sr X_r(n) u_{i-1}(n - e_r), i = 1..c (the mass with i customers
    at s, as in the MVA marginal recursion), g(n) = u_c(n) + sum_r (D_sr / c) X_r(n)
    g(n - e_r) (c or more), and the product through s is sum_{i<c} u_i + g. The delays
    start every chain: b(n) = (1/|n|) sum_r z_r X_r(n) b(n - e_r), b(0) = 1.
    The M networks without one multi-server station share their prefixes: a trunk takes
    the single-server stations, then the multi-server ones k_1, k_2, ... in turn; the
    network without k_j leaves the trunk just before k_j and takes k_{j+1}..k_M, so
    station k_i carries i chains (the last M - 1) and the cost per lattice point is
    O(R (S + sum_i i (c_i + 1))) for S single-server stations.
    """

    def __init__(
        self, D: FloatArray, queueing: FloatArray, c: FloatArray, Z: FloatArray, multi: IntArray
    ) -> None:
        self.think = Z + (D * (1.0 - queueing[:, None])).sum(axis=0)  # z_r
        self.base = np.ones(1)  # b at the level below
        busy = [s for s in range(D.shape[0]) if queueing[s] > 0 and np.any(D[s] > 0)]
        self.single = [s for s in busy if c[s] == 1]
        self.multi = [int(k) for k in multi]
        self.demand = D
        self.servers = c.astype(np.int64)
        # Chains through each station at the level below, [m, chains, c + 1]: u_0..u_{c-1}
        # and g; at n = 0 every product is 1 (u_0 = 1), every other term 0.
        chains = dict.fromkeys(self.single, 1)
        chains.update({k: i + 1 for i, k in enumerate(self.multi)})
        chains[self.multi[-1]] -= 1  # no trunk past the last: it would be G / G = 1
        self.state: dict[int, FloatArray] = {}
        for s, count in chains.items():
            start = np.zeros((1, count, int(c[s]) + 1))
            start[0, :, 0] = 1.0
            self.state[s] = start

    def _convolve(
        self, s: int, product: FloatArray, X_level: FloatArray, prev_rows: IntArray
    ) -> FloatArray:
        """Station s convolved onto the products [m, chains]; returns the new products."""
        c = int(self.servers[s])
        flow = X_level * self.demand[s][None, :]  # [m, R]: D_sr X_r(n)
        pushed = np.einsum("mrvi,mr->mvi", self.state[s][prev_rows], flow)
        new = np.empty((*product.shape, c + 1))
        new[:, :, 0] = product
        new[:, :, 1:c] = pushed[:, :, : c - 1] / np.arange(1, c)[None, None, :]
        new[:, :, c] = (pushed[:, :, c - 1] + pushed[:, :, c]) / c
        self.state[s] = new
        return new.sum(axis=2)

    def advance(self, t: int, X_level: FloatArray, prev_rows: IntArray) -> FloatArray:
        """p_k(0 | n) [m, M] at the level of total population t, given that level's
        throughputs X_level [m, R] (0 for a class absent from n) and, for each point and
        class, the row of n - e_r in the level below."""
        self.base = np.einsum("mr,r,mr->m", X_level, self.think, self.base[prev_rows]) / t
        trunk = self.base[:, None]
        for s in self.single:
            trunk = self._convolve(s, trunk, X_level, prev_rows)
        without = np.empty((X_level.shape[0], 0))  # one column per station left out so far
        for i, k in enumerate(self.multi):
            last = i == len(self.multi) - 1
            through = without if last else np.concatenate([trunk, without], axis=1)
            if through.shape[1]:
                through = self._convolve(k, through, X_level, prev_rows)
            left_out = trunk
            if not last:
                trunk, through = through[:, :1], through[:, 1:]
            without = np.concatenate([through, left_out], axis=1)
        return without


def _core_state(
    X: FloatArray, D: FloatArray, queueing: FloatArray, n: FloatArray, h: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Queue lengths implied by class throughputs X under the approximate-MVA estimate.

    At a queueing station Q_kr = w_kr (h_kr + Q_k) with u_kr = X_r D_kr,
    w_kr = u_kr / (1 + u_kr / n_r) and station total Q_k = sum_r w_kr h_kr / (1 - a_k),
    a_k = sum_r w_kr (feasible while a_k < 1); at a delay Q_kr = u_kr.
    Returns Q[K, R], w, dw/dX_r, the station totals and 1 - a_k.
    """
    u = X[None, :] * D
    n_safe = np.maximum(n, 1.0)[None, :]
    w = u / (1.0 + u / n_safe) * queueing[:, None]
    dw = D / (1.0 + u / n_safe) ** 2 * queueing[:, None]
    slack = 1.0 - w.sum(axis=1)
    total = (w * h).sum(axis=1) / np.where(slack > 0, slack, np.inf)
    Q = np.where(queueing[:, None] > 0, w * (h + total[:, None]), u)
    return Q, w, dw, total, slack


def _approximate_core(
    D: FloatArray,
    queueing: FloatArray,
    n: FloatArray,
    Z: FloatArray,
    F: FloatArray,
    X0: FloatArray,
    tol: float,
    max_iterations: int,
) -> tuple[FloatArray, FloatArray, int]:
    """Fixed point of approximate MVA at population n with fraction corrections F.

    The queue a class-r arrival sees at station k is estimated as
    Q_ks(n - e_r) = (n - e_r)_s (Q_ks(n) / n_s + F[k, s, r]) (Schweitzer: F = 0). Then
    R_kr = D_kr (1 + sum_s Q_ks(n - e_r)) and Q_kr = X_r R_kr solve in closed form for the
    queue lengths given the class throughputs (`_core_state`, with
    h_kr = 1 + sum_s (n - e_r)_s F[k, s, r]), which leaves R equations
    X_r Z_r + sum_k Q_kr(X) = n_r in the R unknowns X. They are solved by Newton's method
    with the analytic Jacobian, halving a step that leaves the feasible region or does not
    reduce the residual. This reaches the exact fixed point in 4-10 steps on the reference
    networks, where the usual successive substitution needs hundreds of sweeps near
    saturation and stops at a loose tolerance.
    """
    R = D.shape[1]
    active = n > 0
    removed = n[None, :] - np.eye(R)  # removed[r, s] = (n - e_r)_s
    h = 1.0 + np.einsum("rs,ksr->kr", removed, F)
    X = np.where(active, X0, 0.0)

    def residual(X_try: FloatArray) -> tuple[FloatArray, tuple[FloatArray, ...]]:
        state = _core_state(X_try, D, queueing, n, h)
        g = np.where(active, X_try * Z + state[0].sum(axis=0) - n, 0.0)
        return g, state

    g, state = residual(X)
    scale = np.maximum(n, 1.0)
    for iteration in range(1, max_iterations + 1):
        if np.all(np.abs(g) <= tol * scale) and iteration > 1:
            return X, state[0], iteration - 1
        _, w, dw, total, slack = state
        own = dw * (h + total[:, None])  # dw_kr (h_kr + Q_k)
        delay_part = D * (1.0 - queueing[:, None])
        J = np.diag(Z + own.sum(axis=0) + delay_part.sum(axis=0))
        J = J + np.einsum("kr,ks->rs", w, own / slack[:, None])
        J[~active, :] = 0.0
        J[:, ~active] = 0.0
        J[~active, ~active] = 1.0
        step = np.linalg.solve(J, g)
        lam = 1.0
        norm = float(np.max(np.abs(g / scale)))
        while True:
            X_try = np.maximum(X - lam * step, 0.0)
            g_try, state_try = residual(X_try)
            feasible = bool(np.all(state_try[4] > 0))
            if feasible and float(np.max(np.abs(g_try / scale))) < norm:
                break
            lam *= 0.5
            if lam < 1e-12:
                return X, state[0], iteration
        X, g, state = X_try, g_try, state_try
    return X, state[0], max_iterations


def _marginals(
    X: FloatArray, D: FloatArray, c: FloatArray, dP: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Estimated queue-length law p_k(j | n), j < c_k, of the multi-server stations at class
    throughputs X, and the busy servers A_k = sum_r X_r D_kr.

    From p_k(j | n) = (1/j) sum_r D_kr X_r p_k(j-1 | n - e_r) with the estimate
    p_k(j | n - e_r) = p_k(j | n) + dP[k, j, r] (0 for Bard-Schweitzer) and the utilisation
    law sum_j min(j, c) p_k(j | n) = A_k, solved in closed form: p_j = alpha_j p_0 + beta_j.
    """
    K, cmax = dP.shape[0], dP.shape[1]
    u = X[None, :] * D  # [K, R]
    A = u.sum(axis=1)
    d = np.einsum("kr,kjr->kj", u, dP)  # [K, cmax]
    alpha = np.zeros((K, cmax))
    beta = np.zeros((K, cmax))
    alpha[:, 0] = 1.0
    for j in range(1, cmax):
        alpha[:, j] = A * alpha[:, j - 1] / j
        beta[:, j] = (A * beta[:, j - 1] + d[:, j - 1]) / j
    j_axis = np.arange(cmax, dtype=np.float64)
    live = j_axis[None, :] < c[:, None]
    spare = np.where(live, c[:, None] - j_axis[None, :], 0.0)  # c - j, 0 beyond c - 1
    spare[:, 0] = 0.0
    p0 = (1.0 - A / c - (spare * beta).sum(axis=1) / c) / (1.0 + (spare * alpha).sum(axis=1) / c)
    p = np.where(live, alpha * p0[:, None] + beta, 0.0)
    return p, A


def _core_state_ms(
    X: FloatArray,
    D: FloatArray,
    queueing: FloatArray,
    c: FloatArray,
    n: FloatArray,
    h: FloatArray,
    dP: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, bool]:
    """Queue lengths [K, R], the marginals at n and whether the state is feasible, at class
    throughputs X, for stations with c_k servers.

    R_kr = (D_kr / c_k) (h_kr + e_kr + Q_k(n - e_r)), e_kr = sum_{j<=c-2} (c-1-j)
    p_k(j | n - e_r), so with u_kr = X_r D_kr / c_k and w_kr = u_kr / (1 + u_kr / n_r),
    Q_kr = w_kr (h_kr + e_kr + Q_k) and Q_k = sum_r w_kr (h_kr + e_kr) / (1 - sum_r w_kr).
    """
    p, A = _marginals(X, D, c, dP)
    cmax = dP.shape[1]
    weight = np.maximum(c[:, None] - 1.0 - np.arange(cmax)[None, :], 0.0)  # [K, cmax]
    seen_p = p[:, :, None] + dP  # [K, cmax, R]: p_k(j | n - e_r)
    e = np.einsum("kj,kjr->kr", weight, seen_p)
    u = X[None, :] * D / c[:, None]
    n_safe = np.maximum(n, 1.0)[None, :]
    w = u / (1.0 + u / n_safe) * queueing[:, None]
    slack = 1.0 - w.sum(axis=1)
    H = h + e
    total = (w * H).sum(axis=1) / np.where(slack > 0, slack, np.inf)
    Q = np.where(queueing[:, None] > 0, w * (H + total[:, None]), X[None, :] * D)
    feasible = bool(np.all(slack > 0) and np.all((c > A) | (queueing == 0)))
    return Q, p, A, feasible


def _approximate_core_ms(
    D: FloatArray,
    queueing: FloatArray,
    c: FloatArray,
    n: FloatArray,
    Z: FloatArray,
    F: FloatArray,
    dP: FloatArray,
    X0: FloatArray,
    tol: float,
    max_iterations: int,
) -> tuple[FloatArray, FloatArray, FloatArray, int]:
    """The approximate-MVA fixed point with multi-server stations (see `_core_state_ms`):
    Newton's method on the R equations X_r Z_r + sum_k Q_kr(X) = n_r, with a forward-
    difference Jacobian (the marginals make the analytic one long), halving a step that
    leaves the feasible region or does not reduce the residual. Returns X, Q, p, steps."""
    R = D.shape[1]
    active = n > 0
    removed = n[None, :] - np.eye(R)
    h = 1.0 + np.einsum("rs,ksr->kr", removed, F)
    X = np.where(active, X0, 0.0)
    scale = np.maximum(n, 1.0)

    def residual(X_try: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, bool]:
        Q, p, _, ok = _core_state_ms(X_try, D, queueing, c, n, h, dP)
        g = np.where(active, X_try * Z + Q.sum(axis=0) - n, 0.0)
        return g, Q, p, ok

    g, Q, p, _ = residual(X)
    for iteration in range(1, max_iterations + 1):
        if np.all(np.abs(g) <= tol * scale):
            return X, Q, p, iteration - 1
        J = np.eye(R)
        for r in np.flatnonzero(active):
            step_r = max(1e-7 * X[r], 1e-300)
            X_h = X.copy()
            X_h[r] += step_r
            J[:, r] = (residual(X_h)[0] - g) / step_r
        J[~active, :] = 0.0
        J[~active, ~active] = 1.0
        try:
            step = np.linalg.solve(J, g)
        except np.linalg.LinAlgError:
            return X, Q, p, iteration
        lam = 1.0
        norm = float(np.max(np.abs(g / scale)))
        while True:
            X_try = np.maximum(X - lam * step, 0.0)
            g_try, Q_try, p_try, ok = residual(X_try)
            if ok and float(np.max(np.abs(g_try / scale))) < norm:
                break
            lam *= 0.5
            if lam < 1e-12:
                return X, Q, p, iteration
        X, g, Q, p = X_try, g_try, Q_try, p_try
    return X, Q, p, max_iterations


def _initial_throughputs(D: FloatArray, n: FloatArray, Z: FloatArray) -> FloatArray:
    """A feasible start for Newton: X_r = min(n_r / (Z_r + sum_k D_kr), 1 / (R max_k D_kr)) / 2.

    The second term keeps sum_r X_r D_kr <= 1/2 at every station, so each a_k < 1.
    """
    R = D.shape[1]
    tiny = np.finfo(float).tiny
    light = n / np.maximum(Z + D.sum(axis=0), tiny)
    share = 1.0 / (R * np.maximum(D.max(axis=0), tiny))
    return 0.5 * np.minimum(light, share)


def _empty_core(K: int, R: int, cmax: int) -> tuple[FloatArray, FloatArray, FloatArray, int]:
    """The core at the empty population: no throughput, no queue, every server idle."""
    p = np.zeros((K, cmax))
    p[:, 0] = 1.0
    return np.zeros(R), np.zeros((K, R)), p, 0


def _core_ms(
    D: FloatArray,
    queueing: FloatArray,
    c: FloatArray,
    n: FloatArray,
    Z: FloatArray,
    F: FloatArray,
    dP: FloatArray,
    X0: FloatArray,
    tol: float,
    max_iterations: int,
) -> tuple[FloatArray, FloatArray, FloatArray, int]:
    if not np.any(n > 0):
        return _empty_core(D.shape[0], D.shape[1], dP.shape[1])
    return _approximate_core_ms(D, queueing, c, n, Z, F, dP, X0, tol, max_iterations)


def schweitzer(
    demands: ArrayLike,
    N: ArrayLike,
    think_time: ArrayLike = 0.0,
    servers: ArrayLike | None = None,
    tol: float = 1e-12,
    max_iterations: int = 10_000,
) -> MulticlassResult:
    """Bard-Schweitzer approximate MVA: Q_ks(N - e_r) ~ Q_ks(N) (N_s - [s = r]) / N_s.

    Accuracy (measured in tests/queueing): with one class it is pessimistic (throughput at
    or below exact), worst at intermediate N (1.8% on the 10-station reference sweep, 7%
    over random networks of up to 8 stations), exact for balanced demands and as
    N -> infinity; with several classes a class of only one or two customers can be off
    by up to ~30% (the (N_r - 1)/N_r scaling is crudest there), while classes of 10 or
    100 stay within 1.3% and 0.17% on the reference networks. Cost per Newton step
    O(K R + R^3), 4-10 steps on the reference networks, independent of N. The fixed
    point is solved to `tol` relative to N_r (much tighter than the usual 1e-6 stopping
    rule; see `_approximate_core`).
    Stations with c > 1 servers (`servers`) take the multi-server residence time
    R_kr = (D_kr / c) (1 + Q_k(N - e_r) + sum_{j<=c-2} (c-1-j) p_k(j | N - e_r)) with the
    queue-length law estimated at N (p_k(j | N - e_r) ~ p_k(j | N), `_marginals`); band in
    `linearizer`'s docstring and tests/queueing/test_multiserver_multiclass.py.
    Sources: Bard, "Some extensions to multiclass queueing network analysis", 1979;
    Schweitzer, "Approximate analysis of multiclass closed networks of queues", 1979;
    Conway, "Fast approximate solution of queueing networks with multi-server
    chain-dependent FCFS queues", 1989 (the multi-server estimate).
    """
    D, N_i, Z, queueing, c = _network(demands, N, think_time, servers)
    K, R = D.shape
    n = N_i.astype(np.float64)
    F = np.zeros((K, R, R))
    if np.all(c == 1):
        X, Q, iterations = _approximate_core(
            D, queueing, n, Z, F, _initial_throughputs(D, n, Z), tol, max_iterations
        )
        return _result(D, N_i, X, Q, queueing, iterations)
    cmax = int(c.max())
    dP = np.zeros((K, cmax, R))
    X0 = _initial_throughputs(D / c[:, None], n, Z)
    X, Q, p, iterations = _core_ms(D, queueing, c, n, Z, F, dP, X0, tol, max_iterations)
    idle = (p * np.maximum(c[:, None] - 1.0 - np.arange(cmax)[None, :], 0.0)).sum(axis=1)
    return _result(D, N_i, X, Q, queueing, iterations, c, idle)


def linearizer(
    demands: ArrayLike,
    N: ArrayLike,
    think_time: ArrayLike = 0.0,
    servers: ArrayLike | None = None,
    tol: float = 1e-12,
    max_iterations: int = 10_000,
    outer_iterations: int = 3,
) -> MulticlassResult:
    """Linearizer (Chandy & Neuse 1982): Schweitzer plus estimated fraction corrections.

    Assumes the fractions F[k, s, r] = Q_ks(N - e_r)/(N - e_r)_s - Q_ks(N)/N_s are the same
    at N and at N - e_r; estimates them by solving the approximate core at N and at each
    N - e_r, three times over, then solves the core at N once more. Accuracy (measured in
    tests/queueing): within 0.16% of exact throughput on the reference sweep, 1.2% over
    random single-class networks of up to 8 stations and 3% over random multi-class ones
    (worst found 2.2%, for a class of one customer); classes of 10 and 100 on the
    reference networks stay within 0.08% and 0.011%, roughly ten times closer than
    Schweitzer. Cost: (R + 1) * outer_iterations + 1 core solutions.
    Multi-server stations (`servers` c > 1): the multi-server Linearizer, which also carries
    the corrections dP[k, j, r] = p_k(j | N - e_r) - p_k(j | N) of the queue-length law for
    j < c (Krzesinski & Greyling; Conway 1989; de Souza e Silva & Muntz 1990); measured
    error band against exact MVA in tests/queueing/test_multiserver_multiclass.py: on
    random networks near their knee with classes of 15-400, within 0.1% on 34 of 40 and
    0.17-0.99% on the rest, each of those with two nearly saturated stations. There the
    error is in the fraction corrections F, not in the marginal corrections (with the
    exact F and its own dP it is within 0.002%), and more outer iterations do not remove
    it (they settle, or oscillate about a fixed point 0.75-0.78% off); nor does it always shrink
    with population: one such network is 0.91%, 1.4% and 2.4% off with its classes (and
    think times) scaled by 1, 2 and 4, where Seidmann's reduction is 0.25%, 0.07%, 0.01%.
    Source: Chandy & Neuse, "Linearizer: a heuristic algorithm for queueing network
    models of computing systems", CACM 25(2), 1982.
    """
    D, N_i, Z, queueing, c = _network(demands, N, think_time, servers)
    K, R = D.shape
    n = N_i.astype(np.float64)
    if np.any(c > 1):
        return _linearizer_ms(D, N_i, Z, queueing, c, tol, max_iterations, outer_iterations)
    F = np.zeros((K, R, R))
    X = _initial_throughputs(D, n, Z)
    Q = np.zeros((K, R))
    reduced_X = [X.copy() for _ in range(R)]
    reduced_Q = [Q.copy() for _ in range(R)]
    used = 0
    for _ in range(outer_iterations):
        X, Q, it = _approximate_core(D, queueing, n, Z, F, X, tol, max_iterations)
        used += it
        for r in range(R):
            if n[r] >= 1:
                reduced_X[r], reduced_Q[r], it = _approximate_core(
                    D, queueing, n - (np.arange(R) == r), Z, F, reduced_X[r], tol, max_iterations
                )
                used += it
        # All N - e_r cores above used the same F; only now is it updated.
        per_customer = Q / np.maximum(n, 1.0)[None, :]  # [k, s]; 0 where n_s = 0
        for r in range(R):
            n_r = n - (np.arange(R) == r)
            reduced = reduced_Q[r] / np.maximum(n_r, 1.0)[None, :]
            F[:, :, r] = np.where((n_r[None, :] > 0) & (n[r] >= 1), reduced - per_customer, 0.0)
    X, Q, it = _approximate_core(D, queueing, n, Z, F, X, tol, max_iterations)
    return _result(D, N_i, X, Q, queueing, used + it)


def _linearizer_ms(
    D: FloatArray,
    N_i: IntArray,
    Z: FloatArray,
    queueing: FloatArray,
    c: FloatArray,
    tol: float,
    max_iterations: int,
    outer_iterations: int,
) -> MulticlassResult:
    """The multi-server Linearizer: `linearizer` with the marginal corrections dP."""
    K, R = D.shape
    n = N_i.astype(np.float64)
    cmax = int(c.max())
    F = np.zeros((K, R, R))
    dP = np.zeros((K, cmax, R))
    X = _initial_throughputs(D / c[:, None], n, Z)
    reduced_X = [X.copy() for _ in range(R)]
    used = 0
    for _ in range(outer_iterations):
        X, Q, p, it = _core_ms(D, queueing, c, n, Z, F, dP, X, tol, max_iterations)
        used += it
        reduced = []
        for r in range(R):
            n_r = n - (np.arange(R) == r)
            if n[r] >= 1:
                reduced_X[r], Q_r, p_r, it = _core_ms(
                    D, queueing, c, n_r, Z, F, dP, reduced_X[r], tol, max_iterations
                )
                used += it
            else:
                Q_r, p_r = Q, p
            reduced.append((n_r, Q_r, p_r))
        # All N - e_r cores above used the same F and dP; only now are they updated.
        per_customer = Q / np.maximum(n, 1.0)[None, :]
        for r, (n_r, Q_r, p_r) in enumerate(reduced):
            scaled = Q_r / np.maximum(n_r, 1.0)[None, :]
            F[:, :, r] = np.where((n_r[None, :] > 0) & (n[r] >= 1), scaled - per_customer, 0.0)
            dP[:, :, r] = (p_r - p) if n[r] >= 1 else 0.0
    X, Q, p, it = _core_ms(D, queueing, c, n, Z, F, dP, X, tol, max_iterations)
    idle = (p * np.maximum(c[:, None] - 1.0 - np.arange(cmax)[None, :], 0.0)).sum(axis=1)
    return _result(D, N_i, X, Q, queueing, used + it, c, idle)
