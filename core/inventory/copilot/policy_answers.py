"""The offline interpretation agent's answers to questions that are not order queries.

`answer_question(brief, text)` routes a question about the recommended policy: the simpler (s,S) alternative
for a skeptical user (whenever the recommendation is not the plain (s,S) rule), a fixed daily order the user
proposes (evaluated with the engine on common demand paths), costs (the holding / shortage / order-fee split
of the engine's evaluation), assumptions, the comparison table and the rule itself.
"""

from __future__ import annotations

from bisect import bisect_left

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
from core.text.cues import WordCue
from core.text.mentions import Kind, Mention, Message, parse
from solvers.inventory.montecarlo import demand_matrix, evaluate_policies
from solvers.inventory.policies import ConstantPolicy
from solvers.inventory.spec import format_number

# The cues of a question about the policy, read from the one parse's words (`core.text.cues.WordCue`).
_WHAT_DQN = tuple(
    (*what, *article, *thing)
    for what in (("what's",), ("what", "is"), ("what", "are"))
    for article in ((), ("a",), ("the",), ("this",))
    for thing in (("dqn",), ("deep", "q"), ("neural",), ("q", "network"))
)
_SKEPTIC_STEMS = ("trust", "confus", "skeptic", "sceptic", "complex", "simpl", "prefer", "intuitive")
_SKEPTIC_PHRASES = (("don't", "get"), ("dont", "get"), ("don't", "understand"), ("dont", "understand"),
                    ("black", "box"), ("not", "sure"), ("why", "should"), ("too", "complicated"), ("rather", "have"))  # fmt: skip
SKEPTIC_CUE = WordCue(inside=_SKEPTIC_STEMS, phrases=_SKEPTIC_PHRASES)
"""Doubt about the recommendation ('I don't trust a black box', 'something simpler', 'too complicated')."""
CONFUSED_CUE = WordCue(
    inside=(*_SKEPTIC_STEMS, "explain", "understand"),
    phrases=(*_SKEPTIC_PHRASES, *_WHAT_DQN, *(("how", do, it, "work") for do in ("does", "do") for it in ("it", "that")),
             ("how", "does", "the", "dqn", "work"), ("how", "do", "the", "dqn", "work")),
)  # fmt: skip
"""Doubt or a question about the DQN ('what's a DQN?', 'how does it work?', 'explain')."""
_CHOOSE = WordCue(runs=(("use",), ("go", "with"), ("take",), ("adopt",), ("prefer",), ("choose",), ("pick",)))
_SIMPLE_RULE = WordCue(starts=("simple", "ss", "rule"), runs=(("s", "s"),))
_BETTER_RULE = WordCue(starts=("better", "dqn", "best"))
_ORDER_VERBS = ("order", "buy", "get", "restock")
"""Ordering verbs, also at the end of a longer word ('reorder'); and 'bring in'."""
COST_CUE = WordCue(
    inside=("cost", "expens", "budget", "money", "spend"),
    phrases=(("how", "much", "will"), ("how", "much", "would"), ("how", "much", "does")),
)
"""A question about what the policy costs."""
COMPONENT_CUES = (
    ("holding", WordCue(inside=("holding", "storage", "storing", "carrying")), "holding costs"),
    (
        "penalty",
        WordCue(inside=("shortage", "penalt", "backorder", "backlog", "stockout"),
                phrases=(("lost", "sale"), ("stock", "out"))),
        "shortage penalties",
    ),
    (
        "setup",
        WordCue(inside=("setup", "shipping", "fixed"), phrases=(("order", "fee"), ("ordering", "fee"), ("set", "up"))),
        "order fees",
    ),
)  # fmt: skip
"""The kinds of cost a question names, with the engine's cost key and their name in the answer."""
ASSUME_CUE = WordCue(
    inside=("assum", "start", "round", "arriv", "check", "critic"),
    phrases=tuple(("when", do, what) for do in ("do", "does") for what in ("order", "deliver")),
)
"""A question about the assumptions and checks ('what did you assume?', 'when do orders arrive?')."""
COMPARE_CUE = WordCue(
    inside=("compar", "alternative", "versus", "instead", "differen"), exact=frozenset(["vs"]),
    phrases=(("other", "polic"),),
)  # fmt: skip
"""A question about the other policies compared."""
RULE_CUE = WordCue(
    inside=("reorder", "rule"),
    phrases=(
        *((when, verb, who, "order") for when, verb in (("when", "should"), ("when", "do")) for who in ("i", "we")),
        *(("how", "much", verb, who, "order") for verb in ("should", "do") for who in ("i", "we")),
        ("order", "up", "to"),
        *(("how", "does", it, "work") for it in ("it", "this")),
        ("how", "does", "the", "policy", "work"),
    ),
)
"""A question about the rule itself ('when should I order?', 'order-up-to'; the letter s: `_names_s`)."""
ORDER_CUE = WordCue(inside=("order", "inventory", "stock", "day", "step"), phrases=(("on", "hand"),))
"""Talk about ordering or the stock: the answer asks for the stock figures."""
WHAT_IF_CUE = WordCue(exact=frozenset(["suppose", "imagine"]),
                      runs=(("what", "if"), ("what", "happens"), ("what", "would", "happen")))  # fmt: skip
