"""Benchmark: the offline T-P-P agent against every offline decision agent (utilities x 2 styles x 2 feedbacks)
in the conversation paradigm, through the experiment layer's local engine. Prints one JSON object.

    python bench/schedule_lab.py [--workers 2] [--utilities N] [--db /tmp/bench.duckdb]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from core.experiments.driver import run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.spec import from_dict
from core.schedule.lab.report import lab_frame, summary_rows
from core.store import Store


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--utilities", default="all")
    parser.add_argument("--db")
    args = parser.parse_args()
    utilities = args.utilities if args.utilities == "all" else int(args.utilities)
    spec = from_dict(
        {
            "name": f"schedule_lab_bench_{time.time_ns()}",
            "workbench": "school_scheduling",
            "seeds": [0],
            "metric": "score",
            "goal": "max",
            "env": {"utilities": utilities, "max_turns": 20},
            "agents": [
                {"name": "tpp_conversation", "kind": "offline", "design": "T-P-P", "paradigm": "conversation"}
            ],
        }
    )
    db = Path(args.db) if args.db else Path(tempfile.mkdtemp()) / "bench.duckdb"
    store = Store(db)
    started = time.perf_counter()
    summary = run_experiment(spec, store, engine=LocalEngine(workers=args.workers), progress=False)
    elapsed = time.perf_counter() - started
    frame = lab_frame(store, spec.experiment_id)
    rows = summary_rows(frame, by=["style", "feedback"])
    print(
        json.dumps(
            {
                "conversations": int(len(frame)),
                "failed_cells": summary.failed,
                "elapsed_s": round(elapsed, 1),
                "workers": args.workers,
                "success_rate": round(float(frame["success"].mean()), 4),
                "mean_turns": round(float(frame["turns"].mean()), 3),
                "mean_score": round(float(frame["score"].mean()), 4),
                "mean_solver_calls": round(float(frame["solver_calls"].mean()), 3),
                "by_style_feedback": rows,
                "load": os.getloadavg(),
            }
        )
    )


if __name__ == "__main__":
    main()
