"""The critic and the Policy Interpretation Agent (seed 000 §2.4, Tables 9–10, Figure 4).

- `critique(result, table)`: before anything is presented, check the recommended policy against the stated
  constraints (capacity, max order) and the parameter table on simulated paths, and list the modelling
  assumptions behind every number (beyond the paper: its "future work" critic).
- `brief_from_result(result, report)`: what the agent may say, all numbers taken from the engine.
- `InterpretationAgent(model, brief)`: Scenario A (a simple rule or the exact DP wins: explain it in plain
  words) or Scenario B (the DQN wins: an on-demand expert answering order queries through the typed
  `calculate_dqn_order` tool, offering the simpler (s,S) and its cost difference when the user is confused or
  skeptical). Every answer ends with "Do you have any other questions?"; when the user is done the dialogue is
  archived as `interpret.txt`. Offline, `offline_policy(brief)` drives `core.llm.OfflineModel` through the
  same tool loop (`core.llm.run_tools`) as an LLM.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import SpecError
from core.inventory.nlu.numbers import words_to_digits
from core.llm import (
    ChatModel,
    Message,
    OfflineTurn,
    Step,
    Toolbox,
    ToolSpec,
    last_user_text,
    run_tools,
    trailing_tool_results,
)
from solvers.inventory import artifacts as engine_artifacts
from solvers.inventory.agent import OptimizationResult
from solvers.inventory.artifacts import parse_pipeline
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import (
    BaseStockPolicy,
    ConstantPolicy,
    RQPolicy,
    SSPolicy,
    TablePolicy,
    cut_off,
    truncate_orders,
)
from solvers.inventory.spec import InventoryProblem, format_number, table_from_problem

INTERPRET, DONE = "INTERPRET", "DONE"
CLOSING_QUESTION = "Do you have any other questions?"
OPENING_REQUEST = "Please present the optimization result and the recommended policy to me."
FAREWELL = (
    "Glad I could help. I have archived this conversation as interpret.txt together with the parameter "
    "table and the deployment artifacts. Good luck with your stock!"
)
_PROMPT_PATH = Path(__file__).with_name("interpretation_prompt.md")
FAMILY_NAMES = {
    "sS": "(s,S) rule",
    "sS_cutoff": "(s,S) rule with an end-of-plan stop",
    "base_stock": "order-up-to (base-stock) rule",
    "base_stock_cutoff": "order-up-to rule with an end-of-plan stop",
    "constant": "fixed daily order",
    "dp": "exact optimal plan (dynamic programming)",
    "dqn": "Deep Q-Network (DQN)",
}


# --- the critic ---


@dataclass(frozen=True)
class Check:
    """One critic check; `severity` is how bad a failure is ("error": do not present the policy as is,
    "warning": tell the user), or "info" for a note always worth telling."""

    name: str
    ok: bool
    severity: str
    message: str

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "ok": self.ok, "severity": self.severity, "message": self.message}


@dataclass(frozen=True)
class CriticReport:
    """The critic's checks of the recommended policy and the assumptions behind the numbers."""

    checks: tuple[Check, ...]
    assumptions: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """No failed error-level check."""
        return all(c.ok for c in self.checks if c.severity == "error")

    @property
    def findings(self) -> tuple[Check, ...]:
        """The checks worth telling the user about: failures and informational notes."""
        return tuple(c for c in self.checks if not c.ok or c.severity == "info")

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "checks": [c.to_dict() for c in self.checks],
            "assumptions": list(self.assumptions),
        }

    def text(self) -> str:
        """Bulleted findings for prompts and transcripts."""
        lines = [f"- [{'ok' if c.ok else c.severity.upper()}] {c.message}" for c in self.checks]
        return "\n".join(lines)


def policy_object(result: OptimizationResult, key: str) -> Any:
    """The policy object behind one finalist key of an optimization result."""
    if key == "dp" and result.dp is not None:
        return result.dp.policy
    if key == "dqn" and result.dqn is not None:
        return result.dqn.policy
    if key in result.searches:
        return result.searches[key].best_policy
    raise SpecError("policy", f"the result has no policy {key!r}")


def assumptions(problem: InventoryProblem) -> tuple[str, ...]:
    """The modelling conventions every reported number depends on, in plain words."""
    p = problem
    demand = p.demand
    if demand.kind == "normal":
        words = (
            f"Daily demand is drawn from a normal distribution (mean {format_number(demand.params[0])}, "
            f"sd {format_number(demand.params[1])}), rounded to the nearest whole unit and never below 0."
        )
    elif demand.kind == "poisson":
        words = (
            f"Daily demand is a whole number of units, Poisson with mean {format_number(demand.params[0])}."
        )
    elif demand.kind == "uniform":
        a, b = (format_number(x) for x in demand.params)
        words = f"Daily demand is any whole number from {a} to {b}, each equally likely."
    elif demand.kind == "deterministic":
        words = f"Daily demand is exactly {format_number(demand.params[0])} units every day."
    else:
        words = "Daily demand is resampled from your demand history."
    timing = (
        f"You review stock once a day; an order placed on a day arrives {p.lead_time} day(s) later, at the "
        "start of that day, before customers come."
        if p.lead_time
        else "You review stock once a day; an order arrives the same day, before customers come."
    )
    out = [
        f"You start with {p.initial_inventory} units on hand and nothing on order.",
        words,
        timing,
        "Holding cost is charged on the units left at the end of each day, the shortage penalty on each unit "
        + (
            "of demand you cannot serve (the sale is lost)"
            if p.lost_sales
            else "waiting as a backorder, for every day it waits"
        )
        + ", and the order fee once per order of any size.",
        "Orders above the max order, or that would push stock on hand plus on order above the storage "
        "capacity, are cut down to fit.",
        f"Leftover stock has no value at the end of the {p.time_horizon}-day plan.",
        f"Policies are compared by expected cost plus exp(-λ)·standard deviation with λ = "
        f"{format_number(p.risk_tolerance)}.",
    ]
    if p.perishable:
        out.insert(3, "Unsold units spoil and are thrown away at the end of each day.")
    return tuple(out)


