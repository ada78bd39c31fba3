"""User catalog files as hostile input (issue 33 items 3, 4 and 7).

A user's catalog file, and the `catalog:` list of a scenario that names one, are held to the
shipped catalog's figure checks (every number finite and within its physical range,
`diskmodel.catalog.bounds`) and to the scenario's YAML guards (`yamlio.parse_yaml`: tags,
depth, aliases, digits). Every case ends in one message naming the file and the key, never a
traceback; the fuzz tests mutate real entries figure by figure and byte by byte.
"""

from __future__ import annotations

import copy
import io
import math
import re
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

from diskmodel.api import load_scenario, predict
from diskmodel.catalog import (
    Catalog,
    CatalogError,
    CatalogFile,
    DeviceAdapterType,
    Drive,
    HostAdapterType,
    Packaging,
    ProcessorCosts,
    ProcessorOption,
    RaidFormat,
    StorageSystem,
    catalog_files,
    iter_figures,
    load_catalog,
    parse_catalog_file,
    read_catalog_yaml,
)
from diskmodel.catalog.bounds import FIGURE_BOUNDS
from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError, UserError
from diskmodel.scenario.files import MAX_CATALOG_FILES
from diskmodel.scenario.schema import Scenario
from tests.support.budget import fuzz_settings

from .conftest import ROOT

runner = CliRunner()
C3 = ROOT / "scenarios" / "ds8800-c3-baseline.yaml"
SSD_POOL = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
ENTRY_MODELS = (
    Drive,
    Packaging,
    RaidFormat,
    ProcessorOption,
    HostAdapterType,
    DeviceAdapterType,
    ProcessorCosts,
    StorageSystem,
)


@cache
def _shipped(table: str, name: str) -> dict[str, Any]:
    for where, text in catalog_files():
        for entry in read_catalog_yaml(text, where).get(table, []):
            if entry["name"] == name:
                return entry
    raise AssertionError(f"no shipped {table} entry {name}")


def _text(table: str, entry: dict[str, Any]) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    yaml.dump({"schema_version": 1, table: [entry]}, buffer)
    return buffer.getvalue()


