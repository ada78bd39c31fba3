"""Seidmann's approximation of a multi-server station by a queue plus a delay.

A station with c servers and demand D behaves like a single server c times as fast
(demand D/c, where customers queue) in series with a pure delay D (c-1)/c (the rest of a
customer's own service, which no other customer waits for). The network that results has
only single-server queues and delays, so exact or approximate MVA solves it in O(K N)
instead of the O(N^2) per station of exact load-dependent MVA.

Accuracy (measured against exact `mva_load_dependent` in tests/queueing): exact at c = 1,
at N = 1 and as N -> infinity (throughput 1/max(D_k/c_k)); in between it is pessimistic,
because the queue part makes customers wait before all c servers are busy. The worst case
is a lone c-server station holding about c customers with no think time: throughput 21%
low and response time 27% high (c = 3, N = 3); the gap shrinks with c (8% at c = 64) and
with think time (at Z = c D / 2: 7% at c = 2, under 2% from c = 16). Use it for
many-server stations (host ports, processor cores) and prefer the exact solver for a few
servers near N = c.
Source: Seidmann, Schweitzer & Shalev-Oren, "Computerized closed queueing network models
of flexible manufacturing systems", Large Scale Systems 12, 1987.

Public API of the queueing library (`diskmodel.queueing`): the storage model does not call it;
it is kept for scripts that model other systems, and tested in
tests/queueing/test_multiserver_multiclass.py and test_properties.py.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray
from diskmodel.queueing.closed import ClosedResult, _closed_result, mva


def seidmann_transform(demands: ArrayLike, servers: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Split each station's demand: (queue part D/c, delay part D (c-1)/c).

    demands [K] or [K, R]; servers [K] integers >= 1 (np.inf: the whole demand is delay).
    The two parts are meant as stations of their own, the queue part single-server.
    """
    D = np.asarray(demands, dtype=np.float64)
    c = np.asarray(servers, dtype=np.float64).reshape(-1)
    if c.shape[0] != D.shape[0]:
        raise ValueError(f"servers must have one entry per station ({D.shape[0]}), got {c.shape}")
    if np.any(np.isnan(c)) or np.any(c < 1) or np.any(np.isfinite(c) & (c != np.rint(c))):
        raise ValueError("servers must be integers >= 1 or np.inf")
    shape = (-1,) + (1,) * (D.ndim - 1)
    c_b = c.reshape(shape)
    queue_part = np.where(np.isinf(c_b), 0.0, D / np.where(np.isinf(c_b), 1.0, c_b))
    return queue_part, D - queue_part


def seidmann(
    demands: ArrayLike, N: int, think_time: float = 0.0, servers: ArrayLike | None = None
) -> ClosedResult:
    """Single-class closed network with multi-server stations by Seidmann's approximation.

    Solves the transformed network (queue part D_k/c_k plus delay part D_k (c_k-1)/c_k per
    station) by exact MVA and reports each original station as the sum of its two parts:
    residence and queue length add; utilization is X D_k / c_k, as in `mva`.
    """
    D = np.asarray(demands, dtype=np.float64).reshape(-1)
    c = np.ones(D.shape) if servers is None else np.asarray(servers, dtype=np.float64)
    c = np.broadcast_to(c, D.shape)
    queue_part, delay_part = seidmann_transform(D, c)
    K = D.shape[0]
    split = mva(
        np.concatenate([queue_part, delay_part]),
        N,
        think_time,
        servers=np.concatenate([np.where(np.isinf(c), np.inf, 1.0), np.full(K, np.inf)]),
    )
    X = np.asarray(split.throughput)
    Q = split.queue_length[:K] + split.queue_length[K:]
    U = np.where(np.isinf(c)[:, None], 0.0, queue_part[:, None] * X[None, :])
    return _closed_result(X, Q, U)
