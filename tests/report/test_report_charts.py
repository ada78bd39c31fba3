"""Charts: reproducible bytes, text escaped, ids unique per chart, nothing but SVG, no
infinity handed to Vega."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET

import pytest

from diskmodel.report import bar_charts, charts, panel_charts
from diskmodel.report.chart_marks import CHAR_EM, FONT_PX, LABEL_CHARS, LEGEND_WIDTH, legend_columns
from diskmodel.report.chart_svg import render

HOSTILE = "<script>alert(1)</script> \"q\" 'a' & $x$"


def _series(name: str, scale: float) -> charts.Series:
    x = tuple(1000.0 * i for i in range(1, 41))
    y = tuple(scale / (1 - v / 40_000.0) if v < 40_000 else math.inf for v in x)
    return charts.Series(name, x, y)


def _response_spec(name: str = "A") -> charts.ChartSpec:
    series = [_series(name, 4.0), _series("B", 5.0)]
    marker = charts.Marker(name, 25_000.0, 4.0 / (1 - 25 / 40), "10.7 ms")
    return charts.response_time_chart(series, [marker], 25_000.0)


def _response_chart(key: str = "rt", name: str = "A") -> str:
    return render(key, _response_spec(name))


def _all_specs(name: str) -> list[charts.ChartSpec]:
    bar = bar_charts.StackedBar(name, ((name, 1.0), ("rank", 4.0)))
    group = bar_charts.BarGroup(name, (0.5, 0.9996))
    span = charts.TierSpan("ssd", 0.0, 0.1, 0.6)
    closed = charts.Series(name, (1.0, 2.0, 4.0), (100.0, 180.0, 250.0))
    other = charts.Series("B", (1.0, 2.0, 4.0), (90.0, 170.0, 240.0))
    grown = [
        panel_charts.GrowthLine(name, (1.0, 2.0), (3.0, math.inf), (0.5, 1.0), (True, False)),
        panel_charts.GrowthLine("B", (1.0,), (4.0,), (0.4,), (True,)),
    ]
    return [
        _response_spec(name),
        bar_charts.stacked_bar_chart([bar]),
        bar_charts.utilization_chart([group], [name, "B"]),
        charts.skew_chart([0.0, 0.1, 1.0], [0.0, 0.6, 1.0], [span], title=f"skew of {name}"),
        panel_charts.closed_system_chart([closed, other], [closed, other], 4.0, "queue depth"),
        charts.placement_chart([1.0, 2.0], [("ssd", [0.6, 0.5]), (name, [0.4, 0.5])], 1.5),
        panel_charts.growth_chart(grown, 5.0, [(f"ceiling 70% ({name})", 0.7)]),
        charts.sweep_chart(
            [0.0, 1.0], [(name, [100.0, 200.0]), ("B", [90.0, 150.0])], 150.0, "ranks added"
        ),
        charts.sizing_chart(
            [(1.0, 2.0, True), (2.0, 1.0, False)], [(1.0, 2.0)], [(name, 1.0, 2.0)], "cost"
        ),
        bar_charts.residual_chart(["i"], [name, "B"], [[0.1, math.inf]], 0.1),
    ]


def _all_charts(name: str) -> list[str]:
    return [render(key, spec) for key, spec in zip("abcdefghij", _all_specs(name), strict=True)]


def test_same_numbers_give_the_same_bytes() -> None:
    assert _all_charts("A") == _all_charts("A")


def test_svg_is_well_formed_xml_with_a_title_and_no_prolog_or_comment() -> None:
    for svg in _all_charts("A"):
        assert svg.startswith("<svg ")
        assert "<!--" not in svg
        assert "<?xml" not in svg
        assert "<metadata" not in svg
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")
        assert root.get("role") == "img"
        assert root[0].tag.endswith("title")


def test_every_id_is_prefixed_with_the_chart_key_and_every_reference_resolves() -> None:
    svg = _response_chart("rt")
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids
    assert all(i.startswith("rt-") for i in ids)
    for ref in re.findall(r'(?:url\(#|href="#)([^")]+)', svg):
        assert ref in ids


def test_two_charts_share_no_id() -> None:
    ids = [set(re.findall(r'\bid="([^"]+)"', svg)) for svg in _all_charts("A")]
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            assert not first & second


def test_names_reach_the_svg_as_escaped_text_only() -> None:
    for svg in _all_charts(HOSTILE):
        assert "<script" not in svg
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
        # '$' is text, not TeX: the dollar signs survive.
        assert "$x$" in svg
        ET.fromstring(svg)


def test_saturated_points_are_left_out_not_drawn_at_infinity() -> None:
    svg = _response_chart()
    assert "inf" not in svg.lower().replace("info", "")
    assert "nan" not in svg.lower()
    for chart in _all_specs("A"):  # nor handed to Vega (JSON has no infinity)
        json.dumps(chart.spec, allow_nan=False)


def test_response_axis_shows_the_knee_every_marked_point_and_the_target() -> None:
    series = [_series("A", 4.0)]
    top = charts.response_axis_top(series, [charts.Marker("A", 39_000, 160.0, "")])
    assert top >= 160.0
    assert charts.response_axis_top(series, []) == pytest.approx(6 * 4.0 / (1 - 1 / 40), rel=1e-12)
    assert charts.response_axis_top(series, [], target_ms=30.0) == pytest.approx(37.5)


def test_no_drawn_line_runs_past_the_top_of_the_axis() -> None:
    """A line is drawn to its last point under the top and ends in an arrowhead there: the
    frame never cuts a curve (issue 16: "the y-axis cut a curve")."""
    series = _series("A", 4.0)
    top = charts.response_axis_top([series], [])
    x, y, cut = charts.below_top(series.x, series.y, top)
    assert cut
    assert max(y) <= top
    assert len(x) < len([v for v in series.y if math.isfinite(v)])
    assert charts.below_top((1.0, 2.0), (1.0, 2.0), 5.0) == ([1.0, 2.0], [1.0, 2.0], False)


def test_growth_axis_shows_every_finite_point() -> None:
    series = [charts.Series("A", (1.0, 1.5, 2.0), (3.0, 9.0, 40.0))]
    assert charts.response_axis_top(series, [], 5.0, stretch=math.inf) == pytest.approx(42.0)


@pytest.mark.parametrize("count", [1, 2, 4, 8])
def test_legend_columns_fit_the_chart_width(count: int) -> None:
    names = [
        f"configuration {i} with a long descriptive name (conservative sizing)"
        for i in range(count)
    ]
    columns = legend_columns(names)
    spec = charts.response_time_chart([_series(n, 4.0) for n in names], [], None).spec
    entries = [row["k"] for row in spec["layer"][-1]["data"]["values"]]
    if count > 1:
        assert len(entries) == count
        assert spec["config"]["legend"]["columns"] == columns
    assert all(len(line) <= LABEL_CHARS for entry in entries for line in entry.split("\n"))
    widest = max(len(line) for entry in entries for line in entry.split("\n"))
    assert columns * (widest * CHAR_EM * (FONT_PX - 1) + 30) <= LEGEND_WIDTH or columns == 1


def test_matplotlib_is_not_imported_with_the_report_modules() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import diskmodel.report.html, diskmodel.report.text, diskmodel.report.json_result\n"
        "print('matplotlib' in sys.modules, 'matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_drawing_a_chart_imports_no_plotting_library() -> None:
    """The charts are Vega-Lite rendered by vl-convert: matplotlib's import alone took a
    third of a run's time (issue 16, "sub-second runs")."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from diskmodel.report import panel_charts\n"
        "from diskmodel.report.chart_svg import render\n"
        "line = panel_charts.GrowthLine('A', (1.0, 2.0), (1.0, 2.0), (0.1, 0.2), (True, True))\n"
        "render('g', panel_charts.growth_chart([line], None, []))\n"
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"]


