"""A Vega-Lite specification rendered to a static SVG element, ready to be placed in HTML.

Why Vega-Lite through `vl-convert-python`: a chart is written as data, marks and encodings
(`diskmodel.report.charts`), and `vl-convert` renders it to SVG in process with its own copy of
Vega, with no browser, network or script. The SVG it writes has no `<script>`, no external
resource and no timestamp: the same specification gives the same bytes. Its text is SVG text
(selectable, searchable, drawn by the browser with its own fonts) and escaped by Vega.

Cost (issue 32 item 4): the first chart of a process starts Vega's JavaScript runtime, about
0.4 s; every further chart takes some 0.03-0.08 s. `diskmodel run` starts that runtime in a
worker process while the model solves (`chart_worker`), and `render` asks it first. Where the
caller has other work to do while the worker draws, it hands the charts over first
(`handing_ahead`): the worker draws them while the caller works, and the page's own pass
finds each one drawn or on its way.

What this module adds to Vega's SVG: the chart's `<title>` (its accessible name, and the
tooltip a browser shows), `role="img"`, and every `id` renamed after the chart's key so that
several charts in one page never share an id. The Vega-Lite version is pinned, so that an
upgrade of vl-convert does not change a chart unannounced.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Iterator

import vl_convert

from diskmodel.report import chart_worker
from diskmodel.report.chart_marks import ChartSpec

VEGA_LITE_VERSION = "6.4"

_OPENING = re.compile(r"<svg\b([^>]*)>")
_ID = re.compile(r'\bid="([^"]+)"')
_REFERENCE = re.compile(r'(\bid="|clip-path="url\(#|href="#)([^")]+)([")])')


_handing = [False]  # within `handing_ahead`


@contextlib.contextmanager
def handing_ahead() -> Iterator[None]:
    """Within: `render` hands each chart to the worker and returns "" at once, drawing
    nothing; the same chart rendered after uses the worker's answer (`chart_worker.ask`). For
    a caller that makes the charts' specifications again later and has work to do meanwhile."""
    _handing[0] = True
    try:
        yield
    finally:
        _handing[0] = False


def render(key: str, chart: ChartSpec) -> str:
    """The `<svg>` element drawn from `chart`, titled, its ids named after `key` ("" while
    `handing_ahead`)."""
    if _handing[0]:
        chart_worker.ask(chart.spec, VEGA_LITE_VERSION)
        return ""
    svg = chart_worker.convert(chart.spec, VEGA_LITE_VERSION)
    if svg is None:
        svg = vl_convert.vegalite_to_svg(
            chart.spec, vl_version=VEGA_LITE_VERSION, allowed_base_urls=[]
        )
    title = chart.title
    svg = svg.strip()
    # Vega numbers its clip paths on from the process's last chart: renumbered from 1 in
    # order of appearance, so that a chart's bytes do not depend on the charts drawn before it.
    names = list(dict.fromkeys(_ID.findall(svg)))
    renamed = {name: f"{key}-{i}" for i, name in enumerate(names, start=1)}
    svg = _REFERENCE.sub(
        lambda m: m.group(1) + renamed.get(m.group(2), m.group(2)) + m.group(3), svg
    )
    opening = _OPENING.search(svg)
    if opening is None:  # pragma: no cover - vl-convert always writes one
        raise ValueError("vl-convert returned no <svg> element")
    label = html.escape(title, quote=True)
    tag = f'<svg{opening.group(1)} role="img" aria-label="{label}">'
    return f"{tag}<title>{html.escape(title, quote=False)}</title>{svg[opening.end() :]}"
