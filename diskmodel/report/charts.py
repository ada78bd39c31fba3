"""Charts of a sizing report, drawn with matplotlib as inline SVG: plain numbers in, SVG text out.

Why matplotlib and SVG: the report must open with no network and print legibly, so a chart
cannot need JavaScript or a CDN (Plotly, Vega and Bokeh all do, and embed megabytes of script
to work offline). matplotlib is the long-maintained standard for scientific plots, its SVG is
vector (sharp on paper at any size), and its output is reproducible: with a fixed
`svg.hashsalt`, no date in the metadata and text written as `<text>` (not glyph paths), the same
numbers give the same bytes, and the text stays selectable and searchable in the page.

Paying only for what is drawn: matplotlib is imported on the first chart, not with this
module (a terminal run or a JSON export never loads it); no pyplot (no global figure state, no
backend selection, no GUI toolkit probed); each figure gets the SVG canvas directly
(`FigureCanvasSVG`), so `savefig` switches no canvas; and the report's rc settings are applied
once for all the charts of a page (`drawing()`), not once per chart.

Layout is fixed, not solved: every chart has its margins in inches, its legend under the plot
in as many columns as fit the width (long names wrapped), so nothing is clipped at either
edge and no layout engine redraws the figure to measure it.

Every function here takes plain numbers and names (never a `Prediction`) and returns an
`<svg>` element ready to be placed in HTML: XML prolog, metadata and comments removed, every
`id` prefixed with the chart's key so that several charts in one page never share an id.
Names from the scenario reach the SVG as text only: matplotlib escapes `<`, `>` and `&`, and
math parsing (`$...$`) is switched off.
"""

from __future__ import annotations

import contextlib
import functools
import html
import io
import math
import re
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec

from diskmodel.report import display

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WARN_UTILIZATION = 0.70
"""Utilisation above which a component is flagged: queueing delay grows quickly past it."""

CRITICAL_UTILIZATION = 0.90
"""Utilisation above which a component is near saturation: queueing dominates its response."""

# Okabe-Ito: distinguishable with every common form of colour blindness; each series also
# gets its own marker and line style so that a black-and-white print still tells them apart.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":", "-", "--", "-.", ":")
TIER_COLOURS = {"ssd": "#009E73", "enterprise": "#0072B2", "nearline": "#E69F00"}
WARN_COLOUR = "#E69F00"
CRITICAL_COLOUR = "#D55E00"
TARGET_COLOUR = "#555555"

_RC: dict[str, Any] = {
    "svg.hashsalt": "diskmodel-report",  # clip-path and marker ids from content, not random
    "svg.fonttype": "none",  # text as <text>: selectable, small, fonts from the browser
    "text.parse_math": False,  # a '$' in a workload's name is a dollar sign, not TeX
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Liberation Sans", "Arial"],
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.frameon": False,
    "path.simplify": False,  # keep every computed point: simplification depends on the renderer
}

P = ParamSpec("P")

WIDTH_IN = 7.2
"""Chart width in inches: fits an A4 or Letter page with margins, so printing does not scale it."""

FONT_PT = 9.0
LEGEND_PT = 8.0
LEFT_IN = 0.75
"""Room left of the plot for tick labels and the axis label (bar charts measure their labels)."""
RIGHT_IN = 0.3
TOP_IN = 0.25
AXIS_LABEL_IN = 0.5
"""Room under the plot for tick labels and the x-axis label."""
LEGEND_ROW_IN = 0.2
CHAR_WIDTH_EM = 0.6
"""Width of an average character of DejaVu Sans in ems: used to size legends and label margins
(generous, so an estimate errs towards more room, never towards clipping)."""
TICK_BINS = 6
"""Major ticks per axis, at most (plus one)."""
LABEL_CHARS = 60
"""Legend entries and bar labels longer than this wrap onto further lines."""


