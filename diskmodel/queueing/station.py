"""Single stations fed by a Poisson stream: M/M/1, M/M/c (Erlang C), M/G/1, M/G/c, delay.

Every function broadcasts over its arguments (typically a vector of arrival rates `lam`) and
returns a `StationResult` of arrays. Times are in whatever unit the caller uses for `s`;
rates are in the reciprocal unit.

Saturation is handled first and explicitly: where the per-server utilisation
rho = lam*s/c is at or above 1 the station has no steady state, so the result says
`saturated=True`, `utilization=1`, and wait, response time and queue length are `inf`.
No function returns NaN or a negative time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.queueing._arrays import BoolArray, FloatArray, frozen, frozen_bool


@dataclass(frozen=True, slots=True)
class StationResult:
    """Steady-state means of one station, each an array broadcast over the inputs.

    utilization: fraction of each server's time that is busy (rho = lam*s/c), clamped to 1
        when saturated; 0 for a delay (infinite-server) station.
    service_time: mean service time s (the input, broadcast).
    wait_time: mean time queued before service starts (W_q).
    response_time: wait_time + service_time (R).
    queue_length: mean number at the station, queued plus in service (L = lam*R, Little).
    saturated: True where rho >= 1 (times and queue length are then inf).
    """

    utilization: FloatArray
    service_time: FloatArray
    wait_time: FloatArray
    response_time: FloatArray
    queue_length: FloatArray
    saturated: BoolArray


def _nonnegative(name: str, value: ArrayLike) -> FloatArray:
    arr = np.asarray(value, dtype=np.float64)
    if np.any(np.isnan(arr)) or np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0 and not NaN, got {value!r}")
    return arr


def _servers(value: ArrayLike) -> NDArray[np.int64]:
    arr = np.asarray(value, dtype=np.float64)
    if not np.all(np.isfinite(arr)) or np.any(arr != np.rint(arr)) or np.any(arr < 1):
        raise ValueError(f"number of servers c must be an integer >= 1, got {value!r}")
    return arr.astype(np.int64)


def _station_result(
    lam: FloatArray, s: FloatArray, rho: FloatArray, wait: FloatArray
) -> StationResult:
    """Assemble a result from the unsaturated wait; overwrite the saturated points."""
    saturated = rho >= 1.0
    utilization, wait = _settled(rho, wait)
    response = wait + s
    # lam*R is 0*inf = NaN only if lam = 0, which is never saturated (rho = 0 < 1).
    queue = np.where(saturated, np.inf, lam * np.where(saturated, 0.0, response))
    return StationResult(
        utilization=frozen(utilization),
        service_time=frozen(s),
        wait_time=frozen(wait),
        response_time=frozen(response),
        queue_length=frozen(queue),
        saturated=frozen_bool(saturated),
    )


def _settled(rho: FloatArray, wait: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The utilisation and wait of a station at per-server utilisation `rho` with the
    unsaturated `wait`: 1 and inf where rho >= 1."""
    saturated = rho >= 1.0
    return np.where(saturated, 1.0, rho), np.where(saturated, np.inf, wait)


def mm1(lam: ArrayLike, s: ArrayLike) -> StationResult:
    """M/M/1: Poisson arrivals at rate lam, exponential service of mean s, one server.

    rho = lam*s, W_q = rho*s/(1 - rho), R = s/(1 - rho), L = rho/(1 - rho).
    Exact for FCFS or processor sharing (Kleinrock, Queueing Systems vol. 1, 1975, §3.2).
    """
    lam_a, s_a = np.broadcast_arrays(_nonnegative("lam", lam), _nonnegative("s", s))
    rho, wait = _mm1_wait(lam_a, s_a)
    return _station_result(lam_a, s_a, rho, wait)


def _mm1_wait(lam: FloatArray, s: FloatArray) -> tuple[FloatArray, FloatArray]:
    """`mm1`'s rho and unsaturated wait, of inputs already checked and broadcast."""
    rho = lam * s
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(rho < 1.0, rho * s / (1.0 - rho), np.inf)
    return rho, wait


def mm1_state(lam: FloatArray, s: FloatArray) -> tuple[FloatArray, FloatArray]:
    """`mm1`'s utilization and wait_time alone, for a solver that checked its inputs (>= 0,
    not NaN) and gives them in one shape: the same operations, without the checks, the
    copies and the figures it does not read."""
    return _settled(*_mm1_wait(lam, s))


