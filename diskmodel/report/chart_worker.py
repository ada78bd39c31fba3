"""Vega's runtime in a process of its own, started while the model solves (`diskmodel run`).

Why: the first chart of a process starts vl-convert's JavaScript runtime, 0.3-0.5 s, and
vl-convert holds the GIL while it works, so a thread cannot hide that start. A child process
can: `start` launches it before the prediction, it starts the runtime on the other core at
once, and `convert` then asks it for each chart, one at a time, over its standard input and
output (one JSON line each way). The SVG is vl-convert's, from the same specification and
library, so the report's bytes do not change.

Anything the worker cannot do (it would not start, it died, a specification it cannot send
or convert) returns None, and `chart_svg.render` converts in its own process as it always
did, raising there what vl-convert raises. Nothing here is needed for a correct report.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import subprocess
import sys
from typing import Any

_SERVE = "from diskmodel.report.chart_worker import serve; serve()"
_workers: list[subprocess.Popen[str]] = []  # at most one, alive while it answers


def start() -> None:
    """Start the worker, once per process (a second call does nothing)."""
    if _workers:
        return
    try:
        worker = subprocess.Popen(
            [sys.executable, "-c", _SERVE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
    except OSError:
        return
    _workers.append(worker)


def convert(spec: dict[str, Any], version: str) -> str | None:
    """The worker's SVG for `spec`, or None when there is no worker or it cannot answer."""
    if not _workers:
        return None
    worker = _workers[0]
    assert worker.stdin is not None
    assert worker.stdout is not None
    try:
        worker.stdin.write(json.dumps({"spec": spec, "version": version}) + "\n")
        worker.stdin.flush()
        answer = json.loads(worker.stdout.readline())
    except (OSError, ValueError, TypeError):
        stop()
        return None
    svg = answer.get("svg") if isinstance(answer, dict) else None
    return svg if isinstance(svg, str) else None


def stop() -> None:
    """End the worker (at exit, or after it failed). It holds nothing (each chart's answer was
    read when it was asked for), so it is killed: a run that stops early, on a scenario it
    refuses, no longer waits for the runtime to finish starting (0.3-0.5 s) before it exits."""
    while _workers:
        worker = _workers.pop()
        worker.kill()
        worker.wait()
        for pipe in (worker.stdin, worker.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


atexit.register(stop)  # a worker never outlives its process (nothing to do without one)


def serve() -> None:
    """The worker's loop: start the runtime, then one chart per line until input ends."""
    import vl_convert

    warm = {"data": {"values": [{"x": 0}]}, "mark": "point", "encoding": {"x": {"field": "x"}}}
    with contextlib.suppress(Exception):  # each request below answers for itself
        vl_convert.vegalite_to_svg(warm, allowed_base_urls=[])
    for line in sys.stdin:
        try:
            request = json.loads(line)
            svg = vl_convert.vegalite_to_svg(
                request["spec"], vl_version=request["version"], allowed_base_urls=[]
            )
            answer: dict[str, str] = {"svg": svg}
        except Exception as error:  # the parent converts again and raises it
            answer = {"error": str(error)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
