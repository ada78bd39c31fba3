"""Charts of a sizing report as inline SVG: plain numbers in, SVG text out.

Why SVG with no script: the report must open with no network and print legibly, so a chart
cannot need JavaScript or a CDN (Plotly, Vega and Bokeh all do, and embed megabytes of script
to work offline). SVG is vector (sharp on paper at any size), its text stays selectable and
searchable in the page, and the browser draws that text with its own fonts.

Why no plotting library: these charts were drawn with matplotlib until issue 16 ("sub-second
runs"). Importing it cost 0.28-0.38 s of CPU and drawing a report's seven charts another
0.35 s, while a whole `diskmodel run` must stay under 1 s and took 0.9 s without its charts.
The report needs lines, bars, shaded spans and labels on linear axes, which the small layer in
`diskmodel.report.svg_plot` draws in a few milliseconds; this module says what each chart
shows.

Layout is fixed, not solved: every chart has its margins in inches, its legend under the plot
in as many columns as fit the width (long names wrapped), so nothing is clipped at either
edge. Text widths are estimated generously (`CHAR_WIDTH_EM`).

Every function here takes plain numbers and names (never a `Prediction`) and returns an
`<svg>` element ready to be placed in HTML, the same bytes for the same numbers, every `id`
prefixed with the chart's key so that several charts in one page never share an id. Names
from the scenario reach the SVG as escaped text only.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from diskmodel.report import display
from diskmodel.report.svg_plot import (
    AXIS_COLOUR,
    FONT_PT,
    LEGEND_PT,
    ON_TOP,
    Axes,
    Figure,
    LineStyle,
    PatchStyle,
    nice_ticks,
    padded,
    text_width,
)

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
NOTE_COLOUR = "#333333"
GRID_BAND_COLOUR = "#999999"
"""The line under a chart's band of saturation crosses."""

WIDTH_IN = 7.2
"""Chart width in inches: fits an A4 or Letter page with margins, so printing does not scale it."""

PT = 72.0
"""Points per inch: the SVG's unit."""
NOTE_PT = 8.0
"""Annotations: the planned load, the target, a marked point's value."""
LEFT_IN = 0.75
"""Room left of the plot for tick labels and the axis label (bar charts measure their labels)."""
RIGHT_IN = 0.3
TOP_IN = 0.25
AXIS_LABEL_IN = 0.5
"""Room under the plot for tick labels and the x-axis label."""
LEGEND_ROW_IN = 0.2
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


# --------------------------------------------------------------------------- charts


