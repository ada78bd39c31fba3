"""The exact single-class routes behind `queueing.closed` and `queueing.closed_network`, for
single-server queues and delays: the whole sweep n = 1..N from scaled normalising constants
(`normalising_constant_sweep`, which `closed.mva` takes when it is the cheaper route), and
X(1..N) with the queue lengths at N only, by the cheapest of three exact routes
(`mva_final`: the recursion on Python floats or with numpy, or Newton's identities in blocks).
"""

from __future__ import annotations

import math

import numpy as np

from diskmodel.queueing._arrays import FloatArray, IntArray


def mva_final(
    D: FloatArray, D_queue: FloatArray, N: int, Z: float
) -> tuple[FloatArray, FloatArray]:
    """X(n), n = 1..N, and the queue lengths Q[K] at N only, by the cheapest exact route for
    this station count and population (`_route`); memory O(K + N)."""
    K = D.shape[0]
    K_queue = int(np.count_nonzero(D_queue))
    route = _route(K, K_queue, N)
    if route == "power sums":
        return _power_sum_final(D, D_queue, N, Z)
    fixed = Z + float((D - D_queue).sum())
    if route == "python recursion":
        X_list, q_list = _recursion_python(D_queue.tolist(), N, fixed)
        X, q = np.array(X_list), np.array(q_list)
    else:
        X = np.empty(N)
        u = np.ones(K)
        q = np.zeros(K)
        dot, multiply, add = np.dot, np.multiply, np.add
        for n in range(1, N + 1):
            x = n / (fixed + float(dot(D_queue, u)))
            multiply(D_queue, u, out=q)
            q *= x
            add(q, 1.0, out=u)
            X[n - 1] = x
    delay = D_queue == 0
    q[delay] = X[-1] * D[delay]
    return X, q


# Cost model of the three exact routes to X(1..N) and Q(N), seconds, measured on a shared
# 2-core machine (interleaved medians, K = 1..1,000, N = 2..256 around the crossover): the
# recursion on Python floats (per population a loop over the stations), with numpy (per
# population a few calls, whose overheads dominate up to thousands of stations), and
# Newton's identities in blocks (a fixed cost, the sort of the demands, the b x b block
# matrix, then a little per population and per station-population term).
_PYTHON_STEP_S = 8e-7
_PYTHON_TERM_S = 1e-7
_NUMPY_STEP_S = 2e-6
_NUMPY_TERM_S = 1e-9
_NEWTON_FIXED_S = 5e-5
_NEWTON_STATION_S = 3e-8
_NEWTON_SQUARE_S = 3e-9
_NEWTON_POPULATION_S = 1e-7
_NEWTON_TERM_S = 1e-9


def _route(K: int, K_queue: int, N: int) -> str:
    """The cheapest exact route to X(1..N) and Q(N) by the cost model above: the recursion
    on Python floats (up to 24 stations) or with numpy, one step a population, or Newton's
    identities in blocks (`_power_sum_final`) once the population pays for its fixed cost
    (from about N = 30; N = 150 for a single station)."""
    if K_queue == 0:
        return "recursion"
    costs = {
        "recursion": N * (_NUMPY_STEP_S + _NUMPY_TERM_S * K),
        "power sums": _NEWTON_FIXED_S
        + _NEWTON_STATION_S * K
        + _NEWTON_SQUARE_S * _block(K_queue, N) ** 2
        + N * (_NEWTON_POPULATION_S + _NEWTON_TERM_S * K),
    }
    if K <= _PYTHON_STATIONS:
        costs["python recursion"] = N * (_PYTHON_STEP_S + _PYTHON_TERM_S * K)
    return min(costs, key=costs.__getitem__)


_PYTHON_STATIONS = 24
"""Up to this many stations the recursion runs on Python floats: a numpy call costs more
than a step over a few stations (measured in bench/bench_queueing.py)."""

_BLOCK = 128
"""Most populations one block of `_power_sum_final` solves at once (`_block`)."""


def _block(K: int, N: int) -> int:
    """Block length for K distinct demands and population N: each block costs about 20 us
    of calls, and the [b, K] powers about 0.02 us an element to allocate and touch (page
    faults dominate on a sandboxed host); b = sqrt(1000 N / K) balances the two, within
    16..`_BLOCK` (a triangular solve of b^2 / 2 terms stays cheap). Measured in
    bench/bench_queueing.py for K = 100..3,000 and N = 32..10,000."""
    return max(1, min(N, _BLOCK, max(16, int(math.sqrt(1000.0 * N / K)))))


_LOG_BLOCK_GROWTH = 575.0
"""ln(1e250): the most the normalising constant may grow within one block (G < 1e250
times its value at the block's start, far from overflow)."""


