"""The offline interpretation agent's answers to questions that are not order queries.

`answer_question(brief, text)` routes a question about the recommended policy: the simpler (s,S) alternative
for a skeptical user (whenever the recommendation is not the plain (s,S) rule), a fixed daily order the user
proposes (evaluated with the engine on common demand paths), costs (the holding / shortage / order-fee split
of the engine's evaluation), assumptions, the comparison table and the rule itself.
"""

from __future__ import annotations

import re

from core.inventory.copilot.critic import FAMILY_NAMES, dollars
from core.inventory.copilot.policy_brief import PolicyBrief
from core.inventory.copilot.policy_explanation import (
    compare_words,
    cost_table,
    cost_words,
    critic_words,
    percent_words,
    rule_sentence,
    ss_sentence,
    versus_recommended,
    why_words,
)
from core.inventory.nlu.intents import predict
from core.inventory.policy_names import engine_call, plain_name
from core.text.numbers import find_percentages, words_to_digits
from solvers.inventory.montecarlo import demand_matrix, evaluate_policies
from solvers.inventory.policies import ConstantPolicy
from solvers.inventory.spec import format_number

_CONFUSED_RE = re.compile(
    r"what(?:'s| is| are)\s+(?:a |the |this )?(?:dqn|deep q|neural|q[- ]network)|don'?t (?:get|understand|"
    r"trust)|confus|skeptic|sceptic|black[- ]box|not sure|why should|how (?:does|do) (?:it|the dqn|that) work|"
    r"too complicated|complex|simpl|explain|trust|rather have|prefer|intuitive|understand",
    re.I,
)
_SKEPTIC_RE = re.compile(
    r"don'?t (?:get|understand|trust)|trust|confus|skeptic|sceptic|black[- ]box|not sure|why should|"
    r"too complicated|complex|simpl|rather have|prefer|intuitive",
    re.I,
)
_CHOOSE_SS_RE = re.compile(
    r"(?:use|go with|take|adopt|prefer|choose|pick)\s+(?:the\s+)?(?:simple|simpler|\(?s\s*,\s*s\)?|ss|rule)",
    re.I,
)
_CHOOSE_DQN_RE = re.compile(
    r"(?:use|go with|take|adopt|prefer|choose|pick)\s+(?:the\s+)?(?:better|dqn|best)", re.I
)
_CONSTANT_RE = re.compile(
    r"(?:order|buy|get|bring in|restock)\s+(?:just\s+|only\s+|exactly\s+)?(\d+)\s*(?:units?\s+|items?\s+)?"
    r"(?:every|each|a|per)\s+day|(?:every|each)\s+day,?\s+(?:just\s+)?(?:order|buy)\s+(\d+)",
    re.I,
)
_COST_RE = re.compile(r"cost|expens|how much (?:will|would|does)|budget|money|spend", re.I)
_COMPONENTS = (
    ("holding", re.compile(r"holding|storage|storing|carrying", re.I), "holding costs"),
    (
        "penalty",
        re.compile(r"shortage|penalt|lost sales?|backorder|backlog|stock-?outs?", re.I),
        "shortage penalties",
    ),
    ("setup", re.compile(r"order(?:ing)? fees?|setup|set-up|shipping|fixed", re.I), "order fees"),
)
_DAYS_RE = re.compile(r"(\d+)\s*(?:-\s*)?days?", re.I)
_ASSUME_RE = re.compile(r"assum|start|round|when do(?:es)? (?:orders?|deliver)|arriv|check|critic", re.I)
_COMPARE_RE = re.compile(r"compar|other polic|alternative|versus|\bvs\b|instead|differen", re.I)
_RULE_RE = re.compile(
    r"when (?:should|do) (?:i|we) order|how much (?:should|do) (?:i|we) order|reorder|order[- ]up[- ]to|"
    r"\bs\b|what does .* mean|rule|how does (?:it|this|the policy) work",
    re.I,
)
_ORDER_WORDS_RE = re.compile(r"order|inventory|stock|on hand|day|step", re.I)


_WHAT_IF_RE = re.compile(r"\bwhat if\b|\bwhat happens\b|\bsuppose\b|\bimagine\b|\bwhat would happen\b", re.I)
_FACTOR_WORDS = (
    (re.compile(r"\btripl", re.I), 3.0),
    (re.compile(r"\bdoubl|\btwice\b", re.I), 2.0),
    (re.compile(r"\bhalv|\bhalf\b", re.I), 0.5),
)
_UP_RE = re.compile(r"\b(?:up|rise|rises|grow|grows|increase|increases|more|jump|jumps)\b", re.I)
_WINDOWS = (
    (re.compile(r"\bweekend\b", re.I), 2, "one weekend (days 6 and 7 of the plan)"),
    (re.compile(r"\b(?:one|a|for a|next) week\b", re.I), 7, "one week (the first 7 days of the plan)"),
    (re.compile(r"\b(?:one|a|single) day\b|\btomorrow\b", re.I), 1, "one day (day 1 of the plan)"),
)
_WHAT_IF_PATHS = 300


