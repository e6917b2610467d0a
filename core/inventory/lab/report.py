"""The lab report: markdown + CSV + plotly charts, in the shape of seed 000's Tables 5 and 6.

Cost reduction of X over Y on a scenario is `(cost_Y − cost_X) / cost_Y` (the paper's "Avg. Cost Red."),
costs being mean total horizon costs on common demand paths; a win is `cost_X < cost_Y`. Only scenarios where
both policies are evaluable enter a comparison (the others are counted). Paired tests: Wilcoxon signed-rank
on the per-scenario costs and a paired t-test on them (scipy). Without an LLM the report says which
treatments did not run and why, and compares Treatment A with rules of thumb — labelled as such.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.experiments.stats import bootstrap_ci, mann_whitney_p, paired_comparison
from core.inventory.lab.assessment import EXACT_REFERENCE, RULES_OF_THUMB
from core.inventory.lab.generator import PAPER70_SPLITS
from core.inventory.lab.lab import LabResult, TrialRecord
from core.inventory.lab.treatments import TREATMENT_LABELS, TREATMENT_ROLES
from solvers.inventory.spec import PARAMETER_KEYS

SPLITS: tuple[tuple[str, str], ...] = (
    ("Overall", "all"),
    ("Normal demand, lead time 7", "normal_L7"),
    ("Poisson demand, lead time 7", "poisson_L7"),
    ("Poisson demand, lead time 1", "poisson_L1"),
)
PAPER70_SPLIT_NAMES = frozenset(name for name, *_ in PAPER70_SPLITS)
MAX_LAB_JSON_BYTES = 200_000_000  # a lab.json read back by `lab report` (70 scenarios x 3 trials: ~5 MB)
QUARTILE_FIELDS = (
    ("Holding cost", "holding_cost"),
    ("Penalty cost", "penalty_cost"),
    ("Max order limit", "max_order"),
    ("Set-up cost", "setup_cost"),
    ("Inventory capacity", "max_inventory"),
)
IMITATOR_LABELS = {
    "offline": "offline stochastic imitator (a seeded rule-based stand-in for the paper's fine-tuned "
    "Qwen2.5-7B imitator, not an LLM)",
    "llm": "LLM persona imitator (prompted, not fine-tuned like the paper's)",
}


def label(name: str) -> str:
    return TREATMENT_LABELS.get(name) or RULES_OF_THUMB.get(name) or name


def _split_of(record: TrialRecord) -> set[str]:
    """The Table 5 rows a scenario counts in: its generator split (paper70: 14 normal L7, 11 Poisson L7, 15
    Poisson L1, as the paper's n; a Poisson L = 1 scenario of the 30 "other" ones is not in the L1 row); a
    scenario from another protocol (`mixed`) counts in the rows its demand and lead time match."""
    p = record.scenario.problem
    keys = {"all", record.scenario.split}
    if record.scenario.split in PAPER70_SPLIT_NAMES:
        return keys
    if p.lead_time == 7:
        keys.add(f"{p.demand.kind}_L7")
    if p.demand.kind == "poisson" and p.lead_time == 1:
        keys.add("poisson_L1")
    return keys


@dataclass(frozen=True)
class Comparison:
    """X against Y over a set of scenarios."""

    x: str
    y: str
    split: str
    n: int
    excluded: int
    mean_reduction: float | None
    sd_reduction: float | None
    win_rate: float | None
    wilcoxon_p: float | None
    ttest_p: float | None
    reductions: list[float] = field(default_factory=list)
    ci_low: float | None = None
    ci_high: float | None = None

    def row(self) -> dict[str, Any]:
        return {
            "x": self.x,
            "y": self.y,
            "split": self.split,
            "n": self.n,
            "excluded": self.excluded,
            "mean_reduction": self.mean_reduction,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "sd_reduction": self.sd_reduction,
            "win_rate": self.win_rate,
            "wilcoxon_p": self.wilcoxon_p,
            "ttest_p": self.ttest_p,
        }


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def compare(records: list[TrialRecord], x: str, y: str, split: str = "all") -> Comparison:
    """X against Y: the mean relative cost reduction (Y − X) / Y with its bootstrap CI, and the strict win rate
    (`cost_X < cost_Y`) and two-sided tests of `core.experiments.stats.paired_comparison` on the paired costs (lower is better)."""
    rows = [r for r in records if split in _split_of(r)]
    pairs = [
        (r.assessment.costs[x], r.assessment.costs[y])
        for r in rows
        if x in r.assessment.costs and y in r.assessment.costs
    ]
    excluded = len(rows) - len(pairs)
    if not pairs:
        return Comparison(x, y, split, 0, excluded, None, None, None, None, None)
    cx, cy = np.array(pairs).T
    red = np.where(cy > 0, (cy - cx) / np.where(cy > 0, cy, 1), 0.0)
    paired = paired_comparison(cx, cy, goal="min")
    low, high = bootstrap_ci(red)
    return Comparison(
        x,
        y,
        split,
        len(pairs),
        excluded,
        float(red.mean()),
        float(red.std(ddof=1)) if len(red) > 1 else 0.0,
        _finite(paired["strict_win_rate"]),
        _finite(paired["wilcoxon_p"]),
        _finite(paired["ttest_p"]),
        [float(v) for v in red],
        _finite(low),
        _finite(high),
    )


def comparisons(result: LabResult) -> list[Comparison]:
    """Table 5: A over B and over C when they ran; B against C; offline, A over each rule of thumb."""
    ran = {t for r in result.records for t in r.outcomes}
    pairs = [("A", y) for y in ("B", "C") if "A" in ran and y in ran]
    if "B" in ran and "C" in ran:
        pairs.append(("C", "B"))
    if "A" in ran:
        pairs += [("A", rule) for rule in RULES_OF_THUMB]
    return [compare(result.records, x, y, split) for x, y in pairs for _, split in SPLITS]


def extraction_accuracy(records: list[TrialRecord]) -> dict[str, float]:
    """Per parameter: the share of Treatment A dialogues whose table row equals the truth; plus the share of
    dialogues with the whole table exactly right (`table`)."""
    rows = [r.outcomes["A"].table_matches(r.scenario.table) for r in records if "A" in r.outcomes]
    if not rows:
        return {}
    out = {k: float(np.mean([m[k] for m in rows])) for k in PARAMETER_KEYS}
    out["table"] = float(np.mean([all(m.values()) for m in rows]))
    return out


def gap_summary(records: list[TrialRecord]) -> dict[str, dict[str, float]]:
    names = sorted({k for r in records for k in r.assessment.gaps})
    out = {}
    for name in names:
        gaps = np.array([r.assessment.gaps[name] for r in records if name in r.assessment.gaps])
        out[name] = {
            "n": int(len(gaps)),
            "median": float(np.median(gaps)),
            "mean": float(gaps.mean()),
            "within_2pct": float(np.mean(gaps <= 0.02)),
        }
    return out


def risk_split(records: list[TrialRecord]) -> dict[str, dict[str, float]]:
    """Treatment A's gaps for risk tolerance λ >= 0 and λ < 0."""
    out = {}
    for name, keep in (("λ ≥ 0", lambda x: x >= 0), ("λ < 0 (risk-averse)", lambda x: x < 0)):
        gaps = [
            r.assessment.gaps["A"]
            for r in records
            if "A" in r.assessment.gaps and keep(r.scenario.problem.risk_tolerance)
        ]
        if gaps:
            out[name] = {"n": len(gaps), "median": float(np.median(gaps)), "mean": float(np.mean(gaps))}
    return out


def quartiles(records: list[TrialRecord], x: str, y: str) -> list[dict[str, Any]]:
    """Table 6: mean parameters of the top vs bottom quartile of X's cost reduction over Y (Mann-Whitney p)."""
    rows = [r for r in records if x in r.assessment.costs and y in r.assessment.costs]
    if len(rows) < 8:
        return []
    red = [(r.assessment.costs[y] - r.assessment.costs[x]) / r.assessment.costs[y] for r in rows]
    order = np.argsort(red)
    q = len(rows) // 4
    bottom, top = [rows[i] for i in order[:q]], [rows[i] for i in order[-q:]]
    out = []
    for name, key in QUARTILE_FIELDS:
        a = [float(getattr(r.scenario.problem, key)) for r in top]
        b = [float(getattr(r.scenario.problem, key)) for r in bottom]
        same = len(set(a + b)) == 1
        out.append(
            {
                "parameter": name,
                "top_quartile": float(np.mean(a)),
                "bottom_quartile": float(np.mean(b)),
                "p_value": None if same else _finite(mann_whitney_p(a, b)),
                "n_each": q,
            }
        )
    return out


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None, digits: int = 3) -> str:
    return "–" if v is None else f"{v:.{digits}g}"


