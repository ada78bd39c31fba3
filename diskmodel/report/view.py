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
class Warning:
    """Something a planner must not miss, for one configuration (or all when it is empty)."""

    level: Level
    configuration: str
    text: str

    @property
    def level_text(self) -> str:
        """The word shown before the warning."""
        return {"ok": "ok", "warning": "warning", "critical": "critical"}[self.level]


@dataclass(frozen=True)
class Chart:
    """One chart: its anchor, title, caption and the SVG drawn by `diskmodel.report.charts`.

    `svg` is `Markup` because charts.py writes it from escaped text only (matplotlib escapes
    every label); nothing else in the view is trusted as markup.
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
    """One table row: a header (what the row is) and one cell per column after it."""

    header: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Table:
    """One table: anchor, caption, column headers (the first heads the row headers), rows."""

    key: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    note: str = ""


@dataclass(frozen=True)
class Report:
    """Everything the page shows, in the order it shows it."""

    title: str
    description: str
    answers: tuple[Answer, ...]
    warnings: tuple[Warning, ...]
    charts: tuple[Chart, ...]
    tables: tuple[Table, ...]
    warn_threshold: str
    generated: str | None
