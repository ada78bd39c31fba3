"""The command line, through typer's runner: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel import __version__
from diskmodel.cli import app
from diskmodel.errors import ExitCode

from .conftest import ROOT, SCENARIOS
from .support.scenarios import VALID

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_catalog_list_shows_both_systems_and_all_13_drives(catalog) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["catalog", "list"])
    assert result.exit_code == 0, result.output
    for name in ("ds8700-941", "ds8800-951"):
        assert name in result.output
    assert len(catalog.drives) == 13
    for drive in catalog.drives:
        assert drive in result.output
    for raid in catalog.raid_formats:
        assert raid in result.output


@pytest.mark.parametrize("name", ["ds8800-951", "15k-146", "raid5-7+p"])
def test_catalog_show_cites_sources(name: str) -> None:
    result = runner.invoke(app, ["catalog", "show", name])
    assert result.exit_code == 0, result.output
    assert "source:" in result.output or "basis:" in result.output


def test_catalog_show_unknown_name_suggests() -> None:
    result = runner.invoke(app, ["catalog", "show", "ds8800-95"])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "did you mean" in result.output.lower()
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_check_summarises_each_shipped_scenario(path: Path) -> None:
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    for heading in ("Capacity per tier", "Ranks per DA pair", "Drives per server"):
        assert heading in result.output


def test_check_broken_scenario_is_one_message(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(VALID.replace("drive: 15k-146", "drive: 15k-147"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "Traceback" not in result.output
    assert "unknown drive '15k-147'" in result.output
    assert isinstance(result.exception, SystemExit)


def test_check_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nope.yaml")])
    assert result.exit_code == ExitCode.USAGE
    assert "does not exist" in result.output


def test_run_writes_report_and_json(tmp_path: Path) -> None:
    out, js = tmp_path / "r.html", tmp_path / "r.json"
    scenario = SCENARIOS[0]
    result = runner.invoke(
        app, ["run", str(scenario), "--out", str(out), "--json", str(js), "--no-timestamp"]
    )
    assert result.exit_code == 0, result.output
    assert f"wrote {js}" in result.output
    assert f"wrote {out}" in result.output
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["configurations"][0]["max_iops"] > 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_run_default_report_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    scenario = SCENARIOS[0]
    result = runner.invoke(app, ["run", str(scenario)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reports" / f"{scenario.stem}.html").is_file()
    assert result.output.strip().endswith(f"wrote reports/{scenario.stem}.html")


def test_run_refuses_to_overwrite_a_foreign_file(tmp_path: Path) -> None:
    precious = tmp_path / "notes.html"
    precious.write_text("my notes", encoding="utf-8")
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--out", str(precious)])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED
    assert "--force" in result.output
    assert precious.read_text(encoding="utf-8") == "my notes"


def test_run_is_deterministic_without_timestamp(tmp_path: Path) -> None:
    outputs = []
    for i in range(2):
        out, js = tmp_path / f"{i}.html", tmp_path / f"{i}.json"
        args = ["run", str(SCENARIOS[0]), "-q", "--no-timestamp", "--out", str(out)]
        result = runner.invoke(app, [*args, "--json", str(js)])
        assert result.exit_code == 0, result.output
        outputs.append((out.read_bytes(), js.read_bytes()))
    assert outputs[0] == outputs[1]


def test_compare_two_files_side_by_side(tmp_path: Path) -> None:
    a = ROOT / "scenarios" / "ds8700-c3-baseline.yaml"
    b = ROOT / "scenarios" / "ds8800-c3-baseline.yaml"
    js = tmp_path / "c.json"
    result = runner.invoke(
        app, ["compare", str(a), str(b), "--out", str(tmp_path / "c.html"), "--json", str(js)]
    )
    assert result.exit_code == 0, result.output
    names = [c["name"] for c in json.loads(js.read_text(encoding="utf-8"))["configurations"]]
    assert names == [
        "DS8700 C3 baseline (DB2 brokerage OLTP)",
        "DS8800 C3 baseline (DB2 brokerage OLTP)",
    ]


def test_compare_same_file_twice_keeps_names_apart(tmp_path: Path) -> None:
    a = str(SCENARIOS[0])
    js = tmp_path / "c.json"
    result = runner.invoke(
        app, ["compare", a, a, "-q", "--out", str(tmp_path / "c.html"), "--json", str(js)]
    )
    assert result.exit_code == 0, result.output
    names = [c["name"] for c in json.loads(js.read_text(encoding="utf-8"))["configurations"]]
    assert names[1] == f"{names[0]} (2)"


def test_compare_needs_two_files() -> None:
    result = runner.invoke(app, ["compare", str(SCENARIOS[0])])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "at least two" in result.output


# ------------------------------------------------------- issue 17: hostile input (regressions)

ESC = "\x1b"
SSD_POOL = VALID.replace(
    "      - {drive: 15k-146, raid: raid5-7+p, count: 4}",
    "      - {drive: 15k-146, raid: raid5-7+p, count: 4}\n"
    "      - {drive: ssd-300, raid: raid5-7+p, count: 1}",
)
assert SSD_POOL != VALID


def write(folder: Path, text: str, name: str = "s.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def with_heatmap(reference: str) -> str:
    return VALID + f'    skew: {{heatmap: "{reference}"}}\n'


HEATMAP_LINE = len(VALID.splitlines()) + 1
"""The line `with_heatmap` writes the heat map's name on."""