def switches_text(result: LabResult) -> list[str]:
    return switch_notes(result.config)


def switch_notes(cfg: Any) -> list[str]:
    """The paper-exact switches of a `LabConfig`, in words (every report and the page show them)."""
    fam = (
        "(s,S) grid only, plus DQN when asked — the paper's Optimization Agent (no DP, base-stock or constant order)"
        if cfg.families == "paper"
        else "full menu: (s,S) and (s,S)+cutoff, capped base-stock (± cutoff), constant order, exact DP where it runs"
    )
    on_hand = getattr(cfg, "capacity_basis", "inventory_position") == "on_hand"
    capacity = (
        "`capacity_basis = on_hand` — counted on on-hand stock only (Appendix A.1): an order may fill the "
        "storage up to the capacity counting what is on the shelf after today's delivery, not what is still "
        "in transit (from a lead time of 2 days on this admits orders the position basis refuses, and "
        "deliveries can lift stock above the capacity); the Copilot's optimizer, the reference and the "
        "assessment all use it"
        if on_hand
        else "`capacity_basis = inventory_position` (default) — counted on the inventory position (on-hand + "
        "on-order), so stock never exceeds the capacity; the paper's on-hand-only reading (Appendix A.1) is "
        "the other value"
    )
    fig4 = getattr(cfg, "day_numbering", "from_one") == "fig4"
    days = (
        "`day_numbering = fig4` — Fig. 4's numbering: the manager's 'day 4' is passed to the order tool as "
        "time step 4 (the plan's first day is day 0)"
        if fig4
        else "`day_numbering = from_one` (default) — 'day d' is the d-th day of the plan, time step d − 1 "
        "(Fig. 4 passes 'day 4' as step 4: the other value)"
    )
    return [
        f"**Capacity**: {capacity}.",
        f"**Optimizer families**: `families = {cfg.families}` — {fam}.",
        f"**Fig. 4 day numbering**: {days}. It governs the Copilot's order queries (the conversation and its "
        "recommended order); the assessment simulates whole policies from the first day, so costs do not "
        "depend on it.",
        "**Objective**: policies are scored by expected total cost (risk-neutral, λ = 10 in eq. 1, as in §4.2); "
        "the Copilot recommends by its risk-adjusted objective with the scenario's risk tolerance"
        + (" (all scenarios risk-neutral)." if cfg.risk_neutral else "."),
    ]


