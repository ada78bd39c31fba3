"""Host-adapter card and front-end delay, NVS projection and NVS-full, multi-track prefetch and
sequential rate per rank."""

from __future__ import annotations

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import cache, host_adapter, raid

CATALOG = load_catalog()
DS8800 = CATALOG.systems["ds8800-951"]


def test_card_service_is_its_cost_plus_link_transfer() -> None:
    card = DS8800.host_adapter()
    t = host_adapter.card_service(card, 1e6).mean_s
    assert t == pytest.approx(card.card_per_io_us * 1e-6 + 1 / card.card_bandwidth_mb_s)
    assert host_adapter.cards_for_ports(card, 4) == 1
    assert host_adapter.cards_for_ports(card, 5) == 2
    with pytest.raises(ValueError, match="host_ports"):
        host_adapter.cards_for_ports(card, 0)


def test_a_card_passes_less_than_its_ports_together_on_large_transfers() -> None:
    for system in CATALOG.systems.values():
        for card in system.host_adapters:
            assert card.card_bandwidth_mb_s < card.ports_per_adapter * card.port_bandwidth_mb_s


def test_front_end_delay_is_the_rest_of_the_fixed_latency() -> None:
    assert host_adapter.front_end_delay_s(DS8800, 0.0) == pytest.approx(150e-6)
    assert host_adapter.front_end_delay_s(DS8800, 50e-6) == pytest.approx(100e-6)
    assert host_adapter.front_end_delay_s(DS8800, 400e-6) == 0.0
    with pytest.raises(ValueError, match="counted_service_s"):
        host_adapter.front_end_delay_s(DS8800, -1.0)


def test_destage_ratio_falls_with_nvs_as_a_power_law() -> None:
    assert cache.project_destage_ratio(0.573, 4, 4) == pytest.approx(0.573)
    assert cache.project_destage_ratio(0.573, 4, 8) == pytest.approx(0.573 * 2 ** (-1 / 3))
    sizes = [1, 2, 4, 8, 16]
    ratios = [cache.project_destage_ratio(0.5, 4, s) for s in sizes]
    assert ratios == sorted(ratios, reverse=True)
    assert cache.project_destage_ratio(0.9, 4, 0.01) == 1.0  # never above one per write
    assert cache.project_destage_ratio(1.0, 4, 8) == 1.0  # no rewrites: nothing to fold
    assert cache.project_destage_ratio(0.0, 4, 2) == 0.0
    with pytest.raises(ValueError, match="destage ratio"):
        cache.project_destage_ratio(1.2, 4, 8)


def test_pending_destages_and_nvs_full_per_server() -> None:
    nvs = cache.nvs_bytes_per_server(DS8800, 128)
    assert nvs == pytest.approx(128e9 * DS8800.nvs_fraction / 2)
    k = cache.pending_destages_per_drive(nvs, 64, 4096)
    assert k == pytest.approx(nvs / 4096 * 2 / 64)
    assert cache.pending_destages_per_drive(10, 64, 4096) == 1.0
    dirty = cache.dirty_bytes(1000, 0.02, 4096, ordering_pool_bytes=1e6)
    assert dirty == pytest.approx(1000 * 0.02 * 4096 + 1e6)
    assert cache.nvs_full([dirty, 2 * nvs], nvs).tolist() == [False, True]


def test_prefetch_of_several_tracks_per_operation() -> None:
    raid5 = CATALOG.raid_formats["raid5-7+p"]
    (op,) = raid.prefetch_ops(raid5, 1 << 20, tracks_per_op=4)
    assert op.size_bytes == 4 * cache.TRACK_BYTES
    assert op.count == pytest.approx(4)
    assert op.count * op.size_bytes == 1 << 20
    # The parity strips between a stream's data pass under the head: 8 / 7 on 7+P.
    assert op.drive_bytes == pytest.approx(op.size_bytes * 8 / 7)
    (mirrored,) = raid.prefetch_ops(CATALOG.raid_formats["raid10-4x2"], 1 << 20, 4)
    assert mirrored.drive_bytes == mirrored.size_bytes
    with pytest.raises(ValueError, match="tracks_per_op"):
        raid.prefetch_ops(raid5, 1 << 20, tracks_per_op=0)


def test_prefetch_takes_as_many_tracks_as_a_host_read_asks_for() -> None:
    """AMP's prefetch degree keeps a stream from waiting: a host read's whole request is
    staged by one operation, at least one track."""
    raid5 = CATALOG.raid_formats["raid5-7+p"]
    assert raid.prefetch_tracks(4096) == 1
    assert raid.prefetch_tracks(cache.TRACK_BYTES) == 1
    assert raid.prefetch_tracks(256 * 1024) == 4
    (op,) = raid.prefetch_ops(raid5, 256 * 1024)
    assert (op.count, op.size_bytes) == (1, 256 * 1024)


def test_sequential_rate_grows_with_tracks_and_reaches_the_media_rate_alone() -> None:
    d = CATALOG.installed_drive("ds8800-951", "15k-146")
    fmt = CATALOG.raid_formats["raid5-7+p"]
    media = raid.sequential_read_mb_s(d, fmt, 1, stream_share=1.0)
    assert media == pytest.approx(8 * d.media_transfer_mb_s * 7 / 8)
    rates = [raid.sequential_read_mb_s(d, fmt, t) for t in (1, 2, 4, 8, 64)]
    assert rates == sorted(rates)
    assert rates[-1] < media
    assert rates[-1] > 0.85 * media  # 4 MiB operations amortise a random positioning each
