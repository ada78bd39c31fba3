"""Inputs the fuzzers found that once ended in a traceback, a hang or a silently wrong number.

Each test is the (shrunk) failing example, kept so the defect cannot come back; the defect list
with its fix and commit is in the robustness note of issue 7.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from diskmodel.errors import InputError, UserError
from diskmodel.scenario import load_scenario
from diskmodel.yamlio import MAX_FILE_BYTES, parse_yaml

from ..support.scenarios import VALID


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "fuzzed.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_integer_with_thousands_of_digits_is_a_user_error(tmp_path: Path) -> None:
    # Found: ValueError from int() (Python's 4,300-digit guard) escaped ruamel as a traceback.
    path = write(tmp_path, VALID.replace("host_ports: 4", "host_ports: " + "9" * 5000))
    with pytest.raises(
        InputError, match=r"fuzzed\.yaml: a value cannot be read: .*too many digits"
    ):
        load_scenario(path)


def test_impossible_timestamp_is_a_user_error(tmp_path: Path) -> None:
    # Found with the above: ruamel builds 2001-13-45 with datetime() and raises ValueError.
    path = write(tmp_path, VALID.replace("name: test", "name: 2001-13-45"))
    with pytest.raises(InputError, match=r"fuzzed\.yaml: a value cannot be read: month"):
        load_scenario(path)


def test_yaml_merge_key_is_read_with_a_line(tmp_path: Path) -> None:
    # Found: a key brought in by `<<:` has no position in its mapping; ruamel's lc.key()
    # raised KeyError. Merged keys now take the line of the mapping they land in.
    text = VALID.replace("    iops: 5000\n", "    <<: {iops: 5000}\n")
    assert load_scenario(write(tmp_path, text)).workloads[0].iops == 5000
    broken = VALID.replace("    iops: 5000\n", "    <<: {iops: -1}\n")
    with pytest.raises(InputError, match=r"fuzzed\.yaml:15: workloads\[0\]\.iops"):
        load_scenario(write(tmp_path, broken))


@pytest.mark.parametrize("opening", ["[", "{a: "])
def test_deep_brackets_are_refused_before_parsing(opening: str) -> None:
    # Found: 1,000 nested '[' took 5 s to refuse (ruamel's scanner is quadratic in flow depth,
    # and only a RecursionError stopped it); 200 copies of a 60-deep list took 1.4 s per 25 kB.
    closing = "]" if opening == "[" else "}"
    text = "a: " + opening * 1000 + "1" + closing * 1000 + "\n"
    started = time.perf_counter()
    with pytest.raises(InputError, match=r"x:1: brackets nest more than 10 levels deep"):
        parse_yaml(text, "x")
    # Not a timing test: a bound two orders of magnitude above the expected milliseconds.
    assert time.perf_counter() - started < 2.0


def test_brackets_in_comments_do_not_count() -> None:
    text = "a: [1]  # [[[[[[[[[[[[[[[[[[[[[[[[[[\n# {{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n"
    assert parse_yaml(text, "x").data == {"a": [1]}


def test_file_size_bound_is_a_clear_message(tmp_path: Path) -> None:
    # The old 5 MB bound let a valid-looking file parse for minutes; now 256 kB.
    path = write(tmp_path, VALID + "#" * MAX_FILE_BYTES + "\n")
    with pytest.raises(InputError, match=r"fuzzed\.yaml: [\d,]+ bytes is too large"):
        load_scenario(path)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("iops: 5000", "iops: true", "workloads[0].iops"),
        ("host_ports: 4", "host_ports: true", "system.host_ports"),
        ("count: 4}", "count: true}", "pools[0].ranks[0].count"),
        ("iops: 5000", "iops: 5000\n    iops_range: [false, 9]", "workloads[0].iops_range"),
        ("read_fraction: 0.7", "read_fraction: false", "workloads[0].read_fraction"),
    ],
)
def test_true_false_is_not_a_number(tmp_path: Path, old: str, new: str, key: str) -> None:
    # Found: pydantic's lax mode took `iops: true` as 1 I/O/s and `read_fraction: false` as 0,
    # a silently wrong prediction instead of an error.
    path = write(tmp_path, VALID.replace(old, new, 1))
    with pytest.raises(UserError, match=rf"fuzzed\.yaml:\d+: {re.escape(key)}: .*true/false"):
        load_scenario(path)


def test_millions_of_ranks_are_refused_before_expansion(tmp_path: Path) -> None:
    # Found: 1,000 aliases of one `count: 1024` rank group (11 kB) expanded to a million
    # RankPlacement objects (3.7 GB and a minute for 20,000 aliases) before the per-DA-pair
    # check refused them. The total is now checked first, and a pool lists at most 1,024 groups.
    group = "      - {drive: 15k-146, raid: raid5-7+p, count: 4}\n"
    assert group in VALID
    aliased = "      - &g {drive: 15k-146, raid: raid5-7+p, count: 1024}\n" + "      - *g\n" * 1000
    path = write(tmp_path, VALID.replace(group, aliased))
    started = time.perf_counter()
    with pytest.raises(UserError, match=r"1,025,024 ranks in all; a ds8800-951 holds at most 192"):
        load_scenario(path)
    assert time.perf_counter() - started < 5.0
    too_many = VALID.replace(group, aliased + "      - *g\n" * 30)
    with pytest.raises(UserError, match=r"pools\[0\]\.ranks: .*at most 1024 items"):
        load_scenario(write(tmp_path, too_many))


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("  growth: {factors: [%s]}\n", "analyses.growth.factors"),
        (
            "  tier_sweep: {pool: p0, drive: 15k-146, raid: raid5-7+p, counts: [%s]}\n",
            "analyses.tier_sweep.counts",
        ),
    ],
)
def test_analysis_lists_are_bounded(tmp_path: Path, section: str, key: str) -> None:
    # Each entry is a whole model solve; thousands of them would run for minutes.
    text = VALID + "analyses:\n" + section % ", ".join(["1"] * 5000)
    with pytest.raises(UserError, match=rf"{re.escape(key)}: .*at most 64 items"):
        load_scenario(write(tmp_path, text))


def test_echoed_input_is_clipped_in_messages(tmp_path: Path) -> None:
    # Found: a 10,000-character schema_version was echoed whole (a 10,107-character message);
    # so were an unknown skew preset, a YAML tag and the keys of an alternative's `set`.
    cases = [
        VALID.replace("schema_version: 1", "schema_version: " + "s" * 10_000),
        VALID + "    skew: {level: " + "z" * 10_000 + "}\n",
        VALID.replace("name: test", "name: !" + "t" * 10_000 + " x"),
        VALID
        + "analyses:\n  compare:\n    - name: x\n      set:\n        ? "
        + "q" * 10_000
        + "\n        : 1\n",
    ]
    for text in cases:
        with pytest.raises(UserError) as caught:
            load_scenario(write(tmp_path, text))
        assert "fuzzed.yaml" in str(caught.value)
        assert len(str(caught.value)) < 1000, str(caught.value)[:200]


@pytest.mark.parametrize("key", ["float", "int", "str", "tuple[", "function-x"])
def test_key_named_like_a_pydantic_union_tag(tmp_path: Path, key: str) -> None:
    # Found: a top-level key `tuple[` (or `float`, `str`) was taken for pydantic's union tag
    # and dropped from the error location, leaving it empty: IndexError in the formatter.
    with pytest.raises(UserError, match=rf"fuzzed\.yaml:\d+: {re.escape(key)}: unknown key"):
        load_scenario(write(tmp_path, VALID + f"'{key}': 1\n"))
    with pytest.raises(UserError, match=r"schema_version: is required"):
        load_scenario(write(tmp_path, f"'{key}': null\n"))


@pytest.mark.parametrize(
    ("skew", "problem"),
    [
        ("{level: 1.0e6}", "between 1 (no skew) and 1000"),
        ("{level: 2, sequential_level: 1.0e6}", "between 1 (no skew) and 1000"),
        ("{points: [[0.0, 0.5]]}", "capacity fractions must strictly increase"),
        ("{points: [[0.2, 0.8], [0.1, 0.9]]}", "capacity fractions must strictly increase"),
        ("{points: [[0.5, 0.1]]}", "not concave"),
    ],
)
def test_skew_the_tiering_layer_refuses_is_a_user_error(
    tmp_path: Path, skew: str, problem: str
) -> None:
    # Found: the scenario accepted any level above 1 and any points, and the tiering layer's
    # ValueError (level above 1000, points not increasing or not concave) surfaced from
    # predict() as a traceback. Validation now builds the curve and names the key.
    path = write(tmp_path, VALID + f"    skew: {skew}\n")
    with pytest.raises(
        UserError, match=rf"fuzzed\.yaml:21: workloads\[0\]\.skew: .*{re.escape(problem)}"
    ):
        load_scenario(path)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("name: oltp", 'name: "oltp\\e[2J"', "workloads[0].name"),
        ("name: p0", 'name: "p0\\x00"', "pools[0].name"),
        ("name: test", 'name: test\ndescription: "ring\\a"', "description"),
    ],
)
def test_control_characters_in_names_are_refused(
    tmp_path: Path, old: str, new: str, key: str
) -> None:
    # Found: a name holding ESC reached matplotlib (a "Glyph 27 missing" warning, an error under
    # -W error) and would reach the terminal as an ANSI escape; names are now printable text.
    text = VALID.replace(old, new, 1).replace("pool: p0", 'pool: "p0\\x00"')
    with pytest.raises(UserError, match=rf"{re.escape(key)}: holds the control character"):
        load_scenario(write(tmp_path, text))


def test_names_without_a_glyph_in_the_chart_font_render_quietly() -> None:
    # Found: a name with an emoji or CJK made matplotlib warn "Glyph ... missing from font"
    # once per chart (an error under pytest's -W error). The SVG text is drawn by the browser.
    from diskmodel import predict
    from diskmodel.report.html import render_html

    from ..support.scenarios import scenario_with_names

    scenario = scenario_with_names(["a 💾 b", "p 中文", "w 𝔘", "alt ✓ x"], "d")
    page = render_html(predict(scenario), timestamp=False)
    assert "a 💾 b" in page


def test_a_device_or_a_pipe_is_not_read(tmp_path: Path) -> None:
    # Found: `diskmodel check /dev/zero` read until memory ran out (MemoryError traceback) and
    # `diskmodel check FIFO` blocked forever. Only regular files are opened now.
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(InputError, match=r"is not a regular file"):
            load_scenario(path)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text"),
        (b"extent_id,small_io_count,mb\n1,2,\x003\n", "is not a number"),
        (b"extent_id,small_io_count,mb\n1,2,'" + b"9" * 200_000 + b"\n", "not CSV"),
        (b"x" * 10_000 + b"\n", "header must be"),
        (
            b"extent_id,small_io_count,mb\n"
            + b"7" * 10_000
            + b",1,1\n"
            + b"7" * 10_000
            + b",1,1\n",
            "appears twice",
        ),
    ],
)
def test_a_broken_heat_map_is_a_user_error(tmp_path: Path, content: bytes, problem: str) -> None:
    # Found: HeatMapError was a plain ValueError (a traceback from `run`), a binary file raised
    # UnicodeDecodeError, a 200,000-character field csv.Error, and a 10,000-character header
    # or extent id was echoed whole. Heat maps are now read like scenarios (regular files,
    # bounded size).
    from diskmodel import predict

    (tmp_path / "heat.csv").write_bytes(content)
    path = write(tmp_path, VALID + "    skew: {heatmap: heat.csv}\n")
    with pytest.raises(UserError, match=re.escape(problem)) as caught:
        predict(load_scenario(path), base_dir=tmp_path)
    assert "heat.csv" in str(caught.value)
    assert len(str(caught.value)) < 400


def test_a_heat_map_that_is_a_device_is_not_read(tmp_path: Path) -> None:
    from diskmodel import predict

    path = write(tmp_path, VALID + "    skew: {heatmap: /dev/zero}\n")
    with pytest.raises(UserError, match=r"/dev/zero, a file of the running system"):
        predict(load_scenario(path), base_dir=tmp_path)


def test_closed_populations_are_bounded(tmp_path: Path) -> None:
    # Found: queue_depth 10,000 on a four-rank pool took 52 s and 3.2 GB, 100,000 (then the
    # bound) never finished: the exact closed solution grew with the population squared. It
    # no longer does (O(N) memory, the saddle point past the exact budget), so the bound is
    # 131,072, and the work estimate bounds what a population costs on a large system.
    from diskmodel.scenario import MAX_POPULATION

    too_deep = VALID.replace("iops: 5000", f"queue_depth: {MAX_POPULATION + 1}")
    with pytest.raises(
        UserError, match=rf"fuzzed\.yaml:17: workloads\[0\]\.queue_depth: {MAX_POPULATION + 1}"
    ):
        load_scenario(write(tmp_path, too_deep))
    second = VALID.split("workloads:\n")[1].replace("name: oltp", "name: b")
    two = VALID.replace("iops: 5000", "queue_depth: 70000") + second.replace(
        "iops: 5000", "users: 70000"
    )
    with pytest.raises(UserError, match=r"closed workloads hold 140,000 I/Os or users in all"):
        load_scenario(write(tmp_path, two))


def test_heat_map_counts_that_overflow_when_added(tmp_path: Path) -> None:
    # Found: two extents of 1e308 small I/Os summed to infinity: an overflow RuntimeWarning
    # (an error under -W error) and a curve with share 0 at half the capacity.
    from diskmodel.tiering.heatmap import load_heatmap_csv

    path = tmp_path / "heat.csv"
    path.write_text("extent_id,small_io_count,mb\na,1e308,1\nb,1e308,1\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"heat\.csv: counts or MB too large to add up"):
        load_heatmap_csv(path)


@pytest.mark.parametrize(
    ("sweep", "problem"),
    [
        ("{pool: nope, drive: ssd-300, raid: raid5-7+p, counts: [0, 1]}", "no pool named 'nope'"),
        ("{pool: p0, drive: ssd-999, raid: raid5-7+p, counts: [0, 1]}", "unknown drive 'ssd-999'"),
        ("{pool: p0, drive: ssd-300, raid: raid5-9, counts: [0]}", "unknown RAID format"),
    ],
)
def test_tier_sweep_names_are_checked(tmp_path: Path, sweep: str, problem: str) -> None:
    # Found: a tier_sweep naming no pool raised StopIteration from predict(), an unknown drive
    # KeyError (with count 0 no variant validated it).
    path = write(tmp_path, VALID + f"analyses:\n  tier_sweep: {sweep}\n")
    with pytest.raises(UserError, match=rf"fuzzed\.yaml:22: analyses\.tier_sweep\.\w+: {problem}"):
        load_scenario(path)


def test_growth_of_a_closed_population_is_bounded(tmp_path: Path) -> None:
    # Found: growth multiplies closed populations, so queue_depth 64 with factor 1000 asked the
    # exact closed solution for 64,000 customers (a 30 GB array, then a hang). The bound is
    # 131,072 customers now (scenario.limits): queue depth 256 x 1000 is refused, x 32 solved.
    text = VALID.replace("iops: 5000", "queue_depth: 256") + (
        "analyses:\n  growth: {factors: [0.5, 1000]}\n"
    )
    with pytest.raises(UserError, match=r"analyses\.growth\.factors: 1000 x the closed population"):
        load_scenario(write(tmp_path, text))
    load_scenario(write(tmp_path, text.replace("1000]", "32]")))  # 8,192: still solved


def test_the_hang_guard_counts_cpu_time_not_wall_clock() -> None:
    # Issue 17 item 13: the long profile failed on a loaded 2-core machine, a case "still
    # running after 30 s" of wall clock. The guard now counts the case's CPU time, which a
    # loaded machine does not inflate: waiting does not trip it, working does.
    import time

    from ..support.invariants import no_hang

    with no_hang(0.2):
        time.sleep(0.4)  # wall clock past the budget, CPU time near zero

    def work_for_up_to_30_s() -> None:
        deadline = time.monotonic() + 30
        with no_hang(0.2):
            while time.monotonic() < deadline:
                sum(range(10_000))

    with pytest.raises(AssertionError, match="of CPU time: a hang"):
        work_for_up_to_30_s()