def render_markdown(result: LabResult, costs: Any = None) -> str:
    """The lab's report.md; `costs`: the experiment's `costs` table (`core.experiments.report.experiment_costs`),
    shown as "Tokens and cost" when given (the same $ as `experiment report`)."""
    records = result.records
    ran = sorted({t for r in records for t in r.outcomes})
    lines = _md_header(result, ran) + _md_not_run(result)
    lines += ["## Paper-exact switches", ""] + [f"- {s}" for s in switches_text(result)] + [""]
    lines += _md_cost_reduction(result)
    lines += _md_gaps(records)
    lines += _md_extraction(records)
    lines += _md_order_query(result)
    lines += _md_tokens(result)
    lines += _md_costs(costs)
    lines += _md_quartiles(records, ran)
    lines += _md_parsed_policies(records)
    return "\n".join(lines) + "\n"


def _md_header(result: LabResult, ran: list[str]) -> list[str]:
    """The report's title and its run summary (protocol, imitator, treatments, paths, the reference)."""
    cfg, records = result.config, result.records
    return [
        "# Inventory evaluation lab report",
        "",
        f"- Protocol: `{cfg.protocol}`, {len(records)} scenarios, seed {cfg.seed}; "
        f"provider `{result.settings.get('provider')}` (model `{result.settings.get('model')}`).",
        f"- Imitator: {IMITATOR_LABELS[cfg.imitator]}; noise level {cfg.noise:g}.",
        f"- Treatments run: {', '.join(label(t) for t in ran) or 'none'}.",
        f"- Assessment: {cfg.assessment_paths} common demand paths per scenario; Copilot budget "
        f"{cfg.copilot_paths} paths. Wall time {result.seconds:.0f} s.",
        f"- Reference (independent of the Copilot): the exact DP optimum on "
        f"{sum(r.assessment.reference_kind == EXACT_REFERENCE for r in records)} of {len(records)} scenarios; "
        "the others have **no exact reference** (an independent search with more paths on another seed, not "
        "proven optimal).",
        "",
    ]


