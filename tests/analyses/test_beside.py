"""Work done in a forked process beside the caller's (`analyses.beside`): the same value as the
caller's own, and the caller's own whenever the fork gives none."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diskmodel import api
from diskmodel.analyses import beside
from diskmodel.analyses.beside import Beside
from diskmodel.analyses.scenario import predict_scenario
from diskmodel.prediction import ScenarioPrediction
from diskmodel.report.json_result import to_json

from ..conftest import ROOT


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beside.os, "cpu_count", lambda: 2)


def test_the_work_runs_in_another_process_and_its_value_comes_back() -> None:
    here = os.getpid()
    found = Beside(lambda: (os.getpid(), [1.5, "a"], {"k": (2, None)})).result()
    assert found[0] != here
    assert found[1:] == ([1.5, "a"], {"k": (2, None)})


def test_on_one_core_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beside.os, "cpu_count", lambda: 1)
    assert Beside(os.getpid).result() == os.getpid()


def test_an_error_is_raised_here_by_the_work_done_again() -> None:
    calls = []

    def work() -> None:
        calls.append(os.getpid())
        raise ValueError("the work's own error")

    with pytest.raises(ValueError, match="the work's own error"):
        Beside(work).result()
    assert calls == [os.getpid()]  # the fork's attempt is not the caller's


def test_a_process_that_dies_leaves_the_work_to_the_caller() -> None:
    here = os.getpid()

    def work() -> int:
        if os.getpid() != here:
            os._exit(3)  # dies without answering
        return 42

    assert Beside(work).result() == 42


def test_a_value_that_cannot_be_sent_is_made_here() -> None:
    here = os.getpid()
    value = Beside(lambda: (os.getpid(), lambda: None)).result()
    assert value[0] == here


def test_the_catalog_band_beside_is_the_one_made_here() -> None:
    path = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    scenario = api.load_scenario(path)
    alone = to_json(predict_scenario(scenario, None, path.parent))
    assert to_json(predict_scenario(scenario, None, path.parent, beside=True)) == alone


def test_what_the_caller_wrote_before_is_written_once(tmp_path: Path) -> None:
    """Output the caller had not flushed when the work started is not written by the fork."""
    script = (
        "import sys\n"
        "from diskmodel.analyses import beside\n"
        "beside.os.cpu_count = lambda: 2\n"
        "sys.stdout.write('before\\n')\n"
        "print(beside.Beside(lambda: 7).result())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout == "before\n7\n"


def test_meanwhile_sees_everything_but_the_catalog_band_before_it_is_waited_for() -> None:
    """`meanwhile` (where `diskmodel run` hands its charts over) gets the prediction the run
    returns, short of the baseline's catalog band only."""
    path = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
    scenario = api.load_scenario(path)
    seen: list[ScenarioPrediction] = []
    final = predict_scenario(scenario, None, path.parent, beside=True, meanwhile=seen.append)
    (early,) = seen
    assert early.baseline.catalog_band is None
    assert final.baseline.catalog_band is not None
    assert (
        dataclasses.replace(final, baseline=dataclasses.replace(final.baseline, catalog_band=None))
        == early
    )


def test_tickets_are_each_taken_once_across_the_fork() -> None:
    """Numbers taken by a fork and by its caller at the same time: every one taken, by one."""
    from diskmodel.analyses.beside import Tickets

    tickets = Tickets(400)
    theirs = Beside(lambda: list(tickets))
    mine = list(tickets)
    taken = theirs.result() + mine
    assert sorted(taken) == list(range(400))
    assert not tickets.left
    assert list(tickets) == []


def test_before_bands_sees_each_configuration_as_returned_but_its_bands() -> None:
    """`before_bands` (where `diskmodel run` hands the charts that do not read the bands) gets
    every configuration's prediction, the baseline first, as the run returns it short of its
    band over the input ranges and the catalog band."""
    path = ROOT / "scenarios" / "ds8800-global-mirror-week.yaml"
    scenario = api.load_scenario(path)
    seen: list[list[object]] = []
    final = predict_scenario(
        scenario, None, path.parent, catalog_bands=False, before_bands=lambda p: seen.append(p)
    )
    (early,) = seen
    assert final.baseline.band is not None
    assert early == [dataclasses.replace(p, band=None) for p in final.configurations]
