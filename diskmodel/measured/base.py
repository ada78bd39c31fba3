"""A complete base scenario from measured intervals: the hardware from flags or a small
configuration file, the workloads and their alternatives as measured (`diskmodel import
--config FILE` or `--system MODEL --ranks ...`).

`diskmodel import` alone prints a scenario's workloads for pasting into one. Given the
hardware, it prints the whole scenario instead: `schema_version`, a name, the `system` and
`pools` (the configuration file's, or built from the flags), the workloads in one pool, and the
other chosen intervals as `analyses.compare` alternatives. What the intervals do not say (each
workload's destage ratio and skew; its read hit ratio where the CSV has none, written as the
range calibration fits) is left for `diskmodel calibrate`, which takes the file as it is. The
scenario is validated before it is printed; a mistake in the configuration file is one message
naming its line and key, a mistake in the flags names the flag.

The configuration file is the hardware part of a scenario, as a scenario writes it:

    system: {model: ds8800-951, processor_ways: 4, cache_gb: 256, host_ports: 16, da_pairs: 4}
    pools:
      - name: pool0
        easy_tier: auto
        ranks:
          - {drive: 15k-300, raid: raid5-7+p, count: 32}
          - {drive: ssd-300, raid: raid5-6+p+s, count: 2}

with, optionally, a `name`, a `description` and a `service_level` (`HARDWARE_KEYS`). Drives,
systems or RAID formats of your own come from `--catalog`, as for every command.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from diskmodel.catalog import Catalog
from diskmodel.errors import InputError
from diskmodel.measured.peaks import Selection, imported_lines, scenario_part
from diskmodel.scenario.values import MAX_NAME_CHARS
from diskmodel.yamlio import Located, load_yaml

HARDWARE_KEYS = ("name", "description", "system", "pools", "service_level")
"""What a configuration file for `import --config` may hold (`system` and `pools` at least)."""
FLAGS = {
    "system.model": "--system",
    "system.processor_ways": "--processor-ways",
    "system.cache_gb": "--cache-gb",
    "system.host_ports": "--host-ports",
    "system.da_pairs": "--da-pairs",
    "pools": "--ranks",
}
"""The flag that gives each key of a scenario built from flags."""


def read_hardware(path: Path) -> Located:
    """The configuration file's data with its lines, or `InputError` naming what is wrong."""
    located = load_yaml(path)
    data = located.data
    if not isinstance(data, dict):
        raise InputError(
            f"{path}: a hardware configuration is a mapping with system and pools (as a "
            "scenario writes them)"
        )
    unknown = [k for k in data if k not in HARDWARE_KEYS]
    if unknown:
        raise InputError(
            f"{path}:{located.line_of([unknown[0]])}: {unknown[0]!r} is not a key of a "
            f"hardware configuration (allowed: {', '.join(HARDWARE_KEYS)})"
        )
    missing = [k for k in ("system", "pools") if k not in data]
    if missing:
        raise InputError(f"{path}: no {' or '.join(missing)} (a configuration gives both)")
    return located


def parse_ranks(specs: Sequence[str]) -> list[dict[str, Any]]:
    """`--ranks DRIVE,RAID,COUNT` (repeatable) as a pool's rank groups."""
    out = []
    for spec in specs:
        parts = [p.strip() for p in spec.split(",")]
        if len(parts) != 3 or not parts[2].isdigit() or not all(parts):
            raise InputError(
                f"--ranks {spec!r}: give DRIVE,RAID,COUNT (e.g. 15k-300,raid5-7+p,32; "
                "`diskmodel catalog list` names the drives and RAID formats)"
            )
        out.append({"drive": parts[0], "raid": parts[1], "count": int(parts[2])})
    return out


