"""Benchmark of rendering the HTML report (run on demand, not part of the test suite).

    .venv/bin/python -m bench report

What it measures (issue 16 item 1): the CPU seconds of `render_html` on a prediction that is
already computed, in a fresh process each time, so that the deferred imports (jinja2,
matplotlib) are paid as `diskmodel run` pays them: building the view, importing matplotlib on
the first chart, drawing every chart, rendering the template. Median of 5 runs, against a bare
`import numpy` measured the same way in the same run (machines differ; the ratio travels).

The prediction is the shipped scenario's when the model produces one (`diskmodel.predict`);
until then, or when it fails, the report fixture of the same shape (tests/report/
report_fixtures.py, "many-alternatives": the bundled example's four configurations, two of
them Easy Tier pools of two tiers), and the row says which it used.

Before this work (commit 340d37c, constrained layout, pyplot-free but a canvas switch at every
save, rc settings per chart, the catalog loaded by the report): 3.09 s for the bundled example
(ds8800-15k-plus-2-ssd.yaml, 5 charts), 14.7x `import numpy` (0.21 s) on the 2-core
development machine.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
TARGET_RATIO = 5.0
"""Report rendering within 5x a bare `import numpy` (about 1 s here): matplotlib's import alone
is about 3x, so this leaves about 2x for drawing every chart and the page."""

SCENARIOS = ("ds8800-15k-plus-2-ssd.yaml", "ds8800-c3-baseline.yaml")

_CHILD = r"""
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
source = "fixture"
try:
    import diskmodel
    path = Path({root!r}) / "scenarios" / {scenario!r}
    prediction = diskmodel.predict(diskmodel.load_scenario(path), base_dir=path.parent)
    if not hasattr(prediction.baseline, "inputs"):
        raise TypeError("the model does not produce the new Prediction yet")
    source = "model"
except Exception:
    from tests.report import report_fixtures
    prediction = report_fixtures.CASES["many-alternatives"]()
charts_before = "matplotlib" in sys.modules
start = time.process_time()
from diskmodel.report.html import render_html
page = render_html(prediction, timestamp=False)
elapsed = time.process_time() - start
print(source, elapsed, page.count("<figure class=\"chart\""), charts_before)
"""

_NUMPY = "import time; t = time.process_time(); import numpy; print(time.process_time() - t)"
_MATPLOTLIB = (
    "import numpy, time; t = time.process_time(); "
    "import matplotlib.figure, matplotlib.backends.backend_svg; print(time.process_time() - t)"
)


def _run(code: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return out.stdout.split()


def main() -> None:
    numpy_s = statistics.median(float(_run(_NUMPY)[0]) for _ in range(RUNS))
    print(f"bench report: CPU s of render_html in a fresh process, median of {RUNS}")
    matplotlib_s = statistics.median(float(_run(_MATPLOTLIB)[0]) for _ in range(RUNS))
    print(f"  import numpy: {numpy_s:.3f} s")
    print(
        f"  of which the report pays: import matplotlib (figure, SVG backend) {matplotlib_s:.3f} s"
        f" = {matplotlib_s / numpy_s:.1f}x numpy"
    )
    print(f"  {'scenario':<32} {'source':<8} {'charts':>6} {'render s':>9} {'x numpy':>8} target")
    for scenario in SCENARIOS:
        rows = [_run(_CHILD.format(root=str(ROOT), scenario=scenario)) for _ in range(RUNS)]
        source, _, charts, preloaded = rows[0]
        assert preloaded == "False", "matplotlib was imported before the report"
        render_s = statistics.median(float(r[1]) for r in rows)
        ratio = render_s / numpy_s
        status = "met" if ratio <= TARGET_RATIO else "NOT MET"
        print(
            f"  {scenario:<32} {source:<8} {charts:>6} {render_s:>9.3f} {ratio:>8.1f} "
            f"<= {TARGET_RATIO:g}x: {status}"
        )


if __name__ == "__main__":
    main()
