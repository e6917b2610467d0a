"""The policy in plain words: the offline agent's texts and the LLM's system prompt (seed 000 Tables 9–10).

Scenario A's opening explains the rule, why these numbers and what it costs; Scenario B's presents the DQN as
an on-demand expert. Every answer ends with "Do you have any other questions?".
"""

from __future__ import annotations

from pathlib import Path

from core.inventory.copilot.critic import FAMILY_NAMES, dollars, supply_limits
from core.inventory.copilot.policy_brief import PolicyBrief
from core.inventory.policy_names import cutoff_days, cutoff_words
from solvers.inventory.spec import InventoryProblem, format_number

CLOSING_QUESTION = "Do you have any other questions?"
_PROMPT_PATH = Path(__file__).with_name("interpretation_prompt.md")


def stop_sentence(brief: PolicyBrief) -> str:
    """The end-of-plan cutoff in words, counted with the engine's own definition (`cutoff_days`)."""
    if not brief.rule.get("cutoff"):
        return ""
    n = cutoff_days(brief.problem)
    if n == 0:
        return ""
    days = "On the last day" if n == 1 else f"In the last {n} days"
    return f" {days} of the plan, order nothing: it would arrive too late to sell."


def action_sentence(brief: PolicyBrief) -> str:
    """What to do, first and in the fewest words: "Order 24 units every day (none on the last day)."."""
    r = brief.rule
    if never_orders(brief):
        return "Order nothing."
    clause = cutoff_words(brief.problem) if r.get("cutoff") else ""
    tail = f" ({clause})" if clause else ""
    daily = r.get("daily_order", r.get("q") if r["kind"] == "constant" else r.get("steady_order"))
    if daily is not None:
        about = "about " if "steady_order" in r and r["kind"] not in ("constant",) else ""
        return f"Order {about}{daily} units every day{tail}."
    if r["kind"] == "sS":
        return (
            f"When stock plus orders on the way drops below {r['s']}, order back up to {r['S']} units{tail}."
        )
    if r["kind"] == "base_stock":
        return f"Each day, order back up to {r['S']} units, at most {r['cap']} at once{tail}."
    if r["kind"] == "rQ":
        return f"When stock plus orders on the way drops below {r['R']}, order {r['Q']} units{tail}."
    if "reorder_at" in r:
        return f"When stock plus orders on the way is at or below about {r['reorder_at']}, order up to about {r['order_up_to']} units."
    if r["kind"] == "dqn":
        return "Ask me for each day's order: tell me your stock, the day and the orders on the way."
    return "Ask me for any day's order: tell me your stock, the day and the orders on the way."


def rule_sentence(brief: PolicyBrief) -> str:
    """The recommended rule in one plain sentence."""
    r, p = brief.rule, brief.problem
    stop = stop_sentence(brief)
    position = "your stock position (units on the shelf plus units ordered but not yet delivered)"
    if never_orders(brief):
        return "Order nothing: at these costs and limits no order pays for itself within the plan."
    if r["kind"] == "sS":
        cap = f" (at most {p.max_order} units per order)" if r["S"] - r["s"] >= p.max_order else ""
        return (
            f"Every day, check {position}. If it is below {r['s']}, order enough to bring it back up to "
            f"{r['S']}{cap}; otherwise order nothing.{stop}"
        )
    if r["kind"] == "base_stock":
        steady = (
            f" Here that always comes to {r['daily_order']} units a day."
            if r.get("daily_order") is not None
            else ""
        )
        return (
            f"Every day, check {position}, and order the gap up to {r['S']} units, but never more than "
            f"{r['cap']} units at once.{steady}{stop}"
        )
    if r["kind"] == "constant":
        return f"Order {r['q']} units every day, whatever the stock.{stop}"
    if r["kind"] == "rQ":
        return f"Every day, if {position} is below {r['R']}, order a batch of {r['Q']} units.{stop}"
    if r["kind"] == "dqn":
        return "Ask the DQN each day: give it your stock, the day and the orders on the way, and order what it says."
    gap = r.get("summary_gap_pct")
    checked = (
        f" Following that rule yourself costs {than_words(gap)} the exact plan (checked on the same simulated "
        "demand)."
        if gap is not None
        else ""
    )
    last = f"its last orders come around day {r['last_order_day']}, because later ones would arrive too late to pay off"
    if "reorder_at" in r:
        return (
            f"It is a day-by-day lookup table, but in simulation it behaves like this: when {position} is at or "
            f"below about {r['reorder_at']}, order enough to bring it up to about {r['order_up_to']}; {last}."
            + checked
        )
    if "steady_order" in r:
        return (
            f"It is a day-by-day lookup table, but in simulation it comes down to ordering about "
            f"{r['steady_order']} units every day, whatever is on the shelf; {last}." + checked
        )
    return (
        "It is a day-by-day lookup table: what to order depends on the day, your stock and the orders on the "
        "way, and no simple rule comes close to it here"
        + (f" (the closest plain rule I checked costs {percent_words(gap)})" if gap is not None else "")
        + ". Ask me for any day's order: tell me your stock, the day and the orders on the way."
    )