def _power_sum_final(
    D: FloatArray, D_queue: FloatArray, N: int, Z: float
) -> tuple[FloatArray, FloatArray]:
    """X(n), n = 1..N, and Q[K] at N, exactly, from Newton's identities for the normalising
    constants, one triangular solve per block of populations.

    In units of theta = max D_queue (d_k = D_k / theta <= 1, z = (Z + delay demands) /
    theta) the generating function of G is e^(z x) prod_k 1 / (1 - d_k x); its logarithmic
    derivative z + sum_{i>=1} P_i x^(i-1), with the power sums P_i = sum_k d_k^i, gives
    Newton's identity

        n G(n) = z G(n-1) + sum_{i=1..n} P_i G(n-i),

    every term positive (no cancellation, unlike the elementary symmetric recurrence). The
    history before a block's first population n0 enters through K numbers,
    H_k(n0) = sum_{i>=1} d_k^i G(n0-i) = Q_k(n0) G(n0): for j >= 1,
    sum_{i>=j} P_i G(n0+j-i) = sum_k d_k^j H_k(n0). So a block of b populations is a gemv
    (b x K), a lower-triangular solve of order b (forward substitution: sums of positive
    terms over the diagonal n0+j) and a gemv carrying H to n0+b: about a dozen compiled
    calls for b = `_BLOCK` populations instead of a numpy step for each. Stations with
    equal demands share one H (their count weights P and H). G is rescaled to 1 at each
    block's start and a block is shortened where G could pass 1e250 within it
    (G(n)/G(n-1) <= 1 + (z + P_1)/n); the bottleneck has d = 1, so G never decreases and
    nothing underflows that is not negligible. Then X(n) = G(n-1) / (theta G(n)) and
    Q_k(N) = H_k(N) / G(N). Against MVA in 40-digit arithmetic at N = 100,000 (1 to 30
    stations): X within 1e-14, Q within 4e-14 relative.
    Source: Newton's identity for the complete homogeneous symmetric polynomials
    (Macdonald, Symmetric Functions and Hall Polynomials, 1995, I.2), which G(n) is
    (Buzen, CACM 16(9), 1973).
    """
    from scipy.linalg.blas import dtrsv  # deferred: importing scipy costs ~0.6 s

    queue = D_queue > 0
    theta = float(D_queue.max())
    d = D_queue[queue] / theta
    ordered = np.sort(d)
    member_of: IntArray = np.arange(d.size)
    members: FloatArray = np.ones(d.size)
    if np.any(ordered[1:] == ordered[:-1]):  # sorting costs far less than np.unique's inverse
        d, member_of, counts = np.unique(d, return_inverse=True, return_counts=True)
        members = counts.astype(np.float64)
    z = (Z + float((D - D_queue).sum())) / theta
    b = _block(d.size, N)
    powers = _powers(d, b)  # powers[i-1] = d^i
    weighted = powers * members
    c = weighted.sum(axis=1)  # c[i-1] = P_i
    growth_rate = z + float(c[0])
    c[0] += z  # z G(n-1) joins P_1 G(n-1)
    # T[j, i] = -c[j-i-1] below the diagonal (a lower Toeplitz matrix, row j a window of
    # `band`); the diagonal, n0+1..n0+b, is set per block.
    band = np.concatenate((-c[b - 2 :: -1] if b > 1 else [], [0.0], np.zeros(b - 1)))
    T = np.array(np.lib.stride_tricks.sliding_window_view(band, b)[::-1], order="F")
    diagonal = T.reshape(-1, order="F")[:: b + 1]  # a view: T is Fortran-contiguous
    W = np.zeros(d.size)  # members_k H_k(n0) / G(n0)
    y = np.empty(N)  # theta X(n)
    g = np.empty(b + 1)  # G(n0 + j) / G(n0), j = 0..b
    n0 = 0
    while n0 < N:
        affordable = int(_LOG_BLOCK_GROWTH / math.log1p(growth_rate / (n0 + 1)))
        bl = min(b, N - n0, max(1, affordable))
        diagonal[:] = np.arange(n0 + 1.0, n0 + b + 1.0)
        g[0] = 1.0
        rhs = np.dot(powers[:bl], W)  # the history's share: sum_k d_k^j W_k
        rhs += c[:bl]  # times G(n0) = 1
        g[1 : bl + 1] = dtrsv(T if bl == b else T[:bl, :bl], rhs, lower=1, overwrite_x=1)
        np.divide(g[:bl], g[1 : bl + 1], out=y[n0 : n0 + bl])
        # H(n0+bl) = sum_{i=1..bl} d^i G(n0+bl-i) + d^bl H(n0), rescaled to G(n0+bl) = 1
        carried = np.dot(g[bl - 1 :: -1], weighted[:bl])
        W *= powers[bl - 1]
        W += carried
        W /= g[bl]
        n0 += bl
    X = y / theta
    Q = X[-1] * D  # delay stations: Little's law; queues overwritten
    Q[queue] = (W / members)[member_of]
    return X, Q


def _powers(d: FloatArray, b: int) -> FloatArray:
    """[b, K] d^i, i = 1..b, by doubling (log2 b compiled products; d^i carries at most
    about log2 i roundings)."""
    powers = np.empty((b, d.size))
    powers[0] = d
    filled = 1
    while filled < b:
        step = min(filled, b - filled)
        np.multiply(powers[:step], powers[filled - 1], out=powers[filled : filled + step])
        filled += step
    return powers


