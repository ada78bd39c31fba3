"""Calibration of the drive and destage physics against DOMAIN.md C9-C13, component level.

C9  rank capability at 100% drive busy (IBM SG24-6452 Table B-3), within 10% per rank type;
C10 2.5-inch / 3.5-inch 15K on the same rank, within 1.10-1.20;
C11 the packagings' seek figures are catalog figures, and the fitted curves reproduce them;
C12 ordered / unordered RAID-5 random-write throughput within 1.38-2.47, growing with NVS;
C13 sequential MB/s per rank, stated and checked against the media rate.

Nothing is tuned to these figures; the queue per drive that "100% busy" means is decided
below from what busy means, and the test states what the other readings give.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel.catalog import Drive, RaidFormat, load_catalog, parse_catalog_file
from diskmodel.components import cache, destage, drive, raid

from ..support.calibration import record

pytestmark = pytest.mark.calibration

CATALOG = load_catalog()
KIB4 = 4096
ERA_FILE = Path(__file__).with_name("c9_era_drives.yaml")
(C9_10K,) = parse_catalog_file(ERA_FILE.read_text(encoding="utf-8"), str(ERA_FILE)).drives
C9_15K = CATALOG.installed_drive("ds8700-941", "15k-146")

BUSY_QUEUE_PER_DRIVE = 2
"""What "100% DDM utilization" (Table B-3) means for the queue at each drive: a drive is busy
all the time only if, whenever it completes a command, the next one is already waiting, so it
holds at least 2 (one in service, one queued); the smallest such queue is taken. Table B-3
does not state its queue, and no published DS8000 queue per drive was found. With 1 request
per drive (idle between commands) the 15K 7+P rank comes out at 1,358 (-20%); with 4, 1,937
(+14%)."""

READS_PER_DISK_OP = 1.3 / 1.9
"""Table B-3's own count at 70% reads on RAID-5: 0.7 read misses + 0.3 x 4 destage operations
(2 reads, 2 writes) = 1.9 disk operations, 1.3 of them reads."""


def _per_drive_ops_s(d: Drive, queue: int) -> float:
    """Disk operations per second of one drive holding `queue` requests: 4 KiB random, data
    over the whole drive, the Table B-3 read/write mix, SPTF with leftovers."""
    reads = (
        drive.random_op(d, KIB4, 1.0, False).mean_s
        / drive.command_queueing_gain(d, KIB4, 1.0, False, queue)[-1]
    )
    writes = (
        drive.random_op(d, KIB4, 1.0, True).mean_s
        / drive.command_queueing_gain(d, KIB4, 1.0, True, queue)[-1]
    )
    return 1.0 / (READS_PER_DISK_OP * reads + (1 - READS_PER_DISK_OP) * writes)


def _rank_ops_s(d: Drive, fmt: RaidFormat, queue: int = BUSY_QUEUE_PER_DRIVE) -> float:
    return raid.active_drives(fmt) * _per_drive_ops_s(d, queue)


C9_CASES = [
    ("RAID-5 15K 7+P", C9_15K, "raid5-7+p", 1700),
    ("RAID-5 15K 6+P+S", C9_15K, "raid5-6+p+s", 1458),
    ("RAID-5 10K 7+P", C9_10K, "raid5-7+p", 1100),
    ("RAID-5 10K 6+P+S", C9_10K, "raid5-6+p+s", 943),
    ("RAID-10 15K 4+4", C9_15K, "raid10-4x2", 1700),
]


@pytest.mark.parametrize(("label", "d", "fmt", "published"), C9_CASES, ids=[c[0] for c in C9_CASES])
def test_c9_rank_capability_at_100_percent_busy(
    label: str, d: Drive, fmt: str, published: int
) -> None:
    """C9: disk operations per second per rank at 100% drive busy, 4 KB, no cache benefit
    (SG24-6452 Table B-3: 3.5-inch FC drives of the DS8100/DS8300). Tolerance 10%."""
    predicted = _rank_ops_s(d, CATALOG.raid_formats[fmt])
    error = predicted / published - 1
    record(
        "C9",
        f"{label} disk ops/s, {BUSY_QUEUE_PER_DRIVE} per drive",
        predicted,
        f"{published}",
        f"{error:+.1%}",
        "10%",
    )
    assert abs(error) <= 0.10


def _c10_ratio(name: str) -> float:
    fmt = CATALOG.raid_formats["raid5-7+p"]
    small = _rank_ops_s(CATALOG.installed_drive("ds8800-951", name), fmt)
    large = _rank_ops_s(CATALOG.installed_drive("ds8700-941", name), fmt)
    return small / large


def test_c10_2_5_inch_over_3_5_inch_15k_rank() -> None:
    """C10: an 8-drive 15K RAID-5 7+P rank does about 15% more with 2.5-inch drives. The C3
    drive (146 GB: 3.5-inch C1 figures on the DS8700, 2.5-inch Savvio 15K.1 on the DS8800),
    at C9's 100%-busy queue. Tolerance: the ratio within 1.10-1.20."""
    ratio = _c10_ratio("15k-146")
    record(
        "C10",
        "15K 7+P rank, 2.5-inch / 3.5-inch (146 GB)",
        ratio,
        "about 1.15",
        f"{ratio / 1.15 - 1:+.1%}",
        "1.10-1.20",
    )
    assert 1.10 <= ratio <= 1.20