STOCKED_FILL_PCT = 95.0
"""A rule 'keeps the shelf stocked' only when it serves at least this share of demand (engine's fill rate)."""


def service_words(fill_pct: float) -> str:
    """What a fill rate means for the shelf, from the number itself: 48% never 'keeps the shelf stocked'."""
    if fill_pct >= STOCKED_FILL_PCT:
        return f"keeps the shelf stocked (you serve {fill_pct:.1f}% of demand)"
    if fill_pct >= 80:
        return f"keeps the shelf stocked most days (you serve {fill_pct:.1f}% of demand)"
    return f"leaves the shelf empty often: you serve only {fill_pct:.1f}% of demand"


def than_words(pct: float) -> str:
    """'about 3.2% more than' / 'about 1.5% less than' / 'about the same as', by the sign of the difference."""
    said = percent_words(pct)
    return f"{said} as" if said == "about the same" else f"about {said} than"


def percent_words(pct: float) -> str:
    """'3.2% more' / '1.5% less' / 'about the same', by the sign of the difference."""
    if round(abs(pct), 1) == 0:
        return "about the same"
    return f"{abs(pct):.1f}% {'more' if pct > 0 else 'less'}"


def compare_words(
    other_mean: float, rec_mean: float, other_obj: float, rec_obj: float, *, lead: str = "mean"
) -> str:
    """How another rule's cost compares with the recommendation's, each direction read from the engine's
    numbers, so a rule that is cheaper on average never 'costs more'. `lead="mean"`: the average first, the
    risk-weighted objective L(π) added when it differs ('3.0% more on average (4.1% more once your risk
    preference also weighs how much the cost varies)'); `lead="objective"`: L(π) first ('2.4% more in the
    objective'), the average added when it points the other way (', though 1.0% less on average')."""
    mean_pct = 100 * (other_mean - rec_mean) / max(abs(rec_mean), 1e-9)
    obj_pct = 100 * (other_obj - rec_obj) / max(abs(rec_obj), 1e-9)
    if lead == "objective":
        said = f"{percent_words(obj_pct)} in the objective"
        if _sign(mean_pct) != _sign(obj_pct):
            said += f", though {percent_words(mean_pct)} on average"
        return said
    said = f"{percent_words(mean_pct)} on average"
    if abs(obj_pct - mean_pct) >= 0.5 or _sign(mean_pct) != _sign(obj_pct):
        said += f" ({percent_words(obj_pct)} once your risk preference also weighs how much the cost varies)"
    return said


def _sign(pct: float) -> int:
    return 0 if round(abs(pct), 1) == 0 else (1 if pct > 0 else -1)


def versus_recommended(brief: PolicyBrief, key: str) -> str:
    """`compare_words` for finalist `key` against the recommended policy."""
    c = brief.costs
    rec = c[brief.recommended]
    return compare_words(c[key]["mean"], rec["mean"], c[key]["objective"], rec["objective"], lead="objective")


