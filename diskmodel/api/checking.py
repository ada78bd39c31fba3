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
    read with (the shipped one, the user's files and its own), the heat maps it reads and its
    Global Mirror measured file (its path and intervals), if it names one."""

    path: Path
    scenario: Scenario
    catalog: Catalog
    heatmaps: tuple[HeatMapInput, ...]
    measured: tuple[Path, int] | None = None


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
    return Checked(
        path, scenario, catalog, tuple(heatmaps), _global_mirror_measured(scenario, path)
    )


MEASURED_KEY = ["copy_services", "global_mirror", "measured"]


def _global_mirror_measured(scenario: Scenario, path: Path) -> tuple[Path, int] | None:
    """The Global Mirror measured file the scenario names, opened and read as `predict` reads
    it: its path and how many rows it has (None when it names none); a file that cannot be
    read raises the prediction's message with the scenario's file and line in front."""
    cs = scenario.copy_services
    reference = cs.global_mirror.measured if cs and cs.global_mirror else None
    if reference is None:
        return None
    from diskmodel.configuration.copy_services import measured_file
    from diskmodel.errors import InputError
    from diskmodel.yamlio import load_yaml

    try:
        measured, rows = measured_file(reference, path.parent)
    except InputError as exc:
        line = load_yaml(path).line_of(MEASURED_KEY)
        raise type(exc)(f"{path}{f':{line}' if line else ''}: {exc}") from None
    return measured, len(rows)


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
    if checked.measured is not None:
        measured, rows = checked.measured
        lines.append(
            f"  {measured} (Global Mirror's measured intervals, {rows:,} rows; "
            f"{'.'.join(MEASURED_KEY)})"
        )
    summary = render_check(scenario, catalog, defaults=defaults)
    return drawn(summary, "\n\nFiles it reads\n", "\n".join(lines))