def _figure_paths(node: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every `{value: ..., source|basis: ...}` figure in an entry, by key path."""
    if isinstance(node, dict):
        if "value" in node and ("source" in node or "basis" in node):
            return [path]
        return [p for key, value in node.items() for p in _figure_paths(value, (*path, key))]
    if isinstance(node, list):
        return [p for i, value in enumerate(node) for p in _figure_paths(value, (*path, i))]
    return []


def _with_value(entry: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(entry)
    node: Any = changed
    for step in path:
        node = node[step]
    node["value"] = value
    return changed


ENTRIES = (("drives", "15k-300"), ("drives", "ssd-300"), ("systems", "ds8800-951"))
ENTRIES += (("raid_formats", "raid5-7+p"),)
FIGURES = [
    (table, name, path)
    for table, name in ENTRIES
    for path in _figure_paths(_shipped(table, name))
    if path[-1] != "level"
]


# --------------------------------------------------------------------------- item 3


def test_every_numeric_field_of_an_entry_has_its_range() -> None:
    """One table holds the range of every number a catalog entry carries (a field added
    without one would take any finite value)."""
    for model in ENTRY_MODELS:
        for name, field in model.model_fields.items():
            kinds = {typing.get_origin(a) or a for a in _leaves(field.annotation)}
            if kinds & {int, float}:
                assert name in FIGURE_BOUNDS, f"{model.__name__}.{name} has no range"


def _leaves(annotation: Any) -> list[Any]:
    args = typing.get_args(annotation)
    return [leaf for arg in args for leaf in _leaves(arg)] if args else [annotation]


def test_every_shipped_figure_is_finite_and_within_its_range(catalog: Catalog) -> None:
    for table in (catalog.systems, catalog.drives, catalog.raid_formats):
        for entry in table.values():
            for key, value, _ in iter_figures(entry):
                low, high, _ = FIGURE_BOUNDS[key.rsplit(".", 1)[-1]]
                for number in value if isinstance(value, list) else [value]:
                    assert number == 0 or low <= number <= high, (entry.name, key, number)


@pytest.mark.parametrize("value", [math.inf, -math.inf, 1e308, -1e308])
@pytest.mark.parametrize(("table", "name", "path"), FIGURES, ids=lambda v: str(v))
def test_an_infinite_or_huge_figure_is_refused_naming_the_key(
    table: str, name: str, path: tuple[str | int, ...], value: float
) -> None:
    """Found: `.inf` or about 1e308 crashed the model (ZeroDivisionError, OverflowError,
    ValueError) or gave a response time of 1e305 ms; now the entry is refused as it is read,
    with the file, the entry and the key."""
    text = _text(table, _with_value(_shipped(table, name), path, value))
    with pytest.raises(CatalogError) as refused:
        parse_catalog_file(text, "site.yaml")
    message = str(refused.value)
    assert message.startswith("site.yaml: invalid catalog entry\n"), message
    assert f"{table}[{name}]" in message
    key = next(step for step in reversed(path) if isinstance(step, str))
    assert key in message
    assert any(
        reason in message
        for reason in ("finite number", "is outside", "Input should be", "must be 0", "integer")
    ), message


@pytest.mark.parametrize("value", [1e-300, 5e-324])
def test_a_vanishing_rate_is_refused(value: float) -> None:
    """Found: a bandwidth of 1e-308 MB/s overflowed the service time it divides."""
    entry = _with_value(_shipped("drives", "15k-300"), ("media_transfer_mb_s",), value)
    with pytest.raises(CatalogError, match=r"media_transfer_mb_s: .* is outside 1 to 100000"):
        parse_catalog_file(_text("drives", entry), "site.yaml")


def test_an_infinite_figure_on_the_command_line_is_one_message(tmp_path: Path) -> None:
    site = tmp_path / "site.yaml"
    entry = _with_value(_shipped("systems", "ds8800-951"), ("front_end_latency_us",), math.inf)
    site.write_text(_text("systems", entry), encoding="utf-8")
    out = str(tmp_path / "r.html")
    result = runner.invoke(app, ["run", str(C3), "--catalog", str(site), "-o", out])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert f"{site}: invalid catalog entry" in result.output
    assert "systems[ds8800-951].front_end_latency_us" in result.output
    assert "Traceback" not in result.output
    assert not Path(out).exists()


# --------------------------------------------------------------------------- item 4


HOSTILE_YAML = [
    ("schema_version: 1\ndrives: " + "[" * 10_000 + "]" * 10_000, "brackets nest more than"),
    (
        "schema_version: 1\ndrives:\n"
        + "".join("  " * i + "- \n" for i in range(1, 80))
        + "  " * 80
        + "- 1\n",
        "nested too deeply",
    ),
    ("schema_version: 1\nsystems: " + "9" * 5000 + "\n", "a number has too many digits"),
    ("schema_version: 1\ndrives: !!python/object/apply:os.system [ls]\n", "YAML tag"),
    (
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{k}: &{k} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, k in zip("abcdefg", "bcdefgh", strict=True)
        ),
        "aliases are followed",
    ),
    ("", "the file is empty; a catalog file is a YAML mapping"),
    ("schema_version: 1\nschema_version: 1\n", "appears twice"),
    ("schema_version: 1\ndrives: [\x1b]\n", "control character"),
]


@pytest.mark.parametrize(("text", "problem"), HOSTILE_YAML, ids=lambda v: str(v)[:30])
def test_a_users_catalog_yaml_meets_the_scenario_loaders_guards(
    tmp_path: Path, text: str, problem: str
) -> None:
    """Found: a user's catalog file was read by a plain loader: 10,000 nested lists gave a
    RecursionError, a 5,000-digit integer a ValueError. It now goes through the scenario's
    guarded loader, so every such file is one message naming it (exit 3)."""
    site = tmp_path / "site.yaml"
    site.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError) as refused:
        load_catalog([site])
    assert str(refused.value).startswith(str(site)), refused.value
    assert problem in str(refused.value)
    listed = runner.invoke(app, ["catalog", "list", "--catalog", str(site)])
    assert listed.exit_code == ExitCode.INVALID_INPUT, listed.output
    assert "Traceback" not in listed.output


# --------------------------------------------------------------------------- item 7


def _scenario_naming(tmp_path: Path, references: list[str]) -> Path:
    """C3 with `catalog: [...]`, each reference written in double quotes (YAML escapes such
    as \\0 read as the character)."""
    listed = ", ".join(f'"{r}"' for r in references)
    text = C3.read_text(encoding="utf-8").replace(
        "schema_version: 1\n", f"schema_version: 1\ncatalog: [{listed}]\n", 1
    )
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("a\\0b.yaml", "catalog: the file name holds a NUL byte"),
        ("site\\u202e.yaml", "catalog: the file name holds the invisible character U+202E"),
        ("  ", "catalog: a file name is empty"),
    ],
)
def test_a_nul_byte_in_a_scenarios_catalog_path_is_one_message(
    tmp_path: Path, reference: str, problem: str
) -> None:
    """Found: `catalog: ["a\\0b.yaml"]` made `check` end in a traceback (the path was resolved
    before the scenario was validated)."""
    path = _scenario_naming(tmp_path, [reference])
    with pytest.raises(InputError, match=rf"s\.yaml:\d+: {re.escape(problem)}"):
        load_scenario(path)
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == ExitCode.INVALID_INPUT, checked.output
    assert problem in checked.output
    assert "Traceback" not in checked.output


def test_more_catalog_files_than_a_scenario_takes_are_not_read(tmp_path: Path) -> None:
    """The schema's bound holds before anything is read: 17 names are refused by the
    validation (not opened one by one first)."""
    assert Scenario.model_fields["catalog"].metadata[0].max_length == MAX_CATALOG_FILES
    path = _scenario_naming(tmp_path, [f"missing-{i}.yaml" for i in range(17)])
    with pytest.raises(InputError) as refused:
        load_scenario(path)
    assert "catalog" in str(refused.value)
    assert "no such file" not in str(refused.value)


# --------------------------------------------------------------------------- fuzz


EDGES = [0, -0.0, -1, 1, 1e-300, 5e-324, 1e308, -1e308, math.inf, -math.inf, math.nan]
HUGE = [2**63, 10**30, 10**400, 10**4000]
HOSTILE_NUMBERS = st.one_of(
    st.sampled_from([*EDGES, *HUGE]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=1e-12, max_value=1e12).map(lambda v: float(f"{v:.3g}")),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([True, "12", "1e3", None, [], {}, [1.0, 2.0]]),
)


@st.composite
def mutated_entries(draw: st.DrawFn) -> tuple[str, str, str]:
    """A shipped entry with 1 to 4 figures set to hostile or random values."""
    table, name, _ = draw(st.sampled_from(FIGURES))
    entry = _shipped(table, name)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(_figure_paths(entry)))
        entry = _with_value(entry, path, draw(HOSTILE_NUMBERS))
    return table, name, _text(table, entry)


@pytest.mark.fuzz
@fuzz_settings(150)
@given(case=mutated_entries())
def test_any_figure_is_refused_in_one_message_or_lies_within_its_range(
    case: tuple[str, str, str],
) -> None:
    _, _, text = case
    parsed = _parsed_or_refusal(text)
    if isinstance(parsed, str):
        assert parsed.startswith("site.yaml"), parsed
        return
    for entry in (*parsed.systems, *parsed.drives, *parsed.raid_formats):
        for key, value, _ in iter_figures(entry):
            low, high, _ = FIGURE_BOUNDS[key.rsplit(".", 1)[-1]]
            for number in value if isinstance(value, list) else [value]:
                assert math.isfinite(number)
                assert number == 0 or low <= number <= high, (key, number)


def _parsed_or_refusal(text: str) -> CatalogFile | str:
    try:
        return parse_catalog_file(text, "site.yaml")
    except CatalogError as exc:
        return str(exc)


BYTE_EDITS = [b"\t", b": ", b"- ", b"[" * 12, b"*a", b"!!python/object ", b"\x00", b"\xff"]
VALUE_EDITS = [b"9" * 5000, b".inf", b"1e308", b"<<: *a", b"---\n"]


@st.composite
def damaged_catalog_texts(draw: st.DrawFn) -> bytes:
    """A shipped catalog file's text with 1 to 3 byte-level edits."""
    data = bytearray(draw(st.sampled_from([t for _, t in catalog_files()])).encode("utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["delete", "insert", "truncate"]))
        if kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "truncate":
            del data[at:]
        else:
            data[at:at] = draw(st.binary(max_size=8) | st.sampled_from([*BYTE_EDITS, *VALUE_EDITS]))
    return bytes(data)


@pytest.mark.fuzz
@fuzz_settings(100)
@given(raw=damaged_catalog_texts())
def test_any_damaged_catalog_file_loads_or_is_one_message(
    tmp_path_factory: Any, raw: bytes
) -> None:
    site = tmp_path_factory.mktemp("catalog") / "site.yaml"
    site.write_bytes(raw)
    refusal = _loaded_or_refusal(site)
    assert refusal is None or refusal.startswith(str(site)), refusal


def _loaded_or_refusal(site: Path) -> str | None:
    try:
        load_catalog([site])
    except CatalogError as exc:
        return str(exc)
    return None


@st.composite
def in_range_entries(draw: st.DrawFn) -> tuple[str, str, str]:
    """A shipped entry with 1 to 3 figures drawn anywhere in their ranges (log-uniform, the
    ends included; uniform where a range starts at 0, as log_striping_us's does), for the
    model to solve."""
    table, name, _ = draw(st.sampled_from(FIGURES))
    entry = _shipped(table, name)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_figure_paths(entry)))
        key = next(step for step in reversed(path) if isinstance(step, str))
        low, high, _ = FIGURE_BOUNDS[key]
        share = draw(st.sampled_from([0.0, 1.0]) | st.floats(0.0, 1.0))
        value: float = low + (high - low) * share if low <= 0 else low * (high / low) ** share
        old = _get(entry, path)
        if isinstance(old, list):
            value = [round(value)] * len(old)  # type: ignore[assignment]
        elif isinstance(old, int) and not isinstance(old, bool):
            value = round(value)
        entry = _with_value(entry, path, value)
    return table, name, _text(table, entry)


def _get(entry: dict[str, Any], path: tuple[str | int, ...]) -> Any:
    node: Any = entry
    for step in path:
        node = node[step]
    return node["value"]


@pytest.mark.fuzz
@fuzz_settings(15)
@given(case=in_range_entries(), scenario=st.sampled_from([C3, SSD_POOL]))
def test_a_figure_the_catalog_accepts_gives_a_finite_prediction_or_one_message(
    tmp_path_factory: Any, case: tuple[str, str, str], scenario: Path
) -> None:
    """What the ranges let through, the model solves: a finite result, or a user error
    (a configuration the changed hardware does not offer), never a crash or NaN."""
    _, _, text = case
    site = tmp_path_factory.mktemp("catalog") / "site.yaml"
    site.write_text(text, encoding="utf-8")
    try:
        catalog = load_catalog([site])
        loaded = load_scenario(scenario, catalog)
        result = predict(loaded, base_dir=scenario.parent, catalog=catalog)
    except UserError:
        return
    for p in result.configurations:
        assert math.isfinite(p.max_iops)
        assert p.max_iops >= 0
        assert p.response_time_ms is None or 0 < p.response_time_ms < math.inf
        assert all(0 <= c.utilization <= 1 for c in p.components)


def test_found_by_fuzzing_a_figure_of_null_is_refused() -> None:
    """A packaging's optional figure written `{value: null, source: ...}` loaded as "not
    stated" with a source beside it; a figure needs a number (the key is left out instead)."""
    entry = _with_value(_shipped("drives", "15k-300"), ("packaging", "ds8800-951", "power_w"), None)
    with pytest.raises(CatalogError, match=r"packaging\.ds8800-951\.power_w: .*needs a number"):
        parse_catalog_file(_text("drives", entry), "site.yaml")
