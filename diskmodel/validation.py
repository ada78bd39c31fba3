"""The published figures, reproduced through the product: `python -m diskmodel.validation`.

Every figure of `scenarios/validation/figures.yaml` names a scenario file beside it, the field
of that scenario's JSON result it is read from (the result of `diskmodel run --json`, produced
by the same `load_scenario` and `predict` a planner's run calls: cache, destage, Easy Tier,
all of it), the published value, the tolerance and the source. Nothing here calls a component
function: a figure counts as reproduced only when the product reproduces it.

A field is a path into the JSON result (docs/json-schema.md): `configurations[0].max_iops`;
`[2:5]` and `[*]` take several list items and the values they lead to are summed;
`[key=value]` takes the one item whose `key` is `value` (`configurations[name=skew 7]`). A
figure is `read` (a path, or a list of paths for a band over several configurations),
optionally `over` another path (a ratio, elementwise for a band) and times `scale` (with the
reason in `scale_basis`, e.g. C9's 1.9 disk operations per host I/O over 8 ranks). A figure
whose scenario must be limited by one kind of component says so (`bottleneck: rank`): read
anywhere else, the figure would not measure what it claims, which is an error, not a miss.

Each figure has a `kind`:
- `validation`: the model is tested against it (the product's result, the published value);
- `fitted`: a catalog figure or model constant was chosen to reproduce it, so reproducing it
  proves nothing; it is listed, computed and kept reproduced, never counted as validation;
- `input`: a published figure the catalog uses as a hardware property (read from the
  catalog entry as installed, `catalog: entry.key@system`).

A figure the product misses carries `known_miss: <why>` and is a strict xfail in the tests
(`pytest -m validation`): the measured error is in the table, the reason in the manifest.

`python -m diskmodel.validation` prints the table; `--write` regenerates docs/validation.md,
and a test checks that the page matches a fresh run.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from diskmodel.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "scenarios" / "validation"
MANIFEST = "figures.yaml"
PAGE = ROOT / "docs" / "validation.md"


class Tolerance(BaseModel):
    """How close is close enough: `relative` (|predicted / published - 1| at most this) or
    `within` (the predicted value inside [low, high], stated in the published units)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    relative: float | None = Field(default=None, ge=0)
    within: tuple[float, float] | None = None

    @model_validator(mode="after")
    def _one(self) -> Tolerance:
        if (self.relative is None) == (self.within is None):
            raise ValueError("give exactly one of relative, within")
        return self


