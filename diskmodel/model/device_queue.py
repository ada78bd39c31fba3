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

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.configuration import Configuration
from diskmodel.configuration.zos import volumes_in
from diskmodel.queueing.station import mmc

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class DeviceQueues:
    """Every device queue of a configuration at some loads, one row each: its arrival rate
    and service time [Q, P], servers [Q], the share of its workload's I/O it takes [Q], that
    workload [Q], its LCU (index into the FICON configuration's) [Q], and whether its time
    below z/OS is unknown [Q, P]."""

    lam: FloatArray
    service_s: FloatArray
    servers: NDArray[np.int64]
    weight: FloatArray
    owner: NDArray[np.int64]
    lcu: NDArray[np.int64]
    unknown: NDArray[np.bool_]

    @property
    def utilization(self) -> FloatArray:
        """Each queue's utilisation [Q, P], arrivals x service / servers (inf where the time
        below z/OS is unknown); at 1 or more it has no steady state and its IOSQ is inf."""
        rho = self.lam * self.service_s / self.servers[:, None]
        return np.where(self.unknown, np.inf, rho)


def device_queues(
    config: Configuration, rates: FloatArray, downstream_s: FloatArray
) -> DeviceQueues | None:
    """The device queues (module docstring) for host `rates` [W, P] and each workload's mean
    time below z/OS `downstream_s` [W, P]; None without z/OS workloads."""
    hw = config.hardware
    given = np.asarray(downstream_s, dtype=np.float64)
    if hw.ficon is None:
        return None
    # A time below z/OS that is unknown (a saturated station) makes the queues it feeds
    # unknown: solved with 0 and set to inf after (`unknown`).
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
    # One row per queue: (arrival rate [P], service [P], servers, weight, workload, unknown).
    lam: list[FloatArray] = []
    service: list[FloatArray] = []
    servers: list[int] = []
    weight: list[float] = []
    owner: list[int] = []
    unit_of: list[int] = []
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
            unit_of.append(lcu)
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
            unit_of.append(lcu)
            gone.append(unknown[w])
    if not lam:
        return None
    return DeviceQueues(
        np.array(lam),
        np.array(service),
        np.array(servers, dtype=np.int64),
        np.array(weight),
        np.array(owner, dtype=np.int64),
        np.array(unit_of, dtype=np.int64),
        np.array(gone),
    )


def device_queue_s(
    config: Configuration, rates: FloatArray, downstream_s: FloatArray
) -> FloatArray:
    """IOSQ per workload [W, P]: for host `rates` [W, P] and each workload's mean time below
    z/OS `downstream_s` [W, P]; 0 for an open-systems workload, inf where a device's queue has
    no steady state (its arrivals x time above its servers) or the time below it is unknown.
    Every device queue of the configuration is solved in one `mmc` call (a run solves the
    network some hundred times)."""
    out = np.zeros_like(np.asarray(downstream_s, dtype=np.float64))
    queues = device_queues(config, rates, downstream_s)
    if queues is None:
        return out
    wait = mmc(queues.lam, queues.service_s, queues.servers[:, None]).wait_time
    wait = np.where(queues.unknown, np.inf, wait)
    for row, w in enumerate(queues.owner):
        out[w] = out[w] + queues.weight[row] * wait[row]
    return out


def busiest_device_queue(
    config: Configuration, rates: FloatArray, downstream_s: FloatArray
) -> FloatArray:
    """The busiest device queue's utilisation at each load [P] (0 without z/OS workloads):
    where it reaches 1 IOSQ has no steady state, although every station may still carry the
    load. The saturation search over the stations (`model.saturation`) does not see it; this
    is what it would ask to stop there too."""
    queues = device_queues(config, rates, downstream_s)
    if queues is None:
        return np.zeros(np.asarray(rates).shape[1])
    return np.asarray(queues.utilization.max(axis=0), dtype=np.float64)


def volumes_in_lcu(config: Configuration, w: int, lcu: int) -> int:
    """Workload `w`'s base volumes in LCU `lcu` (index into the FICON configuration's)."""
    zos = config.workloads[w].zos
    assert zos is not None
    return dict(zip(zos.lcus, volumes_in(zos), strict=True))[lcu]
