"""Heat-map curves: CSV reading, ranking by small I/O, the co-ranked MB curve."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from diskmodel.tiering.heatmap import HeatMapError, heatmap_from_counts, load_heatmap_csv


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "heat.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_small_io_curve_ranks_extents_hottest_first(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "extent_id,small_io_count,mb\na,10,5\nb,70,5\nc,0,80\nd,20,10\n",
    )
    heat = load_heatmap_csv(path)
    assert heat.extent_count == 4
    assert heat.total_small_io == 100.0
    assert heat.small_io.capacity_fractions == (0.0, 0.25, 0.5, 0.75, 1.0)
    np.testing.assert_allclose(heat.small_io.io_fractions, [0.0, 0.7, 0.9, 1.0, 1.0])
    # MB in the same (small-I/O) order: b, d, a, c -> 5, 10, 5, 80 of 100
    np.testing.assert_allclose(heat.mb.io_fractions, [0.0, 0.05, 0.15, 0.20, 1.0])
    assert heat.small_io.is_concave
    assert not heat.mb.is_concave  # an MB curve ranked by small I/O need not be concave


def test_ties_in_small_io_are_broken_by_mb() -> None:
    heat = heatmap_from_counts([5, 5], [1, 3])
    np.testing.assert_allclose(heat.mb.io_fractions, [0.0, 0.75, 1.0])


def test_c4_like_heat_map_gives_both_curves() -> None:
    # 100 extents: 10 hot ones with 90% of the small I/O; MB spread so the hot ten carry 31%.
    counts = np.r_[np.full(10, 90.0), np.full(90, 10.0 / 9.0)]
    mb = np.r_[np.full(10, 3.1), np.full(90, 6.9 / 9.0)]
    heat = heatmap_from_counts(counts, mb)
    assert float(heat.small_io.share(0.1)) == pytest.approx(0.90)
    assert float(heat.mb.share(0.1)) == pytest.approx(0.31)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"line 1: header must be extent_id,small_io_count,mb, got an empty file"),
        ("id,count,mb\n1,2,3\n", r"line 1: header must be"),
        ("extent_id,small_io_count,mb\n1,2\n", r"line 2: expected 3 columns, got 2"),
        ("extent_id,small_io_count,mb\n1,x,3\n", r"line 2: small_io_count 'x' is not a number"),
        ("extent_id,small_io_count,mb\n1,2,-3\n", r"line 2: mb must be a non-negative number"),
        ("extent_id,small_io_count,mb\n1,2,3\n1,4,5\n", r"line 3: extent_id '1' appears twice"),
        ("extent_id,small_io_count,mb\n", r"no extents after the header"),
        ("extent_id,small_io_count,mb\n1,0,3\n", r"no small I/O at all"),
        ("extent_id,small_io_count,mb\n1,4,0\n", r"no MB transferred at all"),
    ],
)
def test_bad_heat_maps_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(HeatMapError, match=message) as err:
        load_heatmap_csv(path)
    assert str(path) in str(err.value)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(HeatMapError, match=r"cannot read heat map"):
        load_heatmap_csv(tmp_path / "absent.csv")


def test_blank_lines_and_header_case_are_tolerated(tmp_path: Path) -> None:
    path = write(tmp_path, "Extent_ID, Small_IO_Count, MB\n\n1,3,1\n2,1,1\n\n")
    assert load_heatmap_csv(path).extent_count == 2


def test_a_large_measured_map_stays_concave_despite_rounding() -> None:
    # 100,000 extents, many tied: the cumulative shares carry a few ulp of rounding, which a
    # slope-by-slope check would read as non-concave; the curve must still be accepted.
    rng = np.random.default_rng(7)
    counts = np.floor(rng.pareto(1.2, 100_000) * 10.0)
    heat = heatmap_from_counts(counts, np.ones_like(counts))
    assert heat.small_io.is_concave
    assert heatmap_from_counts(np.ones(100_000), np.ones(100_000)).small_io.is_concave
