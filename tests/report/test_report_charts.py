"""Charts: reproducible bytes, text escaped, ids unique per chart, nothing but SVG."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from diskmodel.report import charts

HOSTILE = "<script>alert(1)</script> \"q\" 'a' & $x$"


def _series(name: str, scale: float) -> charts.Series:
    x = tuple(1000.0 * i for i in range(1, 41))
    y = tuple(scale / (1 - v / 40_000.0) if v < 40_000 else math.inf for v in x)
    return charts.Series(name, x, y)


def _response_chart(key: str = "rt", name: str = "A") -> str:
    series = [_series(name, 4.0), _series("B", 5.0)]
    marker = charts.Marker(name, 25_000.0, 4.0 / (1 - 25 / 40), "10.7 ms")
    return charts.response_time_chart(key, series, [marker], 25_000.0)


def _all_charts(name: str) -> list[str]:
    bar = charts.StackedBar(name, ((name, 1.0), ("rank", 4.0)))
    group = charts.BarGroup(name, (0.5, 0.9996))
    span = charts.TierSpan("ssd", 0.0, 0.1, 0.6)
    closed = charts.Series(name, (1.0, 2.0, 4.0), (100.0, 180.0, 250.0))
    return [
        _response_chart("a", name),
        charts.stacked_bar_chart("b", [bar]),
        charts.utilization_chart("c", [group], [name, "B"]),
        charts.skew_chart("d", [0.0, 0.1, 1.0], [0.0, 0.6, 1.0], [span], title=f"skew of {name}"),
        charts.closed_system_chart("e", [closed], [closed], 4.0, "host queue depth"),
    ]


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


def test_response_axis_shows_the_knee_and_every_marked_point() -> None:
    series = [_series("A", 4.0)]
    top = charts._response_axis_top(series, [charts.Marker("A", 39_000, 160.0, "")])
    assert top >= 160.0
    top = charts._response_axis_top(series, [])
    assert top == pytest.approx(6 * 4.0 / (1 - 1 / 40), rel=1e-12)
