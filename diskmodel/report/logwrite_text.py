"""`diskmodel logwrite`: the striping summary (`diskmodel.logwrite.striping_summary`) as text:
commit time against pages per commit for each stripe count."""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.report.table import Output, table, to_text


def render_logwrite(
    description: str,
    stripes: Sequence[int],
    pages: Sequence[int],
    times_us: Sequence[Sequence[float]],
    helps_from: Sequence[int | None],
    output: Output | None = None,
) -> str:
    """One row per page count: the mean commit time (us) at each stripe count and the best
    count; then from how many pages each stripe count beats one."""
    rows = []
    for p, times in zip(pages, times_us, strict=True):
        best = stripes[min(range(len(times)), key=times.__getitem__)]
        rows.append([f"{p:,}", *(f"{t:,.0f}" for t in times), str(best)])
    times_table = table(
        ["pages", *(f"{k} stripe{'s' if k > 1 else ''} us" for k in stripes), "best"],
        rows,
        title="Mean commit time",
    )
    helps = [
        f"{k} stripes beat one from {first:,} pages per commit"
        if first is not None
        else f"{k} stripes never beat one up to 4,096 pages"
        for k, first in zip(stripes[1:], helps_from, strict=True)
    ]
    return to_text([description, times_table, "; ".join(helps)], output)
