"""The Inventory Copilot's dialogue acts, learned from `core/inventory/intents.toml` (see `core.text.intents`),
plus what the offline agent says for the acts that are not values: definitions, defaults for "skip"."""

from __future__ import annotations

from pathlib import Path

from core.inventory.table import ParameterTable
from core.text.intents import IntentClassifier, Prediction, classifier
from solvers.inventory.spec import parse_demand

BANK = Path(__file__).resolve().parents[1] / "intents.toml"
QUESTION_ACTS = frozenset({"ask_meaning", "recommend", "compare", "what_if", "order_question"})
RISK_ACTS = {"risk_averse": "-5", "risk_neutral": "0", "risk_seeking": "5"}
TRANSITION_ACTS = {"lost_sale": "lost_sale", "backlog": "backlog"}

MEANINGS: dict[str, str] = {
    "demand_type": "Demand type says whether you sell the same amount every day (fixed) or an amount that "
    "varies from day to day (random).",
    "demand_distribution": "The demand distribution describes how many units customers want per day: a typical "
    "amount and how much it varies.",
    "state_transition_model": "When you are out of stock, either the customer goes elsewhere (a lost sale) or "
    "waits until you restock (a backlog, also called a backorder).",
    "perishability": "Perishable items spoil: what is not sold by the end of the day is thrown away.",
    "time_horizon": "The planning horizon is how many days ahead the plan covers, for example 30 or 90 days.",
    "holding_cost": "The holding cost is what one unit costs you to keep in stock for one day: storage, "
    "cooling, insurance, money tied up.",
    "penalty_cost": "The penalty cost is what it costs you when a customer wants a unit you do not have: the "
    "lost margin and goodwill for a lost sale, or the cost per day of making a backordered customer wait.",
    "setup_cost": "The setup cost is the fixed fee of placing one order, whatever its size (a delivery fee, "
    "paperwork). Say 0 if there is none.",
    "lead_time": "The lead time is how many days pass between placing an order and having it on the shelf.",
    "max_inventory": "The storage capacity is the most units you can keep at once.",
    "max_order": "The max order is the largest quantity your supplier will deliver in one order.",
    "risk_tolerance": "Risk tolerance says how much you care about a bad month versus the average month: "
    "-10 (risk-averse) means: keep enough stock that a busy day never leaves you short, even if you carry or "
    "throw away more on average; 10 (risk-seeking) means: only the average cost matters, you accept the odd "
    "bad day; 0 is neutral.",
}

DEFAULTS: dict[str, tuple[str, str]] = {
    "demand_type": ("random", "demand varies from day to day"),
    "state_transition_model": ("lost_sale", "a customer who finds you out of stock buys elsewhere"),
    "perishability": ("false", "items do not spoil"),
    "time_horizon": ("30", "plan for 30 days"),
    "setup_cost": ("0", "no fixed fee per order"),
    "lead_time": ("1", "an order arrives the next day"),
    "risk_tolerance": (
        "0",
        "risk-neutral, the middle of the scale: a bad month weighs as much as the average",
    ),
}
"""What "skip" / "use a default" stores for a row, and the assumption in words. Rows that carry the
business's own numbers (demand, costs, capacity) have no honest default: the agent asks for a rough figure."""

EXAMPLES: dict[str, str] = {
    "demand_type": "'it varies' or 'always exactly 20'",
    "demand_distribution": "'about 20 a day, give or take 5'",
    "state_transition_model": "'they leave' (A, lost sale) or 'they wait' (B, backlog)",
    "perishability": "'yes, it spoils' or 'no, it keeps'",
    "time_horizon": "'30 days'",
    "holding_cost": "'50 cents per unit per day'",
    "penalty_cost": "'$5 per unit short'",
    "setup_cost": "'$10 per order' or '0'",
    "lead_time": "'2 days'",
    "max_inventory": "'200 units'",
    "max_order": "'100 units' or 'no limit'",
    "risk_tolerance": "'-5' (careful), '0' (neutral) or '5' (bold)",
}


def acts() -> IntentClassifier:
    """The trained classifier (once per process)."""
    return classifier(str(BANK))


def predict(text: str) -> Prediction:
    """The dialogue act of one message."""
    return acts().predict(text)


def placeholder(key: str, table: ParameterTable) -> tuple[str, str, str] | None:
    """(value, unit, words) for a business figure the user skipped twice: a placeholder tied to what the table
    already knows where possible, always labelled as an assumption; None for demand itself."""
    mean = None
    if table.is_defined("demand_distribution"):
        demand = parse_demand(table.value("demand_distribution") or "")
        mean = (
            demand.params[0]
            if demand.kind in ("poisson", "normal", "deterministic")
            else sum(demand.params) / 2
        )
    if key == "holding_cost":
        return "0.1", "USD/unit/day", "placeholder: 10 cents per unit per day"
    if key == "penalty_cost":
        holding = float(table.value("holding_cost") or 0.1)
        return f"{holding * 10:g}", "USD/unit", "placeholder: ten times the daily holding cost"
    if key == "max_inventory":
        size = max(10, round((mean or 10) * 14))
        return str(size), "units", "placeholder: room for about two weeks of demand"
    return None