def critique(
    result: OptimizationResult,
    table: Mapping[str, str] | None = None,
    paths: int = 200,
    seed: int = 0,
) -> CriticReport:
    """Check the recommended policy against the constraints and the table; `table` holds the agent's values."""
    p = result.problem
    key = result.recommended
    policy = policy_object(result, key)
    checks: list[Check] = []
    if table is not None:
        solved = table_from_problem(p)
        differ = [k for k, v in solved.items() if k in table and str(table[k]) != v]
        checks.append(
            Check(
                "table_matches_problem",
                not differ,
                "error",
                "The optimizer solved exactly the problem in the parameter table."
                if not differ
                else "The optimizer's problem differs from the table in: " + ", ".join(differ) + ".",
            )
        )
    checks += _rule_checks(p, key, policy, result)
    demand = demand_matrix(p, paths, seed + 7_919)
    ev = simulate_policy(p, policy, demand, record=paths)
    tr = ev.trajectory
    assert tr is not None
    after = tr.position + tr.orders
    checks.append(
        Check(
            "orders_within_max_order",
            int(tr.orders.max()) <= p.max_order,
            "error",
            f"On {paths} simulated paths no order exceeds the max order of {p.max_order} units "
            f"(largest: {int(tr.orders.max())})."
            if int(tr.orders.max()) <= p.max_order
            else f"A simulated order of {int(tr.orders.max())} units exceeds the max order of {p.max_order}.",
        )
    )
    checks.append(
        Check(
            "within_capacity",
            int(after.max()) <= p.max_inventory,
            "error",
            f"Stock on hand plus on order never exceeds the capacity of {p.max_inventory} units "
            f"(highest: {int(after.max())})."
            if int(after.max()) <= p.max_inventory
            else f"Stock plus orders reach {int(after.max())} units, above the capacity of {p.max_inventory}.",
        )
    )
    if p.lost_sales:
        low = int(tr.on_hand.min())
        checks.append(
            Check(
                "no_negative_stock",
                low >= 0,
                "error",
                "Stock on hand never goes negative (lost sales)."
                if low >= 0
                else f"Stock on hand reached {low} although sales are lost.",
            )
        )
    checks.append(_capped_check(p, policy, tr))
    late = [t for t in range(p.time_horizon) if cut_off(p, t)]
    late_orders = float((tr.orders[:, late] > 0).sum(axis=1).mean()) if late else 0.0
    checks.append(
        Check(
            "no_orders_too_late",
            late_orders == 0,
            "warning",
            "No order is placed too late to arrive before the plan ends."
            if late_orders == 0
            else f"On average {late_orders:.1f} order(s) per plan are placed in the last {len(late)} day(s) and "
            f"arrive after the plan ends (they cost {p.setup_cost:g} each in fees and are never sold within the "
            "plan); in practice, stop ordering then.",
        )
    )
    lam = p.risk_tolerance
    best = min(result.evaluations, key=lambda k: result.evaluations[k].objective(lam))
    checks.append(
        Check(
            "recommended_minimises_objective",
            best == key,
            "error",
            f"The recommended policy has the lowest objective among the {len(result.evaluations)} finalists."
            if best == key
            else f"{best} has a lower objective than the recommended {key}.",
        )
    )
    if key != "sS" and "sS" in result.evaluations:
        checks.append(_difference_check(result, key))
    if result.dp_refusal:
        checks.append(
            Check("exact_dp", True, "info", f"The exact optimum was not computed: {result.dp_refusal}")
        )
    elif result.dp is not None:
        gap = (result.evaluations[key].mean - result.dp.optimal_cost) / max(abs(result.dp.optimal_cost), 1e-9)
        checks.append(
            Check(
                "exact_dp",
                True,
                "info",
                f"The exact optimal expected cost is {_money(result.dp.optimal_cost)}; the recommended policy's "
                f"simulated mean is {100 * gap:+.1f}% from it.",
            )
        )
    return CriticReport(tuple(checks), assumptions(p))


def _rule_checks(p: InventoryProblem, key: str, policy: Any, result: OptimizationResult) -> list[Check]:
    rules: list[tuple[str, int, int]] = []
    if isinstance(policy, SSPolicy | BaseStockPolicy):
        rules.append((key, policy.S, getattr(policy, "s", policy.S)))
    if key != "sS" and "sS" in result.searches:
        best = result.searches["sS"].best_policy
        rules.append(("sS", best.S, best.s))
    checks = []
    for name, S, s in rules:
        ok = s <= S <= p.max_inventory
        checks.append(
            Check(
                f"{name}_levels",
                ok,
                "error",
                f"{_title(name)}: order-up-to level {S} is within the capacity of "
                f"{p.max_inventory} units" + (f" and the reorder point {s} is below it." if s != S else ".")
                if ok
                else f"{_title(name)}: levels s={s}, S={S} break the capacity "
                f"of {p.max_inventory} units or s ≤ S.",
            )
        )
    if isinstance(policy, ConstantPolicy):
        ok = policy.q <= p.max_order
        checks.append(
            Check(
                "constant_order_size",
                ok,
                "error",
                f"The fixed order of {policy.q} units respects the max order of {p.max_order}."
                if ok
                else f"The fixed order of {policy.q} units exceeds the max order of {p.max_order}.",
            )
        )
    return checks


