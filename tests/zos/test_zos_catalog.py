"""The z/OS catalog: FICON channel figures from their published maxima, 3390 geometry and the
track-capacity formula against IBM's published records per track."""

from __future__ import annotations

import pytest

from diskmodel.catalog import load_catalog


@pytest.mark.parametrize(
    ("record_bytes", "per_track"),
    # IBM's 3390 track capacities: 4 KiB blocks 12 a track, 8 KiB 6, 2 KiB 21, half-track
    # blocking (27,998 bytes) 2, a full track (56,664 bytes) 1.
    [(4096, 12), (8192, 6), (2048, 21), (27998, 2), (56664, 1)],
)
def test_records_per_track_follow_the_3390_formula(record_bytes: int, per_track: int) -> None:
    model = load_catalog().volume_models["3390-9"]
    assert model.records_per_track(record_bytes) == per_track


def test_a_record_longer_than_a_track_still_counts_one() -> None:
    assert load_catalog().volume_models["3390-9"].records_per_track(100_000) == 1


@pytest.mark.parametrize(
    ("name", "gb"),
    # Published capacities: 3390-3 2.84 GB, -9 8.51 GB, -27 27.8 GB, -54 55.7 GB, EAV ~1 TB.
    [
        ("3390-3", 2.84),
        ("3390-9", 8.51),
        ("3390-27", 27.84),
        ("3390-54", 55.68),
        ("3390-a-eav", 1004.66),
    ],
)
def test_volume_capacity_is_cylinders_tracks_and_track_bytes(name: str, gb: float) -> None:
    model = load_catalog().volume_models[name]
    assert model.capacity_bytes == model.cylinders * 15 * 56_664
    assert model.capacity_bytes / 1e9 == pytest.approx(gb, rel=2e-3)


def test_the_zhpf_channel_work_is_the_inverse_of_the_published_maximum_rate() -> None:
    channels = load_catalog().ficon_channels
    assert 1e6 / channels["ficon-express-8s"].zhpf_per_io_us == pytest.approx(92_000, rel=1e-3)
    assert 1e6 / channels["ficon-express-8"].zhpf_per_io_us == pytest.approx(52_000, rel=1e-3)
    for channel in channels.values():
        # Command mode costs the channel more than transport mode (zHPF), every generation.
        assert channel.command_per_io_us > channel.zhpf_per_io_us
        assert channel.per_io_us(zhpf=True) == channel.zhpf_per_io_us
        # Every estimate carries its range, and the value lies in it.
        for key in ("command_per_io_us", "pend_light_us"):
            low, high = channel.provenance[key].range or (None, None)
            assert low is not None
            assert high is not None
            assert low <= getattr(channel, key) <= high


def test_the_data_a_volume_holds_is_its_tracks_full_of_whole_records() -> None:
    model = load_catalog().volume_models["3390-9"]
    tracks = 10017 * 15
    # 4 KiB records: 12 a track, 49,152 of its 56,664 bytes (86.7%).
    assert model.data_bytes(4096) == tracks * 12 * 4096
    # Half-track blocking: 2 records of 27,998 bytes, 98.8% of the track.
    assert model.data_bytes(27998) == tracks * 2 * 27998
    # A record longer than a track spans whole tracks.
    assert model.data_bytes(2 * 56664) == tracks // 2 * 2 * 56664
