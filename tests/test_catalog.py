"""The hardware catalog: it loads, every figure is sourced, and the figures are physically sane.

Published figures (DOMAIN.md C1, C8) are checked exactly against the catalog entries they
describe; physics checks are invariants any real drive or RAID format satisfies.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from ruamel.yaml import YAML

from diskmodel.catalog import (
    PARSED_FILE,
    Catalog,
    CatalogError,
    Drive,
    Provenance,
    RaidFormat,
    build_catalog,
    catalog_files,
    iter_figures,
    load_catalog,
    parse_catalog_file,
    parsed_catalog_files,
    read_catalog_yaml,
    render_catalog_markdown,
)

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = {"ds8700-941", "ds8800-951"}
DRIVES = {
    "ssd-146", "ssd-300", "ssd-600",
    "15k-146", "15k-300", "15k-450", "15k-600",
    "10k-450", "10k-600", "10k-900",
    "nl-1tb", "nl-2tb", "nl-3tb",
}  # fmt: skip
RAID_FORMATS = {
    "raid5-6+p+s", "raid5-7+p", "raid6-5+p+q+s", "raid6-6+p+q", "raid10-3x2+2s", "raid10-4x2",
}  # fmt: skip
LABEL_KEYS = {"schema_version", "level"}
"""Numeric keys that are names, not measurements, and so carry no provenance."""

FILES = list(catalog_files())


def _drives(kind: str) -> list[Drive]:
    return [d for d in load_catalog().drives.values() if d.kind == kind]


HDDS = _drives("hdd")
SSDS = _drives("ssd")
INSTALLED_HDDS = [
    load_catalog().installed_drive(system, d.name) for d in HDDS for system in d.packaging
]


def _installed_id(d: Drive) -> str:
    form = "/".join(f"{p.form_factor_in:g}in" for p in d.packaging.values())
    return f"{d.name}-{d.avg_seek_read_ms:g}ms-{form}"


# --------------------------------------------------------------------------- loading


def test_catalog_files_are_found_inside_the_package() -> None:
    names = {path for path, _ in FILES}
    assert "hardware_catalog/raid_formats.yaml" in names
    assert len(names) >= 7


@pytest.mark.parametrize(("path", "text"), FILES, ids=[p for p, _ in FILES])
def test_every_catalog_file_loads_and_declares_schema_version_1(path: str, text: str) -> None:
    parsed = parse_catalog_file(text, path)
    assert parsed.schema_version == 1
    assert (
        parsed.systems
        or parsed.drives
        or parsed.raid_formats
        or parsed.ficon_channels
        or parsed.volume_models
    )


def test_catalog_has_both_systems_all_13_drives_and_6_raid_formats(catalog: Catalog) -> None:
    assert set(catalog.systems) == SYSTEMS
    assert set(catalog.drives) == DRIVES
    assert set(catalog.raid_formats) == RAID_FORMATS
    assert catalog.names() == sorted(SYSTEMS | DRIVES | RAID_FORMATS)


def test_load_catalog_is_cached() -> None:
    assert load_catalog() is load_catalog()


def test_the_kept_parse_of_the_shipped_files_is_current_and_exact() -> None:
    """`PARSED_FILE` is what the YAML parser gives for today's files (`make catalog`
    regenerates it), and JSON
    keeps every value as parsed (int and float alike), so reading it is reading the YAML."""
    kept = json.loads((ROOT / "diskmodel" / "catalog" / PARSED_FILE).read_text("utf-8"))
    assert kept == json.loads(json.dumps(parsed_catalog_files(FILES)))
    for path, text in FILES:
        data = read_catalog_yaml(text, path)
        assert json.loads(json.dumps(data)) == data
        assert _types(json.loads(json.dumps(data))) == _types(data)


def _types(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _types(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_types(v) for v in node]
    return type(node).__name__


def test_an_edited_shipped_file_is_read_again() -> None:
    """A shipped file whose text is not the one the kept parse was made from is parsed anew."""
    path, text = next((p, t) for p, t in FILES if p.endswith("enterprise-15k.yaml"))
    edited = text.replace("{value: 15000,", "{value: 15001,", 1)
    assert edited != text
    drives = parse_catalog_file(edited, path, shipped=True).drives
    assert {d.rpm for d in drives} == {15001}


def test_entries_are_frozen(catalog: Catalog) -> None:
    with pytest.raises(ValidationError):
        catalog.drives["15k-146"].rpm = 10_000  # type: ignore[misc]


def test_suggest_offers_close_names(catalog: Catalog) -> None:
    assert catalog.suggest("15k-164")[0] == "15k-146"
    assert "ds8800-951" in catalog.suggest("ds8800")
    assert catalog.suggest("15k-164", choices=[]) == []
    assert catalog.suggest("15k-164", choices=sorted(catalog.raid_formats)) == []


# --------------------------------------------------------------------------- provenance


def _numbers(node: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every (key path, parent mapping) where a number sits in the raw YAML."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, int | float) or (
                isinstance(value, list) and any(isinstance(v, int | float) for v in value)
            ):
                yield (*path, str(key)), node
            else:
                yield from _numbers(value, (*path, str(key)))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _numbers(item, (*path, str(index)))


@pytest.mark.parametrize(("path", "text"), FILES, ids=[p for p, _ in FILES])
def test_every_number_in_the_raw_yaml_has_a_source_or_basis(path: str, text: str) -> None:
    raw = YAML(typ="safe", pure=True).load(text)
    unsourced = []
    for key_path, parent in _numbers(raw, ()):
        key = key_path[-1]
        if key in LABEL_KEYS:
            continue
        source = str(parent.get("source") or "").strip()
        basis = str(parent.get("basis") or "").strip()
        if key not in ("value", "range") or not (source or basis):
            unsourced.append(".".join(key_path))
    assert not unsourced, f"{path}: numbers without source or basis: {unsourced}"


def test_every_loaded_figure_carries_its_provenance(catalog: Catalog) -> None:
    entries = [*catalog.systems.values(), *catalog.drives.values(), *catalog.raid_formats.values()]
    for entry in entries:
        figures = list(iter_figures(entry))
        assert figures, entry.name
        for key, _, provenance in figures:
            assert provenance.text(), f"{entry.name}.{key}"


def test_sources_and_bases_are_more_than_a_word(catalog: Catalog) -> None:
    """A basis that derives a figure says how; a source names where it was published."""
    entries = [*catalog.systems.values(), *catalog.drives.values(), *catalog.raid_formats.values()]
    for entry in entries:
        for key, _, provenance in iter_figures(entry):
            if provenance.source:
                assert len(provenance.source.split()) >= 3, f"{entry.name}.{key}: vague source"
            if provenance.basis:
                assert len(provenance.basis.split()) >= 4, f"{entry.name}.{key}: vague basis"


# --------------------------------------------------------------------------- loader rejects

_GOOD_RAID = """
schema_version: 1
raid_formats:
  - name: raid5-test
    level: 5
    data_drives: {value: 6, basis: "six data drives"}
    redundancy_drives: {value: 1, basis: "one parity drive"}
    spare_drives: {value: 1, basis: "one spare drive"}
    array_site_drives: {value: 8, source: "DOMAIN.md item 5"}
    read_miss_ops: {value: 1, basis: "one read per miss"}
    random_write_reads: {value: 2, source: "DOMAIN.md item 5"}
    random_write_writes: {value: 2, source: "DOMAIN.md item 5"}
    sequential_write_ops_per_data_op: {value: 1.1667, basis: "(6+1)/6 drive writes"}
