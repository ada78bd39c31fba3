"""z/OS through the command line: the shipped z/OS scenarios run and show RMF's components,
an RMF CSV imports into a scenario that runs, and calibrate fits the shipped RMF sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from diskmodel.cli import app

from ..conftest import ROOT

runner = CliRunner()
SCENARIOS = ROOT / "scenarios"
SAMPLE = SCENARIOS / "measured" / "zos-rmf-sample.csv"
ZOS_SCENARIOS = sorted(SCENARIOS.glob("ds8800-zos-*.yaml"))


def test_three_z_os_scenarios_are_shipped() -> None:
    assert [p.stem for p in ZOS_SCENARIOS] == [
        "ds8800-zos-alias-sweep",
        "ds8800-zos-ficon-sizing",
        "ds8800-zos-oltp-hyperpav",
    ]


@pytest.mark.parametrize("path", ZOS_SCENARIOS, ids=lambda p: p.stem)
def test_a_z_os_scenario_runs_and_reports_rmf_components(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    result = runner.invoke(
        app,
        ["run", str(path), "--no-timestamp", "-o", str(tmp_path / "r.html"), "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "IOSQ" in result.output
    assert "FICON channels" in result.output
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "response time as RMF reports it" in html
    data = json.loads(out.read_text(encoding="utf-8"))
    for config in data["configurations"]:
        assert any(c["kind"] == "channel" for c in config["components"])
        for w in config["workloads"]:
            rmf = w["rmf"]
            total = rmf["iosq_ms"] + rmf["pend_ms"] + rmf["disc_ms"] + rmf["conn_ms"]
            assert total == pytest.approx(w["response_time_ms"], rel=1e-9)


def test_the_alias_sweep_lowers_iosq_as_aliases_are_added(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    path = SCENARIOS / "ds8800-zos-alias-sweep.yaml"
    result = runner.invoke(
        app, ["run", str(path), "--quiet", "-o", str(tmp_path / "r.html"), "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    configs = {
        c["name"]: c["workloads"][0]["rmf"] for c in json.loads(out.read_text())["configurations"]
    }
    static = [configs[f"static PAV, {n} aliases"]["iosq_ms"] for n in (8, 16, 32)]
    base = next(iter(configs.values()))["iosq_ms"]
    assert base > static[0] > static[1] > static[2]
    assert configs["HyperPAV, 8 aliases"]["iosq_ms"] < static[0]


def test_an_rmf_csv_imports_into_a_scenario_that_runs(tmp_path: Path) -> None:
    hardware = tmp_path / "hardware.yaml"
    hardware.write_text(
        "system: {model: ds8800-951, cache_gb: 256, host_ports: 16, da_pairs: 4}\n"
        "pools:\n  - name: ckd\n    easy_tier: 'off'\n"
        "    ranks: [{drive: 15k-300, raid: raid5-7+p, count: 32}]\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["import", str(SAMPLE), "-p", "io", "--config", str(hardware)])
    assert result.exit_code == 0, result.output
    scenario = tmp_path / "imported.yaml"
    scenario.write_text(result.stdout, encoding="utf-8")
    assert "zos:" in result.stdout
    assert "iops: 34000" in result.stdout  # the busiest interval's rate
    run = runner.invoke(app, ["run", str(scenario), "--quiet", "-o", str(tmp_path / "r.html")])
    assert run.exit_code == 0, run.output


def test_calibrate_fits_the_shipped_rmf_sample(tmp_path: Path) -> None:
    # The sample was made by the model at front-end 170 us, PEND 55 us and a destage ratio of
    # 0.45 for db2-oltp (docs/zos.md); the fit finds them from the shipped scenario's values.
    out = tmp_path / "calibrated.yaml"
    result = runner.invoke(
        app,
        [
            "calibrate",
            str(SCENARIOS / "ds8800-zos-oltp-hyperpav.yaml"),
            "--measured",
            str(SAMPLE),
            "-p",
            "all",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "front_end_latency_us: 169.9" in text or "front_end_latency_us: 170" in text
    assert "pend_light_us: 55" in text or "pend_light_us: 54.9" in text
    assert "destage_ratio: 0.45" in text
    # batch-read's few, mostly sequential writes hardly move its DISC: its destage ratio is
    # not pinned by the components, so the scenario keeps its own (none given: the default).
    assert "not pinned" in result.output
    batch = text[text.index("name: batch-read") :]
    assert "destage_ratio" not in batch


@pytest.mark.parametrize("path", ZOS_SCENARIOS, ids=lambda p: p.stem)
def test_check_names_the_channels_on_one_line_above_the_lcus(path: Path) -> None:
    result = runner.invoke(app, ["check", str(path)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    (channels,) = [line for line in lines if line.startswith("z/OS: ")]
    assert channels.endswith(" FICON ports")
    assert lines.index("z/OS LCUs") > lines.index(channels)
