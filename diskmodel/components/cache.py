"""Cache and NVS: what a read miss stages, how sequential reads prefetch, NVS size, and the
projection of a measured read hit ratio to another cache size.

Staging. The DS8000 manages its cache in 4 KiB pages (segments) grouped into 64 KiB tracks for
open-systems (fixed-block) volumes (IBM Redbook SG24-8886, "DS8000 cache management": cache
segments of 4 KB; an FB track is 64 KB). A random read miss stages only the pages the host
asked for (SARC's random-I/O mode stages the record, not the whole track), so a miss stages
its request rounded up to whole 4 KiB pages: more than the host asked for when the request
is not a multiple of 4 KiB. Sequential reads are detected and prefetched a track at a time
per drive operation (64 KiB): the host's sequential reads are then hits, and the back end
reads the same bytes in 64 KiB operations.

Hit-ratio projection. McNutt's hierarchical reuse model ("The Fractal Structure of Data
Reference", Kluwer 2000, ch. 1-3) gives the miss ratio of an LRU cache as a power of its size,
m(C) proportional to C^(-theta / (1 - theta)), with theta about 0.25 as the typical value
McNutt measured across production workloads (so m falls as C^(-1/3): doubling the cache
cuts misses by 21%). Given a hit ratio measured at one size, `project_read_hit_ratio` gives it
at another.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from diskmodel.catalog import StorageSystem
from diskmodel.units import GB, KIB

CACHE_PAGE_BYTES = 4 * KIB
"""DS8000 cache segment (page): 4 KiB (SG24-8886, cache management)."""
TRACK_BYTES = 64 * KIB
"""DS8000 fixed-block track: 64 KiB, the unit of sequential prefetch and full-track destage."""
HIERARCHICAL_REUSE_THETA = 0.25
"""McNutt (2000): typical theta of the hierarchical reuse model across measured workloads."""


def staged_bytes(request_bytes: float) -> float:
    """Bytes a random read miss stages: the request rounded up to whole 4 KiB cache pages."""
    return math.ceil(request_bytes / CACHE_PAGE_BYTES - 1e-9) * CACHE_PAGE_BYTES


def prefetch_ops_per_read(request_bytes: float) -> float:
    """Back-end 64 KiB prefetch operations per sequential host read of `request_bytes`."""
    return request_bytes / TRACK_BYTES


def nvs_bytes(system: StorageSystem, cache_gb: float) -> float:
    """Non-volatile write cache size: the system's NVS fraction of its cache."""
    return system.nvs_fraction * cache_gb * GB


def project_read_hit_ratio(
    hit_ratio: float,
    measured_cache_gb: float,
    new_cache_gb: float,
    theta: float = HIERARCHICAL_REUSE_THETA,
) -> float:
    """Read hit ratio at `new_cache_gb` given `hit_ratio` measured at `measured_cache_gb`.

    miss(new) = miss(measured) (new / measured)^(-theta / (1 - theta)) (McNutt 2000),
    clipped to [0, 1]. A hit ratio of 0 stays 0: a workload with no re-reference at all
    gains nothing from cache (the power law describes re-referenced data).
    """
    if not (0 <= hit_ratio <= 1 and measured_cache_gb > 0 and new_cache_gb > 0 and 0 < theta < 1):
        raise ValueError("hit ratio in [0, 1], cache sizes > 0, 0 < theta < 1")
    if hit_ratio == 0:
        return 0.0
    exponent = -theta / (1.0 - theta)
    miss = (1.0 - hit_ratio) * (new_cache_gb / measured_cache_gb) ** exponent
    return min(max(1.0 - miss, 0.0), 1.0)


def nvs_bytes_per_server(system: StorageSystem, cache_gb: float) -> float:
    """NVS for the writes of one server's ranks: the system's NVS split evenly over its
    servers (a server's writes are mirrored into the other server's NVS, half the total)."""
    return nvs_bytes(system, cache_gb) / system.servers