@pytest.mark.xfail(
    strict=True,
    reason=(
        "measured 1.08: the DS8700's 3.5-inch 300 GB 15K drive has the Ultrastar 15K450's 3.1 ms "
        "average read seek (C11), only 0.5 ms above the Savvio 15K.1's 2.6 ms, while C10's "
        "rule of thumb compares with 3.5-inch drives of C1's 3.5 ms. The published figures "
        "disagree; no figure is changed to meet the rule."
    ),
)
def test_c10_holds_for_the_300_gb_drive_too() -> None:
    ratio = _c10_ratio("15k-300")
    record(
        "C10",
        "15K 7+P rank, 2.5-inch / 3.5-inch (300 GB)",
        ratio,
        "about 1.15",
        f"{ratio / 1.15 - 1:+.1%}",
        "1.10-1.20",
    )
    assert 1.10 <= ratio <= 1.20


C11_SETS = [
    ("2.5-inch 15K (Savvio 15K.1)", "ds8800-951", "15k-146", (0.2, 2.6, 4.9), (0.4, 3.1, 5.5)),
    ("3.5-inch 15K 300 GB (Ultrastar 15K450)", "ds8700-941", "15k-300", None, None),
    ("3.5-inch 15K 450 GB (Ultrastar 15K450)", "ds8700-941", "15k-450", None, None),
]


@pytest.mark.parametrize(
    ("label", "system", "name", "read", "write"), C11_SETS, ids=[c[0] for c in C11_SETS]
)
def test_c11_seek_curves_fit_the_published_figures(label, system, name, read, write) -> None:  # type: ignore[no-untyped-def]
    """C11: the catalog carries the published figures per packaging, and the fitted seek
    curve reproduces average (triangular weighting), full stroke and single track exactly."""
    d = CATALOG.installed_drive(system, name)
    if read is not None:
        assert (
            d.track_to_track_seek_read_ms,
            d.avg_seek_read_ms,
            d.full_stroke_seek_read_ms,
        ) == read
        assert (
            d.track_to_track_seek_write_ms,
            d.avg_seek_write_ms,
            d.full_stroke_seek_write_ms,
        ) == write
    for write_op in (False, True):
        curve = drive.seek_curve(d, write_op)
        avg = d.avg_seek_write_ms if write_op else d.avg_seek_read_ms
        mean = curve.random_moments_ms(1.0)[0]
        kind = "write" if write_op else "read"
        record(
            "C11",
            f"{label} {kind} average seek (fit), ms",
            mean,
            f"{avg:g}",
            f"{mean / avg - 1:+.2%}",
            "1e-6",
        )
        assert mean == pytest.approx(avg, rel=1e-6)
        full = d.full_stroke_seek_write_ms if write_op else d.full_stroke_seek_read_ms
        assert float(curve.seek_ms(1.0)) == pytest.approx(full, rel=1e-9)


