"""Validated description of a single-class closed network with load-dependent stations.

Shared by the exact solver (`closed_network`) and the saddle-point approximation (`saddle`).
Stations are sorted into three kinds:

- base: ordinary single-server queues (alpha = 1) and delays; think time joins the delays;
- unit: a load-dependent station or a group of `members` identical load-dependent members
  that share the station's demand equally (a rank's drives; c servers are one member with
  alpha = 1..c). A member's rate multiplier alpha(1..n0) is held at alpha(n0) beyond n0;
- a group of several identical ordinary queues is expanded into that many base queues.

Times are scaled by theta, the largest demand per unit of peak service rate over the queueing
stations (so the bottleneck has a per-member peak-rate demand of 1 and every sequence stays
within a moderate range).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import FloatArray, IntArray


@dataclass(frozen=True, slots=True)
class Unit:
    """A load-dependent station: `members` identical members of demand `demand` (theta units)
    each, each with rate multipliers `alpha` (n0 entries, the last held beyond)."""

    station: int
    members: int
    demand: float
    alpha: FloatArray
    multiserver: bool  # alpha = 1..c: report idleness per server (1 - U), not per member


@dataclass(frozen=True, slots=True)
class Network:
    K: int
    N: int
    theta: float
    demands: FloatArray  # [K] original units
    think_time: float  # original units
    delay_total: float  # theta units: think time plus every delay station's demand
    base_queue: FloatArray  # [B] theta-unit demands of the ordinary queues (groups expanded)
    base_station: IntArray  # [B] station index of each
    delay_stations: IntArray  # station indices
    units: tuple[Unit, ...]
    peak_rate: FloatArray  # [K] members x max alpha (c for c servers, inf for delays)


def _population(N: int) -> int:
    if int(N) != N or N < 1:
        raise ValueError(f"population N must be an integer >= 1, got {N!r}")
    return int(N)


def network(
    demands: ArrayLike,
    N: int,
    think_time: float = 0.0,
    servers: ArrayLike | None = None,
    alpha: Sequence[ArrayLike | None] | None = None,
    members: ArrayLike | None = None,
) -> Network:
    """Check the inputs (one clear message each) and sort the stations into kinds."""
    D = np.asarray(demands, dtype=np.float64)
    if D.ndim != 1 or D.size == 0:
        raise ValueError(f"demands must be a non-empty 1-D array (K stations), got {D.shape}")
    if np.any(~np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands must be finite and >= 0")
    K = D.size
    N = _population(N)
    Z = float(think_time)
    if not np.isfinite(Z) or Z < 0:
        raise ValueError(f"think_time must be finite and >= 0, got {think_time!r}")
    c = np.ones(K) if servers is None else np.asarray(servers, dtype=np.float64)
    c = np.broadcast_to(c, (K,))
    if np.any(np.isnan(c)) or np.any(c < 1) or np.any(np.isfinite(c) & (c != np.rint(c))):
        raise ValueError("servers must be integers >= 1 or np.inf (delay station)")
    m = np.ones(K) if members is None else np.asarray(members, dtype=np.float64)
    m = np.broadcast_to(m, (K,))
    if np.any(~np.isfinite(m)) or np.any(m < 1) or np.any(m != np.rint(m)):
        raise ValueError("members must be integers >= 1")
    rows: list[FloatArray | None]
    if alpha is None:
        rows = [None] * K
    else:
        rows = [None if a is None else np.asarray(a, dtype=np.float64).reshape(-1) for a in alpha]
        if len(rows) != K:
            raise ValueError(
                f"alpha must have one entry (or None) per station ({K}), got {len(rows)}"
            )
        for r in rows:
            if r is not None and (r.size == 0 or np.any(~np.isfinite(r)) or np.any(r <= 0)):
                raise ValueError("alpha (service-rate multipliers) must be finite and > 0")
    if not np.any(D > 0) and Z == 0:
        raise ValueError("a network with no demand and no think time has no finite throughput")

    # Kinds, vectorised over the stations (a network may hold thousands of ordinary queues);
    # only stations with rate multipliers are looked at one by one.
    is_delay = np.isinf(c)
    heads: dict[int, FloatArray] = {}
    special = np.flatnonzero((c > 1) & ~is_delay).tolist()
    special += [k for k in range(K) if rows[k] is not None]
    for k in sorted(set(special)):
        row = rows[k]
        if is_delay[k]:
            raise ValueError(f"station {k}: a delay station (servers inf) takes no alpha")
        if row is not None and c[k] > 1:
            raise ValueError(f"station {k}: give servers or alpha, not both")
        heads[k] = np.arange(1.0, c[k] + 1.0) if c[k] > 1 else np.asarray(row)
    if np.any(is_delay & (m != 1)):
        raise ValueError("a delay station (servers inf) takes no alpha or members")
    unit_mask = np.zeros(K, dtype=bool)
    peak = np.where(is_delay, np.inf, m)
    for k, head in heads.items():
        peak[k] = m[k] * float(head.max())
        unit_mask[k] = not np.all(head == 1.0)
    active = D > 0
    queueing = ~is_delay & active
    theta = float((D[queueing] / peak[queueing]).max()) if np.any(queueing) else 1.0
    delays = np.flatnonzero(is_delay & active)
    queue_idx = np.flatnonzero(queueing & ~unit_mask)
    copies = m[queue_idx].astype(np.int64)
    base_queue = np.repeat(D[queue_idx] / m[queue_idx] / theta, copies)
    base_station = np.repeat(queue_idx, copies)
    units = tuple(
        Unit(
            station=int(k),
            members=int(m[k]),
            demand=float(D[k] / m[k] / theta),
            alpha=heads[int(k)][:N],  # beyond N customers the multipliers are never used
            multiserver=bool(c[k] > 1),
        )
        for k in np.flatnonzero(queueing & unit_mask)
    )
    delay_total = (Z + float(D[delays].sum())) / theta
    return Network(
        K=K,
        N=N,
        theta=theta,
        demands=D,
        think_time=Z,
        delay_total=delay_total,
        base_queue=np.asarray(base_queue, dtype=np.float64),
        base_station=np.asarray(base_station, dtype=np.int64),
        delay_stations=np.asarray(delays, dtype=np.int64),
        units=units,
        peak_rate=peak,
    )
