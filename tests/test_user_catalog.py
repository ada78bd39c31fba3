"""User catalog files (`load_catalog(extra)`, `--catalog PATH`): read after the shipped catalog
with the same schema and validation; an entry adds a name or replaces the shipped one; errors
name the file and the key; `Catalog.origin` and `catalog list/show` say where an entry came from.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from diskmodel.api import load_scenario, predict
from diskmodel.catalog import (
    SHIPPED,
    Catalog,
    CatalogError,
    catalog_files,
    load_catalog,
    read_catalog_yaml,
)
from diskmodel.cli import app
from diskmodel.errors import ExitCode, InputError

from .conftest import ROOT

runner = CliRunner()
C3 = ROOT / "scenarios" / "ds8800-c3-baseline.yaml"


def _shipped_entry(table: str, name: str) -> dict[str, Any]:
    """A shipped entry's raw YAML data (anchors expanded), to copy into a user's file."""
    for where, text in catalog_files():
        data = read_catalog_yaml(text, where)
        for entry in data.get(table, []):
            if entry["name"] == name:
                return copy.deepcopy(entry)
    raise AssertionError(f"no shipped {table} entry {name}")


def _write(path: Path, **tables: list[dict[str, Any]]) -> Path:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    yaml.dump({"schema_version": 1, **tables}, buffer)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def _baseline(catalog: Catalog, scenario: Path = C3) -> tuple[float, float | None]:
    loaded = load_scenario(scenario, catalog)
    prediction = predict(loaded, base_dir=scenario.parent, catalog=catalog)
    first = prediction.configurations[0]
    return first.max_iops, first.response_time_ms


def _ssd_400() -> dict[str, Any]:
    entry = _shipped_entry("drives", "ssd-300")
    entry["name"] = "ssd-400"
    entry["capacity_gb"] = {"value": 400, "basis": "our site's purchase order"}
    return entry


# --------------------------------------------------------------------------- loading


def test_the_shipped_catalog_is_unchanged_and_still_cached() -> None:
    shipped = load_catalog()
    assert shipped is load_catalog() is load_catalog(())
    assert {shipped.origin_of(n) for n in shipped.names()} == {SHIPPED}


def test_identical_redefinition_gives_identical_predictions(tmp_path: Path) -> None:
    user = _write(tmp_path / "site.yaml", drives=[_shipped_entry("drives", "15k-146")])
    catalog = load_catalog([user])
    assert catalog.origin["15k-146"] == str(user)
    assert catalog.origin_of("15k-300") == SHIPPED
    assert catalog.drives["15k-146"] == load_catalog().drives["15k-146"]
    assert _baseline(catalog) == _baseline(load_catalog())


def test_a_new_drive_is_usable_from_a_scenario(tmp_path: Path) -> None:
    user = _write(tmp_path / "site.yaml", drives=[_ssd_400()])
    catalog = load_catalog([user])
    assert catalog.origin_of("ssd-400") == str(user)
    assert catalog.drives["ssd-400"].capacity_gb == 400
    # Offered on the systems its packaging names, without copying those systems.
    assert "ssd-400" in catalog.systems["ds8800-951"].drives
    assert catalog.origin_of("ds8800-951") == SHIPPED
    scenario = tmp_path / "ssd-400.yaml"
    scenario.write_text(C3.read_text(encoding="utf-8").replace("15k-146", "ssd-400"))
    with pytest.raises(InputError, match="unknown drive 'ssd-400'"):
        load_scenario(scenario)  # the shipped catalog alone does not know it
    max_iops, response = _baseline(catalog, scenario)
    assert max_iops > _baseline(load_catalog())[0]  # 16 SSD ranks outrun 16 15K ranks
    assert response is not None


def test_an_override_with_a_slower_figure_slows_the_prediction(tmp_path: Path) -> None:
    slower = _shipped_entry("drives", "15k-146")
    slower["controller_overhead_ms"] = {"value": 1.2, "basis": "measured on our drives"}
    catalog = load_catalog([_write(tmp_path / "slow.yaml", drives=[slower])])
    assert catalog.installed_drive("ds8800-951", "15k-146").controller_overhead_ms == 1.2
    max_iops, response = _baseline(catalog)
    shipped_max, shipped_response = _baseline(load_catalog())
    assert max_iops < shipped_max
    assert response is not None
    assert shipped_response is not None
    assert response > shipped_response


def test_the_last_given_file_is_read_as_written_each_time(tmp_path: Path) -> None:
    user = _write(tmp_path / "site.yaml", drives=[_ssd_400()])
    first = load_catalog([user])
    assert load_catalog([user]) is first  # same text: cached
    assert load_catalog([user, user]) is first  # a file given twice is read once
    changed = _ssd_400()
    changed["capacity_gb"] = {"value": 480, "basis": "the larger model"}
    _write(user, drives=[changed])
    assert load_catalog([user]).drives["ssd-400"].capacity_gb == 480


def test_a_new_raid_format_and_a_replaced_system_listing_it(tmp_path: Path) -> None:
    raid = _shipped_entry("raid_formats", "raid5-7+p")
    raid["name"] = "raid5-7+p-site"
    system = _shipped_entry("systems", "ds8800-951")
    system["raid_formats"] = [*system["raid_formats"], "raid5-7+p-site"]
    catalog = load_catalog(
        [
            _write(tmp_path / "raid.yaml", raid_formats=[raid]),
            _write(tmp_path / "system.yaml", systems=[system]),
        ]
    )
    assert catalog.origin_of("raid5-7+p-site") == str(tmp_path / "raid.yaml")
    assert catalog.origin_of("ds8800-951") == str(tmp_path / "system.yaml")
    assert "raid5-7+p-site" in catalog.systems["ds8800-951"].raid_formats


def _narrow_site(tmp_path: Path) -> Path:
    """A catalog beside a scenario that names it: a 4-drive RAID-5 3+P the DS8800 lists."""
    raid = _shipped_entry("raid_formats", "raid5-7+p")
    raid["name"] = "raid5-3+p"
    raid["data_drives"] = {"value": 3, "basis": "test: 3 data + P"}
    raid["array_site_drives"] = {"value": 4, "basis": "test: a 4-drive array site"}
    raid["sequential_write_ops_per_data_op"] = {"value": 4 / 3, "basis": "test: 4/3"}
    system = _shipped_entry("systems", "ds8800-951")
    system["raid_formats"] = [*system["raid_formats"], "raid5-3+p"]
    _write(tmp_path / "site.yaml", raid_formats=[raid], systems=[system])
    text = (ROOT / "scenarios" / "ds8800-15k-pool.yaml").read_text(encoding="utf-8")
    text = text.replace("raid: raid5-7+p, count: 16", "raid: raid5-3+p, count: 40")
    path = tmp_path / "narrow.yaml"
    path.write_text(
        text.replace("schema_version: 1\n", "schema_version: 1\ncatalog: [site.yaml]\n")
    )
    return path


def test_an_array_of_another_width_where_the_system_allows_it(tmp_path: Path) -> None:
    """Issue 12 item 6: a 4-drive RAID-5 array (3+P) on a system whose array sites hold 4
    drives runs end to end; each drive carries what a drive of an 8-drive 7+P rank does (the
    same operations per I/O; only the data span differs: measured 312 against 310 host I/O/s
    per drive at saturation)."""
    wide = predict(load_scenario(ROOT / "scenarios" / "ds8800-15k-pool.yaml")).baseline
    four = predict(load_scenario(_narrow_site(tmp_path)), base_dir=tmp_path).baseline
    assert four.max_iops / (40 * 4) == pytest.approx(wide.max_iops / (16 * 8), rel=0.05)


def test_a_scenario_names_its_own_catalog_beside_it(tmp_path: Path) -> None:
    path = _narrow_site(tmp_path)
    own = predict(load_scenario(path), base_dir=tmp_path).baseline
    given = load_catalog([tmp_path / "site.yaml"])
    by_option = predict(load_scenario(path, given), base_dir=tmp_path, catalog=given).baseline
    assert own.max_iops == by_option.max_iops
    assert own.response_time_ms == by_option.response_time_ms
    runner = CliRunner()
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert f"{tmp_path / 'site.yaml'} (catalog file)" in checked.output


def test_a_scenarios_catalog_outside_its_folder_is_refused(tmp_path: Path) -> None:
    path = _narrow_site(tmp_path)
    (tmp_path / "inner").mkdir()
    moved = tmp_path / "inner" / "narrow.yaml"
    moved.write_text(path.read_text().replace("[site.yaml]", "[../site.yaml]"))
    with pytest.raises(
        InputError, match=r"narrow\.yaml:\d+: catalog: '\.\./site\.yaml' is outside"
    ):
        load_scenario(moved)


# --------------------------------------------------------------------------- errors


def _error(tmp_path: Path, text: str, name: str = "site.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError) as error:
        load_catalog([path])
    message = str(error.value)
    assert message.startswith(f"{path}:"), message
    return message


def _dumped(**tables: list[dict[str, Any]]) -> str:
    yaml = YAML(typ="safe", pure=True)
    buffer = io.StringIO()
    yaml.dump({"schema_version": 1, **tables}, buffer)
    return buffer.getvalue()


def test_a_figure_without_source_or_basis_is_refused(tmp_path: Path) -> None:
    entry = _ssd_400()
    entry["capacity_gb"] = {"value": 400}
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "drives[ssd-400]" in message
    assert "'capacity_gb' needs a non-empty 'source' or 'basis'" in message


def test_a_bare_number_is_refused(tmp_path: Path) -> None:
    entry = _ssd_400()
    entry["capacity_gb"] = 400
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "drives[ssd-400]" in message
    assert "'capacity_gb' = 400 has no provenance" in message


def test_a_value_of_the_wrong_type_names_the_key(tmp_path: Path) -> None:
    entry = _ssd_400()
    entry["ssd_parallelism"] = {"value": "many", "basis": "guess"}
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "drives[ssd-400].ssd_parallelism: " in message


def test_seek_figures_no_seek_curve_fits_are_refused_at_load(tmp_path: Path) -> None:
    entry = _shipped_entry("drives", "15k-146")
    entry["packaging"]["ds8800-951"]["avg_seek_read_ms"] = {"value": 5.2, "basis": "typo"}
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "drives[15k-146]: " in message
    assert "as installed on 'ds8800-951'" in message
    assert "avg_seek_read_ms 5.2" in message


def test_seek_figures_of_a_convex_curve_are_refused_with_the_whole_message(
    tmp_path: Path,
) -> None:
    """The write set as installed (the packaging's average, the drive's other figures) with
    (avg - t2t) / (full - t2t) = 0.5 / 5.1 below 1/3: the message names the file, the entry, the
    system, the three figures and the rule, word for word as the fit words it."""
    entry = _shipped_entry("drives", "15k-146")
    entry["packaging"]["ds8800-951"]["avg_seek_write_ms"] = {"value": 0.9, "basis": "typo"}
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert message == (
        f"{tmp_path / 'site.yaml'}: invalid catalog entry\n"
        "  drives[15k-146]: Value error, as installed on 'ds8800-951' "
        "(track_to_track_seek_write_ms 0.4, avg_seek_write_ms 0.9, full_stroke_seek_write_ms "
        "5.5): seek figures t2t=0.4, avg=0.9, full=5.5 give no seek curve: (avg - t2t) / "
        "(full - t2t) = 0.0980 must lie in (1/3, 1); at or below 1/3 the curve would be "
        "convex, a non-monotone seek curve"
    )


def test_a_yaml_syntax_error_names_the_file(tmp_path: Path) -> None:
    message = _error(tmp_path, "schema_version: 1\ndrives: [\n")
    assert "site.yaml:2:10: YAML syntax error" in message


def test_a_missing_or_unreadable_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match=r"nope\.yaml: no such file"):
        load_catalog([tmp_path / "nope.yaml"])
    with pytest.raises(CatalogError, match="is a directory, not a catalog file"):
        load_catalog([tmp_path])


def test_a_name_defined_twice_in_the_users_files_is_refused(tmp_path: Path) -> None:
    one = _write(tmp_path / "one.yaml", drives=[_ssd_400()])
    two = _write(tmp_path / "two.yaml", drives=[_ssd_400()])
    with pytest.raises(CatalogError) as error:
        load_catalog([one, two])
    assert str(error.value) == (f"{two}: drives[ssd-400]: 'ssd-400' is already defined in {one}")


def test_a_shipped_name_is_replaced_only_by_the_same_kind(tmp_path: Path) -> None:
    entry = _ssd_400()
    entry["name"] = "ds8800-951"
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "drives[ds8800-951]: 'ds8800-951' is a system in the shipped catalog" in message


def test_an_override_that_breaks_a_cross_reference_names_the_users_file(tmp_path: Path) -> None:
    entry = _shipped_entry("drives", "15k-146")
    del entry["packaging"]["ds8700-941"]
    message = _error(tmp_path, _dumped(drives=[entry]))
    assert "inconsistent entries" in message
    assert (
        "systems[ds8700-941].drives: system 'ds8700-941' lists drive '15k-146', but that drive "
        "has no packaging for 'ds8700-941'"
    ) in message


# --------------------------------------------------------------------------- command line


def test_catalog_show_says_where_an_entry_is_defined(tmp_path: Path) -> None:
    user = _write(tmp_path / "f.yaml", drives=[_ssd_400()])
    result = runner.invoke(app, ["catalog", "show", "ssd-400", "--catalog", str(user)])
    assert result.exit_code == 0, result.output
    assert f"defined in: {user}" in result.output
    shipped = runner.invoke(app, ["catalog", "show", "ssd-300", "--catalog", str(user)])
    assert "defined in: the catalog shipped with diskmodel" in shipped.output


def test_catalog_list_shows_the_origin_of_user_entries_only_when_there_are_some(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "f.yaml", drives=[_ssd_400()])
    result = runner.invoke(app, ["catalog", "list", "--catalog", "f.yaml"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("ssd-400"))
    assert line.endswith(" f.yaml")
    assert "defined in" in result.output
    assert "defined in" not in runner.invoke(app, ["catalog", "list"]).output


def test_run_and_check_use_the_users_catalog(tmp_path: Path) -> None:
    user = _write(tmp_path / "f.yaml", drives=[_ssd_400()])
    scenario = tmp_path / "ssd-400.yaml"
    scenario.write_text(C3.read_text(encoding="utf-8").replace("15k-146", "ssd-400"))
    checked = runner.invoke(app, ["check", str(scenario), "--catalog", str(user)])
    assert checked.exit_code == 0, checked.output
    assert f"{user} (catalog file)" in checked.output
    ran = runner.invoke(
        app, ["run", str(scenario), "--catalog", str(user), "--out", f"{tmp_path}/", "-q"]
    )
    assert ran.exit_code == 0, ran.output
    assert (tmp_path / "ssd-400.html").exists()
    refused = runner.invoke(app, ["run", str(scenario), "--out", f"{tmp_path}/", "-q"])
    assert refused.exit_code == ExitCode.INVALID_INPUT
    assert "unknown drive 'ssd-400'" in refused.output


@pytest.mark.parametrize(
    "command",
    [
        ["catalog", "list"],
        ["catalog", "show", "15k-146"],
        ["check", str(C3)],
        ["run", str(C3), "-q"],
        ["compare", str(C3), str(C3), "-q"],
    ],
    ids=lambda c: " ".join(c[:2]) if c[0] == "catalog" else c[0],
)
def test_a_broken_catalog_file_is_one_message_and_exit_3(
    tmp_path: Path, command: list[str]
) -> None:
    entry = _ssd_400()
    entry["rpm"] = {"value": 0}
    broken = tmp_path / "broken.yaml"
    broken.write_text(_dumped(drives=[entry]), encoding="utf-8")
    result = runner.invoke(app, [*command, "--catalog", str(broken)])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert result.output.startswith(f"diskmodel: {broken}: invalid catalog entry")
    assert "drives[ssd-400]" in result.output
    assert "'rpm' needs" in result.output
    assert "Traceback" not in result.output
    missing = runner.invoke(app, [*command, "--catalog", str(tmp_path / "none.yaml")])
    assert missing.exit_code == ExitCode.INVALID_INPUT
    assert "none.yaml: no such file" in missing.output
