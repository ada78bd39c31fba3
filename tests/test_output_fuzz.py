"""Fuzzed output paths: every file a command writes goes through one path, checked here.

A folder is filled with whatever a careless or hostile setup can hold where a report is to be
written: foreign files, earlier reports, pages that merely quote the generator mark, symbolic
links (to foreign files, to earlier reports, to /proc/self/fd/1, dangling, to folders),
folders, named pipes. Two outputs are aimed at names drawn from it (with `./`, `//`, a
trailing `/`, `-`, too-long and odd names), with and without --force. Every case ends in both
files written or in one `OutputError` with nothing changed; a link, a pipe or a folder is
never replaced, a file outside the folder never touched, a foreign file replaced only with
--force, and no temporary file left behind.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from diskmodel.errors import OutputError
from diskmodel.output import HTML, JSON, Output, output_path, write_outputs

from .support.budget import fuzz_settings

pytestmark = pytest.mark.fuzz

REPORT = '<!DOCTYPE html><html><head><meta name="generator" content="diskmodel 9"></head>'
RESULT = '{\n  "schema_version": 1,\n  "generator": "diskmodel 9"\n}\n'
EARLIER_REPORT = REPORT.replace("diskmodel 9", "diskmodel 0.1.0")
QUOTING_PAGE = '<!DOCTYPE html><html><head><!-- <meta name="generator" content="diskmodel"> -->'
FOREIGN = "someone's spreadsheet"

KINDS = [
    "absent",
    "foreign",
    "earlier",
    "quoting",
    "folder",
    "fifo",
    "link-foreign",
    "link-earlier",
    "link-stdout",
    "link-dangling",
    "link-folder",
]
NAMES = ["a.html", "b.json", "c", "d.htm", "e.json", "f"]


def _make(folder: Path, outside: Path, name: str, kind: str) -> None:
    path = folder / name
    if kind == "foreign":
        path.write_text(FOREIGN, encoding="utf-8")
    elif kind == "earlier":
        path.write_text(EARLIER_REPORT, encoding="utf-8")
    elif kind == "quoting":
        path.write_text(QUOTING_PAGE, encoding="utf-8")
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-foreign":
        path.symlink_to(outside / "foreign.txt")
    elif kind == "link-earlier":
        path.symlink_to(outside / "earlier.html")
    elif kind == "link-stdout":
        path.symlink_to("/proc/self/fd/1")
    elif kind == "link-dangling":
        path.symlink_to(outside / "nothing-here")
    elif kind == "link-folder":
        path.symlink_to(outside)


def _snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Every entry under `root`: its kind and, for a file, its content; a link's target."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            info = os.lstat(path)
            key = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                out[key] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                out[key] = ("file", path.read_text(encoding="utf-8", errors="replace"))
            elif stat.S_ISDIR(info.st_mode):
                out[key] = ("folder", "")
            else:
                out[key] = ("special", "")
    return out


spellings = st.sampled_from(["{}", "./{}", "{}/", ".//{}", "sub/../{}"])
raw_names = st.one_of(
    st.builds(lambda n, s: s.format(n), st.sampled_from(NAMES), spellings),
    st.sampled_from(["-", "new.html", "new.json", "newdir/", "x" * 256 + ".html", "r.pdf"]),
    st.text(st.characters(exclude_characters="\0/"), min_size=1, max_size=12),
)


@fuzz_settings(ci_examples=100)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=len(NAMES), max_size=len(NAMES)),
    html_raw=raw_names,
    json_raw=raw_names,
    force=st.booleans(),
)
def test_output_paths_are_written_whole_or_not_at_all(
    kinds: list[str], html_raw: str, json_raw: str, force: bool
) -> None:
    with tempfile.TemporaryDirectory() as name:
        root = Path(name)
        folder, outside = root / "work", root / "outside"
        folder.mkdir()
        outside.mkdir()
        (outside / "foreign.txt").write_text(FOREIGN, encoding="utf-8")
        (outside / "earlier.html").write_text(EARLIER_REPORT, encoding="utf-8")
        (folder / "sub").mkdir()
        for entry, kind in zip(NAMES, kinds, strict=True):
            _make(folder, outside, entry, kind)
        before = _snapshot(root)
        cwd = os.getcwd()
        os.chdir(folder)
        written: list[str] = []
        try:
            try:
                planned = [
                    Output(output_path(json_raw, JSON, "s"), RESULT, JSON),
                    Output(output_path(html_raw, HTML, "s"), REPORT, HTML),
                ]
                write_outputs(planned, force=force, stdout=written.append)
            except OutputError as error:
                message = str(error)
                assert message.strip()
                assert "Traceback" not in message
                event(f"refused: {message.split(': ', 2)[-1][:40]}")
                assert _snapshot(root) == before, "a refused write changed something"
                return
        finally:
            os.chdir(cwd)
        event("written")
        after = _snapshot(root)
        targets = {
            str((folder / out.path).resolve().relative_to(root)): out.text
            for out in planned
            if out.path is not None
        }
        assert written == [out.text for out in planned if out.path is None]
        for key, (kind, content) in before.items():
            if key in targets:
                # Only a regular file was replaced: ours, or a foreign one with --force.
                assert kind == "file", (key, kind)
                assert force or "diskmodel" in content, key
            else:
                assert after.get(key) == (kind, content), f"{key} changed"
        for key, text in targets.items():
            assert after[key] == ("file", text), key
        leftovers = [k for k in after if k not in before and k not in targets]
        assert all(after[k][0] == "folder" for k in leftovers), leftovers