def _capped_check(p: InventoryProblem, policy: Any, tr: Any) -> Check:
    """Does the rule, as stated, ever ask for more than the max order or the free capacity?"""
    asked = np.zeros_like(tr.orders)
    for t in range(p.time_horizon):
        asked[:, t] = np.asarray(policy.orders(p, t, tr.on_hand[:, t], tr.pipeline[:, t]), dtype=np.int64)
    capped = asked > truncate_orders(p, asked.ravel(), tr.position.ravel()).reshape(asked.shape)
    if not capped.any():
        return Check("orders_need_no_cap", True, "warning", "The rule never asks for more than fits.")
    share = 100 * float(capped.mean())
    return Check(
        "orders_need_no_cap",
        False,
        "warning",
        f"The rule sometimes asks for more than fits (up to {int(asked.max())} units, in {share:.1f}% of days); "
        f"such orders are cut to at most {p.max_order} units and to the free capacity, and the costs "
        "already include that.",
    )


def _difference_check(result: OptimizationResult, key: str) -> Check:
    a, b = result.evaluations[key], result.evaluations["sS"]
    if len(a.costs) != len(b.costs):
        return Check(
            "difference_significant", True, "info", "The finalists were not evaluated on common paths."
        )
    diff = b.costs - a.costs
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 0.0
    mean = float(diff.mean())
    significant = se == 0 or abs(mean) > 1.96 * se
    return Check(
        "difference_significant",
        significant,
        "info" if significant else "warning",
        f"The best plain (s,S) rule costs {_money(mean)} more on average (± {_money(1.96 * se)} at 95%), a "
        "real difference on common paths."
        if significant
        else f"The difference to the best plain (s,S) rule ({_money(mean)} ± {_money(1.96 * se)}) is within "
        "simulation noise; the simpler rule is as good in practice.",
    )


# --- the brief: what the agent may say ---


@dataclass(frozen=True)
class PolicyBrief:
    """The engine's numbers for the interpretation agent; `scenario` is "A" (explainable) or "B" (DQN)."""

    scenario: str
    recommended: str
    recommended_policy: str
    problem: InventoryProblem
    costs: dict[str, dict[str, Any]]
    s: int
    S: int
    cost_diff_pct: float
    rule: dict[str, Any]
    critic: CriticReport
    paths: int
    artifacts_dir: Path | None = None
    policy: Any = field(default=None, repr=False, compare=False)

    def policy_dict(self) -> dict[str, object]:
        """The chat protocol's `policy` object."""
        c = self.costs
        return {
            "type": "dqn" if self.scenario == "B" else "sS",
            "recommended": self.recommended,
            "recommended_policy": self.recommended_policy,
            "label": _display(self),
            "s": self.s,
            "S": self.S,
            "ss_mean": c["sS"]["mean"] if "sS" in c else None,
            "dqn_mean": c["dqn"]["mean"] if "dqn" in c else None,
            "recommended_mean": c[self.recommended]["mean"],
            "objective": c[self.recommended]["objective"],
            "cost_diff_pct": round(self.cost_diff_pct, 2),
            "rule": self.rule,
            "policies": c,
            "critic": self.critic.to_dict(),
        }


def brief_from_result(result: OptimizationResult, report: CriticReport, seed: int = 0) -> PolicyBrief:
    """Gather the numbers and the plain-words rule of the recommended policy."""
    lam = result.problem.risk_tolerance
    costs = {
        k: {
            "policy": ev.policy,
            "mean": round(ev.mean, 4),
            "std": round(ev.std, 4),
            "ci95": [round(ev.ci95[0], 4), round(ev.ci95[1], 4)],
            "objective": round(ev.objective(lam), 4),
            "fill_rate": round(ev.fill_rate, 4),
            "holding": round(ev.holding_cost, 4),
            "penalty": round(ev.penalty_cost, 4),
            "setup": round(ev.setup_cost, 4),
            "orders": round(ev.orders_placed, 2),
        }
        for k, ev in result.evaluations.items()
    }
    key = result.recommended
    policy = policy_object(result, key)
    rec = costs[key]["objective"]
    ss = costs["sS"]["objective"] if "sS" in costs else rec
    diff = 100 * (ss - rec) / abs(rec) if rec else 0.0
    return PolicyBrief(
        scenario="B" if key == "dqn" else "A",
        recommended=key,
        recommended_policy=result.recommended_policy,
        problem=result.problem,
        costs=costs,
        s=result.s,
        S=result.S,
        cost_diff_pct=diff,
        rule=_rule(result.problem, key, policy, seed),
        critic=report,
        paths=result.evaluations[key].paths,
        artifacts_dir=result.artifacts_dir,
        policy=policy,
    )


def _rule(p: InventoryProblem, key: str, policy: Any, seed: int) -> dict[str, Any]:
    """The recommended policy's parameters; a table policy is summarised from how it behaves in simulation."""
    cutoff = bool(getattr(policy, "cutoff", False))
    if isinstance(policy, SSPolicy):
        return {"kind": "sS", "s": policy.s, "S": policy.S, "cutoff": cutoff}
    if isinstance(policy, BaseStockPolicy):
        return {"kind": "base_stock", "S": policy.S, "cap": policy.cap or p.max_order, "cutoff": cutoff}
    if isinstance(policy, ConstantPolicy):
        return {"kind": "constant", "q": policy.q, "cutoff": cutoff}
    if isinstance(policy, RQPolicy):
        return {"kind": "rQ", "R": policy.R, "Q": policy.Q, "cutoff": cutoff}
    if key == "dqn":
        return {"kind": "dqn"}
    ev = simulate_policy(p, policy, demand_matrix(p, 300, seed + 15_485_863), record=300)
    tr = ev.trajectory
    assert tr is not None
    steady = max(1, p.time_horizon - p.lead_time - 1)
    pos, orders = tr.position[:, :steady].ravel(), tr.orders[:, :steady].ravel()
    ordered = orders > 0
    rule: dict[str, Any] = {"kind": "table" if isinstance(policy, TablePolicy) else key}
    if ordered.any():
        levels = np.unique(pos)
        rates = {int(v): float(ordered[pos == v].mean()) for v in levels}
        reorder = max((v for v, r in rates.items() if r >= 0.5), default=int(pos[ordered].max()))
        rule["reorder_at"] = reorder
        rule["order_up_to"] = int(np.median(pos[ordered] + orders[ordered]))
        rule["last_order_day"] = int(np.nonzero(tr.orders.any(axis=0))[0].max()) + 1
    return rule