_FEW_POINTS = 16
"""Up to this many points `erlang_b` steps each in plain floats (measured faster below ~20)."""


def erlang_b(c: ArrayLike, a: ArrayLike) -> FloatArray:
    """Erlang B blocking probability B(c, a) for c servers offered a = lam*s Erlangs.

    Built by the recurrence B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)), which is a
    contraction (each step's relative error is damped by k/(k + a B)), never forms a^c or
    c!, and so neither overflows nor loses precision for c in the thousands; values below
    the smallest double underflow harmlessly to 0. Cost O(max c) vector operations.
    Source: Jagerman, "Some properties of the Erlang loss function", BSTJ 53 (1974).
    """
    return _erlang_b(_servers(c), _nonnegative("a", a))


def _erlang_b(c_i: NDArray[np.int64], a_f: FloatArray) -> FloatArray:
    """`erlang_b` of inputs already checked (a caller that checked them once, `mmc`)."""
    c_b, a_b = np.broadcast_arrays(c_i, a_f)
    if c_b.size == 0:
        return np.zeros(c_b.shape)
    if a_b.size <= _FEW_POINTS:
        # Few points: each point's recurrence in plain floats, to its own c (the same steps
        # and roundings as the arrays' below): a step costs ~0.1 us against ~1.5 us for a
        # numpy operation, and a z/OS device queue asks for c = 1 + 127 aliases at 6 points.
        points = zip(c_b.reshape(-1).tolist(), a_b.reshape(-1).tolist(), strict=True)
        each: list[float] = []
        for c_n, a_n in points:
            b_s = 1.0
            for k in range(1, c_n + 1):
                ab_s = a_n * b_s
                b_s = ab_s / (k + ab_s)
            each.append(b_s)
        return np.array(each).reshape(a_b.shape)
    c_max = int(c_b.max())
    b = np.ones(a_b.shape)
    out = np.ones(a_b.shape)
    uniform_c = bool(np.all(c_b == c_max))
    for k in range(1, c_max + 1):
        ab = a_b * b
        b = ab / (k + ab)
        if not uniform_c:
            hit = c_b == k
            out[hit] = b[hit]
    return b if uniform_c else out


def erlang_c(c: ArrayLike, a: ArrayLike) -> FloatArray:
    """Erlang C: probability that an arrival to an M/M/c queue must wait, a = lam*s Erlangs.

    C(c, a) = B / (1 - rho (1 - B)) with B = erlang_b(c, a) and rho = a/c; the denominator
    is rho*B + (1 - rho) >= B, so there is no cancellation even as rho -> 1 (tested to
    rho = 1 - 1e-9 at c = 4096). At or above saturation (a >= c) every arrival waits: 1.
    Source: Kleinrock (1975) eq. 3.40; the B-to-C identity is standard (Cooper, Introduction
    to Queueing Theory, 1981, §3.4).
    """
    return _erlang_c(_servers(c), _nonnegative("a", a))


def _erlang_c(c_i: NDArray[np.int64], a_f: FloatArray) -> FloatArray:
    """`erlang_c` of inputs already checked (`mmc` checks its own once, not three times)."""
    c_b, a_b = np.broadcast_arrays(c_i.astype(np.float64), a_f)
    rho = a_b / c_b
    below = rho < 1.0
    b = _erlang_b(c_i, np.where(below, a_b, 0.0))
    prob = b / (rho * b + (1.0 - rho))
    return np.where(below, np.minimum(prob, 1.0), 1.0)


def mmc(lam: ArrayLike, s: ArrayLike, c: ArrayLike) -> StationResult:
    """M/M/c: Poisson arrivals, exponential service of mean s, c identical servers, FCFS.

    a = lam*s, rho = a/c, W_q = C(c, a) s / (c (1 - rho)), R = s + W_q.
    Exact (Kleinrock 1975, §3.5); with c = 1 it equals `mm1`.
    """
    lam_a, s_a, c_a = np.broadcast_arrays(
        _nonnegative("lam", lam), _nonnegative("s", s), _servers(c)
    )
    rho, wait = _mmc_wait(lam_a, s_a, c_a)
    return _station_result(lam_a, s_a, rho, wait)