def _raid5_write_gain(d: Drive, pending: float, queue: int = 1) -> float:
    """Ordered / unordered RAID-5 random-write throughput of one drive: 2 reads + 2 writes per
    destage either way; unordered at the same queue with SPTF over random requests."""
    unordered = sum(
        drive.random_op(d, KIB4, 1.0, w).mean_s
        / drive.command_queueing_gain(d, KIB4, 1.0, w, queue)[-1]
        for w in (False, True)
    )
    ordered = sum(
        destage.ordered_destage_op(d, KIB4, 1.0, pending, w, queue).mean_s for w in (False, True)
    )
    return unordered / ordered


def _ds8000_pending_per_drive() -> list[tuple[str, float]]:
    """Destages pending per drive with NVS full, for every cache size of both systems, on the
    C3 configuration (128 drives, 64 per server), 4 KiB destages."""
    out = []
    for system in CATALOG.systems.values():
        sizes = sorted({gb for o in system.processor_options for gb in o.cache_gb_options})
        for gb in sizes:
            nvs = cache.nvs_bytes_per_server(system, gb)
            out.append((f"{system.name} {gb} GB", cache.pending_destages_per_drive(nvs, 64, KIB4)))
    return sorted(out, key=lambda item: item[1])


def test_c12_ordered_destage_gain_within_the_published_range_growing_with_nvs() -> None:
    """C12: ordering destages raises RAID-5 random-write throughput by 38% (small NVS) to 147%
    (large NVS) over least-recently-written order (Gill & Modha, FAST 2005). The model at the
    NVS sizes a DS8000 has (one queued destage per drive, as unordered): every gain within
    1.38-2.47, growing with NVS. Also stated: the pending destages per drive at which the gain
    reaches C12's small-NVS end."""
    d = CATALOG.installed_drive("ds8800-951", "15k-146")
    gains = []
    for label, k in _ds8000_pending_per_drive():
        gain = _raid5_write_gain(d, k)
        gains.append(gain)
        record(
            "C12",
            f"ordered/unordered RAID-5 write, {label} ({k:.0f}/drive)",
            gain,
            "1.38-2.47",
            "0 (inside)" if 1.38 <= gain <= 2.47 else f"{gain:.2f}",
            "the range",
        )
        assert 1.38 <= gain <= 2.47
    assert gains == sorted(gains)
    small = [(k, _raid5_write_gain(d, k)) for k in (1, 2, 4, 8, 16, 64, 256)]
    assert small[0][1] == pytest.approx(1.0, rel=2e-3)  # one pending destage cannot be ordered
    assert [g for _, g in small] == sorted(g for _, g in small)
    first = next(k for k, g in small if g >= 1.38)
    record(
        "C12",
        "pending destages per drive where the gain first reaches 1.38",
        first,
        "small NVS",
        "stated",
        "-",
    )


def test_c13_sequential_mb_s_per_rank_against_the_media_rate() -> None:
    """C13: SARC stages a track or a set of tracks per operation, AMP adapts the degree. A 15K
    RAID-5 7+P rank (2.5-inch, DS8800), every drive prefetching, interleaved with other work
    (a track-to-track seek and a rotational latency per operation): stated at 1, 4 and 16
    tracks per operation and checked against the media rate (7 data drives' worth of
    8 x media rate), which it approaches as the operations grow."""
    d = CATALOG.installed_drive("ds8800-951", "15k-146")
    fmt = CATALOG.raid_formats["raid5-7+p"]
    media = raid.sequential_read_mb_s(d, fmt, 1, contiguous=True)
    record("C13", "15K 7+P media rate (data share), MB/s", media, "stated", "-", "-")
    rates = []
    for tracks in (1, 4, 16):
        rate = raid.sequential_read_mb_s(d, fmt, tracks)
        rates.append(rate)
        record(
            "C13",
            f"15K 7+P sequential read, {tracks} track(s)/op, MB/s",
            rate,
            "stated",
            f"{rate / media:.0%} of media",
            "below media",
        )
        assert rate < media
        # Exactly the media rate diluted by the positioning paid per operation.
        transfer = drive.transfer_s(d, tracks * cache.TRACK_BYTES)
        service = drive.sequential_op(d, tracks * cache.TRACK_BYTES, False).mean_s
        assert rate == pytest.approx(media * transfer / service, rel=1e-9)
    assert rates == sorted(rates)