HEAT = "extent_id,small_io_count,mb\na,100,1\nb,10,1\nc,1,1\n"


def test_a_workload_pinned_to_a_tier_too_small_is_refused_by_check(tmp_path: Path) -> None:
    # Issue 17 item 2: `check` said valid, `run` ended in a ValueError traceback from the
    # placement ("pinned to 'ssd' needs 5000 GB, only 3600 GB free").
    text = SSD_POOL.replace("capacity_gb: 1000", "capacity_gb: 3000\n    pin_tier: ssd")
    path = write(tmp_path, text)
    line = text.splitlines().index("    pin_tier: ssd") + 1
    for command in (["check", str(path)], ["run", str(path), "-o", str(tmp_path / "r.html")]):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitCode.INVALID_INPUT, result.output
        assert "Traceback" not in result.output
        assert (
            f"s.yaml:{line}: workloads[0].pin_tier: pinned to ssd in pool 'p0', the workload "
            "'oltp' needs 3,000 GB but its ssd ranks hold 2,100 GB usable"
        ) in result.output
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("text", "echoed"),
    [
        (VALID + f'    "{ESC}]52;c;aGk=\\a": 1\n', "\\x1b]52;c;aGk=\\x07"),  # OSC 52: clipboard
        (VALID + f'    "{ESC}[2J\\u202e": 1\n', "\\x1b[2J\\u202e"),  # clear screen, bidi
        (
            VALID + "analyses:\n  compare:\n    - name: a\n"
            f'      set: {{"{ESC}[2Jsystem.model": x}}\n',
            "\\x1b[2J",
        ),
    ],
)
def test_terminal_escapes_from_the_input_never_reach_the_terminal(
    tmp_path: Path, text: str, echoed: str
) -> None:
    # Issue 17 item 3: escape sequences in unknown key names, heat-map paths and compare
    # keys reached the terminal (OSC 52 writes the clipboard; `check` printed them itself).
    # YAML's "\e" escape writes ESC into a double-quoted key.
    path = write(tmp_path, text.replace(ESC, "\\e"))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert ESC not in result.output
    assert "\x07" not in result.output
    assert "\u202e" not in result.output
    assert echoed in result.output or "invisible character" in result.output


def test_a_file_name_with_escapes_on_the_command_line_is_shown_escaped(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / f"{ESC}]0;pwned{ESC}\\.yaml")])
    assert result.exit_code == ExitCode.USAGE
    assert ESC not in result.output
    assert "\\x1b]0;pwned" in result.output


def test_a_nul_byte_in_a_heat_map_path_is_refused_by_check(tmp_path: Path) -> None:
    # Issue 17 item 4: `check` passed, `run` failed with "ValueError: embedded null byte".
    path = write(tmp_path, with_heatmap("heat\\0.csv"))
    for command in (["check", str(path)], ["run", str(path), "-o", str(tmp_path / "r.html")]):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitCode.INVALID_INPUT, result.output
        where = f"s.yaml:{HEATMAP_LINE}: workloads[0].skew.heatmap"
        assert f"{where}: holds a NUL byte" in result.output


def test_check_names_and_opens_the_heat_maps_it_would_read(tmp_path: Path) -> None:
    # Issue 17 item 5: `check` neither showed nor opened heat maps.
    write(tmp_path, HEAT, "heat.csv")
    path = write(tmp_path, with_heatmap("heat.csv"))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "Files it reads" in result.output
    assert f"{tmp_path.resolve() / 'heat.csv'} (heat map, 3 extents;" in result.output


