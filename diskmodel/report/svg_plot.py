"""A small SVG plotting layer for the report's charts: plain numbers in, an `<svg>` element out.

A `Figure` is measured in points (1/72 inch, the SVG's user unit, so a 7.2-inch chart is 518.4
units wide and prints at that size); it holds `Axes` (a rectangle with two linear scales, a
left and a bottom spine, ticks, grid lines, axis labels) and a legend under the plot. Data is
drawn with lines, markers, horizontal bars, shaded spans and bands, and text placed at a data
point with an offset in points, as matplotlib's `annotate` does; lines and shapes are clipped
to their axes. Ticks are chosen as matplotlib's `MaxNLocator` chooses them (at most `bins`
intervals, steps 1, 2, 2.5, 5 or 10 times a power of ten).

Why not matplotlib, which drew these charts before (issue 16, "sub-second runs"): importing
it costs 0.28-0.43 s of CPU and drawing the seven charts of a report another 0.35 s, while the
whole `diskmodel run` must stay under 1 s and took 0.85-0.92 s with every chart stubbed out.
What the report draws (a few lines, bars and labels on linear axes) is this module's few
hundred lines; the browser renders the text, so the only font knowledge needed is an average
character width (`CHAR_WIDTH_EM`, generous, so an estimate errs towards more room, never
towards clipping).

Reproducible: the same numbers give the same bytes (coordinates rounded to 1/100 pt, no
dates, ids numbered in drawing order and prefixed with the chart's key so that several
charts in one page never share one). Text from a scenario is escaped and only ever text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
CHAR_WIDTH_EM = 0.6
"""Width of an average character of DejaVu Sans in ems (generous: most are narrower)."""
ASCENT_EM = 0.76
"""Height of capitals above the baseline, in ems."""
DESCENT_EM = 0.24
"""Depth of descenders below the baseline, in ems."""
LINE_EM = 1.2
"""Distance between the baselines of a wrapped text's lines, in ems."""

FONT_PT = 9.0
"""Tick labels and axis labels."""
LEGEND_PT = 8.0
"""Legend entries."""
TICK_PT = 3.5
"""Length of a tick mark, outwards from the spine."""
TICK_PAD_PT = 3.5
"""Gap between a tick mark and its label."""
LABEL_PAD_PT = 4.0
"""Gap between the tick labels and the axis label."""
AXIS_COLOUR = "#000000"
GRID_COLOUR = "#dddddd"
GRID_WIDTH = 0.6
SPINE_WIDTH = 0.8

AREAS, BARS, LINES, ON_TOP = 0, 1, 2, 4
"""Drawing layers, bottom to top: shaded areas, bars, lines (their markers one layer above),
points marked over every line. Annotations are drawn last, above the axes and ticks."""

DASHES: dict[str, tuple[float, ...]] = {
    "-": (),
    "--": (3.7, 1.6),
    "-.": (6.4, 1.6, 1.0, 1.6),
    ":": (1.0, 1.65),
}
"""matplotlib's dash patterns, in multiples of the line width."""


