"""The `diskmodel` command: parses arguments, calls the public API, prints. No modelling here.

One error boundary (`_Boundary.main`, what `main()` and typer's test runner both go through)
ends every command: a `UserError` prints one message on stderr and exits with its named code
(`diskmodel.errors.ExitCode`); a command-line mistake prints the usage and exits 2; Ctrl-C
prints "interrupted" and exits 130; standard output closed early (`| head`) exits 4; anything
else is a bug, reported as one (exit 1). Every string on its way to the terminal passes
through `diskmodel.terminal.printable`, so nothing from an input file can drive the terminal.

Conventions: `-` is standard output for `--json` and `--out`, and then the summary goes to
stderr; the format follows the flag, not the file name (`--out r.pdf` is refused); a name
ending in `/` or naming a folder writes the default file name inside it; `--quiet` prints
nothing but errors. Shell completion: `diskmodel --install-completion`.
"""

from __future__ import annotations

import gc
import os
import sys
import traceback
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperArgument, TyperGroup

from diskmodel import __version__, api
from diskmodel.errors import ExitCode, InputError, UserError
from diskmodel.terminal import printable, progress, shown, working

if TYPE_CHECKING:
    from diskmodel.api import Located, Planned, Scenario, ScenarioPrediction

INTERRUPTED = 130
"""Exit code after Ctrl-C (SIGINT): 128 + 2, as shells report it."""


class EasyTier(StrEnum):
    """`import --easy-tier` (the scenario's `easy_tier` modes)."""

    auto = "auto"
    off = "off"


class Intervals(StrEnum):
    """`calibrate --intervals` (measured.identify.INTERVALS, written out here so that the
    command line does not import the fit and scipy before it is asked to fit)."""

    auto = "auto"
    profile = "profile"
    linear = "linear"


def say(text: str, *, err: bool = False) -> None:
    """Print `text` for a person: through the sanitiser, never raw (a table drawn for the
    terminal was made printable piece by piece before its styling was added: `shown`)."""
    typer.echo(shown(text), err=err)


def _write_stdout(text: str) -> None:
    """A result written to standard output (`-`): as is into a pipe, sanitised on a terminal."""
    stream = sys.stdout
    stream.write(printable(text) if stream.isatty() else text)
    stream.flush()


class _Boundary(TyperGroup):
    """The command group whose `main` is the one error boundary of the command line."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        name = prog_name or "diskmodel"
        _named_arguments(self)
        self._main_shell_completion(extra, name, complete_var)  # exits when completing
        code = _guarded(self, name, argv, extra)
        if standalone_mode:
            sys.exit(code)
        return code


class _NamedArgument(TyperArgument):
    """An argument whose help shows its name (SCENARIO), not also typer's type label
    (`<file>`, `<list[Path]>`): the help says what the file is."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.metavar else super().display_type_rich(ctx)


def _named_arguments(group: Any) -> None:
    """Every argument with a metavar, in every command under `group`, shown by its name."""
    for command in getattr(group, "commands", {}).values():
        _named_arguments(command)
        for param in getattr(command, "params", ()):
            if type(param) is TyperArgument and param.metavar:
                param.__class__ = _NamedArgument


def _guarded(group: TyperGroup, name: str, argv: list[str], extra: dict[str, Any]) -> int:
    """Run the command line; return its exit code, whatever happens inside."""
    try:
        with group.make_context(name, argv, **extra) as ctx:
            group.invoke(ctx)
        return ExitCode.OK
    except UserError as exc:
        say(f"diskmodel: {exc}", err=True)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        say("\ndiskmodel: interrupted; no output file was written or changed", err=True)
        return INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        say("diskmodel: standard output was closed before the result was written", err=True)
        return int(ExitCode.OUTPUT_REFUSED)
    except (typer.Exit, typer.Abort) as exc:
        return int(getattr(exc, "exit_code", 1))
    except Exception as exc:  # the boundary: a usage error, else a bug
        if hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int):
            _usage_error(exc)
            return int(exc.exit_code)  # type: ignore[attr-defined]
        say(traceback.format_exc().rstrip(), err=True)
        say(f"diskmodel {__version__}: internal error (a bug); please report it", err=True)
        return int(ExitCode.INTERNAL)


def _usage_error(exc: Any) -> None:
    """A command-line mistake (the parser's), printed with the usage line, sanitised."""
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        say(ctx.get_usage(), err=True)
        say(f"Try '{ctx.command_path} --help' for help.", err=True)
    say(f"diskmodel: {exc.format_message()}", err=True)