def _md_not_run(result: LabResult) -> list[str]:
    """The "Not run" section: the treatments left out and why, and that the rules of thumb do not stand in for them."""
    if not result.not_run:
        return []
    lines = ["## Not run", ""]
    lines += [f"- **{label(t)}** was not run: it {why}." for t, why in sorted(result.not_run.items())]
    return lines + [
        "",
        "The comparisons with rules of thumb below are textbook formulas applied to the true parameters. "
        "They are **not LLM baselines** and do not stand in for Treatments B or C.",
        "",
    ]


def _md_cost_reduction(result: LabResult) -> list[str]:
    """Table 5: each comparison's cost reduction per split (empty splits other than "all" left out)."""
    lines = [
        "## Cost reduction (Table 5)",
        "",
        "| Comparison | Scenarios | n | excluded | Avg. cost red. (mean ± sd) | Win rate | Wilcoxon p | paired t p |",
        "|---|---|---|---|---|---|---|---|",
    ]
    names = dict((k, v) for v, k in SPLITS)
    for c in comparisons(result):
        if c.n == 0 and c.split != "all":
            continue
        red = "–" if c.mean_reduction is None else f"{_pct(c.mean_reduction)} ± {_pct(c.sd_reduction)}"
        lines.append(
            f"| {label(c.x)} vs {label(c.y)} | {names[c.split]} | {c.n} | {c.excluded} | {red} | "
            f"{_pct(c.win_rate)} | {_num(c.wilcoxon_p)} | {_num(c.ttest_p)} |"
        )
    return lines


def _md_gaps(records: list[TrialRecord]) -> list[str]:
    """The gap of each policy to the reference, and Treatment A's gap by the scenarios' risk tolerance."""
    dp = sum(r.assessment.dp_optimal_cost is not None for r in records)
    lines = [
        "",
        "## Gap to the ground-truth reference",
        "",
        f"Reference: the exact DP optimum on {dp} scenarios; on the other {len(records) - dp} the DP does not run "
        "and the reference is the best policy the optimizer finds on the true parameters (not proven optimal).",
        "",
        "| Policy | n | median gap | mean gap | within 2% |",
        "|---|---|---|---|---|",
    ]
    for name, g in gap_summary(records).items():
        lines.append(
            f"| {label(name)} | {g['n']} | {_pct(g['median'])} | {_pct(g['mean'])} | {_pct(g['within_2pct'])} |"
        )
    by_risk = risk_split(records)
    if by_risk:
        lines += [
            "",
            "The Copilot recommends by E[cost] + e^(−λ)·Std[cost] with the scenario's risk tolerance λ, while the "
            "assessment scores expected cost; a risk-averse manager (λ < 0) gets a steadier, costlier policy:",
            "",
            "| Treatment A, scenarios with | n | median gap | mean gap |",
            "|---|---|---|---|",
        ]
        lines += [f"| {k} | {v['n']} | {_pct(v['median'])} | {_pct(v['mean'])} |" for k, v in by_risk.items()]
    return lines


