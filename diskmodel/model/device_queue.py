"""IOSQ: the queue z/OS keeps for a device (its UCB) before the I/O is started, solved as an
M/M/c station whose servers are the I/Os the device may run at once.

A z/OS volume runs one I/O on its base address and one more on each alias it holds: with
static PAV each volume has its own aliases (an LCU's `aliases` divided evenly among its
volumes), so every volume is an M/M/c station with c = 1 + its aliases, fed its share of the
workload's rate; with HyperPAV the aliases are a pool of the LCU that any of its volumes takes
one from per I/O, so the LCU is one M/M/c station with c = its volumes' bases + the pool,
fed every workload's I/O to that LCU (the bases are each volume's own, so pooling them is the
approximation: exact when the volumes are busy alike, optimistic when a few volumes carry the
load). A server is busy for the I/O's whole time below z/OS, PEND + DISC + CONN (the
`downstream` response of the storage model), taken as exponential (M/M/c, Erlang C;
`queueing.station.mmc`). IOSQ is the station's mean wait; every I/O of the device waits it,
reads and writes alike (the queue is first come, first served).

An I/O's time below z/OS does not depend on how long it queued above it (the storage sees the
same rate), so the device queue is solved after the storage model, with its responses.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    no steady state (its arrivals x time above its servers)."""
    hw = config.hardware
    given = np.asarray(downstream_s, dtype=np.float64)
    out = np.zeros_like(given)
    if hw.ficon is None:
        return out
    # A workload whose time below z/OS is unknown (a saturated station) has no IOSQ either;
    # solved at 0 and set to inf at the end, so the pool it shares stays finite for the others
    # only where its own rate is 0.
    unknown = ~np.isfinite(given)
    downstream_s = np.where(unknown, 0.0, given)
    lcus = hw.ficon.lcus
    # Per LCU: every workload's rate into it [P], and rate x time below z/OS [P].
    into = np.zeros((len(lcus), rates.shape[1]))
    work = np.zeros((len(lcus), rates.shape[1]))
    shares: list[list[tuple[int, float]]] = []
    for w, workload in enumerate(config.workloads):
        zos = workload.zos
        if zos is None:
            shares.append([])
            continue
        mine = [(lcu, n / zos.volumes) for lcu, n in zip(zos.lcus, volumes_in(zos), strict=True)]
        shares.append(mine)
        for lcu, share in mine:
            into[lcu] += rates[w] * share
            work[lcu] += rates[w] * share * downstream_s[w]
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled_s = np.where(into > 0, work / np.where(into > 0, into, 1.0), 0.0)
    for w, workload in enumerate(config.workloads):
        zos = workload.zos
        if zos is None:
            continue
        counts = volumes_in(zos)
        waits = []
        for (lcu, share), n in zip(shares[w], counts, strict=True):
            unit = lcus[lcu]
            if unit.pav == "hyperpav":
                wait = mmc(into[lcu], pooled_s[lcu], unit.pooled_servers).wait_time
            else:
                per_volume = rates[w] * share / n
                wait = mmc(per_volume, downstream_s[w], unit.servers_per_volume()).wait_time
            waits.append((share, wait))
        out[w] = _weighted(waits)
        for lcu, _ in shares[w]:
            # Sharing a HyperPAV pool with a workload whose time is unknown: unknown too.
            if lcus[lcu].pav == "hyperpav":
                for v, others in enumerate(shares):
                    if any(u == lcu for u, _ in others):
                        out[w] = np.where(unknown[v] & (rates[v] > 0), np.inf, out[w])
    return np.where(unknown, np.inf, out)


def _weighted(waits: Sequence[tuple[float, FloatArray]]) -> FloatArray:
    """The mean wait over a workload's LCUs, each by its share of the I/O (inf if any is)."""
    total = np.zeros_like(waits[0][1])
    for share, wait in waits:
        total = total + share * wait
    return total
