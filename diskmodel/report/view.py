"""The plain view data of an HTML sizing report: text and numbers already formatted, no HTML.

The report is built in two stages, as coverage.py builds its HTML: `diskmodel.report.html`
turns a `ScenarioPrediction` into these frozen records (every number formatted, every sentence
written, every chart drawn as SVG), and only then does the jinja2 template place them on the
page. The template makes no decisions and computes nothing; a test can read a report's content
from these records without parsing HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from markupsafe import Markup

Level = Literal["ok", "warning", "critical"]
CellKind = Literal["text", "num", "source"]

SHORT_ROWS = 8
"""A table of at most this many rows is kept whole on a printed page."""


@dataclass(frozen=True)
class HeadlineFigure:
    """One number of an answer card, e.g. ("3.12 ms", "response time at 25,000 IOPS")."""

    value: str
    label: str


@dataclass(frozen=True)
class Answer:
    """The answer for one configuration: one or two sentences and its headline figures."""

    configuration: str
    sentences: tuple[str, ...]
    figures: tuple[HeadlineFigure, ...]
    level: Level
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Alert:
    """Something a planner must not miss, for one configuration (or all when it is empty)."""

    level: Level
    configuration: str
    text: str


@dataclass(frozen=True)
class Chart:
    """One chart: its anchor, title, caption and the SVG drawn by `diskmodel.report.charts`.

    `svg` is `Markup` because Vega writes it from escaped text only (`report/chart_svg.py`,
    which adds the escaped title); nothing else in the view is trusted as markup.
    """

    key: str
    title: str
    caption: str
    svg: Markup


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, how it aligns (`num` right-aligned) and a warning level."""

    text: str
    kind: CellKind = "text"
    level: Literal["", "warning", "critical"] = ""


@dataclass(frozen=True)
class Row:
    """One table row: a header (what the row is) and one cell per column after it; or, with
    `group`, a heading across the table for the rows after it (a configuration's name)."""

    header: str
    cells: tuple[Cell, ...]
    group: bool = False


@dataclass(frozen=True)
class Table:
    """One table: anchor, caption, column headers (the first heads the row headers), rows."""

    key: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    note: str = ""
    detail: bool = False
    """Detail for a reviewer (every component): printed only with the appendix."""

    @property
    def short(self) -> bool:
        """Short enough to keep on one printed page with its caption and note."""
        return len(self.rows) <= SHORT_ROWS


@dataclass(frozen=True)
class SourceNote:
    """One distinct source or basis text of the catalog figures, numbered once for the page."""

    number: int
    text: str


@dataclass(frozen=True)
class FindingView:
    """One finding of the quality gate, as the page shows it."""

    level: Level
    subject: str
    cause: str
    remedy: str


@dataclass(frozen=True)
class CalibrationView:
    """The calibration section: its verdict, the gate's findings, the chart, the tables."""

    summary: str
    level: Level
    findings: tuple[FindingView, ...]
    chart: Chart
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class Report:
    """Everything the page shows, in the order it shows it.

    answers and alerts first (the first screen), then charts and result tables, then the
    calibration the scenario carries (`calibration`, if one); inputs are the configuration,
    workload and service-level tables; appendix the assumptions, defaults applied and catalog
    figures, whose sources are the numbered `sources`.

    On screen the page shows everything. Printed, it is the answer, the charts and the result
    tables, at most six A4 pages for the bundled example; the detail tables, the inputs and
    the appendix are printed too only with `print_appendix` (`diskmodel run --appendix`).
    """

    title: str
    description: str
    answers: tuple[Answer, ...]
    alerts: tuple[Alert, ...]
    all_clear: str
    charts: tuple[Chart, ...]
    tables: tuple[Table, ...]
    inputs: tuple[Table, ...]
    appendix: tuple[Table, ...]
    sources: tuple[SourceNote, ...]
    generated: str | None
    print_appendix: bool = False
    calibration: CalibrationView | None = None
