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

One module a job: `manifest` (figures.yaml), `fields` (reading a result), `outcomes` (judging
a figure), `page` (docs/validation.md); here the run through the product and the command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from diskmodel.cached import cached_property
from diskmodel.validation.fields import read_path
from diskmodel.validation.manifest import FOLDER, MANIFEST, FigureSpec, Manifest, load_manifest
from diskmodel.validation.outcomes import Outcome, judge
from diskmodel.validation.page import PAGE, page, summary, table

__all__ = [
    "FOLDER",
    "MANIFEST",
    "PAGE",
    "FigureSpec",
    "Manifest",
    "Outcome",
    "Run",
    "judge",
    "load_manifest",
    "main",
    "page",
    "read_path",
    "summary",
    "table",
]


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