def demand_factor(text: str) -> float | None:
    """How a what-if question scales demand: 'doubles' 2, 'halves' 0.5, 'up 30%' 1.3, 'drops by 20%' 0.8."""
    for pattern, factor in _FACTOR_WORDS:
        if pattern.search(text):
            return factor
    found = find_percentages(words_to_digits(text))
    if found:
        share = found[0].value
        return 1 + share if _UP_RE.search(text) else max(0.0, 1 - share)
    return None


def what_if_answer(brief: PolicyBrief, text: str) -> str | None:
    """A what-if about demand, answered by simulating the recommended policy on the same demand paths with
    demand scaled over the window asked about; None when the question names no demand change."""
    factor = demand_factor(text)
    if factor is None or not re.search(r"demand|sales|sell|customers|busy|rush", text, re.I):
        return None
    p = brief.problem
    paths = min(brief.paths, _WHAT_IF_PATHS)
    base = demand_matrix(p, paths, brief.seed + 7919)
    days, words = p.time_horizon, f"the whole {p.time_horizon}-day plan"
    start = 0
    for pattern, length, label in _WINDOWS:
        if pattern.search(text):
            start = 5 if length == 2 else 0
            days, words = min(length, p.time_horizon - start), label
            break
    scaled = base.astype(float).copy()
    scaled[:, start : start + days] = scaled[:, start : start + days] * factor
    scaled = scaled.round().astype(base.dtype)
    normal, changed = (evaluate_policies(p, [brief.policy], paths, demand=d)[0] for d in (base, scaled))
    diff = changed.mean - normal.mean
    more = "more" if diff >= 0 else "less"
    short = "lost" if p.lost_sales else "backordered"
    return (
        f"I simulated the recommended policy on {paths} demand paths with demand x{format_number(factor)} over "
        f"{words}, against the same paths unchanged. Cost over the plan: {dollars(changed.mean)} instead of "
        f"{dollars(normal.mean)} ({dollars(abs(diff))} {more}); you would serve {100 * changed.fill_rate:.1f}% "
        f"of demand instead of {100 * normal.fill_rate:.1f}% (the rest is {short}), with stock-outs on "
        f"{changed.stockout_periods:.1f} days instead of {normal.stockout_periods:.1f}. The policy itself reacts "
        "to lower stock by ordering more, but orders take the lead time to arrive."
    )


def answer_question(brief: PolicyBrief, text: str) -> str:
    """The answer to a question that is not an order query (without the closing question)."""
    if (_WHAT_IF_RE.search(text) or predict(text).intent == "what_if") and (
        answer := what_if_answer(brief, text)
    ):
        return answer
    b = brief.scenario == "B"
    simpler = simplest_alternative(brief)
    if simpler and _CHOOSE_SS_RE.search(text):
        return (
            f"Understood, the simpler rule it is: {_simpler_offer(brief, simpler)}, in exchange for a "
            "rule you can apply by hand."
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
            f"costs {_ss_versus(brief)}: {ss_sentence(brief)} Which policy would you like to use?"
        )
    if simpler and _SKEPTIC_RE.search(text):
        return (
            f"That's fair. If you'd rather have something simpler: {_simpler_offer(brief, simpler)}. Which policy "
            "would you like to use?"
        )
    if m := _CONSTANT_RE.search(words_to_digits(text)):
        return constant_answer(brief, int(m.group(1) or m.group(2)))
    if _ASSUME_RE.search(text):
        return critic_words(brief)
    if _COMPARE_RE.search(text):
        return "Here is how every policy did on the same simulated demand:\n" + cost_table(brief)
    if _COST_RE.search(text):
        return cost_answer(brief, text)
    if _RULE_RE.search(text) and not b:
        return f"{rule_sentence(brief)}\n\n{why_words(brief)}"
    if _ORDER_WORDS_RE.search(text):
        need = "how many units you have on hand" + (
            " and what is already on order (next delivery first)" if brief.problem.lead_time else ""
        )
        return f"To tell you how much to order now, tell me {need}, for example 'we have 4 on hand, nothing on order'."
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


SIMPLER_TOLERANCE_PCT = 5.0
"""'Something simpler?' offers the simplest rule whose objective is at most this much above the recommendation."""
SIMPLICITY = (
    "constant",
    "constant_cutoff",
    "base_stock",
    "base_stock_cutoff",
    "sS",
    "sS_cutoff",
    "rQ",
    "rQ_cutoff",
)
"""Finalist keys from the simplest rule to apply by hand to the most involved."""


def simplest_alternative(brief: PolicyBrief) -> str | None:
    """The finalist key to offer a user who wants something simpler: the simplest plain rule within
    `SIMPLER_TOLERANCE_PCT` of the recommendation in the objective, else the cheapest plain rule."""
    c = brief.costs
    rec = c[brief.recommended]["objective"]
    plain = [k for k in SIMPLICITY if k in c and k != brief.recommended]
    if not plain or brief.recommended in SIMPLICITY[: SIMPLICITY.index(plain[0])]:
        return None

    def gap(k: str) -> float:
        return 100 * (c[k]["objective"] - rec) / max(abs(rec), 1e-9)

    close = [k for k in plain if gap(k) <= SIMPLER_TOLERANCE_PCT]
    return close[0] if close else min(plain, key=gap)


