"""Write ds8800-week.csv: a synthetic but realistic week of 15-minute intervals for a DS8800.

Two scopes. `oltp`: 8 KiB random I/O, a working-day curve peaking early afternoon (about
15,000 IOPS on weekdays, a third of that at weekends) with a smaller morning peak. `batch`:
sequential 256 KiB reads and 64 KiB writes, mostly in a nightly window 00:00-04:00. Response
times rise with the load as a measured system's do. Seeded: the same file every run.

    python scenarios/measured/make_week.py > scenarios/measured/ds8800-week.csv
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import sys

import numpy as np

START = dt.datetime(2026, 11, 2)  # a Monday
SEED = 20261102


def main() -> None:
    rng = np.random.default_rng(SEED)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(
        [
            "time",
            "scope",
            "io_rate",
            "read_fraction",
            "read_hit_ratio",
            "read_kib",
            "write_kib",
            "response_ms",
            "capacity_gb",
        ]
    )
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
        busy = oltp / 16000 + batch / 4000
        oltp_rt = 1.2 + 1.6 * busy**2 + rng.normal(0.0, 0.05)
        batch_rt = 1.5 + 2.5 * busy**2 + rng.normal(0.0, 0.1)
        out.writerow(
            [
                t.isoformat(sep=" ", timespec="minutes"),
                "oltp",
                f"{oltp:.1f}",
                f"{0.70 + rng.normal(0, 0.01):.3f}",
                f"{0.45 + rng.normal(0, 0.01):.3f}",
                8,
                8,
                f"{oltp_rt:.2f}",
                30000,
            ]
        )
        out.writerow(
            [
                t.isoformat(sep=" ", timespec="minutes"),
                "batch",
                f"{batch:.1f}",
                f"{(0.85 if batch_window else 0.6) + rng.normal(0, 0.01):.3f}",
                f"{0.9 + rng.normal(0, 0.005):.3f}",
                256,
                64,
                f"{batch_rt:.2f}",
                8000,
            ]
        )


if __name__ == "__main__":
    main()