def _recursion_python(d: list[float], N: int, fixed: float) -> tuple[list[float], list[float]]:
    """X(n), n = 1..N, and Q at N of the u = 1 + Q recursion, on Python floats; Q(N) is
    formed as X(N) D u(N-1) (never u - 1, which would lose a small queue's digits)."""
    u = [1.0] * len(d)
    X = []
    q = [0.0] * len(d)
    for n in range(1, N + 1):
        total = fixed
        for a, b in zip(d, u, strict=True):
            total += a * b
        x = n / total
        q = [x * a * b for a, b in zip(d, u, strict=True)]
        u = [1.0 + v for v in q]
        X.append(x)
    return X, q


def constants_may_overflow(D: FloatArray, D_queue: FloatArray, N: int, Z: float) -> bool:
    """Whether the scaled constants g(N) could pass 1e280: Cauchy's bound
    g(N) <= prod_k 1 / (1 - d_k x) e^(z x) / x^N (any 0 < x < 1, d = D / max D_queue),
    at a few x."""
    theta = float(D_queue.max())
    d = D_queue[D_queue > 0] / theta
    z = (Z + float((D - D_queue).sum())) / theta
    best = np.inf
    gaps = np.array([0.5, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1.0 / N, 10.0 / N, 100.0 / N])
    for x in 1.0 - gaps[gaps < 1.0]:
        log_bound = -float(np.log1p(-d * x).sum()) + z * x - N * np.log(x)
        best = min(best, log_bound)
    return best > 640.0


def _first_order(x: FloatArray, d: float) -> FloatArray:
    """y(n) = x(n) + d y(n-1), y(-1) = 0: a forward substitution with (I - d S) y = x.

    The lower-bidiagonal triangular solve (BLAS dtbsv) does exactly the additions of the
    recurrence in compiled code, for a few microseconds a call (`scipy.signal.lfilter` would
    cost most of a second more to import).
    """
    from scipy.linalg.blas import dtbsv  # deferred: importing scipy costs ~0.6 s

    bands = np.empty((2, x.size))
    bands[0] = 1.0
    bands[1] = -d
    return np.asarray(dtbsv(1, bands, x, lower=1), dtype=np.float64)


def _log_factorials(N: int) -> FloatArray:
    """log n!, n = 0..N, each from math.lgamma (correctly rounded, no cumulative error)."""
    return np.fromiter((math.lgamma(k + 1.0) for k in range(N + 1)), dtype=np.float64, count=N + 1)


def normalising_constant_sweep(
    D: FloatArray, D_queue: FloatArray, N: int, Z: float
) -> tuple[FloatArray, FloatArray] | None:
    """Exact single-class sweep from Buzen's normalising constants G(0..N).

    With demands scaled by theta = max D_queue (so the bottleneck has d = 1), the think
    time and all delay stations together contribute z^n/n! (z = (Z + sum of delay
    demands)/theta) and each queueing station multiplies the generating function by
    1/(1 - d_k x), i.e. the first-order recurrence g(n) += d_k g(n-1), run as one compiled
    bidiagonal solve per station. Then X(n) = G(n-1)/(theta G(n)) and, with
    h_k(n) = d_k (h_k(n-1) + G(n-1)), Q_k(n) = h_k(n)/G(n). Every term is positive, so
    no cancellation occurs; rounding grows at most like K N eps (1e-11 at K=100, N=1000).
    The scaling keeps G(n) >= 1, so nothing underflows; returns None when G would
    overflow (a think time over ~600 bottleneck demands, or thousands of stations tied at
    the bottleneck), and the caller falls back to the MVA recursion.
    Source: Buzen, "Computational algorithms for closed queueing networks with
    exponential servers", CACM 16(9), 1973.
    """
    queueing = np.flatnonzero(D_queue > 0)
    if queueing.size == 0:
        return None
    theta = float(D_queue.max())
    z = (Z + float((D - D_queue).sum())) / theta
    if z > 600.0:
        return None
    n = np.arange(N + 1, dtype=np.float64)
    if z > 0:
        g = np.exp(n * np.log(z) - _log_factorials(N))
    else:
        g = np.zeros(N + 1)
        g[0] = 1.0
    d = D_queue / theta
    for k in queueing:
        g = _first_order(g, float(d[k]))
    if not np.all(np.isfinite(g)) or g[-1] > 1e280:
        return None
    X = g[:-1] / g[1:] / theta
    Q = X[None, :] * D[:, None]  # delay stations: Q = X D (Little); queues overwritten
    for k in queueing:  # one compiled solve per station: h(n) = d_k (h(n-1) + g(n-1))
        h = _first_order(np.concatenate(([0.0], d[k] * g[:-1])), float(d[k]))
        Q[k] = h[1:] / g[1:]
    if not np.all(np.isfinite(Q)):
        return None
    return X, Q
