"""Lab reports: seed 003 Tables 2-5 from experiment cells, with one-sided paired tests (scipy).

Rows are labelled with the kind of agents that produced them: the offline decision agents and the offline
T-P-P are deterministic stand-ins, and a report says so; LLM rows appear only when an LLM produced them.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from core.errors import SpecError
from core.experiments.report import cell_frame
from core.experiments.stats import paired_comparison
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.optimization_agents import PAPER_MODE
from core.store import Store

OFFLINE_NOTE = (
    "Decision agents: offline (deterministic stand-ins for the paper's LLM decision agents, not LLMs; for the "
    "precise style they are oracles, stating the outcome worth U* outright, so only the default-schedule row "
    "is comparable with the paper). "
    "Optimization agents labelled (offline) are the built-in T-P-P policy, not an LLM."
)
OFFLINE_OPTIMIZER_NOTE = "Optimization agents labelled (offline) are the built-in T-P-P policy, not an LLM."
STOPS = {0.0: "satisfied", 1.0: "ended", 2.0: "turn_limit"}


def decision_note(spec: dict[str, Any]) -> str:
    """Which decision agents produced an experiment's conversations (from its stored spec)."""
    try:
        decision = DecisionAgentSpec.from_config((spec.get("env") or {}).get("decision"))
    except SpecError:
        return "Decision agents: unreadable [env.decision] in the stored spec. " + OFFLINE_OPTIMIZER_NOTE
    if decision.kind == "offline":
        return OFFLINE_NOTE
    return f"Decision agents: {decision.label}. {OFFLINE_OPTIMIZER_NOTE}"


def agent_design(agent: dict[str, Any]) -> str:
    """An agent's design as reports name it (T-P-P paper mode spelled out)."""
    params = agent.get("params") or {}
    design = str(params.get("design", "T-P-P")).upper()
    if design == "T-P-P-PAPER" or params.get("paper"):
        return f"T-P-P ({PAPER_MODE})"
    return design


def lab_frame(store: Store, experiment_id: str) -> pd.DataFrame:
    """One row per finished conversation: instance parts, agent, score, success, turns, solver calls, stop."""
    cells = cell_frame(store, experiment_id)
    cells = cells[cells["status"] == "done"].copy() if "status" in cells else cells
    if cells.empty:  # no finished conversation (none yet, or every cell failed): nothing to split
        return cells.reset_index(drop=True)
    parts = cells["instance"].str.split("-", expand=True)
    cells["utility"], cells["style"], cells["feedback"] = parts[0], parts[1], parts[2]
    cells["success"] = cells["success"].astype(bool)
    cells["stop"] = cells["stop"].map(STOPS)
    return cells.reset_index(drop=True)


def summary_rows(frame: pd.DataFrame, by: list[str]) -> list[dict[str, Any]]:
    """Average score, success rate, mean turns and solver calls per group."""
    grouped = frame.groupby(by, sort=True)
    out = []
    for key, group in grouped:
        key = key if isinstance(key, tuple) else (key,)
        out.append(
            {
                **dict(zip(by, key, strict=True)),
                "n": int(len(group)),
                "avg_score": round(float(group["score"].mean()), 4),
                "success_rate": round(float(group["success"].mean()), 4),
                "turns": round(float(group["turns"].mean()), 3),
                "solver_calls": round(float(group["solver_calls"].mean()), 3),
            }
        )
    return out


def paired_one_sided(frame: pd.DataFrame, better: str, worse: str, metric: str = "score") -> dict[str, Any]:
    """H1: `better` > `worse` on `metric`, paired by instance: `core.experiments.stats.paired_comparison`
    one-sided (Wilcoxon signed-rank on the differences and paired t), with the mean difference's CI."""
    a = frame[frame["agent"] == better].set_index("instance")[metric].astype(float)
    b = frame[frame["agent"] == worse].set_index("instance")[metric].astype(float)
    common = a.index.intersection(b.index)
    a, b = a.loc[common], b.loc[common]
    out: dict[str, Any] = {"better": better, "worse": worse, "metric": metric, "pairs": int(len(common))}
    result = paired_comparison(a.to_numpy(), b.to_numpy(), goal="max", alternative="better")
    out["mean_difference"] = round(result["mean_diff"], 4) if len(common) else None
    out["ci_low"], out["ci_high"] = (
        None if math.isnan(v) else round(v, 4) for v in (result["ci_low"], result["ci_high"])
    )
    out["win_rate"] = None if math.isnan(result["win_rate"]) else result["win_rate"]
    if len(common) < 2 or not (a - b).any():
        out.update(wilcoxon_p=None, t_p=None, note="too few pairs or no differences")
        return out
    out["wilcoxon_p"] = None if math.isnan(result["wilcoxon_p"]) else result["wilcoxon_p"]
    out["t_p"] = None if math.isnan(result["ttest_p"]) else result["ttest_p"]
    return out


def table2(frame: pd.DataFrame) -> dict[str, Any]:
    """Table 2: one agent under the paradigms (default, one-shot, aware one-shot, conversation), by style."""
    rows = summary_rows(frame, ["agent"]) + summary_rows(frame, ["agent", "style"])
    agents = sorted(frame["agent"].unique())
    tests = []
    conv = next((a for a in agents if a.endswith("conversation")), None)
    if conv:
        for other in agents:
            if other != conv:
                tests.append(paired_one_sided(frame, conv, other))
                tests.append(paired_one_sided(frame, conv, other, "success"))
    return {"rows": rows, "tests": tests}


def table3(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Table 3 / 4: score, success and turns by design, communication style and feedback."""
    return summary_rows(frame, ["agent", "style", "feedback"]) + summary_rows(frame, ["agent"])


def lab_report(store: Store, experiment_id: str) -> dict[str, Any]:
    """Everything the CLI and page show for one lab experiment."""
    frame = lab_frame(store, experiment_id)
    spec = store.get_experiment(experiment_id).get("spec") or {}
    if isinstance(spec, str):
        spec = json.loads(spec)
    if frame.empty:
        return {"experiment_id": experiment_id, "note": decision_note(spec), "conversations": 0}
    stop_counts = frame.groupby(["agent", "stop"]).size().reset_index(name="n").to_dict("records")
    kinds = {a.get("name"): a.get("kind", "offline") for a in spec.get("agents", [])}
    llm_agents = sorted(name for name, kind in kinds.items() if kind == "llm")
    return {
        "experiment_id": experiment_id,
        "note": decision_note(spec),
        "agent_kinds": kinds,
        "agent_designs": {a.get("name"): agent_design(a) for a in spec.get("agents", [])},
        "llm_designs": f"included: {', '.join(llm_agents)}"
        if llm_agents
        else "not run: no LLM agents in this experiment (they need ANTHROPIC_API_KEY or OPENAI_API_KEY)",
        "conversations": int(len(frame)),
        "table2": table2(frame),
        "table3_4": table3(frame),
        "stops": stop_counts,
    }