"""


def test_a_well_formed_file_parses() -> None:
    parsed = parse_catalog_file(_GOOD_RAID, "test.yaml")
    raid = parsed.raid_formats[0]
    assert raid.data_drives == 6
    assert raid.provenance["array_site_drives"] == Provenance(source="DOMAIN.md item 5")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('{value: 6, basis: "six data drives"}', "6", "'data_drives' = 6 has no provenance"),
        ('basis: "six data drives"', 'basis: "  "', "'data_drives' needs a non-empty"),
        ('basis: "six data drives"', "source: null", "'data_drives' needs a non-empty"),
        ('basis: "six data drives"}', 'basis: "x", unit: ms}', "unknown keys ['unit']"),
        ("    level: 5\n", "    level: 5\n    colour: red\n", "colour"),
        ("schema_version: 1", "schema_version: 2", "schema_version"),
        ('{value: 1, basis: "one spare drive"}', '{value: 2, basis: "two"}', "an array site has 8"),
        ("level: 5", "level: 4", "level"),
        ("    level: 5\n", "    level: 5\n    provenance: {}\n", "'provenance' is not written"),
    ],
    ids=[
        "bare-number",
        "blank-basis",
        "no-source-no-basis",
        "unknown-figure-key",
        "unknown-entry-key",
        "wrong-schema-version",
        "drives-do-not-fill-site",
        "bad-raid-level",
        "provenance-key-in-file",
    ],
)
def test_malformed_catalog_files_name_the_file_and_the_key(
    old: str, new: str, message: str
) -> None:
    assert old in _GOOD_RAID
    with pytest.raises(CatalogError) as error:
        parse_catalog_file(_GOOD_RAID.replace(old, new, 1), "bad.yaml")
    text = str(error.value)
    assert text.startswith("bad.yaml:")
    assert message in text


def test_errors_name_list_items_by_their_name() -> None:
    bad = _GOOD_RAID.replace('{value: 6, basis: "six data drives"}', '{value: -6, basis: "x"}')
    with pytest.raises(CatalogError, match=r"raid_formats\[raid5-test\]\.data_drives: "):
        parse_catalog_file(bad, "bad.yaml")


def test_yaml_syntax_errors_and_non_mappings_are_catalog_errors() -> None:
    # A user's file is read by the scenario's guarded loader: the line and column, a caret.
    with pytest.raises(CatalogError, match=r"^bad\.yaml:1:\d+: YAML syntax error"):
        parse_catalog_file("schema_version: [1\n", "bad.yaml")
    with pytest.raises(CatalogError, match="is a YAML mapping"):
        parse_catalog_file("- 1\n- 2\n", "bad.yaml")


def test_a_name_defined_twice_is_refused() -> None:
    with pytest.raises(CatalogError, match=r"'raid5-test' is already defined in one\.yaml"):
        build_catalog([("one.yaml", _GOOD_RAID), ("two.yaml", _GOOD_RAID)])


def test_dangling_cross_references_are_refused() -> None:
    files = [
        (path, text.replace("nl-3tb]", "nl-3tb, 15k-999]"))
        if path.endswith("ds8800-951.yaml")
        else (path, text)
        for path, text in FILES
    ]
    with pytest.raises(CatalogError, match="lists unknown drive '15k-999'"):
        build_catalog(files)


def test_drive_offered_by_a_system_must_be_listed_by_it() -> None:
    files = [
        (path, text.replace("drives: [ssd-300, 15k-146,", "drives: [ssd-300,"))
        if path.endswith("ds8800-951.yaml")
        else (path, text)
        for path, text in FILES
    ]
    with pytest.raises(CatalogError, match="'15k-146' has packaging for 'ds8800-951'"):
        build_catalog(files)


# --------------------------------------------------------------------------- drive physics


@pytest.mark.parametrize("drive", INSTALLED_HDDS, ids=_installed_id)
def test_hdd_seek_times_are_ordered(drive: Drive) -> None:
    assert drive.track_to_track_seek_read_ms < drive.avg_seek_read_ms
    assert drive.track_to_track_seek_read_ms <= drive.track_to_track_seek_write_ms
    assert drive.track_to_track_seek_write_ms < drive.avg_seek_write_ms
    assert drive.avg_seek_read_ms < drive.avg_seek_write_ms
    assert drive.avg_seek_read_ms < drive.full_stroke_seek_read_ms
    assert drive.avg_seek_write_ms < drive.full_stroke_seek_write_ms
    assert drive.full_stroke_seek_read_ms <= drive.full_stroke_seek_write_ms
    # Average seek over uniformly random positions is about a third to a half of full stroke.
    assert 0.25 < drive.avg_seek_read_ms / drive.full_stroke_seek_read_ms < 0.6


@pytest.mark.parametrize("drive", HDDS, ids=lambda d: d.name)
def test_rotational_latency_is_half_a_revolution(drive: Drive) -> None:
    assert drive.avg_rotational_latency_ms == pytest.approx(30_000 / drive.rpm, rel=1e-12)
    assert drive.rotation_ms == pytest.approx(60_000 / drive.rpm, rel=1e-12)


@pytest.mark.parametrize("drive", HDDS, ids=lambda d: d.name)
def test_hdd_transfer_of_4_kib_is_small_next_to_positioning(drive: Drive) -> None:
    transfer_ms = 4096 / (drive.media_transfer_mb_s * 1e6) * 1e3
    assert transfer_ms < 0.1 * (drive.avg_seek_read_ms + drive.avg_rotational_latency_ms)


def test_tiers_follow_spindle_speed(catalog: Catalog) -> None:
    for drive in catalog.drives.values():
        expected = {0: "ssd", 15_000: "enterprise", 10_000: "enterprise", 7_200: "nearline"}
        assert drive.tier == expected[int(drive.rpm)], drive.name
        assert drive.capacity_gb == float(re.findall(r"\d+", drive.name)[-1]) * (
            1000 if drive.name.endswith("tb") else 1
        )


def test_ssd_service_is_far_below_any_hdd_access() -> None:
    fastest_hdd_ms = min(d.avg_seek_read_ms + d.avg_rotational_latency_ms for d in HDDS)
    for ssd in SSDS:
        assert ssd.ssd_read_service_ms <= ssd.ssd_write_service_ms
        assert ssd.ssd_write_service_ms * 10 < fastest_hdd_ms, ssd.name


def test_hdd_only_and_ssd_only_fields_are_zero_on_the_other_kind() -> None:
    for ssd in SSDS:
        assert ssd.rpm == ssd.avg_seek_read_ms == ssd.full_stroke_seek_write_ms == 0
        assert ssd.rotation_ms == ssd.avg_rotational_latency_ms == 0
        assert ssd.ssd_parallelism > 0
    for hdd in HDDS:
        assert hdd.ssd_read_service_ms == hdd.ssd_write_service_ms == hdd.ssd_parallelism == 0


def test_a_dumped_entry_validates_again_with_its_provenance(catalog: Catalog) -> None:
    drive = catalog.drives["15k-146"]
    assert Drive.model_validate(drive.model_dump()) == drive


def test_a_drive_with_the_wrong_kind_of_figures_is_refused(catalog: Catalog) -> None:
    data = catalog.drives["15k-146"].model_dump()
    data["ssd_read_service_ms"] = 0.2
    with pytest.raises(ValidationError, match="ssd_read_service_ms must be 0"):
        Drive.model_validate(data)


def test_packaging_follows_domain_form_factors(catalog: Catalog) -> None:
    """DOMAIN.md 'Drives': 3.5-inch FC on the DS8700, 2.5-inch SAS on the DS8800 (nearline 3.5)."""
    for drive in catalog.drives.values():
        for system, packaging in drive.packaging.items():
            if system == "ds8700-941" or drive.tier == "nearline":
                assert packaging.form_factor_in == 3.5, (drive.name, system)
            else:
                assert packaging.form_factor_in == 2.5, (drive.name, system)
                assert "SAS" in packaging.interface


# --------------------------------------------------------------------------- RAID


def _parse_raid_name(name: str) -> tuple[int, int, int, int]:
    """(level, data, redundancy, spares) read from a name like raid6-5+p+q+s or raid10-3x2+2s."""
    level_text, layout = name.removeprefix("raid").split("-", 1)
    level = int(level_text)
    if level == 10:
        pairs, _, rest = layout.partition("x2")
        spares = int(rest.removeprefix("+").removesuffix("s") or 0)
        return level, int(pairs), int(pairs), spares
    parts = layout.split("+")
    return level, int(parts[0]), parts.count("p") + parts.count("q"), parts.count("s")


@pytest.mark.parametrize("name", sorted(RAID_FORMATS))
def test_raid_format_matches_its_name(catalog: Catalog, name: str) -> None:
    raid = catalog.raid_formats[name]
    level, data, redundancy, spares = _parse_raid_name(name)
    assert (raid.level, raid.data_drives, raid.redundancy_drives, raid.spare_drives) == (
        level,
        data,
        redundancy,
        spares,
    )
    assert raid.drives == raid.array_site_drives == 8
    assert raid.usable_fraction == data / 8


@pytest.mark.parametrize("name", sorted(RAID_FORMATS))
def test_raid_back_end_operations(catalog: Catalog, name: str) -> None:
    """DOMAIN.md item 5: random write penalty 4 / 6 / 2; full-stripe write (d+p)/d; 1 op a miss."""
    raid: RaidFormat = catalog.raid_formats[name]
    assert raid.random_write_ops == {5: 4, 6: 6, 10: 2}[raid.level]
    assert raid.random_write_writes == {5: 2, 6: 3, 10: 2}[raid.level]
    assert raid.read_miss_ops == 1
    expected = (raid.data_drives + raid.redundancy_drives) / raid.data_drives
    assert raid.sequential_write_ops_per_data_op == pytest.approx(expected, rel=1e-12)


# --------------------------------------------------------------------------- systems


def test_systems_offer_only_catalogued_drives_and_formats(catalog: Catalog) -> None:
    for system in catalog.systems.values():
        assert set(system.drives) <= set(catalog.drives)
        assert set(system.raid_formats) <= set(catalog.raid_formats)
        for drive in system.drives:
            assert system.name in catalog.drives[drive].packaging


def test_every_drive_is_offered_by_some_system(catalog: Catalog) -> None:
    offered = {d for s in catalog.systems.values() for d in s.drives}
    assert offered == set(catalog.drives)


def test_system_limits_and_options(catalog: Catalog) -> None:
    for system in catalog.systems.values():
        assert system.servers == 2
        assert system.max_host_ports == 128
        assert system.max_da_pairs == 8
        assert {o.ways for o in system.processor_options} == {2, 4}
        assert system.host_adapter().name == system.default_host_adapter
        for option in system.processor_options:
            assert option.cache_gb_options == sorted(option.cache_gb_options)
            # NVS of the smallest cache still holds at least 0.5 GB of writes.
            assert min(option.cache_gb_options) * system.nvs_fraction >= 0.5


def test_domain_c3_configuration_exists_on_both_systems(catalog: Catalog) -> None:
    """C3: 4-way, 128 GB, 15K 146 GB drives in RAID-5 ranks on 2 DA pairs, 4 host ports."""
    for system in catalog.systems.values():
        assert 128 in system.processor_option(4).cache_gb_options
        assert "15k-146" in system.drives
        assert "raid5-7+p" in system.raid_formats
        assert "raid5-6+p+s" in system.raid_formats
        assert system.max_da_pairs >= 2
        assert system.max_host_ports >= 4
        assert system.max_ranks_per_da_pair >= 16 / 2


def test_ds8800_adapters_are_faster_than_ds8700s(catalog: Catalog) -> None:
    """DOMAIN.md items 1 and 4: 8 vs 4 Gb/s host ports; the DS8800's DAs are markedly faster."""
    old, new = catalog.systems["ds8700-941"], catalog.systems["ds8800-951"]
    assert old.host_adapter().port_gbps == 4
    assert new.host_adapter().port_gbps == 8
    assert new.host_adapter().port_bandwidth_mb_s > old.host_adapter().port_bandwidth_mb_s
    assert new.device_adapter.per_op_us < old.device_adapter.per_op_us
    assert new.device_adapter.bandwidth_mb_s > old.device_adapter.bandwidth_mb_s
    assert old.processor_option(4).clock_ghz == 4.7
    assert new.processor_option(4).clock_ghz == 5.0
    # Processor costs of the same microcode path scale with the clock.
    for field in ("read_hit_us", "read_miss_us", "write_us", "sequential_read_us", "destage_us"):
        ratio = getattr(new.processor_costs, field) / getattr(old.processor_costs, field)
        assert ratio == pytest.approx(4.7 / 5.0, rel=1e-3), field


