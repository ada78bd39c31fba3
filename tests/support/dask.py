"""A local Dask cluster for the tests: one home for how they start one.

Its workers are threads of the test's process (`processes=False`); its scheduler listens on TCP
(`--scheduler` takes tcp:// and tls:// addresses, not inproc://, and the results then cross a
connection, pickled, as from a real cluster). Every port is one the system chooses: the
scheduler's HTTP server starts even without a dashboard (`dashboard_address=None`) and binds
Dask's default 8787, so a test failed with "Port 8787 is already in use" whenever another
program, or another test worker under `pytest -n 2`, held it (issue 31 item 2;
tests/analyses/test_sizing.py holds it on purpose).
"""

from __future__ import annotations

from typing import Any


def local_cluster(n_workers: int, threads_per_worker: int = 1) -> Any:
    """A `distributed.LocalCluster` of `n_workers` thread workers on free ports (a context
    manager; `distributed` imported by the caller's test module, which skips without it)."""
    import distributed

    return distributed.LocalCluster(
        n_workers=n_workers,
        threads_per_worker=threads_per_worker,
        processes=False,
        protocol="tcp",
        scheduler_port=0,
        dashboard_address="127.0.0.1:0",
    )
