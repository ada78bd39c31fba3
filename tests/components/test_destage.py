"""Ordered destage (components.destage): limits, monotonicity, and the spacing law against a
seeded simulation of an address-ordered sweep."""

from __future__ import annotations

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components import destage, drive

CATALOG = load_catalog()
D15 = CATALOG.installed_drive("ds8700-941", "15k-146")


@pytest.mark.parametrize("write", [False, True])
@pytest.mark.parametrize("f", [0.2, 1.0])
def test_one_pending_destage_is_the_unordered_random_operation(write: bool, f: float) -> None:
    ordered = destage.ordered_destage_op(D15, 4096, f, 1, write)
    unordered = drive.random_op(D15, 4096, f, write)
    assert ordered.mean_s == pytest.approx(unordered.mean_s, rel=2e-3)
    assert ordered.second_moment_s2 == pytest.approx(unordered.second_moment_s2, rel=5e-3)


def test_more_pending_destages_shorten_every_destage() -> None:
    means = [destage.ordered_destage_op(D15, 4096, 1.0, k, True).mean_s for k in (1, 4, 32, 1024)]
    assert means == sorted(means, reverse=True)


def test_a_dense_sweep_costs_a_track_to_track_seek_and_half_a_turn() -> None:
    k = 100_000
    m = destage.ordered_destage_op(D15, 4096, 1.0, k, True).mean_s
    floor_s = (
        D15.controller_overhead_ms + D15.track_to_track_seek_write_ms + D15.rotation_ms / 2
    ) * 1e-3 + drive.transfer_s(D15, 4096)
    assert floor_s < m < floor_s * 1.05


def test_the_spacing_law_matches_a_seeded_sweep_simulation() -> None:
    """k pending destages and the head, k + 1 uniform points on the span: the seek to the next
    one in address order is a spacing of the sorted points. Simulated spacings against the
    Beta(1, k + 1) law the module integrates: mean seek within 1%."""
    rng = np.random.default_rng(5)
    curve = drive.seek_curve(D15, False)
    for k in (3, 20, 200):
        points = np.sort(rng.random((4000, k + 1)), axis=1)
        spacings = np.diff(points, axis=1).ravel()
        simulated = float(curve.seek_ms(spacings).mean())
        mean, _ = destage.ordered_seek_moments_ms(D15, 1.0, k, False)
        assert mean == pytest.approx(simulated, rel=0.01), k


def test_command_queueing_over_the_destage_queue_helps() -> None:
    one = destage.ordered_destage_op(D15, 4096, 1.0, 64, True, queue_depth=1).mean_s
    four = destage.ordered_destage_op(D15, 4096, 1.0, 64, True, queue_depth=4).mean_s
    assert four < one


def test_ssd_destage_is_its_random_operation() -> None:
    ssd = CATALOG.drives["ssd-300"]
    assert destage.ordered_destage_op(ssd, 4096, 1.0, 500, True) == drive.random_op(
        ssd, 4096, 1.0, True
    )


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="pending_per_drive"):
        destage.ordered_destage_op(D15, 4096, 1.0, 0.5, True)
