"""Calibration against the published figures of DOMAIN.md (C1, C2, C3, C8).

Each test states its tolerance, prints the achieved error (summary at the end of the run) and
fails when the model leaves the tolerance. A known miss is a strict xfail whose reason gives
the measured error and why; no catalog figure or model constant is tuned to a published
figure here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel import predict
from diskmodel.catalog import load_catalog
from diskmodel.components import drive
from diskmodel.scenario import load_scenario
from diskmodel.workload import IoMix

from ..support.builders import predict_one
from ..support.calibration import record

pytestmark = pytest.mark.calibration

CATALOG = load_catalog()
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
KIB = 4096


def _inside(value: float, low: float, high: float) -> str:
    if low <= value <= high:
        return "0 (inside)"
    edge = low if value < low else high
    return f"{(value - edge) / edge:+.1%}"


def test_c1_15k_drive_database_io() -> None:
    """C1: a 15K drive does 150-180 random IOPS at 5-7 ms per database I/O.

    Database I/O at the drive: 4 KiB random, 70% reads / 30% writes (the C2 mix), data
    spread over the whole drive, one request at a time. Tolerance: the published ranges.
    """
    d = CATALOG.drives["15k-146"]
    read = drive.random_op(d, KIB, 1.0, write=False).mean_s
    write = drive.random_op(d, KIB, 1.0, write=True).mean_s
    service_ms = (0.7 * read + 0.3 * write) * 1e3
    iops = 1e3 / service_ms
    record(
        "C1",
        "15K service time per DB I/O, ms",
        service_ms,
        "5-7 ms",
        _inside(service_ms, 5, 7),
        "the published range",
    )
    record(
        "C1",
        "15K random IOPS per drive (1 / service time)",
        iops,
        "150-180",
        _inside(iops, 150, 180),
        "the published range",
    )
    record(
        "C1",
        "15K average rotational latency, ms",
        d.avg_rotational_latency_ms,
        "about 2 ms",
        f"{d.avg_rotational_latency_ms / 2.0 - 1:+.1%}",
        "5%",
    )
    assert 5.0 <= service_ms <= 7.0
    assert 150.0 <= iops <= 180.0
    assert d.avg_rotational_latency_ms == pytest.approx(2.0, rel=0.05)


def test_c8_drive_rules_of_thumb() -> None:
    """C8: 10K 2.5-inch 3.8 / 4.4 ms average access and 3.0 ms latency; 7.2K 4.16 ms latency
    and 8.2 ms seek. The seeks are what the fitted seek curve gives for random requests over
    the whole drive (the fit takes the catalog's averages, which cite C8, so this checks the
    fit's consistency); the latencies follow from the rpm alone. Tolerance 2%."""
    ten = CATALOG.drives["10k-600"]
    nl = CATALOG.drives["nl-3tb"]
    checks = [
        (
            "10K read seek (random, full drive), ms",
            drive.seek_curve(ten, False).random_moments_ms(1.0)[0],
            3.8,
        ),
        (
            "10K write seek (random, full drive), ms",
            drive.seek_curve(ten, True).random_moments_ms(1.0)[0],
            4.4,
        ),
        ("10K average rotational latency, ms", ten.avg_rotational_latency_ms, 3.0),
        ("7.2K average rotational latency, ms", nl.avg_rotational_latency_ms, 4.16),
        (
            "7.2K read seek (random, full drive), ms",
            drive.seek_curve(nl, False).random_moments_ms(1.0)[0],
            8.2,
        ),
    ]
    for name, predicted, published in checks:
        record("C8", name, predicted, f"{published:g}", f"{predicted / published - 1:+.2%}", "2%")
    for _name, predicted, published in checks:
        assert predicted == pytest.approx(published, rel=0.02)


def test_c2_db_open_destage_rate() -> None:
    """C2: DB Open, 70% reads, 50% read hits, destage rate 17.2%, 4 KB transfers.

    The scenario (c5-auto-rebalance.yaml) states destage_ratio 0.573 per host write; the model
    must then destage 17.2% of host I/O (the reading documented in docs/model.md) and send
    misses + destage operations to the back end. Tolerance 0.5% (0.573 is rounded to 3
    figures)."""
    scenario = load_scenario(SCENARIOS / "c5-auto-rebalance.yaml")
    (w,) = scenario.workloads
    mix = IoMix.of(
        read_fraction=w.read_fraction,
        read_hit_ratio=w.read_hit_ratio,
        read_sequential_fraction=w.read_sequential_fraction,
        write_sequential_fraction=w.write_sequential_fraction,
        read_size_kib=w.read_size_kib,
        write_size_kib=w.write_size_kib,
        destage_ratio=w.destage_ratio,
    )
    destages_per_io = (mix.fractions["random_write"] + mix.fractions["sequential_write"]) * (
        mix.destage_ratio
    )
    record(
        "C2",
        "destages per host I/O",
        destages_per_io,
        "0.172",
        f"{destages_per_io / 0.172 - 1:+.2%}",
        "0.5%",
    )
    assert destages_per_io == pytest.approx(0.172, rel=0.005)
    assert mix.fractions["read_hit"] == pytest.approx(0.35)
    assert w.read_size_kib == w.write_size_kib == 4
    # The back end sees the misses and 4 operations per RAID-5 destage, nothing else.
    p = predict_one(scenario)
    backend = sum(r.backend_iops for r in p.ranks)
    expected = w.iops * (0.35 + 0.172 * 4)
    assert backend == pytest.approx(expected, rel=0.005)


C3_PUBLISHED = 1.29
C3_TOLERANCE = 0.05  # relative, on the throughput ratio


@pytest.mark.xfail(
    strict=True,
    reason=(
        "known gap: predicted DS8800/DS8700 throughput ratio 1.09 vs published 1.29 (-15.6%). "
        "Both systems come out drive-bound at host queue depth 256 (2 I/Os per drive), so the "
        "ratio is the drives': the DS8800's 2.5-inch 15K (Savvio 15K.1, 2.6 ms average read "
        "seek) against the DS8700's 3.5-inch (3.5 ms), C10's 2.5-inch gain (1.17) on random "
        "reads. Ordered destages seek a few tracks on either drive, so on the destage part of "
        "the drives' work (both 15K: the same rotation) the 2.5-inch drive gains little, and the "
        "ratio fell from 1.15 when destages were costed as random operations. The rest of the "
        "published gain would have to come from parts that are not the bottleneck here (the "
        "DS8800's faster processors and 8 Gb/s device adapters); no adapter cost is tuned to "
        "this figure."
    ),
)
def test_c3_ds8800_vs_ds8700_at_queue_depth_256() -> None:
    """C3: same 128 x 146 GB 15K drives in 16 RAID-5 ranks, 2 DA pairs, 128 GB, 4-way,
    4 host ports, host queue depth 256, random OLTP with low storage hit ratio: the DS8800
    delivered 29% more. Tolerance: the ratio within 5% of 1.29."""
    sp = predict(load_scenario(SCENARIOS / "ds8800-c3-baseline.yaml"))
    ds8800, ds8700 = sp.configurations
    assert ds8800.closed is not None
    assert ds8700.closed is not None
    assert ds8800.system == "ds8800-951"
    assert ds8700.system == "ds8700-941"
    ratio = ds8800.closed.iops / ds8700.closed.iops
    record(
        "C3",
        "DS8800 / DS8700 throughput at QD 256",
        ratio,
        "1.29",
        f"{ratio / C3_PUBLISHED - 1:+.1%}",
        "5%",
    )
    assert ratio == pytest.approx(C3_PUBLISHED, rel=C3_TOLERANCE)
