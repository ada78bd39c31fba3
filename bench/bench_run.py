"""`diskmodel run` on the scenarios issues 28 (z/OS) and 29 (copy services) shipped, against
their target of under 1 s (run on demand, not part of the test suite).

    .venv/bin/python -m bench run

For each of scenarios/ds8800-zos-*.yaml and the copy-services scenarios: the whole prediction
in this process (load, resolve, predict every configuration: saturation, curve, service-level
limits, bands, the catalog band here in one process) and `diskmodel run` in a fresh process as
a planner runs it (the console entry point, the HTML report written; its chart worker and its
fork on the other core), beside a fresh interpreter importing numpy (the machine's floor now:
a shared machine's speed varies by a third from hour to hour, the ratio much less). Each run
is timed `REPEATS` times: the minimum and the median are shown, and the row says whether the
median meets the target. A bundled open-systems scenario is timed the same way, for scale.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diskmodel import api
from diskmodel.model.layout import forget_placements

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 7
RUN_TARGET_S = 1.0
COPY_SERVICES = (
    "ds8800-metro-mirror-distance.yaml",
    "ds8800-global-mirror-week.yaml",
    "ds8800-flashcopy-backup.yaml",
)
REFERENCE = "ds8800-15k-pool.yaml"
"""A shipped open-systems scenario timed the same way, for scale on a loaded machine."""


def _in_process(path: Path) -> float:
    best = float("inf")
    for _ in range(3):
        forget_placements()  # the layouts of the run before (a fresh process has none)
        start = time.perf_counter()
        catalog = api.load_catalog(())
        scenario = api.load_scenario(path, catalog)
        api.predict(scenario, catalog=catalog, base_dir=path.parent)
        best = min(best, time.perf_counter() - start)
    return best


def _fresh(path: Path) -> tuple[list[float], float]:
    walls, floor = [], []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "diskmodel", "run", str(path), "--quiet", "--force"]
        cmd += ["-o", str(Path(tmp) / "r.html")]
        for _ in range(REPEATS):
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT, env=env)
            walls.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import numpy"], check=True, env=env)
            floor.append(time.perf_counter() - start)
    return walls, min(floor)


def main() -> None:
    print(
        f"`diskmodel run` on the z/OS and copy-services scenarios (target: median < "
        f"{RUN_TARGET_S} s; {REPEATS} runs each; load average {os.getloadavg()[0]:.1f})"
    )
    scenarios = ROOT / "scenarios"
    paths = [
        *sorted(scenarios.glob("ds8800-zos-*.yaml")),
        *(scenarios / name for name in COPY_SERVICES),
        scenarios / REFERENCE,
    ]
    for path in paths:
        inside = _in_process(path)
        walls, numpy_s = _fresh(path)
        median = statistics.median(walls)
        verdict = "" if path.name == REFERENCE else ("met" if median < RUN_TARGET_S else "NOT MET")
        print(
            f"  {path.stem:<30} predict {inside:6.3f} s   run min {min(walls):6.3f} s median "
            f"{median:6.3f} s  (import numpy {numpy_s:.3f} s, median = {median / numpy_s:4.1f}x) "
            f"{verdict}"
        )


if __name__ == "__main__":
    main()
