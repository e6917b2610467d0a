"""A Table 1-shaped report of a RetailBench experiment (seed 004): one row per agent with the mean over seeds
and the survival-first selected run, the oracle row first, every row labelled LLM or offline; and the
four-stage diagnostics of each agent's selected run (stage 3 from the ground truth stored with the runs)."""

from __future__ import annotations

import pandas as pd

from core.experiments.report import cell_frame
from core.experiments.spec import from_dict
from core.retail import replay
from core.store import Store
from solvers.retail.metrics import select_run

COLUMNS = ("run_days", "final_networth", "total_sales", "avg_daily_sold_skus", "return_ratio", "expired_ratio",
           "stockout_days", "avg_direct_tool_calls_per_day", "avg_all_tool_calls_per_day", "avg_tokens_per_day")  # fmt: skip


def _selected(store: Store, experiment_id: str) -> list[tuple[str, str, list[dict], dict]]:
    """(agent, kind, done cells, selected cell) per agent, in the order the cells list them."""
    spec = from_dict(store.get_experiment(experiment_id)["spec"])
    labels = {a.name: a.label + (f" · {a.params.get('harness', 'orca')} harness" if a.kind == "llm" else "")
              for a in spec.agents}  # fmt: skip
    cells = cell_frame(store, experiment_id)
    cells = cells[cells["status"] == "done"]
    return [(str(agent), labels.get(agent, "?"), group.to_dict("records"), select_run(group.to_dict("records")))
            for agent, group in cells.groupby("agent", sort=False)]  # fmt: skip


def _oracle_first(frame: pd.DataFrame) -> pd.DataFrame:
    if frame.empty:
        return frame
    frame["order"] = frame["agent"].ne("oracle").astype(int)
    return frame.sort_values(["order"], kind="stable").drop(columns="order").reset_index(drop=True)


def table1(store: Store, experiment_id: str) -> pd.DataFrame:
    """Rows: agent, kind, seeds, then per Table 1 column the mean over done cells and the selected run's value."""
    rows = []
    for agent, kind, records, selected in _selected(store, experiment_id):
        group = pd.DataFrame(records)
        row = {"agent": agent, "kind": kind, "seeds": len(records), "selected_seed": selected.get("seed")}
        for col in COLUMNS:
            if col in group:
                row[f"{col}_mean"] = float(group[col].mean())
                row[f"{col}_selected"] = selected.get(col)
        rows.append(row)
    return _oracle_first(pd.DataFrame(rows))


def four_stage(store: Store, experiment_id: str) -> pd.DataFrame:
    """The headline four-stage diagnostics of each agent's selected run (PriceClose across these runs); runs
    without stored ground truth (none of ours since migration 5) leave stage 3 empty."""
    picked = {str(sel["run_id"]): (agent, kind) for agent, kind, _, sel in _selected(store, experiment_id)
              if sel.get("run_id")}  # fmt: skip
    diag = replay.diagnostics_of(store, list(picked))
    rows = [{"agent": picked[r][0], "kind": picked[r][1], "run": r,
             **{label: d.get(key) for key, label in replay.HEADLINE.items()}} for r, d in diag.items()]  # fmt: skip
    return _oracle_first(pd.DataFrame(rows))


def strategy_notes(store: Store, experiment_id: str, judge: replay.Judge | None = None) -> list[str]:
    """Strategy instability of the Evolving-Strategy selected runs, one line each (the macro level needs an
    LLM judge: without a key the line says so)."""
    out = []
    for agent, _, _, sel in _selected(store, experiment_id):
        unstable = replay.instability(store, str(sel.get("run_id")), judge=judge) if sel.get("run_id") else None
        if unstable is None:
            continue
        ex, macro = unstable["execution"], unstable["macro"]
        macro_text = unstable.get("macro_note") or ", ".join(f"{k} {v:.3f}" for k, v in macro.items() if v is not None)
        ex_text = ", ".join(f"{k} {v:.3f}" for k, v in ex.items() if v is not None) or "fewer than 3 days"
        out.append(f"{agent}: execution level {ex_text}; macro level {macro_text}")
    return out


def _cell(value: object) -> str:
    return "—" if value is None or (isinstance(value, float) and value != value) else f"{value:,.4g}"


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


def four_stage_markdown(frame: pd.DataFrame) -> str:
    """The four-stage table in markdown (— where a metric has nothing to average)."""
    head = ["agent", "kind", *replay.HEADLINE.values()]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in frame.to_dict("records"):
        lines.append("| " + " | ".join([str(r["agent"]), str(r["kind"]),
                                         *(_cell(r.get(c)) for c in replay.HEADLINE.values())]) + " |")  # fmt: skip
    return "\n".join(lines)