def response_time_chart(
    key: str,
    series: Sequence[Series],
    markers: Sequence[Marker],
    planned_iops: float | None,
    x_label: str = "host I/O rate (IOPS)",
    target_ms: float | None = None,
    band: Band | None = None,
    saturated_at: Sequence[tuple[str, float]] = (),
    spans: Sequence[tuple[float, float, str]] = (),
) -> str:
    """Response time (ms) against I/O rate, one line per alternative, the planned load marked.

    The y axis stops where the curves turn steep (`response_axis_top`): past the knee the
    response time tells nothing but "saturating", and an axis stretched to it would flatten the
    part a planner reads. A line is drawn only up to its last point under the top and ends
    there in an upward arrowhead: no line is cut by the frame. `target_ms`, the service level's
    response-time target, is a horizontal dashed line. `band`, shaded in the first line's
    colour, is the range of the inputs given as ranges (cut at the top like the lines).
    `saturated_at`: (line, load) of a configuration saturated at the planned load, a cross at
    the top of the frame there, labelled. `spans`: (from, to, label) stretches of load shaded
    and labelled at the foot of the plot (where a line's response time falls as Easy Tier
    re-places data).
    """
    top = response_axis_top(series, markers, target_ms)
    legend = _Legend(_names(series))
    fig, ax = _figure(key, 3.0, legend)
    lines = [_below(s.x, s.y, top) for s in series]
    shown = [m for m in markers if math.isfinite(m.y) and m.y <= top]
    xs = [v for x, _, _ in lines for v in x] + [m.x for m in shown if math.isfinite(m.x)]
    if band is not None:
        xs += [v for v in band.x if math.isfinite(v)]
    # The planned load and the saturated points on it are always inside the frame.
    xs += [x for _, x in saturated_at if math.isfinite(x)]
    if planned_iops is not None and math.isfinite(planned_iops):
        xs.append(planned_iops)
    right = padded(min(xs), max(xs))[1] if xs else 1.0
    ax.set_xlim(0.0, right)
    ax.set_ylim(0.0, top)
    if band is not None and band.x:
        low = [min(v, top) for v in band.low]
        high = [min(v, top) for v in band.high]
        ax.fill_between(band.x, low, high, PatchStyle(_colour(0), alpha=0.15))
    for i, (x, y, cut) in enumerate(lines):
        style = _style(i, marker_size=3.5)
        ax.plot(x, y, style, label=_wrap(series[i].name), mark_every=_every(len(x)))
        if cut and x:
            ax.plot([x[-1]], [y[-1]], _marker(i, "^", 7.0), draw_line=False)
    crowded = len({m.x for m in markers}) < len(markers)  # labels would overlap: leave them
    # Markers are drawn inside the lines' x range; a label near its right end goes to the left
    # of its marker (a closed system's line ends at its operating point).
    far = max((m.x for m in markers if math.isfinite(m.x)), default=0.0)
    far = max(far, *(max(s.x, default=0.0) for s in series), 0.0)
    for m in shown:
        i = _index_of(series, m.series)
        ring = LineStyle(
            _colour(i), marker="o", marker_size=7.0, marker_face="#ffffff", marker_edge_width=2.0
        )
        ax.plot([m.x], [m.y], ring, draw_line=False, z=ON_TOP - 1)
        if crowded:
            continue
        near_end = far > 0 and m.x > 0.85 * far
        ax.annotate(
            m.label,
            (m.x, m.y),
            (-6, -12) if near_end else (6, -12),
            anchor="end" if near_end else "start",
            size=NOTE_PT,
            colour=_colour(i),
        )
    for row, (name, at) in enumerate(saturated_at):
        i = _index_of(series, name)
        cross_y = top * (0.9 - 0.08 * row)
        cross = LineStyle(_colour(i), marker="x", marker_size=8.0, marker_edge_width=2.0)
        ax.plot([at], [cross_y], cross, draw_line=False, z=ON_TOP - 1)
        _note_beside(ax, "saturated", at, cross_y, _colour(i))
    for lo, hi, label in spans:
        ax.axvspan(lo, hi, PatchStyle(NOTE_COLOUR, alpha=0.1))
        _note_at_foot(ax, label, (lo + hi) / 2)
    if target_ms is not None and target_ms <= top:
        _target(ax, target_ms, avoid=series)
    if planned_iops is not None:
        _planned_vertical(ax, planned_iops)
    _thousands(ax, "x")
    _few_ticks(ax, "y")
    ax.set_xlabel(x_label)
    ax.set_ylabel("response time (ms)")
    legend.place(fig, ax)
    return fig.svg("Response time against I/O rate")


def _note_beside(ax: Axes, text: str, x: float, y: float, colour: str) -> None:
    """A short note beside the point (x, y): to its right, or to its left near the right
    edge, inside the plot either way."""
    room = ax.left + ax.width - ax.px(x) - 8
    right = room >= text_width(text, NOTE_PT)
    ax.annotate(
        text,
        (x, y),
        (8, 0) if right else (-8, 0),
        anchor="start" if right else "end",
        align="center",
        size=NOTE_PT,
        colour=colour,
    )


def _note_at_foot(ax: Axes, text: str, x: float) -> None:
    """A note centred on x just above the plot's foot, moved in to stay inside the plot."""
    width = text_width(text, NOTE_PT)
    centre = min(max(ax.px(x), ax.left + width / 2 + 3), ax.left + ax.width - width / 2 - 3)
    ax.annotate(
        text,
        (0.0, 0.0),
        (centre - ax.left, 4),
        coords=("axes", "axes"),
        anchor="middle",
        size=NOTE_PT,
        colour=NOTE_COLOUR,
    )