@dataclass(frozen=True)
class Series:
    """One named line: x and y of equal length (y may hold inf past saturation)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]


@dataclass(frozen=True)
class Band:
    """A shaded range around the first line: at each x the optimistic (low) and pessimistic
    (high) response time, inf where that end saturates."""

    x: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Marker:
    """One point to mark on a line chart, with a short label (e.g. the planned load)."""

    series: str
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class StackedBar:
    """One horizontal bar made of named parts (e.g. a response time split by component, ms)."""

    label: str
    parts: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class BarGroup:
    """One component's utilisation (0..1) in each alternative, in the order of `alternatives`."""

    label: str
    values: tuple[float | None, ...]


@dataclass(frozen=True)
class TierSpan:
    """The capacity fractions [start, end) of a pool that one tier holds, and its share of I/O."""

    tier: str
    start_fraction: float
    end_fraction: float
    io_share: float


# --------------------------------------------------------------------------- drawing session


@functools.cache
def _matplotlib() -> Any:
    """matplotlib, imported on first use (about half a second): nothing else imports it."""
    import matplotlib

    return matplotlib


_depth = 0


@contextlib.contextmanager
def drawing() -> Iterator[None]:
    """The report's matplotlib settings, applied once for every chart drawn inside.

    Charts may be drawn outside it too (each then applies the settings itself)."""
    global _depth
    if _depth:
        yield
        return
    import warnings

    matplotlib = _matplotlib()
    with matplotlib.rc_context(_RC), warnings.catch_warnings():
        # Text is written as <text> (svg.fonttype none) and drawn by the browser, which has
        # the glyphs; matplotlib's layout font lacks emoji and CJK and would warn for every
        # such name (found by fuzzing: a warning on stderr, an error under -W error).
        warnings.filterwarnings("ignore", r"Glyph \d+ .*missing from font", UserWarning)
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1


def _styled(chart: Callable[P, str]) -> Callable[P, str]:
    """Draw the chart inside `drawing()` (a no-op when a page's session is already open)."""

    @functools.wraps(chart)
    def draw(*args: P.args, **kwargs: P.kwargs) -> str:
        with drawing():
            return chart(*args, **kwargs)

    return draw


# --------------------------------------------------------------------------- charts


