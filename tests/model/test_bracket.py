"""`model.bracket.highest_within`: the highest value whose figure is within its limit (<= 0),
for figures that do not decrease and are continuous but for kinks, as a tier's shortfall
under its utilisation target is (the busiest of several stations sets it)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.model.bracket import highest_within


@settings(max_examples=300, deadline=None)
@given(
    st.floats(0.01, 0.99),  # the crossing, as a fraction of hi
    st.floats(0.2, 5.0),  # the first station's curvature
    st.floats(0.05, 3.0),  # the second station's slope
    st.floats(1.0, 1e6),  # the bracket's scale
    st.sampled_from([1e-4, 1e-6, 1e-9]),
)
def test_the_answer_passes_and_lies_within_the_tolerance_of_the_crossing(
    crossing: float, power: float, slope: float, scale: float, rel_tol: float
) -> None:
    hi = scale
    root = crossing * hi

    def figure(x: float) -> float:
        # A convex or concave rise through the crossing, and a second station that binds
        # above it: a kink where the busiest station changes.
        first = math.copysign(abs(x - root) ** power, x - root) / hi**power
        return max(first, slope * (x - root) / hi)

    probed: list[float] = []

    def probe(x: float) -> float:
        probed.append(x)
        return figure(x)

    answer = highest_within(probe, 0.0, figure(0.0), hi, figure(hi), rel_tol=rel_tol)
    assert figure(answer) <= 0
    assert root - answer <= rel_tol * hi
    assert answer in probed or answer == 0.0


def test_an_end_at_the_limit_is_the_answer_for_a_figure_that_does_not_decrease() -> None:
    assert highest_within(lambda x: x, 0.0, 0.0, 1.0, 1.0, rel_tol=1e-6) == 0.0


def test_few_probes_where_the_figure_is_smooth() -> None:
    """Brent's method, not bisection (20 probes to 1e-6): a tight tolerance costs a few."""
    probed: list[float] = []

    def shortfall(x: float) -> float:
        # 1 - target / work, work linear in the load with sequential work at none: a tier's
        # shortfall with one station binding (crossing at x = 0.6).
        probed.append(x)
        return 1.0 - 0.8 / (0.2 + x)

    answer = highest_within(shortfall, 0.0, -1.0, 1.0, shortfall(1.0), rel_tol=1e-6)
    assert 0.6 - 1e-6 <= answer <= 0.6
    assert len(probed) - 1 <= 8
