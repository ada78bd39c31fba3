"""Drive physics: the seek fit, short-stroking, service moments and command-queueing gain."""

from __future__ import annotations

import math

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import drive
from diskmodel.components.drive import SeekCurve, ServiceMoments

CATALOG = load_catalog()
HDDS = [d for d in CATALOG.drives.values() if d.kind == "hdd"]
SSDS = [d for d in CATALOG.drives.values() if d.kind == "ssd"]


@pytest.mark.parametrize("d", HDDS, ids=lambda d: d.name)
@pytest.mark.parametrize("write", [False, True])
def test_seek_fit_reproduces_the_three_catalog_figures(d, write):  # type: ignore[no-untyped-def]
    curve = drive.seek_curve(d, write)
    avg = d.avg_seek_write_ms if write else d.avg_seek_read_ms
    full = d.full_stroke_seek_write_ms if write else d.full_stroke_seek_read_ms
    assert float(curve.seek_ms(1.0)) == pytest.approx(full, rel=1e-12)
    assert float(curve.seek_ms(1e-16)) == pytest.approx(d.track_to_track_seek_ms, abs=1e-5)
    mean, _ = curve.random_moments_ms(1.0)
    assert mean == pytest.approx(avg, rel=1e-12)


def test_random_seek_moments_match_numerical_integration() -> None:
    curve = SeekCurve.fit(0.2, 3.5, 7.4)
    f = 0.6
    # Midpoint rule over the joint uniform positions of two requests on [0, f].
    n = 800
    u = (np.arange(n) + 0.5) / n * f
    seek = curve.seek_ms(np.abs(u[:, None] - u[None, :]))
    mean, second = curve.random_moments_ms(f)
    assert mean == pytest.approx(seek.mean(), rel=2e-3)
    assert second == pytest.approx((seek**2).mean(), rel=2e-3)


def test_non_monotone_seek_figures_are_refused() -> None:
    with pytest.raises(ValueError, match="non-monotone"):
        SeekCurve.fit(0.2, 6.0, 7.0)  # average too close to full stroke: needs b < 0


def test_short_stroking_shortens_the_service_time() -> None:
    d = CATALOG.drives["15k-300"]
    times = [drive.random_op(d, 4096, f, False).mean_s for f in (0.1, 0.25, 0.5, 1.0)]
    assert times == sorted(times)
    assert times[0] < times[-1] - 1e-3  # more than a millisecond saved at 10% occupancy


@pytest.mark.parametrize("d", HDDS, ids=lambda d: d.name)
def test_hdd_mean_is_overhead_seek_latency_transfer(d) -> None:  # type: ignore[no-untyped-def]
    m = drive.random_op(d, 4096, 1.0, False)
    expected_ms = (
        d.controller_overhead_ms
        + d.avg_seek_read_ms
        + d.rotation_ms / 2
        + 4096 / (d.media_transfer_mb_s * 1e6) * 1e3
    )
    assert m.mean_s * 1e3 == pytest.approx(expected_ms, rel=1e-12)
    assert m.second_moment_s2 > m.mean_s**2  # seek and latency vary


@pytest.mark.parametrize("d", SSDS, ids=lambda d: d.name)
def test_ssd_is_fixed_and_reads_differ_from_writes(d) -> None:  # type: ignore[no-untyped-def]
    r = drive.random_op(d, 4096, 1.0, False)
    w = drive.random_op(d, 4096, 1.0, True)
    assert r.mean_s == pytest.approx(d.ssd_read_service_ms * 1e-3)
    assert w.mean_s == pytest.approx(d.ssd_write_service_ms * 1e-3)
    assert r.second_moment_s2 == pytest.approx(r.mean_s**2)
    assert np.all(drive.command_queueing_gain(d, 4096, 1.0, False, 16) == 1.0)


def test_moments_of_a_sum() -> None:
    a = ServiceMoments(2.0, 5.0)
    b = ServiceMoments.deterministic(1.0)
    c = a.plus(b)
    assert c.mean_s == 3.0
    assert c.second_moment_s2 == 5.0 + 2 * 2.0 * 1.0 + 1.0


@pytest.mark.parametrize("name", ["15k-146", "10k-600", "nl-2tb"])
def test_command_queueing_gain_starts_at_one_and_grows(name: str) -> None:
    d = CATALOG.drives[name]
    gain = drive.command_queueing_gain(d, 4096, 1.0, False, 2 * d.command_queue_depth)
    assert gain[0] == pytest.approx(1.0, abs=1e-12)
    assert np.all(np.diff(gain[: d.command_queue_depth]) > 0)
    # No further gain beyond the drive's command queue.
    assert np.all(gain[d.command_queue_depth - 1 :] == gain[d.command_queue_depth - 1])
    # Bounded by the fixed part: positioning cannot fall below zero.
    m = drive.random_op(d, 4096, 1.0, False)
    fixed_s = d.controller_overhead_ms * 1e-3 + 4096 / (d.media_transfer_mb_s * 1e6)
    assert gain[-1] < m.mean_s / fixed_s


def test_queue_length_one_integral_matches_the_closed_form() -> None:
    """The numerical E[S(1)] behind alpha equals the closed-form mean (grid accuracy 1%)."""
    d = CATALOG.drives["15k-146"]
    curve = drive.seek_curve(d, False)
    fixed_ms = d.controller_overhead_ms + 4096 / (d.media_transfer_mb_s * 1e6) * 1e3
    # alpha(2) = S(1)/S(2); recompute S(2) by brute force Monte Carlo-free enumeration.
    h = (np.arange(120) + 0.5) / 120
    y = (np.arange(120) + 0.5) / 120
    seek = curve.seek_ms(np.abs(h[:, None] - y[None, :]))
    rot = d.rotation_ms
    # Positioning of one request: seek + uniform latency, mean seek + rot/2.
    s1 = fixed_ms + seek.mean() + rot / 2
    assert s1 == pytest.approx(drive.random_op(d, 4096, 1.0, False).mean_s * 1e3, rel=0.01)
    # Two pending requests: E[min(P1, P2)] = E_h[ integral P(P > t | h)^2 dt ].
    t = np.linspace(0, seek.max() + rot, 1200)
    tail = np.clip(1 - (t[None, None, :] - seek[:, :, None]) / rot, 0, 1).mean(axis=1)
    s2 = fixed_ms + (tail**2).sum(axis=1).mean() * (t[1] - t[0])
    gain = drive.command_queueing_gain(d, 4096, 1.0, False, 2)
    assert gain[1] == pytest.approx(s1 / s2, rel=0.01)
    assert math.isfinite(gain[1])
