"""Loading a scenario file: YAML read with line numbers, validated, errors located.

What a scenario asks the analyses to compute is judged by the analyses (`diskmodel.analyses.
budget`), which the scenario layer never imports: the caller hands that judgement in as
`work_bound`, and `diskmodel.api.load_scenario`, what the command line and scripts call,
always does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import ValidationError

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.errors import InputError
from diskmodel.scenario.messages import format_alternative_errors, format_errors, shown
from diskmodel.scenario.overrides import apply_settings
from diskmodel.scenario.schema import SCHEMA_VERSION, Scenario
from diskmodel.scenario.values import ScenarioError
from diskmodel.yamlio import Located, load_yaml

WorkBound = Callable[[Scenario, Catalog], Iterable[str]]
"""The messages refusing the computing a valid scenario asks for, given it and its catalog (the
analyses' `budget.work_problems`); each is reported at the scenario's `analyses` key."""


def load_scenario(
    path: Path | str, catalog: Catalog | None = None, *, work_bound: WorkBound | None = None
) -> Scenario:
    """Load and validate a scenario file; raise `ScenarioError` listing every problem (and
    the first of `work_bound`'s)."""
    path = Path(path)
    located = load_yaml(path)
    return validate_scenario(located, catalog, work_bound=work_bound)


def validate_scenario(
    located: Located, catalog: Catalog | None = None, *, work_bound: WorkBound | None = None
) -> Scenario:
    """Validate already-parsed scenario data; messages point into `located.source`. The
    scenario's own `catalog` files are read (relative to its file's folder) after `catalog`;
    `work_bound` (module docstring) judges the valid scenario against that catalog."""
    catalog = catalog or load_catalog()
    data = located.data
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a single value ({data!r:.40})"
        raise ScenarioError(
            f"{located.source}: a scenario is a mapping of keys (schema_version, name, system, "
            f"pools, workloads, service_level, analyses), but this file holds {kind}"
        )
    version = data.get("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        raise ScenarioError(
            f"{located.source}:{located.line_of(['schema_version'])}: schema_version: "
            f"{shown(version) or type(version).__name__} is not supported; this diskmodel "
            f"reads schema_version {SCHEMA_VERSION}"
        )
    from diskmodel.scenario.files import MAX_CATALOG_FILES, scenario_catalog

    references = data.get("catalog")
    # Read only a list the schema could accept; any other is reported by the validation.
    if (
        isinstance(references, list)
        and len(references) <= MAX_CATALOG_FILES
        and all(isinstance(r, str) for r in references)
    ):
        where = f"{located.source}:{located.line_of(['catalog'])}"
        try:
            catalog = scenario_catalog(references, _folder(located), catalog)
        except InputError as exc:
            raise type(exc)(f"{where}: {exc}") from None
    context = {"catalog": catalog}
    try:
        scenario = Scenario.model_validate(data, context=context)
    except ValidationError as exc:
        raise ScenarioError(format_errors(exc, located)) from None
    _check_alternatives(scenario, located, catalog)
    for problem in work_bound(scenario, catalog) if work_bound is not None else ():
        line = located.line_of(["analyses"])
        where = f"{located.source}:{line}" if line is not None else f"{located.source}"
        raise ScenarioError(f"{where}: {problem}")
    return scenario


def _folder(located: Located) -> Path | None:
    """The folder of the scenario's file (None when it was not read from a file)."""
    source = Path(located.source)
    return source.parent if source.exists() else None


def _check_alternatives(scenario: Scenario, located: Located, catalog: Catalog) -> None:
    base = scenario.model_dump(mode="python")
    for i, alt in enumerate(scenario.analyses.compare):
        path: list[str | int] = ["analyses", "compare", i, "set"]
        try:
            apply_settings(base, alt.set)
        except KeyError as exc:
            raise ScenarioError(
                f"{located.source}:{located.line_of(path)}: analyses.compare[{i}].set: "
                f"{exc.args[0]}"
            ) from None
    try:
        scenario.alternatives(catalog)  # validated once, and kept for the rest of the run
    except ValidationError:  # report every alternative refused, not only the first
        problems = []
        for i, alt in enumerate(scenario.analyses.compare):
            try:
                scenario.alternative(alt, catalog)
            except ValidationError as exc:
                problems.append(format_alternative_errors(exc, located, i, alt.name, alt.set, base))
        raise ScenarioError("\n".join(problems)) from None
