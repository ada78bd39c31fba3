"""Independent exact solutions of small closed networks by enumerating their states.

The product form (Gordon & Newell 1967; BCMP 1975) gives the stationary probability of
each state directly; summing it over every state with sympy rationals yields X and Q with
no rounding at all, by a route that shares nothing with MVA's recursion.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np
import sympy as sp
from scipy.signal import convolve
from scipy.special import gammaln


def compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """All tuples of `parts` non-negative integers summing to n."""
    for bars in itertools.combinations(range(n + parts - 1), parts - 1):
        edges = (-1, *bars, n + parts - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(parts))


def single_class(
    demands: Sequence[sp.Rational],
    n: int,
    think_time: sp.Rational = sp.S.Zero,
    alpha: Sequence[Sequence[sp.Rational]] | None = None,
) -> tuple[sp.Rational, list[sp.Rational]]:
    """Exact (X, [Q_k]) at population n; alpha[k][j-1] is station k's rate multiplier at j."""
    K = len(demands)

    def factor(k: int, j: int) -> sp.Rational:
        value = sp.Integer(1)
        for i in range(1, j + 1):
            value *= demands[k] / (alpha[k][i - 1] if alpha is not None else 1)
        return value

    def constant(m: int) -> tuple[sp.Rational, list[sp.Rational]]:
        total = sp.Integer(0)
        queue = [sp.Integer(0)] * K
        for state in compositions(m, K + 1):
            weight = think_time ** state[K] / sp.factorial(state[K])
            for k in range(K):
                weight *= factor(k, state[k])
            total += weight
            for k in range(K):
                queue[k] += state[k] * weight
        return total, queue

    g_n, q_n = constant(n)
    g_prev, _ = constant(n - 1)
    return g_prev / g_n, [q / g_n for q in q_n]


def multi_class(
    demands: Sequence[Sequence[sp.Rational]],
    population: Sequence[int],
    think_time: Sequence[sp.Rational],
    delay_stations: Sequence[bool],
) -> tuple[list[sp.Rational], list[list[sp.Rational]]]:
    """Exact ([X_r], [[Q_kr]]) of a multi-class network of single-server PS queues and delays.

    A queue holding n_k = sum_r n_kr customers contributes n_k! prod_r D_kr^n_kr / n_kr!,
    a delay (and each class's think time) prod_r D_kr^n_kr / n_kr! (BCMP 1975).
    """
    K, R = len(demands), len(population)

    def constant(pop: Sequence[int]) -> tuple[sp.Rational, list[list[sp.Rational]]]:
        per_class = [list(compositions(pop[r], K + 1)) for r in range(R)]
        total = sp.Integer(0)
        queue = [[sp.Integer(0)] * R for _ in range(K)]
        for choice in itertools.product(*per_class):
            weight = sp.Integer(1)
            for r in range(R):
                weight *= think_time[r] ** choice[r][K] / sp.factorial(choice[r][K])
            for k in range(K):
                counts = [choice[r][k] for r in range(R)]
                term = sp.Integer(1)
                for r in range(R):
                    term *= demands[k][r] ** counts[r] / sp.factorial(counts[r])
                if not delay_stations[k]:
                    term *= sp.factorial(sum(counts))
                weight *= term
            total += weight
            for k in range(K):
                for r in range(R):
                    queue[k][r] += choice[r][k] * weight
        return total, queue

    g, q = constant(population)
    throughputs = []
    for r in range(R):
        if population[r] == 0:
            throughputs.append(sp.Integer(0))
            continue
        reduced = list(population)
        reduced[r] -= 1
        g_minus, _ = constant(reduced)
        throughputs.append(g_minus / g)
    return throughputs, [[value / g for value in row] for row in q]


