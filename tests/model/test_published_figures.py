"""Calibration of the whole storage model against the published figures of DOMAIN.md C2 and C3
(the drive figures C1 and C8 are in tests/components/test_published_drive_figures.py).

Each test states its tolerance, prints the achieved error (summary at the end of the run) and
fails when the model leaves the tolerance. A known miss is a strict xfail whose reason gives
the measured error and why; no catalog figure or model constant is tuned to a published
figure here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskmodel import predict
from diskmodel.scenario import load_scenario
from diskmodel.workload import IoMix

from ..support.builders import predict_one
from ..support.calibration import record

pytestmark = pytest.mark.calibration

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


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