@_styled
def response_time_chart(
    key: str,
    series: Sequence[Series],
    markers: Sequence[Marker],
    planned_iops: float | None,
    x_label: str = "host I/O rate (IOPS)",
    target_ms: float | None = None,
    band: Band | None = None,
) -> str:
    """Response time (ms) against I/O rate, one line per alternative, the planned load marked.

    The y axis stops where the curves turn steep (`response_axis_top`): past the knee the
    response time tells nothing but "saturating", and an axis stretched to it would flatten the
    part a planner reads. A line is drawn only up to its last point under the top and ends
    there in an upward arrowhead: no line is cut by the frame. `target_ms`, the service level's
    response-time target, is a horizontal dashed line. `band`, shaded in the first line's
    colour, is the range of the inputs given as ranges (cut at the top like the lines).
    """
    top = response_axis_top(series, markers, target_ms)
    legend = _Legend(_names(series))
    fig, ax = _figure(3.0, legend)
    if band is not None and band.x:
        low = [min(v, top) for v in band.low]
        high = [min(v, top) for v in band.high]
        ax.fill_between(band.x, low, high, color=_colour(0), alpha=0.15, linewidth=0)
    for i, s in enumerate(series):
        x, y, cut = _below(s.x, s.y, top)
        ax.plot(x, y, label=_wrap(s.name), **_style(i), markersize=3.5, markevery=_every(len(x)))
        if cut and x:
            ax.plot([x[-1]], [y[-1]], marker="^", markersize=7, color=_colour(i), linestyle="")
    crowded = len({m.x for m in markers}) < len(markers)  # labels would overlap: leave them
    # Markers are drawn inside the lines' x range; a label near its right end goes to the left
    # of its marker (a closed system's line ends at its operating point).
    right = max((m.x for m in markers if math.isfinite(m.x)), default=0.0)
    right = max(right, *(max(s.x, default=0.0) for s in series), 0.0)
    for m in markers:
        i = _index_of(series, m.series)
        if math.isfinite(m.y) and m.y <= top:
            ax.plot(
                [m.x],
                [m.y],
                marker="o",
                markersize=7,
                color=_colour(i),
                zorder=5,
                markerfacecolor="white",
                markeredgewidth=2,
            )
            if crowded:
                continue
            near_end = right > 0 and m.x > 0.85 * right
            ax.annotate(
                m.label,
                (m.x, m.y),
                textcoords="offset points",
                xytext=(-6, -12) if near_end else (6, -12),
                ha="right" if near_end else "left",
                fontsize=8,
                color=_colour(i),
            )
    if target_ms is not None and target_ms <= top:
        ax.axhline(target_ms, color=TARGET_COLOUR, linestyle=(0, (2, 2)), linewidth=0.9)
        ax.annotate(
            f"target {display.number(target_ms)} ms",
            (0.0, target_ms),
            xycoords=("axes fraction", "data"),
            xytext=(4, 3),
            textcoords="offset points",
            fontsize=8,
            color=TARGET_COLOUR,
        )
    if planned_iops is not None:
        ax.axvline(planned_iops, color=TARGET_COLOUR, linestyle=(0, (4, 3)), linewidth=1)
        ax.annotate(
            f"planned load {display.rate(planned_iops)} IOPS",
            (planned_iops, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(4, -12),
            textcoords="offset points",
            fontsize=8,
            color="#333333",
        )
    ax.set_xlim(left=0)
    ax.set_ylim(0, top)
    ax.set_xlabel(x_label)
    ax.set_ylabel("response time (ms)")
    _thousands(ax.xaxis)
    _few_ticks(ax.yaxis)
    legend.place(fig, ax)
    return _svg(fig, key, "Response time against I/O rate")


@_styled
def stacked_bar_chart(
    key: str, bars: Sequence[StackedBar], unit: str = "ms", title: str = ""
) -> str:
    """Horizontal stacked bars, one per label, each part a component's share of the total."""
    import numpy as np

    parts = _ordered_part_names(bars)
    legend = _Legend(parts)
    labels = [_wrap(b.label, 34) for b in bars]
    fig, ax = _figure(0.34 * len(bars) + 0.2, legend, left_in=_label_width_in(labels))
    y = np.arange(len(bars))[::-1]  # the first bar on top, as a table reads
    left = np.zeros(len(bars))
    for j, part in enumerate(parts):
        widths = np.array([dict(b.parts).get(part, 0.0) for b in bars])
        ax.barh(
            y,
            widths,
            left=left,
            height=0.62,
            label=part,
            color=_colour(j),
            hatch=_hatch(j),
            edgecolor="white",
            linewidth=0.5,
        )
        left += widths
    for yi, total in zip(y, left, strict=True):
        ax.annotate(
            f"{display.milliseconds(float(total))} {unit}",
            (float(total), float(yi)),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(bars) - 0.4)
    ax.set_xlim(0, float(left.max()) * 1.22 if len(left) and left.max() > 0 else 1.0)
    ax.set_xlabel(f"response time ({unit})")
    _few_ticks(ax.xaxis)
    ax.grid(axis="y", visible=False)
    legend.place(fig, ax)
    return _svg(fig, key, title or "Response time by component")


@_styled
def utilization_chart(key: str, groups: Sequence[BarGroup], alternatives: Sequence[str]) -> str:
    """Utilisation of every component as horizontal bars, alternatives side by side, with the
    70% and 90% thresholds drawn and each bar's value written at its end."""
    import numpy as np

    n_alt = max(1, len(alternatives))
    band = 0.8 / n_alt
    legend = _Legend(list(alternatives) if n_alt > 1 else [])
    labels = [_wrap(g.label, 34) for g in groups]
    fig, ax = _figure(
        len(groups) * (0.12 + 0.14 * n_alt) + 0.2, legend, left_in=_label_width_in(labels)
    )
    y = np.arange(len(groups))[::-1].astype(float)
    for a, name in enumerate(alternatives):
        values = [g.values[a] if a < len(g.values) else None for g in groups]
        offsets = y + 0.4 - band * (a + 0.5)
        shown = [(off, v) for off, v in zip(offsets, values, strict=True) if v is not None]
        if not shown:
            continue
        ax.barh(
            [o for o, _ in shown],
            [v for _, v in shown],
            height=band * 0.9,
            color=_colour(a),
            hatch=_hatch(a),
            edgecolor="white",
            linewidth=0.5,
            label=_wrap(name) if n_alt > 1 else None,
        )
        for off, v in shown:
            ax.annotate(
                display.percent(v),
                (v, off),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=7,
            )
    for threshold, colour in (
        (WARN_UTILIZATION, WARN_COLOUR),
        (CRITICAL_UTILIZATION, CRITICAL_COLOUR),
    ):
        ax.axvline(threshold, color=colour, linestyle="--", linewidth=1.1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.55, len(groups) - 0.45)
    ax.set_xlim(0, 1.12)
    ax.set_xticks([0, 0.25, 0.5, 0.7, 0.9, 1.0])
    ax.set_xticklabels(["0%", "25%", "50%", "70%", "90%", "100%"])
    ax.get_xticklabels()[3].set_color(WARN_COLOUR)
    ax.get_xticklabels()[4].set_color(CRITICAL_COLOUR)
    ax.set_xlabel("utilisation at the planned load")
    ax.grid(axis="y", visible=False)
    legend.place(fig, ax)
    return _svg(fig, key, "Utilisation of each component")


@_styled
def skew_chart(
    key: str,
    curve_c: Sequence[float],
    curve_f: Sequence[float],
    spans: Sequence[TierSpan],
    title: str = "",
) -> str:
    """The skew curve F(c) (I/O share of the hottest capacity fraction c) with each tier's
    capacity as a shaded band labelled with the tier's share of the I/O."""
    labels = [
        f"{span.tier}: {display.percent(span.end_fraction - span.start_fraction)} of the data, "
        f"{display.percent(span.io_share)} of the I/O"
        for span in spans
    ]
    legend = _Legend([*labels, "skew curve F(c)", "no skew"])
    fig, ax = _figure(2.4, legend)
    for span, label in zip(spans, labels, strict=True):
        colour = TIER_COLOURS.get(span.tier, "#999999")
        ax.axvspan(
            span.start_fraction,
            span.end_fraction,
            color=colour,
            alpha=0.18,
            linewidth=0,
            label=label,
        )
        ax.axvline(span.end_fraction, color=colour, linestyle=":", linewidth=1)
    ax.plot(curve_c, curve_f, color="#000000", linewidth=1.6, label="skew curve F(c)")
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", linewidth=0.8, label="no skew")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    _percent(ax.xaxis)
    _percent(ax.yaxis)
    ax.set_xlabel("hottest fraction of the data")
    ax.set_ylabel("fraction of the back-end I/O")
    legend.place(fig, ax)
    return _svg(fig, key, title or "Easy Tier skew curve and tier capacities")


@_styled
def placement_chart(
    key: str,
    x: Sequence[float],
    shares: Sequence[tuple[str, Sequence[float]]],
    planned_iops: float | None,
    title: str = "",
) -> str:
    """Each tier's share of the pool's small random back-end I/O (0..1) against the host I/O
    rate: how Easy Tier's placement moves as the load grows. One line per tier."""
    legend = _Legend([tier for tier, _ in shares])
    fig, ax = _figure(2.2, legend)
    for i, (tier, values) in enumerate(shares):
        ax.plot(
            list(x),
            list(values),
            label=tier,
            color=TIER_COLOURS.get(tier, _colour(i)),
            marker=MARKERS[i % len(MARKERS)],
            linestyle=LINESTYLES[i % len(LINESTYLES)],
            linewidth=1.6,
            markersize=3.5,
            markevery=_every(len(x)),
        )
    if planned_iops is not None:
        ax.axvline(planned_iops, color=TARGET_COLOUR, linestyle=(0, (4, 3)), linewidth=1)
        ax.annotate(
            f"planned load {display.rate(planned_iops)} IOPS",
            (planned_iops, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(4, -12),
            textcoords="offset points",
            fontsize=8,
            color="#333333",
        )
    ax.set_xlim(left=0)
    ax.set_ylim(0, 1.02)
    _percent(ax.yaxis)
    _thousands(ax.xaxis)
    ax.set_xlabel("host I/O rate (IOPS)")
    ax.set_ylabel("share of small back-end I/O")
    legend.place(fig, ax)
    return _svg(fig, key, title or "Easy Tier placement against load")


@_styled
def closed_system_chart(
    key: str,
    throughput: Sequence[Series],
    response: Sequence[Series],
    planned_population: float | None,
    population_label: str,
    y_labels: tuple[str, str] = ("throughput (IOPS)", "response time (ms)"),
    title: str = "Throughput and response time",
) -> str:
    """Throughput and response time against the number of users or the queue depth, side by
    side, one line per alternative, the planned population marked (an application's:
    transactions per second and transaction response time, `y_labels`)."""
    legend = _Legend(_names(throughput))
    fig = _new_figure(WIDTH_IN, 2.7 + legend.height_in())
    bottom = (AXIS_LABEL_IN + legend.height_in()) / fig.get_figheight()
    top = 1 - TOP_IN / fig.get_figheight()
    left, right = fig.subplots(1, 2)
    fig.subplots_adjust(left=0.13, right=0.98, wspace=0.3, bottom=bottom, top=top)
    for ax, lines, y_label in ((left, throughput, y_labels[0]), (right, response, y_labels[1])):
        for i, s in enumerate(lines):
            x, y = _finite(s.x, s.y)
            ax.plot(x, y, label=_wrap(s.name), **_style(i), markersize=3, markevery=_every(len(x)))
        if planned_population is not None:
            ax.axvline(planned_population, color=TARGET_COLOUR, linestyle=(0, (4, 3)), lw=1)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.set_xlabel(population_label)
        ax.set_ylabel(y_label)
        _thousands(ax.xaxis)
    _thousands(left.yaxis)
    _few_ticks(right.yaxis)
    legend.place(fig, left)
    return _svg(fig, key, f"{title} against {population_label}")


@_styled
def growth_chart(
    key: str,
    series: Sequence[Series],
    saturated: Sequence[tuple[str, float]],
    target_ms: float | None,
    x_label: str = "load factor (× the planned load)",
) -> str:
    """Response time against growth factor, one line per configuration; a factor at which a
    configuration is saturated is a cross on the top edge (there is no response time)."""
    top = response_axis_top(series, [], target_ms, stretch=math.inf)
    legend = _Legend(_names(series))
    fig, ax = _figure(2.6, legend)
    for i, s in enumerate(series):
        x, y, _cut = _below(s.x, s.y, top)
        ax.plot(x, y, label=_wrap(s.name), **_style(i), markersize=4.5)
        over = [xi for xi, yi in zip(s.x, s.y, strict=True) if math.isfinite(yi) and yi > top] + [
            factor for name, factor in saturated if name == s.name
        ]
        if over:
            # one row of crosses per line, from the top edge down, so that none hides another
            ax.plot(
                over,
                [top * (1 - 0.035 * i)] * len(over),
                marker="x",
                markersize=7,
                markeredgewidth=2,
                color=_colour(i),
                linestyle="",
                clip_on=False,
            )
    if target_ms is not None and target_ms <= top:
        ax.axhline(target_ms, color=TARGET_COLOUR, linestyle=(0, (2, 2)), linewidth=0.9)
        ax.annotate(
            f"target {display.number(target_ms)} ms",
            (0.0, target_ms),
            xycoords=("axes fraction", "data"),
            xytext=(4, 3),
            textcoords="offset points",
            fontsize=8,
            color=TARGET_COLOUR,
        )
    ax.set_ylim(0, top)
    ax.set_xlabel(x_label)
    ax.set_ylabel("response time (ms)")
    _few_ticks(ax.yaxis)
    ax.set_xticks(sorted({x for s in series for x in s.x}))
    ax.xaxis.set_major_formatter(_formatter(lambda v: f"{v:g}×"))
    legend.place(fig, ax)
    return _svg(fig, key, "Response time as the load grows")


@_styled
def sweep_chart(
    key: str,
    added: Sequence[float],
    lines: Sequence[tuple[str, Sequence[float]]],
    planned_iops: float | None,
    x_label: str,
) -> str:
    """Maximum rates (to saturation, to the service level) against the number of ranks added;
    the planned load as a horizontal dashed line."""
    legend = _Legend([name for name, _ in lines])
    fig, ax = _figure(2.6, legend)
    for i, (name, values) in enumerate(lines):
        ax.plot(list(added), list(values), label=_wrap(name), **_style(i), markersize=4.5)
    if planned_iops is not None:
        ax.axhline(planned_iops, color=TARGET_COLOUR, linestyle=(0, (4, 3)), linewidth=1)
        ax.annotate(
            f"planned load {display.rate(planned_iops)} IOPS",
            (0.0, planned_iops),
            xycoords=("axes fraction", "data"),
            xytext=(4, 3),
            textcoords="offset points",
            fontsize=8,
            color="#333333",
        )
    ax.set_ylim(bottom=0)
    ax.set_xticks(list(added))
    ax.xaxis.set_major_formatter(_formatter(lambda v: f"+{v:g}"))
    _thousands(ax.yaxis)
    ax.set_xlabel(x_label)
    ax.set_ylabel("host I/O rate (IOPS)")
    legend.place(fig, ax)
    return _svg(fig, key, "Maximum I/O rate as ranks are added")


@_styled
def sizing_chart(
    key: str,
    points: Sequence[tuple[float, float, bool]],
    front: Sequence[tuple[float, float]],
    marked: Sequence[tuple[str, float, float]],
    cost_label: str,
) -> str:
    """Every configuration tried as a point (cost, response time now; filled where it meets
    the service level through the last period), the Pareto front as a line, and the named
    configurations (current, cheapest) ringed and labelled."""
    legend = _Legend(["meets the service level", "does not", "Pareto front"])
    fig, ax = _figure(2.8, legend)
    meets = [(x, y) for x, y, ok in points if ok]
    fails = [(x, y) for x, y, ok in points if not ok]
    if meets:
        ax.plot(
            *zip(*meets, strict=True),
            "o",
            color=_colour(0),
            markersize=4.5,
            label="meets the service level",
        )
    if fails:
        ax.plot(*zip(*fails, strict=True), "x", color=_colour(1), markersize=5, label="does not")
    if front:
        ax.plot(*zip(*front, strict=True), color=_colour(2), linewidth=1.2, label="Pareto front")
    right = max((x for x, _, _ in points), default=1.0)
    for name, x, y in marked:
        ax.plot([x], [y], "o", markersize=9, markerfacecolor="none", color="#333333")
        near_end = x > 0.85 * right
        ax.annotate(
            name,
            (x, y),
            textcoords="offset points",
            xytext=(-7, 5) if near_end else (7, 5),
            ha="right" if near_end else "left",
            fontsize=8,
            color="#333333",
        )
    ax.set_ylim(bottom=0)
    _thousands(ax.xaxis)
    _few_ticks(ax.yaxis)
    ax.set_xlabel(cost_label)
    ax.set_ylabel("response time now (ms)")
    legend.place(fig, ax)
    return _svg(fig, key, "Cost against response time of every configuration tried")


# --------------------------------------------------------------------------- layout


class _Legend:
    """A legend under the plot: as many columns as fit the chart's width, names wrapped."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = [_wrap(label) for label in labels]
        widest = max((_text_width_in(label) for label in self.labels), default=0.0)
        # Each entry: handle (2.6 em), pad (0.8 em), text, column spacing (2 em).
        entry_in = widest + 5.4 * LEGEND_PT / 72
        usable = WIDTH_IN - 0.2
        self.columns = max(1, min(len(self.labels), int(usable // entry_in) if entry_in else 1))
        lines_per_entry = max((label.count("\n") + 1 for label in self.labels), default=1)
        self.rows = math.ceil(len(self.labels) / self.columns) if self.labels else 0
        self.lines = self.rows * lines_per_entry

    def height_in(self) -> float:
        return LEGEND_ROW_IN * self.lines + (0.12 if self.lines else 0.0)

    def place(self, fig: Figure, ax: Axes) -> None:
        if not self.labels:
            return
        handles, labels = ax.get_legend_handles_labels()
        if not handles:
            return
        fig.legend(
            handles,
            labels,
            loc="lower center",
            bbox_to_anchor=(0.5, 0.02),
            ncol=self.columns,
            fontsize=LEGEND_PT,
            handlelength=2.6,
            borderaxespad=0.0,
        )


def _names(series: Sequence[Series]) -> list[str]:
    """Legend entries of a line chart: none for a single line (the caption names it)."""
    return [s.name for s in series] if len(series) > 1 else []


def _new_figure(width_in: float, height_in: float) -> Figure:
    """A figure on the SVG canvas directly: no pyplot, no backend switch at save."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in))
    FigureCanvasSVG(fig)
    return fig


def _figure(plot_in: float, legend: _Legend, left_in: float = LEFT_IN) -> tuple[Figure, Axes]:
    """A figure whose plot area is `plot_in` high, with fixed room for labels and legend."""
    height = TOP_IN + plot_in + AXIS_LABEL_IN + legend.height_in()
    fig = _new_figure(WIDTH_IN, height)
    ax = fig.add_axes(
        (
            left_in / WIDTH_IN,
            (AXIS_LABEL_IN + legend.height_in()) / height,
            (WIDTH_IN - left_in - RIGHT_IN) / WIDTH_IN,
            plot_in / height,
        )
    )
    return fig, ax


def _text_width_in(text: str, size_pt: float = LEGEND_PT) -> float:
    longest = max((len(line) for line in text.split("\n")), default=0)
    return longest * CHAR_WIDTH_EM * size_pt / 72


def _label_width_in(labels: Sequence[str]) -> float:
    """Room left of a bar chart for its labels (tick labels at the font size), at least
    the default."""
    return max(LEFT_IN, 0.25 + max((_text_width_in(t, FONT_PT) for t in labels), default=0.0))


def _wrap(text: str, width: int = LABEL_CHARS) -> str:
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


def _formatter(show: Callable[[float], str]) -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _pos: show(v))


def _few_ticks(axis: Any, bins: int = TICK_BINS) -> None:
    """At most `bins` + 1 major ticks: each tick is a handful of artists to build and draw,
    and a planner reads a rate or a time off six ticks as well as off ten."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(nbins=bins, steps=[1, 2, 2.5, 5, 10]))


def _thousands(axis: Any) -> None:
    _few_ticks(axis)
    axis.set_major_formatter(_formatter(lambda v: f"{v:,.0f}" if abs(v) >= 10 else f"{v:g}"))


def _percent(axis: Any) -> None:
    axis.set_ticks([0.0, 0.25, 0.5, 0.75, 1.0])
    axis.set_major_formatter(_formatter(lambda v: f"{100 * v:.0f}%"))


def _style(i: int) -> dict[str, Any]:
    return {
        "color": _colour(i),
        "marker": MARKERS[i % len(MARKERS)],
        "linestyle": LINESTYLES[i % len(LINESTYLES)],
        "linewidth": 1.6,
    }


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _hatch(i: int) -> str | None:
    # Hatching from the third part on, so that adjacent parts differ in print without colour.
    return (None, None, "//", "..", "xx", "\\\\", "++", "--")[i % 8]


def _ordered_part_names(bars: Sequence[StackedBar]) -> list[str]:
    """Every part name in first-seen order, so the colours follow the path of an I/O."""
    names: list[str] = []
    for bar in bars:
        for name, _ in bar.parts:
            if name not in names:
                names.append(name)
    return names


def _every(n: int) -> int:
    return max(1, n // 12)


def _index_of(series: Sequence[Series], name: str) -> int:
    for i, s in enumerate(series):
        if s.name == name:
            return i
    return 0


def _finite(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    """The points where both coordinates are finite (a saturated point has no response time)."""
    pairs = [(a, b) for a, b in zip(x, y, strict=True) if math.isfinite(a) and math.isfinite(b)]
    return [a for a, _ in pairs], [b for _, b in pairs]


def _below(
    x: Sequence[float], y: Sequence[float], top: float
) -> tuple[list[float], list[float], bool]:
    """The finite points of a line up to its first point above `top` (excluded), and whether
    the line was cut there (it goes on rising towards saturation)."""
    xs: list[float] = []
    ys: list[float] = []
    for a, b in zip(x, y, strict=True):
        if not (math.isfinite(a) and math.isfinite(b)):
            continue
        if b > top:
            return xs, ys, True
        xs.append(a)
        ys.append(b)
    return xs, ys, False


def response_axis_top(
    series: Sequence[Series],
    markers: Sequence[Marker],
    target_ms: float | None = None,
    stretch: float = 6.0,
) -> float:
    """Top of a response-time axis: `stretch` times the lightest-load response time of the
    fastest alternative, raised to show every marked point and the target, never above the
    largest finite value (5% above it, so that the highest point is not on the frame).

    Six times the no-load response time is where an M/M/1-like curve is at 83% utilisation,
    well past the knee a planner needs to see; a line that rises past it ends in an arrowhead.
    """
    finite = [v for s in series for v in s.y if math.isfinite(v) and v > 0]
    if not finite:
        return max(1.0, 1.25 * target_ms) if target_ms else 1.0
    lightest = min(
        min((v for v in s.y if math.isfinite(v) and v > 0), default=math.inf) for s in series
    )
    top = stretch * lightest
    marked = [m.y for m in markers if math.isfinite(m.y)]
    if marked:
        top = max(top, 1.4 * max(marked))
    if target_ms is not None:
        top = max(top, 1.25 * target_ms)
    return min(top, 1.05 * max(finite))


_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_COMMENT = re.compile(r"\s*<!--.*?-->", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|xlink:href="#|href="#)([^")]+)')


def _svg(fig: Figure, key: str, title: str) -> str:
    """Render `fig` to an `<svg>` element for inline HTML, reproducibly (see module docstring)."""
    buffer = io.StringIO()
    fig.canvas.print_figure(buffer, format="svg", metadata={"Date": None, "Creator": None})
    svg = buffer.getvalue()
    svg = _PROLOG.sub("", svg, count=1)
    svg = _METADATA.sub("", svg)
    svg = _COMMENT.sub("", svg)  # matplotlib repeats each text in a comment; keep one copy
    svg = _ID.sub(lambda m: f'id="{key}-{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{key}-{m.group(2)}", svg)
    title_xml = html.escape(title, quote=True)
    return (
        svg.replace("<svg ", f'<svg role="img" aria-label="{title_xml}" class="chart-svg" ', 1)
        .replace(">", f"><title>{title_xml}</title>", 1)
        .strip()
    )