def _mmc_wait(
    lam: FloatArray, s: FloatArray, c: NDArray[np.int64]
) -> tuple[FloatArray, FloatArray]:
    """`mmc`'s rho and unsaturated wait, of inputs already checked and broadcast."""
    a = lam * s
    rho = a / c
    prob_wait = _erlang_c(c, np.where(rho < 1.0, a, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(rho < 1.0, prob_wait * s / (c * (1.0 - rho)), np.inf)
    return rho, wait


def mmc_state(lam: FloatArray, s: FloatArray, c: FloatArray) -> tuple[FloatArray, FloatArray]:
    """`mmc`'s utilization and wait_time alone (`mm1_state`): `c` whole numbers >= 1 as
    floats, broadcast against lam and s."""
    lam_a, s_a, c_a = np.broadcast_arrays(lam, s, c.astype(np.int64))
    return _settled(*_mmc_wait(lam_a, s_a, c_a))


def mg1(lam: ArrayLike, s: ArrayLike, s2: ArrayLike) -> StationResult:
    """M/G/1 FCFS by Pollaczek-Khinchine: W_q = lam E[S^2] / (2 (1 - rho)), rho = lam*s.

    s is E[S], s2 is E[S^2] (so s2 >= s^2; an exponential service has s2 = 2 s^2 and gives
    `mm1`, a deterministic one s2 = s^2). Exact for any service distribution with a finite
    second moment (Kleinrock 1975, eq. 5.105).
    """
    lam_a, s_a, s2_a = np.broadcast_arrays(
        _nonnegative("lam", lam), _nonnegative("s", s), _nonnegative("s2", s2)
    )
    if np.any(s2_a < s_a * s_a * (1.0 - 1e-12)):
        raise ValueError("s2 = E[S^2] must be at least s^2 (a variance cannot be negative)")
    rho = lam_a * s_a
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(rho < 1.0, lam_a * s2_a / (2.0 * (1.0 - rho)), np.inf)
    return _station_result(lam_a, s_a, rho, wait)


def mgc_allen_cunneen(lam: ArrayLike, s: ArrayLike, c: ArrayLike, cs2: ArrayLike) -> StationResult:
    """M/G/c by the Allen-Cunneen approximation: W_q = W_q(M/M/c) (ca^2 + cs^2) / 2, ca^2 = 1.

    cs2 is the squared coefficient of variation of service, Var[S]/s^2. Exact for c = 1
    (it is then Pollaczek-Khinchine) and for exponential service (cs2 = 1); for c > 1 and
    cs2 < 1 it tends to underestimate the wait by 10-15% (a disk-like service on 2 servers
    at rho = 0.8: 6.1 ms against a simulated 7.0 +- 1.3 ms, tests/queueing), less at heavy
    load. Source: Allen, Probability, Statistics and
    Queueing Theory (1990), eq. 6.140; Kingman's heavy-traffic argument motivates the
    (ca^2 + cs^2)/2 factor.
    """
    lam_a, s_a, c_a, cs2_a = np.broadcast_arrays(
        _nonnegative("lam", lam), _nonnegative("s", s), _servers(c), _nonnegative("cs2", cs2)
    )
    base = mmc(lam_a, s_a, c_a)
    wait = base.wait_time * (1.0 + cs2_a) / 2.0
    rho = lam_a * s_a / c_a
    return _station_result(lam_a, s_a, rho, wait)


def delay(lam: ArrayLike, s: ArrayLike) -> StationResult:
    """Infinite-server (pure delay) station: every arrival is served at once, R = s.

    Models a fixed latency that nothing queues for. queue_length = lam*s (Little);
    utilization is reported as 0 because no server is ever contended; never saturated.
    """
    lam_a, s_a = np.broadcast_arrays(_nonnegative("lam", lam), _nonnegative("s", s))
    zeros = np.zeros(lam_a.shape)
    return StationResult(
        utilization=frozen(zeros),
        service_time=frozen(s_a),
        wait_time=frozen(zeros),
        response_time=frozen(s_a),
        queue_length=frozen(lam_a * s_a),
        saturated=frozen_bool(np.zeros(lam_a.shape, dtype=np.bool_)),
    )


def load_dependent(lam: ArrayLike, s: ArrayLike, alpha: ArrayLike) -> StationResult:
    """Open load-dependent station: Poisson arrivals at rate lam, exponential service whose
    rate with n present is alpha(n) / s (one queue; e.g. a disk drive that reorders its queue).

    alpha: the rate multipliers alpha(1..D) along the last axis (alpha(1) is usually 1; held
    at alpha(D) for n > D), broadcast against lam and s on the leading axes. The station is a
    birth-death process (Kleinrock, Queueing Systems I, 1975, §3.8): with a = lam s,
    p(n) = p(0) prod_{i<=n} a / alpha(i), a geometric tail of ratio r = a / alpha(D) beyond D,
    so it has a steady state iff a < alpha(D). Then

        utilization = 1 - p(0)             (the probability the station is busy),
        queue_length L = sum n p(n),  response_time R = L / lam  (Little),
        service_time = utilization / lam   (busy time per arrival: s at light load, falling
                                           as the queue grows and the station serves faster),
        wait_time = R - service_time.

    So utilization = lam x service_time holds exactly. alpha = 1 is M/M/1; alpha(n) = min(n, c)
    gives M/M/c's queue length and response time, but its `utilization` here is the
    probability that the station is busy at all (a drive's "% busy"), not M/M/c's per-server
    lam s / c (both tested). Computed in log space: no overflow for any D.
    Saturated where a >= alpha(D): utilization 1, infinite times, as the other stations.
    """
    lam_a = _nonnegative("lam", lam)
    s_a = _nonnegative("s", s)
    alpha_a = np.asarray(alpha, dtype=np.float64)
    if (
        alpha_a.ndim < 1
        or alpha_a.shape[-1] < 1
        or not np.all(np.isfinite(alpha_a) & (alpha_a > 0))
    ):
        raise ValueError("alpha must hold finite rate multipliers > 0 along its last axis")
    saturated, busy, service, wait, response, queue, s_top = _load_dependent_parts(
        lam_a, s_a, alpha_a
    )
    inf = np.inf
    return StationResult(
        utilization=frozen(np.where(saturated, 1.0, busy)),
        service_time=frozen(np.where(saturated, s_top, service)),
        wait_time=frozen(np.where(saturated, inf, wait)),
        response_time=frozen(np.where(saturated, inf, response)),
        queue_length=frozen(np.where(saturated, inf, queue)),
        saturated=frozen_bool(saturated),
    )


def load_dependent_state(
    lam: FloatArray, s: FloatArray, alpha: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """`load_dependent`'s utilization, wait_time and service_time alone, for a solver that
    checked its inputs (lam, s >= 0 and not NaN; alpha finite and > 0): the same operations,
    without the checks, the copies and the figures it does not read."""
    saturated, busy, service, wait, _, _, s_top = _load_dependent_parts(lam, s, alpha)
    return (
        np.where(saturated, 1.0, busy),
        np.where(saturated, np.inf, wait),
        np.where(saturated, s_top, service),
    )


def _load_dependent_parts(
    lam_a: FloatArray, s_a: FloatArray, alpha_a: FloatArray
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """`load_dependent` of inputs already checked: where it saturates, and the busy
    probability, service, wait, response and queue length unsaturated, and the service time
    where saturated (s / alpha(D)).

    The terms t(1..D) are held level first ([D, *shape]: one whole array per queue length),
    so that what is taken over the levels (the running sum of log alpha, the largest term, the
    sums of t and n t) is a pass over whole arrays per level: along a short last axis numpy
    reduces station by station (a sizing search's 1,468 drive entries of 8 levels: those four
    reductions were some 60% of this function's time). Each figure is the one taken along
    the last axis, to the bit: the running sums are added in the same order, the largest is
    exact in any order, and the sums are added in numpy's order (`_level_sums`)."""
    a = lam_a * s_a
    top = alpha_a[..., -1]
    shape = np.broadcast_shapes(a.shape, top.shape)
    a = np.broadcast_to(a, shape)
    s_b = np.broadcast_to(s_a, shape)
    lam_b = np.broadcast_to(lam_a, shape)
    r = a / np.broadcast_to(top, shape)
    saturated = r >= 1.0
    depth = alpha_a.shape[-1]
    n = np.arange(1, depth + 1, dtype=np.float64).reshape(depth, *(1,) * len(shape))
    with np.errstate(divide="ignore"):
        log_a = np.log(np.where(saturated, 0.0, a))
    levels = (alpha_a.ndim - 1, *range(alpha_a.ndim - 1))  # the last axis first
    cum = _running_sums(np.log(alpha_a).transpose(levels))  # log prod alpha(1..n)
    cum = cum.reshape(depth, *(1,) * (len(shape) + 1 - cum.ndim), *cum.shape[1:])
    log_t = n * log_a - cum  # log t(1..D)
    log_t = np.broadcast_to(log_t, (depth, *shape))
    r_ok = np.where(saturated, 0.0, r)
    # Normalise by the largest term (t(0) = 1, log 0) so nothing overflows.
    peak = np.maximum(np.max(log_t, axis=0), 0.0)
    t = np.exp(log_t - peak)
    t0 = np.exp(-peak)
    t_top = t[-1]
    geometric = r_ok / (1.0 - r_ok)
    mass = t0 + _level_sums(t) + t_top * geometric
    first = _level_sums(t * n) + t_top * (depth * geometric + r_ok / (1.0 - r_ok) ** 2)
    queue = first / mass
    busy = 1.0 - t0 / mass
    light = s_b / np.broadcast_to(alpha_a[..., 0], shape)
    # At vanishing load (a below ~1e-150, where a^2 underflows and L / lam loses its digits)
    # the station is empty on arrival: the light-load limits are exact to double precision.
    loaded = a > 1e-150
    with np.errstate(invalid="ignore", divide="ignore"):
        response = np.where(loaded, queue / np.where(loaded, lam_b, 1.0), light)
        service = np.where(loaded, busy / np.where(loaded, lam_b, 1.0), light)
    wait = np.maximum(response - service, 0.0)
    return saturated, busy, service, wait, response, queue, s_b / np.broadcast_to(top, shape)


def _running_sums(x: FloatArray) -> FloatArray:
    """`np.cumsum(x, axis=0)`, each level added to the sum of those before it (the same
    sums: numpy's are in that order too) as one pass over whole arrays per level: numpy's
    running sum over the first axis takes each column apart."""
    out = np.empty(x.shape)
    out[0] = x[0]
    for i in range(1, x.shape[0]):
        out[i] = out[i - 1] + x[i]
    return out


_PAIRWISE_BLOCK = 128
"""numpy's block of pairwise summation (`PW_BLOCKSIZE` in its loops_utils.h)."""


def _level_sums(x: FloatArray, start: int = 0, count: int | None = None) -> FloatArray:
    """The sums over the first axis of `x` (levels `start` to `start + count`), each added as
    numpy adds a contiguous row (`x.sum(axis=-1)` with the levels last): from 0 one by one
    under 8 terms; up to `_PAIRWISE_BLOCK` in 8 running sums of every eighth term, joined in
    pairs, then the rest one by one; beyond, the two halves (the first a multiple of 8)
    summed so and added (numpy's pairwise summation). The same sums to the bit (tested)."""
    count = x.shape[0] if count is None else count
    if count < 8:
        out = np.zeros(x.shape[1:])
        for i in range(start, start + count):
            out += x[i]
        return out
    if count <= _PAIRWISE_BLOCK:
        sums = [x[start + j].copy() for j in range(8)]
        i = 8
        while i < count - count % 8:
            for j in range(8):
                sums[j] += x[start + i + j]
            i += 8
        out = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + (
            (sums[4] + sums[5]) + (sums[6] + sums[7])
        )
        for k in range(i, count):
            out += x[start + k]
        return out
    half = count // 2
    half -= half % 8
    return _level_sums(x, start, half) + _level_sums(x, start + half, count - half)


def load_dependent_rate_at(utilization: float, alpha: ArrayLike) -> float:
    """The offered work a = lam s at which a load-dependent station (see `load_dependent`) is
    busy the fraction `utilization` of the time, in [0, 1): the inverse of its busy
    probability 1 - p(0), which rises monotonically from 0 (a = 0) to 1 (a -> alpha(D)).
    Bisection in a to 1e-12 relative on the busy probability written for one scalar a."""
    alpha_a = np.asarray(alpha, dtype=np.float64)
    if not 0.0 <= utilization < 1.0:
        raise ValueError(f"utilization must be in [0, 1), got {utilization}")
    if utilization == 0.0:
        return 0.0
    log_cum = np.cumsum(np.log(alpha_a))
    n = np.arange(1, alpha_a.size + 1, dtype=np.float64)
    top = float(alpha_a[-1])

    def busy(a: float) -> float:
        log_t = n * np.log(a) - log_cum
        peak = max(float(log_t.max()), 0.0)
        t = np.exp(log_t - peak)
        r = a / top
        mass = np.exp(-peak) + t.sum() + t[-1] * r / (1.0 - r)
        return float(1.0 - np.exp(-peak) / mass)

    lo, hi = 0.0, top
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        if busy(mid) < utilization:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
