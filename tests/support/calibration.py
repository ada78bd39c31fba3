"""Collects each calibration's predicted vs published figure and prints them after the run
(`write_summary`, called from tests/conftest.py's `pytest_terminal_summary`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Calibration:
    figure: str  # DOMAIN.md item, e.g. "C1"
    quantity: str
    predicted: float
    published: str
    error: str
    tolerance: str


RESULTS: list[Calibration] = []


def record(
    figure: str, quantity: str, predicted: float, published: str, error: str, tolerance: str
) -> None:
    """Keep one comparison for the summary; also printed at once (visible with -s)."""
    row = Calibration(figure, quantity, predicted, published, error, tolerance)
    RESULTS.append(row)
    print(
        f"{figure} {quantity}: predicted {predicted:.4g}, published {published}, "
        f"error {error} (tolerance {tolerance})"
    )


def write_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The comparisons recorded in this process, one line each, after the run."""
    if not RESULTS:
        return
    terminalreporter.section("calibration against DOMAIN.md (predicted vs published)")
    for r in RESULTS:
        terminalreporter.write_line(
            f"{r.figure:3} {r.quantity:58} predicted {r.predicted:10.5g}  published "
            f"{r.published:14}  error {r.error:>9}  tolerance {r.tolerance}"
        )
