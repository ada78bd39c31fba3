"""Scenario validation: shipped scenarios load; broken ones end in one clear, located message."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from diskmodel import api
from diskmodel.errors import InputError
from diskmodel.scenario import (
    Scenario,
    ScenarioError,
    apply_settings,
    expand_ranks,
    load_scenario,
    pool_capacity_gb,
)
from diskmodel.scenario.json_schema import SCHEMA_FILE, schema_text
from diskmodel.scenario.reference import reference_markdown
from diskmodel.yamlio import load_yaml, parse_yaml

from ..conftest import ROOT, SCENARIOS
from ..support.scenarios import VALID
from .json_schema_subset import errors as schema_errors


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_baseline_loads(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, VALID))
    assert scenario.pools[0].easy_tier.mode == "auto"
    assert scenario.service_level.response_time_ms == 5.0
    assert scenario.service_level.utilization.rank == 0.7
    assert scenario.workloads[0].destage_ratio == 1.0
    assert scenario.workloads[0].read_size_kib == 4.0
    assert [r.da_pair for r in expand_ranks(scenario)] == [0, 1, 0, 1]
    assert [r.server for r in expand_ranks(scenario)] == [0, 1, 0, 1]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_shipped_scenarios_validate(path: Path) -> None:
    scenario = load_scenario(path)
    assert isinstance(scenario, Scenario)
    for _, alternative in scenario.alternatives():
        assert isinstance(alternative, Scenario)


def test_every_workload_fits_its_pool(catalog) -> None:  # type: ignore[no-untyped-def]
    for path in SCENARIOS:
        scenario = load_scenario(path)
        pools = {p.name: p for p in scenario.pools}
        for w in scenario.workloads:
            assert w.capacity_gb <= pool_capacity_gb(pools[w.pool], catalog)


def edit(old: str, new: str) -> str:
    assert old in VALID, old
    return VALID.replace(old, new, 1)


# Each broken scenario: the text, then substrings the one message must contain (the line number
# where the problem is, the key path, and the allowed values or range).
BROKEN = {
    "typo in a key": (
        edit("read_fraction: 0.7", "read_fractoin: 0.7"),
        [":18:", "read_fractoin", "did you mean 'read_fraction'"],
    ),
    "unknown top-level key": (VALID + "colour: blue\n", ["colour", "unknown key", "allowed keys"]),
    "unknown drive": (
        edit("drive: 15k-146", "drive: 15k-147"),
        [":13:", "pools[0].ranks[0].drive", "unknown drive '15k-147'", "did you mean '15k-146'"],
    ),
    "unknown RAID format": (
        edit("raid: raid5-7+p", "raid: raid7"),
        ["pools[0].ranks[0].raid", "unknown RAID format 'raid7'", "allowed:"],
    ),
    "unknown storage system": (
        edit("model: ds8800-951", "model: ds8880"),
        [":4:", "system.model", "unknown storage system", "ds8800-951"],
    ),
    "read fraction above 1": (
        edit("read_fraction: 0.7", "read_fraction: 1.2"),
        [":18:", "workloads[0].read_fraction", "1.2", "less than or equal to 1"],
    ),
    "negative I/O rate": (
        edit("iops: 5000", "iops: -5"),
        [":17:", "workloads[0].iops", "-5", "greater than 0"],
    ),
    "too many DA pairs": (
        edit("da_pairs: 2", "da_pairs: 99"),
        [":8:", "system.da_pairs", "99", "DA pairs a ds8800-951 takes"],
    ),
    "too many host ports": (
        edit("host_ports: 4", "host_ports: 4000"),
        [":7:", "system.host_ports", "4000"],
    ),
    "cache size not offered": (
        edit("cache_gb: 128", "cache_gb: 100"),
        [":6:", "system.cache_gb", "100 GB is not offered", "allowed:"],
    ),
    "processor ways not offered": (
        edit("processor_ways: 4", "processor_ways: 3"),
        [":5:", "system.processor_ways", "3"],
    ),
    "DA pair index out of range": (
        edit("count: 4}", "count: 4, da_pair: 5}"),
        [":13:", "pools[0].ranks[0].da_pair", "numbered 0 to 1"],
    ),
    "workload on a missing pool": (
        edit("pool: p0", "pool: p00"),
        [":16:", "workloads[0].pool", "no pool named 'p00'", "did you mean 'p0'"],
    ),
    "capacity does not fit": (
        edit("capacity_gb: 1000", "capacity_gb: 900000"),
        ["workloads", "900,000 GB", "usable"],
    ),
    "pinned to a tier the pool lacks": (
        VALID + "    pin_tier: ssd\n",
        ["workloads[0].pin_tier", "no ssd ranks"],
    ),
    "no load given": (edit("    iops: 5000\n", ""), ["workloads[0]", "give the load"]),
    "a rate and a queue depth": (
        VALID + "    queue_depth: 32\n",
        ["workloads[0]", "either 'iops'", "not both"],
    ),
    "Easy Tier mode misspelt": (
        edit("easy_tier: auto", "easy_tier: {mode: atuo}"),
        [":11:", "pools[0].easy_tier.mode", "'atuo'", "'off' or 'auto'"],
    ),
    "Easy Tier target above 1": (
        edit("easy_tier: auto", "easy_tier: {mode: auto, utilization_target: 80}"),
        ["pools[0].easy_tier.utilization_target", "80"],
    ),
    "service level ceiling above 1": (
        VALID + "service_level: {utilization: {rank: 70}}\n",
        ["service_level.utilization.rank", "70"],
    ),
    "service level kind misspelt": (
        VALID + "service_level: {utilization: {ranks: 0.5}}\n",
        ["service_level.utilization.ranks", "did you mean 'rank'"],
    ),
    "missing required key": (
        edit("    capacity_gb: 1000\n", ""),
        ["workloads[0].capacity_gb", "required"],
    ),
    "wrong type": (
        edit("host_ports: 4", "host_ports: four"),
        [":7:", "system.host_ports", "'four'", "integer"],
    ),
    "wrong schema version": (
        edit("schema_version: 1", "schema_version: 7"),
        [":1:", "schema_version", "7", "schema_version 1"],
    ),
    "duplicate key": (
        edit("  host_ports: 4\n", "  host_ports: 4\n  host_ports: 8\n"),
        [":8:", "appears twice in one mapping", "host_ports"],
    ),
    "YAML syntax error": (edit("cache_gb: 128", "cache_gb: [128"), ["YAML syntax error"]),
    "empty file": ("", ["empty"]),
    "only a comment": ("# nothing here\n", ["empty"]),
    "a list, not a mapping": ("- 1\n- 2\n", ["holds a list", "mapping"]),
    "a scalar, not a mapping": ("just words\n", ["single value", "mapping"]),
    "alias bomb": (
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n"
            for i in range(8)
        ),
        ["alias"],
    ),
    "two documents": (VALID + "---\n" + VALID, ["2 YAML documents"]),
    "NaN value": (edit("iops: 5000", "iops: .nan"), ["workloads[0].iops", "finite"]),
    "infinite value": (edit("iops: 5000", "iops: .inf"), ["workloads[0].iops"]),
    "skew with two forms": (
        VALID + "    skew: {level: 7, points: [[0.1, 0.9]]}\n",
        ["workloads[0].skew", "exactly one of"],
    ),
    "skew preset misspelt": (
        VALID + "    skew: {level: hihg}\n",
        [":21:", "workloads[0].skew.level", "unknown skew preset 'hihg'", "did you mean 'high'"],
    ),
    "skew level at or below 1": (
        VALID + "    skew: {level: 0.5}\n",
        ["workloads[0].skew.level", "above 1"],
    ),
    "every rank group added": (
        edit("count: 4}", "count: 4, added: true}"),
        ["pools[0].ranks", "at least one must hold"],
    ),
    "duplicate pool names": (
        edit(
            "pools:\n",
            "pools:\n  - name: p0\n    ranks: [{drive: 15k-146, raid: raid5-7+p, count: 1}]\n",
        ),
        ["pool names must be unique"],
    ),
    "compare sets a missing key": (
        VALID + "analyses:\n  compare:\n    - name: alt\n      set: {system.modle: x}\n",
        ["analyses.compare[0].set", "no key 'modle'", "allowed"],
    ),
    "compare sets an invalid value": (
        VALID + "analyses:\n  compare:\n    - name: alt\n      set: {system.da_pairs: 50}\n",
        ["alt", "system.da_pairs", "50"],
    ),
    "a python object tag": (
        edit("name: test", "name: !!python/object/apply:os.system [echo hi]"),
        [":2:", "name", "YAML tag", "not allowed"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), BROKEN.values(), ids=BROKEN.keys())
def test_broken_scenario_gives_one_clear_message(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_scenario(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in expected:
        assert fragment in message, f"{fragment!r} not in:\n{message}"
    assert "Traceback" not in message
    assert "pydantic" not in message.lower()  # no library internals or URLs


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_scenario(tmp_path / "absent.yaml")


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(VALID.replace("test", "t\xe9st").encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        load_scenario(path)


def test_broken_table_is_large_enough() -> None:
    assert len(BROKEN) >= 20


def test_scenario_error_is_an_input_error() -> None:
    assert issubclass(ScenarioError, InputError)


def test_yaml_12_keeps_words_as_strings(tmp_path: Path) -> None:
    # YAML 1.1 would turn a pool named `no` into False; YAML 1.2 keeps it a name.
    scenario = load_scenario(write(tmp_path, VALID.replace("p0", "no")))
    assert scenario.pools[0].name == "no"


def test_apply_settings_by_index_and_name() -> None:
    base = {"workloads": [{"name": "a", "iops": 1}, {"name": "b", "iops": 2}]}
    out = apply_settings(base, {"workloads.b.iops": 5, "workloads.0.iops": 3})
    assert out == {"workloads": [{"name": "a", "iops": 3}, {"name": "b", "iops": 5}]}
    assert base["workloads"][1]["iops"] == 2  # the original is untouched


def test_easy_tier_shorthand_and_mapping_mean_the_same(tmp_path: Path) -> None:
    short = load_scenario(write(tmp_path, VALID, "a.yaml"))
    long = load_scenario(
        write(tmp_path, edit("easy_tier: auto", "easy_tier: {mode: auto}"), "b.yaml")
    )
    assert short.pools[0].easy_tier == long.pools[0].easy_tier
    target = load_scenario(
        write(
            tmp_path,
            edit("easy_tier: auto", "easy_tier: {mode: auto, utilization_target: 0.6}"),
            "c.yaml",
        )
    )
    assert target.pools[0].easy_tier.utilization_target == 0.6


# --------------------------------------------- issue 17 item 12 and issue 16 item 4: slips


def load_text(tmp_path: Path, text: str) -> Scenario:
    """The scenario as a planner's run loads it: validated, and its work bounded."""
    return api.load_scenario(write(tmp_path, text))


def refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load_text(tmp_path, text)
    return str(caught.value)


TWO_WORKLOADS = VALID + textwrap.indent(
    textwrap.dedent(
        """\
        - name: NAME2
          pool: p0
          iops: 100
          read_fraction: 0.7
          read_hit_ratio: 0.5
          capacity_gb: 10
        """
    ),
    "  ",
)


@pytest.mark.parametrize(
    ("first", "second"),
    [("café", "cafe\u0301"), ("oltp", " oltp "), ("oltp", "oltp\u00a0")],
)
def test_names_that_look_alike_are_one_name(tmp_path: Path, first: str, second: str) -> None:
    # Issue 17 item 12: two Unicode forms of "café" were two workloads that looked the same.
    text = TWO_WORKLOADS.replace("name: oltp", f'name: "{first}"').replace(
        "name: NAME2", f'name: "{second}"'
    )
    message = refused(tmp_path, text)
    assert "is used by 2 workloads" in message


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("\u202eoltp", "bidi control U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("ol\u200btp", "invisible character U+200B (ZERO WIDTH SPACE)"),
        ("oltp\ufeff", "invisible character U+FEFF"),
        ("   ", "is empty or blank"),
        ("\u3164", "is empty or blank"),
        ("e\u0301\u0301", None),  # visible: a letter with marks
    ],
)
def test_invisible_and_reordering_names_are_refused(
    tmp_path: Path, name: str, problem: str | None
) -> None:
    text = VALID.replace("name: oltp", f'name: "{name}"')
    if problem is None:
        assert load_text(tmp_path, text).workloads[0].name == "\u00e9\u0301"
        return
    message = refused(tmp_path, text)
    assert "workloads[0].name:" in message
    assert problem in message