def alternative_sentence(brief: PolicyBrief, key: str) -> str:
    """A finalist rule as an instruction, from its engine name."""
    name = brief.costs[key]["policy"]
    if key.startswith("sS") and key != "sS":
        call = engine_call(name)
        if call and call.kind == "sS" and len(call.args) == 2 and all(a.isdigit() for a in call.args):
            return f"If stock on hand plus on order is below {call.args[0]}, order up to {call.args[1]}."
    if key == "sS":
        return ss_sentence(brief)
    text = plain_name(name, brief.problem, unit="units")
    return text[:1].upper() + text[1:] + "." if text != name else f"Use {name}."


def _ss_versus(brief: PolicyBrief) -> str:
    """'55.9% more' (the paper's Scenario B wording, in L(π)), with the average added when it points the other
    way."""
    said = percent_words(brief.cost_diff_pct)
    if "sS" in brief.costs and brief.recommended in brief.costs:
        ss, rec = brief.costs["sS"]["mean"], brief.costs[brief.recommended]["mean"]
        mean_pct = 100 * (ss - rec) / max(abs(rec), 1e-9)
        if (mean_pct > 0) != (brief.cost_diff_pct > 0) and round(abs(mean_pct), 1) > 0:
            said += f" in the risk-weighted cost, though {percent_words(mean_pct)} on average"
    return said


def _simpler_offer(brief: PolicyBrief, key: str) -> str:
    c = brief.costs
    rec = c[brief.recommended]
    name = FAMILY_NAMES.get(brief.recommended, brief.recommended)
    return (
        f"{alternative_sentence(brief, key)} It costs {versus_recommended(brief, key)} than the {name}, "
        f"averaging {dollars(c[key]['mean'])} versus {dollars(rec['mean'])} over the "
        f"{brief.problem.time_horizon}-day plan"
    )


def cost_answer(brief: PolicyBrief, text: str) -> str:
    """What the recommended policy costs; a named kind of cost first, scaled when another span is asked."""
    p, v = brief.problem, brief.costs[brief.recommended]
    T = p.time_horizon
    days = [int(d) for d in _DAYS_RE.findall(words_to_digits(text))]
    span = next((d for d in days if d > 0 and d != T), None)
    parts = []
    for key, pattern, label in _COMPONENTS:
        if pattern.search(text):
            sentence = f"The {label} come to about {dollars(v[key])} over the {T}-day plan ({dollars(v[key] / T)} a day)"
            if span is not None:
                sentence += (
                    f"; the plan covers {T} days, so over {span} days at the same daily rate that is about "
                    f"{dollars(v[key] / T * span)}"
                )
            parts.append(sentence + ".")
    if span is not None and not parts:
        parts.append(
            f"The plan covers {T} days; over {span} days at the same daily rate the total would be about "
            f"{dollars(v['mean'] / T * span)}."
        )
    return " ".join([*parts, cost_words(brief, brief.recommended)])


def constant_answer(brief: PolicyBrief, q: int) -> str:
    """Compare a fixed daily order of `q` units with the recommended policy on common simulated paths."""
    p = brief.problem
    used = min(q, p.max_order)
    rec, fixed = evaluate_policies(p, [brief.policy, ConstantPolicy(used)], brief.paths, brief.seed + 104_729)
    lam = p.risk_tolerance
    diff = 100 * (fixed.objective(lam) - rec.objective(lam)) / max(abs(rec.objective(lam)), 1e-9)
    capped = (
        f" You can order at most {p.max_order} units at once, so I evaluated {used} a day."
        if used < q
        else ""
    )
    compared = compare_words(fixed.mean, rec.mean, fixed.objective(lam), rec.objective(lam))
    average, _, risk = compared.partition(" (")
    verdict = (
        f"{average} than the recommended policy" + (f" ({risk}" if risk else "")
        if diff > 0
        else f"{average} than the recommended policy" + (f" ({risk}" if risk else "") + ", so on these paths it "
        "is as good or better; it was among the finalists I compared"
    )
    why = (
        " A fixed order ignores how much stock you have, so it piles up stock when demand is low and runs short "
        "when it is high."
        if diff > 0
        else ""
    )
    best = brief.costs.get("constant")
    hint = (
        f" The best fixed daily order I found is {best['policy']}, averaging {dollars(best['mean'])}."
        if best and best["policy"] != fixed.policy
        else ""
    )
    return (
        f"Ordering {format_number(used)} units every day, whatever the stock, would cost about "
        f"{dollars(fixed.mean)} over the {p.time_horizon}-day plan (holding {dollars(fixed.holding_cost)}, "
        f"shortages {dollars(fixed.penalty_cost)}, order fees {dollars(fixed.setup_cost)}; you would serve "
        f"{100 * fixed.fill_rate:.1f}% of demand), against {dollars(rec.mean)} for the recommended policy on the "
        f"same {brief.paths} simulated demand paths: {verdict}.{capped}{why}{hint}"
    )
