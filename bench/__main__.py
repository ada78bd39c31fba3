"""Run benchmarks: `python -m bench` runs every bench/bench_*.py; `python -m bench NAME ...`
runs bench_NAME.py. Each module exposes `main() -> None`."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def available() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in Path(__file__).parent.glob("bench_*.py"))


def main(argv: list[str] | None = None) -> int:
    names = sys.argv[1:] if argv is None else argv
    known = available()
    unknown = [name for name in names if name not in known]
    if unknown:
        print(
            f"unknown benchmark {', '.join(unknown)}; available: {', '.join(known)}",
            file=sys.stderr,
        )
        return 2
    for name in names or known:
        importlib.import_module(f"bench.bench_{name}").main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
