"""A heat map too large is refused before it is parsed (issue 33 item 8): a 50 MB file of
3.24 million extents was refused only after 33 s and 1.5 GB, once parsed into Python objects;
its lines are now counted first (as `str.splitlines` breaks them, so that other line endings
cannot slip past the count), and the csv reader is never reached."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import diskmodel.tiering.heatmap as heatmap_module
from diskmodel.cli import app
from diskmodel.errors import ExitCode
from diskmodel.tiering.heatmap import MAX_HEATMAP_EXTENTS, HeatMapError, load_heatmap_csv

from ..support.budget import fuzz_settings

HEADER = "extent_id,small_io_count,mb\n"


def _not_parsed(*_: object) -> None:
    raise AssertionError("the heat map was parsed before its size was judged")


def test_a_heat_map_of_more_extents_than_a_run_reads_is_refused_before_parsing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "heat.csv"
    path.write_text(HEADER + "0,1,1\n" * (MAX_HEATMAP_EXTENTS + 1), encoding="utf-8")
    with (
        mock.patch.object(heatmap_module.csv, "reader", _not_parsed),
        pytest.raises(HeatMapError) as refused,
    ):
        load_heatmap_csv(path)
    assert str(refused.value) == (
        f"{path}: 3,000,002 lines; a heat map holds at most 3,000,000 extents (a line each "
        "after its header, 3 PB of 1 GiB extents): give the heat map of one pool"
    )


def test_the_bound_is_one_line_each_extent_after_the_header(tmp_path: Path) -> None:
    path = tmp_path / "heat.csv"
    with mock.patch.object(heatmap_module, "MAX_HEATMAP_EXTENTS", 3):
        path.write_text(HEADER + "a,1,1\nb,2,1\nc,3,1\n", encoding="utf-8")
        assert load_heatmap_csv(path).extent_count == 3
        for ending in ("\n", "\r", "\r\n", "\x1c", "\u2028"):
            path.write_text(HEADER + ending.join(["a,1,1", "b,2,1", "c,3,1", "d,4,1"]))
            with pytest.raises(HeatMapError, match="5 lines; a heat map holds at most 3"):
                load_heatmap_csv(path)


def test_check_refuses_it_in_one_message(tmp_path: Path) -> None:
    (tmp_path / "heat.csv").write_text(HEADER + "0,1,1\n" * 6, encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "schema_version: 1\nname: heat\n"
        "system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 8, "
        "da_pairs: 2}\n"
        'pools: [{name: p, easy_tier: "off", ranks: [{drive: 15k-300, raid: raid5-7+p, '
        "count: 4}]}]\n"
        "workloads: [{name: w, pool: p, iops: 100, read_fraction: 0.7, read_hit_ratio: 0.5, "
        "capacity_gb: 100, skew: {heatmap: heat.csv}}]\n",
        encoding="utf-8",
    )
    with mock.patch.object(heatmap_module, "MAX_HEATMAP_EXTENTS", 5):
        result = CliRunner().invoke(app, ["check", str(scenario)])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "workloads[0].skew.heatmap" in result.output
    assert "7 lines; a heat map holds at most 5 extents" in result.output


@pytest.mark.fuzz
@fuzz_settings(200)
@given(st.text(alphabet=st.sampled_from("a,1\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"), max_size=40))
def test_lines_are_counted_as_the_parser_splits_them(text: str) -> None:
    assert heatmap_module._line_count(text) == len(text.splitlines())
