"""Log-space convolutions of the normalising-constant sequences of product-form networks.

A closed product-form network's normalising constant is the convolution of one factor per
station: f_k(j) = D_k^j / prod_{i<=j} alpha_k(i) (j customers at station k). Its values span
hundreds of orders of magnitude for populations in the thousands, so every sequence here is
held as its natural logarithm and every sum is a log-sum-exp (largest term factored out): no
term overflows, a term underflows only when it is below 1e-308 of the largest in its sum, and
no value is ever formed as a difference (all terms are positive). No FFT: a transform mixes
small and large coefficients and loses the small ones' relative precision.

- `log_convolve(log_a, log_b)`: the general convolution, O(L^2) terms computed in blocks of
  rows (memory O(L + block)).
- `log_convolve_power(log_f, times)`: the `times`-fold convolution by binary powering.
- `log_station_factor(demand, alpha, length)` and `log_convolve_station(log_g, demand,
  alpha)`: a station whose rate multiplier alpha is held at its last value beyond the entries
  given (c servers: alpha = 1..c; a drive: its command-queueing gains up to its queue depth)
  has a geometric tail, so its convolution costs O(L n0) for n0 entries instead of O(L^2): the
  first n0 terms directly, the tail as one running log-sum (a first-order recurrence).

Accuracy: each output is a correctly rounded log-sum-exp of exactly formed terms; the relative
error of a value is about eps times the magnitude of its logarithm (1e-10 for log values near
1e6, reached only by sequences of hundreds of thousands of terms).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray

_BLOCK_TERMS = 1_000_000
"""Terms held at once by the blocked convolutions (8 MB of float64)."""


def _log_sequence(values: ArrayLike, name: str) -> FloatArray:
    a = np.asarray(values, dtype=np.float64)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of logarithms, got {a.shape}")
    if np.any(np.isnan(a)) or np.any(a == np.inf):
        raise ValueError(f"{name} must hold logarithms: finite or -inf (a zero term)")
    return a


def _row_logsumexp(terms: FloatArray) -> FloatArray:
    """log sum exp over axis 1, the largest term factored out; a row of -inf gives -inf."""
    peak = terms.max(axis=1)
    shift = np.where(np.isfinite(peak), peak, 0.0)
    with np.errstate(divide="ignore"):
        return np.asarray(shift + np.log(np.exp(terms - shift[:, None]).sum(axis=1)))


def log_convolve(log_a: ArrayLike, log_b: ArrayLike, length: int | None = None) -> FloatArray:
    """log (a * b)(n) = log sum_{j<=n} a(j) b(n-j) for n = 0..length-1, from log a and log b.

    length defaults to min(len(a), len(b)) (the part both sequences determine); entries beyond
    a sequence's end count as zero. Exact (every term formed, summed as a log-sum-exp); cost
    length^2 / 2 terms, memory O(length) plus a block of at most 1e6 terms.
    """
    la = _log_sequence(log_a, "log_a")
    lb = _log_sequence(log_b, "log_b")
    L = min(la.size, lb.size) if length is None else int(length)
    if L < 1:
        raise ValueError(f"length must be >= 1, got {length!r}")
    la = np.concatenate([la[:L], np.full(max(0, L - la.size), -np.inf)])
    lb = np.concatenate([lb[:L], np.full(max(0, L - lb.size), -np.inf)])
    padded = np.concatenate([np.full(L - 1, -np.inf), lb])
    lagged = sliding_window_view(padded, L)[:, ::-1]  # lagged[n, j] = log b(n - j), a view
    out = np.empty(L)
    start = 0
    while start < L:
        # Rows start..stop-1 need columns j <= stop-1 only: the largest stop with
        # (stop - start) * stop <= the block size, at least one row.
        stop = int((start + np.sqrt(start * start + 4.0 * _BLOCK_TERMS)) / 2)
        stop = min(L, max(stop, start + 1))
        terms = lagged[start:stop, :stop] + la[None, :stop]
        out[start:stop] = _row_logsumexp(terms)
        start = stop
    return out


def log_convolve_power(log_f: ArrayLike, times: int, length: int | None = None) -> FloatArray:
    """log of the `times`-fold convolution f * f * ... * f, n = 0..length-1 (binary powering).

    times = 0 gives the identity (1 at n = 0). Exact; cost about 2 log2(times) calls of
    `log_convolve`. For a station factor with a geometric tail, `log_convolve_station` applied
    `times` times costs O(times n0 L) instead and is cheaper while times * n0 < L log2(times).
    """
    lf = _log_sequence(log_f, "log_f")
    if int(times) != times or times < 0:
        raise ValueError(f"times must be an integer >= 0, got {times!r}")
    L = lf.size if length is None else int(length)
    result = np.full(L, -np.inf)
    result[0] = 0.0
    base = np.concatenate([lf[:L], np.full(max(0, L - lf.size), -np.inf)])
    k = int(times)
    while k:
        if k & 1:
            result = log_convolve(result, base, L)
        k >>= 1
        if k:
            base = log_convolve(base, base, L)
    return result


def _station_alpha(alpha: ArrayLike | None) -> FloatArray:
    a = np.ones(1) if alpha is None else np.asarray(alpha, dtype=np.float64).reshape(-1)
    if a.size == 0 or np.any(~np.isfinite(a)) or np.any(a <= 0):
        raise ValueError("alpha (service-rate multipliers) must be non-empty, finite and > 0")
    return a


def log_station_factor(demand: float, alpha: ArrayLike | None, length: int) -> FloatArray:
    """log f(j) = j log D - sum_{i<=j} log alpha(i), j = 0..length-1.

    alpha(i), i = 1..n0, is held at alpha(n0) beyond the entries given (None: alpha = 1, an
    ordinary queue). demand 0 gives f = (1, 0, 0, ...).
    """
    a = _station_alpha(alpha)
    d = float(demand)
    if not np.isfinite(d) or d < 0:
        raise ValueError(f"demand must be finite and >= 0, got {demand!r}")
    L = int(length)
    lf = np.full(L, -np.inf)
    lf[0] = 0.0
    if d == 0 or L == 1:
        return lf
    n0 = a.size
    log_alpha = np.log(a)
    j_head = min(L - 1, n0)
    lf[1 : j_head + 1] = np.arange(1, j_head + 1) * np.log(d) - np.cumsum(log_alpha[:j_head])
    if n0 < L - 1:
        i = np.arange(1, L - n0)
        lf[n0 + 1 :] = lf[n0] + i * (np.log(d) - log_alpha[-1])
    return lf


def log_convolve_station(log_g: ArrayLike, demand: float, alpha: ArrayLike | None) -> FloatArray:
    """log (g * f)(n), n = 0..len(g)-1, for a station factor f (see `log_station_factor`).

    The first n0 = len(alpha) terms of f are summed directly (in linear-space blocks scaled
    by their largest value, or as a sliding log-sum-exp where the values spread too widely),
    the geometric tail f(j) = f(n0) r^(j-n0), r = D / alpha(n0), as the running sum
    T(n) = r T(n-1) + f(n0) g(n-n0), one cumulative log-sum. Exact; cost O(len(g) n0).
    """
    lg = _log_sequence(log_g, "log_g")
    d = float(demand)
    if not np.isfinite(d) or d < 0:
        raise ValueError(f"demand must be finite and >= 0, got {demand!r}")
    if d == 0:
        return lg.copy()
    return StationKernel(d, _station_alpha(alpha)).apply(lg)


class StationKernel:
    """A station factor prepared once for repeated convolutions (`log_convolve_station`)."""

    def __init__(self, demand: float, alpha: FloatArray) -> None:
        self.n0 = alpha.size
        lf = log_station_factor(demand, alpha, self.n0 + 1)
        self.lf_head = lf[: self.n0]
        self.lf_n0 = float(lf[self.n0])
        self.log_r = float(np.log(demand) - np.log(alpha[-1]))
        finite = self.lf_head[np.isfinite(self.lf_head)]
        self.f_top = float(finite.max())
        self.f_spread = float(self.f_top - finite.min())
        self.f_scaled = np.exp(self.lf_head - self.f_top)

    def apply(self, lg: FloatArray) -> FloatArray:
        """log (g * f)(n), n = 0..len(g)-1 (no input checks: the caller's sequences)."""
        L = lg.size
        n0 = min(self.n0, L)
        out = _log_head_convolve(
            lg, self.lf_head[:n0], self.f_scaled[:n0], self.f_top, self.f_spread
        )
        if self.n0 < L:
            # Tail: f(n0 + i) = f(n0) r^i, so sum_{j>=n0} f(j) g(n-j) = f(n0) T(n - n0).
            tail = _log_geometric_tail(lg[: L - self.n0], self.log_r) + self.lf_n0
            out[self.n0 :] = np.logaddexp(out[self.n0 :], tail)
        return out


_SAFE_RANGE = 600.0
"""Largest spread (in nats) of the logarithms scaled into one linear-space block: every term
is then above e^-600 of the block's largest, so none underflows (the double range is e^-745)."""


def _log_head_convolve(
    lg: FloatArray, lf_head: FloatArray, f_scaled: FloatArray, f_top: float, f_spread: float
) -> FloatArray:
    """log sum_{j < n0, j <= n} exp(lf_head[j] + lg[n - j]) for every n.

    In blocks of outputs: the block's inputs and the head are scaled by their largest values
    and convolved in linear space (`numpy.convolve`, a compiled loop), which is exact to
    rounding when both spreads fit `_SAFE_RANGE` (no term underflows, every term positive).
    A block whose logarithms spread wider is summed as a sliding log-sum-exp instead.
    """
    L = lg.size
    n0 = lf_head.size
    if n0 == 1:
        return np.asarray(lg + lf_head[0])
    padded = np.concatenate([np.full(n0 - 1, -np.inf), lg])
    out = np.empty(L)
    start = 0
    block = 4096
    while start < L:
        stop = min(L, start + block)
        window = padded[start : stop + n0 - 1]  # lg[start - n0 + 1 .. stop - 1]
        finite = window[np.isfinite(window)]
        spread = float(finite.max() - finite.min()) if finite.size else 0.0
        if finite.size and spread + f_spread <= _SAFE_RANGE:
            top = float(finite.max())
            with np.errstate(divide="ignore"):
                linear = np.convolve(np.exp(window - top), f_scaled, mode="valid")
                out[start:stop] = np.log(linear) + (top + f_top)
            start = stop
            block = min(4096, block * 2)
        elif block > 64:
            block //= 4
        else:
            view = sliding_window_view(window, n0)[:, ::-1]
            out[start:stop] = _row_logsumexp(view + lf_head[None, :])
            start = stop
    return out


def _log_geometric_tail(lg: FloatArray, log_r: float) -> FloatArray:
    """log T(n), T(n) = sum_{i<=n} r^(n-i) g(i) (the running sum T(n) = r T(n-1) + g(n)).

    T(n) = r^n sum_{i<=n} g(i) r^-i: a cumulative log-sum of v(i) = log g(i) - i log r in
    blocks of 4096, carried from block to block, so that the reference power restarts at
    every block and no exponent's magnitude grows with the sequence length. Where v spreads
    less than `_SAFE_RANGE` over a block (r near 1: the stations near saturation, whose tails
    matter most) the block is summed in linear space scaled by its largest term (a compiled
    cumulative sum); elsewhere as a cumulative log-sum-exp.
    """
    L = lg.size
    out = np.empty(L)
    carry = -np.inf  # log T at the end of the previous block
    block = 4096
    for start in range(0, L, block):
        stop = min(L, start + block)
        i = np.arange(stop - start, dtype=np.float64)
        v = lg[start:stop] - i * log_r  # log of g(start+i) r^-i
        head = carry + log_r  # log of r T(start - 1)
        finite = v[np.isfinite(v)]
        top = float(finite.max()) if finite.size else -np.inf
        ref = max(head, top)
        with np.errstate(divide="ignore", under="ignore"):
            if not np.isfinite(ref):
                out[start:stop] = -np.inf
            elif finite.size == v.size and ref - float(finite.min()) <= _SAFE_RANGE:
                sums = np.cumsum(np.exp(v - ref)) + np.exp(head - ref)
                out[start:stop] = np.log(sums) + ref + i * log_r
            else:
                v[0] = np.logaddexp(v[0], head)
                out[start:stop] = np.logaddexp.accumulate(v) + i * log_r
        carry = float(out[stop - 1])
    return out