def stacked_bar_chart(
    key: str, bars: Sequence[StackedBar], unit: str = "ms", title: str = ""
) -> str:
    """Horizontal stacked bars, one per label, each part a component's share of the total."""
    parts = _ordered_part_names(bars)
    legend = _Legend(parts)
    labels = [_wrap(b.label, 34) for b in bars]
    fig, ax = _figure(key, 0.34 * len(bars) + 0.2, legend, left_in=_label_width_in(labels))
    y = [float(len(bars) - 1 - i) for i in range(len(bars))]  # the first bar on top
    widths = [[dict(b.parts).get(part, 0.0) for b in bars] for part in parts]
    totals = [0.0] * len(bars)
    for part_widths in widths:  # summed in the order drawn: the totals are the bars' ends
        totals = [a + w for a, w in zip(totals, part_widths, strict=True)]
    most = max(totals, default=0.0)
    ax.set_xlim(0.0, most * 1.22 if most > 0 else 1.0)
    ax.set_ylim(-0.6, len(bars) - 0.4)
    left = [0.0] * len(bars)
    for j, (part, part_widths) in enumerate(zip(parts, widths, strict=True)):
        ax.barh(y, part_widths, 0.62, _bar_style(j), left=left, label=part)
        left = [a + w for a, w in zip(left, part_widths, strict=True)]
    for yi, total in zip(y, totals, strict=True):
        ax.annotate(
            f"{display.milliseconds(total)} {unit}", (total, yi), (4, 0), align="center",
            size=NOTE_PT,
        )  # fmt: skip
    ax.set_yticks(y, labels)
    _few_ticks(ax, "x")
    ax.set_xlabel(f"response time ({unit})")
    ax.grid(x=True, y=False)
    legend.place(fig, ax)
    return fig.svg(title or "Response time by component")


def utilization_chart(key: str, groups: Sequence[BarGroup], alternatives: Sequence[str]) -> str:
    """Utilisation of every component as horizontal bars, alternatives side by side, with the
    70% and 90% thresholds drawn and each bar's value written at its end."""
    n_alt = max(1, len(alternatives))
    band = 0.8 / n_alt
    legend = _Legend(list(alternatives) if n_alt > 1 else [])
    labels = [_wrap(g.label, 34) for g in groups]
    fig, ax = _figure(
        key, len(groups) * (0.12 + 0.14 * n_alt) + 0.2, legend, left_in=_label_width_in(labels)
    )
    ax.set_xlim(0.0, 1.12)
    ax.set_ylim(-0.55, len(groups) - 0.45)
    y = [float(len(groups) - 1 - i) for i in range(len(groups))]
    for a, name in enumerate(alternatives):
        values = [g.values[a] if a < len(g.values) else None for g in groups]
        offsets = [yi + 0.4 - band * (a + 0.5) for yi in y]
        shown = [(off, v) for off, v in zip(offsets, values, strict=True) if v is not None]
        if not shown:
            continue
        ax.barh(
            [o for o, _ in shown],
            [v for _, v in shown],
            band * 0.9,
            _bar_style(a),
            label=_wrap(name) if n_alt > 1 else None,
        )
        for off, v in shown:
            ax.annotate(display.percent(v), (v, off), (3, 0), align="center", size=7.0)
    for threshold, colour in (
        (WARN_UTILIZATION, WARN_COLOUR),
        (CRITICAL_UTILIZATION, CRITICAL_COLOUR),
    ):
        ax.axvline(threshold, LineStyle(colour, width=1.1, dash="--"))
    ax.set_yticks(y, labels)
    ax.set_xticks(
        [0, 0.25, 0.5, 0.7, 0.9, 1.0],
        ["0%", "25%", "50%", "70%", "90%", "100%"],
        colours=[None, None, None, WARN_COLOUR, CRITICAL_COLOUR, None],
    )
    ax.set_xlabel("utilisation at the planned load")
    ax.grid(x=True, y=False)
    legend.place(fig, ax)
    return fig.svg("Utilisation of each component")


