"""The exact method's normalising constants for `queueing.closed_network`, in log space or,
where cheaper and exact, in scaled linear space: log G of the ordinary queues, delays and
think time (`log_g_base`), log G with and without one member of each load-dependent station
(`leave_one_out`), the station means read from them (`queue_of_ordinary`, `member_means`),
and the exact method's cost model (`exact_cost_ns`). Methods and their bounds are in
`queueing.closed_network`'s docstring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from diskmodel.queueing._arrays import FloatArray
from diskmodel.queueing._network_spec import Network, Unit
from diskmodel.queueing.convolution import (
    StationKernel,
    _log_geometric_tail,
    _row_logsumexp,
    log_convolve,
    log_convolve_power,
    log_station_factor,
)

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


def log_g_base(net: Network, length: int) -> FloatArray:
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


class MemberApplier:
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
"""The linear-space leave-one-out (`leave_one_out_linear`) is tried up to this many
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


def linear_is_cheaper(units: Sequence[Unit], length: int) -> bool:
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


def leave_one_out_linear(
    log_base: FloatArray, units: Sequence[Unit], tilt: float
) -> tuple[FloatArray, bool]:
    """`leave_one_out` in linear space, every sequence held as values of largest 1 times a
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


def first_tilt(net: Network, length: int) -> float:
    """A first guess at the mean slope of log G(0..N) (log G(0) = 0): log G(N) / N with
    theta X(n) at its bound min(1, n / A), A the demand of a cycle alone (theta units)."""
    cycle = net.delay_total + float(net.base_queue.sum())
    cycle += sum(u.members * u.demand / float(u.alpha[0]) for u in net.units)
    n = np.arange(1, length, dtype=np.float64)
    return float(np.maximum(np.log(cycle / n), 0.0).sum()) / max(length - 1, 1)


def leave_one_out(
    log_base: FloatArray, units: Sequence[Unit], tilt: float = 0.0
) -> tuple[FloatArray, list[FloatArray]]:
    """log G and, per unit, log G of the network without one of its members: in linear
    space where that is the cheaper route and every value is exact there
    (`leave_one_out_linear`: tilted by `tilt`, then once more by the mean slope of log G
    that try gave, `_mean_slope`), else in log space."""
    L = log_base.size
    if (
        units
        and len(units) <= _LINEAR_UNITS
        and L <= _LINEAR_LENGTH
        and linear_is_cheaper(units, L)
    ):
        with np.errstate(divide="ignore", under="ignore", invalid="ignore", over="ignore"):
            logs, exact = leave_one_out_linear(log_base, units, tilt)
            if not exact:
                slope = _mean_slope(logs[-1])
                if np.isfinite(slope):
                    logs, exact = leave_one_out_linear(log_base, units, slope)
        if exact:
            return logs[-1], list(logs[:-1])
    return leave_one_out_log(log_base, units)


def leave_one_out_log(
    log_base: FloatArray, units: Sequence[Unit]
) -> tuple[FloatArray, list[FloatArray]]:
    """`leave_one_out` in log space: exact at any range, one call per member step."""
    minus: list[FloatArray] = [log_base] * len(units)
    apply = MemberApplier(log_base.size)

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


def queue_of_ordinary(d: FloatArray, log_g: FloatArray) -> FloatArray:
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


def member_means(unit: Unit, log_minus: FloatArray, log_g: FloatArray) -> tuple[float, float]:
    """(mean customers, P(empty)) of one member at N = len - 1, from G without it."""
    N = log_g.size - 1
    lf = log_station_factor(unit.demand, unit.alpha, N + 1)
    j = np.arange(1, N + 1, dtype=np.float64)
    terms = np.log(j) + lf[1:] + log_minus[N - 1 :: -1]
    mean = float(np.exp(_row_logsumexp(terms[None, :])[0] - log_g[N]))
    idle = float(np.exp(lf[0] + log_minus[N] - log_g[N]))
    return mean, min(1.0, idle)