@pytest.mark.parametrize("secret", ["/etc/passwd", "../secret.csv", "link.csv"])
def test_a_heat_map_outside_the_scenario_s_folder_is_refused(tmp_path: Path, secret: str) -> None:
    # Issue 17 item 5: a scenario naming /etc/shadow or /proc/self/environ printed the first
    # 60 characters of it. Now refused unless allowed, and `check` says so.
    folder = tmp_path / "mailed"
    folder.mkdir()
    write(tmp_path, "password,hunter2,1\n", "secret.csv")
    (folder / "link.csv").symlink_to(tmp_path / "secret.csv")
    path = write(folder, with_heatmap(secret))
    for command in (["check", str(path)], ["run", str(path), "-o", str(tmp_path / "r.html")]):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitCode.INVALID_INPUT, result.output
        assert f"s.yaml:{HEATMAP_LINE}: workloads[0].skew.heatmap: heat map" in result.output
        assert "is outside the scenario's folder" in result.output
        assert "--allow-outside-heatmaps" in result.output
        assert "hunter2" not in result.output
        assert "root:" not in result.output
    assert not (tmp_path / "r.html").exists()


def test_allowed_outside_a_file_that_is_no_heat_map_is_not_echoed(tmp_path: Path) -> None:
    folder = tmp_path / "mailed"
    folder.mkdir()
    write(tmp_path, "password,hunter2,1\nroot,x,0\n", "secret.csv")
    path = write(folder, with_heatmap("../secret.csv"))
    result = runner.invoke(app, ["check", str(path), "--allow-outside-heatmaps"])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "secret.csv, line 1: header must be" in result.output
    assert "hunter2" not in result.output
    assert "password" not in result.output


@pytest.mark.parametrize("system_file", ["/proc/self/environ", "/dev/zero", "/sys/kernel/mm"])
def test_files_of_the_running_system_are_refused_even_when_allowed(
    tmp_path: Path, system_file: str
) -> None:
    path = write(tmp_path, with_heatmap(system_file))
    result = runner.invoke(app, ["check", str(path), "--allow-outside-heatmaps"])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "a file of the running system" in result.output


def test_allowed_outside_check_reads_the_heat_map(tmp_path: Path) -> None:
    write(tmp_path, HEAT, "heat.csv")
    folder = tmp_path / "mailed"
    folder.mkdir()
    path = write(folder, with_heatmap("../heat.csv"))
    result = runner.invoke(app, ["check", str(path), "--allow-outside-heatmaps"])
    assert result.exit_code == 0, result.output
    assert "(heat map, 3 extents;" in result.output


def test_allowed_outside_run_reads_the_heat_map(tmp_path: Path) -> None:
    write(tmp_path, HEAT, "heat.csv")
    folder = tmp_path / "mailed"
    folder.mkdir()
    path = write(folder, with_heatmap("../heat.csv"))
    out = str(tmp_path / "r.html")
    result = runner.invoke(app, ["run", str(path), "-o", out, "--allow-outside-heatmaps"])
    assert result.exit_code == 0, result.output