def test_host_port_costs_are_consistent_with_domain_c6(catalog: Catalog) -> None:
    """C6 (DS8800, 8 Gb/s): ~150 us fixed and ~19-20 us per 4 KB page for a whole log write.

    The port's share can only be part of that: its fixed cost below the 150 us, and the link
    time of one 4 KiB page below the 19-20 us that C6 measured per page end to end.
    """
    port = catalog.systems["ds8800-951"].host_adapter("fc-8gb-4port")
    link_us_per_page = 4096 / port.port_bandwidth_mb_s  # bytes / (MB/s) = microseconds
    assert port.per_io_overhead_us < 150
    assert link_us_per_page < 19
    assert port.per_io_overhead_us + link_us_per_page < 170  # C6: one page takes >= ~170 us


# --------------------------------------------------------------------------- published figures


def test_domain_c1_15k_figures_are_reproduced_exactly(catalog: Catalog) -> None:
    """C1: 3.5 / 4.0 ms average seek, 7.4 / 7.9 ms full stroke, about 2 ms rotational latency,
    for the 3.5-inch 15K drives C11 gives no figures of (146 and 600 GB)."""
    for name in ("15k-146", "15k-600"):
        drive = catalog.installed_drive("ds8700-941", name)
        assert drive.avg_seek_read_ms == 3.5
        assert drive.avg_seek_write_ms == 4.0
        assert drive.full_stroke_seek_read_ms == 7.4
        assert drive.full_stroke_seek_write_ms == 7.9
        assert drive.avg_rotational_latency_ms == 2.0
        assert "C1" in (drive.provenance["avg_seek_read_ms"].source or "")


