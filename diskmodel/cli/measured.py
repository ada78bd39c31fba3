"""`diskmodel import` and `calibrate`: measured intervals as workloads, the model fitted to them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from diskmodel import api
from diskmodel.api import measured as rmf_api
from diskmodel.cli.app import app, say, write_stdout
from diskmodel.cli.options import (
    CatalogFiles,
    EasyTier,
    Force,
    Intervals,
    Quiet,
    ScenarioPath,
    complete_catalog_name,
)
from diskmodel.errors import ExitCode
from diskmodel.terminal import working

if TYPE_CHECKING:
    from diskmodel.api import Catalog, Located, Scenario


@app.command("import")
def import_intervals(
    intervals: Annotated[
        Path,
        typer.Argument(
            help="interval CSV (columns: docs/measured.md)",
            metavar="INTERVALS",
            show_default=False,
        ),
    ],
    peak: Annotated[
        list[str] | None,
        typer.Option(
            "--peak",
            "-p",
            metavar="PEAK",
            help="io, mbs, response, or an ISO time (repeatable; the first becomes the "
            "workloads, the others compare alternatives)  [default: io]",
        ),
    ] = None,
    pool: Annotated[
        str | None,
        typer.Option(
            metavar="POOL",
            help="the pool the workloads are placed in  [default: pool0, or the configuration's "
            "only pool]",
            show_default=False,
        ),
    ] = None,
    capacity_gb: Annotated[
        float | None,
        typer.Option(
            min=0.001,
            max=1e7,
            metavar="GB",
            help="GB per scope when the CSV has no capacity_gb",
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            help="the hardware (system and pools, as a scenario writes them): print a complete "
            "scenario that check accepts and calibrate takes",
            show_default=False,
        ),
    ] = None,
    system: Annotated[
        str | None,
        typer.Option(
            "--system",
            metavar="MODEL",
            help="instead of --config: the storage system (catalog name, e.g. ds8800-951), with "
            "--cache-gb, --host-ports, --da-pairs and --ranks",
            show_default=False,
            autocompletion=complete_catalog_name,
        ),
    ] = None,
    processor_ways: Annotated[
        int, typer.Option(metavar="2|4", help="with --system: cores per server")
    ] = 4,
    cache_gb: Annotated[
        float | None,
        typer.Option(metavar="GB", help="with --system: cache (GB)", show_default=False),
    ] = None,
    host_ports: Annotated[
        int | None,
        typer.Option(metavar="N", help="with --system: host ports in use", show_default=False),
    ] = None,
    da_pairs: Annotated[
        int | None,
        typer.Option(metavar="N", help="with --system: DA pairs installed", show_default=False),
    ] = None,
    ranks: Annotated[
        list[str] | None,
        typer.Option(
            "--ranks",
            metavar="DRIVE,RAID,COUNT",
            help="with --system: a rank group of the pool (repeatable), e.g. 15k-300,raid5-7+p,32",
            show_default=False,
        ),
    ] = None,
    easy_tier: Annotated[
        EasyTier, typer.Option(metavar="auto|off", help="with --system: the pool's Easy Tier")
    ] = EasyTier.auto,
    catalog: CatalogFiles = None,
    quiet: Quiet = False,
) -> None:
    """Turn measured intervals into a scenario's workloads, or with the hardware (--config, or
    --system and its flags) into a complete scenario, printed as YAML on standard output
    (redirect it to a file); a summary of the chosen intervals goes to standard error.

    \b
    Examples:
      diskmodel import scenarios/measured/ds8800-week.csv -p io -p mbs > workloads.yaml
      diskmodel import week.csv -p io -p mbs --config hardware.yaml > base.yaml
      diskmodel import week.csv --system ds8800-951 --cache-gb 256 --host-ports 16 \\
          --da-pairs 4 --ranks 15k-300,raid5-7+p,32 --ranks ssd-300,raid5-6+p+s,2 > base.yaml
    """
    hardware = _hardware(
        config, system, processor_ways, cache_gb, host_ports, da_pairs, ranks, easy_tier, pool
    )
    if rmf_api.is_rmf_csv(intervals):
        # RMF device-activity fields (z/OS): the intervals become z/OS workloads.
        write_stdout(
            rmf_api.rmf_imported_yaml(
                intervals, peak or ["io"], hardware=hardware, pool=pool,
                catalog_files=catalog or (),
            )
        )  # fmt: skip
        return
    chosen = api.select_intervals(intervals, peak or ["io"])
    text = api.imported_yaml(
        chosen,
        intervals,
        hardware=hardware,
        pool=pool,
        capacity_gb=capacity_gb,
        catalog_files=catalog or (),
    )
    for sel in chosen:
        if not quiet:
            say(f"{sel.label}: {sel.io_rate:,.0f} IOPS, {sel.mb_s:,.1f} MB/s", err=True)
    write_stdout(text)


def _hardware(
    config: Path | None,
    system: str | None,
    processor_ways: int,
    cache_gb: float | None,
    host_ports: int | None,
    da_pairs: int | None,
    ranks: list[str] | None,
    easy_tier: EasyTier,
    pool: str | None,
) -> Located | None:
    """`import`'s hardware: from the configuration file, from the flags, or None."""
    given = {"--cache-gb": cache_gb, "--host-ports": host_ports, "--da-pairs": da_pairs}
    if config is not None:
        if system is not None or ranks:
            raise typer.BadParameter(
                "give the hardware either in the file or as flags, not both",
                param_hint="--config",
            )
        return api.read_hardware(config)
    if system is None:
        stray = [flag for flag, value in given.items() if value is not None]
        if ranks:
            stray.append("--ranks")
        if stray:
            raise typer.BadParameter(
                f"{', '.join(stray)} describe(s) the system: give --system too",
                param_hint="--system",
            )
        return None
    if cache_gb is None or host_ports is None or da_pairs is None:
        missing = [flag for flag, value in given.items() if value is None]
        raise typer.BadParameter(f"give {', '.join(missing)} as well", param_hint="--system")
    return api.hardware_from_flags(
        system,
        processor_ways=processor_ways,
        cache_gb=cache_gb,
        host_ports=host_ports,
        da_pairs=da_pairs,
        ranks=ranks or [],
        easy_tier=easy_tier.value,
        pool=pool or "pool0",
    )