def test_a_heat_map_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # Issue 17 item 11: refused with "header must be extent_id,small_io_count,mb, got
    # extent_id,small_io_count,mb" (the BOM invisible in the message).
    (tmp_path / "heat.csv").write_bytes(b"\xef\xbb\xbf" + HEAT.encode("utf-8"))
    path = write(tmp_path, with_heatmap("heat.csv"))
    result = runner.invoke(app, ["run", str(path), "-q", "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output


def test_heat_map_errors_name_the_scenario_s_file_line_and_key(tmp_path: Path) -> None:
    # Issue 17 item 12.
    write(tmp_path, "extent_id,small_io_count,mb\na,x,1\n", "heat.csv")
    path = write(tmp_path, with_heatmap("heat.csv"))
    result = runner.invoke(app, ["run", str(path), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert f"diskmodel: {path}:{HEATMAP_LINE}: workloads[0].skew.heatmap: " in result.output
    assert "heat.csv, line 2: small_io_count 'x' is not a number" in result.output


def test_out_json_same_file_writes_neither(tmp_path: Path) -> None:
    # Issue 17 item 7.
    for out, js in (("x", "x"), ("r/x", "./r/x")):
        args = ["--out", f"{tmp_path}/{out}", "--json", f"{tmp_path}/{js}"]
        result = runner.invoke(app, ["run", str(SCENARIOS[0]), *args])
        assert result.exit_code == ExitCode.OUTPUT_REFUSED, result.output
    assert list(tmp_path.iterdir()) == []


def test_out_a_new_folder_writes_inside_it(tmp_path: Path) -> None:
    # Issue 17 item 12: `--out newdir/` wrote a file named `newdir`.
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--out", f"{tmp_path}/newdir/"])
    assert result.exit_code == 0, result.output
    written = tmp_path / "newdir" / f"{SCENARIOS[0].stem}.html"
    assert written.is_file()
    assert f"wrote {written}" in result.output


def test_ctrl_c_exits_130_with_a_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Issue 17 item 12: SIGINT exited 130 with no message.
    import diskmodel.api

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(diskmodel.api, "predict", interrupted)
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 130
    assert "diskmodel: interrupted" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_bug_is_reported_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import diskmodel.api

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(diskmodel.api, "predict", broken)
    result = runner.invoke(app, ["run", str(SCENARIOS[0])])
    assert result.exit_code == ExitCode.INTERNAL
    assert "internal error (a bug); please report it" in result.output


# ------------------------------------------------------- issue 16: command-line conventions


def test_json_dash_goes_to_stdout_and_the_summary_to_stderr(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--json", "-", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["configurations"]
    assert f"wrote {out}" in result.stderr
    assert out.is_file()


def test_out_dash_writes_the_report_to_stdout(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--out", "-", "-q"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>")
    assert result.stderr == ""


def test_only_one_result_can_go_to_stdout() -> None:
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "--out", "-", "--json", "-"])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED
    assert "only one result can go to standard output" in result.output


@pytest.mark.parametrize(("flag", "name"), [("--out", "r.pdf"), ("--json", "r.csv")])
def test_a_mismatched_extension_is_refused_before_the_work(
    tmp_path: Path, flag: str, name: str
) -> None:
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), flag, str(tmp_path / name)])
    assert result.exit_code == ExitCode.OUTPUT_REFUSED
    assert f"{flag} writes the" in result.output
    assert list(tmp_path.iterdir()) == []


def test_quiet_prints_nothing_but_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(SCENARIOS[0]), "-q", "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0
    assert result.output == ""
    check = runner.invoke(app, ["check", str(SCENARIOS[0]), "--quiet"])
    assert (check.exit_code, check.output) == (0, "")


def test_shell_completion_is_on() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.output


def test_heat_maps_are_bounded_per_run_not_only_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 17 item 6: each heat map is bounded (50 MB), but 64 workloads could each name their
    # own; the extents read in one run are bounded in all. Shown here with the bound lowered
    # to 5 extents: two 3-extent maps are over it, one map alone is not.
    import diskmodel.configuration.resolution

    monkeypatch.setattr(diskmodel.configuration.resolution, "MAX_HEATMAP_EXTENTS", 5)
    write(tmp_path, HEAT, "a.csv")
    write(tmp_path, HEAT, "b.csv")
    one = with_heatmap("a.csv")
    second = one.replace("  - name: oltp", "  - name: oltp2", 1).split("workloads:\n", 1)[1]
    two = with_heatmap("a.csv") + second.replace('heatmap: "a.csv"', 'heatmap: "b.csv"')
    two = two.replace("capacity_gb: 1000", "capacity_gb: 500")
    out = str(tmp_path / "r.html")
    assert runner.invoke(app, ["run", str(write(tmp_path, one)), "-o", out]).exit_code == 0
    result = runner.invoke(app, ["run", str(write(tmp_path, two, "t.yaml")), "-o", out, "--force"])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "hold 6 extents in all, up to b.csv; diskmodel reads at most 5 per run" in result.output


def test_logwrite_answers_the_striping_question() -> None:
    # Issue 15: `diskmodel logwrite` for quick questions, on the DS8800's catalog path (DOMAIN
    # C6: about 170 us for 1 page, 2.5 ms for 128).
    result = runner.invoke(app, ["logwrite"])
    assert result.exit_code == 0, result.output
    rows = {
        line.split()[0]: line.split()[1:]
        for line in result.output.splitlines()
        if line[:6].strip().replace(",", "").isdigit()
    }
    # A striped one-page commit pays the striping layer's 17 us (log_striping_us, +10%).
    assert rows["1"][:4] == ["168", "185", "185", "185"]
    assert rows["128"] == ["2,499", "1,491", "1,204", "1,511", "4"]
    text = " ".join(result.output.split())  # the plain width may wrap a sentence
    assert "4 stripes beat one from 34 pages per commit" in text
    busy = runner.invoke(app, ["logwrite", "-p", "32", "--utilization", "0.6"])
    assert busy.exit_code == 0, busy.output
    assert "4 stripes beat one from 35 pages per commit" in " ".join(busy.output.split())


