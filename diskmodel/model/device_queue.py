"""IOSQ: the queue z/OS keeps for a device (its UCB) before the I/O is started, solved as an
M/M/c station whose servers are the I/Os the device may run at once.

A z/OS volume runs one I/O on its base address and one more on each alias it holds. With
static PAV each volume has its own aliases (an LCU's `aliases` divided evenly among its
volumes, the remainder one more to the first ones), so every volume is an M/M/c station with
c = 1 + its aliases, fed its share of the workload's rate. With HyperPAV the aliases are a
pool of the LCU that any of its volumes takes one from per I/O, so the LCU is one M/M/c
station with c = its volumes' bases + the pool, fed every workload's I/O to that LCU (the
bases are each volume's own, so pooling them is the approximation: exact when the volumes
are busy alike, optimistic when a few volumes carry the load). A server is busy for the
I/O's whole time below z/OS, PEND + DISC + CONN (the `downstream` response of the storage
model), taken as exponential (M/M/c, Erlang C; `queueing.station.mmc`). IOSQ is the
station's mean wait; every I/O of the device waits it, reads and writes alike (the queue is
first come, first served).

An I/O's time below z/OS does not depend on how long it queued above it (the storage sees the
same rate), so the device queue is solved after the storage model, with its responses.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from diskmodel.configuration import Configuration
from diskmodel.configuration.zos import volumes_in
from diskmodel.queueing.station import mmc

FloatArray = NDArray[np.float64]


def device_queue_s(
    config: Configuration, rates: FloatArray, downstream_s: FloatArray
) -> FloatArray:
    """IOSQ per workload [W, P]: for host `rates` [W, P] and each workload's mean time below
    z/OS `downstream_s` [W, P]; 0 for an open-systems workload, inf where a device's queue has
    no steady state (its arrivals x time above its servers) or the time below it is unknown.
    Every device queue of the configuration is solved in one `mmc` call (a run solves the
    network some hundred times)."""
    hw = config.hardware
    given = np.asarray(downstream_s, dtype=np.float64)
    out = np.zeros_like(given)
    if hw.ficon is None:
        return out
    # A time below z/OS that is unknown (a saturated station) makes the queues it feeds
    # unknown: solved with 0 and set to inf after (`blocked`).
    unknown = ~np.isfinite(given)
    below = np.where(unknown, 0.0, given)
    lcus = hw.ficon.lcus
    P = rates.shape[1]
    into = np.zeros((len(lcus), P))  # every workload's I/O to each LCU
    work = np.zeros((len(lcus), P))  # and its time below z/OS
    blocked = np.zeros((len(lcus), P), dtype=bool)
    parts: list[tuple[int, int, float]] = []  # (workload, LCU, share of its I/O there)
    for w, workload in enumerate(config.workloads):
        zos = workload.zos
        if zos is None:
            continue
        for lcu, n in zip(zos.lcus, volumes_in(zos), strict=True):
            share = n / zos.volumes
            parts.append((w, lcu, share))
            into[lcu] += rates[w] * share
            work[lcu] += rates[w] * share * below[w]
            blocked[lcu] |= unknown[w] & (rates[w] > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled_s = np.where(into > 0, work / np.where(into > 0, into, 1.0), 0.0)
    # One row per queue: (arrival rate [P], service [P], servers, weight, workload, blocked).
    lam: list[FloatArray] = []
    service: list[FloatArray] = []
    servers: list[int] = []
    weight: list[float] = []
    owner: list[int] = []
    gone: list[NDArray[np.bool_]] = []
    for w, lcu, share in parts:
        unit = lcus[lcu]
        if unit.pav == "hyperpav":
            # The LCU's pool: every workload's I/O there, at their mean time below z/OS.
            lam.append(into[lcu])
            service.append(pooled_s[lcu])
            servers.append(unit.pooled_servers)
            weight.append(share)
            owner.append(w)
            gone.append(blocked[lcu] | unknown[w])
            continue
        # Static PAV or none: every volume of the workload there takes an equal part of its
        # I/O; the volumes differ only in the aliases they hold.
        n = volumes_in_lcu(config, w, lcu)
        for fraction, c in unit.servers_per_volume():
            lam.append(rates[w] * share / n)
            service.append(below[w])
            servers.append(c)
            weight.append(share * fraction)
            owner.append(w)
            gone.append(unknown[w])
    if not lam:
        return out
    wait = mmc(np.array(lam), np.array(service), np.array(servers)[:, None]).wait_time
    wait = np.where(np.array(gone), np.inf, wait)
    for row, w in enumerate(owner):
        out[w] = out[w] + weight[row] * wait[row]
    return out


def volumes_in_lcu(config: Configuration, w: int, lcu: int) -> int:
    """Workload `w`'s base volumes in LCU `lcu` (index into the FICON configuration's)."""
    zos = config.workloads[w].zos
    assert zos is not None
    return dict(zip(zos.lcus, volumes_in(zos), strict=True))[lcu]
