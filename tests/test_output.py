"""Output files: atomic, and never over a file diskmodel did not write unless forced."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from diskmodel.errors import ExitCode, OutputError
from diskmodel.output import (
    HTML,
    JSON,
    Format,
    Output,
    check_output_path,
    check_outputs,
    is_diskmodel_output,
    marked_as_ours,
    output_path,
    write_output,
    write_outputs,
)
from diskmodel.output import writing as output_module

REPORT = '<!doctype html><html><head><meta name="generator" content="diskmodel 0.1.0">'


def test_writes_new_file_and_parents(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "r.html"
    write_output(target, REPORT)
    assert target.read_text(encoding="utf-8") == REPORT
    assert is_diskmodel_output(target)


def test_replaces_an_earlier_report(tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    target.write_text(REPORT + "old", encoding="utf-8")
    write_output(target, REPORT + "new")
    assert target.read_text(encoding="utf-8").endswith("new")


def test_refuses_a_foreign_file_without_force(tmp_path: Path) -> None:
    target = tmp_path / "budget.xlsx"
    target.write_bytes(b"precious")
    with pytest.raises(OutputError, match="--force") as info:
        write_output(target, REPORT)
    assert info.value.exit_code == ExitCode.OUTPUT_REFUSED
    assert target.read_bytes() == b"precious"
    write_output(target, REPORT, force=True)
    assert target.read_text(encoding="utf-8") == REPORT


def test_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a folder"):
        write_output(tmp_path, REPORT)


def test_no_temporary_file_left_behind(tmp_path: Path) -> None:
    write_output(tmp_path / "r.json", '{"generator": "diskmodel 0.1.0"}')
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_report_gets_ordinary_file_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        target = write_output(tmp_path / "r.html", REPORT)
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


# ------------------------------------------------- issue 17: hostile output paths (regressions)


def test_a_symlink_is_never_replaced_nor_written_through(tmp_path: Path) -> None:
    # Issue 17 item 1: `--json out/stdout --force` with out/stdout -> /proc/self/fd/1 exited 0
    # and turned the link into a regular file (as root against /dev/stdout, the system's
    # link); without --force when stdout was appended to an earlier diskmodel JSON.
    earlier = tmp_path / "earlier.json"
    earlier.write_text('{"schema_version": 1, "generator": "diskmodel 0.1.0"}', encoding="utf-8")
    for target in ("/proc/self/fd/1", str(earlier)):
        link = tmp_path / "out.json"
        link.unlink(missing_ok=True)
        link.symlink_to(target)
        for force in (False, True):
            with pytest.raises(OutputError, match="is a symbolic link"):
                write_output(link, '{"generator": "diskmodel"}', force=force)
            assert link.is_symlink()
            assert os.readlink(link) == target
    assert "diskmodel 0.1.0" in earlier.read_text(encoding="utf-8")


def test_a_link_to_stdout_points_at_the_dash(tmp_path: Path) -> None:
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    with pytest.raises(OutputError, match="for standard output give -"):
        check_output_path(link, force=True)


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_is_never_replaced(device: str) -> None:
    with pytest.raises(OutputError, match="not a regular file"):
        check_output_path(Path(device), force=True)


def test_a_pipe_is_never_opened_to_look_for_the_mark(tmp_path: Path) -> None:
    fifo = tmp_path / "r.html"
    os.mkfifo(fifo)
    assert not is_diskmodel_output(fifo)  # O_NONBLOCK: returns instead of waiting for a writer
    with pytest.raises(OutputError, match="not a regular file"):
        write_output(fifo, REPORT, force=True)


@pytest.mark.parametrize(
    ("first", "second"),
    [("x", "x"), ("r/x", "./r/x"), ("r/x", "r//x"), ("r/x", "alias/x")],
)
def test_two_names_for_one_file_are_refused(tmp_path: Path, first: str, second: str) -> None:
    # Issue 17 item 7: `--out X --json X` exited 0 and silently lost the JSON.
    (tmp_path / "r").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "r")
    outputs = [
        Output(tmp_path / first, REPORT, HTML),
        Output(tmp_path / second, '{"generator": "diskmodel"}', JSON),
    ]
    with pytest.raises(OutputError, match="would be the same file"):
        write_outputs(outputs)
    assert not (tmp_path / "x").exists()
    assert list((tmp_path / "r").iterdir()) == []
    # The same once the file exists (an earlier report): judged by the file's identity.
    write_output(tmp_path / first, REPORT)
    with pytest.raises(OutputError, match="would be the same file"):
        write_outputs(outputs)


def test_two_results_to_stdout_are_refused() -> None:
    with pytest.raises(OutputError, match="same file"):
        check_outputs([Output(None, "a", HTML), Output(None, "b", JSON)])


def test_a_name_too_long_for_the_file_system_is_one_message(tmp_path: Path) -> None:
    # Issue 17 item 8: a 256-character name was an OSError [Errno 36] traceback.
    target = tmp_path / ("a" * 251 + ".html")
    with pytest.raises(OutputError, match=r"too long for the file system \(256 bytes"):
        write_output(target, REPORT)
    assert list(tmp_path.iterdir()) == []


def test_a_name_of_255_bytes_is_written(tmp_path: Path) -> None:
    target = tmp_path / ("a" * 250 + ".html")  # the temporary file's name stays short
    write_output(target, REPORT)
    assert target.read_text(encoding="utf-8") == REPORT


@pytest.mark.parametrize(
    "head",
    [
        # The mark merely quoted: in a comment, in a script, further down a page, in a
        # JSON string, or as a later key of a nested object.
        '<!DOCTYPE html><html><head><!-- <meta name="generator" content="diskmodel"> -->',
        '<!DOCTYPE html><html><head><script>x = \'<meta name="generator" '
        'content="diskmodel">\'</script></head>',
        '<!DOCTYPE html><html><head></head><body><meta name="generator" content="diskmodel">',
        '<html><meta name="generator" content="diskmodel">',
        '{"note": "\\"generator\\": \\"diskmodel 0.1.0\\""}',
        '{"data": {"generator": "diskmodel 0.1.0"}}',
        'my notes\n"generator": "diskmodel 0.1.0"',
    ],
)
def test_the_mark_counts_only_in_the_file_s_own_head(tmp_path: Path, head: str) -> None:
    # Issue 17 item 9: the mark anywhere in the first 4 KB counted, so a page that quoted it
    # was replaced without --force.
    assert not marked_as_ours(head)
    target = tmp_path / "page.html"
    target.write_text(head, encoding="utf-8")
    with pytest.raises(OutputError, match="--force"):
        write_output(target, REPORT)
    assert target.read_text(encoding="utf-8") == head


@pytest.mark.parametrize(
    "head",
    [
        REPORT,
        "\ufeff" + REPORT,
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="generator" content="diskmodel">\n<title>x</title>',
        '{\n  "schema_version": 1,\n  "generator": "diskmodel 0.1.0",\n  "scenario": "x"',
    ],
)
def test_what_diskmodel_writes_carries_the_mark(head: str) -> None:
    assert marked_as_ours(head)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("r.html", "r.html"),
        ("r.HTM", "r.HTM"),
        ("report", "report"),
        ("report.2024-05", "report.2024-05"),
        ("newdir/", "newdir/s.html"),
    ],
)
def test_output_names(tmp_path: Path, raw: str, expected: str) -> None:
    assert output_path(raw, HTML, "s") == Path(expected)


def test_an_existing_folder_gets_the_default_name_inside(tmp_path: Path) -> None:
    # Issue 17 item 12: `--out newdir/` wrote a file named `newdir`.
    assert output_path(str(tmp_path), JSON, "s") == tmp_path / "s.json"


@pytest.mark.parametrize(("raw", "fmt"), [("r.pdf", HTML), ("r.json", HTML), ("r.html", JSON)])
def test_the_format_follows_the_flag_not_the_extension(raw: str, fmt: Format) -> None:
    with pytest.raises(OutputError, match=rf"{fmt.flag} writes the {fmt.kind}"):
        output_path(raw, fmt, "s")


def test_dash_is_standard_output() -> None:
    assert output_path("-", JSON, "s") is None
    written: list[str] = []
    write_outputs([Output(None, "{}", JSON)], stdout=written.append)
    assert written == ["{}"]


def test_a_failure_half_way_takes_back_the_files_already_written(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file where a folder is needed", encoding="utf-8")
    outputs = [
        Output(tmp_path / "r.json", '{"generator": "diskmodel"}', JSON),
        Output(tmp_path / "blocker" / "r.html", REPORT, HTML),
    ]
    with pytest.raises(OutputError):
        write_outputs(outputs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]


def test_a_file_that_appears_while_writing_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.html"
    stage = output_module._stage

    def stage_then_race(checked, text):  # type: ignore[no-untyped-def]
        temp = stage(checked, text)
        target.write_text("someone else's file", encoding="utf-8")
        return temp

    monkeypatch.setattr(output_module, "_stage", stage_then_race)
    with pytest.raises(OutputError, match="appeared while the report was written"):
        write_output(target, REPORT)
    assert target.read_text(encoding="utf-8") == "someone else's file"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_a_file_swapped_for_a_link_while_writing_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.html"
    target.write_text(REPORT, encoding="utf-8")
    stage = output_module._stage

    def stage_then_swap(checked, text):  # type: ignore[no-untyped-def]
        temp = stage(checked, text)
        target.unlink()
        target.symlink_to("/proc/self/fd/1")
        return temp

    monkeypatch.setattr(output_module, "_stage", stage_then_swap)
    with pytest.raises(OutputError, match="changed while the report was written"):
        write_output(target, REPORT)
    assert target.is_symlink()
