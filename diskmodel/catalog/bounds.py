"""The range every catalog figure must lie in, shipped or from a user's catalog file.

A catalog figure is a physical quantity: a drive's seek time, a port's bandwidth, a processor's
cost per I/O. The model divides by some and multiplies by others, so a figure of infinity or
about 1e308 in a user's catalog file crashed it (ZeroDivisionError, OverflowError, a "demands
must be finite" ValueError) or gave a response time of 1e305 ms (issue 33 item 3). Every figure
is therefore checked when its entry is read: a finite number (NaN and infinity refused), and,
when it is not zero, within the range below. Zero is left to each field's own rule (an SSD's
rpm and seek times are 0, an HDD's SSD figures are 0; a field that must be positive says so).

Each range is wide: from far below anything built to far above it, generous to a planner's
what-if (a drive twice as fast as any sold) but keeping every quantity the model derives finite
and every network solvable. The reason for each end is beside it. Units are in the keys.
"""

from __future__ import annotations

import math
from typing import Any

FIGURE_BOUNDS: dict[str, tuple[float, float, str]] = {
    # drives
    "capacity_gb": (1.0, 100_000.0, "1 GB to 100 TB per drive (the catalog's: 146 GB to 3 TB)"),
    "rpm": (3_600.0, 20_000.0, "a spinning drive turns 3,600 to 20,000 rpm (0 for an SSD)"),
    "avg_seek_read_ms": (0.01, 100.0, "seek times of 10 us to 100 ms"),
    "avg_seek_write_ms": (0.01, 100.0, "seek times of 10 us to 100 ms"),
    "full_stroke_seek_read_ms": (0.01, 100.0, "seek times of 10 us to 100 ms"),
    "full_stroke_seek_write_ms": (0.01, 100.0, "seek times of 10 us to 100 ms"),
    "track_to_track_seek_read_ms": (0.001, 100.0, "seek times of 1 us to 100 ms"),
    "track_to_track_seek_write_ms": (0.001, 100.0, "seek times of 1 us to 100 ms"),
    "media_transfer_mb_s": (1.0, 100_000.0, "1 MB/s to 100 GB/s off the media"),
    "controller_overhead_ms": (0.0001, 100.0, "0.1 us to 100 ms per command"),
    "command_queue_depth": (1, 256, "1 to 256 commands queued at a drive (the catalog's: 2-32)"),
    "ssd_read_service_ms": (0.001, 100.0, "1 us to 100 ms for one small read"),
    "ssd_write_service_ms": (0.001, 100.0, "1 us to 100 ms for one small write"),
    "ssd_parallelism": (1, 1_024, "1 to 1,024 requests served at once"),
    "power_w": (0.1, 1_000.0, "0.1 W to 1 kW per drive"),
    "form_factor_in": (0.5, 10.0, "0.5 to 10 inch drives"),
    # RAID formats
    "data_drives": (1, 64, "1 to 64 data drives per array"),
    "redundancy_drives": (1, 16, "1 to 16 parity or mirror drives per array"),
    "spare_drives": (1, 16, "up to 16 spares per array site"),
    "array_site_drives": (1, 64, "1 to 64 drives per array site (the DS8000's: 8)"),
    "read_miss_ops": (0.1, 10.0, "0.1 to 10 drive operations per read miss"),
    "random_write_reads": (0.1, 10.0, "up to 10 drive reads per random write"),
    "random_write_writes": (0.1, 10.0, "0.1 to 10 drive writes per random write"),
    "sequential_write_ops_per_data_op": (1.0, 10.0, "1 to 10 drive writes per data write"),
    # systems
    "ways": (1, 64, "1 to 64 cores per server"),
    "clock_ghz": (0.1, 20.0, "0.1 to 20 GHz"),
    "cache_gb_options": (1, 100_000, "1 GB to 100 TB of cache"),
    "port_gbps": (0.1, 1_000.0, "0.1 to 1,000 Gb/s per port"),
    "ports_per_adapter": (1, 64, "1 to 64 ports per adapter card"),
    "port_bandwidth_mb_s": (1.0, 1_000_000.0, "1 MB/s to 1 TB/s per port"),
    "per_io_overhead_us": (0.01, 100_000.0, "10 ns to 100 ms per I/O"),
    "card_per_io_us": (0.01, 100_000.0, "10 ns to 100 ms per I/O"),
    "card_bandwidth_mb_s": (1.0, 1_000_000.0, "1 MB/s to 1 TB/s per card"),
    "per_op_us": (0.01, 100_000.0, "10 ns to 100 ms per back-end operation"),
    "commands_per_hdd": (1.0, 1024.0, "1 to 1,024 commands outstanding at one drive"),
    "bandwidth_mb_s": (1.0, 1_000_000.0, "1 MB/s to 1 TB/s per DA pair"),
    "read_hit_us": (0.01, 100_000.0, "10 ns to 100 ms of a core per I/O"),
    "read_miss_us": (0.01, 100_000.0, "10 ns to 100 ms of a core per I/O"),
    "write_us": (0.01, 100_000.0, "10 ns to 100 ms of a core per I/O"),
    "sequential_read_us": (0.01, 100_000.0, "10 ns to 100 ms of a core per I/O"),
    "destage_us": (0.01, 100_000.0, "10 ns to 100 ms of a core per destage"),
    "servers": (2, 2, "a DS8000 has two servers, over which the model spreads ranks and NVS"),
    "nvs_fraction": (0.001, 0.999, "NVS is a part of the cache, 0.1% to 99.9%"),
    "nvs_rank_limit_fraction": (0.001, 1.0, "a rank may fill 0.1% to all of a server's NVS"),
    "log_striping_us": (0.0, 100_000.0, "0 to 100 ms per striped log write"),
    "front_end_latency_us": (0.01, 10_000.0, "up to 10 ms, the scenario's own bound"),
    "write_copy_us_per_kib": (0.001, 1_000.0, "up to 1 ms per KiB copied to NVS"),
    "max_host_ports": (1, 1_024, "1 to 1,024 host ports"),
    "max_da_pairs": (1, 64, "1 to 64 DA pairs"),
    "max_ranks_per_da_pair": (1, 1_024, "1 to 1,024 ranks per DA pair"),
    "easy_tier_generation": (1, 2, "Easy Tier generation 1 or 2"),
    "level": (5, 10, "RAID 5, 6 or 10"),
    # z/OS attachment: FICON channels and CKD volume models
    "link_gbps": (0.1, 1_000.0, "0.1 to 1,000 Gb/s per channel link"),
    "zhpf_per_io_us": (0.01, 100_000.0, "10 ns to 100 ms of a channel per I/O"),
    "command_per_io_us": (0.01, 100_000.0, "10 ns to 100 ms of a channel per I/O"),
    "pend_light_us": (0.01, 100_000.0, "up to 100 ms of fixed pending time"),
    "cylinders": (1, 10_000_000, "1 to 10 million cylinders (an EAV: 1,182,006)"),
    "tracks_per_cylinder": (1, 255, "1 to 255 tracks per cylinder (a 3390: 15)"),
    "track_bytes": (512, 1_000_000, "512 bytes to 1 MB per track (a 3390: 56,664)"),
}
"""(low, high, what the range is) of each numeric field of the catalog's entries, by key."""