def test_domain_c11_15k_figures_by_packaging(catalog: Catalog) -> None:
    """C11: 2.5-inch 15K (Savvio 15K.1) 2.6 / 3.1 ms average, 4.9 / 5.5 full stroke, 0.2 / 0.4
    single track on the DS8800; 3.5-inch Ultrastar 15K450 3.1 / 3.6 (300 GB) and 3.3 / 3.8
    (450 GB) on the DS8700."""
    for name in ("15k-146", "15k-300"):
        drive = catalog.installed_drive("ds8800-951", name)
        assert (drive.avg_seek_read_ms, drive.avg_seek_write_ms) == (2.6, 3.1)
        assert (drive.full_stroke_seek_read_ms, drive.full_stroke_seek_write_ms) == (4.9, 5.5)
        assert (drive.track_to_track_seek_read_ms, drive.track_to_track_seek_write_ms) == (
            0.2,
            0.4,
        )
        assert "C11" in (drive.provenance["avg_seek_read_ms"].source or "")
        assert "Savvio 15K.1" in (drive.provenance["full_stroke_seek_write_ms"].source or "")
    for name, figures in (("15k-300", (3.1, 3.6)), ("15k-450", (3.3, 3.8))):
        drive = catalog.installed_drive("ds8700-941", name)
        assert (drive.avg_seek_read_ms, drive.avg_seek_write_ms) == figures
        assert "Ultrastar 15K450" in (drive.provenance["avg_seek_write_ms"].source or "")


