"""Charts of a sizing report, drawn with matplotlib as inline SVG: plain numbers in, SVG text out.

Why matplotlib and SVG: the report must open with no network and print legibly, so a chart
cannot need JavaScript or a CDN (Plotly, Vega and Bokeh all do, and embed megabytes of script
to work offline). matplotlib is the long-maintained standard for scientific plots, its SVG is
vector (sharp on paper at any size), and its output is reproducible: with a fixed
`svg.hashsalt`, no date in the metadata and text written as `<text>` (not glyph paths), the same
numbers give the same bytes, and the text stays selectable and searchable in the page.

Every function here takes plain numbers and names (never a `Prediction`), builds its own
`Figure` (no pyplot, so no global figure state) and returns an `<svg>` element ready to be
placed in HTML: XML prolog, metadata and comments removed, every `id` prefixed with the chart's
key so that several charts in one page never share an id. Names from the scenario reach the SVG
as text only: matplotlib escapes `<`, `>` and `&`, and math parsing (`$...$`) is switched off.
"""

from __future__ import annotations

import functools
import html
import io
import math
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter
from matplotlib.typing import RcKeyType

from diskmodel.report import display

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

_RC: dict[RcKeyType, Any] = {
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


@dataclass(frozen=True)
class Series:
    """One named line: x and y of equal length (y may hold inf past saturation)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]


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


# --------------------------------------------------------------------------- charts


def _styled(chart: Callable[P, str]) -> Callable[P, str]:
    """Build the whole figure under the report's rc settings (they are read at creation)."""

    @functools.wraps(chart)
    def draw(*args: P.args, **kwargs: P.kwargs) -> str:
        with matplotlib.rc_context(_RC), warnings.catch_warnings():
            # Text is written as <text> (svg.fonttype none) and drawn by the browser, which has
            # the glyphs; matplotlib's layout font lacks emoji and CJK and would warn for every
            # such name (found by fuzzing: a warning on stderr, an error under -W error).
            warnings.filterwarnings("ignore", r"Glyph \d+ .*missing from font", UserWarning)
            return chart(*args, **kwargs)

    return draw


@_styled
def response_time_chart(
    key: str,
    series: Sequence[Series],
    markers: Sequence[Marker],
    planned_iops: float | None,
    x_label: str = "host I/O rate (IOPS)",
) -> str:
    """Response time (ms) against I/O rate, one line per alternative, the planned load marked.

    The y axis stops where the curves turn vertical (see `_response_axis_top`): past the knee
    the response time tells nothing but "saturated", and an axis stretched to it would flatten
    the part of the curve a planner reads.
    """
    fig, ax = _figure(3.6)
    for i, s in enumerate(series):
        x, y = _finite(s.x, s.y)
        ax.plot(x, y, label=s.name, **_style(i), markersize=3.5, markevery=_every(len(x)))
    for m in markers:
        i = _index_of(series, m.series)
        if math.isfinite(m.y):
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
            ax.annotate(
                m.label,
                (m.x, m.y),
                textcoords="offset points",
                xytext=(6, 6),
                fontsize=8,
                color=_colour(i),
            )
    if planned_iops is not None:
        ax.axvline(planned_iops, color="#555555", linestyle=(0, (4, 3)), linewidth=1)
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
    ax.set_ylim(0, _response_axis_top(series, markers))
    ax.set_xlabel(x_label)
    ax.set_ylabel("response time (ms)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    _legend_below(ax, len(series))
    return _svg(fig, key, "Response time against I/O rate")


@_styled
def stacked_bar_chart(
    key: str, bars: Sequence[StackedBar], unit: str = "ms", title: str = ""
) -> str:
    """Horizontal stacked bars, one per label, each part a component's share of the total."""
    parts = _ordered_part_names(bars)
    fig, ax = _figure(0.9 + 0.34 * len(bars) + 0.25 * math.ceil(len(parts) / 4))
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
    ax.set_yticks(y, [b.label for b in bars])
    ax.set_xlim(0, float(left.max()) * 1.18 if len(left) and left.max() > 0 else 1.0)
    ax.set_xlabel(f"response time ({unit})")
    ax.grid(axis="y", visible=False)
    _legend_below(ax, len(parts))
    return _svg(fig, key, title or "Response time by component")


@_styled
def utilization_chart(key: str, groups: Sequence[BarGroup], alternatives: Sequence[str]) -> str:
    """Utilisation of every component as horizontal bars, alternatives side by side, with the
    70% and 90% thresholds drawn and each bar's value written at its end."""
    n_alt = max(1, len(alternatives))
    band = 0.8 / n_alt
    fig, ax = _figure(0.9 + len(groups) * (0.16 + 0.17 * n_alt) + 0.25)
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
            label=name if n_alt > 1 else None,
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
    for threshold, colour, text in (
        (WARN_UTILIZATION, WARN_COLOUR, "70%"),
        (CRITICAL_UTILIZATION, CRITICAL_COLOUR, "90%"),
    ):
        ax.axvline(threshold, color=colour, linestyle="--", linewidth=1.1)
        ax.annotate(
            text,
            (threshold, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(2, 2),
            textcoords="offset points",
            fontsize=7,
            color=colour,
        )
    ax.set_yticks(y, [g.label for g in groups])
    ax.set_xlim(0, 1.12)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.set_xlabel("utilisation at the planned load")
    ax.grid(axis="y", visible=False)
    if n_alt > 1:
        _legend_below(ax, n_alt)
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
    fig, ax = _figure(3.4)
    for span in spans:
        colour = TIER_COLOURS.get(span.tier, "#999999")
        share = span.end_fraction - span.start_fraction
        ax.axvspan(
            span.start_fraction,
            span.end_fraction,
            color=colour,
            alpha=0.18,
            linewidth=0,
            label=f"{span.tier}: {display.percent(share)} of capacity, "
            f"{display.percent(span.io_share)} of I/O",
        )
        ax.axvline(span.end_fraction, color=colour, linestyle=":", linewidth=1)
    ax.plot(curve_c, curve_f, color="#000000", linewidth=1.6, label="skew curve F(c)")
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", linewidth=0.8, label="no skew")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("hottest fraction of the capacity")
    ax.set_ylabel("fraction of the back-end I/O")
    _legend_below(ax, 2 + len(spans), columns=2)
    return _svg(fig, key, title or "Easy Tier skew curve and tier capacities")


@_styled
def closed_system_chart(
    key: str,
    throughput: Sequence[Series],
    response: Sequence[Series],
    planned_population: float | None,
    population_label: str,
) -> str:
    """Throughput and response time against the number of users or the queue depth, side by
    side, one line per alternative, the planned population marked."""
    fig = Figure(figsize=(WIDTH_IN, 3.3), layout="constrained")
    left, right = fig.subplots(1, 2)
    for ax, lines, y_label in (
        (left, throughput, "throughput (IOPS)"),
        (right, response, "response time (ms)"),
    ):
        for i, s in enumerate(lines):
            x, y = _finite(s.x, s.y)
            ax.plot(x, y, label=s.name, **_style(i), markersize=3, markevery=_every(len(x)))
        if planned_population is not None:
            ax.axvline(planned_population, color="#555555", linestyle=(0, (4, 3)), linewidth=1)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.set_xlabel(population_label)
        ax.set_ylabel(y_label)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    right.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.3g}"))
    _legend_below(left, len(throughput))
    return _svg(fig, key, f"Throughput and response time against {population_label}")


# --------------------------------------------------------------------------- helpers


def _figure(height_in: float) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(WIDTH_IN, height_in), layout="constrained")
    return fig, fig.add_subplot()


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


def _response_axis_top(series: Sequence[Series], markers: Sequence[Marker]) -> float:
    """Top of the response-time axis: six times the lightest-load response time of the fastest
    alternative, raised to show every marked point, capped at the largest finite value.

    Six times the no-load response time is where an M/M/1-like curve is at 83% utilisation,
    well past the knee a planner needs to see; beyond it the lines leave the chart upward,
    which reads correctly as "saturating here".
    """
    finite = [v for s in series for v in s.y if math.isfinite(v) and v > 0]
    if not finite:
        return 1.0
    lightest = min(
        min((v for v in s.y if math.isfinite(v) and v > 0), default=math.inf) for s in series
    )
    top = 6.0 * lightest
    marked = [m.y for m in markers if math.isfinite(m.y)]
    if marked:
        top = max(top, 1.4 * max(marked))
    return min(top, 1.05 * max(finite))


def _legend_below(ax: Axes, entries: int, columns: int = 4) -> None:
    """A legend under the plot, outside it (constrained layout makes room, so nothing overlaps)."""
    if entries <= 0:
        return
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    figure = ax.get_figure()
    assert isinstance(figure, Figure)
    figure.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=min(entries, columns),
        fontsize=8,
        handlelength=2.6,
    )


_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_COMMENT = re.compile(r"\s*<!--.*?-->", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|xlink:href="#|href="#)([^")]+)')


def _svg(fig: Figure, key: str, title: str) -> str:
    """Render `fig` to an `<svg>` element for inline HTML, reproducibly (see module docstring)."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
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
