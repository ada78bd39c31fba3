"""The charts' worker itself (`chart_worker` runs this file as a script): Vega's runtime
started at once, then one chart per line of standard input, its SVG (or the error) as one
JSON line on standard output.

It imports nothing of diskmodel: started as a script of its own, the worker loads only the
standard library and vl-convert, not the package (whose facade alone is 0.02 s of a start
that runs beside the caller's own imports, on the same two cores).
"""

from __future__ import annotations

import contextlib
import json
import sys

WARM_UP = {"data": {"values": [{"x": 0}]}, "mark": "point", "encoding": {"x": {"field": "x"}}}
"""The chart drawn first, to start the runtime while nobody waits for it."""


def serve() -> None:
    """The worker's loop: start the runtime, then one chart per line until input ends."""
    import vl_convert

    with contextlib.suppress(Exception):  # each request below answers for itself
        vl_convert.vegalite_to_svg(WARM_UP, allowed_base_urls=[])
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


if __name__ == "__main__":
    serve()
