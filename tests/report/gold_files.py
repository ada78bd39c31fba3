"""Gold files of the HTML report: how a page is masked, compared and regenerated.

Masked (volatile, not the report's own decision): the generation line (time and version), the
body of each chart's SVG (Vega's exact path coordinates change between its releases; the
charts' content, determinism and escaping are tested in test_report_charts.py, where their
marks and words are in test_chart_geometry.py), and the rows
of the catalog-figures table and the list of their sources (the catalog's figures and source
texts, which the catalog's maintainers edit; test_report_html.py checks their content). A
chart's opening tag, with its title, stays in the gold file. The fixtures are built in
report_fixtures.py by hand, so neither the model nor a shipped scenario changes a gold file.

Regenerate after an intended change of the page, then read the diff before committing it:

    .venv/bin/python tests/report/gold_files.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLD = HERE / "gold"

_GENERATED = re.compile(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC by diskmodel [^<\s]+\.")
_SVG_BODY = re.compile(r"(<svg\b[^>]*>).*?(</svg>)", re.S)
_CATALOG_ROWS = re.compile(
    r'(<div class="table-wrap[^"]*" id="catalog-figures">.*?<tbody>).*?(</tbody>)', re.S
)
_SOURCES = re.compile(r'(<ol class="sources"[^>]*>).*?(</ol>)', re.S)


def mask(html: str) -> str:
    """The page with its volatile parts replaced by fixed markers."""
    html = _GENERATED.sub("Generated [TIME] by diskmodel [VERSION].", html)
    html = _CATALOG_ROWS.sub(r"\1[CATALOG FIGURES MASKED]\2", html)
    html = _SOURCES.sub(r"\1[SOURCES MASKED]\2", html)
    return _SVG_BODY.sub(r"\1[CHART MASKED]\2", html)


def gold_path(case: str) -> Path:
    return GOLD / f"{case}.html"


def render_case(case: str) -> str:
    """The report of one named fixture case, with the generation line on (it is masked)."""
    from diskmodel.report.html import render_html
    from tests.report import report_fixtures

    return render_html(report_fixtures.CASES[case](), timestamp=True)


def regenerate() -> list[Path]:
    """Write every case's masked page as its gold file."""
    from tests.report import report_fixtures

    GOLD.mkdir(exist_ok=True)
    written = []
    for old in GOLD.glob("*.html"):
        if old.stem not in report_fixtures.CASES:
            old.unlink()
    for case in report_fixtures.CASES:
        path = gold_path(case)
        path.write_text(mask(render_case(case)), encoding="utf-8", newline="\n")
        written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))  # the repository, so that `tests` imports
    for written in regenerate():
        print(f"wrote {written}")
