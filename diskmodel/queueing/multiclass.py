"""Multi-class closed product-form networks: exact MVA (`mva_multiclass`), with the
network's validation and the result every solver returns; Bard-Schweitzer is in
`queueing.schweitzer`, Linearizer in `queueing.linearizer`.

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


def multiclass_network(
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


def multiclass_result(
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
    D, N_i, Z, queueing, c = multiclass_network(demands, N, think_time, servers)
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
    return multiclass_result(D, N_i, X, Q, queueing, 0, c, idle_last)


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
