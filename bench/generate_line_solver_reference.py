"""Regenerate, or check, the line-solver answers in tests/data/line_solver_reference.json.

Needs an interpreter with line-solver installed (never a dependency of diskmodel), e.g.

    python3 -m venv /tmp/ls && /tmp/ls/bin/pip install line-solver==3.0.8.0
    /tmp/ls/bin/python bench/generate_line_solver_reference.py --check     # compare
    /tmp/ls/bin/python bench/generate_line_solver_reference.py --write OUT.json

It rebuilds every network from its recorded generator (demands
`numpy.random.default_rng(12345).uniform(0.001, 0.010, size=(K, R))`, per case), solves
it with line-solver's native functions `pfqn_mva`, `pfqn_bs` (tol 1e-6) and
`pfqn_linearizer` (tol 1e-8), and either compares the results with the stored ones
(relative 1e-12; exit status 1 on a mismatch) or writes them in the stored layout. The
stored file also holds `SolverMVA_*` entries (line-solver's model API) and an independent
numpy `own_exact`; those are kept from the original file and not regenerated here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

STORED = Path(__file__).resolve().parent.parent / "tests" / "data" / "line_solver_reference.json"


def demands(K: int, R: int) -> np.ndarray:
    return np.random.default_rng(12345).uniform(0.001, 0.010, size=(K, R))


def pair(X: np.ndarray, N: np.ndarray, Z: np.ndarray) -> dict[str, Any]:
    """Throughput and response time (N/X - Z) as stored: scalars for one class."""
    X = np.asarray(X, dtype=float).ravel()
    R = N / X - Z
    if X.size == 1:
        return {"X": float(X[0]), "R": float(R[0])}
    return {"X": X.tolist(), "R": R.tolist()}


def solve_case(pfqn: Any, name: str, case: dict[str, Any]) -> dict[str, Any]:
    K, R, Z = case["K"], case["R"], case["Z"]
    L = demands(K, R)
    Zr = np.full(R, Z)
    out: dict[str, Any] = {}
    if name.startswith("a_"):
        sweeps: dict[str, dict[str, list[float]]] = {
            "pfqn_mva_sweep_256calls": {"X": [], "R": []},
            "pfqn_bs_sweep_256calls": {"X": [], "R": []},
            "pfqn_linearizer_sweep_256calls": {"X": [], "R": []},
        }
        for n in range(1, 257):
            N = np.array([n])
            for key, X in (
                ("pfqn_mva_sweep_256calls", pfqn.pfqn_mva(L, N, Zr)[0]),
                ("pfqn_bs_sweep_256calls", pfqn.pfqn_bs(L, N, Zr, tol=1e-6)[0]),
                (
                    "pfqn_linearizer_sweep_256calls",
                    pfqn.pfqn_linearizer(L, N, Zr, ["PS"] * K, tol=1e-8)[5],
                ),
            ):
                values = pair(X, N, Zr)
                sweeps[key]["X"].append(values["X"])
                sweeps[key]["R"].append(values["R"])
        out.update(sweeps)
        out["pfqn_mva_N256_single"] = pair(
            pfqn.pfqn_mva(L, np.array([256]), Zr)[0], np.array([256]), Zr
        )
        return out
    N = np.asarray(case["N"] if isinstance(case["N"], list) else [case["N"]])
    if name.startswith("b_"):
        out["pfqn_mva"] = pair(pfqn.pfqn_mva(L, N, Zr)[0], N, Zr)
    elif N.max() <= 10:
        out["pfqn_mva_exact"] = pair(pfqn.pfqn_mva(L, N, Zr)[0], N, Zr)
    out["pfqn_bs_tol1e-6"] = pair(pfqn.pfqn_bs(L, N, Zr, tol=1e-6)[0], N, Zr)
    out["pfqn_linearizer_tol1e-8"] = pair(
        pfqn.pfqn_linearizer(L, N, Zr, ["PS"] * K, tol=1e-8)[5], N, Zr
    )
    return out


def differences(stored: Any, fresh: Any, path: str = "") -> list[str]:
    if isinstance(fresh, dict):
        return [
            m for key in fresh for m in differences(stored.get(key), fresh[key], f"{path}.{key}")
        ]
    a, b = np.asarray(stored, dtype=float), np.asarray(fresh, dtype=float)
    if a.shape != b.shape or np.any(np.abs(a - b) > 1e-12 * np.abs(a)):
        return [path]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare with the stored file")
    mode.add_argument("--write", type=Path, help="write a fresh file (stored layout) here")
    args = parser.parse_args(argv)
    from line_solver.api import pfqn  # type: ignore[import-not-found]

    stored = json.loads(STORED.read_text())
    fresh = json.loads(json.dumps(stored))  # keeps the SolverMVA_* and own_exact entries
    mismatches: list[str] = []
    for name, case in stored["cases"].items():
        solved = solve_case(pfqn, name, case)
        fresh["cases"][name].update(solved)
        found = differences(case, solved, name)
        mismatches += found
        print(f"{name}: {'same' if not found else f'{len(found)} differ'}", file=sys.stderr)
    if args.write:
        args.write.write_text(json.dumps(fresh, indent=1))
        return 0
    for path in mismatches:
        print(f"differs from the stored answer: {path}")
    print(
        "all stored line-solver answers reproduced"
        if not mismatches
        else f"{len(mismatches)} differ"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
