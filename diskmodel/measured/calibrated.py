"""What `diskmodel calibrate` writes: the calibrated scenario, and the catalog file of the
catalog figures it fitted.

The calibrated scenario is the base scenario's own text with the identified values set (its
comments and layout kept: `diskmodel.yaml_edit.keep_layout`; a range fitted is replaced by its
fitted value; what is not identified is left as written), the fitted catalog file added to its
`catalog:` list, and the calibration's record appended as its `calibration:` section
(`diskmodel.scenario.calibration`: what was fitted, from which intervals, the quality gate's
verdict, every measured figure against the model), which the report shows. Its first line is
diskmodel's mark (`# diskmodel <version>: ...`), so a later calibration may replace the file.

The catalog figures identified are written into a catalog file of the planner's own
(docs/design.md, "User catalog files"), each entry whole (an entry replaces the shipped one of
its name), the fitted figure with the measured data as its source, its 95% interval as its
range (the band over the catalog's estimates then spans what the measurement leaves), and the
estimate it replaces in its basis.
"""

from __future__ import annotations

import io
from typing import Any

from diskmodel import __version__
from diskmodel.catalog_yaml import catalog_file_text, entry_data
from diskmodel.measured.calibrate import Calibration
from diskmodel.measured.problem import FRONT_END, PIN_SHARE, SKEW

MARK = f"# diskmodel {__version__}: "
"""The first line's start: diskmodel's mark on a file it wrote (`output.marked_as_ours`)."""


def record(calibration: Calibration, measured: str) -> dict[str, Any]:
    """The calibration as a scenario's `calibration:` section (plain data)."""
    gate = calibration.gate
    out: dict[str, Any] = {
        "measured": measured,
        "intervals": list(calibration.intervals),
        "evaluations": calibration.evaluations,
        "rms_error": _number(calibration.rms_error),
        "fitted": [
            {
                "name": p.name,
                "kind": p.kind,
                "value": _number(p.value),
                **({"low": _number(p.low), "high": _number(p.high)} if p.identified else {}),
                "identified": p.identified,
                **({"why": p.why} if p.why else {}),
                "bounds": _flow([_number(b) for b in p.bounds or (p.value, p.value)]),
                **({"initial": _number(p.initial)} if p.initial is not None else {}),
            }
            for p in calibration.parameters
        ],
        "figures": [
            {
                "interval": r.interval,
                "scope": r.scope,
                "figure": r.figure,
                "measured": _number(r.measured),
                "model": _number(r.model),
            }
            for r in calibration.residuals
        ],
    }
    if gate is not None:
        out["gate"] = {
            "threshold": gate.threshold,
            "passed": gate.passed,
            "response_rms_error": _number(gate.response_rms_error),
            "worst_error": _number(gate.worst_error),
            "worst": gate.worst,
            "findings": [
                {"subject": f.subject, "cause": f.cause, "remedy": f.remedy, "fails": f.fails}
                for f in gate.findings
            ],
        }
    return out


def _number(value: float | None) -> float | None:
    """A figure as the record keeps it: six significant digits (the fit's own precision)."""
    return None if value is None else float(f"{value:.6g}")


def _flow(values: list[Any]) -> Any:
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq(values)
    seq.fa.set_flow_style()
    return seq


def with_values(text: str, calibration: Calibration, catalog_file: str | None = None) -> str:
    """The scenario's data with the identified values set, `catalog_file` added to its
    `catalog:` list and an earlier calibration's record left out, written out by ruamel (its
    comments and key order kept, its layout ruamel's: `calibrated_yaml` keeps the author's)."""
    from ruamel.yaml import YAML

    yaml = YAML()
    data = yaml.load(text)
    index = {w["name"]: w for w in data["workloads"]}
    for p in calibration.parameters:
        if not p.identified or p.kind == "catalog":
            continue
        if p.key == FRONT_END:
            data["system"][FRONT_END] = round(p.value, 1)
        elif p.key == PIN_SHARE:
            index[p.workload]["pin"]["io_share"] = round(p.value, 4)
        elif p.key == SKEW:
            index[p.workload]["skew"] = {"level": round(p.value, 3)}
        else:
            index[p.workload][p.key] = round(p.value, 4)
    if catalog_file is not None:
        files = list(data.get("catalog") or [])
        if catalog_file not in files:
            data["catalog"] = [*files, catalog_file]
    if "calibration" in data:
        del data["calibration"]  # an earlier calibration's record: replaced
    edited = io.StringIO()
    yaml.dump(data, edited)
    return edited.getvalue()


