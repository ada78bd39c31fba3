"""Concurrent runs writing one output (issue 33 item 6): a run that exits 4 could leave its
JSON beside another run's HTML (seen in 2 of about 200 rounds). The interleavings are made
here on purpose, at each step of one run, so the outcome does not depend on the scheduler's
luck: whatever the order, the JSON and the HTML on disk come from one run."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import diskmodel.output.writing as output_module
from diskmodel.errors import OutputError
from diskmodel.output import HTML, JSON, Output, write_outputs
from tests.support.budget import fuzz_settings


def _pair(folder: Path, run: str, formats: str = "both") -> list[Output]:
    """The files one run writes, each saying which run wrote it."""
    json = Output(folder / "r.json", f'{{"generator": "diskmodel 0", "run": "{run}"}}', JSON)
    html = Output(
        folder / "r.html",
        f'<!doctype html><html><head><meta name="generator" content="diskmodel 0">'
        f"<title>{run}</title></head><body></body></html>",
        HTML,
    )
    return {"both": [json, html], "json": [json], "html": [html]}[formats]


def _runs_on_disk(folder: Path) -> tuple[str | None, str | None]:
    """Which run wrote the JSON and which the HTML (None: no such file)."""
    json = folder / "r.json"
    html = folder / "r.html"
    j = json.read_text(encoding="utf-8").split('"run": "')[1][0] if json.exists() else None
    h = html.read_text(encoding="utf-8").split("<title>")[1][0] if html.exists() else None
    return j, h


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".diskmodel-"))


def test_a_run_whose_html_was_replaced_meanwhile_leaves_no_json_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The defect's interleaving, made deterministic: run A checks both files (earlier
    reports, so it may replace them), run B then writes its HTML, and A moves its files into
    place. A used to replace the JSON before finding the HTML changed, exit 4 with its JSON
    beside B's HTML; now A checks every target again before moving any, and leaves both."""
    write_outputs(_pair(tmp_path, "0"))
    stage = output_module._stage
    raced: list[bool] = []

    def stage_then_race(target: Any, text: str) -> str:
        temp = stage(target, text)
        if not raced:
            raced.append(True)
            write_outputs(_pair(tmp_path, "B", "html"))
        return temp

    monkeypatch.setattr(output_module, "_stage", stage_then_race)
    with pytest.raises(OutputError, match=r"r\.html: changed while the report was written"):
        write_outputs(_pair(tmp_path, "A"))
    assert _runs_on_disk(tmp_path) == ("0", "B")
    assert _leftovers(tmp_path) == []


def test_a_failure_after_a_replacement_restores_the_earlier_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both or neither, for replaced files too: when moving the HTML fails after the JSON
    replaced an earlier one, the earlier JSON is put back."""
    write_outputs(_pair(tmp_path, "0"))
    commit = output_module._commit

    def fail_on_html(target: Any, temp: str) -> str | None:
        if target.path.suffix == ".html":
            raise OSError(28, "No space left on device")
        return commit(target, temp)

    monkeypatch.setattr(output_module, "_commit", fail_on_html)
    with pytest.raises(OutputError, match="No space left on device"):
        write_outputs(_pair(tmp_path, "A"))
    assert _runs_on_disk(tmp_path) == ("0", "0")
    assert _leftovers(tmp_path) == []


def test_a_second_run_waits_for_the_first_to_put_its_files_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run B starts while run A is between its two files; B waits for A's lock (seen by the
    lock call it makes), then finds what A left: the pair on disk is one run's."""
    write_outputs(_pair(tmp_path, "0"))
    waiting = threading.Event()
    lock = output_module._folders_locked
    commit = output_module._commit
    other: list[BaseException | None] = []

    def announced(folders: Any) -> Any:
        if threading.current_thread().name == "run B":
            waiting.set()
        return lock(folders)

    def run_b() -> None:
        try:
            write_outputs(_pair(tmp_path, "B"))
            other.append(None)
        except OutputError as exc:
            other.append(exc)

    thread = threading.Thread(target=run_b, name="run B")

    def commit_then_start_b(target: Any, temp: str) -> str | None:
        kept = commit(target, temp)
        if target.path.suffix == ".json" and not thread.is_alive():
            thread.start()
            assert waiting.wait(60), "run B never asked for the lock"
        return kept

    monkeypatch.setattr(output_module, "_folders_locked", announced)
    monkeypatch.setattr(output_module, "_commit", commit_then_start_b)
    write_outputs(_pair(tmp_path, "A"))
    thread.join()
    winner = "A" if other[0] is not None else "B"
    assert _runs_on_disk(tmp_path) == (winner, winner)
    assert _leftovers(tmp_path) == []


STEPS = ("_stage", "_put_in_place", "_commit")


@pytest.mark.fuzz
@fuzz_settings(40)
@given(
    step=st.sampled_from(STEPS),
    earlier=st.booleans(),
    b_writes=st.sampled_from(["both", "json", "html"]),
    b_waits=st.booleans(),
)
def test_whatever_the_interleaving_the_files_on_disk_come_from_one_run(
    tmp_path_factory: pytest.TempPathFactory,
    step: str,
    earlier: bool,
    b_writes: str,
    b_waits: bool,
) -> None:
    """Run B is started at one step of run A (run to its end there, or in a thread that A
    does not wait for); whatever succeeds or fails, every file on disk was written by one
    run that succeeded, or is the earlier one, and no temporary file is left."""
    folder = tmp_path_factory.mktemp("out")
    if earlier:
        write_outputs(_pair(folder, "0"))
    outcome: dict[str, bool] = {}

    def run(name: str, formats: str) -> None:
        try:
            write_outputs(_pair(folder, name, formats))
            outcome[name] = True
        except OutputError:
            outcome[name] = False

    thread = threading.Thread(target=run, args=("B", b_writes))
    original = getattr(output_module, step)

    def hooked(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        if not thread.is_alive() and "B" not in outcome and threading.current_thread() != thread:
            thread.start()
            if b_waits and step == "_stage":  # outside the lock: B may run to its end
                thread.join()
        return result

    with _patched(step, hooked):
        run("A", "both")
    if thread.is_alive() or "B" not in outcome:
        thread.join()
    writers = {w for w in _runs_on_disk(folder) if w is not None}
    succeeded = {name for name, ok in outcome.items() if ok}
    assert writers <= succeeded | ({"0"} if earlier else set()), (writers, outcome)
    json, html = _runs_on_disk(folder)
    if outcome["A"] and not (outcome["B"] and b_writes != "both"):
        assert json == html  # A's pair, or B's pair written after it
    assert _leftovers(folder) == []


@contextlib.contextmanager
def _patched(name: str, replacement: Callable[..., Any]) -> Iterator[None]:
    """`diskmodel.output.writing.NAME` replaced for the duration of a `with` (a hypothesis test
    cannot take pytest's function-scoped monkeypatch)."""
    saved = getattr(output_module, name)
    setattr(output_module, name, replacement)
    try:
        yield
    finally:
        setattr(output_module, name, saved)
