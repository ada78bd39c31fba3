"""The catalog estimates a calibration may fit (`diskmodel calibrate --fit NAME`).

Every catalog figure no document publishes carries the range it could lie in (docs/catalog.md),
and those a configuration uses are listed by `analyses.catalog_band.estimates`. A planner whose
measurements the model cannot match with the workloads' own unknowns (a site whose device
adapters are slower than the estimate) names such a figure, and calibration fits it within its
range beside the rest. Offered are the configuration's estimates except:

- a whole number (a count: the DA's commands per HDD, a drive's command queue, an SSD's
  parallelism): least squares moves a figure by small steps, and a count does not move;
- an HDD figure the command-queueing simulation depends on (its read seeks, controller
  overhead, media rate: `components.drive.gain_simulations`): every value tried would be a
  new SPTF simulation, 0.03 to 0.3 s each, past what the work bound allows a fit.

A figure is named by its catalog path (`ds8800-951.device_adapter.per_op_us`), by its path
inside its entry (`device_adapter.per_op_us`), by its key alone (`per_op_us`) or by what the
report calls it (`device adapter cost per operation`), as long as that names one.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.analyses.catalog_band import Estimate, estimates
from diskmodel.catalog import SHIPPED, Catalog
from diskmodel.components.drive import gain_simulations
from diskmodel.configuration import Configuration
from diskmodel.errors import InputError

WHOLE = (
    "a whole number (a count): least squares moves a figure by small steps, and a count "
    "does not move; try its values with a catalog file of your own (--catalog)"
)
SIMULATED = (
    "an HDD figure the command-queueing simulation depends on: every value tried would be a "
    "new SPTF simulation (0.03 to 0.3 s each), past what the work bound allows a fit"
)


def _why_not(est: Estimate, config: Configuration, catalog: Catalog) -> str:
    """Why an estimate is not offered for fitting (module docstring), or ""."""
    if est.whole:
        return WHOLE
    drive = catalog.drives.get(est.entry)
    if drive is not None and drive.kind == "hdd":
        system = config.hardware.system.name
        other = est.low if est.value != est.low else est.high
        moved = est.put(catalog, other).installed_drive(system, est.entry)
        if gain_simulations([moved]) != gain_simulations(
            [catalog.installed_drive(system, est.entry)]
        ):
            return SIMULATED
    return ""


def offered(config: Configuration, catalog: Catalog) -> list[tuple[Estimate, str]]:
    """Every estimate the configuration uses, with why it cannot be fitted ("" if it can)."""
    return [(est, _why_not(est, config, catalog)) for est in estimates(config, catalog)]


def _names(est: Estimate) -> set[str]:
    """The names a planner may give an estimate by (module docstring), lower-case."""
    return {
        est.path.lower(),
        est.key.lower(),
        est.key.rsplit(".", 1)[-1].lower(),
        est.label.lower(),
    }


def listed(choices: Sequence[tuple[Estimate, str]]) -> str:
    """The fittable estimates, one per line, for a message."""
    lines = [
        f"  {est.path} ({est.label}, {est.value:g} in {est.low:g} to {est.high:g})"
        for est, why in choices
        if not why
    ]
    return (
        "\n".join(lines)
        if lines
        else "  (none: the configuration uses no estimate that can be fitted)"
    )


def chosen(names: Sequence[str], config: Configuration, catalog: Catalog) -> list[Estimate]:
    """The estimates `names` asks to fit, each once, in the order asked; `InputError` naming a
    name that matches none or several, or an estimate that cannot be fitted, with the list of
    those that can."""
    choices = offered(config, catalog)
    out: list[Estimate] = []
    for raw in names:
        name = raw.strip().lower()
        matches = [(est, why) for est, why in choices if name in _names(est)]
        if not matches:
            raise InputError(
                f"--fit {raw!r}: not an estimate of the catalog this scenario uses; the "
                f"figures that can be fitted:\n{listed(choices)}"
            )
        if len(matches) > 1:
            several = ", ".join(est.path for est, _ in matches)
            raise InputError(f"--fit {raw!r} names several figures ({several}): give one's path")
        est, why = matches[0]
        if why:
            raise InputError(
                f"--fit {raw!r}: {est.path} is {why}. The figures that can be fitted:\n"
                f"{listed(choices)}"
            )
        origin = catalog.origin_of(est.entry)
        if origin != SHIPPED:
            raise InputError(
                f"--fit {raw!r}: {est.entry} is defined in your catalog file {origin}; "
                "calibrate writes the fitted figures into a catalog file of its own, and a "
                "name is defined once among your files: fit it in a copy of the shipped entry, "
                "or put the fitted value into your file by hand"
            )
        if all(e.path != est.path for e in out):
            out.append(est)
    return out
