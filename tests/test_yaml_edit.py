"""`calibrate` keeps the planner's YAML layout (issue 31 item 7): it rewrote the file through
ruamel's writer, wrapping `{...}` flow mappings mid-mapping and changing the lists'
indentation. `yaml_edit.keep_layout` makes only the changes, in the file's own text."""

from __future__ import annotations

import difflib
import textwrap

import pytest
from ruamel.yaml import YAML

from diskmodel.measured.calibrate import Calibration
from diskmodel.measured.calibrated import with_values
from diskmodel.measured.identify import Parameter
from diskmodel.measured.problem import FRONT_END
from diskmodel.yaml_edit import keep_layout

from .conftest import ROOT

FLOW = textwrap.dedent(
    """\
    # A scenario written the way the README writes one.
    schema_version: 1
    name: OLTP on a DS8800
    system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 8, da_pairs: 2}
    pools:
      - name: p0
        easy_tier: auto
        ranks:
          - {drive: 15k-146, raid: raid5-7+p, count: 8}
    workloads:
      - {name: oltp, pool: p0, iops: 20000, read_fraction: 0.7, read_hit_ratio: 0.5,
         capacity_gb: 4000, skew: {level: high}}   # the busy one
      - name: batch
        pool: p0
        iops: 500          # nightly
        read_fraction: 0.5
        read_hit_ratio: 0.2
        capacity_gb: 2000
    """
)


def _fit(*found: tuple[str, str, float]) -> Calibration:
    return Calibration(
        tuple(Parameter(w, k, v, v * 0.9, v * 1.1, True) for w, k, v in found), (), 0.01, 10
    )


def _changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.ndiff(before.splitlines(), after.splitlines())
        if line.startswith(("- ", "+ "))
    ]


def _load(text: str) -> object:
    return YAML(typ="safe").load(text)


def test_a_flow_scenario_keeps_its_layout_and_gets_the_fitted_values() -> None:
    fit = _fit(
        ("oltp", "destage_ratio", 0.5731),
        ("oltp", "skew.level", 7.25),
        ("batch", "destage_ratio", 0.8),
        ("system", FRONT_END, 151.3),
    )
    rewritten = with_values(FLOW, fit)
    assert _changed_lines(FLOW, rewritten), "ruamel's writer re-lays the file"
    kept = keep_layout(FLOW, rewritten)
    assert _load(kept) == _load(rewritten)
    changed = _changed_lines(FLOW, kept)
    system = "system: {model: ds8800-951, processor_ways: 4, cache_gb: 128, host_ports: 8, "
    assert changed == [
        f"- {system}da_pairs: 2}}",
        f"+ {system}da_pairs: 2, front_end_latency_us: 151.3}}",
        "-      capacity_gb: 4000, skew: {level: high}}   # the busy one",
        "+      capacity_gb: 4000, skew: {level: 7.25}, destage_ratio: 0.5731}   # the busy one",
        "+     destage_ratio: 0.8",
    ]


def test_the_measured_base_scenario_changes_only_its_fitted_lines() -> None:
    """The shipped base of `diskmodel calibrate`: a range replaced by its fitted value, a
    default given, a preset replaced by a level; every other line as the author wrote it."""
    text = (ROOT / "scenarios" / "measured" / "ds8800-measured-base.yaml").read_text("utf-8")
    fit = _fit(
        ("system", FRONT_END, 143.2), ("oltp", "destage_ratio", 0.61), ("oltp", "skew.level", 6.5)
    )
    rewritten = with_values(text, fit)
    kept = keep_layout(text, rewritten)
    assert _load(kept) == _load(rewritten)
    assert _changed_lines(text, kept) == [
        "-   front_end_latency_us: [50, 500]",
        "+   front_end_latency_us: 143.2",
        "-   skew: {level: intermediate}",
        "+   skew: {level: 6.5}",
        "+   destage_ratio: 0.61",
    ]


@pytest.mark.parametrize(
    ("original", "edited"),
    [
        ("a:\n  - 1\n  - 2\n", "a:\n  - 1\n"),  # a block list shortened
        ("a: |\n  text\n", "a: other\n"),  # a block scalar
        ("a:\n  b: 1\n", "a: 2\n"),  # a block mapping replaced by a scalar
    ],
)
def test_what_it_cannot_edit_in_place_is_written_as_edited(original: str, edited: str) -> None:
    assert keep_layout(original, edited) == edited


def test_quoted_commented_and_reserved_values_are_edited_in_place() -> None:
    original = "a: 'it''s'  # note\nb: \"x\"\nc: 1\n"
    edited = "a: other\nb: 'true'\nc: 1.5\nd: on\n"
    kept = keep_layout(original, edited)
    assert _load(kept) == _load(edited)
    assert kept == 'a: other  # note\nb: "true"\nc: 1.5\nd: "on"\n'
