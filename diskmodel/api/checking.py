"""A scenario checked before it is predicted (`diskmodel check`, and `run` before its
prediction): validated, its catalog files read, every heat map it names opened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.catalog import Catalog
    from diskmodel.scenario import Scenario
    from diskmodel.scenario.files import HeatMapInput


@dataclass(frozen=True)
class Checked:
    """A scenario that passed `check`: its file, the validated scenario, the catalog it is
    read with (the shipped one, the user's files and its own) and the heat maps it reads."""

    path: Path
    scenario: Scenario
    catalog: Catalog
    heatmaps: tuple[HeatMapInput, ...]


def check(
    path: Path,
    *,
    catalog_files: Sequence[Path] = (),
    allow_outside_heatmaps: bool = False,
) -> Checked:
    """Validate the scenario file `path` as `predict` would read it, with the user's
    `catalog_files`, and open every file it reads; the first mistake raises a `UserError`
    naming the file, line and key (`allow_outside_heatmaps` as `read_inputs` takes it)."""
    from diskmodel.api.catalog_lookup import load_catalog, scenario_catalog
    from diskmodel.api.predicting import load_scenario, read_inputs

    catalog = load_catalog(catalog_files)
    scenario = load_scenario(path, catalog)
    catalog = scenario_catalog(scenario, path, catalog)
    heatmaps = read_inputs(
        scenario, path, allow_outside_heatmaps=allow_outside_heatmaps, catalog=catalog
    )
    return Checked(path, scenario, catalog, tuple(heatmaps))


def check_text(checked: Checked) -> str:
    """What `diskmodel check` prints: the configuration summarised (capacity per tier, ranks
    per DA pair, the workloads, the inputs given as ranges, the defaults applied) and the
    files the scenario reads, as text for the terminal."""
    from diskmodel.configuration import defaults_used
    from diskmodel.report.check_text import render_check
    from diskmodel.terminal import drawn

    scenario, catalog = checked.scenario, checked.catalog
    defaults = defaults_used(scenario, catalog.systems[scenario.system.model])
    lines = [f"  {checked.path} (this scenario)"]
    lines += [f"  {path} (catalog file)" for path in catalog.user_files]
    lines += [
        f"  {h.path} (heat map, {h.extent_count:,} extents; {h.key}: {h.reference})"
        for h in checked.heatmaps
    ]
    summary = render_check(scenario, catalog, defaults=defaults)
    return drawn(summary, "\n\nFiles it reads\n", "\n".join(lines))
