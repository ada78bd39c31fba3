"""Drive physics: the seek fit, short-stroking, service moments and command-queueing gain."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.catalog import load_catalog
from diskmodel.components import drive, sptf
from diskmodel.components.drive import ServiceMoments
from diskmodel.components.seek import SeekCurve, curve_ratio

CATALOG = load_catalog()
INSTALLED_HDDS = [
    CATALOG.installed_drive(system, d.name)
    for d in CATALOG.drives.values()
    if d.kind == "hdd"
    for system in d.packaging
]
SSDS = [d for d in CATALOG.drives.values() if d.kind == "ssd"]


def _id(d) -> str:  # type: ignore[no-untyped-def]
    return f"{d.name}-{d.avg_seek_read_ms:g}ms"


@pytest.mark.parametrize("d", INSTALLED_HDDS, ids=_id)
@pytest.mark.parametrize("write", [False, True])
def test_seek_fit_reproduces_the_three_catalog_figures(d, write):  # type: ignore[no-untyped-def]
    """Every installed drive's published (track-to-track, average, full-stroke) set, read and
    write, is reproduced by its fitted curve (DOMAIN.md C11 for the 15K packagings)."""
    curve = drive.seek_curve(d, write)
    avg = d.avg_seek_write_ms if write else d.avg_seek_read_ms
    full = d.full_stroke_seek_write_ms if write else d.full_stroke_seek_read_ms
    t2t = d.track_to_track_seek_write_ms if write else d.track_to_track_seek_read_ms
    assert float(curve.seek_ms(1.0)) == pytest.approx(full, rel=1e-12)
    assert float(curve.seek_ms(1e-16)) == pytest.approx(t2t, abs=1e-6)
    mean, _ = curve.random_moments_ms(1.0)
    assert mean == pytest.approx(avg, rel=1e-9)


def test_the_savvio_write_set_fits() -> None:
    """Savvio 15K.1 write (C11): 0.4 / 3.1 / 5.5 ms; the former t + a sqrt(x) + b x form with
    one shared 0.2 ms track-to-track refused it as non-monotone."""
    curve = SeekCurve.fit(0.4, 3.1, 5.5)
    x = np.linspace(1e-9, 1, 2001)
    assert np.all(np.diff(curve.seek_ms(x)) >= 0)
    assert curve.random_moments_ms(1.0)[0] == pytest.approx(3.1, rel=1e-9)


@pytest.mark.parametrize("ratio", [0.34, 0.4, 0.46, 0.5, 0.53, 0.5334, 0.6, 0.8, 0.97])
def test_any_concave_figure_set_fits_monotone_and_continuous(ratio: float) -> None:
    """Both branches of the fit: (avg - t) / (full - t) anywhere in (1/3, 1)."""
    t, full = 0.3, 8.0
    avg = t + ratio * (full - t)
    curve = SeekCurve.fit(t, avg, full)
    x = np.linspace(1e-9, 1, 4001)
    s = curve.seek_ms(x)
    assert np.all(np.diff(s) >= -1e-12)
    x0 = curve.switch_fraction
    below, above = curve.seek_ms(x0), curve.seek_ms(min(x0 + 1e-12, 1.0))
    assert float(below) == pytest.approx(float(above), abs=1e-6)  # continuous at the switch
    assert curve.random_moments_ms(1.0)[0] == pytest.approx(avg, rel=1e-9)
    assert float(curve.seek_ms(1.0)) == pytest.approx(full, rel=1e-12)


@pytest.mark.parametrize(
    "figures", [(0.2, 2.6, 7.4), (0.2, 7.4, 7.4), (0.2, 8.0, 7.4), (3.0, 2.0, 7.4)]
)
def test_figures_no_seek_curve_fits_are_refused(figures: tuple[float, float, float]) -> None:
    with pytest.raises(ValueError, match="t2t="):
        SeekCurve.fit(*figures)


_FIGURE = st.floats(min_value=-1.0, max_value=30.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(_FIGURE, _FIGURE, _FIGURE)
def test_the_catalog_check_refuses_exactly_what_the_fit_refuses(
    t: float, avg: float, full: float
) -> None:
    """`curve_ratio` (what the catalog checks every drive with, without fitting) accepts a set
    exactly when `SeekCurve.fit` fits it, and refuses it with the same message otherwise."""
    outcomes = []
    for check in (SeekCurve.fit, curve_ratio):
        try:
            check(t, avg, full)
            outcomes.append("fits")
        except ValueError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1]
    if outcomes[0] == "fits":
        assert 1 / 3 < curve_ratio(t, avg, full) < 1


@pytest.mark.parametrize("figures", [(0.2, 3.5, 7.4), (0.4, 3.1, 5.5), (0.2, 5.5, 6.0)])
@pytest.mark.parametrize("f", [0.05, 0.3, 0.6, 1.0])
def test_random_seek_moments_match_numerical_integration(figures, f) -> None:  # type: ignore[no-untyped-def]
    curve = SeekCurve.fit(*figures)
    n = 1000
    u = (np.arange(n) + 0.5) / n * f
    seek = curve.seek_ms(np.abs(u[:, None] - u[None, :]))
    mean, second = curve.random_moments_ms(f)
    assert mean == pytest.approx(seek.mean(), rel=2e-3)
    assert second == pytest.approx((seek**2).mean(), rel=2e-3)


def test_short_stroking_shortens_the_service_time() -> None:
    d = CATALOG.drives["15k-300"]
    times = [drive.random_op(d, 4096, f, False).mean_s for f in (0.1, 0.25, 0.5, 1.0)]
    assert times == sorted(times)
    assert times[0] < times[-1] - 1e-3  # more than a millisecond saved at 10% occupancy


@pytest.mark.parametrize("d", INSTALLED_HDDS, ids=_id)
def test_hdd_mean_is_overhead_seek_latency_transfer(d) -> None:  # type: ignore[no-untyped-def]
    m = drive.random_op(d, 4096, 1.0, False)
    expected_ms = (
        d.controller_overhead_ms
        + d.avg_seek_read_ms
        + d.rotation_ms / 2
        + 4096 / (d.media_transfer_mb_s * 1e6) * 1e3
    )
    assert m.mean_s * 1e3 == pytest.approx(expected_ms, rel=1e-9)
    assert m.second_moment_s2 > m.mean_s**2  # seek and latency vary


@pytest.mark.parametrize("d", SSDS, ids=lambda d: d.name)
def test_ssd_is_fixed_and_reads_differ_from_writes(d) -> None:  # type: ignore[no-untyped-def]
    r = drive.random_op(d, 4096, 1.0, False)
    w = drive.random_op(d, 4096, 1.0, True)
    assert r.mean_s == pytest.approx(d.ssd_read_service_ms * 1e-3)
    assert w.mean_s == pytest.approx(d.ssd_write_service_ms * 1e-3)
    assert r.second_moment_s2 == pytest.approx(r.mean_s**2)


@pytest.mark.parametrize("d", SSDS, ids=lambda d: d.name)
def test_ssd_gain_is_its_parallelism_up_to_its_bandwidth(d) -> None:  # type: ignore[no-untyped-def]
    gain = drive.command_queueing_gain(d, 4096, 1.0, False, 32)
    p = d.ssd_parallelism
    assert list(gain[:p]) == list(range(1, p + 1))
    assert np.all(gain[p:] == p)
    assert drive.ssd_max_parallelism(d, 4096, False) == p
    # A 1 MiB transfer fills the drive's interface long before its flash units are busy.
    big = 1 << 20
    cap = drive.ssd_max_parallelism(d, big, False)
    assert cap < p
    rate_mb_s = cap / drive.random_op(d, big, 1.0, False).mean_s * big / 1e6
    assert rate_mb_s == pytest.approx(d.media_transfer_mb_s, rel=1e-9)


def test_moments_of_a_sum() -> None:
    a = ServiceMoments(2.0, 5.0)
    b = ServiceMoments.deterministic(1.0)
    c = a.plus(b)
    assert c.mean_s == 3.0
    assert c.second_moment_s2 == 5.0 + 2 * 2.0 * 1.0 + 1.0


@pytest.mark.parametrize("name", ["15k-146", "10k-600", "nl-2tb"])
@pytest.mark.parametrize("write", [False, True])
def test_command_queueing_gain_starts_at_one_and_grows(name: str, write: bool) -> None:
    d = CATALOG.drives[name]
    depth = min(d.command_queue_depth, sptf.MAX_TABULATED_DEPTH)
    gain = drive.command_queueing_gain(d, 4096, 1.0, write, 2 * depth)
    assert gain[0] == 1.0
    assert np.all(np.diff(gain[:depth]) > 0)
    # No further gain beyond the drive's command queue.
    assert np.all(gain[depth - 1 :] == gain[depth - 1])
    # Bounded by the fixed part: positioning cannot fall below zero.
    m = drive.random_op(d, 4096, 1.0, write)
    fixed_s = d.controller_overhead_ms * 1e-3 + 4096 / (d.media_transfer_mb_s * 1e6)
    assert gain[-1] < m.mean_s / fixed_s


def _fresh_requests_positioning_ms(curve: SeekCurve, rotation_ms: float, n: int) -> float:
    """E[min of n fresh requests' positioning] = E_h int P(P > t | h)^n dt (the former upper
    bound, fresh requests replacing every served one), full stroke, by quadrature."""
    h = (np.arange(150) + 0.5) / 150
    seek = curve.seek_ms(np.abs(h[:, None] - h[None, :]))
    t = np.linspace(0, float(seek.max()) + rotation_ms, 1500)
    tail = np.clip(1 - (t[None, None, :] - seek[:, :, None]) / rotation_ms, 0, 1).mean(axis=1)
    return float((tail**n).sum(axis=1).mean() * (t[1] - t[0]))


def test_leftovers_make_sptf_worse_than_fresh_requests() -> None:
    """Kept leftovers are the far-away requests: the gain lies below the fresh-request bound
    at every queue length, and the difference grows with the queue."""
    d = CATALOG.drives["15k-146"]
    curve = drive.seek_curve(d, False)
    rel = sptf.relative_positioning(curve, d.rotation_ms, 0.0, 1.0, 16)
    p1 = _fresh_requests_positioning_ms(curve, d.rotation_ms, 1)
    gaps = []
    for n in (2, 4, 16):
        fresh = _fresh_requests_positioning_ms(curve, d.rotation_ms, n) / p1
        assert rel[n - 1] > fresh
        gaps.append(rel[n - 1] / fresh)
    assert gaps == sorted(gaps)


def test_tabulated_sptf_agrees_with_an_independent_longer_simulation() -> None:
    """The cached table against a fresh run (other seed, 4x the samples): within 2%."""
    d = CATALOG.drives["15k-146"]
    curve = drive.seek_curve(d, True)
    depths = (1, 2, 4, 8, 32)
    long = sptf._simulate(curve, d.rotation_ms, 0.05, 1.0, depths, replicas=48, steps=1000, seed=7)
    table = sptf.relative_positioning(curve, d.rotation_ms, 0.05, 1.0, 32)
    for n, p in zip(depths, long, strict=True):
        assert table[n - 1] == pytest.approx(p / long[0], rel=0.02), n


def test_span_interpolation_agrees_with_a_direct_simulation() -> None:
    """Between span nodes (1/4 and 1/2) the interpolated ratio is within 2% of a direct run."""
    d = CATALOG.drives["10k-600"]
    curve = drive.seek_curve(d, False)
    direct = sptf._simulate(curve, d.rotation_ms, 0.04, 0.35, (1, 4, 16), seed=11)
    table = sptf.relative_positioning(curve, d.rotation_ms, 0.04, 0.35, 16)
    for n, p in zip((1, 4, 16), direct, strict=True):
        assert table[n - 1] == pytest.approx(p / direct[0], rel=0.02), n


def test_a_streams_operation_is_its_transfer_or_a_random_one() -> None:
    """A stream alone on its drive pays only the media transfer; one broken by other work
    every time pays a random operation's positioning (seek over the span, half a turn,
    controller); in between, the mixture by the stream's share of the drive's operations,
    moments and all."""
    d = CATALOG.installed_drive("ds8800-951", "15k-146")
    size = 256 * 1024
    contiguous = drive.sequential_op(d, size, False, 0.5, stream_share=1.0)
    assert contiguous.mean_s == pytest.approx(drive.transfer_s(d, size))
    assert contiguous.second_moment_s2 == pytest.approx(contiguous.mean_s**2)
    broken = drive.sequential_op(d, size, False, 0.5, stream_share=0.0)
    assert broken == drive.random_op(d, size, 0.5, False)
    mixed = drive.sequential_op(d, size, False, 0.5, stream_share=0.25)
    assert mixed.mean_s == pytest.approx(0.25 * contiguous.mean_s + 0.75 * broken.mean_s)
    assert mixed.second_moment_s2 == pytest.approx(
        0.25 * contiguous.second_moment_s2 + 0.75 * broken.second_moment_s2
    )
    with pytest.raises(ValueError, match="stream_share"):
        drive.sequential_op(d, size, False, 0.5, stream_share=1.5)


def _plain_sptf_simulation(
    curve: SeekCurve, rotation_ms: float, advance_rev: float, span: float, depths: tuple[int, ...]
) -> tuple[float, ...]:
    """`sptf._simulate` as first written (np.mod, np.where): the reference its faster
    arithmetic must equal bit for bit."""
    replicas, steps = sptf._REPLICAS, sptf._MEASURED_STEPS
    rng, active, y, theta, head, phase = sptf.start_state(span, depths, replicas, sptf._SEED)
    rows, width = active.shape
    index = np.arange(rows)
    warm = 3 * width + 50
    total = np.zeros(rows)
    for step in range(warm + steps):
        start = phase + advance_rev
        seek = curve.seek_ms(np.abs(y - head[:, None]))
        wait = np.mod(theta - start[:, None] - seek / rotation_ms, 1.0) * rotation_ms
        positioning = np.where(active, seek + wait, np.inf)
        chosen = positioning.argmin(axis=1)
        if step >= warm:
            total += positioning[index, chosen]
        head = y[index, chosen]
        phase = theta[index, chosen]
        y[index, chosen] = rng.random(rows) * span
        theta[index, chosen] = rng.random(rows)
    per_row = total / steps
    return tuple(
        float(per_row[i * replicas : (i + 1) * replicas].mean()) for i in range(len(depths))
    )


@pytest.mark.parametrize(("name", "write", "span", "advance"), [
    ("15k-146", False, 1.0, 0.0), ("10k-600", True, 1 / 16, 0.31), ("nl-3tb", False, 0.5, 0.97),
])  # fmt: skip
def test_the_simulation_s_arithmetic_is_the_plain_one_bit_for_bit(
    name: str, write: bool, span: float, advance: float
) -> None:
    d = CATALOG.drives[name]
    curve = drive.seek_curve(d, write)
    depths = (1, 2, 3, 4, 6, 8)
    assert sptf._simulate(curve, d.rotation_ms, advance, span, depths) == (
        _plain_sptf_simulation(curve, d.rotation_ms, advance, span, depths)
    )


def test_the_kept_sptf_runs_are_the_catalog_drives_and_a_fresh_run_s_bit_for_bit() -> None:
    """`sptf.KEPT_FILE` holds exactly the runs the shipped catalog's HDDs ask for, each equal
    to a fresh simulation (`make catalog` regenerates it)."""
    shipped = json.loads(
        (resources.files("diskmodel.components") / sptf.KEPT_FILE).read_text(encoding="utf-8")
    )
    fresh = sptf.kept_means(drive.gain_simulations(INSTALLED_HDDS))
    assert json.loads(json.dumps(fresh)) == shipped


def test_a_kept_sptf_run_is_read_and_any_other_is_simulated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    d = CATALOG.installed_drive("ds8800-951", "15k-300")
    curve, rotation_ms, advance_rev = drive.gain_simulations([d])[0]
    simulated: list[float] = []
    real = sptf._simulate

    def counting(*args: Any, **kwargs: Any) -> tuple[float, ...]:
        simulated.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(sptf, "_simulate", counting)
    sptf._short_means.cache_clear()
    try:
        kept = sptf.relative_positioning(curve, rotation_ms, advance_rev, 0.3, 8)
        assert simulated == []
        other = sptf.relative_positioning(curve, rotation_ms, advance_rev + 0.25, 0.3, 8)
        assert simulated == [0.5, 0.25]  # the two span nodes around 0.3
        assert kept != other
    finally:
        sptf._short_means.cache_clear()
