"""A scenario's whole prediction, and several scenarios side by side.

`predict_scenario` is everything `diskmodel run` reports for one scenario file: each
configuration's prediction (`analyses.predict`: the baseline and each `compare`
alternative, with its growth), each one's band over the inputs the scenario gives as ranges
(`band`), the baseline's band over the catalog's estimates (`catalog_band`), the tier sweep
(`sweep`), the sizing search (`size`) and, for a calibrated scenario, its calibration
(`calibration`). `compare_scenarios` puts the baselines of several
files side by side. Both assemble what the per-configuration loops compute; neither solves
anything itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

from diskmodel.analyses.band import band
from diskmodel.analyses.beside import Beside, Tickets
from diskmodel.analyses.calibration import calibration_result
from diskmodel.analyses.catalog_band import CatalogBandWork
from diskmodel.analyses.predict import begin, predict_configuration
from diskmodel.analyses.sweep import tier_sweep
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.configuration import resolve, resolve_scenario
from diskmodel.prediction import Prediction, ScenarioPrediction, SizingResult
from diskmodel.scenario import Scenario
from diskmodel.scenario.files import scenario_catalog


def predict_scenario(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    *,
    allow_outside_heatmaps: bool = False,
    sizing: SizingResult | None = None,
    catalog_bands: bool = True,
    beside: bool = False,
    meanwhile: Callable[[ScenarioPrediction], object] | None = None,
    before_bands: Callable[[Sequence[Prediction]], object] | None = None,
) -> ScenarioPrediction:
    """Everything `diskmodel run` reports for a scenario: the baseline and each alternative
    with its growth, the tier sweep and the baseline's band over the catalog's estimates
    (unless the scenario or `catalog_bands` turns it off); `sizing`: the sizing search of
    `analyses.size` already made (`diskmodel size`), which is then not made again. `beside`:
    work the catalog band out in a forked process while the configurations are predicted
    here (`analyses.beside`; the same answer, on the other core). `meanwhile`: called with
    everything but that band before it is waited for (`diskmodel run` hands its charts, which
    do not show the band, to the charts' worker there). `before_bands`: called with the
    configurations' predictions (the baseline first) before their bands over the inputs given
    as ranges are worked out (`diskmodel run` hands the charts that do not read those bands
    to the charts' worker there)."""
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    configs = resolve_scenario(
        scenario, catalog, base_dir, allow_outside_heatmaps=allow_outside_heatmaps
    )

    banding = scenario.analyses.catalog_band and catalog_bands
    band_work = (
        CatalogBandWork(
            configs[0],
            catalog,
            lambda cat: resolve(
                scenario,
                cat,
                base_dir,
                name=configs[0].name,
                allow_outside_heatmaps=allow_outside_heatmaps,
                shown=False,  # solved, never reported
            ),
        )
        if banding
        else None
    )
    # Beside: the fork takes the catalog band's estimates one at a time while this process
    # predicts the configurations, and this one takes those left when it is done.
    tickets = Tickets(len(band_work.tried)) if band_work is not None and beside else None
    reach = (
        Beside(lambda: band_work.found(tickets))
        if band_work is not None and tickets is not None
        else None
    )
    growth = scenario.analyses.growth
    factors = growth.multipliers if growth else ()
    labels = growth.labels if growth else ()
    # The baseline's beginnings are the catalog band's central answer too (here, where this
    # process takes the estimates the fork has not).
    begun = begin(configs[0]) if band_work is not None else None
    predictions = [
        predict_configuration(c, factors, labels, begun if i == 0 else None)
        for i, c in enumerate(configs)
    ]
    if band_work is not None and begun is not None:
        band_work.begun_elsewhere(begun)
    if before_bands is not None:
        before_bands(predictions)
    sweep = scenario.analyses.tier_sweep
    # Each configuration's band over the inputs given as ranges (an alternative inherits the
    # baseline's ranges unless it sets the input).
    settings = {alt.name: alt.set for alt in scenario.analyses.compare}
    banded = [
        dataclasses.replace(
            p,
            band=band(
                variant,
                p,
                catalog,
                base_dir,
                allow_outside_heatmaps=allow_outside_heatmaps,
                baseline=None if variant is scenario else scenario,
                settings=settings.get(name),
            ),
        )
        for (name, variant), p in zip(scenario.alternatives(catalog), predictions, strict=True)
    ]
    if sizing is None and scenario.analyses.size is not None:
        # Deferred: the sizing search brings the cluster's asyncio (40 ms) to every run.
        from diskmodel.analyses.size import size_scenario

        sizing = size_scenario(scenario, catalog, base_dir)
    prediction = ScenarioPrediction(
        scenario=scenario.name,
        description=scenario.description.strip(),
        baseline=banded[0],
        alternatives=tuple(banded[1:]),
        tier_sweep=tuple(
            tier_sweep(
                scenario, sweep, catalog, base_dir, allow_outside_heatmaps=allow_outside_heatmaps
            )
        )
        if sweep
        else (),
        sizing=sizing,
        calibration=calibration_result(scenario, configs[0], catalog),
    )
    if meanwhile is not None:
        meanwhile(prediction)
    if band_work is None:
        return prediction
    found = band_work.found(tickets) if tickets is None or tickets.left else {}
    if reach is not None:
        found = {**reach.result(), **found}
    reached = band_work.result(found)
    return dataclasses.replace(
        prediction, baseline=dataclasses.replace(prediction.baseline, catalog_band=reached)
    )


def compare_scenarios(
    scenarios: Sequence[tuple[Scenario, Path | None]],
    catalog: Catalog | None = None,
    *,
    allow_outside_heatmaps: bool = False,
) -> ScenarioPrediction:
    """Several scenario files side by side: each baseline solved as one configuration.

    The first is the reference the others are compared with. Each keeps its own name; where
    two share a name, the later ones are numbered so the report can tell them apart.
    """
    catalog = catalog or load_catalog()
    names: list[str] = []
    predictions = []
    for scenario, base_dir in scenarios:
        name = scenario.name
        suffix = 2
        while name in names:
            name = f"{scenario.name} ({suffix})"
            suffix += 1
        names.append(name)
        config = resolve(
            scenario,
            scenario_catalog(scenario.catalog, base_dir, catalog),
            base_dir,
            name=name,
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
        growth = scenario.analyses.growth
        predictions.append(
            predict_configuration(
                config, growth.multipliers if growth else (), growth.labels if growth else ()
            )
        )
    return ScenarioPrediction(
        scenario=" vs ".join(names),
        description=scenarios[0][0].description.strip() if scenarios else "",
        baseline=predictions[0],
        alternatives=tuple(predictions[1:]),
    )