def residual_chart(
    key: str,
    intervals: Sequence[str],
    series: Sequence[str],
    errors: Sequence[Sequence[float | None]],
    threshold: float,
) -> str:
    """A calibration's model against its measurements: one group of horizontal bars per
    interval, one bar per measured figure (`series`, in the legend) from 0 to its relative
    error (model / measured - 1; `errors[interval][series]`, None where not measured, inf
    where the model saturates), with the quality gate's threshold either side as dashed
    lines and each bar's value written at its end."""
    n = max(1, len(series))
    band = 0.8 / n
    legend = _Legend(list(series) if n > 1 else [])
    labels = [_wrap(label, 34) for label in intervals]
    fig, ax = _figure(
        key, len(intervals) * (0.12 + 0.14 * n) + 0.2, legend, left_in=_label_width_in(labels)
    )
    finite = [abs(e) for row in errors for e in row if e is not None and math.isfinite(e)]
    reach = max([threshold * 1.5, *finite]) * 1.25
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-0.55, len(intervals) - 0.45)
    y = [float(len(intervals) - 1 - i) for i in range(len(intervals))]
    for j, name in enumerate(series):
        offsets = [yi + 0.4 - band * (j + 0.5) for yi in y]
        values = [row[j] if j < len(row) else None for row in errors]
        shown = [
            (off, e)
            for off, e in zip(offsets, values, strict=True)
            if e is not None and math.isfinite(e)
        ]
        ax.barh(
            [off for off, _ in shown],
            [abs(e) for _, e in shown],
            band * 0.9,
            _bar_style(j),
            left=[min(e, 0.0) for _, e in shown],
            label=_wrap(name) if n > 1 else None,
        )
        for off, e in zip(offsets, values, strict=True):
            if e is None:
                continue
            if not math.isfinite(e):
                ax.annotate("saturated", (0.0, off), (3, 0), align="center", size=7.0)
                continue
            ax.annotate(
                f"{100 * e:+.1f}%",
                (e, off),
                (3 if e >= 0 else -3, 0),
                align="center",
                size=7.0,
                anchor="start" if e >= 0 else "end",
            )
    for edge in (-threshold, threshold):
        ax.axvline(edge, LineStyle(CRITICAL_COLOUR, width=1.1, dash="--"))
    ax.axvline(0.0, LineStyle(AXIS_COLOUR, width=0.8))
    ax.set_yticks(y, labels)
    ticks = nice_ticks(-reach, reach, TICK_BINS)
    ax.set_xticks(ticks, [f"{100 * t:+.0f}%" if t else "0" for t in ticks])
    ax.set_xlabel("model against measurement (model / measured - 1)")
    ax.grid(x=True, y=False)
    legend.place(fig, ax)
    return fig.svg("Model against measurement, per interval")


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
    fig, ax = _figure(key, 2.4, legend)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.02)
    for span, label in zip(spans, labels, strict=True):
        colour = TIER_COLOURS.get(span.tier, "#999999")
        ax.axvspan(
            span.start_fraction,
            span.end_fraction,
            PatchStyle(colour, alpha=0.18),
            label=_wrap(label),
        )
        ax.axvline(span.end_fraction, LineStyle(colour, width=1.0, dash=":"))
    ax.plot(curve_c, curve_f, LineStyle("#000000"), label="skew curve F(c)")
    ax.plot([0, 1], [0, 1], LineStyle("#999999", width=0.8, dash="--"), label="no skew")
    _percent(ax, "x")
    _percent(ax, "y")
    ax.set_xlabel("hottest fraction of the data")
    ax.set_ylabel("fraction of the back-end I/O")
    legend.place(fig, ax)
    return fig.svg(title or "Easy Tier skew curve and tier capacities")


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
    fig, ax = _figure(key, 2.2, legend)
    finite = [v for v in x if math.isfinite(v)]
    if planned_iops is not None:
        finite.append(planned_iops)
    ax.set_xlim(0.0, padded(min(finite), max(finite))[1] if finite else 1.0)
    ax.set_ylim(0.0, 1.02)
    for i, (tier, values) in enumerate(shares):
        style = LineStyle(
            TIER_COLOURS.get(tier, _colour(i)),
            dash=LINESTYLES[i % len(LINESTYLES)],
            marker=MARKERS[i % len(MARKERS)],
            marker_size=3.5,
        )
        ax.plot(list(x), list(values), style, label=tier, mark_every=_every(len(x)))
    if planned_iops is not None:
        _planned_vertical(ax, planned_iops)
    _percent(ax, "y")
    _thousands(ax, "x")
    ax.set_xlabel("host I/O rate (IOPS)")
    ax.set_ylabel("share of small back-end I/O")
    legend.place(fig, ax)
    return fig.svg(title or "Easy Tier placement against load")


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
    width = WIDTH_IN * PT
    height = (2.7 + legend.height_in()) * PT
    plot_height = height - (TOP_IN + AXIS_LABEL_IN + legend.height_in()) * PT
    fig = Figure(key, width, height)
    # two plots of equal width, a gap of 0.3 of one between them (room for the right one's
    # tick labels and axis label)
    plot_width = (0.98 - 0.13) * width / 2.3
    pair = [
        fig.add_axes(0.13 * width + k * 1.3 * plot_width, TOP_IN * PT, plot_width, plot_height)
        for k in (0, 1)
    ]
    for ax, lines, y_label in zip(pair, (throughput, response), y_labels, strict=True):
        drawn = [_finite(s.x, s.y) for s in lines]
        xs = [v for x, _ in drawn for v in x]
        if planned_population is not None:
            xs.append(planned_population)
        ys = [v for _, y in drawn for v in y]
        ax.set_xlim(0.0, padded(min(xs), max(xs))[1] if xs else 1.0)
        ax.set_ylim(0.0, padded(min(ys), max(ys))[1] if ys else 1.0)
        for i, (x, y) in enumerate(drawn):
            ax.plot(
                x, y, _style(i, marker_size=3.0), label=_wrap(lines[i].name),
                mark_every=_every(len(x)),
            )  # fmt: skip
        if planned_population is not None:
            ax.axvline(planned_population, _PLANNED_LINE)
        ax.set_xlabel(population_label)
        ax.set_ylabel(y_label)
        _thousands(ax, "x")
    _thousands(pair[0], "y")
    _few_ticks(pair[1], "y")
    legend.place(fig, pair[0])
    return fig.svg(f"{title} against {population_label}")


