"""The z/OS rules that span the system and the workloads are the scenario's: `diskmodel check`
refuses what `diskmodel run` refuses, with the same one message naming the file, the line and
the key (before, `check` called a scenario naming an unknown LCU valid and `run` refused it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel.catalog import load_catalog
from diskmodel.cli import app
from diskmodel.configuration import resolve
from diskmodel.errors import ExitCode, InputError
from diskmodel.scenario import Scenario

from ..conftest import ROOT
from .zos_builders import zos_data, zos_scenario

runner = CliRunner()
SIZING = (ROOT / "scenarios" / "ds8800-zos-ficon-sizing.yaml").read_text(encoding="utf-8")
LCUS = "    zos: {lcus: [lcu-40, lcu-41]"
AIX = """  - name: aix
    pool: ckd
    {load}
    read_fraction: 0.7
    read_hit_ratio: 0.5
    capacity_gb: 500
"""


def with_open_workload(text: str, load: str) -> str:
    """`text` with an open-systems workload after the z/OS ones (before `service_level`)."""
    return text.replace("service_level:", AIX.format(load=load) + "service_level:")


CASES = {
    "unknown LCU": (
        SIZING.replace(LCUS, "    zos: {lcus: [lcu-40, lcu-99]"),
        "lcu-99",
        "workloads[1].zos.lcus[1]: unknown LCU 'lcu-99' (system.lcus: lcu-00, lcu-01, lcu-02, "
        "lcu-03, lcu-40, lcu-41)",
    ),
    # 128 3390-54 volumes in half-track records hold 7,044 GB.
    "data larger than its volumes": (
        SIZING.replace("capacity_gb: 6000", "capacity_gb: 8000"),
        "capacity_gb: 8000",
        "workloads[1].capacity_gb: 8,000 GB on 128 3390-54 volumes that hold 7,044 GB in "
        "records of 27,998 bytes; give more volumes or a larger volume_model",
    ),
    "too many addresses in an LCU": (
        SIZING.replace(
            "{name: lcu-40, pav: hyperpav, aliases: 48}",
            "{name: lcu-40, pav: hyperpav, aliases: 200}",
        ),
        "aliases: 200",
        "system.lcus[4]: LCU 'lcu-40' has 64 base volumes + 200 aliases = 264 addresses; an "
        "LCU has 256",
    ),
    "a closed workload beside z/OS ones": (
        with_open_workload(
            SIZING.replace("zhpf: true}", "zhpf: true, host_ports: 8}"), "queue_depth: 16"
        ),
        "- name: aix",
        "workloads[2]: workload 'aix' is closed (queue_depth, users or ios_per_transaction) "
        "beside z/OS workloads; a scenario with z/OS workloads has open workloads only (given "
        "by 'iops'), as its device queues are solved at the open rates",
    ),
    "no port left for open systems": (
        with_open_workload(SIZING, "iops: 1000"),
        "  ficon:",
        "system.ficon.host_ports: all 16 host ports are FICON, and workloads[2] ('aix') is an "
        "open-systems workload (FCP); give system.ficon.host_ports fewer FICON ports",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_check_and_run_refuse_alike_naming_file_line_and_key(case: str, tmp_path: Path) -> None:
    text, marker, message = CASES[case]
    assert text != SIZING
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if marker in row)
    html = tmp_path / "r.html"
    for command in (["check", str(path)], ["run", str(path), "-o", str(html)]):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitCode.INVALID_INPUT, result.output
        assert "Traceback" not in result.output
        assert f"s.yaml:{line}: {message}" in result.output
        assert result.output.count("s.yaml:") == 1  # one message
    assert not html.exists()


def test_the_shipped_z_os_scenarios_are_valid() -> None:
    for path in sorted((ROOT / "scenarios").glob("ds8800-zos-*.yaml")):
        result = runner.invoke(app, ["check", str(path)])
        assert result.exit_code == 0, result.output
        assert "valid" in result.output


def test_a_z_os_workload_without_ficon_is_named() -> None:
    data = zos_data()
    del data["system"]["ficon"]
    data["system"]["lcus"] = []
    with pytest.raises(ValueError, match=r"workloads\[0\]\.zos: workload 'db2' is a z/OS"):
        Scenario.model_validate(data, context={"catalog": load_catalog()})


def test_a_copy_not_validated_again_is_held_to_the_same_rules() -> None:
    # A corner of a scenario's ranges or a calibrated copy is not validated again; the
    # configuration asks the same rules and stops at the first, as one InputError.
    scenario = zos_scenario()
    workload = scenario.workloads[0]
    assert workload.zos is not None
    copy = scenario.model_copy(
        update={
            "workloads": [
                workload.model_copy(update={"zos": workload.zos.model_copy(update={"lcus": ["b"]})})
            ]
        }
    )
    with pytest.raises(InputError, match=r"^workloads\[0\]\.zos\.lcus\[0\]: unknown LCU 'b'"):
        resolve(copy, load_catalog())
