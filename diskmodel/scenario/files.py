"""The files a scenario reads besides itself: its heat maps, opened the way `run` opens them,
and its own catalog files (`scenario_catalog`).

`diskmodel check` lists them (or says which it refuses and why) so that a scenario from
someone else can be judged before it is run; `run` opens them first with the same messages,
which name the scenario's file, line and key (`s.yaml:14: workloads[0].skew.heatmap: ...`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic_core import PydanticCustomError

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.errors import InputError
from diskmodel.scenario.schema import Scenario
from diskmodel.scenario.values import file_reference
from diskmodel.yamlio import resolve_in_folder


@dataclass(frozen=True)
class HeatMapInput:
    """One heat map a scenario reads: where the file names it, and what was found there."""

    key: str  # "workloads[0].skew.heatmap", or "analyses.compare[1].set" for an alternative's
    reference: str  # as written in the scenario
    path: Path  # the file it resolves to
    extent_count: int


def heatmap_references(
    scenario: Scenario, catalog: Catalog | None = None
) -> list[tuple[list[str | int], str]]:
    """Every heat map `scenario` names: (key path, reference), the baseline's first, then
    those only an alternative names; each reference once."""
    out: list[tuple[list[str | int], str]] = []
    seen: set[str] = set()
    for w, workload in enumerate(scenario.workloads):
        reference = workload.skew.heatmap if workload.skew is not None else None
        if reference is not None and reference not in seen:
            seen.add(reference)
            out.append((["workloads", w, "skew", "heatmap"], reference))
    for a, (_, variant) in enumerate(scenario.alternatives(catalog)[1:]):
        for workload in variant.workloads:
            reference = workload.skew.heatmap if workload.skew is not None else None
            if reference is not None and reference not in seen:
                seen.add(reference)
                out.append((["analyses", "compare", a, "set"], reference))
    return out


def _dotted(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _where(scenario_file: Path | None, path: list[str | int]) -> str:
    """`s.yaml:14: workloads[0].skew.heatmap`, the line found by reading the file again (only
    when there is an error to report)."""
    if scenario_file is None:
        return _dotted(path)
    from diskmodel.yamlio import load_yaml

    try:
        line = load_yaml(scenario_file).line_of(path)
    except InputError:
        line = None
    return f"{scenario_file}{f':{line}' if line else ''}: {_dotted(path)}"


def read_heatmaps(
    scenario: Scenario,
    scenario_file: Path | None,
    *,
    allow_outside: bool = False,
    catalog: Catalog | None = None,
) -> list[HeatMapInput]:
    """Open every heat map `scenario` names, relative to its file's folder (the current
    directory when `scenario_file` is None); the first that cannot be read or is refused by
    the path policy raises `HeatMapError` naming the scenario's file, line and key."""
    references = heatmap_references(scenario, catalog)
    if not references:
        return []
    # Imported for a scenario that names heat maps only: their reader brings numpy (0.05-0.07 s
    # of a command's CPU), which a scenario without a skew curve is validated without.
    from diskmodel.tiering.heatmap import heatmap_path, read_heatmap

    base_dir = scenario_file.parent if scenario_file is not None else None
    out = []
    for path, reference in references:
        try:
            heat = read_heatmap(reference, base_dir, allow_outside=allow_outside)
        except InputError as exc:
            raise type(exc)(f"{_where(scenario_file, path)}: {exc}") from None
        resolved = heatmap_path(reference, base_dir, allow_outside=allow_outside)
        out.append(HeatMapInput(_dotted(path), reference, resolved, heat.extent_count))
    return out


MAX_CATALOG_FILES = 16
"""A scenario's own `catalog` files at most (the schema's bound, checked here too: they are
read before the scenario is validated)."""


def catalog_path(reference: str, base_dir: Path | None) -> Path:
    """The file a scenario's `catalog: [REFERENCE]` names, by the heat maps' policy without its
    escape hatch (docs/SECURITY.md): in the scenario's folder or below it, links resolved, so a
    scenario from someone else cannot make diskmodel read other files; a catalog kept elsewhere
    is given on the command line (`--catalog`). A name holding a NUL byte or an invisible
    character is refused, as a heat map's is (the files are read before the scenario is
    validated, so the schema's check comes too late for them)."""
    if not reference.strip():
        raise InputError("catalog: a file name is empty; give the catalog file's name")
    try:
        file_reference(reference)
    except PydanticCustomError as exc:
        raise InputError(f"catalog: the file name {exc.message()}") from None
    real, root, inside = resolve_in_folder(reference, base_dir)
    if not inside:
        raise InputError(
            f"catalog: '{reference}' is outside the scenario's folder ({root}); a scenario "
            "names catalog files only beside it or below it, so that a scenario from someone "
            "else cannot read your other files. Move it there, or give it with --catalog"
        )
    return real


def scenario_catalog(
    references: Sequence[str], base_dir: Path | None, given: Catalog | None = None
) -> Catalog:
    """The catalog a scenario is read with: `given` (the shipped one, with any `--catalog`
    files), then the scenario's own `catalog` files, relative to its folder `base_dir`."""
    if not references:
        return given if given is not None else load_catalog()
    paths = [catalog_path(reference, base_dir) for reference in references]
    if given is not None and all(str(path) in given.user_files for path in paths):
        return given  # read already, when the scenario was validated
    return load_catalog([*(given.user_files if given is not None else ()), *paths])