def test_names_are_stored_nfc(tmp_path: Path) -> None:
    text = VALID.replace("name: oltp", 'name: "cafe\u0301"').replace("pool: p0", 'pool: "p0"')
    assert load_text(tmp_path, text).workloads[0].name == "café"


def test_duplicate_alternative_names_are_refused(tmp_path: Path) -> None:
    text = VALID + textwrap.dedent(
        """\
        analyses:
          compare:
            - {name: bigger, set: {system.cache_gb: 256}}
            - {name: bigger, set: {system.cache_gb: 64}}
        """
    )
    assert "two alternatives are named 'bigger'" in refused(tmp_path, text)


def test_an_alternative_named_like_the_baseline_is_refused(tmp_path: Path) -> None:
    text = VALID + "analyses:\n  compare:\n    - {name: test, set: {system.cache_gb: 256}}\n"
    assert "analyses.compare[0].name: 'test' is the scenario's own name" in refused(tmp_path, text)


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        (
            "iops: 5000",
            'iops: "5000"',
            "'5000' is text in quotes; write the number without quotes: 5000",
        ),
        ("count: 4}", "count: 4.0}", "4.0 is not a whole number as written; write 4"),
        ("count: 4}", "count: 4.5}", "4.5 is not a whole number"),
        # Found by fuzzing: the hint wrote out all 309 digits of 1e+308 (a 4,149-character
        # message).
        ("count: 4}", "count: 1e308}", "1e+308 is not a whole number as written; give a whole"),
        ("host_ports: 4", "host_ports: '4'", "without quotes: 4"),
        ("processor_ways: 4", "processor_ways: 4.0", "write 4"),
        ("capacity_gb: 1000", "capacity_gb: 1,000", "write 1000 without a thousands separator"),
        ("cache_gb: 128", "cache_gb: 128GB", "'128GB': write the number alone (128)"),
        ("cache_gb: 128", "cache_gb: 128 GB", "write the number alone (128)"),
        ("read_fraction: 0.7", "read_fraction: 70%", "write a fraction, not a percentage: 0.7"),
        ("read_fraction: 0.7", "read_fraction: 70", "did you mean 0.70?"),
        ("read_hit_ratio: 0.5", "read_hit_ratio: 50", "did you mean 0.50?"),
        ("iops: 5000", "iops: true", "true/false is not allowed here"),
    ],
)
def test_common_slips_get_the_fix(tmp_path: Path, old: str, new: str, hint: str) -> None:
    # Issue 16 item 4 and issue 17 item 12: quoted numbers and `count: 4.0` were accepted
    # silently; `read_fraction: 70` said only "must be <= 1".
    text = VALID.replace(old, new)
    assert text != VALID
    assert hint in refused(tmp_path, text)