"""A what-if question ('what if demand doubles?', 'suppose sales drop 20%')."""
DEMAND_CUE = WordCue(inside=("demand", "sales", "sell", "customers", "busy", "rush"))
"""What a what-if must be about to be simulated (demand)."""
_FACTOR_CUES = (
    (WordCue(starts=("tripl",)), 3.0),
    (WordCue(starts=("doubl",), exact=frozenset(["twice"])), 2.0),
    (WordCue(starts=("halv",), exact=frozenset(["half"])), 0.5),
)
_UP_WORDS = frozenset(["up", "rise", "rises", "grow", "grows", "increase", "increases", "more", "jump", "jumps"])
_WINDOWS = (
    (WordCue(exact=frozenset(["weekend"])), 2, "one weekend (days 6 and 7 of the plan)"),
    (WordCue(runs=(("one", "week"), ("a", "week"), ("next", "week"))), 7, "one week (the first 7 days of the plan)"),
    (WordCue(exact=frozenset(["tomorrow"]), runs=(("one", "day"), ("a", "day"), ("single", "day"))), 1,
     "one day (day 1 of the plan)"),
)  # fmt: skip
_WHAT_IF_PATHS = 300


def demand_factor(text: str) -> float | None:
    """How a what-if question scales demand: 'doubles' 2, 'halves' 0.5, 'up 30%' 1.3, 'drops by 20%' 0.8."""
    message = parse(text)
    words = message.words()
    for cue, factor in _FACTOR_CUES:
        if cue.found(words):
            return factor
    found = [m for m in message.of(Kind.QUANTITY, live_only=False) if m.unit == "percent"]
    if found:
        share = found[0].amount / 100
        return 1 + share if _UP_WORDS & set(words) else max(0.0, 1 - share)
    return None


def what_if_answer(brief: PolicyBrief, text: str) -> str | None:
    """A what-if about demand, answered by simulating the recommended policy on the same demand paths with
    demand scaled over the window asked about; None when the question names no demand change."""
    factor = demand_factor(text)
    said = parse(text).words()
    if factor is None or not DEMAND_CUE.found(said):
        return None
    p = brief.problem
    paths = min(brief.paths, _WHAT_IF_PATHS)
    base = demand_matrix(p, paths, brief.seed + 7919)
    days, words = p.time_horizon, f"the whole {p.time_horizon}-day plan"
    start = 0
    for cue, length, label in _WINDOWS:
        if cue.found(said):
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
        f"{changed.stockout_periods:.1f} days instead of {normal.stockout_periods:.1f}. {_reacts(brief)}"
    )


def _reacts(brief: PolicyBrief) -> str:
    """How the recommended rule meets a change in demand, from its kind and the lead time."""
    r, lead = brief.rule, brief.problem.lead_time
    if r["kind"] == "constant" or "daily_order" in r:
        return "A fixed daily order does not react to the stock: the change in demand reaches the shelf directly."
    if lead == 0:
        return "The policy itself reacts to lower stock by ordering more, and with no lead time those orders arrive the same day."
    days = "a day" if lead == 1 else f"{lead} days"
    return f"The policy itself reacts to lower stock by ordering more, but those orders take {days} to arrive."


