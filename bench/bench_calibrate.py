"""`diskmodel calibrate`: the six-interval example of docs/measured.md, as a user runs it
(issue 30 item 4).

    .venv/bin/python -m bench calibrate

1. **Command**: `python -m diskmodel calibrate` on the shipped base scenario and week, the
   six intervals of docs/measured.md, in a fresh interpreter: its processor time (user +
   system, `getrusage` of the child) and the model evaluations it reports. Targets: under 5 s
   of processor time, and about 250 evaluations (at most 275: the fit and its look around
   take about 200 on this example, the profiles of the intervals the rest).
2. **In-process**: the same calibration through the API (`calibrate`), its processor time
   alone (no interpreter start, no imports, no file written), and its fitted values: the
   identified ones must be the ones docs/measured.md states (tests/measured/
   test_calibrate_docs.py checks them to the digits it prints; here they are shown).

CPU-bound work on a shared machine: a second run varies by about 20%, more under load.
Measured 2026-11-28 on the shared 2-core machine (load average 7, other workers running):
command 7.8 s of processor time, 252 evaluations (31 ms each, start-up included): the CPU
target not met, the evaluations met; in-process 7.5 s. Again at load average 2-3 (branch
calib-fast, after the drive costs kept across configurations and the skew levels validated
once): command 6.1 s, 252 evaluations (24 ms each), in-process 5.6 s; the CPU target still
not met. Of an evaluation's time the six operating points' placement and network build are
about two thirds, resolving the scenarios into configurations a tenth, the per-workload
results a twentieth: the model's, not the calibration's (docs/measured.md). The same
command at main before issue 30: 546 evaluations, 17.3 s back to back at load 6
(docs/measured.md).

Branch calib-5s (each interval's configuration resolved once and only the system and the
workloads resolved again, `configuration.resolve_again`; each skew level's curve built once,
its placement ranking kept with it; the workloads' response times read alone,
`results.response_times_ms`; the host flows made as blocks of arrays), paired with main
(d0b9035) by `farm-bench --vs`, 5 runs each: command 5.16 s against 6.36 s at load average
4.4-5.6 (ratio 0.817), and with the build's flows joined once, 5.74 s against 6.99 s at load
2.6-5.1 (ratio 0.821); 252 evaluations, calibrated file and fitted values byte-identical; this
bench at load 4.2-4.4: command 5.06 s (20.1 ms an evaluation), in-process 4.33 s. The CPU
target is still not met, by a few percent at these loads. What is left, per evaluation of six
intervals: placement about a third, the network build a third, the open solution a sixth
(the model's modules), resolving 5%, and the command's imports (scipy.optimize alone about
0.5 s) some 0.8 s of the whole.
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time

from diskmodel.catalog import load_catalog
from diskmodel.measured import load_intervals, select
from diskmodel.measured.calibrate import calibrate
from diskmodel.scenario import load_scenario

from .bench_queueing import Row, import_numpy_s, show
from .bench_report import ROOT

MEASURED = ROOT / "scenarios" / "measured"
BASE = MEASURED / "ds8800-measured-base.yaml"
WEEK = MEASURED / "ds8800-week.csv"
PEAKS = (
    "io",
    "mbs",
    "2026-11-04 10:00",
    "2026-11-07 14:00",
    "2026-11-05 20:00",
    "2026-11-06 12:00",
)
"""The intervals docs/measured.md's calibration chooses (its `-p` options, in order)."""
CPU_TARGET_S = 5.0
EVALUATIONS_TARGET = 250
EVALUATIONS_MET = 275
"""'About 250' evaluations (issue 30 item 4): met at 10% above it or fewer."""


def _command() -> tuple[float, int]:
    """The processor time (user + system) of the documented command in a fresh interpreter,
    and the evaluations it reports."""
    argv = [sys.executable, "-m", "diskmodel", "calibrate", str(BASE), "--measured", str(WEEK)]
    for peak in PEAKS:
        argv += ["-p", peak]
    argv += ["--out", "-"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"after ([\d,]+) model evaluations", done.stderr + done.stdout)
    if found is None:
        raise RuntimeError(f"calibrate printed no evaluation count:\n{done.stderr[-2000:]}")
    return cpu, int(found.group(1).replace(",", ""))


def main() -> None:
    numpy_s = import_numpy_s()
    cpu, evaluations = _command()
    scenario = load_scenario(BASE)
    chosen = select(load_intervals(WEEK), list(PEAKS), str(WEEK))
    catalog = load_catalog()
    t0 = time.process_time()
    fit = calibrate(scenario, chosen, catalog, base_dir=MEASURED)
    alone = time.process_time() - t0
    values = ", ".join(
        f"{p.name} {p.value:.4g}"
        + (f" ({p.low:.4g} to {p.high:.4g})" if p.identified else " (n.i.)")
        for p in fit.parameters
    )
    rows = [
        Row(
            "calibrate, command (6 intervals): CPU",
            cpu,
            f"< {CPU_TARGET_S:g} s user+sys",
            cpu < CPU_TARGET_S,
            f"{evaluations} evaluations, {cpu / max(evaluations, 1) * 1e3:.1f} ms each",
        ),
        Row(
            "calibrate, command: evaluations",
            cpu,
            f"about {EVALUATIONS_TARGET} (<= {EVALUATIONS_MET})",
            evaluations <= EVALUATIONS_MET,
            f"{evaluations} evaluations",
        ),
        Row(
            "calibrate, in-process (API, no start-up)",
            alone,
            "n/a (the command's row judges)",
            None,
            f"{fit.evaluations} evaluations, rms {fit.rms_error:.4%}; {values}",
        ),
    ]
    show("calibrate: docs/measured.md's six-interval example", rows, numpy_s)


if __name__ == "__main__":
    main()