def rule_sentence(brief: PolicyBrief) -> str:
    """The recommended rule in one plain sentence."""
    r, p = brief.rule, brief.problem
    stop = (
        f" In the last {p.lead_time + 1} day(s) of the plan, order nothing: it would arrive too late to sell."
        if r.get("cutoff") and p.lead_time
        else " On the last day of the plan, order nothing."
        if r.get("cutoff")
        else ""
    )
    position = "your stock position (units on the shelf plus units ordered but not yet delivered)"
    if r["kind"] == "sS":
        cap = f" (at most {p.max_order} units per order)" if r["S"] - r["s"] >= p.max_order else ""
        return (
            f"Every day, check {position}. If it is below {r['s']}, order enough to bring it back up to "
            f"{r['S']}{cap}; otherwise order nothing.{stop}"
        )
    if r["kind"] == "base_stock":
        return (
            f"Every day, check {position}, and order the gap up to {r['S']} units, but never more than "
            f"{r['cap']} units at once.{stop}"
        )
    if r["kind"] == "constant":
        return f"Order {r['q']} units every day, whatever the stock.{stop}"
    if r["kind"] == "rQ":
        return f"Every day, if {position} is below {r['R']}, order a batch of {r['Q']} units.{stop}"
    if r["kind"] == "dqn":
        return "Ask the DQN each day: give it your stock, the day and the orders on the way, and order what it says."
    if "reorder_at" not in r:
        return "Order nothing: at these costs no order pays for itself within the plan."
    return (
        f"It is a day-by-day lookup table, but in simulation it behaves like this: when {position} is at or "
        f"below about {r['reorder_at']}, order enough to bring it up to about {r['order_up_to']}; its last "
        f"orders come around day {r['last_order_day']}, because later ones would arrive too late to pay off."
    )


def _ss_sentence(brief: PolicyBrief) -> str:
    return (
        f"If stock on hand plus on order is below {brief.s}, order up to {brief.S}"
        + (
            f" (at most {brief.problem.max_order} per order)"
            if brief.S - brief.s >= brief.problem.max_order
            else ""
        )
        + "."
    )


# --- plain-words texts (offline agent, and the facts the LLM prompt carries) ---


def _display(brief: PolicyBrief) -> str:
    name = FAMILY_NAMES.get(brief.recommended, brief.recommended)
    return name if brief.recommended_policy == brief.recommended else f"{name} {brief.recommended_policy}"


def _title(key: str) -> str:
    name = FAMILY_NAMES.get(key, key)
    return name[:1].upper() + name[1:]


def _money(x: float) -> str:
    return f"-${-x:,.2f}" if x < 0 else f"${x:,.2f}"


def _cost_table(brief: PolicyBrief) -> str:
    rows = sorted(brief.costs.items(), key=lambda kv: kv[1]["objective"])
    return "\n".join(
        f"- {k} = {v['policy']}: mean {_money(v['mean'])} (95% CI {_money(v['ci95'][0])}–{_money(v['ci95'][1])}), "
        f"std {_money(v['std'])}, objective {v['objective']:.2f}, fill rate {100 * v['fill_rate']:.1f}%"
        + (" ← recommended" if k == brief.recommended else "")
        for k, v in rows
    )


def system_prompt(brief: PolicyBrief) -> str:
    """Table 9 or Table 10 of seed 000 filled with this instance's numbers, critic and assumptions."""
    sections = _prompt_sections()
    p, c = brief.problem, brief.costs
    rec = c[brief.recommended]
    ss = c.get("sS", rec)
    values = {
        "lead_time": p.lead_time,
        "time_horizon": p.time_horizon,
        "demand": p.demand.canonical(),
        "holding_cost": format_number(p.holding_cost),
        "penalty_cost": format_number(p.penalty_cost),
        "shortage_model": "lost sale" if p.lost_sales else "per unit per day of backlog",
        "setup_cost": format_number(p.setup_cost),
        "max_inventory": p.max_inventory,
        "max_order": p.max_order,
        "risk_tolerance": format_number(p.risk_tolerance),
        "paths": brief.paths,
        "cost_table": _cost_table(brief),
        "critic": brief.critic.text(),
        "assumptions": "\n".join(f"- {a}" for a in brief.critic.assumptions),
        "policy_name": f"{FAMILY_NAMES.get(brief.recommended, brief.recommended)} {brief.recommended_policy}",
        "policy_words": f"mean cost {_money(rec['mean'])} over the plan",
        "s": brief.s,
        "S": brief.S,
        "ss_cost": _money(ss["mean"]),
        "ss_compare": f", {brief.cost_diff_pct:.1f}% more than the recommended policy in L(π)"
        if brief.recommended != "sS"
        else "",
        "dqn_sentence": f" The DQN averaged {_money(c['dqn']['mean'])}." if "dqn" in c else "",
        "rule_sentence": rule_sentence(brief),
        "dqn_cost": _money(rec["mean"]),
        "cost_diff": f"{brief.cost_diff_pct:.1f}",
        "rule_sentence_ss": _ss_sentence(brief),
    }
    body = sections["Common"] + "\n" + sections[f"Scenario {brief.scenario}"]
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), body).strip() + "\n"