def calibrated_yaml(
    text: str,
    calibration: Calibration,
    measured: str,
    catalog_file: str | None = None,
) -> str:
    """The calibrated scenario's text (module docstring): `text` is the base scenario's,
    `measured` names the interval data, `catalog_file` the fitted catalog file (relative to
    the calibrated scenario's folder), if one was written."""
    from ruamel.yaml import YAML

    from diskmodel.yaml_edit import keep_layout

    body = keep_layout(text, with_values(text, calibration, catalog_file))
    section = io.StringIO()
    writer = YAML()
    writer.width = 100
    writer.dump({"calibration": record(calibration, measured)}, section)
    verdict = "passed" if calibration.gate is None or calibration.gate.passed else "FAILED"
    header = (
        f"{MARK}calibrated by diskmodel calibrate against {measured} (quality gate {verdict}); "
        "what was fitted, the gate and every measured figure against the model are under "
        "`calibration:` at the end\n"
    )
    return header + body.rstrip("\n") + "\n\n" + section.getvalue()


def fitted_catalog_text(calibration: Calibration, measured: str) -> str:
    """The catalog file of the catalog figures identified (module docstring)."""
    by_entry: dict[str, dict[str, Any]] = {}
    for entry in calibration.catalog_entries:
        by_entry[entry.name] = entry_data(entry)
    intervals = ", ".join(calibration.intervals)
    for p in calibration.parameters:
        if p.kind != "catalog" or not p.identified or p.low is None or p.high is None:
            continue
        figure = _figure_at(by_entry[p.workload], p.key)
        low, high = p.bounds or (p.value, p.value)
        before = (
            f"catalog estimate before calibration: {p.initial:g} (range {low:g} to {high:g})"
            if p.initial is not None
            else "catalog estimate before calibration"
        )
        basis = figure.get("basis") or figure.get("source") or ""
        figure.clear()
        figure["value"] = float(f"{p.value:.6g}")
        figure["source"] = (
            f"measured: fitted by diskmodel calibrate to {measured} ({intervals}); 95% "
            f"interval {p.low:.4g} to {p.high:.4g}"
        )
        figure["basis"] = f"{before}. {basis}".strip()
        figure["range"] = _flow([float(f"{p.low:.6g}"), float(f"{p.high:.6g}")])
    header = (
        f"diskmodel {__version__}: catalog figures fitted by diskmodel calibrate to {measured}.\n"
        "Each entry is whole: it replaces the shipped entry of its name for every scenario that "
        "names this file."
    )
    return catalog_file_text(list(calibration.catalog_entries), header, data=by_entry)


def _figure_at(data: dict[str, Any], key: str) -> dict[str, Any]:
    """The figure `key` (a dotted path: `device_adapter.per_op_us`,
    `host_adapters.<name>.card_per_io_us`, `packaging.<system>.media_transfer_mb_s`) in an
    entry's data."""
    node: Any = data
    rest = key
    while True:
        if isinstance(node, list):
            node = next(e for e in node if rest.startswith(f"{e['name']}."))
            rest = rest[len(node["name"]) + 1 :]
            continue
        if rest in node:
            found: dict[str, Any] = node[rest]
            return found
        head = next(k for k in node if rest.startswith(f"{k}."))
        node, rest = node[head], rest[len(head) + 1 :]
