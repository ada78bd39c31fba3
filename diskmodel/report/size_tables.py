"""The HTML report's sizing table (`ScenarioPrediction.sizing`): the Pareto front of the
configurations `analyses.size` offered, with the current one and the cheapest meeting the
service level marked.

Reads the `SizingResult` only.
"""

from __future__ import annotations

from diskmodel.prediction import SizingResult
from diskmodel.report import display
from diskmodel.report.size_text import answer_lines, choice_text, verdict
from diskmodel.report.view import Cell, Row, Table


def sizing_table(r: SizingResult) -> Table:
    """The front, cheapest first, and the current configuration if it is not on it."""
    shown = list(r.front)
    if 0 not in shown:
        shown = [0, *shown]
    rows = []
    for i in shown:
        c = r.candidates[i]
        marks = [m for m, on in (("current", i == 0), ("cheapest", i == r.cheapest)) if on]
        rows.append(
            Row(
                choice_text(c) + (f" ({', '.join(marks)})" if marks else ""),
                (
                    Cell(f"{c.price:,.0f}" if c.price is not None else "–", "num"),
                    Cell(f"{c.drives:,}", "num"),
                    Cell(f"{c.power_w:,.0f}", "num"),
                    Cell(
                        display.milliseconds(c.response_time_ms)
                        if c.response_time_ms is not None
                        else display.SATURATED_TEXT,
                        "num",
                    ),
                    Cell(f"{c.busiest} {display.percent(c.busiest_utilization)}"),
                    Cell(verdict(c), "text", "" if c.meets else "warning"),
                    Cell(c.uneven or "–"),
                ),
            )
        )
    return Table(
        key="sizing",
        caption="Sizing: the cheapest configurations for each response time",
        columns=(
            "configuration",
            "price",
            "drives",
            "power W",
            "response ms now",
            "busiest now",
            f"service level through {r.periods[-1]}",
            "uneven placement",
        ),
        rows=tuple(rows),
        note=" ".join(_sentence(line) for line in answer_lines(r)),
    )


def _sentence(line: str) -> str:
    """A terminal line of the answer as a sentence of the table's note (the terminal prints
    each on its own line, without a capital or a full stop)."""
    line = line.strip()
    return line[:1].upper() + line[1:] + ("" if line.endswith(".") else ".")
