"""A drive shared by the closed class and an open stream (the asynchronous work and the open
workloads), exactly: its product-form factor for n closed customers with the open ones summed
out (`_log_drive_factor`, Lazowska et al. 1984 §7.4 generalised to load-dependent rates), the
rate multipliers it presents to the closed class (`drive_alpha`) and the weight of its having
no closed customer (`log_empty_weight`), for `model.closed`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


def _log_factorials(n: int) -> FloatArray:
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1, dtype=np.float64)))])


def _log_drive_factor(gain: FloatArray, open_work: float, population: int) -> FloatArray:
    """log h(n), n = 0..N: one drive's product-form factor for n closed customers of unit
    demand when an open stream offering `open_work` (arrival rate x queue-length-one service)
    shares its queue.

    A drive is a load-dependent station, rate alpha(i) / S with i requests of either kind
    (alpha held at alpha(D) beyond D). Summing the product form over the open customers j
    (Lazowska et al. 1984, §7.4, for mixed networks) gives the closed class's factor
    h(n) = sum_j C(n+j, j) a^j g(n+j), g(k) = 1 / prod_{i<=k} alpha(i): exact for product-form
    stations, and with alpha = 1 it is the familiar D / (1 - rho) inflation. With r = a /
    alpha(D) < 1 the sum has closed forms: h(n) = g(n) (1 - r)^-(n+1) for n >= D, and for
    n < D the terms k = n..D-1 plus g(D) a^(D-n) sum_{i<=n} C(D, n-i) r^i (1 - r)^-(i+1)
    (Vandermonde), all positive, so it is evaluated in log space without cancellation.
    """
    depth = len(gain)
    size = max(population, depth)
    padded = np.concatenate([gain, np.full(size - depth, gain[-1])]) if size > depth else gain
    log_g = np.concatenate([[0.0], -np.cumsum(np.log(padded[:size]))])
    if open_work <= 0.0:
        return log_g[: population + 1]
    top = float(gain[-1])
    r = open_work / top
    log_a, log_r, log_1r = np.log(open_work), np.log(r), np.log1p(-r)
    n = np.arange(population + 1)
    out = log_g[: population + 1] - (n + 1) * log_1r  # n >= D
    lf = _log_factorials(depth)
    m = np.arange(min(depth, population + 1))[:, None]  # the n < D rows
    k = np.arange(depth)[None, :]
    near = np.where(
        k >= m,
        lf[k] - lf[m] - lf[np.maximum(k - m, 0)] + (k - m) * log_a + log_g[k],
        -np.inf,
    )
    i = np.arange(depth)[None, :]
    far = np.where(
        i <= m,
        log_g[depth]
        + (depth - m) * log_a
        + lf[depth]
        - lf[np.maximum(m - i, 0)]
        - lf[np.minimum(depth - m + i, depth)]
        + i * log_r
        - (i + 1) * log_1r,
        -np.inf,
    )
    terms = np.concatenate([near, far], axis=1)
    peak = terms.max(axis=1)
    out[: m.shape[0]] = peak + np.log(np.exp(terms - peak[:, None]).sum(axis=1))
    return out


def drive_alpha(gain: FloatArray, open_work: float, population: int) -> FloatArray:
    """The rate multipliers alpha_eff(n), n = 1..min(N, D + 1), a drive presents to the closed
    class when an open stream offering `open_work` shares its queue: h(n - 1) / h(n) with h of
    `_log_drive_factor`, held beyond (for n > D it is alpha(D) (1 - r), the D / (1 - rho)
    inflation at the drive's top speed). Without open work it is the drive's own gain."""
    length = min(population, len(gain) + 1)
    log_h = _log_drive_factor(gain, open_work, length)
    return np.asarray(np.exp(log_h[:-1] - log_h[1:]), dtype=np.float64)


def log_empty_weight(gain: FloatArray, open_work: float) -> float:
    """log h(0): the weight of a drive with no closed customer, over its open ones (the
    probability that it is wholly empty, given no closed customer there, is 1 / h(0))."""
    return float(_log_drive_factor(gain, open_work, 1)[0])