def test_a_thousands_separator_in_a_flow_mapping_is_explained(tmp_path: Path) -> None:
    # Issue 16 item 4: `{capacity_gb: 10,000}` said "workloads[0].0: unknown key".
    text = VALID.replace(
        "      - {drive: 15k-146, raid: raid5-7+p, count: 4}",
        "      - {drive: 15k-146, raid: raid5-7+p, count: 1,000}",
    )
    message = refused(tmp_path, text)
    assert "a number where a key belongs" in message
    assert "thousands separator" in message


def test_a_quoted_skew_level_gets_the_fix(tmp_path: Path) -> None:
    text = VALID + '    skew: {level: "14"}\n'
    assert "'14' is text in quotes" in refused(tmp_path, text)


def test_pinned_workloads_together_must_fit_their_tier(tmp_path: Path) -> None:
    # Issue 17 item 2: validation checks pinned capacity per tier.
    text = TWO_WORKLOADS.replace(
        "      - {drive: 15k-146, raid: raid5-7+p, count: 4}",
        "      - {drive: 15k-146, raid: raid5-7+p, count: 4}\n"
        "      - {drive: ssd-300, raid: raid5-7+p, count: 1}",
    )
    text = text.replace("capacity_gb: 1000", "capacity_gb: 2000\n    pin_tier: ssd")
    text = text.replace("name: NAME2", "name: logs").replace(
        "capacity_gb: 10\n", "capacity_gb: 200\n    pin_tier: ssd\n"
    )
    message = refused(tmp_path, text)
    assert (
        "workloads[1].pin_tier: pinned to ssd in pool 'p0', 'oltp', 'logs' together need 2,200 GB"
        in message
    )
    assert "ssd ranks hold 2,100 GB usable" in message
    fits = text.replace("capacity_gb: 200\n", "capacity_gb: 100\n")
    assert load_text(tmp_path, fits).workloads[1].pin_tier == "ssd"


# ------------------------------------------------ issue 16 item 4: the shipped JSON Schema


def test_the_shipped_json_schema_is_current(catalog) -> None:  # type: ignore[no-untyped-def]
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(catalog), (
        "diskmodel/scenario/scenario.schema.json is stale: make catalog"
    )


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_shipped_scenario_validates_against_the_schema_and_names_it(path: Path) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema_errors(schema, load_yaml(path).data) == []
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../diskmodel/scenario/scenario.schema.json"
    reference = (path.parent / first.split("$schema=")[1]).resolve()
    assert reference == SCHEMA_FILE.resolve()


def test_the_schema_refuses_what_the_models_refuse_value_by_value() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    data = parse_yaml(VALID, "s.yaml").data
    assert schema_errors(schema, data) == []
    for broken in (
        VALID.replace("read_fraction: 0.7", "read_fraction: 70"),
        VALID.replace("drive: 15k-146", "drive: 15k-147"),
        VALID.replace("iops: 5000", "iopps: 5000"),
        VALID.replace("easy_tier: auto", "easy_tier: on"),
    ):
        assert schema_errors(schema, parse_yaml(broken, "s.yaml").data)