def checked_figure(key: str, value: Any, *, from_file: bool = True) -> Any:
    """`value` if every number in it is finite and, where not zero, within `key`'s range;
    otherwise `ValueError` saying which and the allowed range. A figure written as null in a
    file is refused (a packaging states a figure or leaves the key out; an entry dumped and
    built again in Python holds None for those it left out); other values pass as they are
    (the field's own type says what it takes)."""
    if value is None and from_file and key in FIGURE_BOUNDS:  # `{value: null}`: fuzzing
        raise ValueError(f"{key}: a figure needs a number; leave the key out to state none")
    numbers = value if isinstance(value, list) else [value]
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int | float):
            continue
        if isinstance(number, float) and not math.isfinite(number):
            raise ValueError(f"{key}: {number} is not a finite number")
        bounds = FIGURE_BOUNDS.get(key)
        if bounds is None or number == 0:
            continue
        low, high, what = bounds
        if not low <= number <= high:
            raise ValueError(f"{key}: {_shown(number)} is outside {low:g} to {high:g} ({what})")
    return value


def _shown(number: float) -> str:
    """A figure in a message: an integer of many digits by its length (it has no float)."""
    if isinstance(number, int) and number.bit_length() > 50:
        return f"an integer of about {int(number.bit_length() * math.log10(2)) + 1:,} digits"
    return f"{number:g}"
