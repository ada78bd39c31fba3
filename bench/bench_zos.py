"""Benchmark of the shipped z/OS scenarios (run on demand, not part of the test suite).

    .venv/bin/python -m bench zos

For each of scenarios/ds8800-zos-*.yaml: the whole prediction in this process (load, resolve,
predict every configuration: saturation, curve, service-level limits, catalog band, with the
device queues solved at every load) and `diskmodel run` in a fresh process, beside a fresh
interpreter importing numpy (the machine's floor now: a shared machine's speed varies, the
ratio much less). Target: `run` under 1 s (issue 28). Times are the minimum of `REPEATS`.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diskmodel import api
from diskmodel.model.layout import forget_placements

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 3
RUN_TARGET_S = 1.0
REFERENCE = "ds8800-15k-pool.yaml"
"""A shipped open-systems scenario timed the same way, for scale on a loaded machine."""


def _in_process(path: Path) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        forget_placements()  # the layouts of the run before (a fresh process has none)
        start = time.perf_counter()
        catalog = api.load_catalog(())
        scenario = api.load_scenario(path, catalog)
        api.predict(scenario, catalog=catalog, base_dir=path.parent)
        best = min(best, time.perf_counter() - start)
    return best


def _fresh(path: Path) -> tuple[float, float]:
    walls, floor = [], []
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "diskmodel", "run", str(path), "--quiet", "--force"]
        cmd += ["-o", str(Path(tmp) / "r.html")]
        for _ in range(REPEATS):
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT)
            walls.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import numpy"], check=True)
            floor.append(time.perf_counter() - start)
    return min(walls), min(floor)


def main() -> None:
    print(f"z/OS scenarios: prediction in process and `diskmodel run` (target < {RUN_TARGET_S} s)")
    paths = sorted((ROOT / "scenarios").glob("ds8800-zos-*.yaml"))
    for path in [*paths, ROOT / "scenarios" / REFERENCE]:
        inside = _in_process(path)
        wall, numpy_s = _fresh(path)
        print(
            f"  {path.stem:<28} predict {inside:6.3f} s   run {wall:6.3f} s   "
            f"(import numpy {numpy_s:.3f} s, run = {wall / numpy_s:.1f}x)"
        )


if __name__ == "__main__":
    main()
