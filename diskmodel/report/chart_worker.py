"""Vega's runtime in a process of its own, started while the model solves (`diskmodel run`).

Why: the first chart of a process starts vl-convert's JavaScript runtime, 0.3-0.5 s, and
vl-convert holds the GIL while it works, so a thread cannot hide that start. A child process
can: `start` launches it before the prediction, it starts the runtime on the other core at
once, and each chart is then sent to it over its standard input and read back from its output
(one JSON line each way). The SVG is vl-convert's, from the same specification and library, so
the report's bytes do not change.

A chart can be asked for ahead (`ask`): a thread of this process holds the conversation (the
two pipes would otherwise block each other on a large chart), so the caller goes on with its
own work while the worker draws, and an answer is kept by its specification, so that drawing
the same chart again (the report's own pass, after a pass that only asked) waits for the
answer already on its way instead of asking twice.

Anything the worker cannot do (it would not start, it died, a specification it cannot send
or convert) answers None, and `chart_svg.render` converts in its own process as it always
did, raising there what vl-convert raises. Nothing here is needed for a correct report.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

# The worker runs `chart_serve` as a script (-P: its folder, this package's, not put first
# on the module path), so that it loads none of diskmodel.
_SERVE = ["-P", str(Path(__file__).with_name("chart_serve.py"))]
_Requests = queue.SimpleQueue[tuple[str, "Future[str | None]"] | None]
_workers: list[subprocess.Popen[str]] = []  # at most one, alive while it answers
_requests: list[_Requests] = []  # its thread's requests (None: the worker is gone)
_asked: dict[str, Future[str | None]] = {}  # a request's line -> its answer, for that worker
_lock = threading.Lock()  # the three change together


def start() -> None:
    """Start the worker and the thread that talks to it, once per process (a second call does
    nothing)."""
    with _lock:
        if _workers:
            return
        try:
            worker = subprocess.Popen(
                [sys.executable, *_SERVE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
            )
        except OSError:
            return
        requests: _Requests = queue.SimpleQueue()
        _workers.append(worker)
        _requests.append(requests)
        # Daemon: a run that ends with charts still asked for does not wait for them.
        threading.Thread(target=_talk, args=(worker, requests), daemon=True).start()


def running() -> bool:
    """Whether a worker is there to be asked."""
    return bool(_workers)


def ask(spec: dict[str, Any], version: str) -> Future[str | None] | None:
    """The worker's SVG for `spec` on its way (the one already asked for when the same
    specification was asked before), or None when there is no worker or `spec` cannot be sent."""
    try:
        line = json.dumps({"spec": spec, "version": version}) + "\n"
    except (TypeError, ValueError):
        return None
    with _lock:
        if not _workers:
            return None
        answer = _asked.get(line)
        if answer is None:
            answer = _asked[line] = Future()
            _requests[0].put((line, answer))
        return answer


def convert(spec: dict[str, Any], version: str) -> str | None:
    """The worker's SVG for `spec`, or None when there is no worker or it cannot answer."""
    answer = ask(spec, version)
    return None if answer is None else answer.result()


def stop() -> None:
    """End the worker (at exit, or after it failed). It holds nothing (each chart's answer is
    read in full before the next is asked), so it is killed: a run that stops early, on a
    scenario it refuses, no longer waits for the runtime to finish starting (0.3-0.5 s) before
    it exits. Charts still asked for are answered None."""
    for worker in list(_workers):
        _retire(worker)


def _retire(worker: subprocess.Popen[str]) -> None:
    """Kill `worker` if it is still the one asked; its thread answers what is left None,
    closes the pipes and ends."""
    with _lock:
        if worker not in _workers:
            return
        requests = _requests.pop(_workers.index(worker))
        _workers.remove(worker)
        worker.kill()
        worker.wait()
        requests.put(None)
        _asked.clear()


atexit.register(stop)  # a worker never outlives its process (nothing to do without one)


def _talk(worker: subprocess.Popen[str], requests: _Requests) -> None:
    """The conversation with one worker: each request in turn, its answer read in full; after
    a failure (the worker stopped), every request left is answered None."""
    assert worker.stdin is not None
    assert worker.stdout is not None
    alive = True
    while (request := requests.get()) is not None:
        line, answer = request
        svg = None
        if alive:
            try:
                worker.stdin.write(line)
                worker.stdin.flush()
                reply = json.loads(worker.stdout.readline())
                svg = reply.get("svg") if isinstance(reply, dict) else None
            except (OSError, ValueError):  # it died: a closed pipe, an empty or broken line
                alive = False
                _retire(worker)
        answer.set_result(svg if isinstance(svg, str) else None)
    for pipe in (worker.stdin, worker.stdout):
        with contextlib.suppress(OSError):
            pipe.close()
