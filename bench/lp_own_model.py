"""Own-model analysis on Netlib's infeasible LPs (issue 28 item 4): `repair solve --file` in process.

For each model in data/lp/netlib_infeasible (all up to 5,000 rows): wall and CPU seconds of `analyze`
(status, pre-checks, IIS chain with its irreducibility check and Farkas certificate, every candidate verified),
the IIS route and size, and each candidate's printed changes re-applied with plain highspy to the file as read
(cplex1 is stored as .mps.gz and read like a user's upload; the decompression is inside its timing).
Target: <= 5 s per model. Run alone: .venv/bin/python bench/lp_own_model.py [--out PATH]; also
`bench/lp_repair.py --part own`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import highspy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.lp.analyze import analyze, read_model  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data" / "lp" / "netlib_infeasible"
TARGET_S = 5.0


def _printed_status(path: Path, changes: list[dict]) -> str:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    lp = h.getLp()
    rows = {n: i for i, n in enumerate(lp.row_names_)}
    cols = {n: j for j, n in enumerate(lp.col_names_)}
    for ch in changes:
        is_row = ch["kind"] == "row"
        i = rows[ch["name"]] if is_row else cols[ch["name"]]
        lo, hi = (lp.row_lower_[i], lp.row_upper_[i]) if is_row else (lp.col_lower_[i], lp.col_upper_[i])
        lo, hi = (lo, ch["new"]) if ch["side"] == "<=" else (ch["new"], hi)
        (h.changeRowBounds if is_row else h.changeColBounds)(i, min(lo, hi), max(lo, hi))
    h.run()
    return h.modelStatusToString(h.getModelStatus())


def run() -> dict:
    out = {}
    for path in sorted(DATA.glob("*.mps*")):
        name = path.name.split(".")[0]
        wall, cpu = time.perf_counter(), time.process_time()
        model = read_model(path)
        report = analyze(model).to_dict()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        out[name] = {
            "rows": model.num_rows,
            "cols": model.num_cols,
            "status": report["status"],
            "iis_method": report["iis"]["method"] if report["iis"] else None,
            "iis_rows": len(report["iis"]["rows"]) if report["iis"] else 0,
            "iis_bounds": len(report["iis"]["bounds"]) if report["iis"] else 0,
            "iis_verified": report["iis"]["verified_irreducible"] if report["iis"] else None,
            "candidates": len(report["candidates"]),
            "fewest_changes": min((c["changed"] for c in report["candidates"]), default=None),
            "fewest_proven": next((c["proven"] for c in report["candidates"] if c["goal"] == "fewest"), None),
            "printed_amounts_repair": all(
                _printed_status(path, c["changes"]) in ("Optimal", "Unbounded")
                for c in report["candidates"]
            ),
            "seconds": round(wall, 2),
            "cpu_seconds": round(cpu, 2),
            "within_target": wall <= TARGET_S,
        }
        print(json.dumps({name: out[name]}), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/results/lp_own_model.json")
    args = parser.parse_args()
    result = {"load_before": os.getloadavg(), "models": run(), "load_after": os.getloadavg()}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
