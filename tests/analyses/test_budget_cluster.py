"""The work bound of a sizing search sent to a Dask cluster (issue 30 item 3: "the scheduler
address is the only thing a user gives"): the search is spread over the cluster's workers,
not this machine's processes, so a space too large for two cores is accepted by a cluster
large enough for it, and refused by one too small with the workers counted in the message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from diskmodel.analyses import budget
from diskmodel.catalog import load_catalog
from diskmodel.cli import app
from diskmodel.errors import ExitCode
from diskmodel.scenario import Scenario
from tests.support.dask import local_cluster

from ..conftest import ROOT

LARGE = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"


def _wider() -> dict[str, Any]:
    """The shipped large space with twice the host port counts and two cache sizes (425,984
    configurations): over the bound on two cores."""
    data: dict[str, Any] = yaml.safe_load(LARGE.read_text(encoding="utf-8"))
    data["analyses"]["size"]["host_ports"] = list(range(4, 68, 4))
    data["analyses"]["size"]["cache_gb"] = [128, 256]
    return data


def test_a_cluster_spreads_the_search_over_its_workers() -> None:
    catalog = load_catalog()
    scenario = Scenario.model_validate(_wider(), context={"catalog": catalog})
    alone = budget.estimate(scenario, catalog, cluster=1)
    wide = budget.estimate(scenario, catalog, cluster=64)
    assert alone.seconds == wide.seconds  # the same work, spread differently
    assert alone.spread_s > 0
    assert wide.wall_s == pytest.approx(wide.seconds - wide.spread_s + wide.spread_s / 64)
    assert alone.too_much
    assert not wide.too_much
    (message,) = budget.work_problems(scenario, catalog, cluster=2)
    assert "over 2 cores of cluster workers" in message
    assert list(budget.work_problems(scenario, catalog, cluster=64)) == []


def test_size_with_a_scheduler_bounds_by_the_cluster_s_workers(tmp_path: Path) -> None:
    """Through the command: the cluster is asked its workers before the scenario is loaded,
    and the refusal counts them."""
    pytest.importorskip("distributed")
    path = tmp_path / "wider.yaml"
    path.write_text(yaml.safe_dump(_wider(), sort_keys=False))
    with local_cluster(2) as two:
        result = CliRunner().invoke(app, ["size", str(path), "--scheduler", two.scheduler_address])
    assert result.exit_code == ExitCode.INVALID_INPUT, result.output
    assert "over 2 cores of cluster workers" in result.output
    assert "Traceback" not in result.output