def _md_extraction(records: list[TrialRecord]) -> list[str]:
    """Treatment A's extraction accuracy per parameter and its dialogue outcomes (nothing when A did not run)."""
    acc = extraction_accuracy(records)
    if not acc:
        return []
    lines = ["", "## Treatment A: extraction accuracy per parameter", ""]
    lines += ["| Parameter | exactly right |", "|---|---|"]
    lines += [f"| {k.replace('_', ' ')} | {_pct(acc[k])} |" for k in PARAMETER_KEYS]
    lines += [f"| **whole table** | **{_pct(acc['table'])}** |"]
    status: dict[str, int] = {}
    for r in records:
        if "A" in r.outcomes:
            status[r.outcomes["A"].status] = status.get(r.outcomes["A"].status, 0) + 1
    return lines + ["", "Dialogue outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(status.items()))]


def _md_order_query(result: LabResult) -> list[str]:
    """Treatment A's Fig. 4 order query after the policy (nothing when no trial asked it)."""
    oq = order_query_summary(result.records)
    if not oq["asked"]:
        return []
    return [
        "",
        "## Treatment A: Fig. 4 order query after the policy",
        "",
        f"After the policy the manager asks Fig. 4's question (e.g. '{oq['example']}', day numbering "
        f"`{result.config.day_numbering}`). The Copilot's order tool got the intended time step in "
        f"**{oq['step_ok']} of {oq['asked']}** trials and returned its own policy's order for that state in "
        f"**{oq['order_ok']} of {oq['asked']}**.",
    ]


def _md_tokens(result: LabResult) -> list[str]:
    """Model tokens per treatment and role, with who played each role."""
    used = token_summary(result.records)
    if not used:
        return []
    roles = role_labels(result)
    lines = [
        "",
        "## Tokens per role",
        "",
        "Model tokens of each role over the trials (0: the role made no model request, e.g. an offline "
        "stand-in). The imitator's are the environment's, priced at its own model.",
        "",
        "| Treatment | Role | Played by | Trials | Input tokens | Output tokens |",
        "|---|---|---|---|---|---|",
    ]
    for u in used:
        lines.append(
            f"| {u['treatment']} | {u['role']} | {_played_by(roles, u['treatment'], u['role'])} | "
            f"{u['trials']} | {u['input_tokens']:,} | {u['output_tokens']:,} |"
        )
    return lines


def _md_costs(costs: Any) -> list[str]:
    """Tokens and list-price cost per treatment from the experiment's `costs` table (nothing without one)."""
    if costs is None or not len(costs):
        return []
    lines = [
        "",
        "## Tokens and cost",
        "",
        "Per treatment at list price (`data/llm_prices.toml`), as `experiment report` gives it: each role's "
        'tokens at its own model (price "per role" or "listed"), the imitator\'s at its own; "price unknown": '
        "a model missing from the price table.",
        "",
        "| Treatment | Cells | Input tokens | Output tokens | USD | Price |",
        "|---|---|---|---|---|---|",
    ]
    for row in costs.to_dict("records"):
        usd = row["cost_usd"]
        lines.append(
            f"| {row['agent']} | {row['cells']} | {int(row['input_tokens']):,} | {int(row['output_tokens']):,} | "
            f"{'price unknown' if not math.isfinite(usd) else f'${usd:,.4f}'} | {row['price']} |"
        )
    return lines


def _md_quartiles(records: list[TrialRecord], ran: list[str]) -> list[str]:
    """Table 6: parameters of the scenarios where A gains most and least over B (else the base-stock rule)."""
    y = "B" if "B" in ran else "rule:newsvendor_base_stock"
    quart = quartiles(records, "A", y) if "A" in ran else []
    if not quart:
        return []
    return [
        "",
        f"## Quartile analysis (Table 6): A's cost reduction over {label(y)}",
        "",
        "| Parameter | Top quartile (high gain) | Bottom quartile (low gain) | Mann-Whitney p |",
        "|---|---|---|---|",
    ] + [
        f"| {q['parameter']} | {q['top_quartile']:.2f} | {q['bottom_quartile']:.2f} | {_num(q['p_value'])} |"
        for q in quart
    ]


def _md_parsed_policies(records: list[TrialRecord]) -> list[str]:
    """Every trial's policy text and how it was read (or why it was excluded)."""
    lines = ["", "## Parsed policies (source text → reading)", ""]
    lines += ["| Scenario | Treatment | Status | Source text | Reading |", "|---|---|---|---|---|"]
    for r in records:
        for t, out in r.outcomes.items():
            src = " ".join(out.policy_text.split())[:220].replace("|", "/")
            reading = r.assessment.excluded.get(t) or (
                out.parsed.describe() if out.parsed else (out.error or out.status)
            )
            lines.append(f"| {r.scenario.key} | {t} | {out.status} | {src} | {reading} |")
    return lines


def token_summary(records: list[TrialRecord]) -> list[dict[str, Any]]:
    """Per treatment run and each of its roles (`TREATMENT_ROLES`): trials, and the input and output tokens
    summed over them (0 for an offline role: it makes no model request)."""
    rows = []
    ran = sorted({t for r in records for t in r.outcomes})
    for t in ran:
        outcomes = [r.outcomes[t] for r in records if t in r.outcomes]
        for role in TREATMENT_ROLES.get(t, ()):
            used = [o.tokens(role) for o in outcomes]
            rows.append(
                {
                    "treatment": t,
                    "role": role,
                    "trials": len(outcomes),
                    "input_tokens": sum(u.input_tokens for u in used),
                    "output_tokens": sum(u.output_tokens for u in used),
                }
            )
    return rows


def _played_by(roles: dict[str, str], treatment: str, role: str) -> str:
    """Who played `role` in `treatment`, from `role_labels`."""
    if role == "imitator":
        return roles["imitator"]
    if role == "judge":
        return roles.get("judge", roles["BC_model"])
    return roles["A_agent"] if treatment == "A" else roles["BC_model"]


def token_columns(records: list[TrialRecord]) -> list[tuple[str, str]]:
    """The (treatment, role) pairs of `results.csv`'s token columns: every role of every treatment run."""
    ran = sorted({t for r in records for t in r.outcomes})
    return [(t, role) for t in ran for role in TREATMENT_ROLES.get(t, ())]


def order_query_summary(records: list[Any]) -> dict[str, Any]:
    """Treatment A's Fig. 4 follow-ups: how many were asked, got the intended step, and the policy's order."""
    checks = [
        r.outcomes["A"].order_query for r in records if "A" in r.outcomes and r.outcomes["A"].order_query
    ]
    return {
        "asked": len(checks),
        "step_ok": sum(bool(c.get("step_ok")) for c in checks),
        "order_ok": sum(bool(c.get("order_ok")) for c in checks),
        "example": checks[0]["question"] if checks else "",
    }


def role_labels(result: LabResult) -> dict[str, str]:
    """Who played each role of the run, as every CSV row and the charts page say it: the provider and model,
    the Copilot of A (offline rule-based extraction, or the LLM), B and C's model, and the manager imitator
    (offline stand-in, or the LLM persona) — so a shared CSV never hides that a role was offline."""
    provider = str(result.settings.get("provider", "offline"))
    model = str(result.settings.get("model", ""))
    llm = f"LLM {provider}/{model}"
    offline = provider == "offline"
    labels = {
        "provider": provider,
        "model": model,
        "A_agent": "offline stand-in (rule-based Copilot extraction)" if offline else f"Copilot with {llm}",
        "BC_model": "not run (offline)" if offline else llm,
        "imitator": f"LLM persona imitator {provider}/{model}"
        if result.config.imitator == "llm"
        else "offline stand-in (rule-based imitator)",
    }
    roles = dict(result.settings.get("roles") or {})  # `--role` models (labels of core.llm.roles.RoleModel)
    if "copilot" in roles:
        labels |= {"A_agent": f"Copilot with {roles['copilot']}", "BC_model": roles["copilot"]}
    if "imitator" in roles:
        labels["imitator"] = f"imitator {roles['imitator']}"
    if "judge" in roles:
        labels["judge"] = roles["judge"]
    return labels


def results_csv(result: LabResult) -> str:
    names = sorted({k for r in result.records for k in r.assessment.costs})
    head = [
        "scenario",
        "split",
        "demand",
        "lead_time",
        "holding_cost",
        "penalty_cost",
        "setup_cost",
        "max_inventory",
        "max_order",
        "risk_tolerance",
        "reference",
        "reference_kind",
        "dp_optimal_cost",
    ]
    head += [f"cost:{n}" for n in names] + [f"gap:{n}" for n in names if n != "reference"]
    head += ["A_status", "A_table_exact", "B_status", "C_status", "A_run_id", "A_fig4_order_ok"]
    head += ["capacity_basis", "families", "day_numbering"]  # the paper-exact switches, on every row
    tokens = token_columns(result.records)  # each role's tokens per treatment (0: no model request)
    head += [f"tokens:{t}:{role}:{io_}" for t, role in tokens for io_ in ("in", "out")]
    roles = role_labels(result)
    head += list(roles)  # who played each role, on every row
    cfg = result.config
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(head)
    for r in result.records:
        p, a = r.scenario.problem, r.assessment
        o = r.outcomes
        row = [
            r.scenario.key,
            r.scenario.split,
            p.demand.canonical(),
            p.lead_time,
            p.holding_cost,
            p.penalty_cost,
            p.setup_cost,
            p.max_inventory,
            p.max_order,
            p.risk_tolerance,
            a.reference,
            a.reference_kind,
            a.dp_optimal_cost if a.dp_optimal_cost is not None else "",
        ]
        row += [a.costs.get(n, "") for n in names] + [a.gaps.get(n, "") for n in names if n != "reference"]
        row += [
            o["A"].status if "A" in o else "",
            all(o["A"].table_matches(r.scenario.table).values()) if "A" in o else "",
            o["B"].status if "B" in o else "not run",
            o["C"].status if "C" in o else "not run",
            (o["A"].run_id or "") if "A" in o else "",
            (o["A"].order_query or {}).get("order_ok", "") if "A" in o else "",
            cfg.capacity_basis,
            cfg.families,
            cfg.day_numbering,
        ]
        for t, role in tokens:
            used = o[t].tokens(role) if t in o else None
            row += ["", ""] if used is None else [used.input_tokens, used.output_tokens]
        row += [*roles.values()]
        w.writerow(row)
    return out.getvalue()


def figures(result: LabResult) -> dict[str, Any]:
    """Plotly figures: cost-reduction distribution, gaps per policy, extraction accuracy."""
    import plotly.graph_objects as go

    figs: dict[str, Any] = {}
    hist = go.Figure()
    for c in comparisons(result):
        if c.split == "all" and c.x == "A" and c.reductions:
            hist.add_trace(
                go.Histogram(x=[100 * v for v in c.reductions], name=f"A vs {label(c.y)}", opacity=0.6)
            )
    hist.update_layout(barmode="overlay", title="Cost reduction of A per scenario (%)", xaxis_title="%")
    figs["cost_reduction"] = hist
    box = go.Figure()
    for name in gap_summary(result.records):
        gaps = [100 * r.assessment.gaps[name] for r in result.records if name in r.assessment.gaps]
        box.add_trace(go.Box(y=gaps, name=label(name), boxpoints="all"))
    box.update_layout(title="Gap to the ground-truth reference (%)", yaxis_title="%", showlegend=False)
    figs["gaps"] = box
    acc = extraction_accuracy(result.records)
    if acc:
        keys = [*PARAMETER_KEYS, "table"]
        figs["extraction"] = go.Figure(
            go.Bar(x=[k.replace("_", " ") for k in keys], y=[100 * acc[k] for k in keys]),
            layout={"title": "Treatment A: parameters extracted exactly (%)", "yaxis": {"range": [0, 100]}},
        )
    return figs


def summary(result: LabResult) -> dict[str, Any]:
    """The CLI's JSON object."""
    return {
        "scenarios": len(result.records),
        "treatments_run": sorted({t for r in result.records for t in r.outcomes}),
        "not_run": result.not_run,
        "extraction_accuracy": extraction_accuracy(result.records),
        "gaps": gap_summary(result.records),
        "comparisons": [c.row() for c in comparisons(result) if c.n > 0],
        "switches": switches_text(result),
        "order_query": order_query_summary(result.records),
        "tokens": token_summary(result.records),
        "seconds": result.seconds,
    }


def write_report(result: LabResult, out_dir: str | Path, costs: Any = None) -> dict[str, Path]:
    """report.md (with `costs`, the experiment's cost table, when given), results.csv, charts.html and lab.json
    (every record, transcripts included)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "report.md": render_markdown(result, costs),
        "results.csv": results_csv(result),
        "lab.json": json.dumps(
            {
                "config": result.config.to_dict(),
                "settings": result.settings,
                "not_run": result.not_run,
                "seconds": result.seconds,
                "switches": switches_text(result),
                "records": [r.to_dict() for r in result.records],
            },
            indent=1,
            default=str,
        ),
    }
    figs = figures(result)
    html = [f.to_html(full_html=False, include_plotlyjs=(i == 0)) for i, f in enumerate(figs.values())]
    switches = "".join(f"<li>{_html_note(n)}</li>" for n in switches_text(result))
    who = "".join(f"<li>{_html_note(f'{k}: {v}')}</li>" for k, v in role_labels(result).items())
    files["charts.html"] = (
        f"<html><body><h3>Who played each role</h3><ul>{who}</ul><h3>Paper-exact switches</h3><ul>{switches}</ul>"
        + "\n".join(html)
        + "</body></html>"
    )
    paths = {}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
        paths[name] = out / name
    return paths


def _html_note(note: str) -> str:
    """A switch note (markdown bold and code) as HTML."""
    import html as html_lib
    import re

    text = html_lib.escape(note)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def load_result(source: str | Path) -> LabResult:
    """A `LabResult` read back from `lab.json` (policies as their readings; enough to render the report)."""
    from core.errors import SpecError
    from core.inventory.lab.assessment import ScenarioAssessment
    from core.inventory.lab.generator import Scenario
    from core.inventory.lab.lab import LabConfig
    from core.inventory.lab.treatments import TrialOutcome
    from solvers.upload import load_json, read_text

    path = Path(source)
    if path.is_dir():
        path = path / "lab.json"
    text = read_text(path, field="results", name=str(path), max_bytes=MAX_LAB_JSON_BYTES)
    data = load_json(text, field="results", where=str(path))
    try:
        records = []
        for rec in data["records"]:
            outcomes = {}
            for t, o in rec["outcomes"].items():
                outcomes[t] = TrialOutcome.from_dict(t, o)
            records.append(
                TrialRecord(
                    Scenario.from_dict(rec["scenario"]), outcomes, ScenarioAssessment(**rec["assessment"])
                )
            )
        return LabResult(
            LabConfig.from_dict(data["config"]),
            data["settings"],
            records,
            data.get("not_run", {}),
            data.get("seconds", 0.0),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise SpecError("results", f"{path} is not a lab.json written by the lab ({err})") from None


def stored_result(store: Any, run_id: str) -> LabResult:
    """The `LabResult` of a stored lab run (its `lab.json` artifact, see `record`), e.g. for a shared link."""
    import tempfile

    from core.errors import SpecError, StoreError

    try:
        data = store.get_artifact(run_id, "lab.json")
    except StoreError:
        raise SpecError(
            "run", f"run {run_id} is one trial of a lab run, not a whole lab run; Run history shows its steps"
        ) from None
    with tempfile.TemporaryDirectory(prefix="orca-lab-open-") as folder:
        path = Path(folder) / "lab.json"
        path.write_bytes(data)
        return load_result(path)


def frames(result: LabResult) -> dict[str, Any]:
    """The report's tables as DataFrames for the page: comparisons, gaps, extraction, trials."""
    import pandas as pd

    names = dict((k, v) for v, k in SPLITS)
    comp = pd.DataFrame(
        [
            {
                "comparison": f"{label(c.x)} vs {label(c.y)}",
                "scenarios": names[c.split],
                "n": c.n,
                "excluded": c.excluded,
                "avg cost reduction %": None if c.mean_reduction is None else 100 * c.mean_reduction,
                "sd %": None if c.sd_reduction is None else 100 * c.sd_reduction,
                "win rate %": None if c.win_rate is None else 100 * c.win_rate,
                "Wilcoxon p": c.wilcoxon_p,
                "paired t p": c.ttest_p,
            }
            for c in comparisons(result)
            if c.n > 0 or c.split == "all"
        ]
    )
    gaps = pd.DataFrame(
        [
            {
                "policy": label(k),
                "n": g["n"],
                "median gap %": 100 * g["median"],
                "mean gap %": 100 * g["mean"],
                "within 2 %": 100 * g["within_2pct"],
            }
            for k, g in gap_summary(result.records).items()
        ]
    )
    acc = extraction_accuracy(result.records)
    extraction = pd.DataFrame(
        [{"parameter": k.replace("_", " "), "exactly right %": 100 * v} for k, v in acc.items()]
    )
    trials = []
    for r in result.records:
        for t, out in r.outcomes.items():
            trials.append(
                {
                    "scenario": r.scenario.key,
                    "split": r.scenario.split,
                    "treatment": t,
                    "status": out.status,
                    "source text": " ".join(out.policy_text.split())[:300],
                    "reading": r.assessment.excluded.get(t)
                    or (out.parsed.describe() if out.parsed else (out.error or "")),
                    "gap %": 100 * r.assessment.gaps[t] if t in r.assessment.gaps else None,
                    "turns": out.turns,
                    "run": out.run_id or "",
                }
            )
    return {"comparisons": comp, "gaps": gaps, "extraction": extraction, "trials": pd.DataFrame(trials)}


def record(store: Any, result: LabResult) -> str | None:
    """Record the lab run (workbench `inventory_lab`) with its report files as artifacts; the run id."""
    import tempfile

    from core.recorder import Recorder, RunStatus

    cfg = result.config
    recorder = Recorder(
        store,
        "inventory_lab",
        config=cfg.to_dict() | {"settings": result.settings},
        seed=cfg.seed,
        title=f"Lab · {cfg.protocol} · {len(result.records)} scenarios · {','.join(cfg.treatments)}",
    )
    with tempfile.TemporaryDirectory(prefix="orca-lab-report-") as folder:
        for name, path in write_report(result, folder).items():
            recorder.artifact(name, path.read_bytes())
    acc = extraction_accuracy(result.records)
    gaps = gap_summary(result.records).get("A", {})
    recorder.finish(
        RunStatus.DONE,
        {
            "scenarios": len(result.records),
            "table_exact": acc.get("table"),
            "median_gap_A": gaps.get("median"),
        },
    )
    return recorder.run_id
