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
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from diskmodel.errors import UserError
from diskmodel.tiering.heatmap import HEATMAP_COLUMNS, load_heatmap_csv

from ..support.budget import fuzz_settings
from ..support.invariants import check_user_error, no_hang

pytestmark = pytest.mark.fuzz

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


# ------------------------------------------------- heat maps as a scenario names them (policy)

SECRET = "hunter2-secret-marker"
REFERENCES = [
    "heat.csv",
    "./heat.csv",
    "sub/heat.csv",
    "sub/../heat.csv",
    "../outside/heat.csv",
    "../outside/secret.csv",
    "link-in.csv",
    "link-out.csv",
    "link-secret.csv",
    "/etc/passwd",
    "/proc/self/environ",
    "/dev/zero",
    "missing.csv",
    "sub",
    "fifo.csv",
]


@fuzz_settings(ci_examples=60)
@given(
    reference=st.one_of(
        st.sampled_from(REFERENCES),
        st.text(max_size=20),
        st.sampled_from(["heat\0.csv", "\x1b[2Jheat.csv", "heat.csv\u202e", "x" * 5000]),
    ),
    content=st.one_of(st.just(b"extent_id,small_io_count,mb\na,10,1\nb,1,1\n"), heatmap_bytes()),
    bom=st.booleans(),
    allow_outside=st.booleans(),
)
def test_a_scenario_s_heat_maps_open_or_fail_clearly(
    reference: str, content: bytes, bom: bool, allow_outside: bool
) -> None:
    import os

    from diskmodel.api import load_scenario, read_inputs

    from ..support.scenarios import VALID

    with tempfile.TemporaryDirectory() as name:
        root = Path(name)
        folder, outside = root / "mailed", root / "outside"
        (folder / "sub").mkdir(parents=True)
        outside.mkdir()
        data = (b"\xef\xbb\xbf" if bom else b"") + content
        for place in (folder / "heat.csv", folder / "sub" / "heat.csv", outside / "heat.csv"):
            place.write_bytes(data)
        (outside / "secret.csv").write_text(f"{SECRET},{SECRET},1\n", encoding="utf-8")
        (folder / "link-in.csv").symlink_to(folder / "heat.csv")
        (folder / "link-out.csv").symlink_to(outside / "heat.csv")
        (folder / "link-secret.csv").symlink_to(outside / "secret.csv")
        os.mkfifo(folder / "fifo.csv")
        scenario_file = folder / "fuzzed.yaml"
        quoted = reference.replace("\\", "\\\\").replace('"', '\\"')
        scenario_file.write_text(
            VALID + f'    skew: {{heatmap: "{quoted}"}}\n', encoding="utf-8", errors="replace"
        )
        with no_hang():
            try:
                scenario = load_scenario(scenario_file)
                found = read_inputs(scenario, scenario_file, allow_outside_heatmaps=allow_outside)
            except UserError as error:
                check_user_error(error, scenario_file)
                message = str(error)
                assert SECRET not in message
                assert "\x1b" not in message or "workloads[0].skew.heatmap" in message
                event("refused or unreadable")
                return
        event("read")
        (heat,) = found
        assert heat.extent_count >= 1
        real_folder = folder.resolve()
        if not allow_outside:
            assert real_folder in heat.path.parents
        assert not str(heat.path).startswith(("/proc", "/sys", "/dev"))
