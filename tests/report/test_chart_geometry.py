"""Where the charts put their marks and words (issue 31 item 5, issue 33): read back from the
SVG, so a mark outside its plot or a word outside the chart is caught without a browser.

Before: the growth chart drew the response time only (no utilisation, a factor "not met" on
a utilisation limit looked fine) with its saturation crosses half above the frame and on top
of each other; a planned load above every configuration's maximum fell off the response
chart, its label drawn past the SVG's right edge; the response curve fell with no word why.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from diskmodel.report import charts
from diskmodel.report.svg_plot import text_width

NS = "{http://www.w3.org/2000/svg}"


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


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _plots(root: ET.Element) -> list[Box]:
    """Each plot's rectangle (its clip path)."""
    out = []
    for rect in root.iter(f"{NS}rect"):
        parent_is_clip = any(rect in list(c) for c in root.iter(f"{NS}clipPath"))
        if parent_is_clip:
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
            out.append(Box(x, y, x + w, y + h))
    return out


def _crosses(root: ET.Element) -> list[tuple[float, float, float]]:
    """(x, y, half size) of every 'x' marker: a path of two strokes corner to corner."""
    out = []
    for path in root.iter(f"{NS}path"):
        numbers = re.fullmatch(
            r"M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)",
            path.get("d", ""),
        )
        if numbers:
            x0, y0, x1, y1 = (float(v) for v in numbers.groups()[:4])
            out.append(((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2))
    return out


def _texts(root: ET.Element) -> list[tuple[str, Box]]:
    """Every text and the box it takes (its width estimated as the charts estimate it)."""
    out = []
    for t in root.iter(f"{NS}text"):
        if t.get("transform"):
            continue  # a rotated axis label
        words = "".join(t.itertext())
        size = float(t.get("font-size", 9))
        x, y = float(t.get("x", 0)), float(t.get("y", 0))
        width = max(text_width(line, size) for line in (words.split("\n") or [""]))
        anchor = t.get("text-anchor", "start")
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        out.append((words, Box(left, y - 0.76 * size, left + width, y + 0.24 * size)))
    return out


def _frame(root: ET.Element) -> Box:
    box = root.get("viewBox", "0 0 0 0").split()
    return Box(0.0, 0.0, float(box[2]), float(box[3]))


def _growth() -> str:
    lines = [
        charts.GrowthLine(
            "tiered",
            (1.0, 1.25, 1.5, 2.0),
            (5.8, 6.7, 7.9, 13.4),
            (0.42, 0.52, 0.62, 0.80),
            (False, False, False, False),
        ),
        charts.GrowthLine(
            "Easy Tier off",
            (1.0, 1.25, 1.5, 2.0),
            (math.inf,) * 4,
            (1.0,) * 4,
            (False,) * 4,
        ),
        charts.GrowthLine(
            "bigger",
            (1.0, 1.25, 1.5, 2.0),
            (2.0, 2.2, 2.5, math.inf),
            (0.3, 0.4, 0.5, 1.0),
            (True, True, True, False),
        ),
    ]
    return charts.growth_chart("g", lines, 5.0, [("ceiling 70% (rank)", 0.7)])


def test_the_growth_chart_shows_the_target_the_ceiling_and_the_utilisation_panel() -> None:
    root = _root(_growth())
    assert len(_plots(root)) == 2, "a response-time panel and a utilisation panel"
    words = [w for w, _ in _texts(root)]
    assert "target 5 ms" in words
    assert "ceiling 70% (rank)" in words
    assert "service level not met" in words
    assert "saturated (no response time)" in words
    assert any("utilisation" in w for w in root.itertext())


def test_growth_saturation_crosses_sit_inside_the_frame_one_row_per_line() -> None:
    root = _root(_growth())
    response = _plots(root)[0]
    inside = [  # the legend's cross is below the plot
        (x, y, r)
        for x, y, r in _crosses(root)
        if response.left <= x <= response.right and y < response.bottom
    ]
    assert len(inside) == 5  # four of "Easy Tier off", one of "bigger"
    for x, y, r in inside:
        assert response.encloses(Box(x - r, y - r, x + r, y + r)), (x, y)
    rows = {round(y, 3) for _, y, _ in inside}
    assert len(rows) == 2, "each line's crosses on a row of their own"
    (low, high) = sorted(rows)
    assert high - low >= 2 * inside[0][2], "rows far enough apart not to overlap"


def test_every_growth_chart_word_is_inside_the_chart() -> None:
    root = _root(_growth())
    frame = _frame(root)
    for words, box in _texts(root):
        assert frame.encloses(box, 1), words


def _series(name: str, saturation: float) -> charts.Series:
    x = tuple(saturation * i / 20 for i in range(1, 21))
    y = tuple(4.0 / (1 - v / saturation) if v < saturation else math.inf for v in x)
    return charts.Series(name, x, y)


def test_a_planned_load_above_every_maximum_is_drawn_inside_the_chart_and_marked() -> None:
    series = [_series("A", 4_000.0), _series("B", 4_800.0)]
    svg = charts.response_time_chart(
        "r", series, [], 6_000.0, target_ms=5.0, saturated_at=[("A", 6_000.0), ("B", 6_000.0)]
    )
    root = _root(svg)
    frame, plot = _frame(root), _plots(root)[0]
    texts = _texts(root)
    label = next(box for words, box in texts if words.startswith("planned load 6,000"))
    assert frame.encloses(label)
    saturated = [box for words, box in texts if words == "saturated"]
    assert len(saturated) == 2
    for box in saturated:
        assert plot.encloses(box)
    crosses = [c for c in _crosses(root) if plot.holds(c[0], c[1])]
    assert len(crosses) == 2


def test_a_shaded_placement_change_is_labelled_inside_the_plot() -> None:
    series = [_series("A", 4_000.0)]
    svg = charts.response_time_chart(
        "r", series, [], 1_000.0, spans=[(3_700.0, 3_950.0, "placement change")]
    )
    root = _root(svg)
    plot = _plots(root)[0]
    box = next(b for words, b in _texts(root) if words == "placement change")
    assert plot.encloses(box)


def test_the_growth_chart_draws_a_target_far_above_its_lines() -> None:
    """Growth at 1.2 to 1.4 ms under a 5 ms target: the target was left off the chart, so
    nothing showed the service level."""
    line = charts.GrowthLine(
        "a", (1.3, 1.69, 2.197), (1.2, 1.3, 1.4), (0.4, 0.5, 0.66), (True,) * 3
    )
    root = _root(charts.growth_chart("g", [line], 5.0, [("ceiling 70% (DA pair)", 0.7)]))
    assert "target 5 ms" in [w for w, _ in _texts(root)]
    assert "service level not met" not in [w for w, _ in _texts(root)]