def ss_sentence(brief: PolicyBrief) -> str:
    """The best (s,S) rule in one sentence."""
    return (
        f"If stock on hand plus on order is below {brief.s}, order up to {brief.S}"
        + (
            f" (at most {brief.problem.max_order} per order)"
            if brief.S - brief.s >= brief.problem.max_order
            else ""
        )
        + "."
    )


def cost_table(brief: PolicyBrief) -> str:
    """Every finalist's costs, best objective first, one bullet each."""
    rows = sorted(brief.costs.items(), key=lambda kv: kv[1]["objective"])
    return "\n".join(
        f"- {k} = {v['policy']}: mean {dollars(v['mean'])} (95% CI {dollars(v['ci95'][0])}–{dollars(v['ci95'][1])}), "
        f"std {dollars(v['std'])}, objective {v['objective']:.2f}, fill rate {100 * v['fill_rate']:.1f}%"
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
        "cost_table": cost_table(brief),
        "critic": brief.critic.text(),
        "assumptions": "\n".join(f"- {a}" for a in brief.critic.assumptions),
        "policy_name": f"{FAMILY_NAMES.get(brief.recommended, brief.recommended)} {brief.recommended_policy}",
        "policy_words": f"mean cost {dollars(rec['mean'])} over the plan",
        "s": brief.s,
        "S": brief.S,
        "ss_cost": dollars(ss["mean"]),
        "ss_compare": f", {percent_words(brief.cost_diff_pct)} than the recommended policy in L(π)"
        if brief.recommended != "sS"
        else "",
        "dqn_sentence": f" The DQN averaged {dollars(c['dqn']['mean'])}." if "dqn" in c else "",
        "rule_sentence": rule_sentence(brief),
        "dqn_cost": dollars(rec["mean"]),
        "cost_diff": f"{brief.cost_diff_pct:.1f}",
        "cost_diff_words": percent_words(brief.cost_diff_pct),
        "rule_sentence_ss": ss_sentence(brief),
    }
    body = sections["Common"] + "\n" + sections[f"Scenario {brief.scenario}"]
    return body.format_map(_Fields(values)).strip() + "\n"


class _Fields(dict[str, object]):
    """The template's values; a `{name}` without a value stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _prompt_sections() -> dict[str, str]:
    """The sections of our own prompt template (`# Name` headings), read line by line."""
    sections: dict[str, list[str]] = {}
    lines: list[str] | None = None
    for line in _PROMPT_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            lines = sections.setdefault(line[2:].strip(), [])
        elif lines is not None:
            lines.append(line)
    return {name: "\n".join(body).strip() for name, body in sections.items()}


def explanation(brief: PolicyBrief) -> str:
    """Scenario A's opening: the rule in plain words, why these numbers, what it costs, checks, assumptions."""
    c = brief.costs
    name = FAMILY_NAMES.get(brief.recommended, brief.recommended)
    shown = "" if brief.recommended_policy == brief.recommended else f", **{brief.recommended_policy}**"
    parts = [
        f"**What to do:** {action_sentence(brief)}",
        f"I recommend the {name}{shown}. In plain words: {rule_sentence(brief)}",
    ]
    parts.append(why_words(brief))
    parts.append(cost_words(brief, brief.recommended))
    if brief.recommended != "sS" and "sS" in c:
        parts.append(
            f"For comparison, the simplest rule (order up to {brief.S} when stock plus orders fall below "
            f"{brief.s}) averages {dollars(c['sS']['mean'])}, {versus_recommended(brief, 'sS')}."
        )
    if "dqn" in c:
        parts.append(dqn_lost_words(brief))
    parts.append(critic_words(brief))
    return "\n\n".join(parts)


def never_orders(brief: PolicyBrief) -> bool:
    """Is the recommended rule degenerate: it never places an order (S = 0, q = 0, or none in simulation)?"""
    r = brief.rule
    if r["kind"] in ("sS", "base_stock"):
        return r["S"] <= 0 or r.get("cap", 1) <= 0
    if r["kind"] == "constant":
        return r["q"] <= 0
    if r["kind"] == "rQ":
        return r["Q"] <= 0
    if r["kind"] == "dqn":
        return False
    ordered = r.get("ordered") or "reorder_at" in r  # "reorder_at" alone: a rule stored before "ordered"
    return not ordered or brief.costs[brief.recommended]["orders"] <= 0


