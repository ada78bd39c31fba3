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

    peak = np.empty(K)
    kinds: list[str] = []
    heads: list[FloatArray] = []
    for k in range(K):
        row = rows[k]
        if np.isinf(c[k]):
            if row is not None or m[k] != 1:
                raise ValueError(
                    f"station {k}: a delay station (servers inf) takes no alpha or members"
                )
            kinds.append("delay")
            heads.append(np.ones(1))
            peak[k] = np.inf
            continue
        if row is not None and c[k] > 1:
            raise ValueError(f"station {k}: give servers or alpha, not both")
        head = np.arange(1.0, c[k] + 1.0) if c[k] > 1 else (np.ones(1) if row is None else row)
        peak[k] = m[k] * float(head.max())
        kinds.append("queue" if np.all(head == 1.0) else "unit")
        heads.append(head[:N])  # beyond N customers the multipliers are never used

    queueing = np.array([kd != "delay" for kd in kinds]) & (D > 0)
    per_member_peak = np.where(queueing, D / np.where(np.isfinite(peak), peak, 1.0), 0.0)
    theta = float(per_member_peak.max()) if np.any(queueing) else 1.0
    if theta <= 0:
        theta = 1.0
    delay_total = Z / theta
    base_queue: list[float] = []
    base_station: list[int] = []
    delays: list[int] = []
    units: list[Unit] = []
    for k in range(K):
        if D[k] == 0:
            continue
        if kinds[k] == "delay":
            delay_total += D[k] / theta
            delays.append(k)
        elif kinds[k] == "queue":
            base_queue += [D[k] / m[k] / theta] * int(m[k])
            base_station += [k] * int(m[k])
        else:
            units.append(
                Unit(
                    station=k,
                    members=int(m[k]),
                    demand=float(D[k] / m[k] / theta),
                    alpha=heads[k],
                    multiserver=bool(c[k] > 1),
                )
            )
    return Network(
        K=K,
        N=N,
        theta=theta,
        demands=D,
        think_time=Z,
        delay_total=delay_total,
        base_queue=np.array(base_queue, dtype=np.float64),
        base_station=np.array(base_station, dtype=np.int64),
        delay_stations=np.array(delays, dtype=np.int64),
        units=tuple(units),
        peak_rate=peak,
    )