def fmt(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros, never '-0'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def escape(text: str) -> str:
    return html.escape(text, quote=True)


def text_width(text: str, size_pt: float) -> float:
    """Estimated width in points of `text` (its longest line) at `size_pt`."""
    longest = max((len(line) for line in text.split("\n")), default=0)
    return longest * CHAR_WIDTH_EM * size_pt


# --------------------------------------------------------------------------- ticks


def nice_ticks(lo: float, hi: float, bins: int = 6) -> list[float]:
    """Ticks between `lo` and `hi`: the multiples of the smallest step of 1, 2, 2.5, 5 or 10
    times a power of ten that is at least a `bins`-th of the range (as matplotlib's
    `MaxNLocator(nbins=bins, steps=[1, 2, 2.5, 5, 10])` chooses it)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    raw = (hi - lo) / bins
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(
        f * magnitude for f in (1.0, 2.0, 2.5, 5.0, 10.0) if f * magnitude >= raw * (1 - 1e-9)
    )
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    return [_clean(k * step) for k in range(first, last + 1)]


def _clean(value: float) -> float:
    """`k * step` without its floating-point dust (0.30000000000000004 -> 0.3)."""
    return float(f"{value:.12g}")


def plain_labels(ticks: Sequence[float]) -> list[str]:
    """Tick labels with as many decimals as the step needs, the same for every tick (as
    matplotlib's default formatter writes them: 0.0, 0.5, 1.0)."""
    if len(ticks) < 2:
        return [f"{t:g}" for t in ticks]
    step = abs(ticks[1] - ticks[0])
    decimals = 0
    while decimals < 6 and abs(round(step, decimals) - step) > 1e-9 * max(step, 1e-300):
        decimals += 1
    texts = [f"{t:.{decimals}f}" for t in ticks]
    return [text.lstrip("-") if float(text) == 0 else text for text in texts]


def padded(lo: float, hi: float, margin: float = 0.05) -> tuple[float, float]:
    """Data limits widened by `margin` of their span at each end (matplotlib's default
    autoscaling); a single value gets a range around it."""
    if hi > lo:
        pad = margin * (hi - lo)
        return lo - pad, hi + pad
    pad = abs(lo) * margin if lo else 1.0
    return lo - pad, hi + pad


# --------------------------------------------------------------------------- markers


def marker(kind: str, x: float, y: float, size: float, paint: str) -> str:
    """One marker centred at (x, y), `size` points across, painted with the attributes
    `paint`: 'o' circle, 's' square, '^' 'v' triangles, 'D' diamond, 'P' plus, 'X' cross,
    '*' star (filled shapes), 'x' a cross of two strokes."""
    r = size / 2
    if kind == "x":
        d = f"M{fmt(x - r)} {fmt(y - r)}L{fmt(x + r)} {fmt(y + r)}"
        d += f"M{fmt(x - r)} {fmt(y + r)}L{fmt(x + r)} {fmt(y - r)}"
        return f'<path d="{d}" {paint}/>'
    unit = _MARKER_POINTS.get(kind)
    if unit is None:  # 'o', and any other name
        return f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" {paint}/>'
    points = " ".join(f"{fmt(x + px * r)},{fmt(y - py * r)}" for px, py in unit)
    return f'<polygon points="{points}" {paint}/>'


def _star(points: int, inner: float) -> tuple[tuple[float, float], ...]:
    out = []
    for i in range(2 * points):
        radius = 1.0 if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / points
        out.append((radius * math.cos(angle), radius * math.sin(angle)))
    return tuple(out)


def _plus(half_width: float) -> tuple[tuple[float, float], ...]:
    """A plus sign's outline, arms of `half_width`, going round from the top arm."""
    t = half_width
    corners = ((-t, 1), (t, 1), (t, t), (1, t), (1, -t), (t, -t))
    return tuple((x, y) for x, y in corners) + tuple((-x, -y) for x, y in corners)


def _turned(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """The shape turned by 45 degrees (a plus becomes a cross)."""
    c = math.sqrt(0.5)
    return tuple(((x - y) * c, (x + y) * c) for x, y in points)


_MARKER_POINTS: dict[str, tuple[tuple[float, float], ...]] = {
    "s": ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)),
    "^": ((0.0, 1.0), (0.87, -0.6), (-0.87, -0.6)),
    "v": ((0.0, -1.0), (0.87, 0.6), (-0.87, 0.6)),
    "D": ((0.0, 1.0), (0.8, 0.0), (0.0, -1.0), (-0.8, 0.0)),
    "P": _plus(0.3),
    "X": _turned(_plus(0.3)),
    "*": _star(5, 0.45),
}


# --------------------------------------------------------------------------- styles


@dataclass(frozen=True)
class LineStyle:
    """How a line and its markers look (matplotlib's names: '-', '--', '-.', ':')."""

    colour: str
    width: float = 1.6
    dash: str | tuple[float, ...] = "-"
    marker: str | None = None
    marker_size: float = 4.0
    marker_face: str | None = None
    """Marker fill: None for the line's colour, 'none' for a ring."""
    marker_edge_width: float = 1.0

    def stroke(self) -> str:
        attrs = f'stroke="{self.colour}" stroke-width="{fmt(self.width)}"'
        pattern = DASHES[self.dash] if isinstance(self.dash, str) else self.dash
        if pattern:
            scale = self.width if isinstance(self.dash, str) else 1.0
            attrs += f' stroke-dasharray="{" ".join(fmt(v * scale) for v in pattern)}"'
        return attrs

    def marker_paint(self) -> str:
        """Fill and edge of the markers: an 'x' is strokes only."""
        edge = f'stroke="{self.colour}" stroke-width="{fmt(self.marker_edge_width)}"'
        face = self.colour if self.marker_face is None else self.marker_face
        return f'fill="{"none" if self.marker == "x" else face}" {edge}'


@dataclass(frozen=True)
class PatchStyle:
    """How a filled area looks: colour, opacity, hatching ('//', '..', 'xx' ...), edge."""

    colour: str
    alpha: float = 1.0
    hatch: str | None = None
    edge: str | None = None
    edge_width: float = 0.0


@dataclass(frozen=True)
class LegendEntry:
    """One legend entry: its text and a line (with its marker) or a patch as its handle."""

    label: str
    line: LineStyle | None = None
    patch: PatchStyle | None = None


# --------------------------------------------------------------------------- figure


class Figure:
    """An SVG drawing `width` x `height` points; ids start with `key`."""

    def __init__(self, key: str, width: float, height: float) -> None:
        self.key = key
        self.width = width
        self.height = height
        self.axes: list[Axes] = []
        self._defs: list[str] = []
        self._after: list[str] = []
        self._patterns: dict[tuple[str, str], str] = {}
        self._ids = 0

    def new_id(self, kind: str) -> str:
        self._ids += 1
        return f"{self.key}-{kind}{self._ids}"

    def add_axes(self, left: float, top: float, width: float, height: float) -> Axes:
        """Axes whose plot rectangle starts `left` points from the left edge and `top`
        points from the top edge."""
        ax = Axes(self, left, top, width, height)
        self.axes.append(ax)
        return ax

    def fill(self, style: PatchStyle) -> str:
        """The fill attributes of a patch: its colour, or a hatch pattern over it."""
        if not style.hatch:
            return f'fill="{style.colour}"' + (
                f' fill-opacity="{fmt(style.alpha)}"' if style.alpha < 1 else ""
            )
        key = (style.colour, style.hatch)
        if key not in self._patterns:
            pattern_id = self.new_id("hatch")
            self._patterns[key] = pattern_id
            self._defs.append(_hatch_pattern(pattern_id, style.colour, style.hatch))
        return f'fill="url(#{self._patterns[key]})"'

    def legend(self, entries: Sequence[LegendEntry], columns: int, bottom: float) -> None:
        """`entries` under the plot in `columns` columns, row by row, centred, the last row's
        bottom `bottom` points above the figure's bottom edge."""
        if not entries:
            return
        size = LEGEND_PT
        handle = 2.6 * size
        pad = 0.8 * size
        spacing = 2.0 * size
        # each column as wide as its widest entry (entries fill the rows left to right)
        widths = [
            max(text_width(e.label, size) for e in entries[c::columns]) + handle + pad
            for c in range(min(columns, len(entries)))
        ]
        lefts = [max(2.0, (self.width - sum(widths) - (len(widths) - 1) * spacing) / 2)]
        for w in widths[:-1]:
            lefts.append(lefts[-1] + w + spacing)
        rows = [entries[i : i + columns] for i in range(0, len(entries), columns)]
        line_h = LINE_EM * size
        lines_per_row = max(e.label.count("\n") + 1 for e in entries)
        row_h = max(line_h * lines_per_row, 1.25 * size) + 0.35 * size
        top = self.height - bottom - row_h * len(rows)
        for r, row in enumerate(rows):
            y_mid = top + r * row_h + (row_h - 0.35 * size) / 2
            for c, entry in enumerate(row):
                x = lefts[c]
                self._after.append(_legend_handle(self, entry, x, y_mid, handle))
                n_lines = entry.label.count("\n") + 1
                first_baseline = y_mid - (n_lines - 1) * line_h / 2 + 0.35 * size
                self._after.append(
                    text_element(entry.label, x + handle + pad, first_baseline, size=size)
                )

    def svg(self, title: str, css_class: str = "chart-svg") -> str:
        title_xml = escape(title)
        parts = [
            f'<svg role="img" aria-label="{title_xml}" class="{css_class}" '
            f'xmlns="http://www.w3.org/2000/svg" width="{fmt(self.width)}pt" '
            f'height="{fmt(self.height)}pt" viewBox="0 0 {fmt(self.width)} {fmt(self.height)}" '
            f'font-family="{FONT_FAMILY}">',
            f"<title>{title_xml}</title>",
        ]
        body = [ax.render() for ax in self.axes]
        if self._defs or any(ax.clip_id for ax in self.axes):
            clips = [
                f'<clipPath id="{ax.clip_id}"><rect x="{fmt(ax.left)}" y="{fmt(ax.top)}" '
                f'width="{fmt(ax.width)}" height="{fmt(ax.height)}"/></clipPath>'
                for ax in self.axes
                if ax.clip_id
            ]
            parts.append("<defs>" + "".join(clips + self._defs) + "</defs>")
        parts.append(
            f'<rect width="{fmt(self.width)}" height="{fmt(self.height)}" fill="#ffffff"/>'
        )
        parts.extend(body)
        parts.extend(self._after)
        parts.append("</svg>")
        return "\n".join(parts)


def _legend_handle(fig: Figure, entry: LegendEntry, x: float, y: float, length: float) -> str:
    if entry.patch is not None:
        h = 0.7 * LEGEND_PT
        return (
            f'<rect x="{fmt(x)}" y="{fmt(y - h / 2)}" width="{fmt(length)}" height="{fmt(h)}" '
            f"{fig.fill(entry.patch)}/>"
        )
    line = entry.line
    if line is None:
        return ""
    out = ""
    if line.width > 0:
        out = f'<path d="M{fmt(x)} {fmt(y)}H{fmt(x + length)}" fill="none" {line.stroke()}/>'
    if line.marker:
        out += marker(line.marker, x + length / 2, y, line.marker_size, line.marker_paint())
    return out


def _hatch_pattern(pattern_id: str, colour: str, hatch: str) -> str:
    """A 6-point tile: the colour, with white hatching drawn over it (as the bars' edges)."""
    n = 6.0
    strokes = {
        "/": f"M0 {n}L{n} 0M-1 1L1 -1M{n - 1} {n + 1}L{n + 1} {n - 1}",
        "\\": f"M0 0L{n} {n}M-1 {n - 1}L1 {n + 1}M{n - 1} -1L{n + 1} 1",
        "x": f"M0 {n}L{n} 0M0 0L{n} {n}",
        "+": f"M{n / 2} 0V{n}M0 {n / 2}H{n}",
        "-": f"M0 {n / 2}H{n}",
    }
    shapes = ""
    if hatch[0] == ".":
        shapes = "".join(
            f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="0.8" fill="#ffffff"/>'
            for cx, cy in ((1.5, 1.5), (4.5, 4.5))
        )
    else:
        d = strokes.get(hatch[0], strokes["/"])
        shapes = f'<path d="{d}" stroke="#ffffff" stroke-width="1"/>'
    return (
        f'<pattern id="{pattern_id}" patternUnits="userSpaceOnUse" width="{fmt(n)}" '
        f'height="{fmt(n)}"><rect width="{fmt(n)}" height="{fmt(n)}" fill="{colour}"/>'
        f"{shapes}</pattern>"
    )


def text_element(
    text: str,
    x: float,
    y: float,
    *,
    size: float = FONT_PT,
    colour: str = "#000000",
    anchor: str = "start",
    rotate: bool = False,
) -> str:
    """A `<text>` whose first baseline is at (x, y); further lines of `text` below it."""
    attrs = f'x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if colour != "#000000":
        attrs += f' fill="{colour}"'
    if rotate:
        attrs += f' transform="rotate(-90 {fmt(x)} {fmt(y)})"'
    lines = text.split("\n")
    if len(lines) == 1:
        return f"<text {attrs}>{escape(text)}</text>"
    spans = "".join(
        f'<tspan x="{fmt(x)}" dy="{fmt(0 if i == 0 else LINE_EM * size)}">{escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f"<text {attrs}>{spans}</text>"


def baseline(y: float, n_lines: int, size: float, align: str) -> float:
    """The first baseline of a text of `n_lines` whose `align` ('top', 'center', 'bottom',
    'baseline') edge is at `y` (SVG y grows downwards)."""
    if align == "baseline":
        return y
    height = ((n_lines - 1) * LINE_EM + ASCENT_EM + DESCENT_EM) * size
    top = {"top": y, "center": y - height / 2, "bottom": y - height}[align]
    return top + ASCENT_EM * size


# --------------------------------------------------------------------------- axes


@dataclass
class _Axis:
    lo: float = 0.0
    hi: float = 1.0
    ticks: tuple[float, ...] = ()
    labels: tuple[str, ...] = ()
    colours: tuple[str | None, ...] = ()
    label: str = ""
    grid: bool = True


class Axes:
    """A plot rectangle with linear x and y scales; set the limits before drawing data."""

    def __init__(self, fig: Figure, left: float, top: float, width: float, height: float) -> None:
        self.fig = fig
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.xaxis = _Axis()
        self.yaxis = _Axis()
        self.clip_id = ""
        self.legend_entries: list[LegendEntry] = []
        self._layers: list[tuple[int, bool, str]] = []
        self._notes: list[str] = []

    # ---- scales

    def set_xlim(self, lo: float, hi: float) -> None:
        self.xaxis.lo, self.xaxis.hi = _limits(lo, hi)

    def set_ylim(self, lo: float, hi: float) -> None:
        self.yaxis.lo, self.yaxis.hi = _limits(lo, hi)

    def px(self, x: float) -> float:
        a = self.xaxis
        return self.left + (x - a.lo) / (a.hi - a.lo) * self.width

    def py(self, y: float) -> float:
        a = self.yaxis
        return self.top + self.height - (y - a.lo) / (a.hi - a.lo) * self.height

    def point(
        self, x: float, y: float, coords: tuple[str, str] = ("data", "data")
    ) -> tuple[float, float]:
        """SVG coordinates of (x, y), each in 'data' or 'axes' (fraction of the rectangle)."""
        sx = self.px(x) if coords[0] == "data" else self.left + x * self.width
        sy = self.py(y) if coords[1] == "data" else self.top + (1 - y) * self.height
        return sx, sy

    # ---- ticks and labels

    def set_xticks(
        self,
        ticks: Sequence[float],
        labels: Sequence[str] | Callable[[float], str] | None = None,
        colours: Sequence[str | None] = (),
    ) -> None:
        self._ticks(self.xaxis, ticks, labels, colours)

    def set_yticks(
        self,
        ticks: Sequence[float],
        labels: Sequence[str] | Callable[[float], str] | None = None,
    ) -> None:
        self._ticks(self.yaxis, ticks, labels, ())

    @staticmethod
    def _ticks(
        axis: _Axis,
        ticks: Sequence[float],
        labels: Sequence[str] | Callable[[float], str] | None,
        colours: Sequence[str | None],
    ) -> None:
        span = axis.hi - axis.lo
        shown = [t for t in ticks if axis.lo - 1e-9 * span <= t <= axis.hi + 1e-9 * span]
        # a tick outside the limits is left out, with its label and colour
        if labels is None:
            texts = plain_labels(shown)
        elif callable(labels):
            texts = [labels(t) for t in shown]
        else:
            keep = set(shown)
            texts = [label for t, label in zip(ticks, labels, strict=True) if t in keep]
        axis.ticks = tuple(shown)
        axis.labels = tuple(texts)
        axis.colours = tuple(c for t, c in zip(ticks, colours, strict=False) if t in set(shown))

    def set_xlabel(self, text: str) -> None:
        self.xaxis.label = text

    def set_ylabel(self, text: str) -> None:
        self.yaxis.label = text

    def grid(self, x: bool = True, y: bool = True) -> None:
        self.xaxis.grid = x
        self.yaxis.grid = y

    # ---- data

    def _add(self, z: int, element: str, clip: bool = True) -> None:
        if clip and not self.clip_id:
            self.clip_id = self.fig.new_id("clip")
        self._layers.append((z, clip, element))

    def plot(
        self,
        x: Sequence[float],
        y: Sequence[float],
        style: LineStyle,
        label: str | None = None,
        mark_every: int = 1,
        draw_line: bool = True,
        clip: bool = True,
        z: int = LINES,
    ) -> None:
        """A line through the points, with `style.marker` at every `mark_every`-th point, in
        layer `z` (its markers one above). A point with a coordinate that is not finite is left
        out and breaks the line there."""
        runs: list[list[tuple[float, float]]] = [[]]
        for a, b in zip(x, y, strict=True):
            if math.isfinite(a) and math.isfinite(b):
                runs[-1].append((self.px(a), self.py(b)))
            elif runs[-1]:
                runs.append([])
        points = [p for run in runs for p in run]
        if draw_line and style.width > 0 and any(len(run) > 1 for run in runs):
            d = "".join(
                "M" + "L".join(f"{fmt(a)} {fmt(b)}" for a, b in run) for run in runs if len(run) > 1
            )
            self._add(
                z,
                f'<path d="{d}" fill="none" {style.stroke()} stroke-linejoin="round" '
                'stroke-linecap="butt"/>',
                clip,
            )
        if style.marker:
            paint = style.marker_paint()
            marks = "".join(
                marker(style.marker, a, b, style.marker_size, paint)
                for a, b in points[::mark_every]
            )
            if marks:
                self._add(z + 1, f"<g>{marks}</g>", clip)
        if label is not None:
            self.legend_entries.append(
                LegendEntry(label, line=style if draw_line else _marker_only(style))
            )

    def fill_between(
        self, x: Sequence[float], low: Sequence[float], high: Sequence[float], style: PatchStyle
    ) -> None:
        """The area between `low` and `high` over `x` (points not all finite are left out)."""
        kept = [
            (self.px(a), self.py(b), self.py(c))
            for a, b, c in zip(x, low, high, strict=True)
            if math.isfinite(a) and math.isfinite(b) and math.isfinite(c)
        ]
        if not kept:
            return
        top = [f"{fmt(a)} {fmt(c)}" for a, _, c in kept]
        bottom = [f"{fmt(a)} {fmt(b)}" for a, b, _ in reversed(kept)]
        self._add(AREAS, f'<path d="M{"L".join(top + bottom)}Z" {self.fig.fill(style)}/>')

    def barh(
        self,
        y: Sequence[float],
        widths: Sequence[float],
        height: float,
        style: PatchStyle,
        left: Sequence[float] | None = None,
        label: str | None = None,
    ) -> None:
        """Horizontal bars centred on `y`, `height` in data units, from `left` (0)."""
        starts = list(left) if left is not None else [0.0] * len(widths)
        paint = self.fig.fill(style)
        if style.edge:
            paint += f' stroke="{style.edge}" stroke-width="{fmt(style.edge_width)}"'
        rects = []
        for yi, w, x0 in zip(y, widths, starts, strict=True):
            if not (w > 0 and math.isfinite(w) and math.isfinite(x0) and math.isfinite(yi)):
                continue
            x_a, x_b = self.px(x0), self.px(x0 + w)
            y_a, y_b = self.py(yi + height / 2), self.py(yi - height / 2)
            rects.append(
                f'<rect x="{fmt(x_a)}" y="{fmt(y_a)}" width="{fmt(x_b - x_a)}" '
                f'height="{fmt(y_b - y_a)}" {paint}/>'
            )
        if rects:
            self._add(BARS, "<g>" + "".join(rects) + "</g>")
        if label is not None:
            self.legend_entries.append(LegendEntry(label, patch=style))

    def axvspan(self, x0: float, x1: float, style: PatchStyle, label: str | None = None) -> None:
        a, b = self.px(x0), self.px(x1)
        self._add(
            AREAS,
            f'<rect x="{fmt(a)}" y="{fmt(self.top)}" width="{fmt(b - a)}" '
            f'height="{fmt(self.height)}" {self.fig.fill(style)}/>',
        )
        if label is not None:
            self.legend_entries.append(LegendEntry(label, patch=style))

    def axvline(self, x: float, style: LineStyle) -> None:
        if not math.isfinite(x):
            return
        sx = fmt(self.px(x))
        self._add(
            LINES,
            f'<path d="M{sx} {fmt(self.top)}V{fmt(self.top + self.height)}" fill="none" '
            f"{style.stroke()}/>",
        )

    def axhline(self, y: float, style: LineStyle) -> None:
        if not math.isfinite(y):
            return
        sy = fmt(self.py(y))
        self._add(
            LINES,
            f'<path d="M{fmt(self.left)} {sy}H{fmt(self.left + self.width)}" fill="none" '
            f"{style.stroke()}/>",
        )

    def annotate(
        self,
        text: str,
        xy: tuple[float, float],
        offset: tuple[float, float] = (0.0, 0.0),
        *,
        coords: tuple[str, str] = ("data", "data"),
        size: float = 8.0,
        colour: str = "#000000",
        anchor: str = "start",
        align: str = "baseline",
    ) -> None:
        """`text` at the point `xy` moved by `offset` points (right and up, as matplotlib's
        offset points), its `anchor` ('start', 'middle', 'end') and `align` edge there."""
        if not (math.isfinite(xy[0]) and math.isfinite(xy[1])):
            return
        x, y = self.point(*xy, coords=coords)
        x += offset[0]
        y -= offset[1]
        first = baseline(y, text.count("\n") + 1, size, align)
        self._notes.append(text_element(text, x, first, size=size, colour=colour, anchor=anchor))

    # ---- rendering

    def render(self) -> str:
        out: list[str] = []
        right = self.left + self.width
        bottom = self.top + self.height
        grid = []
        if self.xaxis.grid:
            grid += [f"M{fmt(self.px(t))} {fmt(self.top)}V{fmt(bottom)}" for t in self.xaxis.ticks]
        if self.yaxis.grid:
            grid += [f"M{fmt(self.left)} {fmt(self.py(t))}H{fmt(right)}" for t in self.yaxis.ticks]
        if grid:
            out.append(
                f'<path d="{"".join(grid)}" fill="none" stroke="{GRID_COLOUR}" '
                f'stroke-width="{fmt(GRID_WIDTH)}"/>'
            )
        layers = sorted(self._layers, key=lambda layer: layer[0])
        clipped = [element for _, clip, element in layers if clip]
        if clipped:
            out.append(f'<g clip-path="url(#{self.clip_id})">' + "".join(clipped) + "</g>")
        out.extend(element for _, clip, element in layers if not clip)
        out.append(
            f'<path d="M{fmt(self.left)} {fmt(self.top)}V{fmt(bottom)}H{fmt(right)}" '
            f'fill="none" stroke="{AXIS_COLOUR}" stroke-width="{fmt(SPINE_WIDTH)}"/>'
        )
        out.extend(self._x_ticks(bottom))
        out.extend(self._y_ticks())
        out.extend(self._notes)
        return "\n".join(out)

    def _x_ticks(self, bottom: float) -> list[str]:
        a = self.xaxis
        out = []
        if a.ticks:
            d = "".join(f"M{fmt(self.px(t))} {fmt(bottom)}v{fmt(TICK_PT)}" for t in a.ticks)
            out.append(f'<path d="{d}" stroke="{AXIS_COLOUR}" stroke-width="{fmt(SPINE_WIDTH)}"/>')
        y = bottom + TICK_PT + TICK_PAD_PT + ASCENT_EM * FONT_PT
        deepest = 0
        for i, (t, label) in enumerate(zip(a.ticks, a.labels, strict=True)):
            colour = (a.colours[i] if i < len(a.colours) else None) or "#000000"
            out.append(
                text_element(label, self.px(t), y, size=FONT_PT, colour=colour, anchor="middle")
            )
            deepest = max(deepest, label.count("\n"))
        if a.label:
            label_y = y + (deepest * LINE_EM + DESCENT_EM) * FONT_PT + LABEL_PAD_PT
            label_y += ASCENT_EM * FONT_PT
            out.append(
                text_element(
                    a.label, self.left + self.width / 2, label_y, size=FONT_PT, anchor="middle"
                )
            )
        return out

    def _y_ticks(self) -> list[str]:
        a = self.yaxis
        out = []
        if a.ticks:
            d = "".join(f"M{fmt(self.left)} {fmt(self.py(t))}h{fmt(-TICK_PT)}" for t in a.ticks)
            out.append(f'<path d="{d}" stroke="{AXIS_COLOUR}" stroke-width="{fmt(SPINE_WIDTH)}"/>')
        x = self.left - TICK_PT - TICK_PAD_PT
        widest = 0.0
        for t, label in zip(a.ticks, a.labels, strict=True):
            first = baseline(self.py(t), label.count("\n") + 1, FONT_PT, "center")
            out.append(text_element(label, x, first, size=FONT_PT, anchor="end"))
            widest = max(widest, text_width(label, FONT_PT))
        if a.label:
            # rotated a quarter turn: the glyphs rise leftwards from the baseline
            label_x = x - widest - LABEL_PAD_PT - DESCENT_EM * FONT_PT
            label_x = max(label_x, ASCENT_EM * FONT_PT + 1.0)
            out.append(
                text_element(
                    a.label,
                    label_x,
                    self.top + self.height / 2,
                    size=FONT_PT,
                    anchor="middle",
                    rotate=True,
                )
            )
        return out


def _limits(lo: float, hi: float) -> tuple[float, float]:
    """An axis's limits: finite, and the upper above the lower."""
    lo = lo if math.isfinite(lo) else 0.0
    hi = hi if math.isfinite(hi) else lo + 1.0
    return lo, hi if hi > lo else lo + 1.0


def _marker_only(style: LineStyle) -> LineStyle:
    return LineStyle(
        style.colour,
        width=0.0,
        dash=style.dash,
        marker=style.marker,
        marker_size=style.marker_size,
        marker_face=style.marker_face,
        marker_edge_width=style.marker_edge_width,
    )