def _silence_stdout() -> None:
    """After a broken pipe, send what is left for stdout to /dev/null (no second error)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


app = typer.Typer(
    name="diskmodel",
    cls=_Boundary,
    help="Predict response time, utilisation and bottlenecks of IBM DS8700/DS8800 storage.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
catalog_app = typer.Typer(help="Look up the hardware diskmodel knows.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")


def _catalog_names(incomplete: str) -> list[str]:
    return api.catalog_names(incomplete)


ScenarioPath = Annotated[
    Path,
    typer.Argument(
        help="scenario YAML file",
        metavar="SCENARIO",
        exists=True,
        dir_okay=False,
        readable=True,
        show_default=False,
    ),
]
OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        "-o",
        help="HTML report to write, - for standard output, or a folder/ "
        "[default: reports/<scenario file name>.html]",
        metavar="FILE",
        show_default=False,
    ),
]
JsonOption = Annotated[
    str | None,
    typer.Option(
        "--json",
        help="also write the result as JSON (docs/json-schema.md), - for standard output",
        metavar="FILE",
        show_default=False,
    ),
]
CsvOption = Annotated[
    str | None,
    typer.Option(
        "--csv",
        help="also write every table of the report as CSV, one file per table, into this "
        "folder (made if it does not exist)",
        metavar="DIR",
        show_default=False,
    ),
]
NoTimestamp = Annotated[
    bool,
    typer.Option(
        "--no-timestamp", help="leave out the generation-time line (byte-identical reports)"
    ),
]
Force = Annotated[
    bool,
    typer.Option(
        "--force",
        help="replace output files diskmodel did not write (never a link, device or folder)",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="print nothing but errors")]
NoCatalogBands = Annotated[
    bool,
    typer.Option(
        "--no-catalog-bands",
        help="skip the band over the catalog's unpublished figures (their ranges)",
    ),
]
Appendix = Annotated[
    bool,
    typer.Option(
        "--appendix",
        help="print the report's appendix too: every component, the inputs as the model used "
        "them, the assumptions and every catalog figure with its source (on screen the report "
        "always shows them; printed without it, the report is the answer, charts and results)",
    ),
]
CatalogFiles = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        help="a catalog file of your own, read after the shipped catalog: its entries add "
        "systems, drives or RAID formats or replace shipped ones of the same name "
        "(repeatable; docs/design.md 'User catalog files')",
        metavar="PATH",
        show_default=False,
    ),
]
AllowOutside = Annotated[
    bool,
    typer.Option(
        "--allow-outside-heatmaps",
        help="let the scenario read heat maps outside its own folder (trust its author)",
    ),
]


def _version(value: bool) -> None:
    if value:
        say(f"diskmodel {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="print the version"),
    ] = False,
) -> None:
    """diskmodel: analytical sizing of enterprise disk storage."""


@catalog_app.command("list")
def catalog_list(catalog: CatalogFiles = None) -> None:
    """List storage systems, drives and RAID formats in the catalog.

    \b
    Example:
      diskmodel catalog list --catalog site.yaml
    """
    say(api.catalog_listing(catalog or ()))


@catalog_app.command("show")
def catalog_show(
    name: Annotated[
        str,
        typer.Argument(
            help="a system, drive or RAID format name",
            metavar="NAME",
            autocompletion=_catalog_names,
        ),
    ],
    catalog: CatalogFiles = None,
) -> None:
    """Show one catalog entry with every figure and its source.

    \b
    Example:
      diskmodel catalog show 15k-146
    """
    say(api.catalog_entry(name, catalog or ()))


@app.command()
def check(
    scenario: ScenarioPath,
    allow_outside_heatmaps: AllowOutside = False,
    quiet: Quiet = False,
    catalog: CatalogFiles = None,
) -> None:
    """Validate a scenario, summarise its configuration and open the files it reads.

    \b
    Example:
      diskmodel check scenarios/ds8800-c3-baseline.yaml
    """
    checked = api.check(
        scenario, catalog_files=catalog or (), allow_outside_heatmaps=allow_outside_heatmaps
    )
    if not quiet:
        say(api.check_text(checked))


@app.command()
def run(
    scenario: ScenarioPath,
    out: OutOption = None,
    json: JsonOption = None,
    csv: CsvOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    no_catalog_bands: NoCatalogBands = False,
    allow_outside_heatmaps: AllowOutside = False,
    catalog: CatalogFiles = None,
) -> None:
    """Predict a scenario: print a summary, write the HTML report (and JSON if asked).

    \b
    Examples:
      diskmodel run scenarios/ds8800-15k-plus-2-ssd.yaml
      diskmodel run s.yaml --out reports/ --json reports/s.json --csv reports/s-tables
      diskmodel run s.yaml --json - --quiet | jq .configurations[0].max_iops
    """
    outputs = api.plan_outputs(out, json, scenario.stem)  # bad names are refused before the work
    checked = api.check(
        scenario, catalog_files=catalog or (), allow_outside_heatmaps=allow_outside_heatmaps
    )
    with working(_predicting(checked.scenario), quiet=quiet):
        prediction = api.predict(
            checked.scenario,
            base_dir=scenario.parent,
            catalog=checked.catalog,
            allow_outside_heatmaps=allow_outside_heatmaps,
            catalog_bands=not no_catalog_bands,
        )
    api.write_prediction(
        prediction,
        outputs,
        timestamp=not no_timestamp,
        force=force,
        stdout=_write_stdout,
        appendix=appendix,
        csv=csv,
    )
    _report(prediction, outputs, quiet=quiet, csv=csv)


@app.command()
def compare(
    scenarios: Annotated[
        list[Path],
        typer.Argument(
            help="two or more scenario files; the first is the reference",
            metavar="SCENARIO",
            exists=True,
            dir_okay=False,
            readable=True,
            show_default=False,
        ),
    ],
    out: OutOption = None,
    json: JsonOption = None,
    csv: CsvOption = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    allow_outside_heatmaps: AllowOutside = False,
    catalog: CatalogFiles = None,
) -> None:
    """Compare the baselines of several scenario files side by side in one report.

    \b
    Example:
      diskmodel compare scenarios/ds8700-c3-baseline.yaml scenarios/ds8800-c3-baseline.yaml
    """
    if len(scenarios) < 2:
        raise InputError("compare needs at least two scenario files")
    outputs = api.plan_outputs(out, json, "-vs-".join(p.stem for p in scenarios)[:120])
    entries = api.load_catalog(catalog or ())
    loaded = [(api.load_scenario(path, entries), path) for path in scenarios]
    for scenario, path in loaded:
        own = api.scenario_catalog(scenario, path, entries)
        api.read_inputs(scenario, path, allow_outside_heatmaps=allow_outside_heatmaps, catalog=own)
    with working(f"predicting {len(loaded)} scenarios", quiet=quiet):
        prediction = api.compare(
            [(scenario, path.parent) for scenario, path in loaded],
            catalog=entries,
            allow_outside_heatmaps=allow_outside_heatmaps,
        )
    api.write_prediction(
        prediction,
        outputs,
        timestamp=not no_timestamp,
        force=force,
        stdout=_write_stdout,
        appendix=appendix,
        csv=csv,
    )
    _report(prediction, outputs, quiet=quiet, csv=csv)


@app.command()
def logwrite(
    pages: Annotated[
        list[int] | None,
        typer.Option(
            "--pages",
            "-p",
            min=1,
            max=4096,
            metavar="PAGES",
            help="pages per commit, 1 to 4096 (repeatable)  "
            f"[default: {', '.join(map(str, api.LOG_PAGES))}]",
        ),
    ] = None,
    system: Annotated[
        str,
        typer.Option(
            metavar="SYSTEM", help="storage system from the catalog (diskmodel catalog list)"
        ),
    ] = "ds8800-951",
    host_adapter: Annotated[
        str | None,
        typer.Option(metavar="ADAPTER", help="host adapter type; default: the system's"),
    ] = None,
    page_kib: Annotated[
        float, typer.Option(min=0.5, max=64, metavar="KIB", help="log page size, KiB, 0.5 to 64")
    ] = 4.0,
    links: Annotated[
        int | None,
        typer.Option(
            min=1, max=64, metavar="N", help="links (channels, ports) the stripes share, 1 to 64"
        ),
    ] = None,
    utilization: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=0.99,
            metavar="FRACTION",
            help="busiest station on each path, busy fraction 0 to 0.99",
        ),
    ] = 0.0,
    service_us: Annotated[
        float,
        typer.Option(
            min=0.0, max=1e6, metavar="US", help="that station's service per operation, us"
        ),
    ] = 50.0,
    catalog_files: CatalogFiles = None,
) -> None:
    """Commit time of a striped database log for 1, 2, 4 and 8 stripes, from the system's
    catalog figures. A DS8800 with 8 Gb/s ports gives 168 us for 1 page and 2.5 ms for 128,
    as IBM measured Db2 log writes on a DS8800 with 8 Gb FICON (about 170 us and 2.5 ms). For
    a whole scenario's logs at its own load, give it a `logs` section.

    \b
    Example:
      diskmodel logwrite -p 4 -p 128 --utilization 0.5
    """
    summary = api.log_striping(
        system,
        host_adapter=host_adapter,
        page_kib=page_kib,
        pages=pages or api.LOG_PAGES,
        links=links,
        utilization=utilization,
        service_us=service_us,
        catalog_files=catalog_files or (),
    )
    say(api.log_striping_text(summary))


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
            autocompletion=_catalog_names,
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
    chosen = api.select_intervals(intervals, peak or ["io"])
    hardware = _hardware(
        config, system, processor_ways, cache_gb, host_ports, da_pairs, ranks, easy_tier, pool
    )
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
    _write_stdout(text)


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
    api.write_outputs(outputs, force=force, stdout=_write_stdout)
    if not quiet:
        for o in outputs:
            if o.path is not None:
                say(f"wrote {o.path}", err=True)
    if strict and result.gate is not None and not result.gate.passed:
        raise typer.Exit(int(ExitCode.CALIBRATION_FAILED))


@app.command()
def size(
    scenario: ScenarioPath,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            "-o",
            help="also write the sizing report (the run report with its sizing section): an "
            "HTML file, - for standard output, or a folder/",
            metavar="FILE",
            show_default=False,
        ),
    ] = None,
    json: JsonOption = None,
    csv: Annotated[
        str | None,
        typer.Option(
            "--csv",
            help="also write the sizing table as CSV (sizing.csv) into this folder",
            metavar="DIR",
            show_default=False,
        ),
    ] = None,
    no_timestamp: NoTimestamp = False,
    force: Force = False,
    quiet: Quiet = False,
    appendix: Appendix = False,
    catalog: CatalogFiles = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="a Dask distributed scheduler's address (tcp://host:8786) to run the search "
            "on; needs pip install 'diskmodel[dask]'",
        ),
    ] = None,
) -> None:
    """Size a scenario: try every configuration its analyses.size offers against the service
    level now and in every growth period, and print the cheapest that meets it and the
    Pareto front of cost against response time (and the report, JSON or CSV if asked).

    \b
    Examples:
      diskmodel size scenarios/ds8800-size-for-growth.yaml
      diskmodel size s.yaml --out reports/ --csv reports/s-tables
      diskmodel size s.yaml --scheduler tcp://host:8786
    """
    plan = api.plan_sizing(out, json, csv, scenario.stem)  # bad names: refused before the search
    entries = api.load_catalog(catalog or ())
    loaded = api.load_scenario(scenario, entries)
    entries = api.scenario_catalog(loaded, scenario, entries)
    with progress("trying configurations", api.size_candidates(loaded, scenario)) as advance:
        result = api.size(loaded, entries, scenario.parent, advance, scheduler=scheduler)
    prediction = None
    if plan.report:
        with progress("predicting the current configuration for the report", 1) as advance:
            prediction = api.predict(
                loaded, base_dir=scenario.parent, catalog=entries, sizing=result
            )
            advance(1)
    outputs = api.sizing_outputs(
        result, plan, prediction, timestamp=not no_timestamp, appendix=appendix
    )
    api.write_outputs(outputs, force=force, stdout=_write_stdout)
    if quiet:
        return
    to_stderr = any(o.path is None for o in outputs)  # a result is on standard output
    say(api.sizing_text(result, err=to_stderr), err=to_stderr)
    for o in outputs:
        if o.path is not None:
            say(f"wrote {o.path}", err=to_stderr)


# ---------------------------------------------------------------------- what run and compare print


def _predicting(loaded: Scenario) -> str:
    """What `run` says while it predicts (a sizing search is the long part, when there is one)."""
    count = 1 + len(loaded.analyses.compare)
    what = f"predicting {count} configuration{'s' if count > 1 else ''}"
    size = loaded.analyses.size
    return what + (f" and sizing ({size.candidates:,} to try)" if size is not None else "")


def _report(
    prediction: ScenarioPrediction,
    planned: Sequence[Planned],
    *,
    quiet: bool,
    csv: str | None = None,
) -> None:
    """The summary and the files written; on stderr when stdout carries a result."""
    if quiet:
        return
    err = any(path is None for _, path in planned)
    say(api.render_text(prediction, err=err), err=err)
    say("", err=err)
    for _, path in planned:
        if path is not None:
            say(f"wrote {path}", err=err)
    if csv is not None:
        say(f"wrote the report's tables as CSV into {csv}", err=err)


def main() -> None:
    """Console-script entry point: the command line through its one error boundary."""
    # A run makes a great many short-lived objects and few reference cycles; collecting the
    # youngest generation every 700 allocations (Python's default) took 4-6% of a run's CPU
    # (0.04-0.07 s of 0.75-1.2 s, same peak memory). mypy's command line sets the same
    # thresholds for the same reason. Only the command line: a library leaves its host's alone.
    gc.set_threshold(200_000, 30, 30)
    try:
        app()
    finally:
        # On its way out the interpreter runs the cycle collector over every object still
        # alive (the catalog, the model's caches, numpy's and pydantic's modules): 0.1 s of a
        # 1 s run, to free memory the process is about to give back. The collector skips
        # frozen objects; they are still freed by reference counting, the standard streams
        # are still flushed and atexit handlers still run (every file diskmodel writes is
        # closed before this), only reference cycles are left to the operating system.
        gc.freeze()
