"""How numbers are shown: coverage.py's rule for percentages, and the docstring examples."""

from __future__ import annotations

import doctest
import math

from hypothesis import given
from hypothesis import strategies as st

from diskmodel.report import display


def test_docstring_examples_hold() -> None:
    failures, tried = doctest.testmod(display, report=False)
    assert tried >= 5
    assert failures == 0


@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
def test_percent_reads_100_only_when_exactly_full_and_0_only_when_exactly_idle(u: float) -> None:
    shown = display.percent(u)
    assert (shown == "100.0%") == (u == 1.0)
    assert (shown == "0.0%") == (u == 0.0)


@given(st.floats(min_value=0.0, max_value=1.0, allow_nan=False))
def test_percent_is_within_one_display_step_of_the_value(u: float) -> None:
    shown = float(display.percent(u).rstrip("%"))
    assert abs(shown - 100 * u) <= 0.1 + 1e-9


def test_near_saturation_is_not_shown_as_saturated() -> None:
    assert display.percent(0.9996) == "99.9%"
    assert display.percent(0.99999999) == "99.9%"
    assert display.percent(1e-9) == "0.1%"


def test_infinite_response_time_reads_saturated() -> None:
    assert display.milliseconds(math.inf) == "saturated"


@given(st.floats(min_value=1.0, max_value=1e8, allow_nan=False))
def test_three_significant_figures_of_a_rate_stay_within_half_a_unit_of_the_third(x: float) -> None:
    shown = float(display.rate_3sf(x).replace(",", ""))
    assert abs(shown - x) <= 0.5 * 10 ** (math.floor(math.log10(x)) - 2) * (1 + 1e-9)
