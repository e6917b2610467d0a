"""A Table 1-shaped report of a RetailBench experiment (seed 004): one row per agent with the mean over seeds
and the survival-first selected run, the oracle row first, every row labelled LLM or offline; the four-stage
diagnostics of each agent's selected run (stage 3 from the ground truth stored with the runs); mean ± 95 % CI
over every done cell (seeds × catalogs, `core.experiments.stats`) and each agent's ratio to the full-information
reference. The oracle is the paper reference policy and the full-information policy a reference too: neither
is an upper bound."""

from __future__ import annotations

import math

import pandas as pd

from core.experiments import stats
from core.experiments.report import cell_frame
from core.experiments.spec import from_dict
from core.retail import replay
from core.retail.run import agent_kind
from core.store import Store
from solvers.retail.metrics import select_run

CI_COLUMNS = ("final_networth", "total_sales", "return_ratio", "expired_ratio", "stockout_days")
FULL_INFO = "full_info"

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


def _kind(agent: str, spec_label: str) -> str:
    """The spec's label, with the reference policies named for what they are (never an upper bound)."""
    return agent_kind(agent) if agent in ("oracle", FULL_INFO) else spec_label


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
        row = {
            "agent": agent,
            "kind": _kind(agent, kind),
            "seeds": len(records),
            "selected_seed": selected.get("seed"),
        }
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
    rows = [{"agent": picked[r][0], "kind": _kind(*picked[r]), "run": r,
             **{label: d.get(key) for key, label in replay.HEADLINE.items()}} for r, d in diag.items()]  # fmt: skip
    return _oracle_first(pd.DataFrame(rows))


def done_cells(store: Store, experiment_id: str) -> pd.DataFrame:
    """The experiment's done cells (one row per instance × agent × seed × repetition, metrics as columns)."""
    cells = cell_frame(store, experiment_id)
    return cells[cells["status"] == "done"].reset_index(drop=True)


def ci_table(
    cells: pd.DataFrame, columns: tuple[str, ...] = CI_COLUMNS, *, by_instance: bool = False
) -> pd.DataFrame:
    """Per agent (the oracle first, then first-seen order) and column: n, mean and the 95 % bootstrap CI of the
    mean over every done cell — all seeds and all instances (presets × catalogs) pooled — by
    `core.experiments.stats.summarize`; with `by_instance`, one row per instance and agent (over the seeds)."""
    rows = []
    keys = ["instance", "agent"] if by_instance else ["agent"]
    for key, group in cells.groupby(keys, sort=False):
        names = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        row: dict[str, object] = {**names, "instances": int(group["instance"].nunique())}
        for col in columns:
            if col in group:
                summary = stats.summarize(group[col].to_numpy(dtype=float))
                row["n"] = summary["n"]
                row.update({f"{col}_{k}": summary[k] for k in ("mean", "ci_low", "ci_high")})
        rows.append(row)
    return _oracle_first(pd.DataFrame(rows))


def gap_table(
    cells: pd.DataFrame, metric: str = "final_networth", reference: str = FULL_INFO
) -> pd.DataFrame:
    """Each agent's `metric` as a ratio to the `reference` agent's on the same instance, seed and repetition:
    n pairs, mean ratio and its 95 % CI, and the share of pairs where the agent beats the reference (a ratio above
    1 shows the reference is not an upper bound). Empty when the reference did not run."""
    keys = list(stats.PAIR_KEYS)
    ref = cells[cells["agent"] == reference]
    if ref.empty or metric not in cells:
        return pd.DataFrame(columns=["agent", "n", "mean", "ci_low", "ci_high", "beats_reference"])
    ref = ref.set_index(keys)[metric]
    rows = []
    for agent, group in cells.groupby("agent", sort=False):
        if agent == reference:
            continue
        joined = group.set_index(keys)[metric].to_frame("value").join(ref.rename("ref"), how="inner")
        joined = joined[joined["ref"].abs() > 0]
        ratio = (joined["value"] / joined["ref"]).to_numpy(dtype=float)
        summary = stats.summarize(ratio)
        rows.append({"agent": agent, "n": summary["n"], "mean": summary["mean"], "ci_low": summary["ci_low"],
                     "ci_high": summary["ci_high"],
                     "beats_reference": float((ratio > 1).mean()) if len(ratio) else math.nan})  # fmt: skip
    return pd.DataFrame(rows)


def _ci_cell(mean: object, low: object, high: object) -> str:
    if not isinstance(mean, int | float) or mean != mean:
        return "—"
    if not isinstance(low, int | float) or low != low or not isinstance(high, int | float) or high != high:
        return f"{mean:,.4g}"
    return f"{mean:,.4g} ± {(high - low) / 2:,.3g}"


def ci_markdown(frame: pd.DataFrame, columns: tuple[str, ...] = CI_COLUMNS) -> str:
    """The CI table in markdown: mean ± half the 95 % CI's width (n cells over the instances); an instance
    column first when the table is per instance."""
    lead = ["instance"] if "instance" in frame else []
    head = [*lead, "agent", "n", "instances", *columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in frame.to_dict("records"):
        cells = [
            *(str(r[k]) for k in lead),
            str(r["agent"]),
            str(r.get("n", "—")),
            str(r.get("instances", "—")),
        ]
        cells += [_ci_cell(r.get(f"{c}_mean"), r.get(f"{c}_ci_low"), r.get(f"{c}_ci_high")) for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def gap_markdown(frame: pd.DataFrame) -> str:
    """The ratio-to-full-information table in markdown."""
    lines = ["| agent | pairs | ratio to full_info (mean ± 95 % CI) | beats full_info |", "|---|---|---|---|"]
    for r in frame.to_dict("records"):
        beats = r["beats_reference"]
        lines.append(f"| {r['agent']} | {r['n']} | {_ci_cell(r['mean'], r['ci_low'], r['ci_high'])} | "
                     f"{'—' if beats != beats else f'{beats:.0%}'} |")  # fmt: skip
    return "\n".join(lines)


def strategy_notes(store: Store, experiment_id: str, judge: replay.Judge | None = None) -> list[str]:
    """Strategy instability of the Evolving-Strategy selected runs, one line each (the macro level needs an
    LLM judge: without a key the line says so)."""
    out = []
    for agent, _, _, sel in _selected(store, experiment_id):
        unstable = (
            replay.instability(store, str(sel.get("run_id")), judge=judge) if sel.get("run_id") else None
        )
        if unstable is None:
            continue
        ex, macro = unstable["execution"], unstable["macro"]
        macro_text = unstable.get("macro_note") or ", ".join(
            f"{k} {v:.3f}" for k, v in macro.items() if v is not None
        )
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