def test_installed_drive_takes_the_packaging_figures(catalog: Catalog) -> None:
    """The same drive type is a different drive in each system: the DS8800's 2.5-inch 15K
    seeks faster and draws less power than the DS8700's 3.5-inch one; figures the packaging
    does not state are the drive's own."""
    old = catalog.installed_drive("ds8700-941", "15k-146")
    new = catalog.installed_drive("ds8800-951", "15k-146")
    assert new.avg_seek_read_ms < old.avg_seek_read_ms
    assert new.power_w < old.power_w
    assert new.rpm == old.rpm == 15_000
    assert new.capacity_gb == old.capacity_gb
    assert old == catalog.drives["15k-146"]  # the top-level figures are the 3.5-inch drive's
    with pytest.raises(KeyError, match="not offered"):
        catalog.installed_drive("ds8800-951", "15k-600")


def test_domain_c1_random_iops_per_15k_drive(catalog: Catalog) -> None:
    """C1: 150 to 180 random IOPS per 15K drive at 5 to 7 ms for database I/O.

    One 4 KiB random I/O at queue length 1 (no command-queueing gain): seek + half a turn +
    transfer + controller overhead, for a 70/30 read/write mix (DOMAIN.md C2's ratio).
    """
    drive = catalog.installed_drive("ds8700-941", "15k-146")
    transfer_ms = 4096 / (drive.media_transfer_mb_s * 1e6) * 1e3
    fixed_ms = drive.avg_rotational_latency_ms + transfer_ms + drive.controller_overhead_ms
    service_ms = 0.7 * (drive.avg_seek_read_ms + fixed_ms) + 0.3 * (
        drive.avg_seek_write_ms + fixed_ms
    )
    assert 5.0 <= service_ms <= 7.0
    assert 150 <= 1000 / service_ms <= 180


