"""Where the charts put their marks and words (issue 31 item 5, issue 33): read back from
Vega's scene graph of each chart (every mark's position as drawn), so a mark outside its plot
or a word outside the chart is caught without a browser.

Before: the growth chart drew the response time only (no utilisation, a factor "not met" on
a utilisation limit looked fine) with its saturation crosses half above the frame and on top
of each other; a planned load above every configuration's maximum fell off the response
chart, its label drawn past the SVG's right edge; the response curve fell with no word why.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import vl_convert

from diskmodel.report import bar_charts, charts, panel_charts
from diskmodel.report.chart_marks import CHAR_EM, X_SHAPE, ChartSpec
from diskmodel.report.chart_svg import VEGA_LITE_VERSION


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def encloses(self, other: Box, margin: float = 0.0) -> bool:
        return self.holds(other.left, other.top, margin) and self.holds(
            other.right, other.bottom, margin
        )

    def holds(self, x: float, y: float, margin: float = 0.0) -> bool:
        return (
            self.left - margin <= x <= self.right + margin
            and self.top - margin <= y <= self.bottom + margin
        )


@dataclass(frozen=True)
class Drawn:
    """One item of the scene: its mark type and role, where it is (in the SVG's coordinates)
    and the item's own properties (text, shape, size, alignment)."""

    marktype: str
    role: str
    x: float
    y: float
    item: dict[str, Any]


@dataclass(frozen=True)
class Scene:
    frame: Box
    plots: list[Box]
    items: list[Drawn]

    def texts(self) -> list[tuple[str, Box]]:
        """Every text and the box it takes (its width estimated as the charts estimate it),
        rotated axis titles left out."""
        out = []
        for d in self.items:
            if d.marktype != "text" or d.item.get("angle"):
                continue
            text = d.item.get("text", "")
            lines = text if isinstance(text, list) else [str(text)]
            size = float(d.item.get("fontSize", 11))
            width = max(len(line) for line in lines) * CHAR_EM * size
            x = d.x + float(d.item.get("dx", 0))
            y = d.y + float(d.item.get("dy", 0))
            left = {"left": x, "center": x - width / 2, "right": x - width}[
                d.item.get("align", "left")
            ]
            top = {
                "top": y,
                "middle": y - size / 2,
                "bottom": y - size,
                "alphabetic": y - 0.76 * size,
            }[d.item.get("baseline", "alphabetic")]
            height = size * len(lines)
            out.append(("\n".join(lines), Box(left, top, left + width, top + height)))
        return out

    def crosses(self) -> list[tuple[float, float, float]]:
        """(x, y, half size) of every 'x' marker."""
        return [
            (d.x, d.y, math.sqrt(float(d.item.get("size", 64))) / 2)
            for d in self.items
            if d.marktype == "symbol" and d.item.get("shape") == X_SHAPE
        ]


PLOT = re.compile(r"root|concat_\d+_group")
"""The groups that are plots: a single plot's root, or each plot of a concatenation (the
root of a concatenation has no width)."""


def _scene(chart: ChartSpec) -> Scene:
    graph = vl_convert.vegalite_to_scenegraph(chart.spec, vl_version=VEGA_LITE_VERSION)
    ox, oy = graph["origin"]
    items: list[Drawn] = []
    plots: list[Box] = []

    def walk(mark: dict[str, Any], x0: float, y0: float) -> None:
        for item in mark.get("items", []):
            x, y = x0 + float(item.get("x", 0)), y0 + float(item.get("y", 0))
            if mark["marktype"] != "group":
                items.append(Drawn(mark["marktype"], mark.get("role", ""), x, y, item))
                continue
            if PLOT.fullmatch(mark.get("name") or "") and item.get("width"):
                plots.append(Box(x, y, x + item["width"], y + item["height"]))
            for child in item.get("items", []):
                walk(child, x, y)

    walk(graph["scenegraph"], ox, oy)
    return Scene(Box(0.0, 0.0, float(graph["width"]), float(graph["height"])), plots, items)


def _growth() -> ChartSpec:
    lines = [
        panel_charts.GrowthLine(
            "tiered",
            (1.0, 1.25, 1.5, 2.0),
            (5.8, 6.7, 7.9, 13.4),
            (0.42, 0.52, 0.62, 0.80),
            (False, False, False, False),
        ),
        panel_charts.GrowthLine(
            "Easy Tier off",
            (1.0, 1.25, 1.5, 2.0),
            (math.inf,) * 4,
            (1.0,) * 4,
            (False,) * 4,
        ),
        panel_charts.GrowthLine(
            "bigger",
            (1.0, 1.25, 1.5, 2.0),
            (2.0, 2.2, 2.5, math.inf),
            (0.3, 0.4, 0.5, 1.0),
            (True, True, True, False),
        ),
    ]
    return panel_charts.growth_chart(lines, 5.0, [("ceiling 70% (rank)", 0.7)])


def test_the_growth_chart_shows_the_target_the_ceiling_and_the_utilisation_panel() -> None:
    scene = _scene(_growth())
    assert len(scene.plots) == 2, "a response-time panel and a utilisation panel"
    words = [w for w, _ in scene.texts()]
    assert "target 5 ms" in words
    assert "ceiling 70% (rank)" in words
    assert "service level not met" in words
    assert "saturated (no response time)" in words
    assert any("utilisation" in str(d.item.get("text", "")) for d in scene.items)


def test_growth_saturation_crosses_sit_inside_the_frame_one_row_per_line() -> None:
    scene = _scene(_growth())
    response = scene.plots[0]
    inside = [(x, y, r) for x, y, r in scene.crosses() if response.holds(x, y)]
    assert len(inside) == 5  # four of "Easy Tier off", one of "bigger"
    for x, y, r in inside:
        assert response.encloses(Box(x - r, y - r, x + r, y + r)), (x, y)
    rows = {round(y, 3) for _, y, _ in inside}
    assert len(rows) == 2, "each line's crosses on a row of their own"
    (low, high) = sorted(rows)
    assert high - low >= 2 * inside[0][2], "rows far enough apart not to overlap"


def test_every_growth_chart_word_is_inside_the_chart() -> None:
    scene = _scene(_growth())
    for words, box in scene.texts():
        assert scene.frame.encloses(box, 1), words


def _series(name: str, saturation: float) -> charts.Series:
    x = tuple(saturation * i / 20 for i in range(1, 21))
    y = tuple(4.0 / (1 - v / saturation) if v < saturation else math.inf for v in x)
    return charts.Series(name, x, y)


def test_a_planned_load_above_every_maximum_is_drawn_inside_the_chart_and_marked() -> None:
    series = [_series("A", 4_000.0), _series("B", 4_800.0)]
    chart = charts.response_time_chart(
        series, [], 6_000.0, target_ms=5.0, saturated_at=[("A", 6_000.0), ("B", 6_000.0)]
    )
    scene = _scene(chart)
    plot = scene.plots[0]
    texts = scene.texts()
    label = next(box for words, box in texts if words.startswith("planned load 6,000"))
    assert scene.frame.encloses(label)
    saturated = [box for words, box in texts if words == "saturated"]
    assert len(saturated) == 2
    for box in saturated:
        assert plot.encloses(box)
    crosses = [c for c in scene.crosses() if plot.holds(c[0], c[1])]
    assert len(crosses) == 2


def test_a_shaded_placement_change_is_labelled_inside_the_plot() -> None:
    series = [_series("A", 4_000.0)]
    chart = charts.response_time_chart(
        series, [], 1_000.0, spans=[(3_700.0, 3_950.0, "placement change")]
    )
    scene = _scene(chart)
    box = next(b for words, b in scene.texts() if words == "placement change")
    assert scene.plots[0].encloses(box)


def test_the_growth_chart_draws_a_target_far_above_its_lines() -> None:
    """Growth at 1.2 to 1.4 ms under a 5 ms target: the target was left off the chart, so
    nothing showed the service level."""
    line = panel_charts.GrowthLine(
        "a", (1.3, 1.69, 2.197), (1.2, 1.3, 1.4), (0.4, 0.5, 0.66), (True,) * 3
    )
    scene = _scene(panel_charts.growth_chart([line], 5.0, [("ceiling 70% (DA pair)", 0.7)]))
    words = [w for w, _ in scene.texts()]
    assert "target 5 ms" in words
    assert "service level not met" not in words


def test_every_word_of_every_chart_is_inside_its_chart() -> None:
    """Legends, tick labels and notes of each kind of chart, long names included."""
    name = "configuration with a long descriptive name (conservative sizing), wrapped"
    for chart in (
        charts.response_time_chart(
            [_series(name, 4_000.0), _series("B", 4_800.0)], [], 3_900.0, target_ms=5.0
        ),
        charts.sweep_chart([0.0, 1.0, 2.0], [(name, [100.0, 200.0, 300.0])], 290.0, "ranks"),
        charts.placement_chart([1.0, 2.0], [("ssd", [0.6, 0.5]), (name, [0.4, 0.5])], 1.9),
        bar_charts.utilization_chart([bar_charts.BarGroup(name, (0.5, 0.9996))], [name, "B"]),
    ):
        scene = _scene(chart)
        for words, box in scene.texts():
            if words and "\n" not in words:
                assert scene.frame.encloses(box, 1), (chart.title, words)


def test_the_planned_load_label_moves_off_a_line_that_crosses_it() -> None:
    """A line rising through the top right of the planned load's line: its label goes to the
    left, where no line runs (it was drawn over the line)."""
    series = [charts.Series("A", (0.0, 1_000.0, 2_000.0, 2_500.0, 3_500.0), (4, 5, 6, 23, 23.5))]
    scene = _scene(charts.response_time_chart(series, [], 1_500.0))
    label = next(box for words, box in scene.texts() if words.startswith("planned load"))
    assert scene.plots[0].encloses(label)
    points = [d for d in scene.items if d.marktype == "symbol" and d.role == "mark"]
    assert len(points) >= 5
    assert not any(label.holds(d.x, d.y) for d in points)
