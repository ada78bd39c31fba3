"""Measured intervals of a running system: chosen, turned into a scenario (`diskmodel
import`) or fitted into one (`diskmodel calibrate`); the work is `diskmodel.measured`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmodel.catalog import Catalog
    from diskmodel.measured import Selection
    from diskmodel.measured.calibrate import Calibration
    from diskmodel.measured.rmf_calibrate import RmfCalibration
    from diskmodel.output import Output
    from diskmodel.scenario import Scenario
    from diskmodel.yamlio import Located


def select_intervals(path: Path, peaks: Sequence[str]) -> list[Selection]:
    """The intervals of the interval CSV `path` that `peaks` name, in that order: a peak
    (io, mbs, response) or an ISO time (docs/measured.md). An `InputError` names the row
    and column of a mistake in the file, or a peak it cannot give."""
    from diskmodel.measured import load_intervals, select

    return select(load_intervals(path), peaks, str(path))


def read_hardware(path: Path) -> Located:
    """A hardware configuration file (system and pools, as a scenario writes them), or an
    `InputError` naming what is wrong with it."""
    from diskmodel.measured.base import read_hardware as read

    return read(path)


def hardware_from_flags(
    system: str,
    *,
    processor_ways: int,
    cache_gb: float,
    host_ports: int,
    da_pairs: int,
    ranks: Sequence[str],
    easy_tier: str,
    pool: str,
) -> Located:
    """The hardware of one pool as `import`'s flags give it; each of `ranks` is
    DRIVE,RAID,COUNT (an `InputError` names one that is not)."""
    from diskmodel.measured.base import hardware_from_flags as from_flags

    return from_flags(
        system, processor_ways, cache_gb, host_ports, da_pairs, ranks, easy_tier, pool
    )


def imported_yaml(
    chosen: Sequence[Selection],
    source: Path,
    *,
    hardware: Located | None = None,
    pool: str | None = None,
    capacity_gb: float | None = None,
    catalog_files: Sequence[Path] = (),
) -> str:
    """The intervals `chosen` from the CSV `source` as YAML text: with `hardware`, a complete
    scenario that check accepts and calibrate takes (the first interval its workloads, the
    others alternatives); without, the workloads to paste into one. `pool`: the pool they
    are placed in (default: pool0, or the hardware's only pool); `capacity_gb`: GB per scope
    when the CSV gives none."""
    from diskmodel.measured import workloads_yaml

    if hardware is None:
        return workloads_yaml(chosen, pool or "pool0", capacity_gb, str(source))
    from diskmodel.api.catalog_lookup import load_catalog
    from diskmodel.measured.base import base_scenario, base_yaml, pool_for

    data = base_scenario(
        chosen,
        hardware,
        pool_for(hardware, pool),
        capacity_gb,
        str(source),
        load_catalog(catalog_files),
    )
    return base_yaml(data, chosen, str(source))


def calibrated_target(out: str, scenario_path: Path) -> Path | None:
    """The calibrated scenario's file `out` names (None for standard output, `-`; a folder
    gets <scenario>-calibrated.yaml), or an `OutputError`, before any work is done."""
    from diskmodel.output import YAML, output_path

    return output_path(out, YAML, f"{scenario_path.stem}-calibrated")


def calibrate(
    scenario: Scenario,
    chosen: Sequence[Selection],
    catalog: Catalog,
    *,
    base_dir: Path | None = None,
    intervals: str = "auto",
    fit: Sequence[str] = (),
    threshold: float | None = None,
) -> Calibration:
    """Fit each measured workload's destage ratio and skew level, what `scenario` gives as
    ranges and the catalog estimates `fit` names, to the intervals `chosen`, and judge the
    result (the quality gate: the largest rms error of the response times, `threshold`,
    by default `diskmodel.measured.gate.THRESHOLD`). `base_dir`: the scenario file's folder.
    `intervals`: 95% intervals from "auto", "profile" or "linear"
    (`diskmodel.measured.calibrate.calibrate`)."""
    from diskmodel.measured.calibrate import calibrate as fit_scenario
    from diskmodel.measured.gate import THRESHOLD

    return fit_scenario(
        scenario,
        chosen,
        catalog,
        base_dir=base_dir,
        intervals=intervals,
        fit=fit,
        threshold=THRESHOLD if threshold is None else threshold,
    )


def calibration_text(calibration: Calibration, measured: Path) -> str:
    """The fit and the quality gate's findings as lines of text, naming the interval CSV
    `measured`."""
    from diskmodel.report.calibration_text import render

    return render(calibration, measured.name)


def calibrated_outputs(
    scenario_path: Path, calibration: Calibration, measured: Path, target: Path | None
) -> list[Output]:
    """The files a calibration writes: the calibrated scenario at `target` (None: standard
    output), its layout and comments kept and the calibration's record at its end, and, when
    catalog estimates were fitted, their catalog file beside it, which the scenario names."""
    from diskmodel.measured.calibrated import calibrated_yaml, fitted_catalog_text
    from diskmodel.output import YAML, Output
    from diskmodel.yamlio import MAX_FILE_BYTES, read_input_text

    text = read_input_text(scenario_path, MAX_FILE_BYTES, "scenario")
    outputs = []
    catalog_name = None
    if calibration.catalog_entries and target is not None:
        catalog_path = target.with_name(f"{target.stem}-catalog.yaml")
        catalog_name = catalog_path.name
        outputs.append(Output(catalog_path, fitted_catalog_text(calibration, measured.name), YAML))
    calibrated = calibrated_yaml(text, calibration, measured.name, catalog_name)
    outputs.insert(0, Output(target, calibrated, YAML))
    return outputs


# ------------------------------------------------------------------ RMF (z/OS) measurements


def is_rmf_csv(path: Path) -> bool:
    """Whether the CSV `path` holds RMF device-activity fields (docs/zos.md, "RMF measurements"):
    its header names the RMF components (iosq_ms, pend_ms, disc_ms, conn_ms)."""
    from diskmodel.measured.rmf import is_rmf_csv as check

    return check(path)


def rmf_imported_yaml(
    path: Path,
    peaks: Sequence[str],
    *,
    hardware: Located | None = None,
    pool: str | None = None,
    catalog_files: Sequence[Path] = (),
) -> str:
    """The RMF intervals of `path` that `peaks` name as z/OS workloads (YAML text): with
    `hardware`, a complete scenario (its system given FICON and the CSV's LCUs where it has
    none); without, the workloads to paste into one."""
    from diskmodel.api.catalog_lookup import load_catalog
    from diskmodel.measured.rmf_scenario import rmf_yaml

    return rmf_yaml(path, peaks, hardware, pool, load_catalog(catalog_files))


def rmf_calibrate(
    scenario: Scenario,
    path: Path,
    peaks: Sequence[str],
    catalog: Catalog,
    *,
    base_dir: Path | None = None,
) -> RmfCalibration:
    """Fit the front end's fixed time, the channel's light-load PEND and each z/OS workload's
    destage ratio to the RMF components (IOSQ, PEND, DISC, CONN) of the intervals `peaks`
    name in `path`, not to the response time alone (`diskmodel.measured.rmf_calibrate`)."""
    from diskmodel.measured.rmf import select_rmf
    from diskmodel.measured.rmf_calibrate import calibrate_rmf

    return calibrate_rmf(scenario, select_rmf(path, peaks), catalog, base_dir=base_dir)


def rmf_calibration_text(result: RmfCalibration, path: Path) -> str:
    """The RMF fit for the terminal: each parameter fitted, each component measured against
    the model."""
    from diskmodel.measured.rmf_calibrate import calibration_text

    return calibration_text(result, str(path))


def rmf_calibrated_outputs(
    scenario_path: Path, result: RmfCalibration, target: Path | None
) -> list[Output]:
    """The calibrated scenario at `target` (None: standard output): the scenario file's text
    with the fitted values set in place, its comments kept."""
    from diskmodel.measured.rmf_calibrate import calibrated_yaml
    from diskmodel.output import YAML, Output
    from diskmodel.yamlio import MAX_FILE_BYTES, read_input_text

    text = read_input_text(scenario_path, MAX_FILE_BYTES, "scenario")
    return [Output(target, calibrated_yaml(text, result), YAML)]