def test_domain_c8_10k_and_nearline_figures_are_reproduced_exactly(catalog: Catalog) -> None:
    """C8: 10K 2.5-inch 3.8 / 4.4 ms access and 3.0 ms latency; 7.2K 8.2 ms seek, ~4.16 ms."""
    for name in ("10k-450", "10k-600", "10k-900"):
        drive = catalog.drives[name]
        assert (drive.avg_seek_read_ms, drive.avg_seek_write_ms) == (3.8, 4.4)
        assert drive.avg_rotational_latency_ms == 3.0
        assert drive.packaging["ds8800-951"].form_factor_in == 2.5
    for name in ("nl-1tb", "nl-2tb", "nl-3tb"):
        drive = catalog.drives[name]
        assert drive.avg_seek_read_ms == 8.2
        assert math.floor(drive.avg_rotational_latency_ms * 100) / 100 == 4.16


# --------------------------------------------------------------------------- docs


def test_docs_catalog_md_is_up_to_date(catalog: Catalog) -> None:
    page = ROOT / "docs" / "catalog.md"
    assert page.read_text(encoding="utf-8") == render_catalog_markdown(catalog), (
        "docs/catalog.md is stale: make catalog"
    )


def test_docs_catalog_md_lists_every_figure(catalog: Catalog) -> None:
    page = render_catalog_markdown(catalog)
    for entry in [*catalog.systems.values(), *catalog.drives.values()]:
        assert f"### {entry.name}" in page
        for key, _, provenance in iter_figures(entry):
            assert f"`{key}`" in page
            assert " ".join(provenance.text().split())[:40] in page