def _prompt_sections() -> dict[str, str]:
    text = _PROMPT_PATH.read_text(encoding="utf-8")
    parts = re.split(r"^# (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def explanation(brief: PolicyBrief) -> str:
    """Scenario A's opening: the rule in plain words, why these numbers, what it costs, checks, assumptions."""
    c = brief.costs
    name = FAMILY_NAMES.get(brief.recommended, brief.recommended)
    shown = "" if brief.recommended_policy == brief.recommended else f", **{brief.recommended_policy}**"
    parts = [f"I recommend the {name}{shown}. In plain words: {rule_sentence(brief)}"]
    parts.append(_why(brief))
    parts.append(_cost_words(brief, brief.recommended))
    if brief.recommended != "sS" and "sS" in c:
        parts.append(
            f"For comparison, the simplest rule (order up to {brief.S} when stock plus orders fall below "
            f"{brief.s}) averages {_money(c['sS']['mean'])}, {brief.cost_diff_pct:.1f}% more in the objective."
        )
    parts.append(_critic_words(brief))
    return "\n\n".join(parts)


def _why(brief: PolicyBrief) -> str:
    p, r = brief.problem, brief.rule
    mean = p.demand.mean
    days = p.lead_time + 1
    cover = mean * days
    level = r.get("s", r.get("reorder_at", r.get("R", r.get("S"))))
    if r["kind"] == "constant":
        return (
            f"Why: you sell about {format_number(round(mean, 2))} units a day, so a steady order of {r['q']} keeps "
            "the shelf stocked without any counting; at these costs that beats reacting to stock levels."
        )
    if level is None:
        return (
            f"Why: you sell about {format_number(round(mean, 2))} units a day and an order takes {p.lead_time} "
            "day(s) to arrive; the policy balances holding, shortage and order costs from the state you are in."
        )
    gap = level - cover
    buffer = (
        f"a safety buffer of about {format_number(round(gap, 1))} units above"
        if gap >= 0
        else f"about {format_number(round(-gap, 1))} units less than"
    )
    text = (
        f"Why these numbers: you sell about {format_number(round(mean, 2))} units a day, and from the day you "
        f"order until that delivery is on the shelf ({p.lead_time} day(s) of lead time plus the day itself) you "
        f"sell about {format_number(round(cover, 1))} units on average; the trigger level {level} is {buffer} "
        "that"
    )
    text += (
        ", because a missed sale costs more than holding a unit for a few days."
        if gap >= 0
        else ", because at these costs running short now and then is cheaper than carrying extra stock."
    )
    top = r.get("S", r.get("order_up_to"))
    if top is not None and p.setup_cost > 0:
        text += (
            f" Ordering up to {top} rather than just topping up spreads the ${format_number(p.setup_cost)} "
            f"order fee over bigger batches, against ${format_number(p.holding_cost)} per unit per day of holding."
        )
    return text


def _cost_words(brief: PolicyBrief, key: str) -> str:
    p, v = brief.problem, brief.costs[key]
    return (
        f"What it costs: about {_money(v['mean'])} over the {p.time_horizon}-day plan "
        f"({_money(v['mean'] / p.time_horizon)} a day; 95% range of the average {_money(v['ci95'][0])}–"
        f"{_money(v['ci95'][1])}, standard deviation {_money(v['std'])} across simulated plans): holding "
        f"{_money(v['holding'])}, shortages {_money(v['penalty'])}, order fees {_money(v['setup'])}. You serve "
        f"{100 * v['fill_rate']:.1f}% of demand and place about {v['orders']:.1f} orders."
    )


def _critic_words(brief: PolicyBrief) -> str:
    report = brief.critic
    passed = [c for c in report.checks if c.ok and c.severity == "error"]
    lines = [
        f"Before presenting it I checked it against your table: {len(passed)} check(s) passed"
        + (" (capacity, max order, the table itself)." if passed else ".")
    ]
    lines += [f"- Note: {c.message}" for c in report.findings]
    lines.append("Assumptions: " + " ".join(report.assumptions))
    return "\n".join(lines)


def dqn_overview(brief: PolicyBrief) -> str:
    """Scenario B's opening (Figure 4): the DQN as an on-demand expert."""
    c, p = brief.costs, brief.problem
    ss = c.get("sS")
    compare = f", lower than the standard (s,S) policy's {_money(ss['mean'])}" if ss else ""
    pipeline = (
        f" and any Pipeline Orders (the {p.lead_time} incoming order(s), next arrival first, 0 for none)"
        if p.lead_time
        else ""
    )
    return "\n\n".join(
        [
            f"I have analyzed the policies. The Deep Q-Network (DQN) is the best-performing policy for your "
            f"objective (average cost {_money(c['dqn']['mean'])} over {p.time_horizon} days{compare}). The DQN "
            "uses a neural network to choose each day's order from the current state, so think of it as an "
            "on-demand expert: to get a recommendation, tell me your Current Inventory, the Current Time Step "
            f"(the day of the plan){pipeline}.",
            _cost_words(brief, "dqn"),
            _critic_words(brief),
        ]
    )


def opening_text(brief: PolicyBrief) -> str:
    """The offline agent's first message for either scenario."""
    body = dqn_overview(brief) if brief.scenario == "B" else explanation(brief)
    return with_closing(body)


def with_closing(text: str) -> str:
    """Make sure an answer ends with the closing question."""
    text = text.rstrip()
    if text.lower().endswith(CLOSING_QUESTION.lower()):
        return text
    return f"{text}\n\n{CLOSING_QUESTION}"


# --- order queries ---


@dataclass(frozen=True)
class OrderQuery:
    """A state read from a message: on-hand, time step (0-based) and pipeline text; notes explain readings."""

    current_inventory: int | None
    current_time_step: int | None
    pipeline_orders: str | None
    notes: tuple[str, ...] = ()


_INV_RE = re.compile(
    r"(?:inventory|stock|on[- ]hand|i have|we have|have got|holding|left)\D{0,25}?(\d+)"
    r"|(\d+)\s*(?:units?|items?|pieces?)?\s*(?:on hand|in stock|left|on the shelf|in inventory)",
    re.I,
)
_DAY_RE = re.compile(r"\bday\s*(?:number\s*|no\.?\s*|#\s*)?(\d+)", re.I)
_STEP_RE = re.compile(r"\b(?:time[- ]?step|step|period|t\s*=)\s*(\d+)", re.I)
_NO_PIPE_RE = re.compile(
    r"\bno(?:thing)?\s+(?:\w+\s+)?(?:incoming|pipeline|outstanding|open|pending)|nothing\s+(?:on order|"
    r"incoming|in the pipeline|on the way|coming)|no orders?\s+(?:on the way|in transit|coming|pending)|"
    r"pipeline\s+(?:is\s+)?empty|empty pipeline|none (?:incoming|on order)|nothing ordered",
    re.I,
)
_PIPE_AFTER_RE = re.compile(
    r"(\d+(?:\s*(?:,|and)\s*\d+)*)\s*(?:units?\s*)?(?:arriving|incoming|on order|on the way|in transit|coming)",
    re.I,
)
_PIPE_RE = re.compile(
    r"(?:pipeline|incoming|on order|on the way|outstanding|in transit|arriving)\D{0,30}?"
    r"(\d+(?:\s*(?:,|and|then|&|\s)\s*\d+)*)",
    re.I,
)


def parse_order_query(text: str, lead_time: int) -> OrderQuery | None:
    """Read "current inventory 4, day 4, no incoming orders"; None when no inventory level is given."""
    t = words_to_digits(text)
    inv = _INV_RE.search(t)
    if inv is None:
        return None
    notes: list[str] = []
    step: int | None = None
    spans = [inv.span()]
    if m := _STEP_RE.search(t):
        step, spans = int(m.group(1)), [*spans, m.span()]
    elif m := _DAY_RE.search(t):
        day = int(m.group(1))
        step, spans = max(day - 1, 0), [*spans, m.span()]
        notes.append(f"day {day} is time step {step} (the first day of the plan is step 0)")
    rest = t
    for a, b in spans:
        rest = rest[:a] + " " * (b - a) + rest[b:]
    pipeline: str | None = None
    if lead_time == 0 or _NO_PIPE_RE.search(t):
        pipeline = ""
    elif m := _PIPE_RE.search(rest) or _PIPE_AFTER_RE.search(rest):
        values = [int(x) for x in re.findall(r"\d+", m.group(1))]
        if len(values) < lead_time:
            notes.append(
                f"I read {len(values)} incoming order(s) for a {lead_time}-day lead time and took the rest as 0, "
                "next arrival first"
            )
            values += [0] * (lead_time - len(values))
        pipeline = ",".join(str(v) for v in values[:lead_time])
    return OrderQuery(int(inv.group(1) or inv.group(2)), step, pipeline, tuple(notes))


def make_order_tool(brief: PolicyBrief) -> Callable[..., dict[str, object]]:
    """The order tool for this scenario: `calculate_dqn_order` (B) or `calculate_policy_order` (A)."""
    p = brief.problem
    if brief.scenario == "B":
        if brief.artifacts_dir is None:
            raise SpecError("artifacts", "the DQN won but no deployment artifacts were written")
        folder = brief.artifacts_dir

        def calculate_dqn_order(
            current_inventory: int, current_time_step: int, pipeline_orders: str = ""
        ) -> dict[str, object]:
            """Recommended order quantity from the trained DQN for the current state of the stock.

            Args:
                current_inventory: units on hand now, before today's delivery
                current_time_step: today's period, counting from 0 for the first day of the plan
                pipeline_orders: outstanding orders, next arrival first, comma-separated such as "0,5"; "" when none
            """
            return engine_artifacts.calculate_dqn_order(
                current_inventory, current_time_step, _pipeline_text(pipeline_orders), folder
            )

        return calculate_dqn_order

    policy = brief.policy

    def calculate_policy_order(
        current_inventory: int, current_time_step: int = 0, pipeline_orders: str = ""
    ) -> dict[str, object]:
        """Order quantity the recommended policy places in the current state of the stock.

        Args:
            current_inventory: units on hand now, before today's delivery
            current_time_step: today's period, counting from 0 for the first day of the plan
            pipeline_orders: outstanding orders, next arrival first, comma-separated such as "0,5"; "" when none
        """
        pipe = parse_pipeline(_pipeline_text(pipeline_orders), p.lead_time)
        low = 0 if p.lost_sales else -10 * p.max_inventory
        if not low <= current_inventory <= p.max_inventory:
            raise SpecError(
                "current_inventory", f"must lie between {low} and the max inventory {p.max_inventory}"
            )
        if not 0 <= current_time_step < p.time_horizon:
            raise SpecError("current_time_step", f"must lie between 0 and {p.time_horizon - 1}")
        on_hand, pipeline = (
            np.array([current_inventory]),
            np.array([pipe], dtype=np.int64).reshape(1, p.lead_time),
        )
        ip = on_hand + pipeline.sum(axis=1)
        asked = np.asarray(policy.orders(p, current_time_step, on_hand, pipeline), dtype=np.int64)
        order = int(truncate_orders(p, asked, ip)[0])
        return {
            "recommended_order": order,
            "inventory_position": int(ip[0]),
            "policy": brief.recommended_policy,
        }

    return calculate_policy_order


def _pipeline_text(pipeline_orders: str) -> str:
    """ "0" (the paper's way of saying nothing is on order) and "" both mean an empty pipeline."""
    values = [x for x in re.split(r"[,\s]+", pipeline_orders.strip().strip("[]")) if x]
    return "" if all(v == "0" for v in values) else ",".join(values)


# --- the offline policy ---

_DONE_PHRASES = {
    "no", "nope", "nah", "no thanks", "no thank you", "no thanks you", "thanks", "thank you", "thanks a lot",
    "thank you very much", "many thanks", "thats all", "that is all", "thats it", "that is it", "im done",
    "i am done", "we are done", "were done", "done", "all good", "nothing else", "nothing more",
    "no more questions", "no other questions", "no further questions", "no questions", "bye", "goodbye",
    "ok", "okay", "great", "perfect", "got it", "understood", "im good", "all clear", "cheers",
    "that will be all", "thats everything", "i understand", "makes sense", "that makes sense", "sounds good",
    "i will use it", "ill use it", "i will adopt it", "ill adopt it",
}  # fmt: skip
_CONFUSED_RE = re.compile(
    r"what(?:'s| is| are)\s+(?:a |the |this )?(?:dqn|deep q|neural|q[- ]network)|don'?t (?:get|understand|"
    r"trust)|confus|skeptic|sceptic|black[- ]box|not sure|why should|how (?:does|do) (?:it|the dqn|that) work|"
    r"too complicated|complex|simpl|explain|trust|rather have|prefer|intuitive|understand",
    re.I,
)
_CHOOSE_SS_RE = re.compile(
    r"(?:use|go with|take|adopt|prefer|choose|pick)\s+(?:the\s+)?(?:simple|simpler|\(?s\s*,\s*s\)?|ss|rule)",
    re.I,
)
_CHOOSE_DQN_RE = re.compile(
    r"(?:use|go with|take|adopt|prefer|choose|pick)\s+(?:the\s+)?(?:better|dqn|best)", re.I
)
_COST_RE = re.compile(r"cost|expens|how much (?:will|would|does)|budget|money|spend", re.I)
_ASSUME_RE = re.compile(r"assum|start|round|when do(?:es)? (?:orders?|deliver)|arriv|check|critic", re.I)
_COMPARE_RE = re.compile(r"compar|other polic|alternative|versus|\bvs\b|instead|differen", re.I)
_RULE_RE = re.compile(
    r"when (?:should|do) (?:i|we) order|how much (?:should|do) (?:i|we) order|reorder|order[- ]up[- ]to|"
    r"\bs\b|what does .* mean|rule|how does (?:it|this|the policy) work",
    re.I,
)
_ORDER_WORDS_RE = re.compile(r"order|inventory|stock|on hand|day|step", re.I)


def is_done(text: str) -> bool:
    """Does the message only say "no thanks" / "that's all" and the like?"""
    clean = re.sub(r"[^a-z ,.;!]", "", text.lower().replace("'", "").replace("’", ""))
    pieces = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"[,.;!]", clean)]
    pieces = [p for p in pieces if p]
    return bool(pieces) and all(p in _DONE_PHRASES for p in pieces)


