"""Analyses over the storage model: the curve (in every Prediction), compare, growth.

- compare: each `analyses.compare` alternative of the scenario (`Scenario.alternatives()`),
  solved like the baseline. When an alternative changes the cache size and does not set the
  read hit ratio itself, each workload's read hit ratio is projected from the baseline's cache
  size with McNutt's hierarchical reuse model (`diskmodel.components.cache`).
- growth: the baseline's planned load times each factor (open workloads): response time,
  saturation and the bottleneck's utilisation.
- tier sweep: the baseline with 0, 1, 2 ... more ranks of one drive type in one pool (e.g. how
  many SSD ranks an Easy Tier pool needs), each solved as its own configuration at the
  planned load.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.components.cache import project_read_hit_ratio
from diskmodel.model import SystemModel, build_system, predict_configuration, solve_open
from diskmodel.prediction import GrowthPoint, Prediction, ScenarioPrediction, TierSweepPoint
from diskmodel.scenario import Scenario, TierSweep, apply_settings


def projected_hit_ratios(
    baseline: Scenario, alternative: Scenario, settings: dict[str, object]
) -> list[float] | None:
    """Read hit ratios for `alternative` if its cache differs from the baseline's, else None."""
    if alternative.system.cache_gb == baseline.system.cache_gb:
        return None
    if any(key.endswith("read_hit_ratio") for key in settings):
        return None
    return [
        project_read_hit_ratio(
            w.read_hit_ratio, baseline.system.cache_gb, alternative.system.cache_gb
        )
        for w in alternative.workloads
    ]


def compare(
    scenario: Scenario, catalog: Catalog | None = None, base_dir: Path | None = None
) -> list[Prediction]:
    """Baseline first, then every alternative, each solved as its own configuration."""
    catalog = catalog or load_catalog()
    settings = {alt.name: alt.set for alt in scenario.analyses.compare}
    out = []
    for name, variant in scenario.alternatives(catalog):
        hits = (
            None if variant is scenario else projected_hit_ratios(scenario, variant, settings[name])
        )
        out.append(
            predict_configuration(
                variant, catalog, name=name, read_hit_ratios=hits, base_dir=base_dir
            )
        )
    return out


def growth(
    scenario: Scenario,
    factors: list[float],
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
) -> list[GrowthPoint]:
    """Response time at the planned load times each factor.

    Open workloads: their rates times the factor, one vectorised open solution. With closed
    workloads (queue depth or users), their populations are multiplied instead (rounded, at
    least 1) together with the open rates, each factor solved as its own configuration.
    """
    if any(w.queue_depth is not None or w.users is not None for w in scenario.workloads):
        return _closed_growth(scenario, factors, catalog, base_dir)
    model = build_system(scenario, catalog, base_dir=base_dir)
    if model.planned_iops is None or model.planned_iops <= 0:
        return []
    if _placement_follows_load(scenario, catalog):
        return _replaced_growth(scenario, model, factors, catalog, base_dir)
    rates = np.array(factors) * model.planned_iops
    solution = solve_open(model, rates)
    neck = model.bottleneck
    return [
        GrowthPoint(
            factor=float(f),
            iops=float(r),
            response_time_ms=float(t) * 1e3 if np.isfinite(t) else None,
            saturated=bool(sat),
            bottleneck_utilization=float(solution.utilization[neck, i]),
        )
        for i, (f, r, t, sat) in enumerate(
            zip(factors, rates, solution.response_s, solution.saturated, strict=True)
        )
    ]


def _placement_follows_load(scenario: Scenario, catalog: Catalog | None) -> bool:
    """Some pool is placed by Easy Tier over two or more tiers: its placement depends on the
    load (every tier kept under its load ceiling, `diskmodel.model.tiers`)."""
    catalog = catalog or load_catalog()
    return any(
        pool.easy_tier.mode == "auto"
        and len({catalog.drives[g.drive].tier for g in pool.ranks}) > 1
        for pool in scenario.pools
    )


def _replaced_growth(
    scenario: Scenario,
    base: SystemModel,
    factors: list[float],
    catalog: Catalog | None,
    base_dir: Path | None,
) -> list[GrowthPoint]:
    """Growth of an Easy Tier pool: at each factor, Easy Tier's placement for that load."""
    planned = float(base.planned_iops or 0.0)
    neck = base.bottleneck
    out = []
    for factor in factors:
        model = build_system(scenario, catalog, base_dir=base_dir, load_scale=factor)
        solution = solve_open(model, [factor * planned])
        t = solution.response_s[0]
        out.append(
            GrowthPoint(
                factor=float(factor),
                iops=factor * planned,
                response_time_ms=float(t) * 1e3 if np.isfinite(t) else None,
                saturated=bool(solution.saturated[0]),
                bottleneck_utilization=float(solution.utilization[neck, 0]),
            )
        )
    return out


