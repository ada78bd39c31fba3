"""Tier sweep: the baseline with 0, 1, 2 ... more ranks of one drive type in one pool (how many
SSD ranks does an Easy Tier pool need?), each resolved and predicted as its own configuration."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from diskmodel.analyses.predict import predict_configuration
from diskmodel.catalog import Catalog
from diskmodel.configuration import resolve
from diskmodel.prediction import TierSweepPoint
from diskmodel.scenario import Scenario, TierSweep, apply_settings


def tier_sweep(
    scenario: Scenario,
    sweep: TierSweep,
    catalog: Catalog,
    base_dir: Path | None = None,
    *,
    allow_outside_heatmaps: bool = False,
) -> list[TierSweepPoint]:
    """The baseline with each `sweep.counts` more ranks of `sweep.drive` in `sweep.pool`.

    Every point places its ranks with `system.rank_placement: balanced` (each drive type
    spread over the DA pairs and servers as evenly as its count allows), so what a point
    shows is the ranks added, not where round-robin happened to deal them; a count that cannot
    be even (an odd count over two DA pairs) is named by the point's `da_pair_spread`.
    A count the hardware cannot take (too many ranks for the DA pairs) gives a point with
    `error` set instead of stopping the sweep.
    """
    base = scenario.model_dump(mode="python")
    pool_index = next(i for i, p in enumerate(scenario.pools) if p.name == sweep.pool)
    ranks = base["pools"][pool_index]["ranks"]
    tier = catalog.drives[sweep.drive].tier
    out = []
    for added in sweep.counts:
        group = {"drive": sweep.drive, "raid": sweep.raid, "count": added, "da_pair": None}
        data = apply_settings(
            base,
            {
                f"pools.{pool_index}.ranks": [*ranks, group] if added else ranks,
                "system.rank_placement": "balanced",
            },
        )
        # A sweep point reports its maxima and its response at the planned load: a short curve
        # brackets the service level's limits well enough for that (they are then refined).
        data["analyses"] = {"curve": {"points": min(base["analyses"]["curve"]["points"], 12)}}
        try:
            variant = Scenario.model_validate(data, context={"catalog": catalog})
        except ValidationError as exc:
            problem = "; ".join(
                str(e["msg"]).replace("\n", "; ") for e in exc.errors(include_url=False)
            )
            out.append(TierSweepPoint(added, 0.0, "", 0.0, None, True, error=problem))
            continue
        config = resolve(
            variant,
            catalog,
            base_dir,
            name=f"+{added} {sweep.drive}",
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
        p = predict_configuration(config)
        share = sum(t.small_io_share for t in p.tiers if t.pool == sweep.pool and t.tier == tier)
        per_pair = [0] * config.hardware.da_pairs
        for r in config.ranks:
            if r.pool == sweep.pool and r.tier == tier:
                per_pair[r.da_pair] += 1
        out.append(
            TierSweepPoint(
                added=added,
                max_iops=p.max_iops,
                bottleneck=p.bottleneck,
                planning_max_iops=p.service_level.max_iops,
                response_time_ms=p.response_time_ms,
                saturated=p.saturated,
                tier_small_io_share=share,
                da_pair_spread=tuple(per_pair),
            )
        )
    return out
