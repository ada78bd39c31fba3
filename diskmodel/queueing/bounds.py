"""Asymptotic and balanced job bounds on a single-class closed network's throughput.

Bounds need only the total demand D = sum_k D_k, the largest Dmax and the mean
Davg = D/K over the K queueing stations (delay stations belong in Z), so they cost
O(K + N) and bracket exact MVA from both sides; they are what a planner checks a model
against before trusting it (Lazowska et al., Quantitative System Performance, 1984, ch. 5).

Public API of the queueing library (`diskmodel.queueing`): the storage model does not call it;
it is kept for scripts that model other systems, and tested in
tests/queueing/test_closed_network.py and test_properties.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray, IntArray, frozen, frozen_int


@dataclass(frozen=True, slots=True)
class BoundsResult:
    """Throughput and response-time bounds for every population n = 1..N.

    throughput_upper/lower: [N] X(n) lies between them (the tighter of the asymptotic and
    balanced job bounds on each side). response_time_lower/upper: [N] the same bounds
    through Little's law, R(n) = n / X(n) - Z (think time excluded).
    """

    population: IntArray
    throughput_upper: FloatArray
    throughput_lower: FloatArray
    response_time_lower: FloatArray
    response_time_upper: FloatArray


def bounds(demands: ArrayLike, N: int, think_time: float = 0.0) -> BoundsResult:
    """Asymptotic and balanced job bounds (Zahorjan, Sevcik, Eager & Galler 1982).

    Asymptotic: n / (n D + Z) <= X(n) <= min(1/Dmax, n / (D + Z)).
    Balanced job bounds (QSP Table 5.3, terminal workload):
    n / (D + Z + (n-1) Dmax / (1 + Z/(n D))) <= X(n)
        <= n / (D + Z + (n-1) Davg / (1 + Z/D)).
    Valid for single-server load-independent stations; tested against exact MVA on random
    networks in tests/queueing.
    Source: Zahorjan et al., "Balanced job bound analysis of queueing networks", CACM
    25(2), 1982.
    """
    D_k = np.asarray(demands, dtype=np.float64).reshape(-1)
    if D_k.size == 0 or np.any(~np.isfinite(D_k)) or np.any(D_k < 0) or D_k.sum() <= 0:
        raise ValueError("demands must be finite, >= 0 and not all 0")
    if int(N) != N or N < 1:
        raise ValueError(f"population N must be an integer >= 1, got {N!r}")
    Z = float(think_time)
    if not np.isfinite(Z) or Z < 0:
        raise ValueError(f"think_time must be finite and >= 0, got {think_time!r}")
    n = np.arange(1, int(N) + 1, dtype=np.float64)
    D = float(D_k.sum())
    D_max = float(D_k.max())
    D_avg = D / D_k.size
    upper = np.minimum.reduce(
        [
            np.full(n.shape, 1.0 / D_max),
            n / (D + Z),
            n / (D + Z + (n - 1.0) * D_avg / (1.0 + Z / D)),
        ]
    )
    lower = np.maximum(
        n / (n * D + Z),
        n / (D + Z + (n - 1.0) * D_max / (1.0 + Z / (n * D))),
    )
    return BoundsResult(
        population=frozen_int(n.astype(np.int64)),
        throughput_upper=frozen(upper),
        throughput_lower=frozen(lower),
        response_time_lower=frozen(np.maximum(n / upper - Z, D)),
        response_time_upper=frozen(n / lower - Z),
    )