def hardware_from_flags(
    model: str,
    processor_ways: int,
    cache_gb: float,
    host_ports: int,
    da_pairs: int,
    ranks: Sequence[str],
    easy_tier: str,
    pool: str,
) -> Located:
    """The hardware part of a scenario from `import`'s flags (one pool of `ranks`)."""
    if not ranks:
        raise InputError("--system: give the pool's ranks too (--ranks DRIVE,RAID,COUNT)")
    data = {
        "system": {
            "model": model,
            "processor_ways": processor_ways,
            "cache_gb": int(cache_gb) if float(cache_gb).is_integer() else cache_gb,
            "host_ports": host_ports,
            "da_pairs": da_pairs,
        },
        "pools": [{"name": pool, "easy_tier": easy_tier, "ranks": parse_ranks(ranks)}],
    }
    return Located(data, "import flags")


def pool_for(hardware: Located, pool: str | None) -> str:
    """The pool the workloads go in: `pool` if given, else the configuration's only pool."""
    pools = [p.get("name") for p in hardware.data["pools"] if isinstance(p, dict)]
    if pool is not None:
        return pool
    if len(pools) == 1 and isinstance(pools[0], str):
        return pools[0]
    raise InputError(
        f"{hardware.source}: {len(pools)} pools ({', '.join(map(str, pools))}); name the one "
        "the measured workloads are in with --pool"
    )


def base_scenario(
    selections: Sequence[Selection],
    hardware: Located,
    pool: str,
    capacity_gb: float | None,
    source: str,
    catalog: Catalog,
) -> dict[str, Any]:
    """The complete scenario's data (module docstring), validated: `ScenarioError` naming the
    configuration file's line and key, or the flag (from flags)."""
    from diskmodel.scenario.loading import validate_scenario
    from diskmodel.scenario.values import ScenarioError

    given = hardware.data
    system = given["system"]
    model = system.get("model", "the system") if isinstance(system, dict) else "the system"
    name = f"{model} from {Path(source).name} (before calibration)"
    if len(name) > MAX_NAME_CHARS:
        name = f"{model} from measured intervals (before calibration)"[:MAX_NAME_CHARS]
    data: dict[str, Any] = {
        "schema_version": 1,
        "name": given.get("name", name),
        "description": given.get(
            "description",
            f"Imported from {Path(source).name}: the workloads of "
            f"{selections[0].label}, the other intervals as alternatives. The destage ratios "
            "and skews are left to diskmodel calibrate.",
        ),
    }
    data["system"] = system
    data["pools"] = given["pools"]
    part = scenario_part(selections, pool, capacity_gb)
    data["workloads"] = part["workloads"]
    if "service_level" in given:
        data["service_level"] = given["service_level"]
    if "analyses" in part:
        data["analyses"] = part["analyses"]
    try:
        validate_scenario(Located(data, hardware.source, hardware.lines), catalog)
    except ScenarioError as exc:
        message = str(exc)
        if hardware.source == "import flags":
            for key, flag in FLAGS.items():
                message = message.replace(f"import flags: {key}", f"import flags: {flag} ({key})")
        raise ScenarioError(message) from None
    return data


def base_yaml(data: dict[str, Any], selections: Sequence[Selection], source: str) -> str:
    """The complete scenario as YAML text, with comments saying where it came from and what
    calibration will fit."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    lines = [
        "# yaml-language-server: $schema=<path to diskmodel/scenario/scenario.schema.json>",
        *imported_lines(selections, source),
    ]
    lines.append(
        "# The workloads' destage ratios and skews are not measured: `diskmodel calibrate "
        "THIS_FILE --measured"
    )
    lines.append(f"# {Path(source).name} -p ...` fits them (docs/measured.md).")

    def flow(value: Any) -> Any:
        """Rank groups on one line each, as the shipped scenarios write them."""
        if isinstance(value, dict):
            out = CommentedMap((k, flow(v)) for k, v in value.items())
            return out
        if isinstance(value, list):
            return CommentedSeq(flow(v) for v in value)
        return value

    shaped = flow(data)
    for p in shaped.get("pools", []):
        for group in p.get("ranks", []) if isinstance(p, dict) else []:
            if isinstance(group, CommentedMap):
                group.fa.set_flow_style()
    if isinstance(shaped.get("system"), CommentedMap):
        shaped["system"].fa.set_flow_style()
    yaml = YAML()
    yaml.width = 100
    stream = io.StringIO()
    yaml.dump(shaped, stream)
    return "\n".join(lines) + "\n" + stream.getvalue()
