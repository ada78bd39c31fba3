"""The hardware catalog is the project's top-level `hardware_catalog/` (YAML data only), and
`load_catalog` finds it both where the tests run (the editable install `make test` makes, whose
package is the project's own folder) and in a wheel, which carries it inside the package
(pyproject.toml maps it). The wheel is built and installed into a folder of its own, and a fresh
interpreter that can see only it runs the catalog and a prediction (marker `packaging`: a few
seconds; `pytest -m "not packaging"` skips it where pip cannot build a wheel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from diskmodel.catalog import catalog_files, load_catalog
from diskmodel.catalog.loading import shipped_folder

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
PIP = (sys.executable, "-m", "pip", "--disable-pip-version-check")


def test_the_source_tree_reads_the_top_level_catalog() -> None:
    assert Path(str(shipped_folder())) == ROOT / "hardware_catalog"
    assert not (ROOT / "diskmodel" / "hardware_catalog").exists()
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "hardware_catalog").rglob("*")}
    assert {path for path, _ in catalog_files()} == {p for p in shipped if p.endswith(".yaml")}
    assert all(p.endswith(".yaml") or "." not in p.rsplit("/", 1)[-1] for p in shipped), shipped


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    wheel_command = [*PIP, "wheel", "--no-deps", "--quiet", "-w", str(folder), str(ROOT)]
    subprocess.run(wheel_command, check=True, capture_output=True)
    return next(folder.glob("diskmodel-*.whl"))


@pytest.mark.packaging
def test_the_wheel_carries_the_catalog_inside_the_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    yaml = {
        f"diskmodel/{p.relative_to(ROOT).as_posix()}"
        for p in (ROOT / "hardware_catalog").rglob("*.yaml")
    }
    assert yaml <= names
    assert not any(n.startswith("hardware_catalog/") for n in names)  # nothing at the top
    generated = {
        "diskmodel/catalog/parsed.json",
        "diskmodel/components/sptf_means.json",
        "diskmodel/scenario/scenario.schema.json",
        "diskmodel/report/templates/report.html.j2",
    }
    assert generated <= names


@pytest.mark.packaging
def test_the_installed_wheel_loads_the_catalog_and_predicts(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [*PIP, "install", "--no-deps", "--quiet", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    script = (
        "import json, sys\n"
        "import diskmodel\n"
        "from diskmodel.catalog import load_catalog\n"
        "from diskmodel.catalog.loading import shipped_folder\n"
        "catalog = load_catalog()\n"
        "prediction = diskmodel.predict(diskmodel.load_scenario(sys.argv[1]))\n"
        "print(json.dumps({'package': diskmodel.__file__, 'folder': str(shipped_folder()),\n"
        "    'names': catalog.names(), 'max_iops': prediction.baseline.max_iops}))\n"
    )
    # Only the installed wheel and the dependencies: not the project (the editable install's
    # path entry comes after PYTHONPATH), run from a folder that holds nothing of ours.
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(EXAMPLE)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    found = json.loads(done.stdout)
    assert Path(found["package"]).is_relative_to(site)
    assert Path(found["folder"]) == site / "diskmodel" / "hardware_catalog"
    assert found["names"] == load_catalog().names()
    from diskmodel import load_scenario, predict

    assert found["max_iops"] == predict(load_scenario(EXAMPLE)).baseline.max_iops
