"""What the sizing bounds (`analyses.size_bounds`) need of a configuration before it is
solved: per rank kind a search may install, its capacity and the most one of its drives can
serve (`rank_kinds`, `most_per_drive`); per processor option and cache size, each workload's
busy seconds per host I/O at the ports, the processors and the front end, and what its misses,
small and sequential back-end work would cost on each rank kind (`profile`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.catalog import Catalog
from diskmodel.components import host_adapter, processor
from diskmodel.configuration import Configuration, Rank
from diskmodel.model.costs import OpCosts, drive_gain, queue_limit
from diskmodel.model.network_build import PROCESSOR_WORK, destages_per_write, front_end_delay_s
from diskmodel.model.rank_shares import EMPTY_FRACTION
from diskmodel.workload import IO_CLASSES

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class RankKind:
    """One kind of rank a search may install: pool, drive and RAID format, its usable
    capacity, drives and the most one of its drives can serve (busy seconds per second)."""

    pool: str
    drive: str
    raid: str
    capacity_gb: float
    active_drives: int
    drive_capacity: float


@dataclass(frozen=True)
class Profile:
    """What the bounds need of one processor option and cache size (the hit ratios follow the
    cache), per workload w [W] and rank kind k [K]: rates at the planned load, the port and
    processor busy seconds per host I/O (every port, both servers, destages included), the
    processors' visible time plus the front end's fixed delay per host I/O, the read-miss
    fraction; per kind the time a miss costs there (drive at the shortest span + DA), and the
    DA and drive busy seconds per host I/O if all its small (random) or all its sequential
    back-end work were on that kind."""

    rates: FloatArray
    port_s: FloatArray
    server_s: FloatArray
    front_s: FloatArray
    miss_fraction: FloatArray
    miss_s: FloatArray  # [W, K]
    da_small_s: FloatArray
    da_seq_s: FloatArray
    drive_small_s: FloatArray
    drive_seq_s: FloatArray
    cores: int  # processor cores over both servers


def rank_kinds(
    catalog: Catalog, system: str, kinds: Sequence[tuple[str, str, str]]
) -> tuple[RankKind, ...]:
    """The figures of each (pool, drive, RAID format) installed in `system`."""
    out = []
    commands = catalog.systems[system].device_adapter.commands_per_hdd
    for pool, drive_name, raid_name in kinds:
        rank = installed_rank(catalog, system, pool, drive_name, raid_name)
        out.append(
            RankKind(
                pool,
                drive_name,
                raid_name,
                rank.capacity_gb,
                rank.active_drives,
                most_per_drive(rank, commands),
            )
        )
    return tuple(out)


def most_per_drive(rank: Rank, commands_per_hdd: int) -> float:
    """The most one drive of `rank` serves, in busy seconds (at queue length one) per second,
    on any data span and mix, with the device adapter keeping at most `commands_per_hdd` at
    it: an SSD's gain does not depend on the span (its parallel units and its interface), so it
    is the gain itself; an HDD's is at most the queue D it may reorder (`queue_limit`), because
    a drive never serves faster than one request per request queued (alpha(n) <= n;
    tests/analyses/test_sizing_pruning.py checks every catalog drive). The HDD's own alpha(D)
    would need its SPTF table on every span, which costs more than the search it would
    shorten."""
    depth = queue_limit(rank, commands_per_hdd)
    if rank.drive.kind == "ssd":
        return float(drive_gain(rank, 1.0, depth)[-1])
    return float(depth)


def installed_rank(
    catalog: Catalog, system: str, pool: str, drive_name: str, raid_name: str
) -> Rank:
    return Rank(
        index=0,
        pool=pool,
        drive=catalog.installed_drive(system, drive_name),
        raid=catalog.raid_formats[raid_name],
        da_pair=0,
        server=0,
        added=False,
    )


def profile(config: Configuration, catalog: Catalog, kinds: Sequence[RankKind]) -> Profile:
    """The per-host-I/O figures of `config`'s workloads (its processor option and cache) and
    of each rank kind (see `Profile`). Open workloads only."""
    hw = config.hardware
    costs = OpCosts(config)
    costs_of = hw.system.processor_costs
    W, K = len(config.workloads), len(kinds)
    port_s, server_s, front_s = np.zeros(W), np.zeros(W), np.zeros(W)
    miss_fraction = np.zeros(W)
    miss_s = np.full((W, K), np.inf)
    da_small, da_seq = np.full((W, K), np.inf), np.full((W, K), np.inf)
    drive_small, drive_seq = np.full((W, K), np.inf), np.full((W, K), np.inf)
    port_bytes_per_s = hw.host_adapter.port_bandwidth_mb_s * 1e6
    for w, workload in enumerate(config.workloads):
        mix = workload.mix
        for io_class in IO_CLASSES:
            p = mix.fractions[io_class]
            if p <= 0:
                continue
            size = mix.size_bytes(io_class)
            port = host_adapter.port_service(hw.host_adapter, size).mean_s
            core = processor.core_time(costs_of, PROCESSOR_WORK[io_class]).mean_s
            counted = max(port + core - size / port_bytes_per_s, 0.0)
            delay = front_end_delay_s(config, io_class, size, counted)
            port_s[w] += p * port
            server_s[w] += p * core
            front_s[w] += p * (core + delay)
            if io_class in ("random_write", "sequential_write"):
                per_write = destages_per_write(mix, io_class)
                server_s[w] += p * per_write * processor.core_time(costs_of, "destage").mean_s
        miss_fraction[w] = mix.fractions["read_miss"]
        for k, kind in enumerate(kinds):
            if kind.pool != workload.pool:
                continue
            rank = installed_rank(catalog, hw.system.name, kind.pool, kind.drive, kind.raid)
            miss, das, daq, drs, drq = 0.0, 0.0, 0.0, 0.0, 0.0
            for op in costs.of(w, mix, rank, EMPTY_FRACTION):
                ops = mix.fractions[op.io_class] * op.count
                if op.io_class == "read_miss":
                    miss += op.count * (op.drive.mean_s + op.da.mean_s)
                if op.sequential:
                    daq += ops * op.da.mean_s
                    drq += ops * op.drive.mean_s
                else:
                    das += ops * op.da.mean_s
                    drs += ops * op.drive.mean_s
            miss_s[w, k], da_small[w, k], da_seq[w, k] = miss, das, daq
            drive_small[w, k], drive_seq[w, k] = drs, drq
    rates = np.array([w.iops or 0.0 for w in config.workloads], dtype=np.float64)
    return Profile(
        rates,
        port_s,
        server_s,
        front_s,
        miss_fraction,
        miss_s,
        da_small,
        da_seq,
        drive_small,
        drive_seq,
        hw.system.servers * hw.processor.ways,
    )
