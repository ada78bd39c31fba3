"""The Dask cluster `diskmodel size --scheduler ADDRESS` spreads its search over.

The address is checked before anything is opened (`scheduler_address`: `tcp://HOST:PORT` or
`tls://HOST:PORT`, or `HOST:PORT`). Then the scheduler is asked who it is and how many workers
it has, over one connection with one deadline (`DASK_CONNECT_TIMEOUT_S` for connecting, the
handshake and the answer together): Dask's own connect waits for the handshake with no end,
so a server that accepts and stays silent kept the command waiting indefinitely, one that
answered garbage made it allocate 6.46 EiB, and a scheduler with no workers ended in a
TimeoutError traceback (issue 33 item 2). Only a scheduler that answers as one, with workers,
is given the search; the results must all come back within `DASK_RESULTS_TIMEOUT_S`. Every
failure is one message (`SchedulerError`, exit 3; a malformed address, exit 2). While a
search holds the cluster its workers' statistical profiler is paused (`PROFILER`).

Trust: a Dask connection carries pickled Python objects both ways, from its first answer on,
and unpickling runs code. A scheduler address is therefore a host trusted completely, with
the rights of the user who runs diskmodel (docs/SECURITY.md); the checks here are for an
address mistyped or a service that is down, not a defence against a hostile server.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from diskmodel import __version__
from diskmodel.errors import ExitCode, InputError, UserError

DASK_CONNECT_TIMEOUT_S = 10.0
"""How long the scheduler has to accept the connection, shake hands and say who it is."""
DASK_RESULTS_TIMEOUT_S = 300.0
"""How long a search's results may take on the cluster, in all: five times the computing
diskmodel allows a whole run on one 2-core machine (`analyses.budget.MAX_WORK_S`); a cluster
slower than that is not working."""
SCHEMES = ("tcp", "tls")

_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^:/\[\]]+):(?P<port>\d{1,5})"
)


class SchedulerAddressError(UserError):
    """`--scheduler` is not an address (a mistake on the command line: exit 2)."""

    exit_code = ExitCode.USAGE


class SchedulerError(InputError):
    """The scheduler cannot be used: not reached, not a Dask scheduler, no workers, no
    results in time; the message says which."""


def scheduler_address(text: str) -> str:
    """`text` as the address Dask is given (`tcp://` when no scheme is written), or
    `SchedulerAddressError` saying what an address looks like."""
    shown = repr(text[:60] + ("..." if len(text) > 60 else ""))
    usage = (
        f"--scheduler: {shown} is not a Dask scheduler's address; give tcp://HOST:PORT "
        "(e.g. tcp://10.0.0.5:8786) or tls://HOST:PORT"
    )
    match = _ADDRESS.fullmatch(text) if len(text) <= 300 else None
    if match is None:
        raise SchedulerAddressError(usage)
    scheme = match["scheme"] or "tcp"
    if scheme not in SCHEMES:
        raise SchedulerAddressError(f"{usage} ({scheme}:// is not one diskmodel connects by)")
    host, port = match["host"], int(match["port"])
    if not 1 <= port <= 65535:
        raise SchedulerAddressError(f"{usage} (a port is 1 to 65535)")
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise SchedulerAddressError(usage) from None
    elif len(host) > 253 or not all(_HOST_LABEL.fullmatch(p) for p in host.split(".")):
        raise SchedulerAddressError(usage)
    return f"{scheme}://{host}:{port}"


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's loggers silenced (a garbled answer is logged as CRITICAL with a traceback);
    their levels restored after."""
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _run(coroutine: Callable[[], Any]) -> Any:
    """Run `coroutine()` in an event loop of its own, on a thread of its own (the caller may
    be running a loop: a notebook)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(lambda: asyncio.run(coroutine())).result()


def probe(address: str, timeout: float = DASK_CONNECT_TIMEOUT_S) -> int:
    """The number of workers of the scheduler at `address` (checked by `scheduler_address`),
    asked over one connection within `timeout` seconds in all; `SchedulerError` when it
    cannot be reached, does not answer in time, or answers as something else."""
    from distributed.comm import connect
    from distributed.core import send_recv

    async def identity() -> Any:
        comm = await connect(address, timeout=timeout, deserialize=False)
        try:
            return await send_recv(comm, op="identity")
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(identity(), deadline - time.monotonic())

    deadline = time.monotonic() + timeout
    _reachable(address, timeout)
    try:
        with _quiet_dask():
            info = _run(bounded)
    except TimeoutError:
        raise SchedulerError(
            f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s (is it "
            "running, and is this its address and port?)"
        ) from None
    except OSError as exc:
        raise SchedulerError(
            f"--scheduler {address}: cannot connect ({_reason(exc)}); is a Dask scheduler "
            "running there?"
        ) from None
    except Exception as exc:  # a garbled answer: what Dask's decoder raises is open-ended
        raise SchedulerError(
            f"--scheduler {address}: what answered there is not a Dask scheduler (its answer "
            f"could not be read: {type(exc).__name__})"
        ) from None
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        kind = info.get("type") if isinstance(info, dict) else None
        said = f" (it says it is a {str(kind)[:40]})" if isinstance(kind, str) else ""
        raise SchedulerError(
            f"--scheduler {address}: what answered there is not a Dask scheduler{said}"
        )
    workers = info.get("n_workers", len(info.get("workers") or ()))
    if not isinstance(workers, int) or workers < 1:
        raise SchedulerError(
            f"--scheduler {address}: the scheduler has no workers; start some "
            f"(dask worker {address}) or give another scheduler"
        )
    return workers


def _reachable(address: str, timeout: float) -> None:
    """`SchedulerError` at once when nothing listens at `address` (Dask's own connect tries a
    refused connection again until its deadline, and then says only that it timed out)."""
    host, port = address.split("://", 1)[1].rsplit(":", 1)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except TimeoutError:
        raise SchedulerError(
            f"--scheduler {address}: nothing answered within {timeout:g} s (is this the "
            "scheduler's address, and does a firewall let it through?)"
        ) from None
    except OSError as exc:
        raise SchedulerError(
            f"--scheduler {address}: cannot connect ({exc.strerror or _reason(exc)}); is a "
            "Dask scheduler running there?"
        ) from None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _distributed() -> Any:
    """Dask distributed, or `SchedulerError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise SchedulerError(
            "--scheduler needs Dask distributed: pip install 'diskmodel[dask]'"
        ) from None
    return distributed


def workers_at(text: str) -> int:
    """How many tasks the cluster whose scheduler is at `text` (an address as a user writes
    it) runs at once for a search: its working workers' threads on their hosts' cores
    (`working_workers`), what a search there is spread over, so what the work bound divides
    it by before the scenario is loaded (`diskmodel size --scheduler`); `SchedulerError` as
    `dask_client`."""
    with _connected(scheduler_address(text)) as client:
        return working_workers(client)[1]


@contextlib.contextmanager
def _connected(address: str) -> Iterator[Any]:
    """A client of the cluster at `address` (its scheduler probed first), closed after;
    `SchedulerError` when it cannot connect."""
    client_type = _distributed().Client
    probe(address)
    try:
        with _quiet_dask():
            client = client_type(address, timeout=DASK_CONNECT_TIMEOUT_S)
    except Exception as exc:  # the probe answered; the client did not: one message
        raise SchedulerError(
            f"--scheduler {address}: the scheduler answered but the client could not connect "
            f"({_reason(exc)})"
        ) from None
    try:
        yield client
    finally:
        with _quiet_dask(), contextlib.suppress(Exception):
            client.close(timeout=DASK_CONNECT_TIMEOUT_S)


@contextlib.contextmanager
def dask_client(address: str, context: Any) -> Iterator[tuple[Any, Any]]:
    """A client of the cluster at `address` (its scheduler probed first) and `context` sent
    to every worker once; `SchedulerError` for every failure."""
    with _connected(address) as client:
        try:
            shared = client.scatter(context, broadcast=True, timeout=DASK_CONNECT_TIMEOUT_S)
        except Exception as exc:
            raise SchedulerError(
                f"--scheduler {address}: the search could not be sent to the workers "
                f"({_reason(exc)})"
            ) from None
        paused = _pause_profilers(client)
        try:
            yield client, shared
        finally:
            _resume_profilers(client, paused)


def _cores() -> int:
    """On a worker: the cores its process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _seat(dask_worker: Any) -> tuple[str, int, int]:
    """On a worker: its host, its threads and the cores its process may run on."""
    from distributed.comm import get_address_host

    return get_address_host(dask_worker.address), int(dask_worker.state.nthreads), _cores()


def working_workers(client: Any) -> tuple[tuple[str, ...], int]:
    """The workers a search runs its tasks on, and how many tasks they run at once: on each
    host, workers in address order until their threads fill the cores the host's workers
    may run on. Workers beyond a host's cores would only share them: measured on
    bench/bench_size_dask.py's LocalCluster of four single-thread workers on two cores, they
    took 1.4x the CPU of one process for the same solves (five processes switching on two
    cores), and the cluster lost to one process on a batch of 384 configurations. The others
    are left idle: the tasks are restricted to these, strictly, since with loose restrictions
    Dask's work stealing hands a task to an idle spare whenever the working workers are all
    busy (measured: the two spares took 7.0 s of 35.9 s of the workers' CPU on the 10^6
    space). If every working worker is lost, the tasks wait for none and the search ends at
    its results deadline in one message (`gathered`). Each worker says where it sits itself
    (`_seat`; the scheduler's list of workers is cut to five by default in some Dask
    versions); where none can say, every worker is used, a task at a time each, and the
    tasks are not restricted (an empty tuple)."""
    try:
        with _quiet_dask():
            seats = client.run(_seat, on_error="return", callback_timeout=DASK_CONNECT_TIMEOUT_S)
    except Exception:
        seats = {}
    seated = {address: seat for address, seat in seats.items() if isinstance(seat, tuple)}
    if not seated:
        return (), max(len(seats), 1)
    by_host: dict[str, list[str]] = {}
    for address in sorted(seated):
        by_host.setdefault(seated[address][0], []).append(address)
    chosen: list[str] = []
    slots = 0
    for addresses in by_host.values():
        room = max(seated[address][2] for address in addresses)
        for address in addresses:
            if room <= 0:
                break
            threads = max(seated[address][1], 1)
            chosen.append(address)
            slots += min(threads, room)
            room -= threads
    return tuple(chosen), max(slots, 1)


PROFILER = ("profile", "profile-cycle")
"""A Dask worker's statistical profiler (`distributed.worker.profile`, on by default): every
10 ms it walks the stack of the task running and merges it into the dashboard's profile,
holding the GIL. The search's solves are deep Python stacks: measured on two local workers
solving 1,500 configurations spread over bench/bench_size_dask.py's 10^6 space (load 1-2),
it cost a quarter of their CPU and half their wall time: 14.3 s CPU and 13.8 s wall with it,
11.4 s and 6.8 s without, against 11.3 s and 10.9 s over two processes of a pool. So it is
paused on every worker while a search runs, and started again after (the dashboard's
profile misses the search; nothing else changes)."""


def _pause_profiler(dask_worker: Any) -> list[str]:
    """On a worker: its profiler's periodic callbacks stopped; the names of those that ran."""
    stopped = []
    for name in PROFILER:
        callback = getattr(dask_worker, "periodic_callbacks", {}).get(name)
        if callback is not None and callback.is_running():
            callback.stop()
            stopped.append(name)
    return stopped


def _resume_profiler(names: Sequence[str], dask_worker: Any) -> None:
    """On a worker: the callbacks `_pause_profiler` stopped started again."""
    for name in names:
        callback = getattr(dask_worker, "periodic_callbacks", {}).get(name)
        if callback is not None and not callback.is_running():
            callback.start()


def _pause_profilers(client: Any) -> dict[str, list[str]]:
    """Every worker's profiler paused (`PROFILER`), by worker: what each stopped. Only a
    saving: a worker that does not answer within `DASK_CONNECT_TIMEOUT_S`, or fails, keeps
    its profiler and the search goes on."""
    try:
        with _quiet_dask():
            answers = client.run(
                _pause_profiler, on_error="return", callback_timeout=DASK_CONNECT_TIMEOUT_S
            )
    except Exception:
        return {}
    return {w: list(a) for w, a in answers.items() if isinstance(a, list) and a}


def _resume_profilers(client: Any, paused: dict[str, list[str]]) -> None:
    """The profilers `_pause_profilers` paused started again, each worker's as it was."""
    for worker, names in paused.items():
        with _quiet_dask(), contextlib.suppress(Exception):
            client.run(
                _resume_profiler,
                names,
                workers=[worker],
                on_error="ignore",
                callback_timeout=DASK_CONNECT_TIMEOUT_S,
            )


def gathered(address: str, futures: Sequence[Any], deadline: float) -> Iterable[Any]:
    """Each future's result in order, all by `deadline` (`time.monotonic()`); a result that
    does not come in time, or a worker that fails, is one `SchedulerError`."""
    for future in futures:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            result = future.result(timeout=left)
        except TimeoutError:
            raise SchedulerError(
                f"--scheduler {address}: the cluster did not return the search's results "
                f"within {DASK_RESULTS_TIMEOUT_S:g} s"
            ) from None
        except Exception as exc:
            raise SchedulerError(
                f"--scheduler {address}: the search failed on the cluster ("
                f"{type(exc).__name__}: {_reason(exc)}); its workers need the diskmodel of "
                f"this machine ({__version__}) installed"
            ) from None
        yield result
