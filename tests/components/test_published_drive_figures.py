"""Unit tests of the drive functions against the published figures of DOMAIN.md C1 and C8
(component level; the figures are validated through the product in tests/validation)."""

from __future__ import annotations

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import drive

CATALOG = load_catalog()
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
    for _name, predicted, published in checks:
        assert predicted == pytest.approx(published, rel=0.02)