class FigureSpec(BaseModel):
    """One published figure and how the product's result is read against it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    figure: str = Field(min_length=1)  # the published figure's label, e.g. C9
    kind: Literal["validation", "fitted", "input"] = "validation"
    quantity: str = Field(min_length=1)
    source: str = Field(min_length=1)
    scenario: str | None = None
    read: str | list[str] | None = None
    over: str | list[str] | None = None
    scale: float = 1.0
    scale_basis: str = ""
    catalog: str | None = None  # entry.key@system, for kind input
    bottleneck: str | None = None
    published: float | tuple[float, float]
    published_text: str | None = None
    tolerance: Tolerance = Tolerance(relative=0.0)
    fitted: str = ""  # what was fitted to it (kind fitted)
    known_miss: str | None = None
    unit: str = ""

    @model_validator(mode="after")
    def _complete(self) -> FigureSpec:
        if self.kind == "input":
            if self.catalog is None:
                raise ValueError(f"{self.id}: an input figure names its catalog figure")
        elif self.scenario is None or self.read is None:
            raise ValueError(f"{self.id}: give the scenario and the field to read")
        if self.kind == "fitted" and not self.fitted:
            raise ValueError(f"{self.id}: a fitted figure says what was fitted to it")
        if isinstance(self.read, list) != isinstance(self.over, list) and self.over is not None:
            raise ValueError(f"{self.id}: read and over are both one path or both lists")
        return self

    @property
    def band(self) -> bool:
        """The prediction is an interval over several configurations (`read` is a list)."""
        return isinstance(self.read, list)

    @property
    def published_label(self) -> str:
        if self.published_text:
            return self.published_text
        if isinstance(self.published, tuple):
            return f"{_fmt(self.published[0])}–{_fmt(self.published[1])}{_unit(self.unit)}"
        return f"{_fmt(self.published)}{_unit(self.unit)}"

    @property
    def tolerance_label(self) -> str:
        t = self.tolerance
        if t.within is not None:
            return f"within {_fmt(t.within[0])}–{_fmt(t.within[1])}"
        assert t.relative is not None
        if isinstance(self.published, tuple):
            return "the range" if t.relative == 0 else f"the range ± {t.relative:.0%}"
        return f"± {t.relative:.0%}"


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1]
    notes: list[str] = Field(default_factory=list)  # printed under the summary
    figures: list[FigureSpec]

    @model_validator(mode="after")
    def _unique(self) -> Manifest:
        ids = [f.id for f in self.figures]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"figure ids used twice: {', '.join(twice)}")
        return self


def load_manifest(folder: Path = FOLDER) -> Manifest:
    return Manifest.model_validate(load_yaml(folder / MANIFEST).data)


# --------------------------------------------------------------------------- reading results

_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]*)\]")


def read_path(document: Any, path: str) -> float:
    """The number at `path` in a JSON result (module docstring): several values are summed."""
    values = _walk([document], path, multi=False)
    numbers = [float(v) for v in values]
    if not numbers:
        raise ValueError(f"{path}: no value")
    return math.fsum(numbers)


def _walk(items: list[Any], path: str, multi: bool) -> list[Any]:
    position = 0
    while position < len(path):
        match = _STEP.match(path, position)
        if match is None:
            raise ValueError(f"{path}: cannot read the path at {path[position:]!r}")
        position = match.end()
        name, selector = match.groups()
        if name is not None:
            items = [_key(item, name, path) for item in items]
        else:
            items = [chosen for item in items for chosen in _select(item, selector, path)]
    return items


def _key(item: Any, name: str, path: str) -> Any:
    if not isinstance(item, dict) or name not in item:
        raise ValueError(f"{path}: no field {name!r}")
    return item[name]


def _select(item: Any, selector: str, path: str) -> list[Any]:
    if not isinstance(item, list):
        raise ValueError(f"{path}: [{selector}] on something that is not a list")
    if selector == "*":
        return list(item)
    if "=" in selector:
        key, _, wanted = selector.partition("=")
        found = [x for x in item if isinstance(x, dict) and str(x.get(key.strip())) == wanted]
        if len(found) != 1:
            raise ValueError(f"{path}: [{selector}] matches {len(found)} items, not one")
        return found
    if ":" in selector:
        low, _, high = selector.partition(":")
        return list(item[int(low) if low else None : int(high) if high else None])
    return [item[int(selector)]]


# --------------------------------------------------------------------------- outcomes


@dataclass(frozen=True)
class Outcome:
    """A figure against the product: the predicted value (an interval for a band), the error
    (0 inside the tolerance's reach for a range or band; negative: the model is low) and
    whether it is within the tolerance."""

    spec: FigureSpec
    predicted: tuple[float, float]
    error: float
    ok: bool
    bottleneck: str | None

    @property
    def status(self) -> str:
        if self.spec.kind == "input":
            return "input"
        if self.spec.kind == "fitted":
            return "fitted" if self.ok else "FITTED, NOT REPRODUCED"
        if self.ok:
            return "MET (unexpectedly)" if self.spec.known_miss else "met"
        return "missed (known)" if self.spec.known_miss else "MISSED"

    @property
    def predicted_label(self) -> str:
        low, high = self.predicted
        unit = _unit(self.spec.unit)
        if low == high:
            return f"{_fmt(low)}{unit}"
        return f"{_fmt(low)}–{_fmt(high)}{unit}"

    @property
    def error_label(self) -> str:
        if self.spec.kind == "input":
            return "–"
        if self.error == 0:
            return "inside"
        return f"{self.error:+.1%}"


def judge(spec: FigureSpec, predicted: tuple[float, float], bottleneck: str | None) -> Outcome:
    """Compare a prediction (a value, or an interval for a band) with the published figure.

    A single prediction must lie in the accepted interval: published x (1 -/+ relative) (a
    published range widened so at each end), or `within`. A band (several configurations)
    must reach the published value once widened by the relative tolerance at each edge.
    The error is the prediction's relative distance from the accepted interval's published
    value (negative: the model is low; 0 inside a range or a band that reaches it).
    """
    if spec.kind == "input":
        return Outcome(spec, predicted, 0.0, True, bottleneck)
    low, high = predicted
    tol = spec.tolerance
    published = spec.published
    if spec.band:
        assert tol.relative is not None, "a band takes a relative tolerance"
        value = _centre(published)
        ok = low * (1 - tol.relative) <= value <= high * (1 + tol.relative)
        # the band's nearer edge against the published value
        error = 0.0 if low <= value <= high else (low if value < low else high) / value - 1.0
        return Outcome(spec, predicted, error, ok, bottleneck)
    if tol.within is not None:
        accept = tol.within
    else:
        assert tol.relative is not None
        lo, hi = published if isinstance(published, tuple) else (published, published)
        accept = (lo * (1 - tol.relative), hi * (1 + tol.relative))
    ok = accept[0] * (1 - 1e-12) <= low and high <= accept[1] * (1 + 1e-12)
    if isinstance(published, tuple):
        error = _distance(predicted, published)
    else:
        error = low / published - 1.0
    return Outcome(spec, predicted, error, ok, bottleneck)


def _centre(published: float | tuple[float, float]) -> float:
    return (published[0] + published[1]) / 2 if isinstance(published, tuple) else published


def _distance(predicted: tuple[float, float], accept: tuple[float, float]) -> float:
    """Relative distance of the predicted interval from the accepted one (negative: low)."""
    low, high = predicted
    if high < accept[0]:
        return high / accept[0] - 1.0
    if low > accept[1]:
        return low / accept[1] - 1.0
    return 0.0


# --------------------------------------------------------------------------- running


class Run:
    """The manifest's scenarios, each predicted once through the public API and kept as its
    JSON result, and every figure judged against them."""

    def __init__(self, folder: Path = FOLDER) -> None:
        self.folder = folder
        self.manifest = load_manifest(folder)
        self._results: dict[str, Any] = {}

    def result(self, scenario: str) -> Any:
        """The scenario's JSON result (what `diskmodel run --json` writes)."""
        found = self._results.get(scenario)
        if found is None:
            from diskmodel import api

            path = self.folder / scenario
            prediction = api.predict(api.load_scenario(path), base_dir=path.parent)
            found = self._results[scenario] = json.loads(api.to_json(prediction))
        return found

    def outcome(self, spec: FigureSpec) -> Outcome:
        if spec.kind == "input":
            value = _catalog_value(spec.catalog or "")
            return judge(spec, (value, value), None)
        assert spec.scenario is not None
        assert spec.read is not None
        document = self.result(spec.scenario)
        reads = spec.read if isinstance(spec.read, list) else [spec.read]
        overs: Sequence[str | None]
        if spec.over is None:
            overs = [None] * len(reads)
        else:
            overs = spec.over if isinstance(spec.over, list) else [spec.over]
        if len(overs) != len(reads):
            raise ValueError(f"{spec.id}: read and over differ in length")
        values = []
        for read, over in zip(reads, overs, strict=True):
            value = read_path(document, read)
            if over is not None:
                value /= read_path(document, over)
            values.append(value * spec.scale)
        bottleneck = None
        if spec.bottleneck is not None:
            kinds = {c["bottleneck_kind"] for c in document["configurations"]}
            bottleneck = ", ".join(sorted(kinds))
            if kinds != {spec.bottleneck}:
                raise ValueError(
                    f"{spec.id}: the figure is read where {spec.bottleneck} is the bottleneck, "
                    f"but {spec.scenario} is limited by {bottleneck}"
                )
        return judge(spec, (min(values), max(values)), bottleneck)

    @cached_property
    def outcomes(self) -> list[Outcome]:
        return [self.outcome(spec) for spec in self.manifest.figures]


def _catalog_value(reference: str) -> float:
    """`entry.key@system`: a catalog figure as the system installs the entry."""
    from diskmodel.catalog import load_catalog

    entry_key, _, system = reference.partition("@")
    entry, _, key = entry_key.partition(".")
    catalog = load_catalog()
    if entry in catalog.drives:
        item: Any = catalog.installed_drive(system, entry) if system else catalog.drives[entry]
    elif entry in catalog.systems:
        item = catalog.systems[entry]
    else:
        item = catalog.raid_formats[entry]
    for part in key.split("."):
        item = getattr(item, part)
    return float(item)


# --------------------------------------------------------------------------- the page


def _fmt(x: float) -> str:
    """Four significant figures, thousands separated: stable text for the page."""
    if x == 0:
        return "0"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    digits = max(0, 3 - math.floor(math.log10(abs(x))))
    return f"{x:.{digits}f}"


def _unit(unit: str) -> str:
    return f" {unit}" if unit else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(outcomes: Iterable[Outcome], kinds: Sequence[str]) -> list[str]:
    rows = [
        "| # | quantity | predicted | published | error | tolerance | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        if o.spec.kind not in kinds:
            continue
        s = o.spec
        rows.append(
            f"| {s.id} | {_cell(s.quantity)} | {o.predicted_label} | {_cell(s.published_label)}"
            f" | {o.error_label} | {s.tolerance_label} | {o.status} |"
        )
    return rows


def summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """How many validation figures are met, and the median absolute error of those with a
    single published value (inside a range counts as 0)."""
    checked = [o for o in outcomes if o.spec.kind == "validation"]
    errors = [abs(o.error) for o in checked]
    return {
        "figures": len(checked),
        "met": sum(o.ok for o in checked),
        "median_abs_error": statistics.median(errors) if errors else 0.0,
    }


def page(run: Run) -> str:
    """docs/validation.md: the table, the figures' sources, where each is read."""
    outcomes = run.outcomes
    s = summary(outcomes)
    lines = [
        "# Validation: the published figures through the product",
        "",
        "Generated by `python -m diskmodel.validation --write` from `scenarios/validation/"
        "figures.yaml`; a test checks that this page matches a fresh run. Every figure is read "
        "from the JSON result of its scenario, produced by the same `load_scenario` and "
        "`predict` as `diskmodel run` (cache, destage, Easy Tier, all of it); no component "
        "function is called. Component tests under `tests/components` are unit tests, not "
        "calibration.",
        "",
        f"**{s['met']} of {s['figures']} validation figures met; median absolute error "
        f"{s['median_abs_error']:.1%}** (0 for a prediction inside a published range or a band "
        "that reaches the published value).",
        "",
        f"Published figures covered: {', '.join(_covered(run.manifest))}.",
        *[f"\n{note}" for note in run.manifest.notes],
        "",
        "## Validation figures",
        "",
        *table(outcomes, ("validation",)),
        "",
        "## Figures the model was fitted to (reproduced by construction, not validation)",
        "",
        *table(outcomes, ("fitted",)),
        "",
        "What was fitted to each:",
        "",
        *[f"- **{o.spec.id}**: {o.spec.fitted}" for o in outcomes if o.spec.kind == "fitted"],
        "",
        "## Published figures the catalog uses as hardware properties",
        "",
        *table(outcomes, ("input",)),
        "",
        "## Known misses and why",
        "",
        *[
            f"- **{o.spec.id}** ({o.error_label}): {o.spec.known_miss}"
            for o in outcomes
            if o.spec.known_miss
        ],
        "",
        "## Where each figure comes from and where it is read",
        "",
        "| # | source | scenario | field |",
        "|---|---|---|---|",
    ]
    for o in outcomes:
        s_ = o.spec
        where = _cell(_field_label(s_))
        scenario = f"`{s_.scenario}`" if s_.scenario else "catalog"
        lines.append(f"| {s_.id} | {_cell(s_.source)} | {scenario} | {where} |")
    return "\n".join(lines) + "\n"


def _covered(manifest: Manifest) -> list[str]:
    """The published figures' labels (C1, C2, ...), each once, in number order."""
    labels = {f.figure for f in manifest.figures}
    return sorted(labels, key=lambda label: (len(label), label))


def _field_label(spec: FigureSpec) -> str:
    if spec.kind == "input":
        return f"`{spec.catalog}`"
    reads = spec.read if isinstance(spec.read, list) else [spec.read]
    text = ", ".join(f"`{r}`" for r in reads)
    if spec.over is not None:
        overs = spec.over if isinstance(spec.over, list) else [spec.over]
        text += " over " + ", ".join(f"`{o}`" for o in overs)
    if spec.scale != 1:
        text += f" × {spec.scale:.6g}"
        if spec.scale_basis:
            text += f" ({spec.scale_basis})"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m diskmodel.validation", description=__doc__)
    parser.add_argument("--write", action="store_true", help="regenerate docs/validation.md")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    run = Run()
    text = page(run)
    if args.write:
        PAGE.write_text(text, encoding="utf-8")
    elif args.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print("docs/validation.md is stale: python -m diskmodel.validation --write")
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