def test_a_single_line_has_no_legend_and_several_do() -> None:
    one = [_series("only", 4.0)]
    assert ">only</text>" not in render("x", charts.response_time_chart(one, [], None))
    two = [_series("first", 4.0), _series("second", 5.0)]
    svg = render("y", charts.response_time_chart(two, [], None))
    assert ">first</text>" in svg
    assert ">second</text>" in svg


def test_a_heat_map_skew_curve_is_drawn_from_at_most_400_points_ends_kept() -> None:
    from diskmodel.report.tiering_chart_views import SKEW_POINTS_DRAWN, thinned

    points = [(i / 29_999, (i / 29_999) ** 0.2) for i in range(30_000)]
    drawn = thinned(points)
    assert len(drawn) == SKEW_POINTS_DRAWN
    assert drawn[0] == points[0]
    assert drawn[-1] == points[-1]
    assert thinned(points[:10]) == points[:10]


def test_names_without_a_glyph_in_the_chart_font_draw_quietly() -> None:
    """The browser draws a chart's text with its own fonts: an emoji or CJK name is written as
    it is (matplotlib, which drew the charts once, warned 'Glyph missing from font' for
    each, an error under -W error)."""
    svg = render(
        "g", charts.response_time_chart([_series("a 💾 b", 4.0), _series("p 中文", 5.0)], [], None)
    )
    assert "a 💾 b" in svg