@app.command()
def calibrate(
    scenario: ScenarioPath,
    measured: Annotated[
        Path,
        typer.Option(metavar="CSV", help="interval CSV of the running system (docs/measured.md)"),
    ],
    peak: Annotated[
        list[str] | None,
        typer.Option(
            "--peak",
            "-p",
            metavar="PEAK",
            help="intervals to fit: io, mbs, response or an ISO time (repeatable)  "
            "[default: io, mbs]",
        ),
    ] = None,
    fit: Annotated[
        list[str] | None,
        typer.Option(
            "--fit",
            metavar="FIGURE",
            help="also fit this catalog estimate within its range (repeatable): its path "
            "(ds8800-951.device_adapter.per_op_us), its key (per_op_us) or its name (device "
            "adapter cost per operation); the fitted figures go into a catalog file beside "
            "--out, which the calibrated scenario names",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        str,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="the calibrated scenario's file (.yaml), or - for standard output",
        ),
    ] = "-",
    catalog: CatalogFiles = None,
    intervals: Annotated[
        Intervals,
        typer.Option(
            metavar="auto|profile|linear",
            help="95% intervals: auto (a parameter's profile likelihood where its linearised "
            "interval is suspect), profile (every parameter's; slower) or linear",
        ),
    ] = Intervals.auto,
    threshold: Annotated[
        float,
        typer.Option(
            min=0.001,
            max=1.0,
            metavar="FRACTION",
            help="the quality gate: the largest rms error of the measured response times",
        ),
    ] = 0.10,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help=f"exit {int(ExitCode.CALIBRATION_FAILED)} when the calibration fails its "
            "quality gate (the calibrated file is written all the same)",
        ),
    ] = False,
    force: Force = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="print nothing but errors and the calibrated file"),
    ] = False,
) -> None:
    """Fit each measured workload's destage ratio and skew level, what the scenario gives as
    ranges and the catalog estimates named by --fit, to the measured response times and
    utilisations, and judge the result (the quality gate): the fit and the gate go to
    standard error, the calibrated scenario (its layout and comments kept, the calibration's
    record at its end) to --out or standard output.

    \b
    Examples:
      diskmodel calibrate base.yaml --measured week.csv > calibrated.yaml
      diskmodel calibrate base.yaml --measured week.csv -p io -p mbs -p "2026-11-04 10:00" \\
          --fit per_op_us --out calibrated.yaml --strict
    """
    target = api.calibrated_target(out, scenario)
    if fit and target is None:
        raise typer.BadParameter(
            "the fitted catalog figures are written into a catalog file beside the calibrated "
            "scenario, which names it: give --out FILE",
            param_hint="--fit",
        )
    entries = api.load_catalog(catalog or ())
    loaded = api.load_scenario(scenario, entries)
    entries = api.scenario_catalog(loaded, scenario, entries)
    if rmf_api.is_rmf_csv(measured):
        _calibrate_rmf(loaded, scenario, measured, peak or ["io"], entries, target, force, quiet)
        return
    chosen = api.select_intervals(measured, peak or ["io", "mbs"])
    with working(f"fitting {len(chosen)} measured interval(s) (tens of seconds)", quiet=quiet):
        result = api.calibrate(
            loaded,
            chosen,
            entries,
            base_dir=scenario.parent,
            intervals=intervals.value,
            fit=fit or (),
            threshold=threshold,
        )
    if not quiet:
        say(api.calibration_text(result, measured), err=True)
    outputs = api.calibrated_outputs(scenario, result, measured, target)
    api.write_outputs(outputs, force=force, stdout=write_stdout)
    if not quiet:
        for o in outputs:
            if o.path is not None:
                say(f"wrote {o.path}", err=True)
    if strict and result.gate is not None and not result.gate.passed:
        raise typer.Exit(int(ExitCode.CALIBRATION_FAILED))


def _calibrate_rmf(
    loaded: Scenario,
    scenario: Path,
    measured: Path,
    peaks: list[str],
    entries: Catalog,
    target: Path | None,
    force: bool,
    quiet: bool,
) -> None:
    """`calibrate` with an RMF CSV: fit to the components IOSQ, PEND, DISC and CONN."""
    with working("fitting the RMF components", quiet=quiet):
        result = rmf_api.rmf_calibrate(loaded, measured, peaks, entries, base_dir=scenario.parent)
    if not quiet:
        say(rmf_api.rmf_calibration_text(result, measured), err=True)
    outputs = rmf_api.rmf_calibrated_outputs(scenario, result, target)
    api.write_outputs(outputs, force=force, stdout=write_stdout)
    if not quiet and target is not None:
        say(f"wrote {target}", err=True)