def test_the_scenario_reference_is_current(catalog) -> None:  # type: ignore[no-untyped-def]
    page = ROOT / "docs" / "scenario.md"
    assert page.read_text(encoding="utf-8") == reference_markdown(catalog), (
        "docs/scenario.md is stale: make catalog"
    )


def test_the_reference_writes_boolean_defaults_as_true_or_false(catalog) -> None:  # type: ignore[no-untyped-def]
    """They were written `0` and `1` (a bool is an int to Python; issue 31 item 6)."""
    rows = [r for r in reference_markdown(catalog).splitlines() if r.startswith("| `")]
    booleans = [r.split(" | ")[2] for r in rows if r.split(" | ")[1] == "boolean"]
    assert len(booleans) >= 3
    assert set(booleans) <= {"`true`", "`false`", "required", "-"}


# ---------------------------------------------------------------- bounded work (issue 17 item 6)


def _analyses(alternatives: int, points: int, factors: int = 0) -> str:
    lines = ["analyses:", f"  curve: {{points: {points}}}"]
    if alternatives:
        lines.append("  compare:")
        alternative = "    - {{name: a{}, set: {{system.cache_gb: 256}}}}"
        lines += [alternative.format(i) for i in range(alternatives)]
    if factors:
        grown = ", ".join(str(1 + i / 10) for i in range(factors))
        lines.append(f"  growth: {{factors: [{grown}]}}")
    return "\n".join(lines) + "\n"


def test_every_bound_at_its_maximum_is_refused_before_any_work(tmp_path: Path) -> None:
    """Issue 17 item 6: inside every single bound, 64 alternatives x (2,000 points + 64 growth
    factors) ran for minutes; validation now estimates the work and refuses it, naming what
    to lower and pointing at the analyses section."""
    message = refused(tmp_path, VALID + _analyses(64, 2000, 64))
    assert "s.yaml:21: analyses: this scenario asks for about" in message
    assert "65 configuration(s)" in message
    assert "2000 curve points" in message
    assert "Lower analyses.curve.points" in message


def test_the_work_estimate_grows_with_every_multiplier(tmp_path: Path) -> None:
    from diskmodel.analyses.budget import estimate
    from diskmodel.catalog import load_catalog

    catalog = load_catalog()

    def seconds(alternatives: int, points: int, factors: int = 0, extra: str = "") -> float:
        text = VALID.replace("iops: 5000", extra or "iops: 5000") + _analyses(
            alternatives, points, factors
        )
        return estimate(load_text(tmp_path, text), catalog).seconds

    base = seconds(0, 60)
    assert seconds(1, 60) > base
    assert seconds(0, 61) > base
    assert seconds(0, 60, 1) > base
    assert seconds(0, 60, extra="queue_depth: 64") > base
    assert seconds(0, 60, extra="queue_depth: 128") > seconds(0, 60, extra="queue_depth: 64")


def test_shipped_scenarios_are_well_inside_the_work_limit() -> None:
    from diskmodel.analyses.budget import MAX_WORK_S, estimate
    from diskmodel.catalog import load_catalog

    catalog = load_catalog()
    for path in SCENARIOS:
        assert estimate(load_scenario(path), catalog).seconds < MAX_WORK_S / 4, path.name


# ---------------------------------------------------------- compound growth (issue 14 item 2)


def test_compound_growth_gives_the_factors(tmp_path: Path) -> None:
    text = VALID + "analyses:\n  growth: {rate: 0.3, per: year, periods: 3}\n"
    growth = load_text(tmp_path, text).analyses.growth
    assert growth is not None
    assert growth.multipliers == pytest.approx([1.3, 1.69, 2.197], rel=1e-12)
    assert growth.per == "year"


@pytest.mark.parametrize(
    ("growth", "message"),
    [
        ("{rate: 0.3}", "give factors (e.g. [1.2, 1.5, 2]) or both rate and periods"),
        ("{factors: [1.5], rate: 0.3, periods: 2}", "give either factors or rate and periods"),
        ("{rate: 2, periods: 10}", "grows the load 59,049-fold; at most 1000"),
        ("{rate: 0.3, periods: 2, per: decade}", "per"),
    ],
)
def test_growth_is_given_one_way(tmp_path: Path, growth: str, message: str) -> None:
    assert message in refused(tmp_path, VALID + f"analyses:\n  growth: {growth}\n")