def project_destage_ratio(
    destage_ratio: float,
    measured_nvs_gb: float,
    new_nvs_gb: float,
    theta: float = HIERARCHICAL_REUSE_THETA,
) -> float:
    """Destages per host write at NVS size `new_nvs_gb`, given `destage_ratio` at
    `measured_nvs_gb`.

    NVS is a write cache managed least-recently-written (WOW's CLOCK): a write to a page still
    dirty in NVS is folded (no new destage), so the destage ratio is the write "miss ratio" of
    NVS. The hierarchical reuse model (McNutt 2000, as `project_read_hit_ratio`) gives it as a
    power of the cache size: destage(new) = destage(measured) (new / measured)^(-theta /
    (1 - theta)), clipped to [0, 1] (never more than one destage per write). A ratio of 1 (no
    rewrites at all) stays 1 when NVS grows, and a ratio of 0 stays 0. Assumption: writes
    re-reference like reads (same theta); no published write-side theta was found.
    """
    if not (0 <= destage_ratio <= 1 and measured_nvs_gb > 0 and new_nvs_gb > 0 and 0 < theta < 1):
        raise ValueError("destage ratio in [0, 1], NVS sizes > 0, 0 < theta < 1")
    if destage_ratio in (0.0, 1.0) and new_nvs_gb >= measured_nvs_gb:
        return destage_ratio
    exponent = -theta / (1.0 - theta)
    return min(max(destage_ratio * (new_nvs_gb / measured_nvs_gb) ** exponent, 0.0), 1.0)


def rank_nvs_limit_bytes(system: StorageSystem, cache_gb: float) -> float:
    """The most NVS one rank's modified data may fill: `nvs_rank_limit_fraction` of its
    server's NVS. Writes to a rank at its limit wait for its destages (NVS full for it)."""
    return system.nvs_rank_limit_fraction * nvs_bytes_per_server(system, cache_gb)


def rank_nvs_bytes(system: StorageSystem, cache_gb: float, ranks_of_server: int) -> float:
    """NVS one rank's dirty data may fill: its server's NVS shared evenly by the server's ranks,
    at most the system's per-rank limit (`nvs_rank_limit_fraction` of the server's NVS: the
    DS8000 keeps one rank from taking all of NVS)."""
    if ranks_of_server < 1:
        raise ValueError("a server owns at least one rank here")
    server = nvs_bytes_per_server(system, cache_gb)
    return min(server / ranks_of_server, rank_nvs_limit_bytes(system, cache_gb))


DRIVES_PER_DESTAGE_RAID5 = 2
"""A small RAID-5/6 destage touches the data drive and its parity drive(s); RAID-5: 2."""


def pending_destages_per_drive(
    nvs_bytes: float,
    drives: int,
    destage_bytes: float,
    drives_per_destage: int = DRIVES_PER_DESTAGE_RAID5,
) -> float:
    """Destages waiting in `nvs_bytes` of NVS for each of the `drives` whose writes it holds,
    when it is full of dirty data: k = (NVS bytes / destage bytes) x drives each destage
    touches / drives. The number ordered destage sorts over (`components.destage`; a rank's
    share of NVS over its own drives: `rank_nvs_bytes`). At least 1."""
    if nvs_bytes <= 0 or drives < 1 or destage_bytes <= 0:
        raise ValueError("NVS bytes and destage bytes > 0, drives >= 1")
    pages = nvs_bytes / destage_bytes
    return max(pages * drives_per_destage / drives, 1.0)


def dirty_bytes(
    destage_rate_per_s: float,
    destage_residence_s: float,
    destage_bytes: float,
    ordering_pool_bytes: float = 0.0,
) -> float:
    """Dirty data a server's NVS must hold (Little's law): what waits for or is in destage,
    destage rate x its residence time (queueing + service) x bytes, plus the pool the
    destager keeps for folding and ordering (`ordering_pool_bytes`)."""
    if min(destage_rate_per_s, destage_residence_s, destage_bytes, ordering_pool_bytes) < 0:
        raise ValueError("rates, times and sizes must be >= 0")
    return destage_rate_per_s * destage_residence_s * destage_bytes + ordering_pool_bytes


def nvs_full(dirty_bytes_by_server: ArrayLike, nvs_bytes_server: float) -> NDArray[np.bool_]:
    """NVS full, judged per server: its dirty data reaches its NVS share. A server whose NVS
    is full makes its writes wait for destages (no more fast writes). Dirty bytes per server
    [S], or per server at several loads [S, P]; the answer has their shape."""
    if nvs_bytes_server <= 0:
        raise ValueError("NVS bytes per server must be > 0")
    return np.asarray(dirty_bytes_by_server, dtype=np.float64) >= nvs_bytes_server