def dqn_lost_words(brief: PolicyBrief) -> str:
    """Scenario A after a requested DQN: how the DQN did against the recommendation."""
    c = brief.costs
    rec, dqn = c[brief.recommended]["objective"], c["dqn"]["objective"]
    pct = 100 * (dqn - rec) / abs(rec) if rec else 0.0
    return (
        f"You asked me to also train a Deep Q-Network (DQN): it averaged {dollars(c['dqn']['mean'])} "
        f"(fill rate {100 * c['dqn']['fill_rate']:.1f}%), {percent_words(pct)} in the objective than the "
        "recommended policy on the same simulated demand, so the simpler, explainable policy wins here."
    )


def why_words(brief: PolicyBrief) -> str:
    """Why the rule's levels are what they are, from demand, lead time and costs (guarded for degenerate rules
    and for plans that cannot keep up with demand)."""
    p, r = brief.problem, brief.rule
    mean = format_number(round(p.demand.mean, 2))
    fill = 100 * brief.costs[brief.recommended]["fill_rate"]
    limits = supply_limits(p)
    if limits:
        return (
            f"Why: you sell about {mean} units a day, but {'; and '.join(limits)}. Stock cannot keep up with demand "
            f"whatever the rule, so you serve only {fill:.1f}% of it and the levels hardly matter. Please check the "
            "max order, the storage capacity and that demand is per day."
        )
    if never_orders(brief):
        return (
            f"Why: the optimizer found no order that pays for itself: the ${format_number(p.setup_cost)} order fee "
            f"and ${format_number(p.holding_cost)} per unit per day of holding outweigh the "
            f"${format_number(p.penalty_cost)} shortage penalty within the {p.time_horizon}-day plan, so you serve "
            f"{fill:.1f}% of demand. If that is not what you expect, check those costs in the table."
        )
    if r["kind"] == "constant" or "steady_order" in r:
        spoils = (
            " Unsold units spoil every day, so today's shelf says nothing about tomorrow's needs."
            if p.perishable
            else ""
        )
        verdict = (
            "at these costs that beats reacting to stock levels"  # the constant rule has the least objective
            if r["kind"] == "constant"
            else "at these costs the exact plan hardly reacts to stock levels"
        )
        return (
            f"Why: you sell about {mean} units a day, and a steady order of {r.get('q', r.get('steady_order'))} "
            f"{service_words(fill)} without any counting; {verdict}." + spoils
        )
    level = r.get("s", r.get("reorder_at", r.get("R", r.get("S"))))
    if level is None:
        return (
            f"Why: you sell about {mean} units a day and an order takes {p.lead_time} day(s) to arrive; the "
            "policy balances holding, shortage and order costs from the state you are in."
        )
    cover = p.demand.mean * (p.lead_time + 1)
    gap = level - cover
    text = (
        f"Why these numbers: you sell about {mean} units a day, and from the day you order until that delivery is "
        f"on the shelf ({p.lead_time} day(s) of lead time plus the day itself) you sell about "
        f"{format_number(round(cover, 1))} units on average; the trigger level {level} is "
    )
    if gap >= 0:
        text += f"a safety buffer of about {format_number(round(gap, 1))} units above that{_buffer_reason(p)}."
    elif fill >= 50:
        text += (
            f"about {format_number(round(-gap, 1))} units less than that, because at these costs running short "
            "now and then is cheaper than carrying extra stock."
        )
    else:
        text += (
            f"well below that, so you serve only {fill:.1f}% of demand: at these costs shortages are cheaper."
        )
    top = r.get("S", r.get("order_up_to"))
    if r["kind"] != "base_stock" and top is not None and top > level and p.setup_cost > 0:
        text += (
            f" Ordering up to {top} rather than just topping up spreads the ${format_number(p.setup_cost)} "
            f"order fee over bigger batches, against ${format_number(p.holding_cost)} per unit per day of holding."
        )
    return text


