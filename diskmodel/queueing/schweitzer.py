"""Bard-Schweitzer approximate MVA for multi-class closed networks (`schweitzer`), and its
fixed-point core with single- and multi-server stations (`approximate_core`,
`approximate_core_multiserver`), which Linearizer (`queueing.linearizer`) solves again with its
corrections. Networks, results and accuracy as in `queueing.multiclass`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray
from diskmodel.queueing.multiclass import MulticlassResult, multiclass_network, multiclass_result


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


def approximate_core(
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


def initial_throughputs(D: FloatArray, n: FloatArray, Z: FloatArray) -> FloatArray:
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


def approximate_core_multiserver(
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
    rule; see `approximate_core`).
    Stations with c > 1 servers (`servers`) take the multi-server residence time
    R_kr = (D_kr / c) (1 + Q_k(N - e_r) + sum_{j<=c-2} (c-1-j) p_k(j | N - e_r)) with the
    queue-length law estimated at N (p_k(j | N - e_r) ~ p_k(j | N), `_marginals`); band in
    `linearizer`'s docstring and tests/queueing/test_multiserver_multiclass.py.
    Sources: Bard, "Some extensions to multiclass queueing network analysis", 1979;
    Schweitzer, "Approximate analysis of multiclass closed networks of queues", 1979;
    Conway, "Fast approximate solution of queueing networks with multi-server
    chain-dependent FCFS queues", 1989 (the multi-server estimate).
    """
    D, N_i, Z, queueing, c = multiclass_network(demands, N, think_time, servers)
    K, R = D.shape
    n = N_i.astype(np.float64)
    F = np.zeros((K, R, R))
    if np.all(c == 1):
        X, Q, iterations = approximate_core(
            D, queueing, n, Z, F, initial_throughputs(D, n, Z), tol, max_iterations
        )
        return multiclass_result(D, N_i, X, Q, queueing, iterations)
    cmax = int(c.max())
    dP = np.zeros((K, cmax, R))
    X0 = initial_throughputs(D / c[:, None], n, Z)
    X, Q, p, iterations = approximate_core_multiserver(
        D, queueing, c, n, Z, F, dP, X0, tol, max_iterations
    )
    idle = (p * np.maximum(c[:, None] - 1.0 - np.arange(cmax)[None, :], 0.0)).sum(axis=1)
    return multiclass_result(D, N_i, X, Q, queueing, iterations, c, idle)
