"""How much the catalog's estimates move a prediction: each estimated hardware figure scaled by
±25% on its own, the baseline solved again, the change in its maximum and in its response time
at the planned load.

The figures perturbed are the ones no published document gives (catalog `basis: Estimate ...`)
and that decide bottlenecks (issue 11): the device adapter's cost per operation and its
bandwidth, the host port's protocol overhead per I/O, the host adapter card's cost per I/O and
its bandwidth, the processor's costs per I/O, and the SSD's service times and internal
parallelism. A figure scaled on every entry that carries it (every host adapter type of the
system, every SSD), since a scenario may use any of them.

`python -m diskmodel.analyses.sensitivity [SCENARIO]` prints the table (docs/model.md §7).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from diskmodel.analyses.predict import predict_configuration
from diskmodel.catalog import Catalog, Drive, StorageSystem, load_catalog
from diskmodel.configuration import resolve
from diskmodel.scenario import Scenario, load_scenario

STEP = 0.25
"""The relative perturbation: each figure at 75% and 125% of its catalog value."""


def _scaled(model: BaseModel, fields: Sequence[str], factor: float) -> BaseModel:
    """`model` with each of `fields` times `factor` (whole numbers rounded, at least 1)."""
    update = {}
    for name in fields:
        value = getattr(model, name)
        scaled = value * factor
        update[name] = max(round(scaled), 1) if isinstance(value, int) else scaled
    return model.model_copy(update=update)


def _system(change: Callable[[StorageSystem], StorageSystem]) -> Callable[[Catalog], Catalog]:
    def apply(catalog: Catalog) -> Catalog:
        systems = {name: change(s) for name, s in catalog.systems.items()}
        return catalog.model_copy(update={"systems": systems})

    return apply


def _ssds(fields: Sequence[str], factor: float) -> Callable[[Catalog], Catalog]:
    def apply(catalog: Catalog) -> Catalog:
        drives: dict[str, Drive] = {
            name: _scaled(d, fields, factor) if d.kind == "ssd" else d  # type: ignore[misc]
            for name, d in catalog.drives.items()
        }
        return catalog.model_copy(update={"drives": drives})

    return apply


def _da(fields: Sequence[str], factor: float) -> Callable[[Catalog], Catalog]:
    return _system(
        lambda s: s.model_copy(update={"device_adapter": _scaled(s.device_adapter, fields, factor)})
    )


def _adapters(fields: Sequence[str], factor: float) -> Callable[[Catalog], Catalog]:
    return _system(
        lambda s: s.model_copy(
            update={"host_adapters": [_scaled(a, fields, factor) for a in s.host_adapters]}
        )
    )


def _processor(factor: float) -> Callable[[Catalog], Catalog]:
    def change(s: StorageSystem) -> StorageSystem:
        costs = s.processor_costs
        fields = [f for f in type(costs).model_fields if f != "provenance"]
        return s.model_copy(update={"processor_costs": _scaled(costs, fields, factor)})

    return _system(change)


PARAMETERS: tuple[tuple[str, Callable[[float], Callable[[Catalog], Catalog]]], ...] = (
    ("device adapter cost per operation", lambda f: _da(["per_op_us"], f)),
    ("device adapter bandwidth", lambda f: _da(["bandwidth_mb_s"], f)),
    ("host port overhead per I/O", lambda f: _adapters(["per_io_overhead_us"], f)),
    ("host adapter card cost per I/O", lambda f: _adapters(["card_per_io_us"], f)),
    ("host adapter card bandwidth", lambda f: _adapters(["card_bandwidth_mb_s"], f)),
    ("processor costs per I/O", _processor),
    (
        "SSD service times (read and write)",
        lambda f: _ssds(["ssd_read_service_ms", "ssd_write_service_ms"], f),
    ),
    ("SSD internal parallelism", lambda f: _ssds(["ssd_parallelism"], f)),
)


@dataclass(frozen=True)
class Sensitivity:
    """One parameter at 1 - STEP and 1 + STEP: the baseline's maximum and its response time at
    the planned load, as ratios to the unperturbed ones (None: saturated there)."""

    parameter: str
    max_iops: tuple[float, float]
    response: tuple[float | None, float | None]
    bottleneck: tuple[str, str]


def sensitivity(
    scenario: Scenario, base_dir: Path | None = None
) -> tuple[float, float | None, list[Sensitivity]]:
    """The baseline's maximum and response time, and each parameter's effect on them."""
    catalog = load_catalog()

    def solve(cat: Catalog) -> tuple[float, float | None, str]:
        p = predict_configuration(resolve(scenario, cat, base_dir))
        return p.max_iops, p.response_time_ms, p.bottleneck

    base_max, base_response, _ = solve(catalog)
    out = []
    for name, make in PARAMETERS:
        results = [solve(make(factor)(catalog)) for factor in (1 - STEP, 1 + STEP)]
        out.append(
            Sensitivity(
                parameter=name,
                max_iops=(results[0][0] / base_max, results[1][0] / base_max),
                response=tuple(  # type: ignore[arg-type]
                    None if r[1] is None or base_response is None else r[1] / base_response
                    for r in results
                ),
                bottleneck=(results[0][2], results[1][2]),
            )
        )
    return base_max, base_response, out


def _pct(ratio: float | None) -> str:
    return "saturated" if ratio is None or not math.isfinite(ratio) else f"{ratio - 1:+.1%}"


def main(argv: Sequence[str]) -> None:
    path = (
        Path(argv[0])
        if argv
        else Path(__file__).resolve().parents[2] / "scenarios" / ("ds8800-15k-plus-2-ssd.yaml")
    )
    base_max, base_response, rows = sensitivity(load_scenario(path), path.parent)
    print(f"{path.name}: maximum {base_max:,.0f} IOPS, response {base_response:.3f} ms")
    header = ["estimate (catalog)", "max IOPS -25%", "+25%", "response -25%", "+25%"]
    print("| " + " | ".join([*header, "bottleneck -25% / +25%"]) + " |")
    print("|---" * (len(header) + 1) + "|")
    for r in rows:
        cells = [r.parameter, *map(_pct, r.max_iops), *map(_pct, r.response)]
        print("| " + " | ".join([*cells, " / ".join(r.bottleneck)]) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
