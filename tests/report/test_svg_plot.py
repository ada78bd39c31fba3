"""The SVG plotting layer under the charts: ticks, tick labels, coordinates, markup."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diskmodel.report import svg_plot

RANGES = (
    st.tuples(
        st.one_of(st.just(0.0), st.floats(-1e4, 1e6)), st.floats(-4, 7).map(lambda e: 10.0**e)
    )
    .filter(lambda pair: pair[1] >= 1e-6 * max(1.0, abs(pair[0])))
    .map(lambda pair: (pair[0], pair[0] + pair[1]))
)
"""Axis limits: from 0 or anywhere, spans of 1e-4 to 1e7 (at least a millionth of the values;
a chart's axis never zooms closer)."""


@given(RANGES)
def test_ticks_are_evenly_spaced_nice_multiples_inside_the_range(
    limits: tuple[float, float],
) -> None:
    lo, hi = limits
    ticks = svg_plot.nice_ticks(lo, hi, 6)
    assert 2 <= len(ticks) <= 7
    span = hi - lo
    assert all(lo - 1e-9 * span <= t <= hi + 1e-9 * span for t in ticks)
    step = ticks[1] - ticks[0]
    assert all(math.isclose(b - a, step, rel_tol=1e-6) for a, b in itertools.pairwise(ticks))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m, rel_tol=1e-6) for m in (1, 2, 2.5, 5, 10))


@given(RANGES)
def test_ticks_are_those_matplotlib_chose(limits: tuple[float, float]) -> None:
    """The charts were drawn with matplotlib before (issue 16); its `MaxNLocator` with the
    same settings is the reference while it is installed."""
    ticker = pytest.importorskip("matplotlib.ticker")
    lo, hi = limits
    span = hi - lo
    locator = ticker.MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10])
    expected = [t for t in locator.tick_values(lo, hi) if lo - 1e-9 * span <= t <= hi + 1e-9 * span]
    got = svg_plot.nice_ticks(lo, hi, 6)
    assert len(got) == len(expected)
    assert all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9 * span)
        for a, b in zip(got, expected, strict=True)
    )


def test_tick_labels_share_the_decimals_the_step_needs() -> None:
    assert svg_plot.plain_labels([0.0, 2.0, 4.0]) == ["0", "2", "4"]
    assert svg_plot.plain_labels([0.0, 0.5, 1.0]) == ["0.0", "0.5", "1.0"]
    assert svg_plot.plain_labels([0.0, 2.5, 5.0]) == ["0.0", "2.5", "5.0"]
    assert svg_plot.plain_labels([-0.25, 0.0, 0.25]) == ["-0.25", "0.00", "0.25"]


def test_degenerate_ranges_give_no_infinite_or_empty_axis() -> None:
    assert svg_plot.nice_ticks(3.0, 3.0) == [3.0]
    assert svg_plot.nice_ticks(math.nan, 1.0) == []
    assert svg_plot.padded(2.0, 2.0) == (1.9, 2.1)
    assert svg_plot.padded(0.0, 0.0) == (-1.0, 1.0)


def test_coordinates_are_short_and_never_negative_zero() -> None:
    assert svg_plot.fmt(1.0) == "1"
    assert svg_plot.fmt(1.23456) == "1.23"
    assert svg_plot.fmt(-0.001) == "0"


def _small_chart() -> str:
    fig = svg_plot.Figure("k", 200.0, 100.0)
    ax = fig.add_axes(40.0, 10.0, 150.0, 60.0)
    ax.set_xlim(0.0, 10.0)
    ax.set_ylim(0.0, 1.0)
    style = svg_plot.LineStyle("#0072B2", marker="o")
    ax.plot([0.0, 5.0, 10.0], [0.0, 0.5, 1.0], style, label="a <b> & c")
    ax.barh([0.5], [3.0], 0.2, svg_plot.PatchStyle("#D55E00", hatch="//"), label="bars")
    ax.annotate("x\ny", (5.0, 0.5), (4, 4))
    ax.set_xticks(svg_plot.nice_ticks(0.0, 10.0))
    ax.set_yticks([0.0, 1.0], ["none", "all"])
    ax.set_xlabel("rate")
    ax.set_ylabel("share")
    fig.legend(ax.legend_entries, 2, bottom=2.0)
    return fig.svg("title & more")


def test_a_figure_is_one_well_formed_svg_with_its_text_escaped_and_its_ids_its_own() -> None:
    svg = _small_chart()
    root = ET.fromstring(svg)
    assert root[0].tag.endswith("title")
    assert root[0].text == "title & more"
    assert "a &lt;b&gt; &amp; c" in svg
    assert 'clip-path="url(#k-clip1)"' in svg
    assert 'id="k-clip1"' in svg
    assert 'fill="url(#k-hatch2)"' in svg
    assert 'id="k-hatch2"' in svg
    assert svg == _small_chart()


def test_values_that_are_not_finite_are_left_out_never_written() -> None:
    """A saturated point has no response time: nothing drawn at infinity, no 'nan' in the
    markup, and the line breaks there instead of joining across."""
    fig = svg_plot.Figure("n", 200.0, 100.0)
    ax = fig.add_axes(40.0, 10.0, 150.0, 60.0)
    ax.set_xlim(0.0, math.inf)
    ax.set_ylim(math.nan, 1.0)
    bad = [0.0, math.nan, 2.0, math.inf, 4.0, 5.0]
    ax.plot([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], bad, svg_plot.LineStyle("#000000", marker="s"))
    ax.fill_between([0.0, 1.0, 2.0], [0.0, math.nan, 0.1], [1.0, 1.0, math.inf], _FILL)
    ax.barh([0.5, math.nan], [math.inf, 1.0], 0.2, _FILL)
    ax.axvline(math.nan, svg_plot.LineStyle("#000000"))
    ax.axhline(math.inf, svg_plot.LineStyle("#000000"))
    ax.annotate("x", (math.nan, 1.0))
    svg = fig.svg("t").lower()
    assert "nan" not in svg
    assert "inf" not in svg
    (line,) = [p for p in ET.fromstring(svg).iter() if p.get("stroke-linejoin") == "round"]
    assert line.get("d", "").count("m") == 1  # the one run of finite points: 4 to 5


_FILL = svg_plot.PatchStyle("#0072B2", alpha=0.2)
