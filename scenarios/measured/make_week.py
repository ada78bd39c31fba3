"""Write ds8800-week.csv: a synthetic but realistic week of 15-minute intervals for a DS8800.

Two scopes. `oltp`: 8 KiB random I/O, a working-day curve peaking early afternoon (about
15,000 IOPS on weekdays, a third of that at weekends) with a smaller morning peak. `batch`:
sequential 256 KiB reads and 64 KiB writes, mostly in a nightly window 00:00-04:00.

The response times are what the model gives on the hardware of ds8800-measured-base.yaml
with the parameters a measurement cannot show set to known values (oltp: destage ratio 0.55,
skew level 9; batch: destage ratio 1; the catalog's front-end latency, 150 us), times 3%
lognormal measurement noise, so that
`diskmodel calibrate` can be seen to recover them (docs/measured.md). The pool's rank
utilisation (one pool holds both scopes, so both rows carry the same figure) is the model's
too, with its own 3% noise drawn from a second seeded stream, so the other columns are those
the file had before it had this one; the sequential fractions are the base scenario's, exact
(drawing nothing, they left every other column as it was). Seeded: the same file every run
(about 10 s: one model solve per interval).

    python scenarios/measured/make_week.py > scenarios/measured/ds8800-week.csv
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import sys
from pathlib import Path

import numpy as np

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.measured.figures import pool_rank_utilization
from diskmodel.model import results
from diskmodel.model.operating import Solver
from diskmodel.scenario import Scenario, load_scenario

START = dt.datetime(2026, 11, 2)  # a Monday
SEED = 20261102
BASE = Path(__file__).with_name("ds8800-measured-base.yaml")
TRUE = {"oltp": {"destage_ratio": 0.55, "skew": {"level": 9.0}}, "batch": {"destage_ratio": 1.0}}
NOISE = 0.03
COLUMNS = (
    "time",
    "scope",
    "io_rate",
    "read_fraction",
    "read_hit_ratio",
    "read_kib",
    "write_kib",
    "response_ms",
    "capacity_gb",
    "rank_utilization",
    "read_sequential_fraction",
    "write_sequential_fraction",
)


def _responses(rows: dict[str, dict[str, float]]) -> tuple[dict[str, float], float]:
    """The model's response time (ms) per scope with the workloads at `rows`, and the pool's
    rank utilisation."""
    catalog = load_catalog()
    data = load_scenario(BASE).model_dump(mode="python", exclude_none=True)
    data["analyses"] = {}
    # The front end as the catalog has it (150 us): the base file leaves it to calibration.
    data["system"].pop("front_end_latency_us", None)
    for w in data["workloads"]:
        w.update(rows[w["name"]])
        w.update(TRUE[w["name"]])
    config = resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
    point = Solver(config).planned_point()
    times = {r.name: r.response_time_ms for r in results.workloads(point)}
    return times, pool_rank_utilization(point, "pool0")


def main() -> None:
    # Each scope's sequential fractions (reads, writes): the base scenario's, as a performance
    # tool reports them (exact: no noise is drawn for them, so the other columns are those the
    # file had before it had these).
    sequential = {
        w.name: (w.read_sequential_fraction, w.write_sequential_fraction)
        for w in load_scenario(BASE).workloads
    }
    rng = np.random.default_rng(SEED)
    util_rng = np.random.default_rng(SEED + 1)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(COLUMNS)
    for k in range(7 * 96):
        t = START + dt.timedelta(minutes=15 * k)
        hour = t.hour + t.minute / 60
        weekday = t.weekday() < 5
        day = math.exp(-(((hour - 14.0) / 3.0) ** 2)) + 0.6 * math.exp(
            -(((hour - 10.0) / 1.5) ** 2)
        )
        base = 15000 * day + 1500
        oltp = base * (1.0 if weekday else 0.35) * rng.lognormal(0.0, 0.06)
        batch_window = 0 <= hour < 4
        batch = (3500 if batch_window else 250) * rng.lognormal(0.0, 0.1)
        oltp_mix = {"read_fraction": round(0.70 + rng.normal(0, 0.01), 3)}
        oltp_mix["read_hit_ratio"] = round(0.45 + rng.normal(0, 0.01), 3)
        batch_mix = {
            "read_fraction": round((0.85 if batch_window else 0.6) + rng.normal(0, 0.01), 3)
        }
        batch_mix["read_hit_ratio"] = round(0.9 + rng.normal(0, 0.005), 3)
        rows = {
            "oltp": {"iops": round(oltp, 1), **oltp_mix},
            "batch": {"iops": round(batch, 1), **batch_mix},
        }
        rt, busy = _responses(rows)
        measured_busy = min(busy * util_rng.lognormal(0.0, NOISE), 1.0)
        when = t.isoformat(sep=" ", timespec="minutes")
        for scope, kib, capacity in (("oltp", (8, 8), 30000), ("batch", (256, 64), 8000)):
            row = rows[scope]
            measured = rt[scope] * rng.lognormal(0.0, NOISE)
            out.writerow(
                [
                    when,
                    scope,
                    f"{row['iops']:.1f}",
                    f"{row['read_fraction']:.3f}",
                    f"{row['read_hit_ratio']:.3f}",
                    *kib,
                    f"{measured:.3f}",
                    capacity,
                    f"{measured_busy:.3f}",
                    *(f"{f:g}" for f in sequential[scope]),
                ]
            )


if __name__ == "__main__":
    main()