def test_logwrite_names_the_systems_when_one_is_unknown() -> None:
    result = runner.invoke(app, ["logwrite", "--system", "ds8900"])
    assert result.exit_code == ExitCode.INVALID_INPUT
    assert "systems: ds8700-941, ds8800-951" in result.output
    assert "Traceback" not in result.output
    slower = runner.invoke(app, ["logwrite", "--system", "ds8700-941", "-p", "128"])
    assert slower.exit_code == 0, slower.output
    assert "24.58 us per page" in slower.output  # a 4 Gb/s port, the copy scaled by clock


def test_logwrite_refuses_a_page_count_below_one() -> None:
    result = runner.invoke(app, ["logwrite", "--pages", "0"])
    assert result.exit_code == ExitCode.USAGE
    assert "Traceback" not in result.output


def test_check_and_run_list_the_defaults_applied(tmp_path: Path) -> None:
    """Issue 13 item 3 / issue 16 item 4: every input left out is listed with the value used,
    in `check` (with why) and in the text summary of `run` (read at a fixed width: how the
    cells wrap depends on the width the output has)."""
    import diskmodel
    from diskmodel.catalog import load_catalog
    from diskmodel.configuration import defaults_used
    from diskmodel.report.check_text import render_check
    from diskmodel.report.table import Output
    from diskmodel.report.text import render

    scenario = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    loaded = diskmodel.load_scenario(scenario)
    wide = Output(terminal=False, width=200)
    system = load_catalog().systems[loaded.system.model]
    checked = render_check(loaded, defaults=defaults_used(loaded, system), output=wide)
    assert "Defaults applied" in checked
    assert "workloads.oltp.read_sequential_fraction" in checked
    assert "no sequential reads" in checked
    summary = render(diskmodel.predict(loaded, base_dir=scenario.parent), wide)
    assert "Defaults applied" in summary
    assert "workloads.oltp.write_sequential_fraction" in summary
    ran = runner.invoke(app, ["check", str(scenario)])
    assert ran.exit_code == 0, ran.output
    assert "Defaults applied" in ran.output


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_check_and_logwrite_cite_publications_not_a_file_users_lack(path: Path) -> None:
    """Issue 31 item 6: `check`'s defaults and `logwrite --help` cited "DOMAIN.md", a file no
    user has; they name the publications (IBM's measurement of Db2 log writes, its "DB Open"
    workload)."""
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "DOMAIN" not in checked.output
    helped = runner.invoke(app, ["logwrite", "--help"])
    assert "DOMAIN" not in helped.output
    assert "IBM measured Db2 log writes on a DS8800" in " ".join(helped.output.split())


COMMANDS = [
    ["catalog", "list"],
    ["catalog", "show"],
    ["check"],
    ["run"],
    ["compare"],
    ["logwrite"],
    ["import"],
    ["calibrate"],
    ["size"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_names_its_values_and_shows_an_example(command: list[str]) -> None:
    """Issue 31 item 8: `--help` showed typer's type labels (`<list[int]>`, `<float range>`,
    `<str>`) where a planner needs what to write, and no example."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert not re.search(r"<(?:list\[|str|int|float|path|file|bool)", result.output)
    assert re.search(r"Examples?:\n\s+diskmodel ", result.output)


def test_import_and_size_are_quiet_when_asked(tmp_path: Path) -> None:
    """`--quiet` was only on run, compare and check (issue 31 item 8)."""
    week = ROOT / "scenarios" / "measured" / "ds8800-week.csv"
    imported = runner.invoke(app, ["import", str(week), "-q"])
    assert imported.exit_code == 0, imported.output
    assert imported.stderr == ""
    assert imported.stdout.lstrip().startswith(("#", "workloads"))
    sized = runner.invoke(
        app, ["size", str(ROOT / "scenarios" / "ds8800-size-for-growth.yaml"), "-q"]
    )
    assert sized.exit_code == 0, sized.output
    assert sized.output == ""