def _closed_growth(
    scenario: Scenario,
    factors: list[float],
    catalog: Catalog | None,
    base_dir: Path | None,
) -> list[GrowthPoint]:
    base = predict_configuration(scenario, catalog, base_dir=base_dir)
    out = []
    for factor in factors:
        grown = []
        for w in scenario.workloads:
            update: dict[str, float | int] = {}
            if w.queue_depth is not None:
                update["queue_depth"] = max(1, round(w.queue_depth * factor))
            elif w.users is not None:
                update["users"] = max(1, round(w.users * factor))
            elif w.iops is not None:
                update["iops"] = w.iops * factor
            grown.append(w.model_copy(update=update))
        p = predict_configuration(
            scenario.model_copy(update={"workloads": grown}), catalog, base_dir=base_dir
        )
        neck = next(c for c in p.components if c.name == base.bottleneck)
        out.append(
            GrowthPoint(
                factor=float(factor),
                iops=p.planned_iops,
                response_time_ms=p.response_time_ms,
                saturated=p.saturated,
                bottleneck_utilization=neck.utilization,
            )
        )
    return out


def tier_sweep(
    scenario: Scenario,
    sweep: TierSweep,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
) -> list[TierSweepPoint]:
    """The baseline with each `sweep.counts` more ranks of `sweep.drive` in `sweep.pool`.

    A count the hardware cannot take (too many ranks for the DA pairs, a drive the system does
    not offer) gives a point with `error` set instead of stopping the sweep.
    """
    catalog = catalog or load_catalog()
    base = scenario.model_dump(mode="python")
    pool_index = next(i for i, p in enumerate(scenario.pools) if p.name == sweep.pool)
    ranks = base["pools"][pool_index]["ranks"]
    out = []
    for added in sweep.counts:
        group = {"drive": sweep.drive, "raid": sweep.raid, "count": added, "da_pair": None}
        data = apply_settings(
            base, {f"pools.{pool_index}.ranks": [*ranks, group] if added else ranks}
        )
        data["analyses"] = {"curve": base["analyses"]["curve"]}
        try:
            variant = Scenario.model_validate(data, context={"catalog": catalog})
        except ValidationError as exc:
            problem = "; ".join(
                str(e["msg"]).replace("\n", "; ") for e in exc.errors(include_url=False)
            )
            out.append(TierSweepPoint(added, 0.0, "", None, True, error=problem))
            continue
        p = predict_configuration(
            variant, catalog, name=f"+{added} {sweep.drive}", base_dir=base_dir
        )
        at_load = p.closed.response_time_ms if p.closed is not None else p.response_time_ms
        tier = catalog.drives[sweep.drive].tier
        share = sum(t.small_io_share for t in p.tiers if t.pool == sweep.pool and t.tier == tier)
        out.append(
            TierSweepPoint(
                added, p.max_iops, p.bottleneck, at_load, p.saturated, tier_small_io_share=share
            )
        )
    return out


def predict_scenario(
    scenario: Scenario, catalog: Catalog | None = None, base_dir: Path | None = None
) -> ScenarioPrediction:
    """Everything `diskmodel run` reports for a scenario."""
    catalog = catalog or load_catalog()
    configurations = compare(scenario, catalog, base_dir)
    grow = scenario.analyses.growth
    sweep = scenario.analyses.tier_sweep
    return ScenarioPrediction(
        scenario=scenario.name,
        baseline=configurations[0],
        alternatives=tuple(configurations[1:]),
        growth=tuple(growth(scenario, grow.factors, catalog, base_dir)) if grow else (),
        tier_sweep=tuple(tier_sweep(scenario, sweep, catalog, base_dir)) if sweep else (),
    )


def compare_scenarios(
    scenarios: Sequence[tuple[Scenario, Path | None]], catalog: Catalog | None = None
) -> tuple[ScenarioPrediction, list[tuple[str, Scenario]]]:
    """Several scenario files side by side: each baseline solved as one configuration.

    The first is the reference the others are compared with. Each keeps its own name; where
    two share a name, the later ones are numbered so the report can tell them apart. Returns
    the prediction and the `(name, Scenario)` inputs in the same order (for the report).
    """
    catalog = catalog or load_catalog()
    named: list[tuple[str, Scenario]] = []
    predictions = []
    for scenario, base_dir in scenarios:
        name = scenario.name
        taken = {n for n, _ in named}
        suffix = 2
        while name in taken:
            name = f"{scenario.name} ({suffix})"
            suffix += 1
        named.append((name, scenario))
        predictions.append(predict_configuration(scenario, catalog, name=name, base_dir=base_dir))
    combined = ScenarioPrediction(
        scenario=" vs ".join(n for n, _ in named),
        baseline=predictions[0],
        alternatives=tuple(predictions[1:]),
    )
    return combined, named