def _buffer_reason(p: InventoryProblem) -> str:
    """Why a buffer pays, from the two costs themselves: a unit short costs as much as holding one for N days."""
    short = "a missed sale" if p.lost_sales else "a unit backordered for a day"
    penalty, holding = format_number(p.penalty_cost), format_number(p.holding_cost)
    if p.holding_cost <= 0:
        return f", because {short} costs ${penalty} and holding a unit costs nothing"
    days = p.penalty_cost / p.holding_cost
    if days < 2:
        return f" ({short} costs ${penalty}, holding a unit ${holding} a day)"
    return f", because {short} (${penalty}) costs as much as holding a unit for about {days:.0f} days (${holding} a day)"


def cost_words(brief: PolicyBrief, key: str) -> str:
    """What the policy `key` costs over the plan, split by kind of cost."""
    p, v = brief.problem, brief.costs[key]
    return (
        f"What it costs: about {dollars(v['mean'])} over the {p.time_horizon}-day plan "
        f"({dollars(v['mean'] / p.time_horizon)} a day; 95% range of the average {dollars(v['ci95'][0])}–"
        f"{dollars(v['ci95'][1])}, standard deviation {dollars(v['std'])} across simulated plans): holding "
        f"{dollars(v['holding'])}, shortages {dollars(v['penalty'])}, order fees {dollars(v['setup'])}. You serve "
        f"{100 * v['fill_rate']:.1f}% of demand and place about {v['orders']:.1f} orders."
    )


def critic_words(brief: PolicyBrief) -> str:
    """The critic's checks, findings and the assumptions, for the user."""
    report = brief.critic
    passed = [c for c in report.checks if c.ok and c.severity == "error"]
    failed = [c for c in report.checks if not c.ok and c.severity == "error"]
    lines = [
        f"Before presenting it I checked it against your table: {len(passed)} check(s) passed"
        + (" (capacity, max order, the table itself)" if passed else "")
        + (
            f" and {len(failed)} failed; read the problems below before relying on this plan."
            if failed
            else "."
        )
    ]
    labels = {"error": "Problem", "warning": "Warning"}
    lines += [f"- {'Note' if c.ok else labels.get(c.severity, 'Note')}: {c.message}" for c in report.findings]
    lines.append("Assumptions: " + " ".join(report.assumptions))
    return "\n".join(lines)


def dqn_overview(brief: PolicyBrief) -> str:
    """Scenario B's opening (Figure 4): the DQN as an on-demand expert."""
    c, p = brief.costs, brief.problem
    ss = c.get("sS")
    compare = ""
    if ss:
        said = percent_words(100 * (c["dqn"]["mean"] - ss["mean"]) / max(abs(ss["mean"]), 1e-9))
        if said == "about the same":
            compare = f", about the same as the standard (s,S) policy's {dollars(ss['mean'])}"
        elif said.endswith("less"):
            compare = f", lower than the standard (s,S) policy's {dollars(ss['mean'])}"
        else:  # the DQN wins on the risk-weighted objective, not on the average
            compare = (
                f", {said} than the standard (s,S) policy's {dollars(ss['mean'])} on average, but lower once your "
                "risk preference also weighs how much the cost varies"
            )
    pipeline = (
        f" and any Pipeline Orders (the {p.lead_time} incoming order(s), next arrival first, 0 for none)"
        if p.lead_time
        else ""
    )
    return "\n\n".join(
        [
            f"I have analyzed the policies. The Deep Q-Network (DQN) is the best-performing policy for your "
            f"objective (average cost {dollars(c['dqn']['mean'])} over {p.time_horizon} days{compare}). The DQN "
            "uses a neural network to choose each day's order from the current state, so think of it as an "
            "on-demand expert: to get a recommendation, tell me your Current Inventory, the Current Time Step "
            f"(the day of the plan){pipeline}.",
            cost_words(brief, "dqn"),
            critic_words(brief),
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