def offline_policy(brief: PolicyBrief) -> Callable[[str, Sequence[Message], Sequence[ToolSpec]], OfflineTurn]:
    """The deterministic interpretation agent: same tool protocol as an LLM (asks for tool calls, reads results)."""
    p = brief.problem

    def policy(system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> OfflineTurn:
        names = {t.name for t in tools}
        results = trailing_tool_results(messages)
        text = last_user_text(messages)
        if results:
            return OfflineTurn(_answer_tool(brief, results[-1], parse_order_query(text, p.lead_time)))
        if text == OPENING_REQUEST:
            return OfflineTurn(opening_text(brief))
        query = parse_order_query(text, p.lead_time)
        tool = next(iter(names), None)
        if query is not None and tool is not None:
            missing = []
            if query.current_time_step is None and (brief.scenario == "B" or _time_dependent(brief)):
                missing.append("the current time step (the day of the plan)")
            if query.pipeline_orders is None:
                missing.append(
                    f"the pipeline orders ({p.lead_time} number(s), next arrival first, or 'no incoming orders')"
                )
            if missing:
                return OfflineTurn(
                    with_closing(
                        f"To compute the order I also need {' and '.join(missing)}. You said the inventory is "
                        f"{query.current_inventory}."
                    )
                )
            args = {
                "current_inventory": query.current_inventory,
                "current_time_step": query.current_time_step or 0,
                "pipeline_orders": query.pipeline_orders,
            }
            return OfflineTurn("", [(tool, args)])
        return OfflineTurn(with_closing(_answer_question(brief, text)))

    return policy


def _time_dependent(brief: PolicyBrief) -> bool:
    return bool(brief.rule.get("cutoff")) or brief.rule["kind"] in ("table", "dqn")


def _answer_tool(brief: PolicyBrief, result: Message, query: OrderQuery | None) -> str:
    try:
        data = json.loads(result.content)
    except ValueError:
        data = {"error": result.content}
    if "error" in data:
        return with_closing(f"I could not compute that order: {data['error']}. Could you check the numbers?")
    order = data.get("recommended_order")
    notes = f" (Reading your message: {'; '.join(query.notes)}.)" if query and query.notes else ""
    if brief.scenario == "B":
        body = (
            f"Based on the provided information and the DQN policy, I recommend placing an order for {order} "
            f"units.{notes} This decision balances holding, shortage and ordering costs over the rest of the plan "
            f"(the network values this state at {_money(-float(data.get('q_value', 0.0)))} of expected cost to go)."
        )
    else:
        ip = data.get("inventory_position")
        body = (
            f"With the {_display(brief)}, order {order} units now.{notes} Your inventory position "
            f"(on hand plus on order) is {ip}. {rule_sentence(brief)}"
        )
    return with_closing(body)


def _answer_question(brief: PolicyBrief, text: str) -> str:
    c = brief.costs
    b = brief.scenario == "B"
    if b and _CHOOSE_SS_RE.search(text):
        return (
            f"Understood, the simpler rule it is: {_ss_sentence(brief)} It costs {brief.cost_diff_pct:.1f}% more "
            f"in the objective than the DQN (average {_money(c['sS']['mean'])} versus {_money(c['dqn']['mean'])}), "
            "in exchange for a rule you can apply by hand."
        )
    if b and _CHOOSE_DQN_RE.search(text):
        return (
            "Great choice! To use the DQN policy and get an optimal order recommendation, I'll need: 1. your "
            "Current Inventory Level, 2. the Current Time Step (day of the plan), 3. the Pipeline Orders (any "
            "incoming orders, as a comma-separated list, next arrival first)."
        )
    if b and _CONFUSED_RE.search(text):
        return (
            "The Deep Q-Network (DQN) is a reinforcement-learning method: a neural network that learned, from "
            "many simulated plans of your business, how much total cost each possible order leads to from a "
            "given state (stock on hand, the day, orders on the way), and it recommends the cheapest one. It "
            "adapts the order to the situation rather than following a fixed threshold.\n\n"
            f"If you're interested in a simpler policy, the (s = {brief.s}, S = {brief.S}) policy exists but it "
            f"costs {brief.cost_diff_pct:.1f}% more: {_ss_sentence(brief)} Which policy would you like to use?"
        )
    if _ASSUME_RE.search(text):
        return _critic_words(brief)
    if _COMPARE_RE.search(text):
        return "Here is how every policy did on the same simulated demand:\n" + _cost_table(brief)
    if _COST_RE.search(text):
        return _cost_words(brief, brief.recommended)
    if _RULE_RE.search(text) and not b:
        return f"{rule_sentence(brief)}\n\n{_why(brief)}"
    if _ORDER_WORDS_RE.search(text):
        need = "your current inventory, the day of the plan" + (
            " and the incoming orders (next arrival first)" if brief.problem.lead_time else ""
        )
        return f"To tell you how much to order now, give me {need}, for example 'inventory 4, day 4, no incoming orders'."
    if b:
        return (
            "The DQN is your on-demand expert: give me your current inventory, the day of the plan and the "
            "incoming orders, and I will compute the order. I can also explain the DQN, the costs, or the "
            "simpler (s,S) alternative."
        )
    return (
        f"In short: {rule_sentence(brief)} I can also go through the costs, the alternatives I compared, the "
        "assumptions, or compute the order for a given stock level."
    )


# --- the agent ---


@dataclass(frozen=True)
class InterpretationTurn:
    """One agent answer: text, INTERPRET or DONE, the tool calls it ran and the new loop messages."""

    assistant: str
    action: str
    tool_calls: tuple[dict[str, Any], ...] = ()
    messages: tuple[Message, ...] = ()


class InterpretationAgent:
    """Q&A about the recommended policy through `run_tools`; `transcript()` is `interpret.txt`."""

    def __init__(
        self,
        model: ChatModel,
        brief: PolicyBrief,
        on_step: Callable[[Step], None] | None = None,
        max_steps: int = 6,
    ) -> None:
        self.model = model
        self.brief = brief
        self.system = system_prompt(brief)
        self.toolbox = Toolbox([make_order_tool(brief)])
        self.on_step = on_step
        self.max_steps = max_steps
        self.history: list[Message] = []
        self.log: list[tuple[str, str]] = []
        self.done = False

    def opening(self) -> InterpretationTurn:
        """Present the recommended policy (critic findings and assumptions included)."""
        turn = self._run(OPENING_REQUEST, show_user=False)
        text = turn.assistant
        if "assum" not in text.lower():
            text = with_closing(
                text.removesuffix(CLOSING_QUESTION).rstrip() + "\n\n" + _critic_words(self.brief)
            )
            self.log[-1] = ("assistant", text)
            self.history[-1] = Message("assistant", text)
        return InterpretationTurn(text, INTERPRET, turn.tool_calls, turn.messages)

    def respond(self, text: str) -> InterpretationTurn:
        """Answer one user message; "no thanks" / "that's all" ends the dialogue (DONE)."""
        if self.done:
            return InterpretationTurn(
                "This conversation is finished. Start a new conversation to plan another item.", DONE
            )
        if is_done(text):
            self.log += [("user", text), ("assistant", FAREWELL)]
            self.history += [Message("user", text), Message("assistant", FAREWELL)]
            self.done = True
            return InterpretationTurn(
                FAREWELL, DONE, (), (Message("user", text), Message("assistant", FAREWELL))
            )
        return self._run(text, show_user=True)

    def _run(self, text: str, show_user: bool) -> InterpretationTurn:
        user = Message("user", text)
        loop = run_tools(
            self.model, self.system, [*self.history, user], self.toolbox, self.max_steps, self.on_step
        )
        answer = with_closing(loop.text)
        self.history += [user, *loop.messages[:-1], Message("assistant", answer)]
        if show_user:
            self.log.append(("user", text))
        for call in loop.tool_calls:
            self.log.append(
                ("tool", f"[CALLING TOOL]: {call['name']}({call['arguments']}) -> {call['result']}")
            )
        self.log.append(("assistant", answer))
        return InterpretationTurn(answer, INTERPRET, tuple(loop.tool_calls), (user, *loop.messages))

    def restore(self, turns: Sequence[tuple[str, str]]) -> None:
        """Continue a stored dialogue: (role, text) pairs of user and assistant messages after the opening."""
        for role, text in turns:
            if role in ("user", "assistant"):
                self.history.append(Message(role, text))  # type: ignore[arg-type]
                self.log.append((role, text))
                if role == "assistant" and text == FAREWELL:
                    self.done = True

    def transcript(self) -> str:
        """`interpret.txt`: the scenario, the system prompt's facts and the dialogue with its tool calls."""
        names = {"user": "User", "assistant": "Assistant", "tool": "Optimization Agent"}
        head = (
            f"Policy Interpretation Agent, Scenario {self.brief.scenario} "
            f"(recommended: {self.brief.recommended_policy})\n\n"
        )
        return head + "\n\n".join(f"{names[r]}: {t}" for r, t in self.log) + "\n"