@dataclass(frozen=True)
class GrowthLine:
    """One configuration's growth steps: at each factor its response time (inf where
    saturated), the utilisation of its binding component kind (0..1) and whether the service
    level is met."""

    name: str
    factors: tuple[float, ...]
    response_ms: tuple[float, ...]
    utilization: tuple[float, ...]
    met: tuple[bool, ...]


def growth_chart(
    key: str,
    lines: Sequence[GrowthLine],
    target_ms: float | None,
    ceilings: Sequence[tuple[str, float]],
    x_label: str = "load factor (× the planned load)",
    utilization_label: str = "utilisation of the binding component",
) -> str:
    """Two panels against the growth factor, one line per configuration: the response time
    with the service level's target, and the utilisation of the binding component kind with
    its ceiling (`ceilings`: label and fraction). A factor that breaks the service level is
    ringed in both; one at which a configuration is saturated (no response time) is a
    cross in a band above the response-time lines, inside the frame, a row per configuration.
    The response axis always reaches past the target."""
    series = [Series(g.name, g.factors, g.response_ms) for g in lines]
    top = response_axis_top(series, [], target_ms, stretch=math.inf)
    if target_ms is not None:
        # The target is always drawn: how far below it the lines run is the answer.
        top = max(top, 1.15 * target_ms)
    saturating = [
        i for i, g in enumerate(lines) if any(not math.isfinite(v) for v in g.response_ms)
    ]
    band = 0.09 * len(saturating)  # room above `top` for the crosses, a row per configuration
    broken_somewhere = any(not met for g in lines for met in g.met)
    extra = [
        *(["service level not met"] if broken_somewhere else []),
        *(["saturated (no response time)"] if saturating else []),
    ]
    legend = _Legend([*_names(series), *extra])
    width = WIDTH_IN * PT
    height = (2.6 + AXIS_LABEL_IN + TOP_IN + legend.height_in()) * PT
    plot_height = 2.6 * PT
    fig = Figure(key, width, height)
    plot_width = (0.98 - 0.13) * width / 2.3
    response, busy = (
        fig.add_axes(0.13 * width + k * 1.3 * plot_width, TOP_IN * PT, plot_width, plot_height)
        for k in (0, 1)
    )
    factors = sorted({x for g in lines for x in g.factors})
    limits = padded(factors[0], factors[-1]) if factors else (0.0, 1.0)
    for ax in (response, busy):
        ax.set_xlim(*limits)
    response.set_ylim(0.0, top * (1 + band))
    busy.set_ylim(0.0, 1.08)
    ring = LineStyle(
        NOTE_COLOUR, marker="o", marker_size=10.0, marker_face="none", marker_edge_width=1.2
    )
    for i, g in enumerate(lines):
        x, y, _cut = _below(g.factors, g.response_ms, top)
        response.plot(x, y, _style(i, marker_size=4.5), label=_wrap(g.name))
        busy.plot(list(g.factors), list(g.utilization), _style(i, marker_size=4.5))
        broken = [k for k, met in enumerate(g.met) if not met]
        shown = [k for k in broken if math.isfinite(g.response_ms[k]) and g.response_ms[k] <= top]
        response.plot(
            [g.factors[k] for k in shown], [g.response_ms[k] for k in shown], ring, draw_line=False
        )
        busy.plot(
            [g.factors[k] for k in broken],
            [g.utilization[k] for k in broken],
            ring,
            draw_line=False,
        )
        over = [
            f
            for f, v in zip(g.factors, g.response_ms, strict=True)
            if not math.isfinite(v) or v > top
        ]
        if over:
            row = saturating.index(i) if i in saturating else 0
            cross = LineStyle(_colour(i), marker="x", marker_size=7.0, marker_edge_width=2.0)
            response.plot(
                over, [top * (1 + 0.09 * (row + 0.5))] * len(over), cross, draw_line=False
            )
    if saturating:
        response.axhline(top, LineStyle(GRID_BAND_COLOUR, width=0.8, dash=(2.0, 2.0)))
    if broken_somewhere:
        response.plot([], [], ring, label="service level not met", draw_line=False)
    if saturating:
        response.plot(
            [],
            [],
            LineStyle(NOTE_COLOUR, marker="x", marker_size=7.0, marker_edge_width=2.0),
            label="saturated (no response time)",
            draw_line=False,
        )
    if target_ms is not None and target_ms <= top:
        _target(response, target_ms, avoid=series)
    for label, ceiling in ceilings:
        _labelled_hline(
            busy,
            ceiling,
            LineStyle(WARN_COLOUR, width=1.1, dash="--"),
            label,
            WARN_COLOUR,
            avoid=[Series(g.name, g.factors, g.utilization) for g in lines],
        )
    response.set_yticks(nice_ticks(0.0, top, TICK_BINS))
    busy.set_yticks([0.0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    for ax in (response, busy):
        ax.set_xticks(factors, lambda v: f"{v:g}×")
        ax.set_xlabel(x_label)
    response.set_ylabel("response time (ms)")
    busy.set_ylabel(utilization_label)
    legend.place(fig, response)
    return fig.svg("Response time and utilisation as the load grows")


def sweep_chart(
    key: str,
    added: Sequence[float],
    lines: Sequence[tuple[str, Sequence[float]]],
    planned_iops: float | None,
    x_label: str,
    notes: dict[float, str] | None = None,
) -> str:
    """Maximum rates (to saturation, to the service level) against the number of ranks added;
    the planned load as a horizontal dashed line. `notes` label some counts (an uneven
    placement): a ring around the first line's point and the note under it."""
    legend = _Legend([name for name, _ in lines])
    fig, ax = _figure(key, 2.6, legend)
    ys = [v for _, values in lines for v in values if math.isfinite(v)]
    if planned_iops is not None:
        ys.append(planned_iops)
    ax.set_xlim(*(padded(min(added), max(added)) if added else (0.0, 1.0)))
    ax.set_ylim(0.0, padded(min(ys), max(ys))[1] if ys else 1.0)
    for i, (name, values) in enumerate(lines):
        ax.plot(list(added), list(values), _style(i, marker_size=4.5), label=_wrap(name))
    ring = LineStyle(NOTE_COLOUR, marker="o", marker_size=10.0, marker_face="none")
    top = ax.yaxis.hi
    for x, note in (notes or {}).items():
        y = next((v for a, v in zip(added, lines[0][1], strict=True) if a == x), None)
        if y is None or not math.isfinite(y):
            continue
        ax.plot([x], [y], ring, draw_line=False, z=ON_TOP - 1)
        # Above the point when there is room under the top edge, else below it.
        above = ax.py(y) - ax.py(top) > 2.2 * NOTE_PT
        ax.annotate(
            note,
            (x, y),
            (0, 12) if above else (0, -16),
            anchor="middle",
            size=NOTE_PT,
            colour=NOTE_COLOUR,
        )
    if planned_iops is not None:
        _labelled_hline(
            ax,
            planned_iops,
            _PLANNED_LINE,
            f"planned load {display.rate(planned_iops)} IOPS",
            NOTE_COLOUR,
        )
    ax.set_xticks(list(added), lambda v: f"+{v:g}")
    _thousands(ax, "y")
    ax.set_xlabel(x_label)
    ax.set_ylabel("host I/O rate (IOPS)")
    legend.place(fig, ax)
    return fig.svg("Maximum I/O rate as ranks are added")


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
    fig, ax = _figure(key, 2.8, legend)
    xs = [x for x, _, _ in points] + [x for x, _ in front] + [x for _, x, _ in marked]
    ys = [y for _, y, _ in points] + [y for _, y in front] + [y for _, _, y in marked]
    ax.set_xlim(*(padded(min(xs), max(xs)) if xs else (0.0, 1.0)))
    ax.set_ylim(0.0, padded(min(ys), max(ys))[1] if ys else 1.0)
    meets = [(x, y) for x, y, ok in points if ok]
    fails = [(x, y) for x, y, ok in points if not ok]
    if meets:
        ax.plot(
            [x for x, _ in meets],
            [y for _, y in meets],
            _marker(0, "o", 4.5),
            label="meets the service level",
            draw_line=False,
        )
    if fails:
        ax.plot(
            [x for x, _ in fails],
            [y for _, y in fails],
            _marker(1, "x", 5.0),
            label="does not",
            draw_line=False,
        )
    if front:
        ax.plot(
            [x for x, _ in front],
            [y for _, y in front],
            LineStyle(_colour(2), width=1.2),
            label="Pareto front",
        )
    right = max((x for x, _, _ in points), default=1.0)
    ring = LineStyle(NOTE_COLOUR, marker="o", marker_size=9.0, marker_face="none")
    for name, x, y in marked:
        ax.plot([x], [y], ring, draw_line=False, z=ON_TOP - 1)
        near_end = x > 0.85 * right
        ax.annotate(
            name,
            (x, y),
            (-7, 5) if near_end else (7, 5),
            anchor="end" if near_end else "start",
            size=NOTE_PT,
            colour=NOTE_COLOUR,
        )
    _thousands(ax, "x")
    _few_ticks(ax, "y")
    ax.set_xlabel(cost_label)
    ax.set_ylabel("response time now (ms)")
    legend.place(fig, ax)
    return fig.svg("Cost against response time of every configuration tried")


_PLANNED_LINE = LineStyle(TARGET_COLOUR, width=1.0, dash=(4.0, 3.0))
_TARGET_LINE = LineStyle(TARGET_COLOUR, width=0.9, dash=(1.8, 1.8))


def _target(ax: Axes, target_ms: float, avoid: Sequence[Series] = ()) -> None:
    """The service level's response-time target: a dotted horizontal line, labelled where
    no line of `avoid` runs."""
    _labelled_hline(
        ax,
        target_ms,
        _TARGET_LINE,
        f"target {display.number(target_ms)} ms",
        TARGET_COLOUR,
        avoid=avoid,
    )


def _labelled_hline(
    ax: Axes,
    y: float,
    style: LineStyle,
    text: str,
    colour: str,
    avoid: Sequence[Series] = (),
) -> None:
    """A horizontal line across the plot at y, its label just above it at the left edge, or
    where that would cross a line of `avoid` the first of: under it at the left, above it
    at the right, under it at the right that crosses none."""
    ax.axhline(y, style)
    candidates: tuple[tuple[float, tuple[int, int], str], ...] = (
        (0.0, (4, 3), "start"),
        (0.0, (4, -10), "start"),
        (1.0, (-4, 3), "end"),
        (1.0, (-4, -10), "end"),
    )
    chosen = next((c for c in candidates if not _crosses(ax, y, text, c, avoid)), candidates[0])
    at, offset, anchor = chosen
    ax.annotate(
        text, (at, y), offset, coords=("axes", "data"), size=NOTE_PT, colour=colour, anchor=anchor
    )


def _crosses(
    ax: Axes,
    y: float,
    text: str,
    candidate: tuple[float, tuple[int, int], str],
    avoid: Sequence[Series],
) -> bool:
    """Whether a label placed as `candidate` would overlap a line of `avoid` (its segments
    sampled) or run out of the plot."""
    at, (dx, dy), anchor = candidate
    x0 = ax.left + at * ax.width + dx
    width = text_width(text, NOTE_PT)
    left, right = (x0, x0 + width) if anchor == "start" else (x0 - width, x0)
    base = ax.py(y) - dy
    top, bottom = base - NOTE_PT, base + 0.3 * NOTE_PT
    if top < ax.top or bottom > ax.top + ax.height:
        return True
    for s in avoid:
        pts = [
            (ax.px(a), ax.py(min(b, ax.yaxis.hi)))
            for a, b in zip(s.x, s.y, strict=True)
            if math.isfinite(a) and math.isfinite(b)
        ]
        sampled = [
            (xa + (xb - xa) * k / 20, ya + (yb - ya) * k / 20)
            for (xa, ya), (xb, yb) in itertools.pairwise(pts)
            for k in range(21)
        ]
        if any(
            left - 3 <= px <= right + 3 and top - 3 <= py <= bottom + 3 for px, py in sampled or pts
        ):
            return True
    return False


def _planned_vertical(ax: Axes, planned_iops: float) -> None:
    """The planned load: a dashed vertical line, labelled at its top on the side with room."""
    ax.axvline(planned_iops, _PLANNED_LINE)
    text = f"planned load {display.rate(planned_iops)} IOPS"
    x = ax.px(planned_iops)
    fits = x + 4 + text_width(text, NOTE_PT) <= ax.fig.width - 2
    ax.annotate(
        text,
        (planned_iops, 1.0),
        (4, -12) if fits else (-4, -12),
        coords=("data", "axes"),
        anchor="start" if fits else "end",
        size=NOTE_PT,
        colour=NOTE_COLOUR,
    )


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
        """The entries drawn on `ax` under the plot, the last row just above the bottom."""
        if self.labels and ax.legend_entries:
            fig.legend(ax.legend_entries, self.columns, bottom=0.02 * fig.height)


def _names(series: Sequence[Series]) -> list[str]:
    """Legend entries of a line chart: none for a single line (the caption names it)."""
    return [s.name for s in series] if len(series) > 1 else []


def _figure(
    key: str, plot_in: float, legend: _Legend, left_in: float = LEFT_IN
) -> tuple[Figure, Axes]:
    """A figure whose plot area is `plot_in` high, with fixed room for labels and legend."""
    height_in = TOP_IN + plot_in + AXIS_LABEL_IN + legend.height_in()
    fig = Figure(key, WIDTH_IN * PT, height_in * PT)
    ax = fig.add_axes(left_in * PT, TOP_IN * PT, (WIDTH_IN - left_in - RIGHT_IN) * PT, plot_in * PT)
    return fig, ax


def _text_width_in(text: str, size_pt: float = LEGEND_PT) -> float:
    return text_width(text, size_pt) / PT


def _label_width_in(labels: Sequence[str]) -> float:
    """Room left of a bar chart for its labels (tick labels at the font size), at least
    the default."""
    return max(LEFT_IN, 0.25 + max((_text_width_in(t, FONT_PT) for t in labels), default=0.0))


def _wrap(text: str, width: int = LABEL_CHARS) -> str:
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


def _few_ticks(ax: Axes, which: str, bins: int = TICK_BINS) -> None:
    """At most `bins` + 1 major ticks, plain numbers: a planner reads a rate or a time off
    six ticks as well as off ten."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    ticks = nice_ticks(axis.lo, axis.hi, bins)
    (ax.set_xticks if which == "x" else ax.set_yticks)(ticks)


def _thousands(ax: Axes, which: str) -> None:
    """Ticks as `_few_ticks`, written with thousands separators (12,000)."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    ticks = nice_ticks(axis.lo, axis.hi, TICK_BINS)
    show: Callable[[float], str] = lambda v: f"{v:,.0f}" if abs(v) >= 10 else f"{v:g}"  # noqa: E731
    (ax.set_xticks if which == "x" else ax.set_yticks)(ticks, show)


def _percent(ax: Axes, which: str) -> None:
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    labels = [f"{100 * v:.0f}%" for v in ticks]
    (ax.set_xticks if which == "x" else ax.set_yticks)(ticks, labels)


def _style(i: int, marker_size: float) -> LineStyle:
    """The i-th line of a chart: its colour, marker and dash pattern."""
    return LineStyle(
        _colour(i),
        width=1.6,
        dash=LINESTYLES[i % len(LINESTYLES)],
        marker=MARKERS[i % len(MARKERS)],
        marker_size=marker_size,
    )


def _marker(i: int, kind: str, size: float) -> LineStyle:
    """Markers alone (no line) in the i-th colour."""
    return LineStyle(_colour(i), width=0.0, marker=kind, marker_size=size)


def _bar_style(i: int) -> PatchStyle:
    """The i-th part or alternative of a bar chart: colour, hatching, a thin white edge."""
    return PatchStyle(_colour(i), hatch=_hatch(i), edge="#ffffff", edge_width=0.5)


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
