"""RAID back-end operations, cache staging and hit-ratio projection, adapters, workload mix."""

from __future__ import annotations

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import cache, device_adapter, host_adapter, raid
from diskmodel.workload import IoMix

from ..support.builders import scenario

CATALOG = load_catalog()


@pytest.mark.parametrize(
    ("name", "penalty", "active"),
    [
        ("raid5-7+p", 4, 8),
        ("raid5-6+p+s", 4, 7),
        ("raid6-6+p+q", 6, 8),
        ("raid6-5+p+q+s", 6, 7),
        ("raid10-4x2", 2, 8),
        ("raid10-3x2+2s", 2, 6),
    ],
)
def test_random_write_penalty_and_active_drives(name: str, penalty: int, active: int) -> None:
    fmt = CATALOG.raid_formats[name]
    ops = raid.random_destage_ops(fmt, 4096, 1.0)
    assert sum(o.count for o in ops) == penalty
    assert raid.active_drives(fmt) == active
    assert all(o.pattern == "random" for o in ops)


def test_destage_ratio_scales_the_destage_work() -> None:
    fmt = CATALOG.raid_formats["raid5-7+p"]
    assert sum(o.count for o in raid.random_destage_ops(fmt, 4096, 0.573)) == pytest.approx(
        4 * 0.573
    )


def test_sequential_write_costs_full_stripes() -> None:
    fmt = CATALOG.raid_formats["raid5-7+p"]
    (op,) = raid.sequential_destage_ops(fmt, 256 * 1024, 1.0)
    assert op.count * op.size_bytes == pytest.approx(256 * 1024 * 8 / 7)
    assert op.write
    assert op.pattern == "sequential"


def test_a_miss_stages_whole_cache_pages() -> None:
    assert cache.staged_bytes(4096) == 4096
    assert cache.staged_bytes(512) == 4096
    assert cache.staged_bytes(6 * 1024) == 8192


def test_prefetch_reads_whole_tracks() -> None:
    (op,) = raid.prefetch_ops(CATALOG.raid_formats["raid5-7+p"], 256 * 1024, tracks_per_op=1)
    assert op.size_bytes == cache.TRACK_BYTES
    assert op.count == 4


def test_hit_ratio_projection_follows_the_power_law() -> None:
    # theta = 0.25: miss ratio falls as size^(-1/3); doubling cuts misses by 2^(-1/3).
    assert cache.project_read_hit_ratio(0.5, 64, 64) == pytest.approx(0.5)
    assert cache.project_read_hit_ratio(0.5, 64, 128) == pytest.approx(1 - 0.5 * 2 ** (-1 / 3))
    assert cache.project_read_hit_ratio(0.5, 128, 64) == pytest.approx(1 - 0.5 * 2 ** (1 / 3))
    assert cache.project_read_hit_ratio(0.2, 128, 1) == 0.0  # clipped, never negative
    assert cache.project_read_hit_ratio(0.0, 64, 384) == 0.0


def test_port_and_da_service_are_overhead_plus_transfer() -> None:
    system = CATALOG.systems["ds8800-951"]
    port = system.host_adapter()
    t = host_adapter.port_service(port, 1e6).mean_s
    assert t == pytest.approx(port.per_io_overhead_us * 1e-6 + 1 / port.port_bandwidth_mb_s)
    da = system.device_adapter
    t = device_adapter.da_op_service(da, 1e6).mean_s
    assert t == pytest.approx(da.per_op_us * 1e-6 + 1 / da.bandwidth_mb_s)


def test_io_mix_fractions_sum_to_one() -> None:
    s = scenario(
        **{
            "workloads.0.read_sequential_fraction": 0.2,
            "workloads.0.write_sequential_fraction": 0.5,
        }
    )
    w = s.workloads[0]
    mix = IoMix.of(
        read_fraction=w.read_fraction,
        read_hit_ratio=w.read_hit_ratio,
        read_sequential_fraction=w.read_sequential_fraction,
        write_sequential_fraction=w.write_sequential_fraction,
        read_size_kib=w.read_size_kib,
        write_size_kib=w.write_size_kib,
        destage_ratio=w.destage_ratio,
    )
    assert sum(mix.fractions.values()) == pytest.approx(1.0)
    assert mix.fractions["read_hit"] == pytest.approx(0.7 * 0.8 * 0.5)
    assert mix.fractions["sequential_write"] == pytest.approx(0.3 * 0.5)
