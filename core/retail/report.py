"""A Table 1-shaped report of a RetailBench experiment (seed 004): one row per agent with the mean over seeds
and the survival-first selected run, the oracle row first, every row labelled LLM or offline."""

from __future__ import annotations

import pandas as pd

from core.experiments.report import cell_frame
from core.experiments.spec import from_dict
from core.store import Store
from solvers.retail.metrics import select_run

COLUMNS = ("run_days", "final_networth", "total_sales", "avg_daily_sold_skus", "return_ratio", "expired_ratio",
           "stockout_days", "avg_direct_tool_calls_per_day", "avg_all_tool_calls_per_day", "avg_tokens_per_day")  # fmt: skip


def table1(store: Store, experiment_id: str) -> pd.DataFrame:
    """Rows: agent, kind, seeds, then per Table 1 column the mean over done cells and the selected run's value."""
    spec = from_dict(store.get_experiment(experiment_id)["spec"])
    labels = {a.name: a.label for a in spec.agents}
    cells = cell_frame(store, experiment_id)
    cells = cells[cells["status"] == "done"]
    rows = []
    for agent, group in cells.groupby("agent", sort=False):
        records = group.to_dict("records")
        selected = select_run(records)
        row = {"agent": agent, "kind": labels.get(agent, "?"), "seeds": len(records),
               "selected_seed": selected.get("seed")}  # fmt: skip
        for col in COLUMNS:
            if col in group:
                row[f"{col}_mean"] = float(group[col].mean())
                row[f"{col}_selected"] = selected.get(col)
        rows.append(row)
    frame = pd.DataFrame(rows)
    if not frame.empty:
        frame["order"] = frame["agent"].ne("oracle").astype(int)
        frame = frame.sort_values(["order"], kind="stable").drop(columns="order").reset_index(drop=True)
    return frame


def to_markdown(frame: pd.DataFrame) -> str:
    """Table 1 in markdown: agent, kind, then selected-run values (means in parentheses)."""
    head = ["agent", "kind", *COLUMNS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in frame.to_dict("records"):
        cells = [str(r["agent"]), str(r["kind"])]
        for c in COLUMNS:
            sel, mean = r.get(f"{c}_selected"), r.get(f"{c}_mean")
            cells.append("—" if sel is None else f"{sel:,.4g} ({mean:,.4g})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
