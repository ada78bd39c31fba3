"""`diskmodel logwrite`: commit time against pages per commit for 1, 2, 4 and 8 stripes, as
text (issue 15's quick question, without a scenario)."""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.logwrite import Contention, LogPath, expected_commit_us
from diskmodel.report.table import Output, table, to_text

STRIPES = (1, 2, 4, 8)


def render_logwrite(
    path: LogPath,
    pages: Sequence[int],
    *,
    links: int | None = None,
    contention: Contention | None = None,
    output: Output | None = None,
) -> str:
    """One row per page count: the mean commit time (us) at each stripe count, the best count,
    and the page count from which each stripe count beats one stripe."""
    rows = []
    for p in pages:
        times = [
            expected_commit_us(path, p, k, links=links, contention=contention) for k in STRIPES
        ]
        best = STRIPES[min(range(len(times)), key=times.__getitem__)]
        rows.append([f"{p:,}", *(f"{t:,.0f}" for t in times), str(best)])
    where = "each stripe on its own link" if links is None else f"{links} shared link(s)"
    busy = (
        "no other work"
        if contention is None
        else f"each path's busiest station {contention.utilization:.0%} busy, "
        f"{contention.service_us:g} us per operation"
    )
    head = (
        f"Log write: {path.fixed_us:.1f} us per I/O, {path.per_page_us:.2f} us per page, "
        f"starts {path.start_interval_us:.1f} us apart; {where}; {busy}"
    )
    times_table = table(
        ["pages", *(f"{k} stripe{'s' if k > 1 else ''} us" for k in STRIPES), "best"],
        rows,
        title="Mean commit time",
    )
    helps = []
    for k in STRIPES[1:]:
        first = next(
            (
                p
                for p in range(1, 4097)
                if expected_commit_us(path, p, k, links=links, contention=contention)
                < expected_commit_us(path, p, 1, links=links, contention=contention)
            ),
            None,
        )
        helps.append(
            f"{k} stripes beat one from {first:,} pages per commit"
            if first is not None
            else f"{k} stripes never beat one up to 4,096 pages"
        )
    return to_text([head, times_table, "; ".join(helps)], output)
