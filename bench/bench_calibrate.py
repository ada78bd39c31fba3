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
target not met, the evaluations met; in-process 7.5 s. Branch calib-fast (the drive costs kept
across configurations, the skew levels validated once), load 2-3: command 6.1 s, in-process
5.6 s. Branch calib-5s (each interval's configuration resolved once and only the system and
the workloads resolved again; each skew level's curve built once; the host flows as blocks of
arrays, since dropped: once the host sums were kept across builders it saved nothing; the
build's flows joined once): command 5.1-5.7 s at load 2.6-5.6, paired with main 0.82 of it;
5.1-5.6 s in quiet hours, 6.2 s in a slow one. The same command at main before
issue 30: 546 evaluations, 17.3 s back to back at load 6 (docs/measured.md).

Branch calib-under-5 (the target met): the configurations of a calibration's evaluations
that build the same networks share them (`model.operating.builds_for`: all but the
workloads' skew curves, which only placement reads, and the system's front end, which only
the classes' fixed delays read, `network_build.network_for`): their operation costs and
builder, the networks by their placement's key, a single load's open point (for another front
end only its responses worked out again), and the pools timed for placement; the workloads'
flows are kept per back end by the workload's mix and shares, the host ports' sums by what
they read, a drive's work at its target by its gain. Of an evaluation's six operating points
(1,512 over the fit) 1,008 networks are built and solved, 1,344 placements made. Paired
with main (eb51790; runs alternating A B A B, 7 pairs, load average 1.1-2.4, 2026-11-28
13:04): command 3.85 s of processor time against 5.01 s (median; ratio 0.767, 0.751 to
0.778), peak memory 115 MB against 106 MB; at 12:54, load 1.7-2.4, 3.76 s against 4.98 s
(0.758); 252 evaluations, calibrated file and fitted values byte-identical (md5
4df901c8...). This bench at load 1.7-3.0: command 3.78 s (15.0 ms an evaluation, start-up
included), in-process 3.23 s. Where an evaluation's time goes now
(in-process, about 3.0 s): placement about a third (0.9 s: the ranking by skew, the tiers'
split and headroom), the networks built a quarter to a third (0.85 s), the open solutions a
sixth (0.5 s), resolving the six configurations and setting up their solvers about 0.45 s;
the command's start-up and imports 0.55-0.8 s (scipy.optimize about 0.35 s above numpy, of
which the linear algebra that least_squares needs itself is 0.23 s: a narrower import would
save at most the other 0.12 s, and scipy has none). In a slow hour (main at 6.2 s) the
ratio puts the command near 4.8 s, under the 5 s target still.

2026-11-29, on an AMD EPYC host (OpenBLAS's Zen kernels): until then the batch's unseen skew
level ended at 4.35 here, not 1.63, the check of the OLTP skew level's interval failed and
walked its profile: 508 evaluations, 5.7 s. With a parameter no figure sees held as written
(`diskmodel.measured.held`): 250 evaluations (251 with the SkylakeX kernels), the same
intervals on both; this bench at load 1.9: command 2.48 s (9.9 ms an evaluation), in-process
2.18 s; paired with 3acadc8 (farm-bench, 7 pairs, load 2.6, other work running) 2.75 s
against 5.70 s.
"""

from __future__ import annotations

import re
import sys
import time

from diskmodel.catalog import load_catalog
from diskmodel.measured import load_intervals, select
from diskmodel.measured.calibrate import calibrate
from diskmodel.scenario import load_scenario

from .bench_queueing import Row, import_numpy_s, show
from .bench_report import ROOT, timed_child

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
    done, cpu, _ = timed_child(argv)
    done.check_returncode()
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
