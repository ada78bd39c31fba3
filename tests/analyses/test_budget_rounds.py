"""The rounds a closed point takes, as the work estimate tells them beforehand
(`analyses.closed_rounds`, priced by `analyses.budget._closed_point_s`; issue 30 item 6).

Not timed: the rounds of placement and closed solution are counted in-process (each
`solve_closed` of `model.closed_point.settled` is one), and the populations are those the
estimate prices. A point the estimate says settles at once must take at most two rounds (the
second on the same placement, its solutions read back); a point whose load passes an Easy Tier
ceiling takes more, and is priced higher.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import diskmodel
from bench.bench_worst_case import scenario
from diskmodel.analyses import budget
from diskmodel.analyses.closed_rounds import band_free_iops, closed_reach
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import closed_point, operating
from diskmodel.scenario import Scenario
from tests.support.scenarios import worst_case_application

_ROOT = Path(__file__).resolve().parents[2]


def _quick_application(users: int) -> dict[str, Any]:
    """`worst_case_application` without the catalog band (its points are not the ones
    counted here)."""
    return worst_case_application(users, analyses={"catalog_band": False})


@contextmanager
def _rounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The rounds of each closed point solved while inside, in order."""
    rounds: list[int] = []
    solve, point = closed_point.solve_closed, operating.Solver.closed_point

    def counting_solve(*args: Any, **kwargs: Any) -> Any:
        rounds[-1] += 1
        return solve(*args, **kwargs)

    def counting_point(self: operating.Solver, population: int, *args: Any) -> Any:
        rounds.append(0)
        return point(self, population, *args)

    monkeypatch.setattr(closed_point, "solve_closed", counting_solve)
    monkeypatch.setattr(operating.Solver, "closed_point", counting_point)
    yield rounds


def _counted(s: Scenario, users: int, monkeypatch: pytest.MonkeyPatch) -> int:
    catalog = load_catalog()
    solver = operating.Solver(resolve(s, catalog))
    with _rounds(monkeypatch) as rounds:
        solver.closed_point(users)
    return rounds[0]


def test_a_point_said_to_settle_at_once_takes_two_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every population the estimate prices for a configuration's own points (the planned one,
    the sweep up to `APPLICATION_REACH` times it): where the estimate says it settles at once,
    the point takes at most two rounds. One stream per user: customers are users."""
    catalog = load_catalog()
    s = Scenario.model_validate(_quick_application(100), context={"catalog": catalog})
    reach = closed_reach(s, catalog)
    assert reach is not None
    top = budget.APPLICATION_REACH * s.application.users  # type: ignore[union-attr]
    populations = {round(n) for n in budget._populations(top, budget.APPLICATION_SWEEP)}
    said = sorted(n for n in populations | {100} if reach.settles_at_once(n))
    assert 100 in said
    assert len(said) >= 10  # most of the sweep: 1 to about 300 users
    for users in said:
        assert _counted(s, users, monkeypatch) <= 2, users


def test_a_load_past_a_ceiling_takes_more_rounds_and_is_priced_higher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """400 users may pass the first ceiling (their bound, N / (Z + D_cpu) = 78,000 I/O/s, is
    over the free rate): the estimate does not say they settle, they take more than two rounds,
    and the point is priced above the 100-user point, which settles at once, by more than the
    customers' own cost."""
    catalog = load_catalog()
    few = Scenario.model_validate(_quick_application(100), context={"catalog": catalog})
    many = Scenario.model_validate(_quick_application(400), context={"catalog": catalog})
    reach = closed_reach(many, catalog)
    assert reach is not None
    assert not reach.settles_at_once(400)
    assert reach.bound_iops(400) > reach.free_iops
    assert _counted(many, 400, monkeypatch) > 2
    assert _counted(few, 100, monkeypatch) <= 2
    _, follows = budget._point_s(many, catalog)
    settled = budget._closed_point_s(few, 100, follows, settles=True)
    unsettled = budget._closed_point_s(many, 400, follows, settles=False)
    # The customers alone would make 400 cost at most (1.2e-3 + 8.5e-6 * 400) / (1.2e-3 +
    # 8.5e-6 * 100) = 2.2 times 100; the rounds make it more than 3 times.
    assert unsettled > 3 * settled


def test_no_bound_without_think_time_nor_host() -> None:
    """Queue depths (no think time, no host CPU): nothing bounds the rate a closed point
    reaches short of the hardware, so it is priced as if a ceiling binds."""
    catalog = load_catalog()
    data = scenario(queue_depth=48, analyses={"catalog_band": False})
    s = Scenario.model_validate(data, context={"catalog": catalog})
    assert closed_reach(s, catalog) is None


def test_the_shipped_application_settles_at_once_with_the_band(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """scenarios/ds8800-oltp-application.yaml: its bound (the host CPUs' 80,000 I/O/s) is
    under its free rate, and its planned point's under the lowest free rate of the catalog
    band's configurations (`band_free_iops`); so every closed point its prediction solves,
    the band's included, takes at most two rounds, and its price is the settled share."""
    catalog = load_catalog()
    s = diskmodel.load_scenario(_ROOT / "scenarios" / "ds8800-oltp-application.yaml", catalog)
    reach = closed_reach(s, catalog)
    assert reach is not None
    users = s.application.users  # type: ignore[union-attr]
    assert reach.settles_at_once(users, band_free_iops(s, catalog))
    assert reach.settles_at_once(budget.APPLICATION_REACH * users)
    with _rounds(monkeypatch) as rounds:
        diskmodel.predict(s, catalog=catalog)
    assert len(rounds) > 20  # the sweep, the planned point and the band's beginnings
    assert max(rounds) <= 2, rounds