def multi_class_multiserver(
    demands: Sequence[Sequence[sp.Rational]],
    population: Sequence[int],
    think_time: Sequence[sp.Rational],
    servers: Sequence[int],
) -> tuple[list[sp.Rational], list[list[sp.Rational]]]:
    """Exact (X[r], Q[k][r]) with station k a processor-sharing station of servers[k]
    servers: the rate with j customers is min(j, c) whatever their classes (BCMP), so a
    state's weight is prod_k |n_k|! / prod_r n_kr! prod_r D_kr^n_kr / prod_{i<=|n_k|}
    min(i, c_k), times prod_r Z_r^z_r / z_r! for the customers thinking."""
    K, R = len(demands), len(population)

    def weight(state: list[list[int]], thinking: list[int]) -> sp.Rational:
        w = sp.Integer(1)
        for r in range(R):
            w *= think_time[r] ** thinking[r] / sp.factorial(thinking[r])
        for k in range(K):
            total = sum(state[k])
            w *= sp.factorial(total)
            for r in range(R):
                w *= demands[k][r] ** state[k][r] / sp.factorial(state[k][r])
            for i in range(1, total + 1):
                w /= min(i, servers[k])
        return w

    def sums(pop: Sequence[int]) -> tuple[sp.Rational, list[list[sp.Rational]]]:
        per_class = [list(compositions(pop[r], K + 1)) for r in range(R)]
        total = sp.Integer(0)
        queue = [[sp.Integer(0)] * R for _ in range(K)]
        for choice in itertools.product(*per_class):
            state = [[choice[r][k] for r in range(R)] for k in range(K)]
            w = weight(state, [choice[r][K] for r in range(R)])
            total += w
            for k in range(K):
                for r in range(R):
                    queue[k][r] += state[k][r] * w
        return total, queue

    g, q = sums(population)
    X = []
    for r in range(R):
        if population[r] == 0:
            X.append(sp.Integer(0))
            continue
        reduced = list(population)
        reduced[r] -= 1
        X.append(sums(reduced)[0] / g)
    return X, [[value / g for value in row] for row in q]


def multi_class_multiserver_by_convolution(
    demands: np.ndarray, population: Sequence[int], think_time: np.ndarray, servers: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(X[R], Q[K, R]) of the network of `multi_class_multiserver` by direct convolution of
    its station factors over the population lattice, in floating point.

    Station k's factor F_k(m) = |m|! / prod_{i<=|m|} min(i, c_k) prod_r D_kr^m_r / m_r!
    and the think times' prod_r Z_r^m_r / m_r! are formed term by term from their
    definition and convolved (sums of positive terms only, so no rounding is amplified);
    G(N - e_r) / G(N) gives X_r and sum_m m_r F_k(m) G_{-k}(N - m) / G(N) gives Q_kr.
    Nothing is shared with MVA's recursion. Each class is measured in units of its largest
    demand, so that G stays within floating-point range for classes of up to ~100.
    """
    K, R = demands.shape
    scale = 1.0 / demands.max(axis=0)
    D = demands * scale[None, :]
    Z = think_time * scale
    shape = tuple(n + 1 for n in population)
    m = np.indices(shape).reshape(R, -1).T  # every m <= N
    total = m.sum(axis=1)
    log_multinomial = gammaln(total + 1) - gammaln(m + 1).sum(axis=1)

    def log_powers(d: np.ndarray) -> np.ndarray:
        """log prod_r d_r^m_r at every m (-inf where a class of no demand is present)."""
        logs = (m * np.log(np.where(d > 0, d, 1.0))[None, :]).sum(axis=1)
        return np.where(np.any((m > 0) & (d == 0)[None, :], axis=1), -np.inf, logs)

    def factor(k: int) -> np.ndarray:
        log_d = log_powers(D[k])
        steps = np.minimum(np.arange(1, total.max() + 1), servers[k])
        log_rate = np.concatenate([[0.0], np.cumsum(np.log(steps))])[total]
        return np.exp(log_multinomial + log_d - log_rate).reshape(shape)

    log_z = log_powers(Z)
    thinking = np.exp(log_z - gammaln(m + 1).sum(axis=1)).reshape(shape)
    factors = [factor(k) for k in range(K)]
    corner = tuple(slice(0, n) for n in shape)

    def constant(skip: int | None) -> np.ndarray:
        G = thinking
        for k in range(K):
            if k != skip:
                G = convolve(G, factors[k], method="direct")[corner]
        return G

    G = constant(None)
    N = tuple(population)
    X = np.array(
        [G[tuple(n - (s == r) for s, n in enumerate(N))] / G[N] if N[r] else 0.0 for r in range(R)]
    )
    Q = np.zeros((K, R))
    flipped = tuple(slice(None, None, -1) for _ in range(R))
    for k in range(K):
        others = constant(k)[flipped]  # others[m] = G_{-k}(N - m)
        held = factors[k] * others / G[N]
        for r in range(R):
            Q[k, r] = (m[:, r].reshape(shape) * held).sum()
    return X * scale, Q