def _unsourced_figures(catalog: Catalog) -> Iterator[tuple[str, str, Any, Any]]:
    """(entry, key, value, provenance) of every figure with no published source, the nested
    entries (host adapters, processor options, packagings) included."""

    def walk(entry: Any, name: str) -> Iterator[tuple[str, str, Any, Any]]:
        for key, provenance in entry.provenance.items():
            if not provenance.source:
                yield name, key, getattr(entry, key), provenance
        for field in type(entry).model_fields:
            value = getattr(entry, field)
            children = value.values() if isinstance(value, dict) else value
            if isinstance(children, list | type({}.values())):
                for child in children:
                    if hasattr(child, "provenance"):
                        yield from walk(child, f"{name}.{field}")
            elif hasattr(value, "provenance") and field != "provenance":
                yield from walk(value, f"{name}.{field}")

    for group in (catalog.systems, catalog.drives, catalog.raid_formats):
        for entry in group.values():
            yield from walk(entry, entry.name)


def test_every_unsourced_estimate_carries_its_range(catalog: Catalog) -> None:
    """A figure with no published source says how far off it could be: `range: [low, high]`
    around its value, the basis giving the reason for each end. Exempt: what is not an
    estimate (a figure that does not apply to the drive kind, a RAID format's definition)
    and lists of options a system offers (cache sizes)."""
    missing = []
    for name, key, value, provenance in _unsourced_figures(catalog):
        basis = provenance.basis or ""
        if basis.startswith(("Not applicable", "Exact")) or isinstance(value, list):
            continue
        if provenance.range is None:
            missing.append(f"{name}.{key}")
            continue
        low, high = provenance.range
        assert low <= value <= high, f"{name}.{key}: {value} outside {provenance.range}"
        reasons = basis.lower()
        assert "range" in reasons or "low end" in reasons, f"{name}.{key}: no reason for its range"
    assert not missing, f"estimates without a range: {missing}"
