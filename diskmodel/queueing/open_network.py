"""Open and mixed product-form networks.

Open: classes arrive as Poisson streams at rates lam_r, visit the stations and leave; with
demands D[k, r] station k's per-server utilisation is U_k = sum_r lam_r D[k, r] / c_k and
each station behaves as an independent M/M/c (Jackson 1963; BCMP 1975).

Mixed: open classes share stations with closed classes (fixed populations). The open load
is carried first: at a single-server queue it leaves the closed classes an effective
demand D / (1 - U_open); the closed classes are then solved alone, and each open class's
residence is D (1 + Q_closed) / (1 - U_open). Exact for product-form networks (Lazowska et
al., Quantitative System Performance, 1984, §7.4.3).

Public API of the queueing library (`diskmodel.queueing`): the storage model does not call it;
it is kept for scripts that model other systems, and tested in
tests/queueing/test_open_mixed.py and test_properties.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.queueing._arrays import BoolArray, FloatArray, frozen, frozen_bool
from diskmodel.queueing.linearizer import linearizer
from diskmodel.queueing.multiclass import mva_multiclass
from diskmodel.queueing.schweitzer import schweitzer
from diskmodel.queueing.station import erlang_c


@dataclass(frozen=True, slots=True)
class OpenResult:
    """Open network means, broadcast over the load points `...` of `lam`.

    utilization: [..., K] per-server utilisation, clamped to 1 where saturated; 0 at delays.
    saturated: [..., K] True where U_k >= 1 (no steady state at that station).
    queue_length: [..., K] mean customers at each station (inf where saturated).
    residence_time: [..., K, R] per-pass time of class r at station k ([..., K] for 1-D
        demands); inf where the station is saturated and the class uses it.
    response_time: [..., R] sum of residence times ([...] for 1-D demands).
    throughput: [..., R] equal to lam (what enters leaves).
    """

    utilization: FloatArray
    saturated: BoolArray
    queue_length: FloatArray
    residence_time: FloatArray
    response_time: FloatArray
    throughput: FloatArray


def _open_inputs(
    lam: ArrayLike, demands: ArrayLike, servers: ArrayLike | None
) -> tuple[FloatArray, FloatArray, FloatArray, bool]:
    D = np.asarray(demands, dtype=np.float64)
    single = D.ndim == 1
    if single:
        D = D[:, None]
    if D.ndim != 2 or np.any(~np.isfinite(D)) or np.any(D < 0):
        raise ValueError("demands must be a finite, non-negative [K] or [K, R] array")
    lam_a = np.asarray(lam, dtype=np.float64)
    if single:
        lam_a = lam_a[..., None]
    if lam_a.shape[-1:] != (D.shape[1],) or np.any(np.isnan(lam_a)) or np.any(lam_a < 0):
        raise ValueError(f"lam must be >= 0 with last axis of length R = {D.shape[1]}")
    c = np.ones(D.shape[0]) if servers is None else np.asarray(servers, dtype=np.float64)
    c = np.broadcast_to(c, (D.shape[0],))
    if np.any(np.isnan(c)) or np.any(c < 1) or np.any(np.isfinite(c) & (c != np.rint(c))):
        raise ValueError("servers must be integers >= 1 or np.inf (delay station)")
    return lam_a, D, c, single


def open_network(
    lam: ArrayLike, demands: ArrayLike, servers: ArrayLike | None = None
) -> OpenResult:
    """Open multi-class network of M/M/c and delay stations, vectorised over the load.

    lam: [..., R] class arrival rates (or [...] with 1-D demands [K]); demands [K, R];
    servers [K] (default 1; np.inf for a delay station).
    Residence: D_kr (1 + C(c_k, c_k U_k) / (c_k (1 - U_k))) at a queue (D_kr / (1 - U_k)
    for c = 1), D_kr at a delay. Exact for one class, and for several classes at
    single-server processor-sharing stations; at a multi-server station with
    class-dependent service times it scales each class's wait by its own service time,
    the usual approximation.
    """
    lam_a, D, c, single = _open_inputs(lam, demands, servers)
    is_delay = np.isinf(c)
    c_finite = np.where(is_delay, 1.0, c)
    offered = np.einsum("...r,kr->...k", lam_a, D)  # busy servers, lam D summed over classes
    U = np.where(is_delay, 0.0, offered / c_finite)
    saturated = U >= 1.0
    waiting = erlang_c(c_finite.astype(np.int64), np.where(saturated | is_delay, 0.0, offered))
    with np.errstate(divide="ignore", invalid="ignore"):
        stretch = np.where(
            is_delay, 1.0, 1.0 + waiting / (c_finite * np.where(saturated, 1.0, 1.0 - U))
        )
    residence = D * stretch[..., :, None]
    residence = np.where(saturated[..., :, None] & (D > 0), np.inf, residence)
    with np.errstate(invalid="ignore"):
        per_class_queue = np.where(np.isinf(residence), np.inf, lam_a[..., None, :] * residence)
    per_class_queue = np.where(lam_a[..., None, :] == 0, 0.0, per_class_queue)
    queue = np.where(saturated, np.inf, per_class_queue.sum(axis=-1))
    response = residence.sum(axis=-2)
    if single:
        residence = residence[..., 0]
        response = response[..., 0]
        lam_a = lam_a[..., 0]
    return OpenResult(
        utilization=frozen(np.where(saturated, 1.0, U)),
        saturated=frozen_bool(saturated),
        queue_length=frozen(queue),
        residence_time=frozen(residence),
        response_time=frozen(response),
        throughput=frozen(lam_a),
    )


@dataclass(frozen=True, slots=True)
class MixedResult:
    """Mixed network means, broadcast over the load points `...` of the open rates.

    utilization: [..., K] total (open plus closed) utilisation of each station.
    saturated: [...] True where the open load alone saturates a station the closed or
        open classes use; open times are then inf and closed throughputs 0.
    queue_length: [..., K] total customers at each station.
    open_residence_time: [..., K, Ro]; open_response_time: [..., Ro].
    closed_throughput: [..., Rc]; closed_residence_time: [..., K, Rc];
    closed_response_time: [..., Rc] (think time excluded).
    """

    utilization: FloatArray
    saturated: BoolArray
    queue_length: FloatArray
    open_residence_time: FloatArray
    open_response_time: FloatArray
    closed_throughput: FloatArray
    closed_residence_time: FloatArray
    closed_response_time: FloatArray


def mixed_network(
    lam_open: ArrayLike,
    demands_open: ArrayLike,
    N_closed: ArrayLike,
    demands_closed: ArrayLike,
    think_time_closed: ArrayLike = 0.0,
    servers: ArrayLike | None = None,
    method: Literal["exact", "schweitzer", "linearizer"] = "exact",
) -> MixedResult:
    """Open classes sharing single-server queues and delays with closed classes.

    lam_open [..., Ro] with demands_open [K, Ro] (or [...] with [K] for one open class);
    N_closed [Rc] with demands_closed [K, Rc] (or an int with [K]).

    The closed sub-network, with demands inflated by 1/(1 - U_open), is solved by `method`
    (`mva_multiclass`, `schweitzer` or `linearizer`) once per load point.
    """
    lam_a, D_o, c, _ = _open_inputs(lam_open, demands_open, servers)
    D_c = np.asarray(demands_closed, dtype=np.float64)
    if D_c.ndim == 1:
        D_c = D_c[:, None]
    if D_c.shape[0] != D_o.shape[0]:
        raise ValueError("open and closed demands must cover the same K stations")
    if np.any(np.isfinite(c) & (c != 1)):
        raise ValueError("mixed_network takes single-server (1) and delay (np.inf) stations")
    is_delay = np.isinf(c)
    solver = {"exact": mva_multiclass, "schweitzer": schweitzer, "linearizer": linearizer}[method]
    load_shape = lam_a.shape[:-1]
    flat = lam_a.reshape(-1, D_o.shape[1])
    K, Ro, Rc = D_o.shape[0], D_o.shape[1], D_c.shape[1]
    U_all = np.empty((flat.shape[0], K))
    sat = np.zeros(flat.shape[0], dtype=bool)
    Q_all = np.empty((flat.shape[0], K))
    Ro_res = np.empty((flat.shape[0], K, Ro))
    X_c = np.empty((flat.shape[0], Rc))
    Rc_res = np.empty((flat.shape[0], K, Rc))
    used = (D_o.sum(axis=1) + D_c.sum(axis=1)) > 0
    for i, rates in enumerate(flat):
        U_open = np.where(is_delay, 0.0, D_o @ rates)
        if np.any((U_open >= 1.0) & used & ~is_delay):
            sat[i] = True
            U_all[i] = np.where(is_delay, 0.0, np.minimum(U_open, 1.0))
            Q_all[i] = np.where(U_open >= 1.0, np.inf, 0.0)
            Ro_res[i] = np.inf
            X_c[i] = 0.0
            Rc_res[i] = np.inf
            continue
        inflate = np.where(is_delay, 1.0, 1.0 / (1.0 - U_open))
        closed = solver(
            D_c * inflate[:, None], N_closed, think_time_closed, np.where(is_delay, np.inf, 1.0)
        )
        Q_closed = np.asarray(closed.queue_length).sum(axis=1)
        Ro_res[i] = np.where(is_delay[:, None], D_o, D_o * ((1.0 + Q_closed) * inflate)[:, None])
        X_c[i] = closed.throughput
        Rc_res[i] = closed.residence_time
        U_all[i] = U_open + np.asarray(closed.utilization).sum(axis=1) / inflate
        Q_all[i] = Q_closed + Ro_res[i] @ rates
    return MixedResult(
        utilization=frozen(U_all.reshape(*load_shape, K)),
        saturated=frozen_bool(sat.reshape(load_shape)),
        queue_length=frozen(Q_all.reshape(*load_shape, K)),
        open_residence_time=frozen(Ro_res.reshape(*load_shape, K, Ro)),
        open_response_time=frozen(Ro_res.sum(axis=1).reshape(*load_shape, Ro)),
        closed_throughput=frozen(X_c.reshape(*load_shape, Rc)),
        closed_residence_time=frozen(Rc_res.reshape(*load_shape, K, Rc)),
        closed_response_time=frozen(Rc_res.sum(axis=1).reshape(*load_shape, Rc)),
    )
