"""What every fuzzed case must end in, checked the same way by every fuzz test.

Either a valid result whose numbers are all finite, non-negative and whose utilisations and
fractions lie in [0, 1], or one clear `UserError`: a message naming the file, one paragraph
(no blank line), no traceback, of bounded length. Anything else (another exception, NaN, a
negative time, a hang) fails the test that called these.
"""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from diskmodel.errors import UserError

MAX_MESSAGE_CHARS = 4000
"""A message longer than this is a wall of text, not one clear message."""

CASE_CPU_S = 60
"""A single case that has used this much CPU time is a hang. CPU time, not wall-clock time:
a case's work does not grow when the machine is loaded, its wall-clock time does (the long
profile on a loaded 2-core machine failed a closed case "still running after 30 s" of wall
clock, issue 17 item 13). Validation refuses a run estimated above 60 s of CPU
(`diskmodel.analyses.budget`, an upper bound), so an accepted case that reaches this is a hang
or an under-estimate, both defects (the slowest edge case seen uses about 10 s)."""

_UNIT_KEYS = ("utilization", "fraction", "share", "hit_ratio")
"""A number under a key that is, or ends in `_` and, one of these is a fraction in [0, 1]."""


def check_user_error(error: UserError, path: Path) -> None:
    """One clear message: names the file, one paragraph, no traceback, bounded length."""
    message = str(error)
    assert message.strip(), "empty error message"
    assert path.name in message, f"message does not name the file: {message!r}"
    assert "Traceback" not in message, message
    assert "\n\n" not in message.strip(), f"more than one paragraph: {message!r}"
    assert len(message) <= MAX_MESSAGE_CHARS, f"{len(message)}-character message"


def check_result_json(text: str) -> dict[str, Any]:
    """Parse a JSON result and walk it: finite, non-negative numbers; unit values in [0, 1]."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"non-finite number {constant} in the JSON result")

    data = json.loads(text, parse_constant=refuse)
    assert isinstance(data, dict)
    _walk(data, "$")
    return data


def _walk(node: Any, where: str, key: str = "") -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _walk(v, f"{where}.{k}", str(k))
        if isinstance(node.get("response_time_ms"), float | int) and isinstance(
            node.get("service_time_ms"), float | int
        ):
            assert node["response_time_ms"] >= node["service_time_ms"] * (1 - 1e-9), where
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _walk(v, f"{where}[{i}]", key)
    elif isinstance(node, int | float) and not isinstance(node, bool):
        assert node >= 0, f"{where} = {node} is negative"
        if any(key == k or key.endswith("_" + k) for k in _UNIT_KEYS):
            assert node <= 1, f"{where} = {node} is above 1"


@contextlib.contextmanager
def no_hang(cpu_seconds: float = CASE_CPU_S) -> Iterator[None]:
    """Fail a case that uses more than `cpu_seconds` of CPU (SIGPROF from ITIMER_PROF, which
    counts the process's CPU time in all its threads: main thread, POSIX only)."""

    def expire(signum: int, frame: Any) -> None:
        raise AssertionError(f"case still running after {cpu_seconds:g} s of CPU time: a hang")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
