"""RMF intervals as a z/OS scenario (`diskmodel import` given an RMF CSV): each group of the
first interval chosen becomes a z/OS workload at its measured rate, read fraction, read hit
ratio and transfer size, on its volumes and LCUs; with the hardware, a complete scenario whose
system reaches them over FICON (the hardware's `ficon` and `lcus` where it gives them, else
FICON Express8S with zHPF and each LCU the CSV names with HyperPAV and no aliases, which the
planner then states).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from diskmodel.catalog import Catalog
from diskmodel.errors import InputError
from diskmodel.measured.rmf import RmfGroup, RmfInterval, select_rmf
from diskmodel.yamlio import Located

DEFAULT_RECORD_BYTES = 4096
"""The record size an imported workload's volumes are taken as formatted with (a 4 KiB page)."""
DEFAULT_VOLUME_MODEL = "3390-9"
"""The volume model an imported workload's volumes are taken as when the CSV gives none (the
most common 3390 model in the RMF reports the issue names)."""


def _workload(g: RmfGroup, pool: str, catalog: Catalog) -> dict[str, Any]:
    model = catalog.volume_models[DEFAULT_VOLUME_MODEL]
    volume_gb = model.data_bytes(DEFAULT_RECORD_BYTES) / 1e9
    if g.volumes is None and g.capacity_gb is None:
        raise InputError(
            f"RMF group {g.group!r}: give its volumes or its capacity_gb (a column of the CSV)"
        )
    volumes = g.volumes or max(1, math.ceil((g.capacity_gb or 0.0) / volume_gb))
    capacity = g.capacity_gb or round(volumes * volume_gb * 0.9, 1)  # volumes 90% full
    return {
        "name": g.group,
        "pool": pool,
        "iops": round(g.io_rate, 2),
        "read_fraction": round(g.read_fraction, 4),
        "read_hit_ratio": round(g.read_hit_ratio, 4),
        "read_size_kib": round(g.transfer_kib, 3),
        "write_size_kib": round(g.transfer_kib, 3),
        "capacity_gb": capacity,
        "zos": {
            "lcus": list(g.lcus) or [f"lcu-{g.group}"],
            "volumes": volumes,
            "volume_model": DEFAULT_VOLUME_MODEL,
        },
    }


def rmf_data(
    intervals: Sequence[RmfInterval],
    hardware: Located | None,
    pool: str | None,
    catalog: Catalog,
    source: str,
) -> dict[str, Any]:
    """The workloads (without hardware) or the whole scenario (with it) as plain data."""
    first = intervals[0]
    pools = [] if hardware is None else [p.get("name") for p in hardware.data.get("pools", [])]
    chosen_pool = pool or (pools[0] if len(pools) == 1 else "pool0")
    workloads = [_workload(g, str(chosen_pool), catalog) for g in first.groups]
    if hardware is None:
        return {"workloads": workloads}
    system = dict(hardware.data["system"])
    system.setdefault("ficon", {"channel": "ficon-express-8s", "channels": 4, "zhpf": True})
    if "lcus" not in system:
        names = sorted({n for w in workloads for n in w["zos"]["lcus"]})
        system["lcus"] = [{"name": n, "pav": "hyperpav", "aliases": 0} for n in names]
    return {
        "schema_version": 1,
        "name": f"{system.get('model', 'system')} z/OS from {Path(source).name}"[:100],
        "description": f"Imported from {Path(source).name}: the z/OS workloads of "
        f"{first.label()}. The destage ratios and the front end's fixed times are left to "
        "diskmodel calibrate (with the same RMF CSV).",
        "system": system,
        "pools": hardware.data["pools"],
        "workloads": workloads,
    }


def rmf_yaml(
    path: Path,
    peaks: Sequence[str],
    hardware: Located | None,
    pool: str | None,
    catalog: Catalog,
) -> str:
    """`rmf_data` of the intervals `peaks` name in `path`, as YAML text (validated as a
    scenario when it is one)."""
    from ruamel.yaml import YAML

    intervals = select_rmf(path, peaks)
    data = rmf_data(intervals, hardware, pool, catalog, str(path))
    if hardware is not None:
        from diskmodel.scenario.loading import validate_scenario

        validate_scenario(Located(data, hardware.source, hardware.lines), catalog)
    yaml = YAML()
    yaml.default_flow_style = None
    stream = io.StringIO()
    stream.write(f"# z/OS workloads imported from {path.name}, interval {intervals[0].label()}\n")
    yaml.dump(data, stream)
    return stream.getvalue()