def answer_question(brief: PolicyBrief, text: str) -> str:
    """The answer to a question that is not an order query (without the closing question)."""
    message = parse(text)
    words = message.words()
    if (WHAT_IF_CUE.found(words) or predict(text).intent == "what_if") and (answer := what_if_answer(brief, text)):
        return answer
    b = brief.scenario == "B"
    simpler = simplest_alternative(brief)
    if simpler and _chooses(words, _SIMPLE_RULE):
        return (
            f"Understood, the simpler rule it is: {_simpler_offer(brief, simpler)}, in exchange for a "
            "rule you can apply by hand."
        )
    if b and _chooses(words, _BETTER_RULE):
        return (
            "Great choice! To use the DQN policy and get an optimal order recommendation, I'll need: 1. your "
            "Current Inventory Level, 2. the Current Time Step (day of the plan), 3. the Pipeline Orders (any "
            "incoming orders, as a comma-separated list, next arrival first)."
        )
    if b and CONFUSED_CUE.found(words):
        return (
            "The Deep Q-Network (DQN) is a reinforcement-learning method: a neural network that learned, from "
            "many simulated plans of your business, how much total cost each possible order leads to from a "
            "given state (stock on hand, the day, orders on the way), and it recommends the cheapest one. It "
            "adapts the order to the situation rather than following a fixed threshold.\n\n"
            f"If you're interested in a simpler policy, the (s = {brief.s}, S = {brief.S}) policy exists but it "
            f"costs {_ss_versus(brief)}: {ss_sentence(brief)} Which policy would you like to use?"
        )
    if simpler and SKEPTIC_CUE.found(words):
        return (
            f"That's fair. If you'd rather have something simpler: {_simpler_offer(brief, simpler)}. Which policy "
            "would you like to use?"
        )
    if (daily := fixed_daily_order(message)) is not None:
        return constant_answer(brief, daily)
    if ASSUME_CUE.found(words):
        return critic_words(brief)
    if COMPARE_CUE.found(words):
        return "Here is how every policy did on the same simulated demand:\n" + cost_table(brief)
    if COST_CUE.found(words):
        return cost_answer(brief, text)
    if (RULE_CUE.found(words) or _asks_meaning(words) or _names_s(message)) and not b:
        return f"{rule_sentence(brief)}\n\n{why_words(brief)}"
    if ORDER_CUE.found(words):
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


def _chooses(words: tuple[str, ...], target: WordCue) -> bool:
    """'go with the simpler rule', 'use (s,S)', 'pick the DQN': a choosing verb, maybe 'the', then the target."""
    for i in _CHOOSE.where(words):
        k = i + _CHOOSE.length_at(words, i)
        k += 1 if words[k : k + 1] == ("the",) else 0
        if k < len(words) and target.length_at(words, k):
            return True
    return False


def _names_s(message: Message) -> bool:
    """The letter s as a word of its own ('what is s?', '(s, S)'), not the s of '90s' or 'it's'."""
    text = message.text
    return any(
        w == "s" and (a == 0 or not (text[a - 1].isalnum() or text[a - 1] == "'"))
        for w, (a, _) in zip(message.words(), message.word_spans(), strict=True)
    )


def _asks_meaning(words: tuple[str, ...]) -> bool:
    """'what does s mean?', 'what does order-up-to mean': 'what does', then 'mean' later on."""
    return any(words[i : i + 2] == ("what", "does") and "mean" in words[i + 2 :] for i in range(len(words)))


def fixed_daily_order(message: Message) -> int | None:
    """A fixed daily order the user proposes, from the parse: a whole count per day right after an ordering
    verb ('why not just order 20 every day?', 'buy exactly 5 units a day'), or an order after 'every day'
    ('every day, just order 7')."""
    words, starts = message.words(), [a for a, _ in message.word_spans()]
    for m in message.of(Kind.QUANTITY, live_only=False):
        if m.unit not in (None, "item") or m.container or m.amount != int(m.amount) or m.amount < 0:
            continue
        k = bisect_left(starts, m.span[0])
        k -= 1 if k > 0 and words[k - 1] in ("just", "only", "exactly") else 0
        if k > 0 and words[k - 1].endswith(_ORDER_VERBS):
            verb = k - 1
        elif words[max(0, k - 2) : k] == ("bring", "in"):
            verb = k - 2
        else:
            continue
        before = words[:verb][-3:]
        before = before[:-1] if before[-1:] == ("just",) else before
        if m.per == "day" or (before[-2:] in (("every", "day"), ("each", "day")) and words[verb] in ("order", "buy")):
            return int(m.amount)
    return None


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
    message = parse(text)
    days = [m.days for m in message.of(Kind.DURATION, live_only=False) if m.days and _counted(m)]
    span = next((int(d) for d in days if d > 0 and d != T), None)
    words = message.words()
    parts = []
    for key, cue, label in COMPONENT_CUES:
        if cue.found(words):
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


def _counted(span: Mention) -> bool:
    """A span stated with a number ('over 90 days', 'the 90-day plan', 'two weeks'), not 'a day' or 'overnight'."""
    first = span.text.lower().replace("-", " ").split()[0]
    return span.days == int(span.days or 0) and first not in ("a", "an", "one", "overnight", "night", "the", "per")


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
