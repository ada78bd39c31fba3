"""Fuzzed heat-map CSV files (the second input format): a skew curve or one clear UserError.

Rows of extent ids and numbers at their edges (0, tiny, huge, negative, NaN, infinity, text,
unicode), damaged lines, repeated ids, random bytes. Whatever loads must give skew curves that
are non-decreasing from (0, 0) to (1, 1), with finite, non-negative totals.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import event, given
from hypothesis import strategies as st

from diskmodel.errors import UserError
from diskmodel.tiering.heatmap import HEATMAP_COLUMNS, load_heatmap_csv

from .budget import fuzz_settings
from .invariants import check_user_error, no_hang

cells = st.one_of(
    st.integers(min_value=-5, max_value=10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["0", "1e-300", "1e308", "1e309", "nan", "inf", "-0", "", " 7 ", "1,5", "x"]),
    st.text(max_size=8),
)
rows = st.lists(st.tuples(st.text(max_size=6), cells, cells), max_size=40)


@st.composite
def heatmap_bytes(draw: st.DrawFn) -> bytes:
    header = draw(
        st.sampled_from(
            [
                ",".join(HEATMAP_COLUMNS),
                "EXTENT_ID, small_io_count ,MB",
                "extent_id,small_io_count",
                "",
            ]
        )
    )
    lines = [header] + [",".join(row) for row in draw(rows)]
    data = "\n".join(lines).encode("utf-8")
    if draw(st.booleans()):
        at = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:at] + draw(st.binary(max_size=8)) + data[at:]
    return data


@fuzz_settings(ci_examples=100)
@given(heatmap_bytes())
def test_heat_maps_load_or_fail_clearly(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "heat.csv"
        path.write_bytes(data)
        with no_hang():
            try:
                heat = load_heatmap_csv(path)
            except UserError as error:
                check_user_error(error, path)
                event("user error")
                return
    event("loaded")
    assert heat.extent_count >= 1
    assert math.isfinite(heat.total_small_io)
    assert heat.total_small_io > 0
    assert math.isfinite(heat.total_mb)
    assert heat.total_mb > 0
    c = np.linspace(0.0, 1.0, 101)
    for curve in (heat.small_io, heat.mb):
        share = np.asarray(curve.share(c))
        assert np.all(np.isfinite(share))
        assert share[0] == 0.0
        assert abs(share[-1] - 1.0) <= 1e-12
        assert np.all(np.diff(share) >= -1e-12)
