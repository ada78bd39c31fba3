"""The storage system model: stations from the hardware, routing from the workloads, solved.

`build_system(scenario, catalog)` turns a validated scenario into a `SystemModel`: its
stations (every host port, the two servers, every DA pair, every rank) and its flows (per
workload and I/O class: arrivals at a station per host I/O, with the service time's first two
moments and whether the host waits for it). `solve_open` evaluates the open network at a vector
of total I/O rates; `solve_closed` the closed one at a host queue depth or a user population;
`predict_configuration` assembles a `Prediction`, `predict` the whole scenario.

Open network (the response-time curve). Workloads keep their planned mix while the total
rate L varies. Every station is fed a Poisson stream (Jackson decomposition):
- host port: M/G/1 (service = overhead + bytes / bandwidth, mixed over I/O sizes);
- server (processor complex half): M/M/c with c = cores per server;
- DA pair: M/G/1 (per-op time + bytes / bandwidth);
- rank: each active drive M/G/1 with the exact first two moments of its operation mix
  (reads, destage reads and writes, prefetch), no command-queueing credit: in an open model
  the queue a drive sees is not known in advance, and FCFS is the conservative reading.
Host-visible response of a class = sum over the stations it waits for of visits x (wait +
its own service time). Read hits, writes (fast write to cache + NVS) and sequential reads
(prefetched) wait for a host port and a server only; a random read miss also for its DA pair
and a drive. Destages and prefetches are asynchronous back-end load: they use stations but no
host waits for them, until the destage path saturates: then NVS fills and writes wait
(`destage_limited`, `nvs_full`).

Max IOPS = the rate at which the busiest station (per server) reaches utilisation 1.

Closed network (host queue depth, users + think time): exact load-dependent MVA over the
same stations, the host-visible work as the closed class; ranks are load-dependent stations
whose rate at n queued requests credits command queueing on each drive (see
`diskmodel.components.drive`), servers are min(n, c) multi-server stations; the asynchronous
work (destage, prefetch) and any open workloads are an open stream that takes its share rho of
each station, folded in by inflating the closed demands to D / (1 - rho) (the standard
mixed-network reduction, Lazowska et al., Quantitative System Performance, 1984, §7.4),
iterated to a fixed point in the throughput.
"""

from diskmodel.model.closed import drives_alpha, solve_closed
from diskmodel.model.network import (
    KINDS,
    Flow,
    RankInfo,
    Station,
    SystemModel,
    build_system,
    is_closed,
)
from diskmodel.model.open import (
    OpenSolution,
    class_times,
    curve_rates,
    solve_open,
    station_waits,
)
from diskmodel.model.predict import predict, predict_configuration

__all__ = [
    "KINDS",
    "Flow",
    "OpenSolution",
    "RankInfo",
    "Station",
    "SystemModel",
    "build_system",
    "class_times",
    "curve_rates",
    "drives_alpha",
    "is_closed",
    "predict",
    "predict_configuration",
    "solve_closed",
    "solve_open",
    "station_waits",
]
