"""The configurations of one sizing search share each skew curve (`SharedParts.curves`, held
by `SizingContext.parts`), so Easy Tier ranks a curve once for the whole search; each
configuration still resolves and solves as it would alone, to the bit."""

from __future__ import annotations

from pathlib import Path

from diskmodel.analyses.size import _jobs
from diskmodel.analyses.size_try import sizing_context, try_configuration
from diskmodel.catalog import load_catalog
from diskmodel.configuration import projected_hit_ratios, resolve
from diskmodel.model.layout import forget_placements
from diskmodel.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_a_search_shares_its_curves_and_answers_as_each_alone() -> None:
    catalog = load_catalog()
    scenario = load_scenario(ROOT / "scenarios" / "ds8800-size-for-growth.yaml", catalog)
    central = scenario.corner("central")
    context = sizing_context(central, catalog, None)
    jobs, _ = _jobs(central, catalog, context.prices, context.shared)
    forget_placements()
    shared = [try_configuration(job, context) for job in jobs]
    assert context.parts is not None
    curves = context.parts.curves  # the search's shared skew curves
    assert len(curves) == 1  # one workload, one level: one curve for all of them
    curve = next(iter(curves.values()))[0]
    alone = []
    for job in jobs:
        forget_placements()  # nothing kept from another configuration either
        alone.append(try_configuration(job, sizing_context(central, catalog, None)))
        if job.variant is not None:
            hits = projected_hit_ratios(central, job.variant, {})
            own = resolve(job.variant, catalog, None, hit_ratios=hits, shown=False)
            assert own.workloads[0].skew is not curve
            assert own.workloads[0].skew == curve
    assert shared == alone
    assert sum(c.error is None for c in shared) > 20
